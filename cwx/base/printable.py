"""Text from files, printed for people: a name or a journal line another player wrote is
shown as written, but its control characters (an escape sequence that would clear the
screen, retitle the window or fake a line; a tab that breaks a column) are shown as
escapes, never sent to the terminal."""

from __future__ import annotations

import functools
import re

# C0 and C1 controls and DEL; the line and paragraph separators; the bidirectional
# overrides and isolates that reorder what is shown, and the deprecated format marks.
# None of them is printable (str.isprintable), so text that is needs no search.
CONTROLS = ((0x00, 0x1F), (0x7F, 0x9F), (0x2028, 0x2029), (0x202A, 0x202E), (0x2066, 0x206F))


@functools.cache
def _control() -> re.Pattern[str]:
    """Any of them, compiled when text that is not printable first comes: 3M instructions,
    which a git hook that shows nothing of the kind never spends."""
    return re.compile("[" + "".join(f"{chr(low)}-{chr(high)}" for low, high in CONTROLS) + "]")


def pattern() -> str:
    """A regular expression for any of them, as JSON Schema writes one (for the schemas)."""
    return "[" + "".join(f"\\u{low:04x}-\\u{high:04x}" for low, high in CONTROLS) + "]"


def control_in(text: str) -> str | None:
    """The first control character in `text`, as an escape ("\\t"), or None."""
    if text.isprintable():
        return None
    found = _control().search(text)
    return printable(found.group()) if found else None


def printable(text: str) -> str:
    if text.isprintable():  # no control character, nor any other that needs a look
        return text
    return _control().sub(lambda found: found.group().encode("unicode_escape").decode("ascii"),
                        text)


def noted(text: str) -> str:
    """A note of cwx's beside a result, as one line (cli/plain.py's `note` prints it): a
    line another cwx said already (a hook's, relayed by git) keeps its own prefix."""
    text = printable(" ".join(text.split()))
    return text if text.startswith("cwx: ") else f"cwx: note: {text}"


def named(text: str) -> str:
    """A name (a player's, a character's) as `printable` shows it, with each letter that
    prints nothing escaped too: "Vic" and "Vic" with a braille blank or a Hangul filler
    after it read apart."""
    shown = printable(text)
    if shown.isascii():
        return shown
    return "".join(char.encode("unicode_escape").decode("ascii") if _invisible(char)
                   else char for char in shown)


@functools.lru_cache(maxsize=1024)
def _invisible(char: str) -> bool:
    """Whether a letter prints nothing a reader sees, by Unicode's properties: a format
    mark, a letter not assigned or private, a space but the plain one, and those Unicode
    names a blank, a filler or a variation selector (the braille blank, the Hangul
    fillers)."""
    if char.isascii():
        return False
    import unicodedata

    if unicodedata.category(char) in ("Cf", "Cn", "Co", "Cs", "Zs", "Zl", "Zp"):
        return True
    from cwx.base.lookalike import named_blank

    return named_blank(char) or "VARIATION SELECTOR" in unicodedata.name(char, "") or \
        char == "\u034f"  # the grapheme joiner
