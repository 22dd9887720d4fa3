"""Text from files, printed for people: a name or a journal line another player wrote is
shown as written, but its control characters (an escape sequence that would clear the
screen, retitle the window or fake a line; a tab that breaks a column) are shown as
escapes, never sent to the terminal."""

from __future__ import annotations

import re

# C0 and C1 controls and DEL, and the bidirectional overrides that reorder what is shown.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def control_in(text: str) -> str | None:
    """The first control character in `text`, as an escape ("\\t"), or None."""
    found = _CONTROL.search(text)
    return printable(found.group()) if found else None


def printable(text: str) -> str:
    if text.isprintable():  # no control character, nor any other that needs a look
        return text
    return _CONTROL.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"),
                        text)
