"""The journal: every change cwx makes, one JSON object a line, only ever appended to.

The journal lives in git for as long as the campaign does, so its reader understands
every version ever written, and reads it as a stream: a campaign's whole history is
never held in memory.

Versions (VERSIONS; a line is upgraded to the current one as it is read, `_upgrade`):
  1  cwx 0.1. `at` to the second; `who`, `file` and `bag` present only when known.
  2  `at` to the millisecond, and events are ordered by (`at`, `id`) whatever order
     git merged their lines in; every envelope key present (null when there is none);
     `undoes` on an undo; `correction` on a change that does not count in the ledger;
     `player` (cwx 0.3 on): the person at the keyboard, where `who` is the character;
     a change `removed` (a file retired), and a result's `supply` (the campaign's dice
     changed by the GM, or by a bag retired); later, a game end's result `game` (the
     draws it settles, by id: a line without it settles every draw of its character
     played before it, as game ends always did).
A key this cwx does not know (a later version's) is kept in the event's `meta` and
written back with it, never lost.
"""

from __future__ import annotations

import io
import math
import os
import re
import stat
import time
from collections.abc import Callable, Iterator, Mapping, Sequence

from cwx.base.errors import BadFile
from cwx.base.record import Record

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Protocol

VERSION = 2
VERSIONS = (1, 2)  # every version ever written: the reader understands each
_ENVELOPE = frozenset(("v", "id", "at", "command", "who", "file", "bag", "result", "changes",
                       "undoes", "player"))
NAME = "journal.jsonl"
# A line is input, held whole while it is read: longer lines are bad lines, never parsed,
# so a hostile one costs no memory. No event of cwx's comes near (a sheet is a few hundred
# bytes); one that would is refused when it is written.
MAX_LINE = 1 << 20
MAX_ID = 64  # cwx's ids are 16 hexadecimal digits
# Lists and tables on one line, counted as brackets (a file's text quoted in a creation
# counts its own): a sheet has a few dozen; a line of a million would cost 100 MB parsed.
MAX_VALUES = 20_000
# A file's path in the campaign, a key ("traits.Knife Fighting"), a character's name, a
# command: a table's are a few words. Readers keep names (a recap one an event, check one
# a file), so a journal naming 25,000 characters in 4 KB each cost a recap 134 MB. cwx
# writes no longer name (`encode` refuses it), so it reads none either.
MAX_NAME = 255
MAX_PLAYER = 100  # a player's name: a name, not a paragraph (a recap lists them all)
# Files (characters and bags) a journal names in all: a campaign holds at most 1,000 at
# once (folder.MAX_FILES), and a long one makes and retires a few hundred more. Readers
# keep something of each file named (the ledger, the audit's bags, check's look at each),
# so a journal naming 800,000 cost them 300 MB and tens of seconds.
MAX_NAMED = 10_000
LAST = "9999-12-31T23:59:59.999Z"  # the latest moment a stamp says
_LATER = (LAST, "", 1 << 62)  # an order after every line's
_AT = r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{3})?Z"


class Edit(Record):
    """One key of one file, from one value to another; or a whole file written (key None)."""

    file: str
    key: str | None
    before: Any  # "from" in the journal; None: the key was missing
    after: Any  # "to"
    created: bool = False  # a whole file: made new (True) or rewritten over an old one
    text: str | None = None  # a whole file's text (None for a secret one)
    correction: bool = False  # a reconcile's correction: it does not count in the ledger
    removed: bool = False  # a whole file retired (cwx retire): gone from the campaign


class Event(Record):
    """One journaled change, as every version of the journal is read."""

    v: int
    id: str
    at: str
    command: str
    who: str | None
    file: str | None
    bag: str | None
    result: Mapping[str, Any]
    changes: tuple[Edit, ...]
    undoes: str | None = None
    player: str | None = None  # who made it (players.py); None: a line from before players
    line: int = 0  # where it stands in the journal, for messages and ties
    meta: Mapping[str, Any] = {}  # keys a later version added, kept as they were

    @property
    def order(self) -> tuple[str, str, int]:
        """Where it stands in time: (`at`, `id`), every clone alike. Version 1 stamped to
        the second, so its ties go by the journal's order (its line) instead, and so do
        the events stamped at the last moment a stamp says (LAST), which the journal's
        clock can stamp no later (journal/clock.py)."""
        if self.v >= 2 and self.at != LAST:
            return (self.when, self.id, 0)
        return (self.when, "", self.line)

    @property
    def when(self) -> str:
        """`at` to the millisecond (version 1 wrote seconds), so that times sort as text."""
        return self.at if len(self.at) == 24 else f"{self.at[:-1]}.000Z"

    def to_json(self) -> dict[str, Any]:
        """The event as the journal's current version writes it."""
        data: dict[str, Any] = {**self.meta, "v": VERSION, "id": self.id, "at": self.when,
                                "command": self.command, "who": self.who, "file": self.file,
                                "bag": self.bag, "result": dict(self.result),
                                "changes": [_change_json(c) for c in self.changes]}
        if self.undoes is not None:
            data["undoes"] = self.undoes
        if self.player is not None:
            data["player"] = self.player
        return data


class BadLine(Record):
    """A line that is not a journal event: a fragment, a conflict marker, a hand edit."""

    line: int
    reason: str


def same_player(one: str | None, other: str | None) -> bool:
    """Whether two names are one player's, as `--player` and campaign.toml's `gm` match
    them (case ignored, spaces around trimmed); a line naming none is no player's."""
    return one is not None and other is not None and \
        one.strip().casefold() == other.strip().casefold()


def new(command: str, changes: Sequence[Edit], *, who: str | None = None,
        file: str | None = None, bag: str | None = None,
        result: Mapping[str, Any] | None = None, undoes: str | None = None,
        player: str | None = None, at: str | None = None) -> Event:
    """A new event with a random id, stamped `at` (journal/clock.py), else now (UTC,
    milliseconds)."""
    if at is None:
        at = stamp_at(time.time())
    return Event(VERSION, os.urandom(8).hex(), at, command, who, file, bag, dict(result or {}),
                 tuple(changes), undoes, player)


def stamp_at(seconds: float) -> str:
    """The journal's stamp of a moment (seconds since the epoch): UTC, to the millisecond."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + \
        f".{int(seconds * 1000) % 1000:03d}Z"


def dumps(value: Any, *, ascii: bool = False) -> str:
    """`json.dumps(value, separators=(",", ":"), allow_nan=False)`. Raises ValueError on
    nan, TypeError on what JSON cannot hold."""
    encode = _encoders.get(ascii) or _encoders.setdefault(ascii, _encoder(ascii))
    return encode(value)


_encoders: dict[bool, Callable[[Any], str]] = {}


def _encoder(ascii: bool) -> Callable[[Any], str]:
    """json's own encoder, made once. (CPython's undocumented `_json.make_encoder` would
    spare the import of json: 1.6% of a stateful resolve's instructions and 2.1% of a
    check of 2,000 events, callgrind; under the 5% a shortcut must buy, docs/design.md.)"""
    import json

    return json.JSONEncoder(separators=(",", ":"), allow_nan=False, ensure_ascii=ascii,
                            default=_unserializable).encode


def _unserializable(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON")


def encode(event: Event) -> bytes:
    """One line of the journal; one it cannot hold is refused, nothing written."""
    _names_within(event)
    try:
        line = (dumps(event.to_json()) + "\n").encode()
    except (ValueError, TypeError) as error:  # nan or inf, a date: what a hand edit can write
        if isinstance(error, UnicodeEncodeError):  # a name in other bytes than UTF-8
            from cwx.base.hints import NOT_UTF8

            raise BadFile(NOT_UTF8, path=event.file) from None
        at = next((c for c in event.changes if not _recordable((c.before, c.after))), None)
        raise BadFile("holds a value the journal cannot record (nan, inf, a date); write a "
                      "whole number there by hand", path=at.file if at else event.file,
                      key=at.key if at else None) from None
    if len(line) > MAX_LINE:
        raise BadFile(f"this change would make a journal line of {len(line)} bytes, more than "
                      f"the {MAX_LINE} a line may hold; nothing was written. Make the files "
                      "smaller (a sheet is a few hundred bytes)", path=event.file)
    return line


def _names_within(event: Event) -> None:
    """Refuse a line naming a file, a key or a character in more than MAX_NAME characters,
    which every reader would call a bad line: nothing is written."""
    named: list[tuple[str | None, str | None, str | None, str, str]] = [
        (event.who, event.file, None, "the character's name",
         "Give the character a shorter name (--name, or `name` in its file)"),
        (event.command, event.file, None, "the command", "Name it shorter")]
    named += [(name, name, None, "its path in the campaign",
               "Give it a shorter name, in a folder nearer the campaign's")
              for name in (event.file, event.bag, *(c.file for c in event.changes))]
    named += [(c.key, c.file, c.key, "the key", "Give it a shorter name (a trait's name "
               "is a few words)") for c in event.changes]
    for name, path, key, what, advice in named:
        if name is not None and len(name) > MAX_NAME:
            raise BadFile(f"{what} is {len(name):,} characters long, and a journal names a "
                          f"file, a key or a character in at most {MAX_NAME}: nothing was "
                          f"written. {advice}", path=path,
                          key=key if key is None or len(key) <= 40 else key[:37] + "...")


def _recordable(value: object) -> bool:
    try:
        dumps(value)
    except (ValueError, TypeError):
        return False
    return True


def split(key: str) -> tuple[str, ...]:
    """A journal key as a path in the file: "traits.Knife Fighting" -> (traits, Knife Fighting)."""
    table, dot, rest = key.partition(".")
    return (table, rest) if dot else (table,)


def path_in(folder: str) -> str:
    return NAME if folder in ("", ".") else os.path.join(folder, NAME)  # no "./" in messages


def name_in(folder: str, path: str) -> str:
    """A file as the journal in `folder` names it: its real path (links resolved, so a file
    reached through a link is the one file the ledger knows), relative to that folder."""
    return os.path.relpath(os.path.realpath(path), folder)


def _change_json(change: Edit) -> dict[str, Any]:
    if change.key is None:
        if change.removed:
            return {"file": change.file, "removed": True}
        whole: dict[str, Any] = {"file": change.file, "created": change.created}
        if change.text is not None:
            whole["text"] = change.text
        return whole
    data = {"file": change.file, "key": change.key, "from": change.before, "to": change.after}
    if change.correction:
        data["correction"] = True
    return data


# ---------------------------------------------------------------- reading


def read(path: str) -> Iterator[Event | BadLine]:
    """Every line of the journal at `path`, in file order, as an event or a bad line."""
    for _, item in read_raw(path):
        if item is not None:
            yield item


def read_raw(path: str, *, envelope: bool = False,
             ) -> Iterator[tuple[int, Event | BadLine | None]]:
    """Each line's length and what it is (None: a blank line), as a stream."""
    file = opened(path)
    if file is None:
        return
    with file:
        for number, raw in enumerate(lines_of(file), 1):
            if isinstance(raw, int) or len(raw) > MAX_LINE:
                size = raw if isinstance(raw, int) else len(raw)
                yield size, BadLine(number, "is longer than any event cwx writes")
            elif raw.strip():
                yield len(raw), parse(raw, number, envelope=envelope)
            else:
                yield len(raw), None


# A JSON key or text is spelled other than its plain bytes only through a backslash escape
# (`"\u0075ndoes"` is "undoes"); whitespace may stand around a key's colon, and keys in
# any order. So a line without a backslash holds each key and text it has as its plain
# bytes, quoted, and a search for them (never for what follows a key) finds it.
ESCAPE = b"\\"


def git_lines(raw: bytes) -> list[bytes]:
    """A journal's lines, as git holds them (a last line without its newline is a line),
    each without a carriage return ending it: a line ending is no change of the line (a
    clone with core.autocrlf, or attributes asking for CRLF, holds the same lines)."""
    lines = raw.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    if b"\r" in raw:
        lines = [line[:-1] if line.endswith(b"\r") else line for line in lines]
    return lines


def sought(only: tuple[bytes, ...]) -> tuple[bytes, ...]:
    """What a pre-filter looks for to find every line that, read as JSON, holds one of
    `only` (keys or texts, each as cwx writes it, quoted or bare, never with what follows
    a key): those bytes, or any escape. The one rule of every byte search of the journal."""
    return only if ESCAPE in only else (*only, ESCAPE)


def may_hold(raw: bytes, only: tuple[bytes, ...]) -> bool:
    """Whether the line `raw`, read as JSON, may hold one of `only` (`sought`): False only
    where it surely does not."""
    # sought(only), written out: log tests every line of a long journal with it
    return ESCAPE in raw or any(bytes_ in raw for bytes_ in only)


def plainly(raw: bytes, key: bytes) -> bool:
    """Whether the value of `key` (quoted, as `b'"at"'`) may be read from the line's bytes
    after the key: the line holds no escape and names the key once (a key written twice
    is read by JSON as its last, a key nested deeper is not the line's)."""
    return ESCAPE not in raw and raw.count(key) == 1


def id_of(raw: bytes) -> bytes | None:
    """A line's id as JSON reads it (its UTF-8), however it is spelled; None: the line is
    no object with a text id. Read from cwx's own shape where that is sure: the line starts
    as cwx writes it, holds no escape and names "id" once (a key repeated counts its last)."""
    found = _WRITTEN.match(raw)
    if found is not None and plainly(raw, b'"id"'):
        return found.group(1)
    if not may_hold(raw, (b'"id"',)):
        return None
    try:
        data = _decode(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    id_ = data.get("id") if type(data) is dict else None
    if type(id_) is not str or len(id_) > MAX_ID:
        return None
    return id_.encode("utf-8", "surrogatepass")


_WRITTEN = re.compile(rb'\{"v":[0-9]{1,3},"id":"([^"\\\n]{1,64})"')


def carries_any(file: Readable, ids: set[bytes]) -> bool | None:
    """Whether a line read from `file` on carries one of `ids` (id_of, each line as git
    holds it), a line at a time, never the file whole; None: a line too long to hold."""
    for raw in lines_of(file):
        if isinstance(raw, int):
            return None
        line = raw[:-1] if raw.endswith(b"\n") else raw
        if id_of(line[:-1] if line.endswith(b"\r") else line) in ids:
            return True
    return False


def holding(path: str, only: tuple[bytes, ...], block: int = 1 << 20) -> Iterator[Event]:
    """The events of the lines that may hold any of `only` (keys or texts as cwx writes
    them: `sought`), numbered as every line is; the other lines are only counted, a block
    at a time: a search for each over the block (bytes.find, a C loop faster than a
    regular expression of alternatives), not a test for each line of a long journal. A
    line too long to be an event is none (`cwx check` names it, reading every line)."""
    only = sought(only)
    file = opened(path)
    if file is None:
        return
    before = 0  # the lines before the block
    rest, skipping = b"", False  # skipping: the rest of a line too long to hold
    with file:
        while chunk := file.read(block):
            if skipping:
                cut = chunk.find(b"\n")
                if cut < 0:
                    continue
                before, chunk, skipping = before + 1, chunk[cut + 1:], False
            whole = rest + chunk
            end = whole.rfind(b"\n") + 1
            whole, rest = whole[:end], whole[end:]
            if len(rest) > MAX_LINE:
                rest, skipping = b"", True
            yield from _holding_in(whole, before, only)
            before += whole.count(b"\n")
        if rest and not skipping:
            yield from _holding_in(rest, before, only)


def _holding_in(lines: bytes, before: int, only: tuple[bytes, ...]) -> Iterator[Event]:
    """The events of the whole lines in `lines` that may hold any of `only`, numbered
    after the `before` lines ahead of them."""
    counted = 0
    for start in starts_of(lines, only):
        stop = lines.find(b"\n", start) + 1 or len(lines)
        before += lines.count(b"\n", counted, start)
        counted = start
        line = lines[start:stop]
        if len(line) - line.endswith(b"\n") <= MAX_LINE and \
                isinstance(item := parse(line, before + 1), Event):
            yield item


def starts_of(lines: bytes, only: tuple[bytes, ...]) -> list[int]:
    """Where each line of `lines` that may hold any of `only` (`sought`) starts, in order."""
    starts = set()
    for bytes_ in sought(only):
        at = lines.find(bytes_)
        while at >= 0:
            starts.add(lines.rfind(b"\n", 0, at) + 1)
            at = lines.find(bytes_, lines.find(b"\n", at) + 1 or len(lines))
    return sorted(starts)


def lines_holding(lines: bytes, only: tuple[bytes, ...]) -> Iterator[bytes]:
    """The lines of `lines` (without their newlines) that may hold any of `only`."""
    for start in starts_of(lines, only):
        stop = lines.find(b"\n", start)
        yield lines[start:] if stop < 0 else lines[start:stop]


def opened(path: str) -> BinaryIO | None:
    """The journal, open for reading; None when there is none yet. A journal that is not
    a regular file (a link to /dev/zero, a FIFO) is an error, never read without end."""
    from cwx.base.places import confine, confine_open

    if os.path.islink(path):  # one leading out of the campaign is not even opened
        confine(path, os.path.realpath(path))
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer that never comes.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise BadFile(f"cannot be read ({error.strerror})", path=path) from None
    try:
        confine_open(path, fd)
    except BadFile:
        os.close(fd)
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or (info.st_size == 0 and _reads_on(fd)):
        os.close(fd)
        raise BadFile("is not a regular file (a file of the system's, such as /proc, says "
                      "it is empty and reads on), so it is no journal; put the journal "
                      "itself here", path=path)
    os.set_blocking(fd, True)
    return io.BufferedReader(_Checked(fd, path), 1 << 16)


def _reads_on(fd: int) -> bool:
    """Whether a file whose size says 0 has bytes to read: one of /proc's, not a file."""
    try:
        return os.pread(fd, 1, 0) != b""
    except OSError:
        return True


class _Checked(io.FileIO):
    """A journal whose read fails midway (an I/O error) says so as a problem of the file."""

    def __init__(self, fd: int, path: str) -> None:
        super().__init__(fd, "rb")
        self.path = path

    def readinto(self, buffer: Any) -> int | None:
        try:
            return super().readinto(buffer)
        except OSError as error:
            raise BadFile(f"cannot be read ({error.strerror})", path=self.path) from None

    def seek(self, offset: int, whence: int = 0) -> int:
        try:
            return super().seek(offset, whence)
        except OSError as error:
            raise BadFile(f"cannot be read ({error.strerror})", path=self.path) from None


if TYPE_CHECKING:  # a protocol costs start-up to define: for typing only
    class Readable(Protocol):
        def read(self, size: int, /) -> bytes: ...


def lines_of(file: Readable, block: int = 1 << 20) -> Iterator[bytes | int]:
    """The lines of a file, read a block at a time, each with its newline (a last line
    cut short without). A line longer than MAX_LINE is never held: it comes as its
    length alone, so memory stays bounded and offsets stay right."""
    rest = b""
    skipped = 0  # how much of a line too long to hold has gone by
    while chunk := file.read(block):
        lines = (rest + chunk).split(b"\n")
        rest = lines.pop()
        lines.reverse()  # each taken out as it is given: a reader waiting holds no line
        while lines:
            size = len(lines[-1])
            if skipped:
                lines.pop()
                yield skipped + size + 1
                skipped = 0
            elif size > MAX_LINE:  # ended in the block that made it too long
                lines.pop()
                yield size + 1
            else:
                yield lines.pop() + b"\n"
        if len(rest) > MAX_LINE:
            skipped += len(rest)
            rest = b""
    if skipped or len(rest) > MAX_LINE:
        yield skipped + len(rest)
    elif rest:
        yield rest


def lines_from_end(path: str, block: int = 1 << 16) -> Iterator[bytes]:
    """The journal's lines, newest first, read backwards a block at a time: what is
    looked for near the end costs what lies after it, not the campaign's length."""
    file = opened(path)
    if file is None:
        return
    with file:
        end = file.seek(0, os.SEEK_END)
        rest = b""
        skipping = False  # inside a line too long to hold: its head is no line either
        while end > 0:
            start = max(0, end - block)
            file.seek(start)
            chunk = file.read(end - start) + rest
            end = start
            lines = chunk.split(b"\n")
            head = lines.pop(0) if end > 0 else b""  # it may go on in the block before
            rest = head
            if skipping:
                if not lines:
                    rest = b""  # all of this block is the long line's
                    continue
                lines.pop()  # the long line's first piece
                skipping = False
            for line in reversed(lines):  # as in lines_of, a line too long is no event
                if line.strip() and len(line) <= MAX_LINE:
                    yield line
            if len(rest) > MAX_LINE:
                rest, skipping = b"", True  # never grown without end


def _kind(command: str) -> Any:
    """The kind of the events of `command` (events.py: imported on reading, not writing)."""
    from cwx.journal import events

    return events.kind(command)


GAME = "game"  # a game's end's result: the ids of the draws of the game it settles
# What a line holds to undo, turn or settle another (Turns): the readers of the undos and
# turns parse only the lines holding one of these.
UNDOING = (b'"undoes"', b'"turns"', b'"game"')
Order = tuple[str, str, int]  # Event.order


# About the bytes the undos and turns of a journal may keep: far beyond any campaign's;
# a journal that would make them keep more has its lines past it left out (bad lines).
MAX_TURNS = 16 << 20


class Crowded(BadFile):
    """A journal naming more files than MAX_NAMED, at the line that names one past it."""


class Named:
    """The files a journal's lines name (an event's file and bag, its changes' files),
    counted in the journal's order: the line that names one past MAX_NAMED is refused, a
    BadFile naming it. Each name is kept as its hash: the set of 10,000 names of 4 KiB
    would itself be 40 MB."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.seen: set[int] = set()

    def note(self, number: int, file: object, bag: object, changes: Sequence[Any]) -> None:
        """A line's names: its file and bag, and each change's file (a change that names
        none names nothing)."""
        add = self.seen.add
        for name in (file, bag):
            if type(name) is str:
                add(hash(name))
        for change in changes:
            named = change.file if type(change) is Edit else \
                change.get("file") if type(change) is dict else None
            if type(named) is str:
                add(hash(named))
        if len(self.seen) > MAX_NAMED:
            raise Crowded(_crowded(), path=self.path, line=number)

    def event(self, event: Event) -> None:
        self.note(event.line, event.file, event.bag, event.changes)


def _crowded() -> str:
    return (f"names more than {MAX_NAMED:,} files from the journal's start to here, and cwx "
            "reads a journal of up to that many (a campaign holds at most 1,000 at once): "
            "no table's journal names so many. Find the commit that brought this line "
            "(git blame journal.jsonl) and settle it with its author")


def _undone_by(counting: Mapping[str, str]) -> set[str]:
    """The changes undone, given the undo that counts for each: a change is undone while
    the chain of undos from it (an undo, its redo, that redo's undo...) is of odd length."""
    undone: dict[str, bool] = {}
    for start in counting:
        chain = []  # walked once, the statuses set back along it: no recursion
        at: str | None = start
        while at is not None and at not in undone and at not in chain:
            chain.append(at)
            at = counting.get(at)
        status = undone.get(at, False) if at is not None else False
        for link in reversed(chain):  # undone when what undoes it is not
            status = link in counting and not status
            undone[link] = status
    return {change for change, status in undone.items() if status}


MOST_SETTLED = 1000  # draws one game's end names: a game of a table has a few dozen


def game_of(event: Event) -> tuple[str, ...] | None:
    """The draws a game's end settles, as its line names them (None: a line from before
    ends named them, which settles every draw of its character played before it)."""
    said = event.result.get(GAME)
    if not isinstance(said, list):
        return None
    return tuple(item for item in said[:MOST_SETTLED] if isinstance(item, str) and
                 len(item) <= MAX_ID)


class Turns:
    """Which undos and turns count, however git merged two clones' lines (docs/rules.md,
    "The campaign ledger"): the first of two undos; no turn of a draw while an earlier
    turn of it stands, no game's end while an earlier end of one of its draws stands (one
    undone pre-empts nothing: the next counts again), nor an undo of what counts for
    nothing, nor one naming itself."""

    def __init__(self) -> None:
        self.undos: dict[str, list[tuple[Order, str]]] = {}  # what is undone -> its undos
        self.turns: dict[str, list[tuple[Order, str, bool]]] = {}  # a draw -> its turns
        self.ends: dict[str, list[tuple[Order, str]]] = {}  # a draw -> the ends settling it
        self.seen: set[str] = set()  # git's union can copy a line: each event once
        self.selfish: set[str] = set()  # undos naming their own id: they undo nothing
        self.kept = 0  # about the bytes held (MAX_TURNS)
        self._void: set[str] | None = None
        self._undone: set[str] | None = None

    def note(self, event: Event) -> bool:
        """Note an event; False when it would keep more than MAX_TURNS (left out)."""
        turned, game = event.result.get("turns"), event.result.get(GAME)
        is_turn = isinstance(turned, str) and _kind(event.command).turn
        is_end = isinstance(game, list) and bool(game) and _kind(event.command).settles
        if not (event.undoes or is_turn or is_end) or event.id in self.seen:
            return True
        if self.kept > MAX_TURNS:
            return False
        self.seen.add(event.id)
        self.kept += 300 + 2 * len(event.id) + len(event.undoes or "") + len(turned or "")
        self._void = self._undone = None
        if is_end:
            draws = game_of(event) or ()
            self.kept += sum(100 + len(draw) for draw in draws)
            for draw in draws:
                self.ends.setdefault(draw, []).append((event.order, event.id))
        if event.undoes == event.id:  # an undo names an earlier event: this counts for nothing
            self.selfish.add(event.id)
        elif event.undoes:
            self.undos.setdefault(event.undoes, []).append((event.order, event.id))
        if is_turn:
            assert isinstance(turned, str)
            self.turns.setdefault(turned, []).append((event.order, event.id,
                                                      event.result.get("success") is True))
        return True

    def void(self) -> set[str]:
        """The undos and turns that count for nothing."""
        if self._void is not None:
            return self._void
        void: set[str] = set(self.selfish)
        for undos in self.undos.values():
            void.update(undo for _, undo in sorted(undos)[1:])
        # A turn undone (its undo not redone) pre-empts nothing: the next turn of its draw
        # counts, whenever it was made (an undone end likewise: docs/rules.md, "Two clones
        # did it at once"), so taking back a forged turn or end gives the one it pre-empted
        # back. Its redo pre-empts it again.
        undone = _undone_by({target: min(undos)[1] for target, undos in self.undos.items()})
        for turns in self.turns.values():
            standing = None  # the turn that counts, until its undo
            for _, turn, _ in sorted(turns):
                if standing is None or standing in undone:
                    standing = turn
                else:
                    void.add(turn)  # made while another turn of its draw stood
        # Likewise a game's end made while another end of one of its draws stood (two clones
        # ended the game at once): its dice were settled already.
        settling: dict[str, tuple[Order, list[str]]] = {}  # an end -> its draws
        for draw, named in self.ends.items():
            for order, end in named:
                settling.setdefault(end, (order, []))[1].append(draw)
        settled: dict[str, str] = {}  # a draw -> the end that stands for it
        for end, (_, draws) in sorted(settling.items(), key=lambda item: item[1][0]):
            if any(draw in settled and settled[draw] not in undone for draw in draws):
                void.add(end)
            else:
                settled.update(dict.fromkeys(draws, end))
        # An undo of what counts for nothing counts for nothing, and so on down a chain
        # of redos (an undo of an undo).
        pending = [target for target in void if target in self.undos]
        while pending:
            undo = min(self.undos[pending.pop()])[1]
            if undo not in void:
                void.add(undo)
                if undo in self.undos:
                    pending.append(undo)
        self._void = void
        return void

    def undone(self) -> set[str]:
        """What a counting undo took back and no redo gave back (the first undo of each
        change counts)."""
        if self._undone is None:
            void = self.void()
            self._undone = _undone_by({target: min(undos)[1] for target, undos in
                                       self.undos.items() if min(undos)[1] not in void})
        return self._undone

    def taken_back(self, target: str) -> tuple[set[str], set[str]]:
        """What would count again, and what no more, were `target` taken back by one undo
        more: a turn or game's end it pre-empted counts again (and an undo of that), one it
        had freed counts no more (its redo pre-empts it again)."""
        after = Turns()
        after.undos = {**self.undos, target: [*self.undos.get(target, ()), (_LATER, "")]}
        after.turns, after.ends, after.selfish = self.turns, self.ends, self.selfish
        before, then = self.void(), after.void() - {""}
        return before - then - {target}, then - before - {target}

    def by(self, draw: str) -> bool | None:
        """What the turn of this draw that still counts made of it: a success (True), a
        failure (False); None: no turn counts."""
        void, undone = self.void(), self.undone()
        live = [success for _, turn, success in sorted(self.turns.get(draw, []))
                if turn not in void and turn not in undone]
        return live[-1] if live else None


def spellings(name: str) -> tuple[bytes, ...]:
    """A name as a journal line holds it: as cwx writes it (UTF-8), and escaped to ASCII,
    as another JSON writer may have."""
    return tuple({dumps(name).encode(), dumps(name, ascii=True).encode()})


def events_in(path: str) -> Iterator[Event]:
    """The journal's events, skipping lines that are not events (`cwx check` names them)."""
    for item in read(path):
        if isinstance(item, Event):
            yield item


def parse(raw: bytes, number: int = 0, *, envelope: bool = False) -> Event | BadLine:
    """One line: an event of any version, or why it is not one. With `envelope`, only
    who, when and where are read (the changes are left out, unchecked): enough to order
    and choose events, at half the cost."""
    # Counted before it is decoded (a C loop): a line of a million lists or tables would
    # hold a hundred megabytes once parsed; no event cwx writes holds a fraction of it.
    brackets = raw.count(b"[") + raw.count(b"{")
    if brackets > MAX_VALUES:
        return BadLine(number, f"holds more than {MAX_VALUES:,} lists and tables, as no "
                               "event cwx writes does")
    try:
        data = _decode(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        marker = raw.startswith((b"<<<<<<<", b"=======", b">>>>>>>", b"|||||||"))
        return BadLine(number, "is a git conflict marker: merge the journal with "
                               "`cwx git setup` (merge=union), and remove the marker line"
                       if marker else "is not one JSON object (a line cut short?)")
    if type(data) is not dict:
        return BadLine(number, "is not a JSON object")
    # Counted first (a C loop): a line of fewer brackets cannot nest deeper.
    if brackets > MAX_DEPTH and _deeper_than(data, MAX_DEPTH):
        return BadLine(number, f"nests values more than {MAX_DEPTH} deep, as no file cwx "
                               "reads does")
    if (b"\\ud" in raw and not _utf8(data)) or (b"\\uD" in raw and not _utf8(data)):
        return BadLine(number, "holds a lone surrogate escape, which is no text cwx writes")
    try:
        return _event(data, number, envelope)
    except (TypeError, ValueError) as error:
        return BadLine(number, f"is not a journal event ({error})")


def decoded(raw: bytes) -> Any:
    """A JSON record cwx wrote beside the journal (a sealed number, a clone's guesses),
    decoded as a line is: no NaN or infinity, nothing after it; ValueError if it is none."""
    return _decode(raw.decode("utf-8"))


class Stamp(Record):
    """What orders and chooses an event, read without the rest of it."""

    when: str
    id: str
    file: str | None
    line: int


def stamp_of(raw: bytes, number: int, named: Named | None = None) -> Stamp | BadLine:
    """An event's time, id and file, for ordering a long journal: its envelope is checked
    as `parse` checks it, its changes are not (they are, when the event is shown). `named`
    counts the files it names (a Crowded past its bound)."""
    try:
        data = _decode(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        data = None
    if type(data) is dict:
        get = data.get
        version, id_, at, file = get("v"), get("id"), get("at"), get("file")
        if type(version) is int and version in VERSIONS and type(id_) is str and \
                type(at) is str and type(get("command")) is str and stamped(at) and \
                (file is None or type(file) is str):
            if named is not None:
                changes = get("changes")
                named.note(number, file, get("bag"), changes if type(changes) is list else ())
            return Stamp(at if len(at) == 24 else f"{at[:-1]}.000Z", id_, file, number)
    whole = parse(raw, number, envelope=True)  # the slow way, to say why it is no event
    if named is not None and isinstance(whole, Event):  # its changes unread: read them
        event = parse(raw, number)
        if isinstance(event, Event):
            named.event(event)
    return Stamp(whole.when, whole.id, whole.file, number) if isinstance(whole, Event) else whole


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """A line of any version as the current one has it (the one place versions differ):
    version 1 stamped `at` to the second, and left out envelope keys with nothing to say.
    The version it was written in stays, for the order of its ties (Event.order)."""
    at = data.get("at")
    if data.get("v") == 1 and type(at) is str and len(at) == 20:
        data = {**data, "at": f"{at[:-1]}.000Z"}
    return data


_stamp: Any = None  # _AT, compiled when a line is first read (a change only writes one)


def stamped(at: str) -> bool:
    """A time cwx writes: the shape, and a day and a time of day that exist (a stamp of
    February 30th or 25:61 is no event's, for every reader alike)."""
    global _stamp
    if _stamp is None:
        _stamp = re.compile(_AT).fullmatch
    if _stamp(at) is None or at[11:13] > "23" or at[14:16] > "59" or at[17:19] > "59":
        return False
    year, month, day = int(at[:4]), int(at[5:7]), int(at[8:10])
    return year >= 1 and 1 <= month <= 12 and 1 <= day <= days_in(year, month)


def days_in(year: int, month: int) -> int:
    """The days of a month of the Gregorian calendar, as `datetime` counts them (without
    importing it: a command that writes one line checks one stamp)."""
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _utf8(data: object) -> bool:
    try:
        dumps(data).encode()
    except UnicodeEncodeError:
        return False
    return True


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number a journal holds")


def _finite(text: str) -> float:
    number = float(text)
    if math.isinf(number):
        raise ValueError(f"{text} is not a number a journal holds")
    return number


_scan: Any = None  # one decoder for every line, made when a line is first read


def _decode(text: str) -> Any:
    """One JSON value, and nothing else on the line. (One decoder for every line:
    json.loads with an option builds a new one on each call.)"""
    global _scan
    if _scan is None:
        import json

        _scan = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite).raw_decode
    text = text.strip()
    value, end = _scan(text)
    if end != len(text):
        raise ValueError("more than one JSON value")
    return value


# Records built straight from their fields: a Record's own constructor is a Python
# function, and a long journal builds hundreds of thousands of them.
_record = tuple.__new__


def _event(data: dict[str, Any], number: int, envelope: bool) -> Event:
    version = data.get("v")
    if type(version) is not int or version not in VERSIONS:
        raise ValueError(f"unknown version {_short(version)}")
    get = _upgrade(data).get
    id_, at, command = get("id"), get("at"), get("command")
    if type(id_) is not str or type(at) is not str or type(command) is not str:
        wrong = next(k for k, v in (("id", id_), ("at", at), ("command", command))
                     if type(v) is not str)
        raise TypeError(f"{wrong} must be text")
    if not stamped(at):
        raise ValueError("at must be a UTC time, of a day and an hour that exist, like "
                         "2026-11-30T12:00:00.000Z")
    if len(id_) > MAX_ID or len(command) > MAX_NAME:
        raise ValueError("its id or command is longer than any cwx writes")
    who, file, bag, undoes, player = (get("who"), get("file"), get("bag"), get("undoes"),
                                      get("player"))
    for value in (who, file, bag, undoes, player):
        if value is None:
            continue
        if type(value) is not str:
            raise TypeError("who, file, bag, undoes and player must be text or null")
        if len(value) > MAX_NAME or "\0" in value:
            raise ValueError("names a file or a player no cwx writes (too long, or with a "
                             "NUL)")
    if player is not None and len(player) > MAX_PLAYER:
        raise ValueError(f"names a player of more than {MAX_PLAYER} characters, as cwx "
                         "never does")
    for value in (file, bag):
        if value is not None and not _plain_path(value):
            raise ValueError(f"names the file {_short(value)} as cwx never does (./, //, "
                             "a/../b): one file must have one name")
    result = get("result") or {}
    if type(result) is not dict:
        raise TypeError("result must be an object")
    changes = get("changes") or []
    if type(changes) is not list:
        raise TypeError("changes must be a list")
    meta = {} if _ENVELOPE.issuperset(data) else \
        {k: v for k, v in data.items() if k not in _ENVELOPE}
    return _record(Event, (version, id_, at, command, who, file, bag, result,
                           () if envelope else tuple(map(_change, changes)), undoes, player,
                           number, meta))


def _change(item: Any) -> Edit:
    if type(item) is not dict or type(item.get("file")) is not str:
        raise TypeError("each change must be an object naming its file")
    if len(item["file"]) > MAX_NAME or "\0" in item["file"]:
        raise ValueError("names a file no cwx writes (too long, or with a NUL)")
    if not _plain_path(item["file"]):
        raise ValueError(f"names the file {_short(item['file'])} as cwx never does (./, //, "
                         "a/../b): one file must have one name")
    key = item.get("key")
    if key is None:
        text = item.get("text")
        if text is not None and type(text) is not str:
            raise TypeError("a file's text must be text")
        return _record(Edit, (item["file"], None, None, None, bool(item.get("created")),
                              text, False, item.get("removed") is True))
    if type(key) is not str or not key or len(key) > MAX_NAME or "\0" in key:
        raise TypeError("a change's key must be text, not empty, of a length cwx writes")
    return _record(Edit, (item["file"], key, item.get("from"), item.get("to"), False, None,
                          item.get("correction") is True, False))


MAX_DEPTH = 64  # arrays and tables within each other, as in a file (tomlread.MAX_DEPTH)


_PLAIN: dict[str, bool] = {}  # names met: a journal names its few files again and again


def _plain_path(name: str) -> bool:
    """A file named as cwx names it (os.path.normpath's form): no "./", "//" or "a/../b",
    so one file has one name in the ledger. String tests only: every line names files."""
    known = _PLAIN.get(name)
    if known is None:
        known = _plainly_named(name)
        if len(_PLAIN) < 4096:  # a hostile journal's many names are not all kept
            _PLAIN[name] = known
    return known


def _plainly_named(name: str) -> bool:
    if not name or "//" in name or name.endswith("/") or name == "." or \
            name.startswith("./") or "/./" in name or name.endswith("/."):
        return False
    rest = name
    while rest.startswith("../"):  # outside the campaign: check names it as such
        rest = rest[3:]
    return "/../" not in rest and not rest.endswith("/..") and rest not in ("..", "")


def _deeper_than(value: Any, limit: int) -> bool:
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if depth > limit:
            return True
        if type(item) is list:
            pending += [(inner, depth + 1) for inner in item]
        elif type(item) is dict:
            pending += [(inner, depth + 1) for inner in item.values()]
    return False


def _short(value: object) -> str:
    text = dumps(value, ascii=True)
    return text if len(text) <= 20 else text[:17] + "..."
