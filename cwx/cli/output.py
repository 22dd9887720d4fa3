"""Results render twice: one JSON object for scripts, or text for people."""

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cwx.base.ink import many_colours, paint, plural

if TYPE_CHECKING:
    from cwx.campaign.results import DryRun as DryRunKey

__all__ = ["JsonFlag", "NoPager", "Utc", "colour_on", "dry_json", "emit", "emit_parts", "json_parts",
           "many_colours", "paint", "plural", "quiet_stdout"]

JsonFlag = Annotated[bool, typer.Option(
    "--json", "-j", help="Print one JSON object for scripts.")]


def _utc(value: bool) -> None:
    # Every run sets it (the default too): a test's runs in one process each start afresh.
    from cwx.base import times

    times.utc = value


Utc = Annotated[bool, typer.Option(
    "--utc", callback=_utc, is_eager=True,
    help="Show times in UTC, not in local time with its offset (JSON is always UTC).")]
NoPager = Annotated[bool, typer.Option(
    "--no-pager", help="Print to the terminal, not through the pager (CWX_PAGER, else PAGER, "
    "else less -FRX).")]

# The root's --paint WHEN (cli/app.py), or CWX_PAINT: always, never, or auto (colour
# for a terminal, as the conventions below say).
painting = "auto"
paging = False  # standard output goes to the pager (cli/pager.py), which shows colour


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


def emit_parts(as_json: bool, parts: Iterable[str]) -> None:
    """Print a long result a piece at a time as it is made, never held whole (a recap of
    every session, a log, a history): as emit prints it, JSON's pieces on one line, text
    a line a piece, without blank lines at the end."""
    blank = 0  # blank lines not yet written: none ends the text
    try:
        write = sys.stdout.write
        for part in parts:
            if as_json:
                write(part)
            elif not part:
                blank += 1
            else:
                write("\n" * blank + part + "\n")
                blank = 0
        if as_json:
            write("\n")
    except BrokenPipeError:
        quiet_stdout()


def json_parts(data: Mapping[str, Any]) -> Iterator[str]:
    """json.dumps(data) a piece at a time, for emit_parts: a value that is an iterator (a
    generator of a long list's items) is written as a list, an item at a time."""
    import json

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)

    yield "{"
    for n, (key, value) in enumerate(data.items()):
        yield f"{', ' if n else ''}{dumps(key)}: "
        if isinstance(value, Iterator):
            yield "["
            for m, item in enumerate(value):
                yield f"{', ' if m else ''}{dumps(item)}"
            yield "]"
        else:
            yield dumps(value)
    yield "}"


def dry_json(dry_run: bool) -> "DryRunKey":
    """The key a result has with --dry-run, or none: `{**result, **dry_json(dry_run)}`."""
    return {"dry_run": True} if dry_run else {}


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
    shown = stream.isatty() or (paging and stream is sys.stdout)
    return bool(shown) and env.get("TERM") != "dumb" and env.get("CLICOLOR") != "0"
