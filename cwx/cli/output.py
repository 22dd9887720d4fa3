"""Results render twice: one JSON object for scripts, or text for people."""

import os
import sys
from collections.abc import Callable, Mapping
from typing import Annotated, Any

import typer

JsonFlag = Annotated[bool, typer.Option(
    "--json", "-j", help="Print one JSON object for scripts.")]

_ANSI = {
    "red": "31", "yellow": "33", "blue": "34", "white": "97", "black": "90",
    "orange": "38;5;208", "green": "32", "purple": "35",
    "bold": "1", "dim": "2", "good": "32", "bad": "31",
}


def emit(as_json: bool, data: Mapping[str, Any], text: Callable[[], str]) -> None:
    """Print the result: `data` as JSON, or `text()` for people."""
    if as_json:
        import json  # here: a result for people, the common case, never loads it

        sys.stdout.write(json.dumps(data, ensure_ascii=False, allow_nan=False) + "\n")
    else:
        sys.stdout.write(text().rstrip("\n") + "\n")


def colour_on(stream: Any = None) -> bool:
    """Colour only for a terminal, and never with NO_COLOR set (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    stream = stream or sys.stdout
    return bool(stream.isatty()) and os.environ.get("TERM") != "dumb"


def paint(text: str, style: str, on: bool) -> str:
    return f"\x1b[{_ANSI[style]}m{text}\x1b[0m" if on and style in _ANSI else text


_PLURALS = {"die": "dice"}


def plural(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {_PLURALS.get(word, word + 's')}"
