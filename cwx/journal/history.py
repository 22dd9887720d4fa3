"""What the commands ask of the journal, answered from one parse of it (journal.parse,
typed immutable events) in one played order (timeline.Timeline), as a stream: the events
of a file, with those of others that changed it; what is undone or counts for nothing;
a key's steps and a file's ledger at any event; each event in words; the guesses on
sealed numbers, late or void (sealed.py). What a command asks once (an event by its id,
a file's retirements) is read from only the lines that can say it; what the journal's
end says (a character's last action, a file's latest event), backwards (recent.py).

    with history.opened(path) as read:
        for step in read.steps("kris.toml", "xp"):
            print(read.told(step.event), step.before, step.after)
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from cwx import systems
from cwx.base.errors import CwxError
from cwx.base.record import Record
from cwx.journal import ends, events, ledger, sealed, story, timeline
from cwx.journal import lines as journal
from cwx.journal.lines import Event, Turns
from cwx.journal.timeline import Timeline
from cwx.toml import tomlread

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any, BinaryIO

# What a line must hold to undo, turn or settle another, or to say a file's start
# (ledger.PRELUDE).
UNDOING = journal.UNDOING


class Step(Record):
    """One event's change of one key of one file, with the key as the journal counts it
    (the ledger's fold, in played order) before and after it."""

    event: Event
    before: Any  # None: the key was missing (a whole number counts it as 0)
    after: Any
    said: tuple[Any, Any] | None  # what the line itself set the key from and to, if it did
    correction: bool = False  # a reconcile's: the file brought to the ledger, which stays
    whole: bool = False  # the file written whole (made, adopted, retired): the key set
    counts: bool = True  # False: the event counts for nothing (a second undo of one change)
    undone_by: str | None = None  # the undo that took it back and stands, if one did


class Journal:
    """A journal open for reading: every query reads the one file that was there when it
    was opened (a git pull or an editor's save meanwhile changes nothing read)."""

    def __init__(self, path: str, file: BinaryIO, witness: sealed.Witness | None = None) -> None:
        self.path = path
        self.file = file
        self.witness = witness  # what holds its reveals beyond its lines (sealed.Witness)
        self._turns: Turns | None = None
        self._heard: sealed.Counting | None = None
        self._guesses: sealed.Board | None = None
        self._late: dict[str, str] | None = None
        self._ends: ends.Ends | None = None
        self._settles: dict[str, tuple[int, list[tuple[str, str]]]] | None = None

    def played(self, name: str | None = None, *, touching: bool = False,
               last: int | None = None, tick: Callable[[int], None] | None = None) -> Timeline:
        """The events in played order (`at`, ties in the journal's order): every one, or
        those of the file `name` (with `touching`, also others' changes to it), or the
        last N of them. Its `events()` may be read again; its `turns` hold the undos."""
        self.file.seek(0)  # each order reads the journal from its start
        order = Timeline(self.file, name, last, tick, touching=touching, path=self.path)
        if self._turns is None and name is None and last is None:
            self._turns = order.turns  # a whole pass noted every undo and turn
        return order

    def event_at(self, offset: int) -> Event | None:
        """The event whose line starts at `offset` of this journal (as a Timeline's
        `placed` said), read again: a reader telling many events keeps their places alone."""
        return timeline.event_at(self.file, offset)

    def turns(self) -> Turns:
        """The journal's undos and turns (journal.Turns), only the lines that may hold one
        parsed."""
        if self._turns is None:
            self._turns = self.game_ends().turns
        return self._turns

    def game_ends(self) -> ends.Ends:
        """The games' ends, with the undos and turns that say which count (ends.py): the
        lines that may hold one parsed, once (they are those that may hold a turn)."""
        if self._ends is None:
            heard = ends.Ends()
            for event in journal.holding(self.path, UNDOING):
                heard.note(event)
            self._ends = heard
        return self._ends

    def ended_in_vain(self) -> list[tuple[ends.End, str, str]]:
        """Each game's end that counts and names a draw it cannot settle, the draw, and
        why in words (`cwx check` names it): the draws named read again by their ids."""
        return list(self.game_ends().settled_in_vain(lambda wanted: with_ids(self.path, wanted)))

    def undone(self) -> set[str]:
        """The events a counting undo took back, and no redo gave back."""
        return self.turns().undone()

    def void(self) -> set[str]:
        """The undos and turns that count for nothing (two clones made them at once)."""
        return self.turns().void()

    def guesses(self) -> sealed.Board:
        """The guesses on sealed numbers: waiting, settled, void (sealed.py); only the
        lines that may hold one parsed, once."""
        if self._guesses is None:
            self._heard = sealed.counted(self.path, witness=self.witness)
            self._guesses = self._heard.board()
        return self._guesses

    def late(self, by: Callable[[str], bool] | None = None) -> dict[str, str]:
        """The guesses that reached the GM after the reveal, which count for nothing (by
        id: when their number was first shown); with `by`, as of a moment (a recap's
        last): only a reveal stamped by then (`by` says which stamps are) showed it."""
        if by is not None:
            return self.guesses().late(by)
        if self._late is None:
            self._late = self.guesses().late()
        return self._late

    def voided(self, by: Callable[[str], bool] | None = None) -> dict[str, str]:
        """The guesses void, which wait for nothing: made on a number the GM sealed anew
        over before showing it (by id: the seal that did); with `by`, as of a moment (a
        recap's last): only a seal and a reveal stamped by then (`by` says which) count."""
        return self.guesses().voided(by)

    def settled_in_vain(self, undone: set[str] | None = None) -> list[tuple[int, str, str, str]]:
        """Each reveal (line, id) that settles a guess (id) never made, or one an earlier
        reveal settled, or says it counts where the rules say otherwise, and why in words;
        an undone reveal (by default, as the journal's undos say) settles nothing."""
        self.guesses()
        assert self._heard is not None
        undone = self.undone() if undone is None else undone
        return self._heard.settled_in_vain(undone) + [
            (line, reveal, guess.id, why) for line, reveal, guess, why in
            self._heard.counted_otherwise(undone, lambda asked: sealed.scores_held(
                self.path, asked))]

    def settles(self, reveal: str) -> tuple[int, list[tuple[str, str]]]:
        """How many guesses the reveal `reveal` settles, as the board counts them, and each
        guess it lists in vain with why (`cwx check`'s words), read once for every reveal."""
        if self._settles is None:
            board = self.guesses()
            assert self._heard is not None
            found: dict[str, tuple[int, list[tuple[str, str]]]] = {}
            for by in board.settled.values():
                count, vain = found.get(by, (0, []))
                found[by] = (count + 1, vain)
            for _, by, guess, why in self._heard.settled_in_vain(self.undone()):
                found.setdefault(by, (0, []))[1].append((guess, why))
            self._settles = found
        return self._settles.get(reveal, (0, []))

    def told(self, event: Event, *, actor: bool = True) -> str:
        """The event in words, as the recap and a commit message tell it."""
        return story.told(event, actor=actor, void=self.void())

    def since(self, committed: Iterable[bytes]) -> list[Event]:
        """The events the journal holds and the lines `committed` (the journal as a commit
        holds it) do not, each once, in time order: what a commit message tells."""
        return self.first_since(committed)[0]

    def first_since(self, committed: Iterable[bytes], most: int | None = None,
                    ) -> tuple[list[Event], int]:
        """The first `most` (None: all) of `since`'s events, in time order, and how many
        there are: only those kept (100,000 new events, each naming a character of its
        own, once cost a commit message 280 MB)."""
        import heapq

        known = {event.id for event in events_among(committed)}
        count = 0

        def new() -> Iterator[Event]:
            nonlocal count
            for event in every(self.path):
                if event.id not in known:
                    count += 1
                    yield event

        if most is None:
            first = sorted(new(), key=lambda event: event.order)
        else:
            first = heapq.nsmallest(most, new(), key=lambda event: event.order)
        return first, count

    def touching(self, name: str) -> Iterator[Event]:
        """In played order, the events of the file `name` and every other event that
        changed it (a reveal settling a guess, a reconcile, an adopt, an undo)."""
        return self.played(name, touching=True).events()

    def steps(self, name: str, key: str) -> Iterator[Step]:
        """Each change of `key` in the file `name`, in played order, with the key as the
        journal counts it before and after (docs/rules.md, "The campaign ledger")."""
        void, undone, undos = self.void(), self.undone(), self.turns().undos
        # The lines past what the ledger keeps (ledger.MAX_KEPT) count for nothing, as
        # check says: nor are their texts read (2,000 sheets of 990 traits made anew).
        folding = ledger.Folding()
        left_out = {event.line for event in prelude(self.path) if not folding.note(event)}
        value: Any = None
        for event in self.touching(name):
            if event.line in left_out:
                continue
            for change in event.changes:
                if change.file != name or change.key not in (key, None):
                    continue
                counts = event.id not in void
                by = min(undos[event.id])[1] if event.id in undone else None
                if change.key is None:  # the file written whole: the key as it holds it
                    after = story.brief(_whole(change, key)) if counts else value
                    yield Step(event, value, after, None, whole=True, counts=counts,
                               undone_by=by)
                    value = after
                    continue
                after = value
                if counts and not change.correction and systems.follows(key):
                    after = story.brief(_moved(value, change.before, change.after))
                # A value the ledger cannot count (a megabyte of text where xp is a
                # number) is kept as a summary: a history holds every step at once.
                yield Step(event, value, after, (story.brief(change.before),
                                                 story.brief(change.after)),
                           correction=change.correction, counts=counts, undone_by=by)
                value = after

    def state(self, name: str, until: Event | None = None) -> dict[str, ledger.Value]:
        """The ledger of the file `name` as the journal stood just after the event `until`
        (None: now): only what came up to it folded, files made later unknown."""
        folding = ledger.Folding()
        for event in prelude(self.path):
            if until is None or event.order <= until.order:
                folding.note(event)
        for event in self.touching(name):
            if until is None or event.order <= until.order:
                folding.add(event)
        return folding.ledger().values(name)


def prelude(path: str) -> Iterator[Event]:
    """In the journal's order, the events the ledger notes before it folds the changes
    (ledger.Folding: files made or retired, undos, turns, the supply): only the lines
    that may be one are parsed."""
    return journal.holding(path, ledger.PRELUDE)


MAX_SET = 1 << 16  # keys the table's word sets, followed: far beyond any campaign's


def set_by_table(path: str) -> set[tuple[str, str]] | None:
    """Each key (file, key) the table's word (an adopt) sets anywhere in the journal at
    `path`: a change of no other key is ever set back by one. None: more than MAX_SET."""
    found: set[tuple[str, str]] = set()
    spelled = tuple(spelling for command in events.tables()
                    for spelling in journal.spellings(command))
    for event in journal.holding(path, spelled):
        if events.kind(event.command).table:
            found.update((change.file, change.key) for change in event.changes
                         if change.key is not None)
            if len(found) > MAX_SET:
                return None
    return found


def every(path: str) -> Iterator[Event]:
    """Every event, in the journal's order, as a stream (a line that is none is left
    out: `cwx check` names it); a line carrying an earlier line's id (a copy, a twin),
    left out too: the first line of an id is its event, in every reader."""
    seen: set[str] = set()
    for event in journal.events_in(path):
        if event.id not in seen:
            seen.add(event.id)
            yield event


def lines(path: str) -> Iterator[Event | journal.BadLine]:
    """Every line, in the journal's order, as an event or why it is none (as check says)."""
    return journal.read(path)


def with_ids(path: str, wanted: set[str], few: int = 1000) -> Iterator[Event]:
    """The events whose ids are `wanted`: only their lines parsed, for `few` or fewer (a
    search of the bytes for each); every line read again, for more."""
    if len(wanted) <= few:
        return journal.holding(path, tuple(sorted(id_.encode() for id_ in wanted)))
    return (event for event in journal.events_in(path) if event.id in wanted)


def event(path: str, id_: str) -> Event | None:
    """The event whose id is `id_` (only lines holding it parsed)."""
    return next((item for item in journal.holding(path, (id_.encode(),)) if item.id == id_),
                None)


def starting(path: str, given: str) -> dict[str, Event]:
    """Each event whose id starts with `given`, case ignored (as git takes a short hash),
    once however often git's union copied its line."""
    folded = given.casefold()
    found: dict[str, Event] = {}
    for item in journal.holding(path, (folded.encode(), given.encode())):
        if item.id.casefold().startswith(folded):
            found.setdefault(item.id, item)
    return found


def alike(path: str, ids: Iterable[str]) -> Iterator[str]:
    """The ids of the events whose lines hold the first 8 digits of one of `ids`, in
    either case: the ids a short form of one of them could be taken for."""
    starts = {spelled.encode() for id_ in ids for spelled in (id_[:8].lower(), id_[:8].upper())}
    return (event.id for event in journal.holding(path, tuple(starts)))


def naming(path: str, name: str) -> Iterator[Event]:
    """In the journal's order, the events whose lines name the file `name` (its own, or
    a change of it, or another word of it): only those lines parsed."""
    return journal.holding(path, journal.spellings(name))


def naming_any(path: str, names: Iterable[str]) -> Iterator[Event]:
    """In the journal's order, the events whose lines name any of the files `names`:
    only those lines parsed, in one pass however many names."""
    return journal.holding(path, tuple(spelled for name in names
                                       for spelled in journal.spellings(name)))


def retiring(path: str) -> Iterator[Event]:
    """In the journal's order, the events that remove a file (a retire)."""
    return (item for item in journal.holding(path, (b'"removed"',))
            if any(change.removed for change in item.changes))


def events_among(lines: Iterable[bytes]) -> Iterator[Event]:
    """The events among journal lines read elsewhere than its file (a commit's journal, the
    lines a diff adds), skipping those that are not events."""
    for raw in lines:
        if isinstance(item := journal.parse(raw), Event):
            yield item


def changes_to(raw: bytes, name: str) -> tuple[journal.Edit, ...]:
    """The changes one journal line (a redo record's) makes to the file `name` (none: it
    is no event)."""
    item = journal.parse(raw)
    return () if isinstance(item, journal.BadLine) else \
        tuple(change for change in item.changes if change.file == name)


def player_of(raw: bytes) -> str | None:
    """The player a journal line names, read from it as any JSON object: a line that is
    no whole event may still claim to be someone's turn (`cwx check --signed`)."""
    import json

    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # a line nested past Python's stack: no one's
        return None
    player = data.get("player") if isinstance(data, dict) else None
    return player if isinstance(player, str) else None


@contextmanager
def opened(path: str, witness: sealed.Witness | None = None) -> Iterator[Journal]:
    """The journal at `path`, open for reading (none yet: an empty one); its reveals held
    to `witness`."""
    with journal.opened(path) or io.BytesIO() as file:
        yield Journal(path, file, witness)


def _moved(value: Any, before: Any, after: Any) -> Any:
    """A key after a change from `before` to `after`, as the ledger folds it: a whole
    number moves by the difference (two clones' changes add up), any other value is set."""
    if (before is None or type(before) is int) and (after is None or type(after) is int) and \
            (value is None or type(value) is int):
        return (value or 0) + (after or 0) - (before or 0)
    return after


def _whole(change: journal.Edit, key: str) -> Any:
    """What a file written whole holds, as the ledger reads its text (a retired file:
    nothing; a secret or unreadable one: nothing the ledger knows)."""
    if change.removed or change.text is None:
        return None
    return _values_of(change.text).get(key)


# A sheet made again as it was is read once (the last text read is kept): `char new
# --force` of one sheet 2,000 times, 990 traits each, once took `xp history` 19 s.
@functools.lru_cache(maxsize=1)
def _values_of(text: str) -> dict[str, Any]:
    """The values the ledger follows in a sheet's text (none, where it cannot be read)."""
    try:
        return ledger.values_of(tomlread.loads(text))
    except CwxError:
        return {}
