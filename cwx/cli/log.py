"""`cwx log`: the campaign journal in time order, for people or scripts."""

import heapq
import io
import json as json_module
import os
import sys
import unicodedata
from collections.abc import Callable, Iterator
from typing import Annotated, BinaryIO

import typer

from cwx import campaign, journal, redo
from cwx.cli import views
from cwx.cli.common import character_path
from cwx.errors import BadValue
from cwx.printable import printable

app = typer.Typer(name="log", add_completion=False)


@app.command("log")
def log(
    char: Annotated[str | None, typer.Option(
        "--char", "-c", metavar="CHAR", help="Only this character's events (a file, or a "
        "name in the campaign).")] = None,
    last: Annotated[int | None, typer.Option(
        min=1, metavar="N", help="Only the last N events.")] = None,
    json: Annotated[bool, typer.Option(
        "--json", "-j", help="Print one JSON object for scripts: the journal's events, oldest "
        "first, as the list under its key events.")] = False,
    jsonl: Annotated[bool, typer.Option(
        "--jsonl", help="Print JSON Lines: one event per line, oldest first, and nothing "
        "else (for a stream reader such as jq or grep).")] = False,
) -> None:
    """The journal in time order: the campaign's (outside a campaign, the current
    folder's or the character's).

    Example: cwx log --char kris.toml --last 5
    """
    if json and jsonl:
        raise BadValue("--json prints one object, --jsonl one line per event: choose one")
    char = character_path(char) if char else None
    folder = os.path.realpath(campaign.journal_folder(char or os.path.join(".", "-")))
    path = journal.path_in(folder)
    name = journal.name_in(folder, char) if char else None
    for record, said in redo.inspect(folder):  # a change not yet journaled
        print(f"cwx: note: {record}: {said}", file=sys.stderr)
    turned = journal.Turns()
    # One open journal for both passes: a journal replaced meanwhile (a git pull, an
    # editor's save) is read whole from the file that was there.
    with journal.opened(path) or io.BytesIO() as file:
        order = _in_time_order(file, path, name, last, turned)
        if json:
            _print_json(file, order)
        elif jsonl:
            _print_jsonl(file, order)
        else:
            _print_table(file, order, name, turned)


Key = tuple[str, int, int]  # (when, line, offset)
Order = Callable[[], Iterator[Key]]  # the wanted events' keys in time order, as often as asked
MAX_RUNS = 4096  # stretches of the journal already in time order, merged as they are read


def _in_time_order(file: BinaryIO, path: str, name: str | None, last: int | None,
                   turned: "journal.Turns") -> Order:
    """The wanted events in time order, however git merged the journal's lines, held in
    bounded memory: for --last N, the N latest keys; else the journal's stretches that are
    already in time order (a clone appends in order; a merge makes a few stretches),
    merged as they are read again. `turned` learns which draws a spend or curse turned."""
    latest: list[Key] = []
    runs: list[tuple[int, int]] = [(0, 1)]  # each stretch's first offset and line
    previous = ""
    skipped: list[int] = []  # lines that are not events, said once at the end
    offset = 0
    for number, raw in enumerate(journal.lines_of(file), 1):
        here = offset
        if isinstance(raw, int):  # a line too long to be an event
            offset += raw
            skipped.append(number)
            continue
        offset += len(raw)
        if not raw.strip():
            continue
        if b'"turns"' in raw or b'"undoes"' in raw:
            event = journal.parse(raw, number)
            if isinstance(event, journal.Event):
                turned.note(event)
        key = journal.key_of(raw, number)
        if isinstance(key, journal.BadLine):
            skipped.append(number)
        elif name is None or key.file == name:
            if last is not None:
                heapq.heappush(latest, (key.when, number, here))
                if len(latest) > last:
                    heapq.heappop(latest)
            elif key.when < previous:
                runs.append((here, number))
            previous = max(previous, key.when) if last is not None else key.when
    if skipped:
        shown = ", ".join(map(str, skipped[:5])) + (", …" if len(skipped) > 5 else "")
        print(f"cwx: note: {path}: {len(skipped)} line(s) are not journal events and "
              f"were left out (line {shown}); `cwx check` says why", file=sys.stderr)
    if last is not None or offset == 0:
        ordered = sorted(latest)
        return lambda: iter(ordered)
    if len(runs) > MAX_RUNS:  # a journal in no order at all: sort every key, once
        everything = sorted(key for start, line in runs[:1]
                            for key in _keys(file, start, offset, line, name))
        return lambda: iter(everything)
    bounds = [(start, end, line) for (start, line), (end, _) in
              zip(runs, [*runs[1:], (offset, 0)], strict=True)]
    return lambda: heapq.merge(*(_keys(file, start, end, line, name)
                                 for start, end, line in bounds))


def _keys(file: BinaryIO, start: int, end: int, line: int, name: str | None,
          ) -> Iterator[Key]:
    """The wanted events' keys between two offsets of the journal, in the journal's order."""
    offset = start
    for number, raw in enumerate(journal.lines_of(_Span(file, start, end)), line):
        here = offset
        offset += raw if isinstance(raw, int) else len(raw)
        if isinstance(raw, int) or not raw.strip():
            continue
        key = journal.key_of(raw, number)
        if not isinstance(key, journal.BadLine) and (name is None or key.file == name):
            yield key.when, number, here


class _Span:
    """A stretch of the open journal, read without moving anyone else's place in it."""

    def __init__(self, file: BinaryIO, start: int, end: int) -> None:
        self.fd, self.at, self.end = file.fileno(), start, end

    def read(self, size: int) -> bytes:
        chunk = os.pread(self.fd, min(size, self.end - self.at), self.at)
        self.at += len(chunk)
        return chunk


def _events(file: BinaryIO, order: Order) -> Iterator[journal.Event]:
    """The chosen events, read again whole; one whose changes are not a journal's is
    left out (`cwx check` names it)."""
    for event, _ in _lines(file, order):
        yield event


def _lines(file: BinaryIO, order: Order) -> Iterator[tuple[journal.Event, bytes]]:
    # Git's union merge can copy a line: each event once. A copy has its original's time,
    # so it comes right beside it: only the ids of the moment are kept.
    moment, seen = "", set[str]()
    for when, line, offset in order():
        raw = _line_at(file, offset)
        event = journal.parse(raw, line)
        if when != moment:
            moment, seen = when, set()
        if isinstance(event, journal.Event) and event.id not in seen:
            seen.add(event.id)
            yield event, raw


def _line_at(file: BinaryIO, offset: int) -> bytes:
    """The line at `offset` of the open journal (read in place, as the stretches are)."""
    found = b""
    while len(found) <= journal.MAX_LINE:
        chunk = os.pread(file.fileno(), 1 << 16, offset + len(found))
        end = chunk.find(b"\n")
        if end >= 0 or not chunk:
            return found + (chunk[:end + 1] if end >= 0 else chunk)
        found += chunk
    return found


def _objects(file: BinaryIO, order: Order) -> Iterator[str]:
    """Each chosen event as the journal holds it (a version 1 event stays one)."""
    for _, raw in _lines(file, order):
        yield json_module.dumps(json_module.loads(raw), ensure_ascii=False, allow_nan=False)


def _print_json(file: BinaryIO, order: Order) -> None:
    out = sys.stdout
    out.write('{"events": [')
    for number, text in enumerate(_objects(file, order)):
        out.write(", " if number else "")
        out.write(text)
    out.write("]}\n")


def _print_jsonl(file: BinaryIO, order: Order) -> None:
    out = sys.stdout
    for text in _objects(file, order):
        out.write(text + "\n")


def _print_table(file: BinaryIO, order: Order, name: str | None,
                 turned: journal.Turns) -> None:
    if next(order(), None) is None:
        print(f"No events of {name} in the journal." if name else "The journal is empty.")
        return
    header = ("when", "who", "what", "outcome", "change")
    widths = [_width(cell) for cell in header]
    for event in _events(file, order):  # a first pass for the column widths
        widths = [max(w, _width(cell))
                  for w, cell in zip(widths, _row(event, turned), strict=True)]
    print(_line(header, widths))
    for event in _events(file, order):
        print(_line(_row(event, turned), widths))


def _line(row: tuple[str, ...], widths: list[int]) -> str:
    return "  ".join(cell + " " * (w - _width(cell))
                     for cell, w in zip(row, widths, strict=True)).rstrip()


def _width(text: str) -> int:
    """The columns `text` takes on a terminal: a wide character (勇, ユ) two, a combining
    mark none, any other one."""
    return sum(0 if unicodedata.combining(char) else
               2 if unicodedata.east_asian_width(char) in ("W", "F") else 1 for char in text)


def _row(event: journal.Event, turned: journal.Turns) -> tuple[str, str, str, str, str]:
    # Any line may have been written by another program or player: shown, never obeyed.
    return (printable(event.when.replace("T", " ")[:16]), printable(event.who or "GM"),
            printable(_what(event)), printable(_outcome(event, turned)),
            printable(_change(event)))


def _what(event: journal.Event) -> str:
    result = event.result
    detail = result.get("trait") or result.get("color")
    if event.command == "clock resolve":
        detail = f"{result.get('trait') or 'untrained'}, {result.get('guess')} vs " \
                 f"{result.get('target')}"
    draws = result.get("draws")
    if isinstance(draws, list) and draws:  # the dice drawn, in order
        drew = f"drew {', '.join(map(str, draws))}"
        detail = f"{detail}; {drew}" if detail else drew
    return f"{event.command} ({detail})" if detail else event.command


def _outcome(event: journal.Event, turned: journal.Turns) -> str:
    result = event.result
    if event.id in turned.void():  # an undo or turn two clones made at once
        return "counts for nothing: another undo came first, or what it undoes counts " \
               "for nothing" if event.undoes else \
            "counts for nothing: another turn of that draw came first"
    if event.command in journal.TURNS:
        return f"turned to {'success' if result.get('success') else 'failure'}"
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
    if by := turned.by(event.id):
        word += ", turned to success" if by == "luck spend" else ", turned to failure"
    return word


def _change(event: journal.Event) -> str:
    said = []
    for change in event.changes:
        if change.key is None:
            if change.text is not None:  # a secret file (the sealed number) goes unmentioned
                made = "created" if change.created else \
                    "took in" if event.command == "adopt" else "rewrote"
                said.append(f"{made} {change.file}")
            continue
        # The acting character's keys plainly; any other file's (the bag's, or every
        # file of a reconcile) named with it.
        where = "" if change.file == event.file else f"{change.file} "
        said.append(f"{where}{change.key} {views.value_text(change.before)} → "
                    f"{views.value_text(change.after)}")
    return ", ".join(said)
