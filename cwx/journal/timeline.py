"""The journal's events in time order (`at`, ties in the journal's order), however git
merged its lines, read from an open journal in bounded memory: the journal's stretches
that are already in time order (a clone appends in order; a merge makes a few
stretches) merged as they are read again, or, for the latest N, only their keys.

    with journal.opened(path) as file:
        order = timeline.Timeline(file, name=None, last=10)
        for event in order.events(): ...
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Callable, Container, Iterator

from cwx.journal.lines import (
    MAX_LINE,
    UNDOING,
    BadLine,
    Event,
    Named,
    Stamp,
    Turns,
    lines_of,
    may_hold,
    parse,
    spellings,
    stamp_of,
)

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import BinaryIO

Place = tuple[str, int, int]  # (when, line, offset)
# The wanted events, in time order, as often as asked: each line's number, where it starts
# in the journal, and the line itself when it was read in passing.
Places = Callable[[], Iterator[tuple[int, int, bytes | None]]]
# Stretches of the journal already in time order, merged as they are read (a clone
# appends in order; each merge of two clones' lines makes one or two more): past this,
# the journal is in no order to speak of, and its keys are sorted at once instead.
MAX_RUNS = 64
SPAN = 1 << 16  # what each stretch reads at a time, while they are merged
TICK = 1000  # lines read between two calls of a Timeline's tick


class Timeline:
    """The events of an open journal (of the file `name`, or every one; the `last` N, or
    all) in time order. Made by reading the journal once; `events()` reads it again."""

    def __init__(self, file: BinaryIO, name: str | None = None,
                 last: int | None = None, tick: Callable[[int], None] | None = None, *,
                 touching: bool = False, path: str = "journal.jsonl") -> None:
        """`tick` hears how many of the journal's lines were read, now and then (progress).
        With `touching`, the events of `name` are also those of others that change it (a
        reveal settling a guess, a reconcile, an adopt). A journal naming too many files
        is refused at its line (lines.Crowded, naming it `path`), before any is shown."""
        self.file = file
        self.turns = Turns()  # which draws a spend or curse turned, which undos count
        self.skipped = Skipped()  # lines that are not events
        # Each line carrying the id of a line before it in the journal (a copy git's
        # union made, or a twin: a line rewritten under its id), and that id: the first
        # line of an id is its event, in every reader (docs/rules.md, "Twins").
        self.repeats: dict[int, str] = {}
        self._twins: dict[int, int] | None = None
        wanted = _wanted(name, touching)
        self.order = _in_time_order(file, wanted, last, self.turns, self.skipped, tick,
                                    Named(path), self.repeats)

    def events(self, *, twins: bool = False) -> Iterator[Event]:
        """The chosen events, read again whole; one whose changes are not a journal's is
        left out (`cwx check` names it), and a line carrying an earlier line's id (a copy,
        a twin) too; with `twins`, a twin of other contents is shown where it stands
        (`twins()` says which line it repeats), a copy alike never."""
        for event, _ in self.placed(twins=twins):
            yield event

    def placed(self, *, twins: bool = False) -> Iterator[tuple[Event, int]]:
        """`events()`, each with where its line starts in the journal: a reader that tells
        many events keeps that alone, and reads the event again (`event_at`) to tell it."""
        skip = self.repeats.keys() - self.twins().keys() if twins else self.repeats.keys()
        for event, _, at in _lines(self.file, self.order, self.skipped, skip):
            yield event, at

    def twins(self) -> dict[int, int]:
        """Each line carrying the id of an earlier line with other contents, and that line
        (a copy alike, which git's union merge makes, is none): only lines that may hold
        such an id read again, and only when one repeats."""
        if self._twins is None:
            self._twins = {}
            wanted = set(self.repeats.values())
            sought = tuple(sorted(id_.encode() for id_ in wanted))
            first: dict[str, Event] = {}
            end = os.fstat(self.file.fileno()).st_size if wanted else 0
            for number, raw in enumerate(lines_of(_Span(self.file, 0, end), SPAN), 1):
                if isinstance(raw, int) or not may_hold(raw, sought):
                    continue
                event = parse(raw, number)
                if not isinstance(event, Event) or event.id not in wanted:
                    continue
                was = first.setdefault(event.id, event)
                if was is not event and was._replace(line=0) != event._replace(line=0):
                    self._twins[number] = was.line
        return self._twins


class Skipped:
    """The lines that are not events: how many, and the first few (to name them)."""

    SHOWN = 5

    def __init__(self) -> None:
        self.count = 0
        self.first: list[int] = []
        self.lines: set[int] = set()  # each counted once, however often it is read

    def add(self, line: int) -> None:
        if line in self.lines:
            return
        self.lines.add(line)
        self.count += 1
        if len(self.first) < self.SHOWN:
            self.first.append(line)
            self.first.sort()


Wanted = Callable[[bytes, Stamp], bool] | None  # which events are chosen; None: every one


def _wanted(name: str | None, touching: bool) -> Wanted:
    """The events of the file `name` (None: every event); with `touching`, also every
    event with a change to it. Only a line that holds the name is parsed whole."""
    if name is None:
        return None
    if not touching:
        return lambda raw, stamp: stamp.file == name
    spelled = spellings(name)

    def touches(raw: bytes, stamp: Stamp) -> bool:
        if stamp.file == name:
            return True
        if not may_hold(raw, spelled):
            return False
        event = parse(raw, stamp.line)
        return isinstance(event, Event) and any(c.file == name for c in event.changes)
    return touches


def _in_time_order(file: BinaryIO, wanted: Wanted, last: int | None, turned: Turns,
                   skipped: Skipped, tick: Callable[[int], None] | None,
                   named: Named, repeats: dict[int, str]) -> Places:
    latest: list[Place] = []
    ids: set[str] = set()  # every id met, to know a line repeating one
    runs: list[tuple[int, int]] = [(0, 1)]  # each stretch's first offset and line
    previous = ""
    offset = 0
    for number, raw in enumerate(lines_of(file), 1):
        here = offset
        if tick is not None and not number % TICK:
            tick(number)
        if isinstance(raw, int):  # a line too long to be an event
            offset += raw
            skipped.add(number)
            continue
        offset += len(raw)
        if not raw.strip():
            continue
        if may_hold(raw, UNDOING):
            event = parse(raw, number)
            if isinstance(event, Event):
                turned.note(event)
        stamp = stamp_of(raw, number, named)
        if not isinstance(stamp, BadLine):
            if stamp.id in ids:
                repeats[number] = stamp.id
            else:
                ids.add(stamp.id)
        if isinstance(stamp, BadLine):
            skipped.add(number)
        elif wanted is None or wanted(raw, stamp):
            if last is not None:
                heapq.heappush(latest, (stamp.when, number, here))
                if len(latest) > last:
                    heapq.heappop(latest)
            elif stamp.when < previous and len(runs) <= MAX_RUNS:
                runs.append((here, number))
            previous = max(previous, stamp.when) if last is not None else stamp.when
    if last is not None or offset == 0:
        ordered = [(line, at, None) for _, line, at in sorted(latest)]
        return lambda: iter(ordered)
    if len(runs) == 1:  # in time order already (a clone's own): read straight through
        return lambda: _straight(file, offset, wanted)
    if len(runs) > MAX_RUNS:  # a journal in no order at all: sort every key, once
        everything = [(line, at, None) for _, line, at in sorted(
            key for start, line in runs[:1] for key in _places(file, start, offset, line, wanted))]
        return lambda: iter(everything)
    bounds = [(start, end, line) for (start, line), (end, _) in
              zip(runs, [*runs[1:], (offset, 0)], strict=True)]
    return lambda: ((line, at, None) for _, line, at in heapq.merge(
        *(_places(file, start, end, line, wanted) for start, end, line in bounds)))


def _straight(file: BinaryIO, end: int, wanted: Wanted
              ) -> Iterator[tuple[int, int, bytes | None]]:
    """The wanted lines of a journal in time order, in its order: each line is parsed
    once, where it is shown (no stamp read apart, no line looked up again)."""
    offset = 0
    for number, raw in enumerate(lines_of(_Span(file, 0, end), SPAN), 1):
        here = offset
        offset += raw if isinstance(raw, int) else len(raw)
        if isinstance(raw, int) or not raw.strip():
            continue
        if wanted is not None:
            stamp = stamp_of(raw, number)
            if isinstance(stamp, BadLine) or not wanted(raw, stamp):
                continue
        yield number, here, raw


def _places(file: BinaryIO, start: int, end: int, line: int, wanted: Wanted,
            ) -> Iterator[Place]:
    """The wanted events' places between two offsets of the journal, in its order."""
    offset, number = start, line - 1
    for raw in lines_of(_Span(file, start, end), SPAN):
        here, number = offset, number + 1
        offset += raw if isinstance(raw, int) else len(raw)
        if isinstance(raw, int) or not raw.strip():
            continue
        stamp = stamp_of(raw, number)
        if isinstance(stamp, BadLine) or (wanted is not None and not wanted(raw, stamp)):
            continue
        # Up to MAX_RUNS stretches wait on each other in the merge: while one waits it
        # holds its place alone, never its line (up to MAX_LINE each), which is read again.
        del raw
        yield stamp.when, number, here


class _Span:
    """A stretch of the open journal, read without moving anyone else's place in it."""

    def __init__(self, file: BinaryIO, start: int, end: int) -> None:
        self.fd, self.at, self.end = file.fileno(), start, end

    def read(self, size: int) -> bytes:
        chunk = _pread(self.fd, min(size, self.end - self.at), self.at)
        self.at += len(chunk)
        return chunk


def _lines(file: BinaryIO, order: Places, skipped: Skipped | None = None,
           skip: Container[int] = ()) -> Iterator[tuple[Event, bytes, int]]:
    # Each event once: a line repeating an earlier line's id (`skip`: a copy git's union
    # made, or a twin) is left out, whatever its time.
    for line, at, given in order():
        if line in skip:
            continue
        raw = given if given is not None else _line_at(file, at)
        event = parse(raw, line)
        if not isinstance(event, Event):
            if skipped is not None:  # an envelope of an event, and changes of none
                skipped.add(line)
            continue
        yield event, raw, at


def event_at(file: BinaryIO, offset: int) -> Event | None:
    """The event whose line starts at `offset` of the open journal (as `placed` said),
    read again."""
    found = parse(_line_at(file, offset))
    return found if isinstance(found, Event) else None


def _line_at(file: BinaryIO, offset: int) -> bytes:
    """The line at `offset` of the open journal (read in place, as the stretches are): a
    few KB first, which hold most lines (a recap reads 100,000 again one by one), then
    more and more."""
    found, size = b"", 1 << 12
    while len(found) <= MAX_LINE:
        chunk = _pread(file.fileno(), size, offset + len(found))
        end = chunk.find(b"\n")
        if end >= 0 or not chunk:
            return found + (chunk[:end + 1] if end >= 0 else chunk)
        found += chunk
        size = min(size * 4, SPAN)
    return found


def _pread(fd: int, size: int, at: int) -> bytes:
    try:
        return os.pread(fd, size, at)
    except OSError as error:  # a disk failing under the journal: said, as of any file
        from cwx.base.errors import BadFile

        raise BadFile(f"cannot be read ({error.strerror})", path="journal.jsonl") from None
