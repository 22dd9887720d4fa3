"""The draw each luck spend or curse turns, held to the rules (docs/rules.md W5, W6, D16):
a draw of its own character played before it, its last action, a failure for a white
spent, a success for the GM's curse, turned by no white of its own. A turn names its
draw by id (`turns`), so check reads the draw again to compare them."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator

from cwx.base.record import Record
from cwx.journal import events
from cwx.journal.lines import Event, Order, Turns

RECENT = 32  # actions of each character kept in line order: a turn names its last one
MAX_TURNS = 50_000  # turns compared by check: a campaign makes a few hundred
MAX_FILES = 1000  # characters whose recent actions are kept (a campaign holds that many)


class _Action(Record):
    id: str
    line: int
    order: Order
    command: str
    success: object  # what its result says
    white_spent: bool

    @classmethod
    def of(cls, event: Event) -> _Action:
        return cls(event.id, event.line, event.order, event.command[:40],
                   event.result.get("success"), event.result.get("white_spent") is True)


class Turn(Record):
    """A spend or curse as check compares it, and the actions of its character played
    between its draw and it (in the journal's lines and in its order alike)."""

    id: str
    line: int
    order: Order
    command: str
    file: str | None
    draw: str
    found: _Action | None  # the draw, when it was among its character's recent actions
    between: tuple[tuple[str, str], ...]  # (an action's id, its command)


class Turned:
    """The turns of a journal and its characters' recent actions, heard as its events come
    in the journal's order."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []
        self.recent: dict[str, deque[_Action]] = {}

    def note(self, event: Event) -> None:
        kind = events.kind(event.command)
        draw = event.result.get("turns")
        if kind.turn and isinstance(draw, str) and len(self.turns) < MAX_TURNS:
            self.turns.append(self._turn(event, draw))
        elif kind.action and isinstance(event.file, str) and \
                (event.file in self.recent or len(self.recent) < MAX_FILES):
            self.recent.setdefault(event.file, deque(maxlen=RECENT)).append(_Action.of(event))

    def _turn(self, event: Event, draw: str) -> Turn:
        kept = list(self.recent.get(event.file or "", ()))
        at = next((i for i, action in enumerate(kept) if action.id == draw), None)
        found = kept[at] if at is not None else None
        between = tuple((action.id, action.command) for action in kept[at + 1:]
                        if found is not None and found.order < action.order < event.order
                        ) if at is not None else ()
        return Turn(event.id, event.line, event.order, event.command[:40], event.file, draw,
                    found, between)

    def in_vain(self, turns: Turns, read: Callable[[set[str]], Iterable[Event]]
                ) -> Iterator[tuple[Turn, str]]:
        """Each turn that counts (neither void nor undone) and why the rules do not give
        it; `read` reads again the events of the ids it is given (draws kept no longer)."""
        void, undone = turns.void(), turns.undone()
        standing = [turn for turn in self.turns if turn.id not in void and
                    turn.id not in undone]
        wanted = {turn.draw for turn in standing if turn.found is None}
        far: dict[str, tuple[Event, _Action]] = {}
        for event in read(wanted) if wanted else ():
            if event.id in wanted and event.id not in far:
                far[event.id] = (event, _Action.of(event))
        for turn in standing:
            action = turn.found
            if action is None and turn.draw in far:
                event, action = far[turn.draw]
                if event.file != turn.file:
                    action = None
            why = _why(turn, action, turns, undone)
            if why is not None:
                yield turn, why


def _why(turn: Turn, draw: _Action | None, turns: Turns, undone: set[str]) -> str | None:
    """Why the rules do not give `turn` of `draw`, or None."""
    if draw is None or not events.kind(draw.command).settled:
        return "no draw of its character in the journal made it"
    if draw.line > turn.line or draw.order > turn.order:
        return "that draw was played after it"
    spend = turn.command == "luck spend"
    if draw.white_spent:
        return "that draw spent a white of its own already (an action is turned once, D16)"
    if spend and draw.success is not False:
        return "that draw succeeded: a white turns a failure (W5)"
    if not spend and draw.success is not True:
        return "that draw failed: the GM's curse spoils a success (W6)"
    for action, command in turn.between:
        # An action undone before the turn was made is no last action (nor one undone
        # since, which the turn may not have seen: the lenient reading).
        if action not in undone and not any(order < turn.order for order, _ in
                                            turns.undos.get(action, ())):
            return (f"its character's last action was {command} {action[:8]}, played "
                    "after that draw")
    return None
