"""Color Wheel rules (docs/rules.md W1–W9), as pure state transitions.

A draw is a chain of steps. Each step takes the table (bag, reserve, the dice
the character holds), the die that came out and the player's answer to the
one question that die may raise, and returns the new table and whether the
action succeeded, failed, or the player draws again. Where the die comes from
(a seeded or system random source, or the dice a table drew by hand) and who
answers (flags, a prompt) is decided by the caller. States and results are immutable
records (cwx/base/record.py: quicker to define than NamedTuples, which a command pays for).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from cwx.base import traitnames
from cwx.base.errors import BadValue, RuleForbids
from cwx.base.record import Record

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from random import Random
    from typing import Literal

    Question = Literal["keep-white", "keep-black"]
    Outcome = Literal["success", "failure", "again"]
    Turn = Literal["spend", "curse"]  # a last draw turned: luck spent (W5), the GM's curse (W6)

PRIMARY = ("red", "yellow", "blue")
SECONDARY: Mapping[str, tuple[str, str]] = {
    "orange": ("red", "yellow"),
    "green": ("yellow", "blue"),
    "purple": ("red", "blue"),
}
COLOURS = (*PRIMARY, *SECONDARY)
DICE = (*PRIMARY, "white", "black")  # the colours a die in the bag can have
TRADE_COST = {**dict.fromkeys(PRIMARY, 3), **dict.fromkeys(SECONDARY, 5)}
DEFAULT_RESERVE = 10

class Luck(Record):
    """White and black dice: held by a character, or spare in the reserve."""

    white: int = 0
    black: int = 0


class Bag(Record):
    """The dice in the bag (W3)."""

    red: int = 1
    yellow: int = 1
    blue: int = 1
    white: int = 1
    black: int = 1

    def of(self, die: str) -> int:
        """How many dice of this colour are in the bag."""
        return int(getattr(self, die))

    @property
    def total(self) -> int:
        return self.red + self.yellow + self.blue + self.white + self.black

    def adding(self, die: str, number: int) -> Bag:
        return self._replace(**{die: self.of(die) + number})


class Table(Record):
    """Everything one character's action can move: bag, reserve, held dice."""

    bag: Bag
    reserve: Luck
    held: Luck


class Step(Record):
    """One die drawn and what came of it."""

    table: Table
    die: str
    outcome: Outcome
    cancelled: bool = False
    kept: bool = False


class Draw(Record):
    """A whole action: every die drawn in order, and the table afterwards."""

    colour: str
    draws: tuple[str, ...]
    success: bool
    cancelled: bool
    white_spent: bool
    before: Table
    after: Table


class Settlement(Record):
    """The end of a game for one character (W7): the table after, and what went back."""

    table: Table
    removed: Luck


class Trade(Record):
    """Whites traded for a new trait (W8)."""

    colour: str
    trait: str
    cost: int
    table: Table
    traits: Mapping[str, tuple[str, ...]]


def colour_named(name: str) -> str:
    """An action colour, matched ignoring case (W1)."""
    folded = name.strip().casefold()
    if folded not in COLOURS:
        from cwx.base.hints import did_you_mean  # only to word the error

        raise BadValue(f"{name!r} is not a colour of the wheel{did_you_mean(name, COLOURS)}; "
                       f"use one of {', '.join(COLOURS)}")
    return folded


def die_named(name: str) -> str:
    """The colour of a die in the bag, matched ignoring case."""
    folded = name.strip().casefold()
    if folded not in DICE:
        from cwx.base.hints import did_you_mean  # only to word the error

        raise BadValue(f"{name!r} is not a die in the bag{did_you_mean(name, DICE)}; "
                       f"use one of {', '.join(DICE)}")
    return folded


def wins(colour: str, die: str) -> bool:
    """A coloured die succeeds for its own colour or a secondary it makes up (W4)."""
    return die == colour or die in SECONDARY.get(colour, ())


def question_for(table: Table, die: str) -> Question | None:
    """The choice this die puts to the player, if any (W4)."""
    if die == "white" and table.held.black == 0:
        return "keep-white"
    if die == "black":
        return "keep-black"
    return None


def step(table: Table, colour: str, die: str, keep: bool = False) -> Step:
    """Draw `die` for an action of `colour`; `keep` answers its question (W4)."""
    if table.bag.of(die) < 1:
        raise BadValue(f"there is no {die} die in the bag to draw")
    if die in PRIMARY:
        return Step(table, die, "success" if wins(colour, die) else "failure")
    bag, reserve, held = table.bag, table.reserve, table.held
    if die == "white" and held.black > 0:
        # A held black cancels the white's success; the black goes to the reserve.
        cancelled = Table(bag, reserve._replace(black=reserve.black + 1),
                          held._replace(black=held.black - 1))
        return Step(cancelled, die, "failure", cancelled=True)
    if not keep:
        return Step(table, die, "success" if die == "white" else "failure")
    # Kept: the die moves to the character, the GM replaces it from the reserve if they can.
    spare = reserve.white if die == "white" else reserve.black
    refill = 1 if spare > 0 else 0
    kept = Table(
        bag.adding(die, refill - 1),
        _with(reserve, die, -refill),
        _with(held, die, +1),
    )
    return Step(kept, die, "again", kept=True)


def draw(
    table: Table,
    colour: str,
    next_die: Callable[[Bag], str],
    choose: Callable[[Question, Table], bool],
    *,
    spend_white: Callable[[Table], bool] | bool = False,
) -> Draw:
    """Play one action to its end: draw until an outcome, then, after a failure, maybe
    spend a held white (W4, W5). `spend_white` answers whether to, once the failure is
    known (the seed: "if you ever fail an action, you may spend one")."""
    colour = colour_named(colour)
    start = table
    dice: list[str] = []
    while True:
        if table.bag.total == 0:
            if dice:
                raise RuleForbids(f"the bag ran out in the middle of the action (every die "
                                  f"drawn, {', '.join(dice)}, was kept); nothing changed: "
                                  "put dice in the bag and draw again")
            raise RuleForbids("the bag is empty; put dice in it before drawing")
        die = next_die(table.bag)
        question = question_for(table, die)
        answer = choose(question, table) if question else False
        result = step(table, colour, die, answer)
        dice.append(die)
        table = result.table
        if result.outcome != "again":
            break
    success, spent = result.outcome == "success", False
    if not success and table.held.white > 0 and (
            spend_white(table) if callable(spend_white) else spend_white):
        table, success, spent = spend(table), True, True
    return Draw(colour, tuple(dice), success, result.cancelled, spent, start, table)


def random_die(rng: Random) -> Callable[[Bag], str]:
    """A die source that draws uniformly among the dice in the bag."""

    def next_die(bag: Bag) -> str:
        pick = rng.randrange(bag.total)
        for die in DICE:
            pick -= bag.of(die)
            if pick < 0:
                return die
        raise AssertionError("unreachable: pick is below the bag's total")

    return next_die


class DiceRanOut(BadValue):
    """The dice a table recorded ran out while the action still needed a draw."""


class DiceLeftOver(BadValue):
    """The action ended before every die the table recorded was drawn."""


class Recorded:
    """A die source that replays the dice a table drew by hand, in order."""

    def __init__(self, dice: Iterable[str]) -> None:
        self.dice = [die_named(die) for die in dice]
        self.used = 0

    def __call__(self, bag: Bag) -> str:
        if self.used >= len(self.dice):
            raise DiceRanOut(
                f"the recorded dice ran out after {self.used}: the action still needs a draw "
                "(record every die drawn, in order)")
        die = self.dice[self.used]
        if bag.of(die) < 1:
            raise BadValue(f"recorded die {self.used + 1} is {die}, but the bag holds no {die} die")
        self.used += 1
        return die

    def check_all_used(self, cancelled: bool = False) -> None:
        if self.used < len(self.dice):
            said = f"{len(self.dice)} dice were recorded but the action ended after {self.used}"
            if cancelled:
                raise BadValue(f"{said}; a held black cancelled the white, which ends the "
                               "action (a white is kept only by a character holding no black)")
            raise DiceLeftOver(f"{said}; answer the keep choices as the player did")


def spend(table: Table) -> Table:
    """Spend a held white to turn a failure into a success (W5)."""
    if table.held.white < 1:
        raise RuleForbids("the character holds no white die to spend")
    return Table(table.bag, _with(table.reserve, "white", +1), _with(table.held, "white", -1))


def curse(table: Table) -> Table:
    """The GM turns a success into a failure with one of the character's blacks (W6)."""
    if table.held.black < 1:
        raise RuleForbids("the character holds no black die for the GM to use")
    return Table(table.bag, _with(table.reserve, "black", +1), _with(table.held, "black", -1))


class LastAction(Record):
    """A character's last action, as luck's rules see it (W5, W6, W7)."""

    named: str  # as people call it ("game end")
    draw: bool  # it was a draw
    end: bool  # it was the end of a game
    success: bool
    turned: bool  # already turned: a white spent on it, or a curse


class NoDraw(RuleForbids):
    """The character has drawn nothing luck could turn."""


def check_turn(turn: Turn, last: LastAction | None) -> None:
    """Whether luck may turn the character's last action (W5, W6): a spent white turns a
    failed draw into a success, the GM's curse a successful one into a failure; each
    action is turned at most once."""
    word = "spend a white on" if turn == "spend" else "curse"
    if last is None:
        raise NoDraw(f"the character has no draw in the journal to {word}; record the draw "
                     "first")
    if not last.draw:
        raise RuleForbids(f"the character's last action was `{last.named}`, not a draw: "
                          f"there is nothing to {word}")
    success, turned = last.success, last.turned
    if turned:
        raise RuleForbids("the character's last draw was already turned (a white spent, or a "
                          "curse): an action is turned once")
    if turn == "spend" and success:
        raise RuleForbids("the character's last draw succeeded; a white is spent on a failure")
    if turn == "curse" and not success:
        raise RuleForbids("the character's last draw failed; the GM's curse spoils a success")


def to_settle(last: LastAction | None, held: Luck) -> bool:
    """Whether a game's end has anything to do (W7): the end of a game played (its last
    action not an end), or blacks to settle. A game ended, or never begun, with no black
    held ends again as it is: nothing moves, nothing is recorded."""
    return held.black > 0 or (last is not None and not last.end)


def settle(table: Table) -> Settlement:
    """End of game (W7): blacks cancel whites one for one, then all blacks go."""
    held = table.held
    whites_left = 0 if held.black > held.white else held.white - held.black
    removed = Luck(held.white - whites_left, held.black)
    reserve = Luck(table.reserve.white + removed.white, table.reserve.black + removed.black)
    return Settlement(Table(table.bag, reserve, Luck(whites_left, 0)), removed)


def find_trait(traits: Mapping[str, Sequence[str]], name: str) -> tuple[str, str] | None:
    """(colour, the trait's own spelling) for a trait matched ignoring case."""
    for colour, names in traits.items():
        if (own := traitnames.find(names, name)) is not None:
            return colour, own
    return None


def trait_colour(traits: Mapping[str, Sequence[str]], name: str) -> str:
    """The colour of a trait the character has; one it lacks is an error."""
    found = find_trait(traits, name)
    if found is None:
        from cwx.base.hints import did_you_mean  # only to word the error

        names = [n for names in traits.values() for n in names]
        raise BadValue(f"no trait {name!r}{did_you_mean(name, names)} "
                       f"(traits: {', '.join(names)})")
    return found[0]


def check_traits(traits: Mapping[str, Sequence[str]], *, creating: bool) -> None:
    """Every colour has a trait (exactly one at creation, W2); names are unique ignoring case."""
    for colour in traits:
        colour_named(colour)
    missing = [colour for colour in COLOURS if not traits.get(colour)]
    if missing:
        raise BadValue(f"every colour needs a trait; missing: {', '.join(missing)}")
    for colour, names in traits.items():
        if creating and len(names) != 1:
            raise BadValue(f"a new character has exactly one trait on each colour; {colour} has "
                           f"{len(names)}", key=f"traits.{colour}")
    traitnames.check_names((name, f"traits.{colour}")
                            for colour, names in traits.items() for name in names)


class HoldingBlack(RuleForbids):
    """No trading while holding black (W8)."""


def trade(
    table: Table, traits: Mapping[str, tuple[str, ...]], colour: str, trait: str
) -> Trade:
    """Trade 3 whites (primary) or 5 (secondary) for a new trait, holding no black (W8)."""
    colour = colour_named(colour)
    name = traitnames.new_name(trait, "trait")
    if (found := find_trait(traits, name)) is not None:
        raise RuleForbids(f"the character already has {found[1]!r} on {found[0]}")
    held = table.held
    if held.black > 0:
        raise HoldingBlack(f"the character holds {held.black} black; no trading while holding "
                           "black (end the game first)")
    cost = TRADE_COST[colour]
    if held.white < cost:
        raise RuleForbids(f"a new {colour} trait costs {cost} whites; the character holds {held.white}")
    after = Table(table.bag, _with(table.reserve, "white", cost), _with(held, "white", -cost))
    grown = {**traits, colour: (*traits.get(colour, ()), name)}
    return Trade(colour, name, cost, after, grown)


def _with(luck: Luck, die: str, number: int) -> Luck:
    return luck._replace(**{die: getattr(luck, die) + number})
