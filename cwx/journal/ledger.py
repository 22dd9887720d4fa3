"""The campaign's ledger: what every file's keys should hold, folded from the journal.

Pure: takes the journal's events (in any order: git merges lines as it likes) and gives
each file's ledger values (docs/rules.md, "The campaign ledger"):

- a whole number is its value at the file's last journaled creation (or, with none,
  the `from` of its first journaled change) plus `to - from` of every later change, so
  two clones' journals, joined by git, add up whatever order their lines are in;
- a trait list holds what its creation or first change held, with every item any change
  added or removed since, the latest change of an item winning;
- any other value is the `to` of its latest change;
- a missing whole number counts as 0 (a trait at 0 is no trait), and a reconcile's
  corrections do not count: they only bring files to the ledger.

Events are ordered by (`at`, `id`), so every clone orders them alike (version 1 events,
stamped to the second, by (`at`, their line in the journal)). An event git copied twice
counts once; of two undos of one change, or two turns of one draw, see journal.Turns.
The one read here is `read`'s: the journal at a path folded as a stream.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from sys import intern

from cwx import systems
from cwx.base import times
from cwx.base.errors import CwxError, shown
from cwx.base.record import Record
from cwx.journal.lines import UNDOING, BadLine, Event, Named, Order, Turns, holding, read_raw, spellings
from cwx.systems import Rule
from cwx.toml import tomlread

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

Said = tuple[str, str | None, str]  # (command, who, when): a change, told when needed
# About the bytes the fold may keep: each key's changes, each list item, each file's
# creation. A campaign's ledger keeps a few hundred kilobytes; a journal that would make
# it keep more (one written to exhaust memory) has its lines past the limit refused as
# bad lines, never folded, so memory stays bounded whatever the journal holds.
MAX_KEPT = 24 << 20
OVER = (f"names more keys, list items or files than a campaign's ledger keeps "
        f"({MAX_KEPT >> 20} MB of them): no journal of cwx's holds so much; left out")
_SAID = 100  # characters of a command or a name kept to tell a change by
MAX_REPEATED = 1000  # ids met again that are kept for check to compare: git copies a few
# Keys of one file the ledger follows: a sheet has a few dozen; editing thousands, each
# in turn, would take a reconcile minutes (tomlkit's work grows as their square).
MAX_KEYS = 1000


def _first(entry: tuple[Any, ...]) -> Any:
    return entry[0]


def _saying(said: Said) -> str:
    command, who, when = said
    return f"{command} ({who or 'GM'}, {times.shown(when)})"


def is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def values_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """The ledger's keys of one file's data, as the journal names them ("traits.Repair"):
    those its kind's entry follows (every other key is the player's own, never drifts)."""
    return systems.values_of(data)


def weight(value: Any) -> int:
    """About the bytes a value read from JSON or TOML holds in memory."""
    total, pending = 0, [value]
    while pending:
        item = pending.pop()
        if type(item) is str:  # a letter beyond Latin-1 takes 2 or 4 bytes, as it may
            total += 50 + len(item) * (1 if item.isascii() else 4)
        elif type(item) is list:
            total += 56 + 8 * len(item)
            pending.extend(item)
        elif type(item) is dict:
            total += 64 + 100 * len(item)
            pending.extend(item)
            pending.extend(item.values())
        else:
            total += 32
    return total


class Dice(Record):
    """Whites and blacks (W9 counts each colour on its own)."""

    white: int
    black: int

    def plus(self, other: Dice) -> Dice:
        return Dice(self.white + other.white, self.black + other.black)

    def minus(self, other: Dice) -> Dice:
        return Dice(self.white - other.white, self.black - other.black)

    def said(self) -> str:
        from cwx.base.ink import plural

        return f"{plural(self.white, 'white')} and {plural(self.black, 'black')}"


NO_DICE = Dice(0, 0)


class Supplied(Record):
    """One event's change of the campaign's supply of dice."""

    event: str
    dice: Dice


def dice_of(values: Mapping[str, Any]) -> Dice:
    """The whites and blacks among a file's ledger keys (`values_of`): those a kind's rules
    say are conserved, by their colour (the key's last word: "luck.white")."""
    white = black = 0
    for key, value in values.items():
        if is_number(value) and systems.conserved(key):
            if key.endswith("white"):
                white += value
            elif key.endswith("black"):
                black += value
    return Dice(white, black)


def result_supply(event: Event) -> Dice | None:
    """The dice an event's result says it adds to the campaign (`"supply"`: adopt --supply,
    a bag retired, negative), or None: it says none."""
    said = event.result.get("supply")
    if not isinstance(said, dict):
        return None
    white, black = said.get("white"), said.get("black")
    return Dice(white, black) if type(white) is int and type(black) is int else None


def brings(event: Event) -> bool:
    """Whether the texts an event makes bring their dice into the campaign: a bag made
    (init's, bag new), or a file an older cwx adopted whole (its line names no player),
    before the supply was kept."""
    from cwx.journal import events

    kind = events.kind(event.command)
    return kind.brings or (kind.table and event.player is None and
                           not isinstance(event.result.get("supply"), dict))


def moved(event: Event) -> Dice:
    """The whites and blacks `event` itself adds to the campaign's supply (negative: takes
    away), as the ledger counts them: its result's supply, and the dice of the texts it
    makes where it brings them. An undo's is its target's taken back (the caller's to
    find)."""
    total = result_supply(event) or NO_DICE
    if brings(event):
        for change in event.changes:
            if change.key is None and change.text is not None and not change.removed:
                try:
                    total = total.plus(dice_of(values_of(tomlread.loads(change.text))))
                except CwxError:
                    continue  # not a TOML file of cwx's: no dice
    return total


class Value(Record):
    """A key's ledger value, and the latest changes that made it (for people)."""

    value: Any  # None: missing (a whole number missing counts as 0)
    recent: tuple[str, ...]  # "bag draw (Sue, 2026-11-30 12:00)", the latest last
    clash: str | None = None  # two clones changed it from the same value: a person decides


class _Key:
    """One key's changes, folded as they come, in any order: a long journal costs
    memory for its keys, never for its lines (a trait's score keeps its few steps, to see
    two clones raise it from the same score)."""

    __slots__ = ("first", "items", "last", "latest", "numbers", "recent", "start", "steps",
                 "total")

    def __init__(self, in_step: bool) -> None:
        self.first: Order | None = None  # the earliest change, and what it changed from
        self.start: Any = None
        self.latest: Order | None = None  # the latest change, and what it changed to
        self.last: Any = None
        self.total = 0  # the sum of to - from, while every value is a whole number
        self.numbers = True
        self.items: dict[str, tuple[Order, bool]] = {}  # a list's item: its latest change
        self.recent: list[tuple[Order, Said]] = []
        self.steps: list[tuple[Order, Any, Any, Said]] | None = [] if in_step else None

    def add(self, order: Order, before: Any, after: Any, said: Said) -> int:
        """Fold one change; about the bytes it kept (a whole number keeps none)."""
        # The hot path of a long journal's fold: plain type tests, no sorting.
        kept = 0
        if self.first is None or order < self.first:
            self.first, self.start = order, before
            if type(before) is not int and before is not None:
                kept += weight(before)
        if self.latest is None or order > self.latest:
            self.latest, self.last = order, after
            if type(after) is not int and after is not None:
                kept += weight(after)
        if self.numbers and (before is None or type(before) is int) and \
                (after is None or type(after) is int):
            self.total += (after or 0) - (before or 0)
        else:
            self.numbers = False
        if type(before) is list or type(after) is list:
            was, now = _items(before), _items(after)
            had, has = set(was), set(now)  # sets: a list of thousands costs no square
            for item, present in [*((i, True) for i in now if i not in had),
                                  *((i, False) for i in was if i not in has)]:
                if item not in self.items:
                    kept += 150 + len(item)
                    self.items[item] = (order, present)
                elif self.items[item][0] < order:
                    self.items[item] = (order, present)
        recent = self.recent
        if not recent or order > recent[-1][0]:  # a journal mostly comes in time's order
            recent.append((order, said))
            if len(recent) > 3:
                del recent[0]
        elif len(recent) < 3 or order > recent[0][0]:
            self.recent = sorted([*recent, (order, said)], key=_first)[-3:]
        if self.steps is not None:
            self.steps.append((order, before, after, said))
            kept += 200 + (weight(before) if type(before) is not int else 0) + \
                (weight(after) if type(after) is not int else 0)
        return kept

    def value(self, created: bool, base: Any) -> Value:
        start = base if created else self.start
        recent = tuple(_saying(said) for _, said in self.recent)
        if self.numbers and (start is None or is_number(start)):
            return Value((start or 0) + self.total, recent, self._clash(start))
        if isinstance(start, list) or self.items:
            items = list(dict.fromkeys(i for i in _items(start)
                                       if self.items.get(i, ((), True))[1]))
            listed = set(items)
            items += [i for i, (_, present) in sorted(self.items.items(), key=lambda x: x[1])
                      if present and i not in listed]
            return Value(items, recent)
        return Value(self.last, recent)

    def _clash(self, start: Any) -> str | None:
        """A value changed from one it no longer had, where each change must start where
        the last ended: two clones raised (or bought) the same trait at once, each paying
        for it from the same score (C6)."""
        running = start or 0
        for _, before, after, said in sorted(self.steps or [], key=_first):
            if (before or 0) != running:
                return f"changed from {before or 0} when it was {running}, by " \
                       f"{_saying(said)}: two " \
                       "clones spent experience on it at once"
            running = after or 0
        return None


class Made(Record):
    """A file's creations in the journal: how many, and the latest (its ledger's start)."""

    times: int
    order: Order
    values: dict[str, Any]
    line: int = 0  # the latest making's line in the journal, its player and own stamp
    player: str | None = None
    stamp: Order = ("", "", 0)

    def before(self, event: Event) -> bool:
        """Whether `event` comes before this making: placed before it (after all it saw),
        unless its own player stamped it later and wrote it after (one clone, its clock
        behind the clone whose line the making saw: its next move is the new file's)."""
        return event.order <= self.order and not (
            self.player is not None and event.player == self.player and
            event.line > self.line and event.order > self.stamp)


class Making(Record):
    """A file made, taken in (an adopt) or retired, as the ledger's prelude notes it."""

    order: Order
    event: str
    said: str
    values: dict[str, Any] | None = None
    new: bool = False  # made where there was no file (else over one, or taken in)
    table: bool = False  # the table's word (an adopt): it settles what came before
    retired: bool = False
    saw: Order | None = None  # the latest event of the file its clone held (if it said)
    line: int = 0
    player: str | None = None

    @property
    def effective(self) -> Order:
        """Where it stands among the file's events: after everything its clone held of the
        file, even if its clock ran behind the clone that made those."""
        if self.saw is not None and self.saw >= self.order:
            return (self.saw[0], self.saw[1], 1)
        return self.order


def _saw(value: object) -> Order | None:
    """What a making or retirement saw of its file (its result's `saw`), as an order."""
    if isinstance(value, dict):
        at, id_ = value.get("at"), value.get("id")
        if isinstance(at, str) and isinstance(id_, str) and len(at) <= 64 and len(id_) <= 64:
            return (at, id_, 0)
    return None


class Ledger:
    """The fold of a campaign's journal, file by file and key by key."""

    def __init__(self, creations: Mapping[str, Made], void: set[str] | None = None,
                 kept: int = 0, *, retired: Mapping[str, Order] | None = None,
                 supplies: Iterable[Supplied] = (), undone: set[str] | None = None,
                 cuts: Iterable[tuple[str, Order, Order, str]] = (),
                 collisions: Mapping[str, str] | None = None) -> None:
        self.creations = creations
        # Changes a making or retirement never saw (another clone's play meanwhile): a
        # file's (lower, upper, said) windows; a change inside one is a clash.
        self.cuts: dict[str, list[tuple[Order, Order, str]]] = {}
        for file, at, saw, said in cuts:
            self.cuts.setdefault(file, []).append((saw, at, said))
        self.collisions = dict(collisions or {})  # files made on two clones at once
        self.clashes: dict[str, str] = {}  # files a change met inside a cut
        self.void = void or set()  # events that count for nothing (a second undo of one)
        self.retired = dict(retired or {})  # files retired, and when (the latest)
        self._supplies = list(supplies)
        self._undone = undone or set()
        self._most = 0  # the most keys any one file has
        self.keys: dict[str, dict[str, _Key]] = {}
        self.known: set[str] = set(creations)  # every file the journal changes
        self.named: set[str | None] = set()  # files events name beside their changes
        self.seen: set[str] = set()  # events already folded: git's union can copy a line
        self.repeated: list[str] = []  # ids met again (a copy, or a twin: `cwx check`)
        self.kept = kept  # about the bytes held (MAX_KEPT)
        self._rules: dict[str, Callable[[str], Rule]] = {}

    def rules(self, file: str) -> Callable[[str], Rule]:
        """How the ledger treats each key of `file`: by its kind, which its last creation
        in the journal says (a file of no kind cwx knows: whole numbers summed, unbounded)."""
        found = self._rules.get(file)
        if found is None:
            made = self.creations.get(file)
            found = self._rules[file] = systems.rules(made.values if made else {})
        return found

    def add(self, event: Event) -> bool:
        """Fold one event; False when it would make the ledger keep more than MAX_KEPT
        (it is then left out whole)."""
        if event.id in self.seen:
            if len(self.repeated) < MAX_REPEATED:
                self.repeated.append(event.id)
            return True
        if self.kept > MAX_KEPT:
            return False
        self.seen.add(event.id)
        if event.v >= 2:  # version 1 named a bag from where the command ran
            for name in (event.file, event.bag):
                if name not in self.named:
                    self.named.add(name and intern(name))
                    self.kept += 100 + len(name or "")
        if self._most + len(event.changes) > MAX_KEYS and self._too_many(event):
            return False  # more keys of one file than any sheet: no line of cwx's
        order = event.order
        said = (event.command[:_SAID], event.who and event.who[:_SAID], event.at)
        void = event.id in self.void
        for change in event.changes:
            # One copy of each name for all that keep it (the ledger's sets, keys and
            # rules, check's findings): a journal may name 10,000 files of 1 KB each.
            file = intern(change.file)
            if file not in self.known:
                self.known.add(file)
                self.kept += 100 + len(file)
            if change.key is None or change.correction or void:
                continue  # creations are known already; corrections do not count
            if not systems.follows(change.key):
                continue  # a key no file of cwx's holds ("xp.sub"): a line no cwx wrote
            made = self.creations.get(file)
            if file in self.cuts and file not in self.clashes and \
                    (made is None or made.before(event)):
                self._unseen(file, order, said)
            # A file made anew (char new --force) starts a new ledger: changes before that
            # do not count. The first creation bounds nothing: a clone's clock may run
            # behind, and no change can come before the file it changes.
            if made and made.times > 1 and made.before(event):
                continue
            keys = self.keys.get(file)
            if keys is None:
                keys = self.keys[file] = {}
            entry = keys.get(change.key)
            if entry is None:
                entry = keys[change.key] = _Key(self.rules(file)(change.key).in_step)
                self.kept += 800 + len(change.key)
                self._most = max(self._most, len(keys))
            self.kept += entry.add(order, change.before, change.after, said)
        return True

    def _unseen(self, file: str, order: Order, said: Said) -> None:
        for lower, upper, cut in self.cuts[file]:
            if lower < order < upper:
                self.clashes[file] = (f"was {cut} while another clone played it "
                                      f"({_saying(said)}), which that never saw")
                return

    def clash(self, file: str) -> str | None:
        """Why the ledger cannot say what `file` holds alone (a person decides), or None."""
        return self.collisions.get(file) or self.clashes.get(file)

    def supply(self) -> Dice:
        """The whites and blacks the campaign holds by the journal: those its bags brought
        in when made, and those the GM added or took away (adopt --supply, a bag retired),
        an undone change of them aside."""
        counting = [s for s in self._supplies if s.event not in self.void and
                    s.event not in self._undone]
        return Dice(sum(s.dice.white for s in counting), sum(s.dice.black for s in counting))

    def retired_since(self, file: str) -> bool:
        """Whether the file was retired after it was last made (so it is rightly gone)."""
        at = self.retired.get(file)
        made = self.creations.get(file)
        return at is not None and (made is None or at > made.order)

    def total(self) -> Dice:
        """The whites and blacks the ledger says the campaign's files hold, together."""
        total = NO_DICE
        for name in self.known:
            total = total.plus(self.held_dice(name))
        return total

    def _too_many(self, event: Event) -> bool:
        """Whether the event would give one file more than MAX_KEYS keys."""
        new: dict[str, set[str]] = {}
        for change in event.changes:
            if change.key is not None and change.key not in self.keys.get(change.file, {}):
                new.setdefault(change.file, set()).add(change.key)
        return any(len(self.keys.get(file, {})) + len(keys) > MAX_KEYS
                   for file, keys in new.items())

    def held_dice(self, file: str) -> Dice:
        """The whites and blacks the ledger says `file` holds (W9)."""
        return dice_of({key: entry.value for key, entry in self.values(file).items()})

    def held(self, file: str) -> int:
        """The white and black dice the ledger says `file` holds (W9)."""
        return dice({key: entry.value for key, entry in self.values(file).items()})

    def differences(self, file: str, values: Mapping[str, Any]) -> list[Difference]:
        """Every key of `file` whose value in the file (its ledger keys, `values_of`)
        differs from the ledger, or whose ledger value the rules refuse; all of them a
        person's to settle while the file clashes (made on two clones at once, or ended on
        one while played on another)."""
        found = differences(values, self.values(file), self.rules(file))
        clash = self.clash(file)
        if clash is None:
            return found
        return [d if d.refused is not None else d._replace(refused=clash) for d in found]

    def values(self, file: str) -> dict[str, Value]:
        """Every key of `file` the ledger knows, with its value."""
        made = self.creations.get(file)
        baseline = made.values if made else {}
        changed = self.keys.get(file, {})
        found: dict[str, Value] = {}
        for key in sorted(set(baseline) | set(changed)):
            if key in changed:
                found[key] = changed[key].value(made is not None, baseline.get(key))
            else:
                found[key] = Value(baseline[key], ())
        return found


class _Prelude:
    """What must be known before the changes are folded: each file's creations, and the
    events that count for nothing (journal.Turns: a second undo of one change, a second
    turn of one draw: two clones did it at once, and git brought both)."""

    def __init__(self) -> None:
        self.turns = Turns()
        self.seen: set[str] = set()
        self.kept = 0
        self.supplies: list[Supplied] = []
        self.makings: dict[str, list[Making]] = {}  # each file's creations and retirements
        self.cuts: list[tuple[str, Order, Order, str]] = []  # (file, at, what it saw, said)

    def note(self, event: Event) -> bool:
        """Note one event; False when it would keep more than MAX_KEPT (left out)."""
        if self.kept > MAX_KEPT or not self.turns.note(event):
            return False
        if event.id in self.seen:
            return True
        self.seen.add(event.id)
        from cwx.journal import events

        kind = events.kind(event.command)
        said_dice = result_supply(event)
        if said_dice is not None:  # the GM's word, or a bag retired
            self.supplies.append(Supplied(event.id, said_dice))
            self.kept += 100
        tell: Said = (event.command[:_SAID], event.who and event.who[:_SAID], event.at)
        saw = _saw(event.result.get("saw"))
        for change in event.changes:
            if change.key is None and change.removed:
                said = _saying(tell)  # in words only for a file made or removed: few
                self._made(change.file, Making(event.order, event.id, said, retired=True,
                                               saw=saw, line=event.line, player=event.player))
                if saw is not None:
                    self.cuts.append((change.file, event.order, saw, f"retired by {said}"))
                continue
            if change.key is None and change.text is not None:
                try:  # a journal's text is read within a file's limits
                    values = values_of(tomlread.loads(change.text))
                except CwxError:
                    continue  # not a TOML file of cwx's (a README, a schema): no ledger
                said = _saying(tell)
                # A bag made brings its dice in; so did a file an older cwx adopted (its
                # lines name no player), before the supply was kept.
                if brings(event):
                    self.supplies.append(Supplied(event.id, dice_of(values)))
                self._made(change.file, Making(event.order, event.id, said, values=values,
                                               new=change.created, table=kind.table, saw=saw,
                                               line=event.line, player=event.player))
                if saw is not None and not change.created:
                    self.cuts.append((change.file, event.order, saw, f"made anew by {said}"))
                self.kept += 100 + len(change.file) + weight(values)
        return True

    def _made(self, file: str, making: Making) -> None:
        self.makings.setdefault(file, []).append(making)
        self.kept += 200 + len(file) + len(making.said)

    def void(self) -> set[str]:
        """What counts for nothing: a second undo of one change or turn of one draw, and
        a file retired again with no creation between (two clones retired it at once)."""
        void = set(self.turns.void())
        for makings in self.makings.values():
            previous: Making | None = None
            for making in sorted(makings, key=lambda m: m.effective):
                if making.retired and previous is not None and previous.retired:
                    void.add(making.event)
                previous = making
        return void

    def made(self) -> tuple[dict[str, Made], dict[str, Order], set[str], dict[str, str]]:
        """Each file's creations (the latest its ledger's start) and retirement, in the
        order each clone saw them (a making comes after what it saw, whatever its clock
        said); and the files made new on two clones at once, neither seeing the other
        (git's add/add). Made alike, the later is no second making, and its dice came in
        once (git merged the two into one file); made differently, it is a clash until a
        later adopt (or a making that saw both) says which stands."""
        creations: dict[str, Made] = {}
        retired: dict[str, Order] = {}
        dropped: set[str] = set()
        clashes: dict[str, str] = {}
        undone = self.turns.undone()  # a making undone (one check named) made nothing
        for file, makings in self.makings.items():
            kept: list[Making] = []
            for making in sorted(makings, key=lambda m: m.effective):
                last = kept[-1] if kept else None
                if not making.retired and making.event in undone:
                    dropped.add(making.event)
                    continue
                if making.retired:
                    retired[file] = making.effective
                elif last is not None and _twins(last, making):
                    if last.values == making.values:
                        dropped.add(making.event)
                        continue
                    clashes[file] = (f"was made on two clones at once ({last.said}, and "
                                     f"{making.said}): keep one side, save the other under a "
                                     "new name if the table keeps both")
                elif making.table or not making.new:
                    clashes.pop(file, None)  # the table's word, or a making that saw both
                kept.append(making)
            made = [m for m in kept if not m.retired]
            if made:
                latest = made[-1]
                creations[file] = Made(len(made), latest.effective, latest.values or {},
                                       latest.line, latest.player, latest.order)
        return creations, retired, dropped, clashes


def _twins(earlier: Making, later: Making) -> bool:
    """Two makings of one file new, the later not seeing the earlier: two clones at once."""
    return earlier.new and later.new and not earlier.retired and not later.table and \
        (later.saw is None or later.saw < earlier.order)


def _items(value: Any) -> list[Any]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


# What a line needs for the prelude: a file made or retired, an undo, a turn or a game's end
# (lines.UNDOING), the supply.
PRELUDE = (b'"text"', *UNDOING, b'"removed"', b'"supply"')


def fold(events: Iterable[Event]) -> Ledger:
    """The ledger of a few events held in memory (a journal's are folded by `Folding`,
    as a stream)."""
    listed = list(events)
    folding = Folding()
    for event in listed:
        folding.note(event)
    for event in listed:
        folding.add(event)
    return folding.ledger()


def read(path: str, bad: Callable[[BadLine], None] | None = None,
         each: Callable[[Event], None] | None = None, *, named_as: str | None = None,
         void: Iterable[str] = ()) -> Ledger:
    """The ledger of the journal at `path`, read as a stream, twice: once for the few
    lines that make files or undo or turn a change, once for every change. `bad` hears of
    each line that is not an event (or one left out whole); `each`, of every event
    (another reader's, so the journal is read no more). A journal naming too many files
    is refused at its line (journal.Crowded, naming the journal as `named_as`). The
    events `void` count for nothing (the ledger as it would be with them taken back)."""
    folding = Folding(void)
    left_out: set[int] = set()  # lines past what the ledger keeps: none of them folded
    for event in holding(path, PRELUDE):
        if not folding.note(event):
            left_out.add(event.line)
    named = Named(named_as or path)
    for _, item in read_raw(path):
        if isinstance(item, Event):
            named.event(item)
        if isinstance(item, Event) and each is not None and \
                item.id not in folding.ledger().seen:  # a copy or twin: its first heard
            each(item)
        if isinstance(item, Event) and (item.line in left_out or not folding.add(item)):
            item = BadLine(item.line, OVER)
        if isinstance(item, BadLine) and bad is not None:
            bad(item)
    return folding.ledger()


def held_in(path: str, name: str) -> int:
    """The dice the journal at `path` says the file `name` holds: only the lines naming
    it are read (a file about to be made, where one may have been)."""
    return int(fold(holding(path, spellings(name))).held(name))


class Folding:
    """A journal folded as a stream, read twice: first `note` each line holding one of
    PRELUDE's bytes (files made, changes undone, draws turned), then `add` every line. A
    line for which either says False is left out whole (MAX_KEPT)."""

    def __init__(self, void: Iterable[str] = ()) -> None:
        self.prelude = _Prelude()
        self._void = set(void)  # events counted for nothing beside the journal's own
        self._ledger: Ledger | None = None

    def note(self, event: Event) -> bool:
        return self.prelude.note(event)

    def add(self, event: Event) -> bool:
        return self.ledger().add(event)

    def ledger(self) -> Ledger:
        if self._ledger is None:
            prelude = self.prelude
            creations, retired, dropped, collisions = prelude.made()
            supplies = [s for s in prelude.supplies if s.event not in dropped]
            self._ledger = Ledger(creations, prelude.void() | self._void, prelude.kept,
                                  retired=retired, supplies=supplies,
                                  undone=prelude.turns.undone(), cuts=prelude.cuts,
                                  collisions=collisions)
        return self._ledger


def same(key: str, ledger: Any, file: Any) -> bool:
    """Whether a file's value agrees with the ledger's: whole numbers missing count as 0,
    lists compare as sets (the file keeps its own order)."""
    if is_number(ledger) or is_number(file):
        mine = 0 if ledger is None else ledger
        theirs = 0 if file is None else file
        return is_number(mine) and is_number(theirs) and mine == theirs
    if isinstance(ledger, list) and isinstance(file, list):
        return set(_items(ledger)) == set(_items(file)) and len(file) == len(set(file))
    return bool(ledger == file)


class Difference(Record):
    """A key where a file and the ledger part: what each says, and, when the ledger's own
    value is one the rules forbid or no one can settle alone, why."""

    key: str
    file: Any
    ledger: Value
    refused: str | None


def differences(values: Mapping[str, Any], known: Mapping[str, Value],
                rules: Callable[[str], Rule]) -> list[Difference]:
    """Every key of a file (its ledger keys, `values_of`) that differs from the ledger,
    or whose ledger value the rules refuse; a key only one of them has counts too."""
    found = []
    for key in sorted(set(values) | set(known)):
        entry = known.get(key, Value(None, ()))
        refused = forbidden(key, entry.value, rules(key)) or entry.clash
        if refused is not None or not same(key, entry.value, values.get(key)):
            found.append(Difference(key, values.get(key), entry, refused))
    return found


def dice(values: Mapping[str, Any]) -> int:
    """The dice a file holds among its ledger keys (`values_of`): those a kind's rules say
    are conserved (W9 counts them everywhere)."""
    return sum(value for key, value in values.items()
               if is_number(value) and systems.conserved(key))


def forbidden(key: str, value: Any, rule: Rule) -> str | None:
    """Why the rules forbid a ledger value (two clones spent the same dice or experience)."""
    if not is_number(value) or not rule.whole:
        return None
    if rule.low is not None and value < rule.low:
        return f"{key} would be {shown(value)}, below {rule.low}"
    if rule.high is not None and value > rule.high:
        if rule.absent_at_zero:  # a score: 1 to 6, and 0 is none
            return f"{key} would be {shown(value)}; it is 1 to {rule.high} (0: none)"
        return f"{key} would be {shown(value)}, above {rule.high}"
    return None


def settled(ledger_value: Any, file_value: Any, rule: Rule) -> Any:
    """What reconcile writes for a key: the ledger's value, in the file's own terms (a list
    keeps the file's order; where 0 is no key at all, a trait at 0, the key goes)."""
    if is_number(ledger_value) or (ledger_value is None and is_number(file_value)):
        value = ledger_value or 0
        return None if value == 0 and rule.absent_at_zero else value
    if isinstance(ledger_value, list):
        wanted = _items(ledger_value)
        among = set(wanted)
        kept = list(dict.fromkeys(item for item in _items(file_value) if item in among))
        held = set(kept)
        return kept + [item for item in wanted if item not in held]
    return ledger_value


def undone(key: str, before: Any, after: Any, current: Any, rule: Rule) -> Any:
    """A key's value with one change taken back: a whole number by its delta (which
    survives merges), a list by its items, any other value only while it still holds
    what the change wrote; a key changed in step (a trait's score, each raise priced from
    the last) only while no later change moved it. Raises ValueError saying why it cannot
    be."""
    if rule.in_step and not same(key, after, current):
        raise ValueError(f"{key} was changed since ({after!r} then, {current!r} now): undo "
                         "that change first")
    if all(is_number(v) or v is None for v in (before, after)) and \
            (current is None or is_number(current)):
        value = (current or 0) - ((after or 0) - (before or 0))
        return None if value == 0 and rule.absent_at_zero else value
    if isinstance(before, list) or isinstance(after, list):
        was, now = set(_items(before)), set(_items(after))
        added = {i for i in _items(after) if i not in was}
        removed = [i for i in _items(before) if i not in now]
        have = _items(current)
        holding = set(have)
        if not added <= holding or any(i in holding for i in removed):
            raise ValueError(f"{key} no longer holds what the change wrote")
        return [i for i in have if i not in added] + removed
    if not same(key, after, current):
        raise ValueError(f"{key} no longer holds what the change wrote ({after!r}); it is "
                         f"{current!r}")
    return before
