"""`cwx log`: the campaign journal in time order, for people or scripts."""

import contextlib
import heapq
import io
import json as json_module
import os
import sys
from collections.abc import Iterator
from typing import Annotated, Any

import typer

from cwx import durable, journal
from cwx.cli.output import JsonFlag
from cwx.errors import BadFile

app = typer.Typer(name="log", add_completion=False)


@app.command("log")
def log(
    char: Annotated[str | None, typer.Option(
        help="Only this character's events.")] = None,
    last: Annotated[int | None, typer.Option(min=1, help="Only the last N events.")] = None,
    json: JsonFlag = False,
) -> None:
    """The journal in time order (the current folder's, or the character's).

    Example: cwx log --char kris.toml --last 5
    """
    folder = os.path.realpath(os.path.dirname(os.path.abspath(char)) if char else ".")
    path = journal.path_in(folder)
    name = journal.name_in(folder, char) if char else None
    for record, said in durable.inspect(folder):  # a change not yet journaled
        print(f"cwx: note: {record}: {said}", file=sys.stderr)
    order = _in_time_order(path, name, last)
    if json:
        _print_json(path, order)
    else:
        _print_table(path, order, name)


def _in_time_order(path: str, name: str | None, last: int | None,
                   ) -> list[tuple[str, int, int]]:
    """(when, line, offset) of the wanted events, oldest first. Only these small keys are
    held, never the events: a long campaign is read as a stream, and read again by offset."""
    keys: list[tuple[str, int, int]] = []
    skipped: list[int] = []  # lines that are not events, said once at the end
    offset = 0
    with _opened(path) as file:
        for number, raw in enumerate(journal.lines_of(file), 1):
            here = offset
            if isinstance(raw, int):  # a line too long to be an event
                offset += raw
                skipped.append(number)
                continue
            offset += len(raw)
            if not raw.strip():
                continue
            key = journal.key_of(raw, number)
            if isinstance(key, journal.BadLine):
                skipped.append(number)
            elif name is None or key.file == name:
                if last is None:
                    keys.append((key.when, number, here))
                elif len(keys) < last:
                    heapq.heappush(keys, (key.when, number, here))
                else:
                    heapq.heappushpop(keys, (key.when, number, here))
    if skipped:
        shown = ", ".join(map(str, skipped[:5])) + (", …" if len(skipped) > 5 else "")
        print(f"cwx: note: {path}: {len(skipped)} line(s) are not journal events and "
              f"were left out (line {shown}); `cwx check` says why", file=sys.stderr)
    return sorted(keys)


def _opened(path: str) -> Any:
    try:
        return open(path, "rb")
    except FileNotFoundError:
        return contextlib.nullcontext(io.BytesIO())
    except OSError as error:
        raise BadFile(f"cannot be read ({error.strerror})", path=path) from None


def _events(path: str, order: list[tuple[str, int, int]]) -> Iterator[journal.Event]:
    """The chosen events, read again whole; one whose changes are not a journal's is
    left out (`cwx check` names it)."""
    if not order:
        return
    with open(path, "rb") as file:
        for _, line, offset in order:
            file.seek(offset)
            event = journal.parse(file.readline(journal.MAX_LINE + 1), line)
            if isinstance(event, journal.Event):
                yield event


def _print_json(path: str, order: list[tuple[str, int, int]]) -> None:
    out = sys.stdout
    out.write('{"events": [')
    for number, event in enumerate(_events(path, order)):
        out.write(", " if number else "")
        out.write(json_module.dumps(event.to_json(), ensure_ascii=False, allow_nan=False))
    out.write("]}\n")


def _print_table(path: str, order: list[tuple[str, int, int]], name: str | None) -> None:
    if not order:
        print(f"No events of {name} in the journal." if name else "The journal is empty.")
        return
    header = ("when", "who", "what", "outcome", "change")
    widths = [len(cell) for cell in header]
    for event in _events(path, order):  # a first pass for the column widths
        widths = [max(w, len(cell)) for w, cell in zip(widths, _row(event), strict=True)]
    print(_line(header, widths))
    for event in _events(path, order):
        print(_line(_row(event), widths))


def _line(row: tuple[str, ...], widths: list[int]) -> str:
    return "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()


def _row(event: journal.Event) -> tuple[str, str, str, str, str]:
    return (event.when.replace("T", " ")[:16], event.who or "GM", _what(event), _outcome(event),
            _change(event))


def _what(event: journal.Event) -> str:
    result = event.result
    detail = result.get("trait") or result.get("color")
    if event.command == "clock resolve":
        detail = f"{result.get('trait') or 'untrained'}, {result.get('guess')} vs " \
                 f"{result.get('target')}"
    return f"{event.command} ({detail})" if detail else event.command


def _outcome(event: journal.Event) -> str:
    result = event.result
    if "commitment" in result and "success" not in result:
        return f"revealed {result['target']}" if "target" in result else \
            f"sealed {str(result['commitment'])[:12]}…"
    if "success" not in result:
        return "-"
    if result.get("critical"):
        return "critical"
    word = "success" if result["success"] else "failure"
    if result.get("cancelled"):
        word += ", white cancelled"
    if result.get("white_spent"):
        word += ", white spent"
    return word


def _change(event: journal.Event) -> str:
    said = []
    for change in event.changes:
        if change.key is None:
            if change.text is not None:  # a secret file (the sealed number) goes unmentioned
                said.append(f"{'created' if change.created else 'rewrote'} {change.file}")
        elif change.key == "xp" or change.key.startswith(("luck.", "traits.")):
            said.append(f"{change.key} {_shown(change.before)} → {_shown(change.after)}")
    return ", ".join(said)


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value))
    if value is None:
        return "–"
    return value if isinstance(value, str) else json_module.dumps(value)
