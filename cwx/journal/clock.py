"""The journal's clock (docs/rules.md, "Time"): a hybrid logical clock. A new event is
stamped with the wall clock where it is ahead of the journal, and with the journal's
latest stamp plus a millisecond where it is not, so an event is never stamped earlier
than one its clone had seen: a clone whose clock runs behind another's (a dual-boot
clock hours off) still writes its draws after the ones it pulled, and "the last draw"
is the last one played.

The latest stamp costs a read of the whole journal once; a clone keeps it, with the
journal's size, in its own git folder (never committed), and after that reads only
what was appended since. Without git (one machine, appending in order) the journal's
last stretch is read.
"""

from __future__ import annotations

import contextlib
import os
import time

from cwx.base.record import Record
from cwx.journal import lines as journal

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any, BinaryIO

TICK = 1  # a millisecond: the finest a stamp says
LAST_STAMP = journal.LAST  # the latest a stamp can say
WINDOW = 1 << 16  # without a kept clock: the journal's last stretch read, in bytes
HEAD = 80  # a line's first bytes kept: its id and stamp are among them
KEPT = 16  # journals a clone's kept clock remembers (a repository may hold several)
_at: Any = None  # the search for a line's `at`, compiled when a line is first read


def stamp(now: float, latest: str | None) -> str:
    """The stamp of an event made at `now` (seconds since the epoch) in a journal whose
    latest stamp is `latest`: the wall clock, unless the journal is already past it."""
    wall = journal.stamp_at(now)
    return wall if latest is None or wall > latest else after(latest)


def after(at: str) -> str:
    """The stamp a tick after `at`; the last stamp there is stays itself (a journal a
    hostile clone stamped in the year 9999 is ordered by its lines from then on)."""
    if at >= LAST_STAMP:
        return LAST_STAMP
    year, month, day = int(at[:4]), int(at[5:7]), int(at[8:10])
    hour, minute, second, millis = int(at[11:13]), int(at[14:16]), int(at[17:19]), \
        int(at[20:23]) + TICK
    # Carried by hand: the calendar module would cost every command its import.
    if millis == 1000:
        millis, second = 0, second + 1
    if second == 60:
        second, minute = 0, minute + 1
    if minute == 60:
        minute, hour = 0, hour + 1
    if hour == 24:
        hour, day = 0, day + 1
    if day > journal.days_in(year, month):
        day, month = 1, month + 1
    if month == 13:
        month, year = 1, year + 1
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}.{millis:03d}Z"


class Mark(Record):
    """How far a clone read its journal, and what it found: the size read, where its last
    line began and that line's first bytes (an id among them, which a journal rewritten
    under the same name, by a pull or a rebase, would not have there), the latest stamp."""

    size: int
    last: int
    head: bytes
    latest: str | None


def latest(path: str, kept: str | None) -> str | None:
    """The latest stamp in the journal at `path` (None: no journal, or no stamp in it).
    `kept` is the file where a clone keeps what it read last time (None: there is none,
    and only the journal's last stretch is read)."""
    file = journal.opened(path)
    if file is None:
        return None
    with file:
        size = os.fstat(file.fileno()).st_size
        if kept is None:
            return _read(file, Mark(max(0, size - WINDOW), 0, b"", None), size).latest
        key = os.path.realpath(path)
        known = _kept(kept)
        mark = known.get(key)
        if mark is None or not _still(file, mark, size):
            mark = Mark(0, 0, b"", None)
        if mark.size == size:
            return mark.latest
        known[key] = mark = _read(file, mark, size)
        _keep(kept, known, key)
        return mark.latest


def _still(file: BinaryIO, mark: Mark, size: int) -> bool:
    """Whether the journal still begins with what was read (only lines were added)."""
    if mark.size > size:
        return False
    file.seek(mark.last)
    return file.read(len(mark.head)) == mark.head and (
        mark.size == 0 or (file.seek(mark.size - 1) >= 0 and file.read(1) == b"\n"))


def _read(file: BinaryIO, mark: Mark, size: int) -> Mark:
    """The mark after reading on from `mark` (a line cut by its start is skipped)."""
    best, last, head = mark.latest, mark.last, mark.head
    at = mark.size
    file.seek(max(0, at - 1))
    cut = at > 0 and file.read(1) != b"\n"  # the stretch begins inside a line: skip it
    for line in journal.lines_of(file):
        length = line if isinstance(line, int) else len(line)
        if at + length > size:  # a line being appended as the journal was read
            break
        if cut:
            cut = False
        elif not isinstance(line, int):  # a line too long is no event (a bad line)
            last, head = at, line[:HEAD]
            stamp = _stamp_in(line)
            if stamp is not None and (best is None or stamp > best):
                best = stamp
        at += length
    return Mark(at, last, head, best)


def _stamp_in(line: bytes) -> str | None:
    """The line's `at`, if it is a stamp cwx writes (a version 1 line's, to the second,
    as version 2 says it)."""
    global _at
    if _at is None:
        import re

        _at = re.compile(rb'"at"\s*:\s*"([0-9TZ:.-]{20,24})"').search
    if journal.plainly(line, b'"at"'):
        found = _at(line)
        if found is None:
            return None
        at = found.group(1).decode("ascii")
    else:  # spelled otherwise, or a key "at" twice or deeper: as JSON reads it
        try:
            data = journal.decoded(line)
        except (ValueError, RecursionError):
            return None
        said = data.get("at") if type(data) is dict else None
        if type(said) is not str:
            return None
        at = said
    if len(at) == 20:
        at = f"{at[:-1]}.000Z"
    return at if len(at) == 24 and journal.stamped(at) else None


def _kept(path: str) -> dict[str, Mark]:
    """What the clone kept: journal -> its mark. A file it cannot read, or a row that says
    something else, keeps nothing: that journal is read again."""
    known: dict[str, Mark] = {}
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read(1 << 16)
    except (OSError, UnicodeDecodeError):
        return known
    for row in text.splitlines()[:KEPT]:
        fields = row.split("\t")
        try:
            key, size, last, head, at = fields
            mark = Mark(int(size), int(last), bytes.fromhex(head), at or None)
        except ValueError:
            continue
        if mark.latest is None or (len(mark.latest) == 24 and journal.stamped(mark.latest)):
            known[key] = mark
    return known


def _keep(path: str, known: dict[str, Mark], newest: str) -> None:
    """Keep what was read, newest first; a clone that cannot keep it reads again."""
    rows = [newest, *(key for key in known if key != newest)][:KEPT]
    text = "".join(f"{key}\t{known[key].size}\t{known[key].last}\t{known[key].head.hex()}\t"
                   f"{known[key].latest or ''}\n" for key in rows if "\t" not in key)
    temp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temp, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)


AHEAD = 10 * 60  # seconds a stamp may run ahead of the clock reading it before it is told
DAY = 86_400  # seconds past the clocks a line must leap before undo doubts it is meant


def leaps(at: str, before: str | None, seconds: float, now: float) -> bool:
    """Whether a line stamped `at` leapt more than `seconds` past both this clone's clock
    (`now`) and `before`, the latest stamp of the lines before it: a clock far ahead made
    it. A line the clock followed is a tick after the journal, and leaps nowhere (a clone
    appends after what it had, and git keeps each clone's lines in their order)."""
    if at <= journal.stamp_at(min(now + seconds, _END)):  # the cheap test, on most lines
        return False
    return before is None or _seconds(at) - _seconds(before) > seconds


def leapt(path: str, event: journal.Event, seconds: float, now: float) -> bool:
    """`leaps` for the event of the journal at `path`, whose lines before it are read for
    their stamps only when its stamp is that far ahead of this clone's clock at all."""
    if not leaps(event.when, None, seconds, now):
        return False
    file = journal.opened(path)
    if file is None:
        return True
    wanted, best = event.id.encode(), None
    with file:
        for line in journal.lines_of(file):
            if isinstance(line, int):
                continue
            stamp = _stamp_in(line)
            if stamp == event.when and journal.may_hold(line, (wanted,)) and \
                    journal.id_of(line.rstrip(b"\r\n")) == wanted:
                break
            if stamp is not None and (best is None or stamp > best):
                best = stamp
    return leaps(event.when, best, seconds, now)


class Ahead(Record):
    """A line stamped far ahead of the clone reading it: its clone's clock is likely
    wrong. The order as played still holds (every later event is stamped after it), so
    `cwx check` tells it as information, not a finding."""

    path: str
    line: int
    at: str
    seconds: float  # how far ahead of this clone's clock
    # The journal's latest line, ahead though no line leapt: stamps crept there a few
    # minutes a line (a clock running fast), or this clone's clock is behind.
    crept: bool = False

    @staticmethod
    def hearer(now: float | None = None) -> Hearer:
        return Hearer(time.time() if now is None else now)


class Hearer:
    """Hears a journal's events in its lines' order (of the journal at `path`, set as each
    is read) and keeps the first few that leapt far ahead of this clone's clock and of
    every line before them. The lines the journal's clock stamped after one of them are
    the order of play, not a clock's fault, and are not told."""

    SHOWN = 20

    def __init__(self, now: float) -> None:
        self.now = now
        self.beyond = journal.stamp_at(min(now + AHEAD, _END))  # no line before it leaps
        self.found: list[Ahead] = []
        self.path = ""
        self._of, self._latest = "", ""  # the journal read, and its latest stamp so far
        self._line, self._at = 0, ""  # the line of its latest stamp, as it says it

    def note(self, event: journal.Event) -> None:
        if self._of != self.path:
            self.close()
            self._of, self._latest = self.path, ""
        when = event.when
        # Cheap tests first: a line stamped ahead of this clock and of every line before it,
        # and not in their ten minutes (a journal stamped ahead asks of every line).
        if when > self.beyond and when > self._latest and len(self.found) < self.SHOWN and \
                when[:15] != self._latest[:15] and \
                leaps(when, self._latest or None, AHEAD, self.now):
            self.found.append(Ahead(self.path, event.line, event.at, _seconds(when) - self.now))
        if when > self._latest:
            self._latest, self._line, self._at = when, event.line, event.at

    def close(self) -> None:
        """The journal read: its latest stamp told once if it is far ahead of this clone's
        clock and no line of it leapt there (each a few minutes past the last)."""
        if self._latest > self.beyond and len(self.found) < self.SHOWN and \
                not any(ahead.path == self._of for ahead in self.found):
            self.found.append(Ahead(self._of, self._line, self._at,
                                    _seconds(self._latest) - self.now, crept=True))
        self._latest = ""


def _seconds(at: str) -> float:
    """A stamp (to the millisecond) as seconds since the epoch, by whole-number sums (a
    journal stamped ahead asks it of every line: strptime cost check seconds)."""
    year, month, day = int(at[:4]), int(at[5:7]), int(at[8:10])
    year -= month <= 2  # the days since 1970 of the proleptic Gregorian calendar
    era, of_era = divmod(year, 400)
    of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    days = era * 146_097 + of_era * 365 + of_era // 4 - of_era // 100 + of_year - 719_468
    return days * 86_400 + int(at[11:13]) * 3600 + int(at[14:16]) * 60 + int(at[17:19]) + \
        int(at[20:23]) / 1000


_END = 253_402_300_799.999  # LAST_STAMP in seconds: no stamp says a later moment
