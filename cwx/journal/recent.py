"""What the journal's end says, read backwards a block at a time: a character's last
action (what luck turns), a file's latest event, the latest seal. Each costs what lies
after what it looks for, not the campaign's length, and loads little: a command that
asks one thing of the journal reads no more of it (history.py reads it whole)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from cwx.base.record import Record
from cwx.journal import events
from cwx.journal import lines as journal
from cwx.journal.lines import Event, Order


class Action(Record):
    """A character's last action, as luck spend and the GM's curse see it."""

    event: Event
    turned: bool  # already turned: by a white spent in the draw, or by a later spend or curse
    undone_turns: tuple[str, ...] = ()  # its turns undone since: a new turn names them


LOOK_BACK = 2000  # lines read past the first action found: git's merges of two clones


class FromEnd:
    """The events of the file `name` from the journal's end, each with how many lines from
    the end it was read. Once the reader sets `found`, LOOK_BACK lines more are read, as
    git may merge two clones' lines out of order. Only lines that may hold its name are
    parsed."""

    def __init__(self, path: str, name: str) -> None:
        self.path, self.name, self.found = path, name, False

    def __iter__(self) -> Iterator[tuple[int, Event]]:
        spelled = journal.spellings(self.name)
        looked = 0  # lines read since the reader found what it looks for
        for back, raw in enumerate(journal.lines_from_end(self.path)):
            if self.found:
                looked += 1
                if looked > LOOK_BACK:
                    return
            if not journal.may_hold(raw, spelled):
                continue
            event = journal.parse(raw)
            if not isinstance(event, journal.BadLine) and event.file == self.name:
                yield back, event


def last_action(path: str, name: str) -> Action | None:
    """The character's latest action not undone, read from the journal's end; the
    search goes LOOK_BACK lines past the first found, as git may merge lines out of order."""
    actions: list[Event] = []
    place: dict[str, int] = {}  # an action -> how many lines from the end it was read
    turns = journal.Turns()
    best: Event | None = None
    reading = FromEnd(path, name)
    for back, event in reading:
        turns.note(event)
        if events.kind(event.command).action:  # a game's move (not a making, an undo...)
            # Kept without its changes, nested results and long texts: what luck reads is
            # plain and short, and 2,000 hostile lines of a million values each, or 64 of
            # a note of 1 MB, must not all be held.
            actions.append(event._replace(changes=(), result={
                key: value for key, value in event.result.items()
                if type(value) in (int, bool, float) or value is None or
                (type(value) is str and len(value) <= journal.MAX_NAME)}))
            place.setdefault(event.id, back)
            if best is None and event.id not in turns.undos:  # undone: look on
                best, reading.found = event, True
            elif best is None and len(actions) > LOOK_BACK:
                break  # that many actions, every one undone: no journal of cwx's
    undone = turns.undone()
    live = [event for event in actions if event.id not in undone]
    if not live:
        return None
    best = max(live, key=lambda event: _from_end(event, place[event.id]))
    turned = bool(best.result.get("white_spent")) or turns.by(best.id) is not None
    return Action(best, turned, tuple(sorted(turn for _, turn, _ in turns.turns.get(best.id, [])
                                             if turn in undone)))


def latest(path: str, holding: bytes, wanted: Callable[[Event], bool]) -> Event | None:
    """The latest event (by `at`, `id`) that `wanted` chooses, read from the end of the
    journal; only lines holding the bytes `holding` are parsed. Git may merge two clones'
    lines out of time order, so the search goes on LOOK_BACK lines past the first found."""
    best: Event | None = None
    at: Order = ("", "", 0)
    looked = 0
    for back, raw in enumerate(journal.lines_from_end(path)):
        if best is not None:
            looked += 1
            if looked > LOOK_BACK:
                break
        if not journal.may_hold(raw, (holding,)):
            continue
        event = journal.parse(raw)
        if isinstance(event, journal.Event) and wanted(event) and \
                (best is None or _from_end(event, back) > at):
            best, at = event, _from_end(event, back)
    return best


def _from_end(event: Event, back: int) -> Order:
    """Event.order of an event read `back` lines from the journal's end, where its line's
    number is not known: a tie that goes by the journal's order goes by how near the end
    it is."""
    when, id_, _ = event.order
    return when, id_, -back


def latest_of(path: str, name: str) -> Event | None:
    """The latest event (by stamp) of the file `name`, or changing it."""
    return latest(path, journal.dumps(name).encode(), lambda event: event.file == name
                  or any(change.file == name for change in event.changes))
