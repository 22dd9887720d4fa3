"""What `cwx check` proves of each event: that its changes are the ones the rules give
from the inputs its line records (docs/rules.md, "What check proves").

Each kind of event says how it is re-played (its EventKind's `replay`, in the system
entries and events.py): a pure function of the line, giving every key's change the rules
make and the figures its result must hold. Here those are compared with what the line
says, one event at a time as the journal is read; an undo, whose changes take back
another event's, is compared once the journal is read (git may put it anywhere). An
adopt is the table's word, taken as written; a correction counts for nothing.
"""

from __future__ import annotations

import functools
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator

from cwx import systems
from cwx.base.errors import shown
from cwx.base.record import Record
from cwx.journal import events
from cwx.journal.lines import LAST, Edit, Event, Order
from cwx.systems import bag as bags
from cwx.systems.parts import Replay, whole

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

    from cwx.journal.ledger import Ledger

SHOWN = 100  # forged events named one by one; past that, counted
MAX_UNDOS = 50_000  # undos compared with what they undo: a campaign makes a few hundred
MAX_READS = 200_000  # events compared with the ledger's values they were played with


class Forged(Record):
    """One change (or figure) of an event that the rules do not give."""

    event: str  # its id
    line: int
    command: str
    file: str | None
    key: str | None  # None: the event as a whole (the rules refuse it, or make no file)
    was: Any  # the value before it, as its line says
    gives: Any  # what the rules give (the value after it)
    says: Any  # what the line says
    why: str | None = None  # the rules refuse the event itself, or its record is unplayable


SELFISH = "names itself as the event it undoes"  # an undo that counts for nothing
_MISSING = object()
_NOTHING = hash(frozenset())  # what an undo that changes nothing changes


def _same(a: object, b: object) -> bool:
    """Equal as JSON values are (1 is not true; a missing whole number is 0)."""
    if (a is None and whole(b) and b == 0) or (b is None and whole(a) and a == 0):
        return True
    return type(a) is type(b) and a == b


def _counted(event: Event) -> dict[tuple[str, str], Edit]:
    """The line's changes of keys that count in the ledger (a correction counts for none)."""
    return {(change.file, change.key): change for change in event.changes
            if change.key is not None and not change.correction}


def compare(event: Event, replay: Replay) -> list[Forged]:
    """Each change and figure of `event` that its re-play does not give."""
    def found(file: str | None, key: str | None, was: Any, gives: Any, says: Any,
              why: str | None = None) -> Forged:
        return Forged(event.id, event.line, event.command, file, key, was, gives, says, why)

    forged = [found(change.file, None, None, None, None,
                    f"writes {change.file} whole, which no {event.command} does")
              for change in event.changes if change.key is None and not change.removed and
              replay.makes is not None and change.file not in replay.makes]
    if replay.refused is not None:
        return [found(event.file, None, None, None, None, replay.refused), *forged]
    said = _counted(event)
    for where in [*said, *(where for where in replay.changes if where not in said)]:
        change = said.get(where)
        was, now = replay.changes.get(where, (_MISSING, _MISSING))
        if change is None:  # the rules change it; the line leaves it
            if not _same(was, now):
                forged.append(found(*where, was, now, was))
        elif now is _MISSING:  # the line changes it; the rules leave it
            if not _same(change.before, change.after):
                forged.append(found(*where, change.before, change.before, change.after))
        elif not _same(now, change.after):
            forged.append(found(*where, change.before, now, change.after))
    for name, value in replay.result.items():
        if not _same(value, event.result.get(name, _MISSING)):
            forged.append(found(event.file, f"result.{name}", None, value,
                                event.result.get(name)))
    return forged


def replayed(event: Event) -> list[Forged]:
    """What the rules do not give of one event (none for the table's word, an adopt)."""
    return _replaying(event)[0]


if TYPE_CHECKING:
    Reads = tuple[tuple[str, str, Any], ...]  # (file, key, value) a re-play took from its line


def _replaying(event: Event) -> tuple[list[Forged], Reads]:
    """`replayed(event)`, and the ledger keys its re-play took from its line (Replay.reads)."""
    kind = events.kind(event.command)
    if kind.replay is None:
        if kind.table or not any((c.key is not None and not c.correction) or (c.key is None
                                 and not c.removed) for c in event.changes):
            return [], ()
        return [Forged(event.id, event.line, event.command, event.file, None, None, None, None,
                       f"is a command this cwx does not know ({event.command[:40]}), so "
                       "no rule gives its changes (a later cwx's? update cwx)")], ()
    replay = kind.replay(event)
    return compare(event, replay), tuple((*where, value) for where, value in
                                         replay.reads.items())


def reads(event: Event) -> Reads:
    """The ledger keys the re-play of `event` takes from its line (Replay.reads)."""
    return _replaying(event)[1]


def misread(event: Event, folded: Ledger) -> list[Forged]:
    """Each ledger key the re-play of `event` took from its line (a resolve's trait score)
    that is not what the ledger held at its place in the journal."""
    replaying = Replaying()
    replaying._played_with(event, _replaying(event)[1])
    replaying._misplayed(folded)
    return replaying.shown


_DICE_TABLES: dict[str, bool] = {}  # a key's table -> whether its keys may count dice


def _die(key: str) -> bool:
    """A summed count of dice (a character's luck, a bag's dice or its reserve's)."""
    table = key.partition(".")[0]  # most keys a journal names are no die: asked once
    held = _DICE_TABLES.get(table)
    if held is None:
        held = systems.conserved(f"{table}.white") or bags.rule(f"{table}.white").whole
        if len(_DICE_TABLES) < 1024:
            _DICE_TABLES[table] = held
    return held and (systems.conserved(key) or bags.rule(key).whole)


MAX_SPANS = 10_000  # dice keys followed: a campaign's files hold a few dozen


class _Spans:
    """What each count of dice could hold at each line of the journal, from the lines
    before it in its order (a clone appends after all it had): no less than its start
    plus every fall before it, no more than its start plus every rise. A change's `from`
    outside that no clone held there, however the clones played at once (the ledger
    sums, so an honest `from` is the start plus some of the changes before it)."""

    def __init__(self) -> None:
        self.spans: dict[tuple[str, str], list[int]] = {}  # (file, key) -> [least, most]

    def note(self, event: Event) -> list[Forged]:
        held: bool | None = None  # asked once a die is met (most changes are none)
        found = []
        for change in event.changes:
            key = change.key
            if key is None:
                if change.text is not None and not change.removed and \
                        len(self.spans) < MAX_SPANS:
                    self._made(change.file, change.text)
                continue
            if change.correction or not _die(key) or \
                    not (change.before is None or type(change.before) is int) or \
                    not (change.after is None or type(change.after) is int):
                continue
            if held is None:
                # A play re-played from its own `from`; an adopt (the table's word), an
                # undo (held to what it undoes) and a correction start where their sheet
                # stood.
                kind = events.kind(event.command)
                held = kind.replay is not None and not kind.table and \
                    not kind.correction and not event.undoes
            was, now = change.before or 0, change.after or 0
            span = self.spans.get((change.file, key))
            if span is None:
                if len(self.spans) >= MAX_SPANS:
                    continue
                # One copy of each name, the ledger's (a journal may name 10,000 of 1 KB).
                span = self.spans[(sys.intern(change.file), sys.intern(key))] = [was, was]
            elif held and not span[0] <= was <= span[1]:
                found.append(Forged(event.id, event.line, event.command[:40], change.file,
                                    key, was, was, now,
                                    f"starts {change.file} {key} from {was}, which "
                                    "no clone held there: its start and the changes before it "
                                    f"leave {span[0]} to {span[1]}"))
            if now > was:
                span[1] += now - was
            else:
                span[0] += now - was
        return found

    def _made(self, file: str, text: str) -> None:
        """A file made (or adopted whole): each count of dice its text holds may be held
        from here on, beside what it held before."""
        for key, value in _values_in(text).items():
            if _die(key) and whole(value):
                span = self.spans.setdefault((sys.intern(file), sys.intern(key)), [value, value])
                span[0], span[1] = min(span[0], value), max(span[1], value)


def started_astray(path: str, event: Event) -> bool:
    """Whether `event` starts a count of dice from what no clone held at its line (`cwx
    check` names it): the lines before it that may change those counts or make a file
    read again (the first line of an id its event)."""
    from cwx.journal.lines import dumps, holding

    keys = {change.key for change in event.changes
            if change.key is not None and _die(change.key)}
    if not keys:
        return False
    spans, seen = _Spans(), set()
    wanted = (*(dumps(key).encode() for key in sorted(keys)), b'"text"')
    for item in holding(path, wanted):
        if item.line >= event.line:
            break
        if item.id not in seen:
            seen.add(item.id)
            spans.note(item)
    return bool(spans.note(event))


MAX_REMADE = 10_000  # makings anew kept to judge once the journal is read (a table makes few)


class _Since:
    """A file since its latest making, as the journal's lines came (a clone appends after
    all it had): the experience its making held and gained since, the purchases since,
    and the latest stamp among them."""

    __slots__ = ("bought", "earned", "latest", "xp")

    def __init__(self, xp: int) -> None:
        self.xp = xp
        self.bought: list[str] = []
        self.earned: list[str] = []  # the events that changed its experience (a few)
        self.latest: Order | None = None


class _Remakings:
    """Each making of a character anew (`char new --force`, over a file made before)
    while, by the lines before it that it saw (`saw`), the character held experience
    earned or had bought a trait: the command refuses it. Kept as the journal is read
    (a few numbers a file), judged once it is read (a purchase undone bought nothing)."""

    def __init__(self) -> None:
        self.files: dict[str, _Since] = {}
        self.found: list[tuple[Forged, int, tuple[str, ...]]] = []  # (it, xp, purchases)
        # Those that say they never saw what was earned (a first making's `created`, or a
        # `saw` before it): a clash of two clones, unless git shows the clone had it.
        self.claimed: list[tuple[Forged, int, tuple[str, ...], tuple[str, ...]]] = []

    def note(self, event: Event) -> None:
        from cwx.journal.ledger import _saw

        for change in event.changes:
            if change.key is not None and change.key != "xp":
                continue  # most changes: neither a making nor experience
            since = self.files.get(change.file)
            if change.key is None and change.removed:
                self.files.pop(change.file, None)
            elif change.key is None and change.text is not None:
                if since is not None and event.command == "char new" and \
                        len(self.found) + len(self.claimed) < MAX_REMADE:
                    saw = _saw(event.result.get("saw")) or event.order
                    it = Forged(event.id, event.line, event.command[:40], change.file, None,
                                None, None, None, None)
                    if not change.created and (since.latest is None or since.latest <= saw):
                        self.found.append((it, since.xp, tuple(since.bought)))
                    else:  # a clash of two clones (the ledger's), or a making it never saw
                        said = "it marks itself the file's first making" if change.created \
                            else "its `saw` names an earlier line"
                        self.claimed.append((it._replace(why=said), since.xp,
                                             tuple(since.bought),
                                             (*since.earned, *since.bought)))
                if since is not None or len(self.files) < MAX_SPANS:
                    xp = _values_in(change.text).get("xp")
                    self.files[sys.intern(change.file)] = _Since(xp if type(xp) is int else 0)
            elif since is not None and change.key == "xp" and not change.correction and \
                    (change.before is None or whole(change.before)) and \
                    (change.after is None or whole(change.after)):
                since.xp += (change.after or 0) - (change.before or 0)
                since.latest = max(since.latest or event.order, event.order)
                if len(since.earned) < 20 and event.id not in since.earned:
                    since.earned.append(event.id)
        since = self.files.get(event.file) if isinstance(event.file, str) else None
        if since is not None and len(since.bought) < 100 and events.kind(event.command).buys:
            since.bought.append(event.id)
            since.latest = max(since.latest or event.order, event.order)

    def judged(self, undone: set[str]) -> list[Forged]:
        """Those that made anew a character that held what it earned."""
        found = []
        for item, xp, bought in self.found:
            buys = [id_ for id_ in bought if id_ not in undone]
            if xp > 0 or buys:
                found.append(item._replace(
                    why=f"makes {item.file} anew over a character with {_held(xp, buys)} (by "
                        "the lines it saw), which `char new --force` refuses: a character "
                        "that earned any is retired first"))
        return found

    def claims(self, undone: set[str]) -> list[tuple[Forged, tuple[str, ...]]]:
        """Those that would make anew a character that held what it earned, but say they
        never saw it (a first making's mark, or an earlier `saw`): each with the events
        that earned it, which git may show its clone had."""
        found = []
        for item, xp, bought, earned in self.claimed:
            buys = [id_ for id_ in bought if id_ not in undone]
            if xp > 0 or buys:
                found.append((item._replace(
                    why=f"makes {item.file} anew over a character with {_held(xp, buys)}, "
                        f"which it says it never saw ({item.why})"),
                    tuple(id_ for id_ in earned if id_ not in undone)))
        return found


def _held(xp: int, buys: list[str]) -> str:
    return " and ".join(([f"{xp} xp earned"] if xp > 0 else []) +
                        (["traits bought with experience"] if buys else []))


def remade_over_earned(path: str, event: Event, undone: set[str]) -> bool:
    """Whether `event` makes a character anew over one that held what it earned (`cwx
    check` names it): the journal's lines up to it read again."""
    from cwx.journal import history

    remakings = _Remakings()
    for item in history.every(path):
        remakings.note(item)
        if item.line >= event.line:
            break
    return any(found.event == event.id for found in remakings.judged(undone))


def remade_unseen(path: str, event: Event, undone: set[str]) -> tuple[str, ...]:
    """The events that earned what `event` makes anew, where it says it never saw them
    (_Remakings.claims): none where it makes nothing earned so."""
    from cwx.journal import history

    remakings = _Remakings()
    for item in history.every(path):
        remakings.note(item)
        if item.line >= event.line:
            break
    return next((earned for found, earned in remakings.claims(undone)
                 if found.event == event.id), ())


@functools.lru_cache(maxsize=1)
def _values_in(text: str) -> dict[str, Any]:
    """The ledger's values of a file's text (none, where it cannot be read); a sheet made
    again as it was is read once."""
    from cwx.base.errors import CwxError
    from cwx.journal.ledger import values_of
    from cwx.toml import tomlread

    try:
        return values_of(tomlread.loads(text))
    except CwxError:
        return {}


class _Held:
    """What the ledger held of a key followed in step (a trait's score) at each place in
    the journal: the file's latest making plus each change before the place; _MISSING
    where the ledger does not know (a file made before the journal whose key no line
    changed, or a place before the file was last made anew)."""

    def __init__(self, folded: Ledger, file: str, key: str) -> None:
        made = folded.creations.get(file)
        entry = folded.keys.get(file, {}).get(key)
        steps = sorted(entry.steps) if entry is not None and entry.steps is not None else None
        self.anew = made.order if made is not None and made.times > 1 else None
        self.start: Any = _MISSING
        self.steps: list[tuple[Order, int]] = []  # (its order, the value after it)
        # Each value and the first place after which the ledger held it (None: from the
        # file's making): a clone not yet pulled plays with a score held before.
        self.since: dict[int, Order | None] = {}
        if entry is not None and steps is None:
            return  # a key summed by its changes: two clones at once each start anew
        if made is None and not steps:
            return
        value = made.values.get(key) if made is not None else steps[0][1] if steps else None
        if value is not None and not whole(value):
            return
        running = value or 0
        for at, was, now, _ in steps or ():
            if not (whole(was) or was is None) or not (whole(now) or now is None):
                return
            running += (now or 0) - (was or 0)
            self.steps.append((at, running))
        self.start = value or 0
        self.since[self.start] = None
        for at, held in self.steps:
            if self.anew is None or at > self.anew:
                self.since.setdefault(held, at)

    @property
    def constant(self) -> bool:
        """The same value at every place (or none known anywhere)."""
        return self.start is _MISSING or (not self.steps and self.anew is None)

    def held_by(self, value: Any, order: Order) -> bool:
        """Whether the ledger held `value` at some place up to `order` (a GM's raise a
        player had not pulled when they played: the score before it is honest)."""
        if not whole(value) or value not in self.since:
            return False
        since = self.since[value]
        return since is None or since < order

    def at(self, order: Order) -> Any:
        if self.start is _MISSING or (self.anew is not None and order <= self.anew):
            return _MISSING  # the file as it was before it was made anew
        held = self.start
        for at, value in self.steps:
            if at >= order:
                break
            held = value
        return held


class _Played:
    """The events of one command played with one value of one key, kept compactly (a
    long campaign resolves its traits a hundred thousand times): cwx's stamps as their
    lines hold them, ids as numbers; any other order as it is."""

    __slots__ = ("ats", "ids", "lines", "odd")

    def __init__(self) -> None:
        self.ats: list[str] = []
        self.ids, self.lines = array("Q"), array("q")
        self.odd: list[tuple[Order, int, str]] = []

    def add(self, event: Event) -> None:
        at = event.at
        if event.v >= 2 and len(at) == 24 and at != LAST and \
                type(number := _key(event.id)) is int:  # its order: (at, id, 0)
            self.ats.append(at)
            self.ids.append(number)
            self.lines.append(event.line)
        else:
            self.odd.append((event.order, event.line, event.id))

    def each(self) -> Iterator[tuple[Order, int, str]]:
        """Every event kept: (its order, line, id)."""
        for at, number, line in zip(self.ats, self.ids, self.lines, strict=True):
            id_ = f"{number:016x}"
            yield (at, id_, 0), line, id_
        yield from self.odd


def _taken_back(changes: Iterable[Edit], back: bool) -> frozenset[tuple[str, str, str]]:
    """A change as an undo must take it back, `back`, or as it stands: whole numbers by
    their delta (what survives merges), other values from and to."""
    from cwx.journal.lines import dumps

    said = set()
    for change in changes:
        if change.key is None or change.correction:
            continue
        was, now = (change.after, change.before) if back else (change.before, change.after)
        if (was is None or whole(was)) and (now is None or whole(now)):
            if (now or 0) != (was or 0):  # a change to the same value takes nothing back
                said.add((change.file, change.key, str((now or 0) - (was or 0))))
        elif _same(was, now):
            continue
        else:
            try:
                said.add((change.file, change.key, dumps([was, now])))
            except (TypeError, ValueError):
                said.add((change.file, change.key, "?"))
    return frozenset(said)


def takes_back(undo: Event, target: Event) -> bool:
    """Whether the undo's changes are the take-back of the target's (`cwx check` names
    an undo that changes anything else)."""
    return _taken_back(undo.changes, False) == _taken_back(target.changes, True)


class Replaying:
    """Every event of a journal re-played as it is read (`note`); `forged()` once it is
    read. Memory: a small number an event (what an undo of it must change), the events
    found forged, and the first SHOWN of their findings."""

    MEMO = 4096  # re-plays remembered: a long campaign repeats its moves, from like states
    # ... and the characters of the moves they remember: a move's are some 300, a hostile
    # line's, naming files of 255 letters of 4 bytes, 2,000 (4096 of them held 33 MB).
    MEMO_CHARS = 1 << 20
    FEW = 4  # changes of a move worth remembering (a draw's: its luck, bag and reserve)

    def __init__(self) -> None:
        self.shown: list[Forged] = []
        self.ids: set[int | str] = set()  # every event found forged (by _key)
        # Each undo (its id, line, command, the id it undoes) and what it changes, kept to
        # compare with what it undoes once the journal is read (git puts lines anywhere).
        self.undos: list[tuple[str, int, str, str, int]] = []
        self.memo: dict[str, tuple[list[Forged], Reads]] = {}  # an event but its id, stamp
        self.remembered = 0  # the characters of the memo's moves
        # The events played with a value the ledger follows in step (a resolve's trait
        # score), by command, file, key and value, held to the ledger once it is folded.
        self.played: dict[tuple[str, str, str, Any], _Played] = {}
        self.kept = 0  # how many events kept in them (MAX_READS)
        self.spans = _Spans()
        self.remakings = _Remakings()
        self.unseen: list[tuple[Forged, tuple[str, ...]]] = []

    def note(self, event: Event) -> None:
        if _key(event.id) in self.ids:
            return  # git's union copied the line: named once
        if astray := self.spans.note(event):
            self._found(astray)
        self.remakings.note(event)
        if event.undoes is not None and event.undoes == event.id:
            self._found([Forged(event.id, event.line, event.command[:40], None, None, None,
                                None, None, SELFISH)])
        elif event.undoes:
            if len(self.undos) < MAX_UNDOS:
                self.undos.append((event.id, event.line, event.command[:40], event.undoes,
                                   hash(_taken_back(event.changes, False))))
        else:
            found, reads = self._replayed(event)
            if found:
                self.ids.add(_key(event.id))
                if len(self.shown) < SHOWN:  # past them, an event found is only counted
                    self.shown += [item._replace(event=event.id, line=event.line)
                                   for item in found]
            self._played_with(event, reads)

    def _played_with(self, event: Event, reads: Reads) -> None:
        """`event` kept by the values its re-play took from its line, to hold to the
        ledger once it is folded (at most MAX_READS events)."""
        for file, key, value in reads if self.kept < MAX_READS else ():
            where = (event.command[:40], file, key, value)
            played = self.played.get(where)
            if played is None:
                played = self.played[where] = _Played()
            played.add(event)
            self.kept += 1

    def _replayed(self, event: Event) -> tuple[list[Forged], Reads]:
        """`_replaying(event)`, remembered for a move like one re-played before (a move of
        the game changes a few keys; a line of many is re-played as it is)."""
        if len(event.changes) > self.FEW:
            return _replaying(event)
        from cwx.journal.lines import dumps

        like = dumps([event.command, event.file, event.bag, event.result,
                      [[c.file, c.key, c.before, c.after, c.correction, c.removed,
                        c.created, c.text] for c in event.changes]])
        found = self.memo.get(like)
        if found is None:
            if len(self.memo) >= self.MEMO or self.remembered > self.MEMO_CHARS:
                self.memo.clear()
                self.remembered = 0
            found = self.memo[like] = _replaying(event)
            self.remembered += len(like)
        return found

    def _misplayed(self, folded: Ledger) -> None:
        """Each event played with a value the ledger did not hold at its place."""
        held: dict[tuple[str, str], _Held] = {}
        for (command, file, key, value), played in self.played.items():
            known = held.get((file, key))
            if known is None:
                known = held[(file, key)] = _Held(folded, file, key)
            if known.constant and (known.start is _MISSING or _same(known.start, value or 0)):
                continue  # every event of them alike, and right (or nothing known)
            for order, line, id_ in played.each():
                found = known.at(order)
                if found is not _MISSING and not _same(found, value or 0) and \
                        not known.held_by(value or 0, order):
                    self._found([Forged(id_, line, command, file, key, found, found, value,
                                        f"is played with {file} {key} {shown(value)}, where "
                                        f"the ledger held {shown(found)} at its place in the "
                                        "journal, and never that score before it")])

    def _astray(self, astray: dict[str, str], read: Iterable[Event]) -> None:
        """Each change of an undo (or redo) of an event the journal does not hold: the
        rules give none, so each is named (its line read again, once)."""
        for event in read:
            target = astray.pop(event.id, None)
            if target is None:
                continue  # another line holding its id, or one named already
            why = f"undoes {target[:16]}, which no line of the journal holds"
            self._found([Forged(event.id, event.line, event.command, change.file, change.key,
                                change.before, change.before, change.after, why)
                         for change in event.changes
                         if change.key is not None and not change.correction and
                         not _same(change.before, change.after)])

    def _found(self, forged: list[Forged]) -> None:
        for item in forged:
            self.ids.add(_key(item.event))
            if len(self.shown) < SHOWN:
                self.shown.append(item)

    def forged(self, undone: Iterable[str] = (),
               named: Callable[[set[str]], Iterable[Event]] | None = None,
               folded: Ledger | None = None,
               ruled: Callable[[list[Event]], set[str]] | None = None,
               ) -> tuple[list[Forged], int]:
        """The findings to name, and how many forged events past them go unnamed; an
        event undone (its changes taken back) is settled. `named` reads again the events
        the undos name (a second look at a few lines, not a journal kept in memory);
        `folded` is the journal's ledger, which the values events are played with must
        match; `ruled` says which events of a kind undo never takes back (a reveal, a
        retirement) are ones the rules give (no finding of check's names them, were they
        standing): the rules give no undo of those."""
        undone = set(undone)
        if folded is not None:
            self._misplayed(folded)
        self.played = {}
        wanted = {target for _, _, _, target, _ in self.undos}
        inverses: dict[str, int] = {}
        lines: dict[str, int] = {}  # each event undone: its line
        kept: dict[str, Event] = {}  # each event undone of a kind undo never takes back
        for event in named(wanted) if named is not None and wanted else ():
            if event.id in wanted:
                inverses.setdefault(event.id, hash(_taken_back(event.changes, True)))
                lines.setdefault(event.id, event.line)
                if event.undoes is None and not events.kind(event.command).undoable and \
                        len(kept) < SHOWN and _key(event.id) not in self.ids:
                    kept.setdefault(event.id, event)
        given = ruled(list(kept.values())) if ruled is not None and kept else set()
        astray: dict[str, str] = {}  # an undo of an event no line holds: what it undoes
        unsettled: set[int | str] = set()  # events only a later line's undo takes back
        for id_, line, command, target, changes in self.undos:
            if lines.get(target, 0) > line:
                unsettled.add(_key(target))
                self._found([Forged(id_, line, command, None, None, None, None, None,
                                    f"names {target[:8]}, a later line ({lines[target]}), as "
                                    "the event it undoes")])
            elif target in inverses and inverses[target] != changes:
                self._found([Forged(id_, line, command, None, None, None, None, None,
                                    f"does not take back what {target[:8]} changed (an undo "
                                    "changes each key back by what it changed)")])
            elif target in given:
                self._found([Forged(id_, line, command, None, None, None, None, None,
                                    f"takes back {target[:8]}, a `{kept[target].command[:40]}`"
                                    ", which no undo takes back (`cwx undo` refuses it) and "
                                    "the rules give")])
            elif target not in inverses and named is not None and changes != _NOTHING:
                astray[id_] = target
        self.undos = []
        self._found([item for item in self.remakings.judged(undone)
                     if _key(item.event) not in self.ids])
        self.unseen = self.remakings.claims(undone)  # git's to judge (ruled.py)
        self.remakings = _Remakings()
        if astray and named is not None:
            self._astray(astray, named(set(astray)))
        settled = {_key(id_) for id_ in undone} - unsettled
        shown = [item for item in self.shown if _key(item.event) not in settled]
        return shown, len(self.ids - settled - {_key(item.event) for item in shown})


def _key(id_: str) -> int | str:
    """An event's id as kept for the whole journal: cwx's 16 hexadecimal digits as a
    number (a third of the memory), any other as it is."""
    if len(id_) == 16 and not id_.strip("0123456789abcdef"):
        return int(id_, 16)
    return id_


def told(item: Forged, named: str | None = None) -> str:
    """A finding in words: the event, the key, what the rules give and what the line says;
    `named`: the start of its id that names it alone (`unique`), else its first 8."""
    from cwx.base.errors import shown

    named = named or item.event[:8]
    event = f"{item.command[:40]} {named}"
    if item.why == SELFISH:  # void: the ledger holds none of its changes, nothing to undo
        return (f"{event} {item.why}: an undo names an earlier event by id, so it counts "
                "for nothing (a line no cwx wrote?)")
    if item.key is None:
        said = f"{event} {item.why}"
    elif item.key.startswith("result."):
        said = (f"{event} says {item.key[7:]} {shown(item.says)}; the rules give "
                f"{shown(item.gives)}")
    elif item.why is not None and item.why.startswith(("is played with", "starts ")):
        said = f"{event} {item.why}"
    else:
        said = (f"{event} changes {item.file} {item.key} {shown(item.was)} → "
                f"{shown(item.says)}; the rules give {_change(item.was, item.gives)}")
        if item.why is not None:
            said += f" (it {item.why})"
    return (f"{said}: a change the rules do not give (a line no cwx wrote?); `cwx undo "
            f"{named}` takes it back")


def unique(ids: Iterable[str], held: Iterable[str]) -> dict[str, str]:
    """Each of `ids` by the shortest start, 8 digits or more, that no other id (of those
    `held` in the journal, or `ids`) starts with, case ignored as `cwx undo` ignores it."""
    ids = set(ids)
    others = {id_.casefold() for id_ in (*held, *ids)}
    found = {}
    for id_ in ids:
        folded = id_.casefold()
        size = next((size for size in range(8, len(id_)) if not any(
            other != folded and other.startswith(folded[:size]) for other in others)),
            len(id_))
        found[id_] = id_[:size]
    return found


def _change(was: object, now: object) -> str:
    from cwx.base.errors import shown

    return "no change" if _same(was, now) else f"{shown(was)} → {shown(now)}"
