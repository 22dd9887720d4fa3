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
# Orange has no colour of its own among a basic terminal's sixteen: there it is the
# bright red (the table already takes white and black from the bright eight).
_BASIC = {"orange": "91"}

# The root's --paint WHEN (cli/app.py), or CWX_PAINT: always, never, or auto (colour
# for a terminal, as the conventions below say).
painting = "auto"


def emit(as_json: bool, data: Mapping[str, Any], text: Callable[[], str]) -> None:
    """Print the result: `data` as JSON, or `text()` for people. A reader that went away
    does not end the command: its exit status (--exit-code) still says the outcome."""
    if as_json:
        import json  # here: a result for people, the common case, never loads it

        said = json.dumps(data, ensure_ascii=False, allow_nan=False) + "\n"
    else:
        said = text().rstrip("\n") + "\n"
    try:
        sys.stdout.write(said)
    except BrokenPipeError:
        quiet_stdout()


def quiet_stdout() -> None:
    """The reader went away (`cwx log | head`): say nothing more, and let exit not complain."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def colour_on(stream: Any = None) -> bool:
    """--paint always or never; else colour for a terminal, never with NO_COLOR set
    (no-color.org) or CLICOLOR=0, and into a pipe too with CLICOLOR_FORCE set and not 0
    (bixense.com/clicolors) or FORCE_COLOR set (force-color.org)."""
    if painting != "auto":
        return painting == "always"
    env = os.environ
    if env.get("NO_COLOR"):
        return False
    if env.get("CLICOLOR_FORCE", "0") not in ("", "0") or env.get("FORCE_COLOR"):
        return True
    stream = stream or sys.stdout
    return bool(stream.isatty()) and env.get("TERM") != "dumb" and env.get("CLICOLOR") != "0"


def many_colours() -> bool:
    """Whether the terminal is known to take 256 colours (or 24-bit ones)."""
    return (os.environ.get("COLORTERM") in ("truecolor", "24bit")
            or "256color" in os.environ.get("TERM", ""))


def paint(text: str, style: str, on: bool) -> str:
    if not on or style not in _ANSI:
        return text
    code = _ANSI[style] if style not in _BASIC or many_colours() else _BASIC[style]
    return f"\x1b[{code}m{text}\x1b[0m"


_PLURALS = {"die": "dice"}


def plural(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {_PLURALS.get(word, word + 's')}"
