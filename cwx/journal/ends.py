"""A game's end names the draws it settles, each by id (docs/rules.md W7 and "Time"), so
the order git merges lines in never changes which game a draw was played in: the draws a
new end settles, and each end that names a draw it cannot settle. (An end made while
another end of one of its draws stood counts for nothing: journal.Turns.)

An end from before it named its draws (no `game` in its result) settles, as it always
has, every draw of its character played before it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from cwx.base.record import Record
from cwx.journal import events
from cwx.journal import lines as journal
from cwx.journal.lines import Event, Order

MOST = journal.MOST_SETTLED
MAX_NAMED = 50_000  # draws the ends of one journal name, compared by check


class End(Record):
    """A game's end as check compares it: where it stands, and the draws it names (None:
    a line from before ends named them)."""

    id: str
    line: int
    order: Order
    file: str | None
    draws: tuple[str, ...] | None


class Ends:
    """The ends of a journal's games, and its draws, heard as its events come (in any
    order: git merges lines as it likes)."""

    def __init__(self) -> None:
        self.ends: list[End] = []
        self.draws: dict[str, tuple[Order, str | None]] = {}  # kept by `unsettled` alone
        self.named = 0
        self.turns = journal.Turns()  # which ends count: undone or void ones settle nothing

    def note(self, event: Event, *, draws: bool = False) -> None:
        """Note an end (and with `draws`, a draw: for one character's draws, not a
        campaign's, which `settled_in_vain` reads again by id)."""
        self.turns.note(event)
        kind = events.kind(event.command)
        if kind.settles and self.named < MAX_NAMED:
            said = journal.game_of(event)
            self.named += len(said or ()) + 1
            self.ends.append(End(event.id, event.line, event.order, event.file, said))
        elif draws and kind.settled:
            self.draws.setdefault(event.id, (event.order, event.file))

    def standing(self) -> list[End]:
        """The ends that count (none undone, none void), in played order (git's union may
        copy a line: each once)."""
        passed = self.turns.undone() | self.turns.void()
        standing: dict[str, End] = {}
        for end in sorted(self.ends, key=lambda end: end.order):
            if end.id not in passed:
                standing.setdefault(end.id, end)
        return list(standing.values())

    def unsettled(self, file: str) -> list[str]:
        """The draws of `file` (heard `draws=True`) no standing end settled, in played
        order: the ones an end made now settles."""
        undone = self.turns.undone()
        ends = [end for end in self.standing() if end.file == file]
        settled = {draw for end in ends for draw in end.draws or ()}
        older = max((end.order for end in ends if end.draws is None), default=None)
        return [draw for draw, (order, of) in sorted(self.draws.items(),
                                                      key=lambda item: item[1][0])
                if of == file and draw not in undone and draw not in settled and
                (older is None or order > older)][-MOST:]

    def settled_in_vain(self, read: Callable[[set[str]], Iterable[Event]]
                        ) -> Iterator[tuple[End, str, str]]:
        """Each standing end and a draw it names that it cannot settle, and why: no draw
        of its character made it, or it was played after the end. `read` reads again the
        events of the ids it is given."""
        ends = self.standing()
        wanted = {draw for end in ends for draw in end.draws or ()}
        if not wanted:
            return
        found: dict[str, tuple[Order, str | None]] = {}
        for event in read(wanted):
            if event.id in wanted and events.kind(event.command).settled:
                found.setdefault(event.id, (event.order, event.file))
        for end in ends:
            for draw in end.draws or ():
                order, of = found.get(draw, (None, None))
                if order is None or of != end.file:
                    yield end, draw, "no draw of its character in the journal made it"
                elif order > end.order:
                    yield end, draw, "that draw was played after it"


def unsettled(path: str, file: str) -> list[str]:
    """The draws of the character `file` in the journal at `path` that no game's end
    settled, read from the journal's end as luck reads the last draw: back to its latest
    end not undone and LOOK_BACK lines past it (git may merge lines out of time order),
    or MOST draws and as many lines past them; only lines holding its name are parsed."""
    from cwx.journal.recent import FromEnd

    ends, seen, ended = Ends(), 0, False
    reading = FromEnd(path, file)
    for _, event in reading:
        ends.note(event, draws=True)
        kind = events.kind(event.command)
        seen += kind.settled
        ended = ended or (kind.settles and event.id not in ends.turns.undos)
        reading.found = ended or seen > MOST
    return ends.unsettled(file)

