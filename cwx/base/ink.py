"""Text for people, inked: the dice in their colours, success and failure, plurals. Pure:
whether colour is on is the caller's to say (cli/output.py decides it for a terminal)."""

from __future__ import annotations

import os

_ANSI = {
    "red": "31", "yellow": "33", "blue": "34", "white": "97", "black": "90",
    "orange": "38;5;208", "green": "32", "purple": "35",
    "bold": "1", "dim": "2", "good": "32", "bad": "31",
}
# Orange has no colour of its own among a basic terminal's sixteen: there it is the
# bright red (the table already takes white and black from the bright eight).
_BASIC = {"orange": "91"}


def many_colours() -> bool:
    """Whether the terminal is known to take 256 colours (or 24-bit ones)."""
    return (os.environ.get("COLORTERM") in ("truecolor", "24bit")
            or "256color" in os.environ.get("TERM", ""))


def paint(text: str, style: str, on: bool) -> str:
    if not on or style not in _ANSI:
        return text
    code = _ANSI[style] if style not in _BASIC or many_colours() else _BASIC[style]
    return f"\x1b[{code}m{text}\x1b[0m"


_PLURALS = {"die": "dice", "guess": "guesses"}


def plural(number: int, word: str) -> str:
    """`number` `word`, the word made plural but for one (thousands separated: 1,024)."""
    return f"{number:,} {word}" if number == 1 else f"{number:,} {_PLURALS.get(word, word + 's')}"
