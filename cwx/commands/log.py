"""`cwx log`: the campaign journal in time order, for people or scripts."""

import functools
import itertools
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Annotated, Any

import typer

from cwx.base import times
from cwx.base.errors import BadValue
from cwx.base.ink import plural
from cwx.base.printable import named, printable
from cwx.campaign import guesses
from cwx.cli import progress
from cwx.cli.common import complete_characters, here
from cwx.cli.output import NoPager, Utc, emit_parts
from cwx.cli.pager import paged
from cwx.cli.views import value_text
from cwx.journal import events, history, sealed, story
from cwx.journal import lines as journal
from cwx.journal.timeline import TICK, Skipped, Timeline
from cwx.store import redo

app = typer.Typer(name="log", add_completion=False)


@app.command("log")
def log(
    char: Annotated[str | None, typer.Option(
        "--char", "-c", metavar="CHAR", autocompletion=complete_characters,
        help="Only this character's events (a file, or a name in the campaign).")] = None,
    last: Annotated[int | None, typer.Option(
        min=1, metavar="N", help="Only the last N events.")] = None,
    json: Annotated[bool, typer.Option(
        "--json", "-j", help="Print one JSON object for scripts: the journal's events, oldest "
        "first, as the list under its key events.")] = False,
    jsonl: Annotated[bool, typer.Option(
        "--jsonl", help="Print JSON Lines: one event per line, oldest first, and nothing "
        "else (for a stream reader such as jq or grep).")] = False,
    utc: Utc = False,
    no_pager: NoPager = False,
) -> None:
    """Show the journal in time order.

    The campaign's journal; outside a campaign, the current folder's or the character's.

    Example: cwx log --char kris.toml --last 5
    """
    if json and jsonl:
        raise BadValue("--json prints one object, --jsonl one line per event: choose one")
    camp = here()
    char = camp.character(char) if char else None
    camp = camp.of(char) if char else camp
    path = camp.journal_file
    for record, said in redo.inspect(camp.journal_folder):  # a change not yet journaled
        print(f"cwx: note: {record}: {said}", file=sys.stderr)
    # One open journal for both passes: a journal replaced meanwhile (a git pull, an
    # editor's save) is read whole from the file that was there.
    from cwx.campaign import guesses

    with history.opened(path, guesses.witness(path) if camp.root else None) as read:
        with progress.shown("Reading the journal", not (json or jsonl)) as meter:
            order = read.played(camp.name_of(char) if char else None, last=last, tick=meter)
        if json or jsonl:
            _print_json(order.events(), lines=jsonl)
        else:
            _print_table(order, camp.name_of(char) if char else None, read,
                         paging=not no_pager)
        _left_out(path, order.skipped)  # after: reading the events finds the last of them


def _left_out(path: str, skipped: Skipped) -> None:
    if skipped.count:
        shown = ", ".join(map(str, skipped.first)) + (", …" if skipped.count > len(
            skipped.first) else "")
        print(f"cwx: note: {path}: {skipped.count} line(s) are not journal events and "
              f"were left out (line {shown}); `cwx check` says why", file=sys.stderr)


def _print_json(chosen: Iterator[journal.Event], *, lines: bool) -> None:
    """Each event as this cwx's journal writes it (an older line, upgraded): one object
    holding them, or one line each; written as they are read."""
    if lines:
        emit_parts(False, (journal.dumps(event.to_json()) for event in chosen))
        return

    def parts() -> Iterator[str]:
        yield '{"events": ['
        for number, event in enumerate(chosen):
            yield ("," if number else "") + journal.dumps(event.to_json())
        yield "]}"
    emit_parts(True, parts())


def _print_table(order: Timeline, name: str | None, read: history.Journal, *,
                 paging: bool) -> None:
    rows = order.events(twins=True)  # a twin shown where it stands, counting for nothing
    first = next(rows, None)
    if first is None:
        print(f"No events of {name} in the journal." if name else "The journal is empty.")
        return
    header = ("when", "id", "player", "who", "what", "outcome", "change")
    widths = [_width(cell) for cell in header]
    kept: list[str] | None = []  # the rows, while they are few: not made twice
    size = 0
    with progress.shown("Laying out the table") as meter:
        # a first pass for the widths, streamed
        for number, event in enumerate(itertools.chain((first,), rows), 1):
            row = _row(event, order, read)
            widths = [max(w, _width(cell)) for w, cell in zip(widths, row, strict=True)]
            if kept is not None:
                kept.append("\0".join(row))  # printable: no cell holds a NUL
                size += sys.getsizeof(kept[-1]) + 80  # a letter of 4 bytes counted as 4
                kept = kept if size <= KEPT else None
            if meter is not None and not number % TICK:
                meter(number)
    again = (tuple(row.split("\0")) for row in kept) if kept is not None else \
        (_row(event, order, read) for event in order.events(twins=True))
    with paged(paging):
        emit_parts(False, itertools.chain((_line(header, widths),),
                                          (_line(row, widths) for row in again)))


KEPT = 32 << 20  # about the bytes of rows kept between the passes; past it, made again


def _line(row: tuple[str, ...], widths: list[int]) -> str:
    return "  ".join(cell + " " * (w - _width(cell))
                     for cell, w in zip(row, widths, strict=True)).rstrip()


def _width(text: str) -> int:
    """The columns `text` takes on a terminal: a wide character (勇, ユ) two, a combining
    mark none, any other one."""
    if text.isascii():  # most cells: one column a character
        return len(text)
    # Each letter past ASCII looked up once a cell, however often it stands there: the
    # letters are counted in a C loop (100,000 names of 255 emoji once cost 3 times check).
    return len(text) + sum(_extra(char) * count for char, count in Counter(text).items()
                           if char > "\x7f")


@functools.lru_cache(maxsize=4096)
def _extra(char: str) -> int:
    """The columns a letter takes past one: a wide one one more, a combining mark one less."""
    return -1 if unicodedata.combining(char) else \
        1 if unicodedata.east_asian_width(char) in ("W", "F") else 0


def _row(event: journal.Event, order: Timeline, read: history.Journal) -> tuple[str, ...]:
    # Any line may have been written by another program or player: shown, never obeyed.
    kind = events.kind(event.command)
    detail = (kind.what or _what)(event.result) or (event.file if kind.table else None)
    what = f"{event.command} ({detail})" if detail else event.command
    return (printable(times.shown(event.when)),
            printable(event.id[:8]),  # enough to name it to cwx undo ID
            named(event.player or "-"),
            named(event.who or ("-" if kind.table else "GM")), printable(what),
            printable(_outcome(event, kind, order, read)), printable(_change(event, kind)))


def _what(result: Mapping[str, Any]) -> str | None:
    return result.get("trait") or result.get("color")


def _outcome(event: journal.Event, kind: Any, order: Timeline, read: history.Journal) -> str:
    if (first := order.twins().get(event.line)) is not None:
        return f"counts for nothing: a twin of line {first} (its id, other contents; " \
            "`cwx check` names it)"
    turns = order.turns
    if event.id in turns.void():  # an undo, turn or game end two clones made at once
        return f"counts for nothing: {story.why_void(event)}"
    board = read.guesses() if kind.pending else None  # read once, when a guess is met
    if board is not None and event.id in board.settled:
        return "settled by the reveal"
    if kind.table:  # the one event check takes as written (docs/rules.md, "What check proves")
        return "correction, as the table says"
    shown = read.late().get(event.id) if board is not None else None
    void = guesses.why_void(board, event.id) if board is not None else None
    said = [void if void is not None else (kind.outcome or _succeeded)(event.result)
            if shown is None else f"late: {guesses.said_late(shown)}"]
    if event.command == sealed.REVEALING:
        said = [_revealed(event, read)]
    if (turned := turns.by(event.id)) is not None:
        said.append("turned to success" if turned else "turned to failure")
    if event.id in turns.undone():  # the first undo of it counts (and stands)
        said.append(f"undone by {min(turns.undos[event.id])[1][:8]}")
    return ", ".join(word for word in said if word) or "-"


def _revealed(event: journal.Event, read: history.Journal) -> str:
    """A reveal: its number, the guesses it settles as the board counts them (not as its
    line lists them), and the first it lists in vain, as `cwx check` says it."""
    count, vain = read.settles(event.id)
    said = f"revealed {story.brief(event.result.get('target'))}"
    if count:
        said += f", settled {plural(count, 'guess')}"
    if vain:
        guess, why = vain[0]
        more = f" (and {len(vain) - 1} more: `cwx check` names them)" if len(vain) > 1 \
            else ""
        said += f"; settles nothing of guess {guess[:8]}: {why}{more}"
    return said


def _succeeded(result: Mapping[str, Any]) -> str | None:
    if "success" not in result:
        return None
    if result.get("critical"):
        return "critical"
    return "success" if result["success"] else "failure"


def _change(event: journal.Event, kind: Any) -> str:
    said = []
    for change in event.changes:
        if change.key is None:
            if change.removed:
                said.append(f"removed {change.file}")
            elif change.text is not None:  # a secret file (the sealed number) goes unmentioned
                made = "created" if change.created else "took in" if kind.table else "rewrote"
                said.append(f"{made} {change.file}")
            continue
        # The acting character's keys plainly; any other file's (the bag's, or every
        # file of a reconcile) named with it.
        where = "" if change.file == event.file else f"{change.file} "
        said.append(f"{where}{change.key} {_moved(change)}")
    return ", ".join(said)


def _moved(change: journal.Edit) -> str:
    """What a change did to its key: a count as what it added (+2): the values it went
    from and to were its own clone's, and after a merge the file's are others (the
    ledger adds the changes up); anything else, and a correction, which sets a value, as
    from → to."""
    before, after = story.brief(change.before), story.brief(change.after)
    if not change.correction and isinstance(before, int) and isinstance(after, int) and \
            not isinstance(before, bool) and not isinstance(after, bool):
        return value_text(after - before) if after < before else f"+{value_text(after - before)}"
    return f"{value_text(before)} → {value_text(after)}"
