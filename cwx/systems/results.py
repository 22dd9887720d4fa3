"""What the systems' views and moves give scripts (--json, and the journal's results), as
types: the entries return these, and `make schemas` writes docs/json/ from them.

Imported for type checking only by the entries (a TypedDict costs a command start-up
time), for real by scripts/schemas.py and the tests. Not an entry of the table."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from cwx.base.shapes import Shape
from cwx.rules import clockworx, colorwheel
from cwx.systems.fragments import A_NAME, any_case

Count = Annotated[int, Shape(minimum=0)]
Name = Annotated[str, Shape(**{key: value for key, value in A_NAME.items() if key != "type"})]
Colour = Annotated[str, Shape(enum=list(colorwheel.COLOURS), description="A colour of the wheel.")]
Die = Annotated[str, Shape(enum=list(colorwheel.DICE), description="A die's colour.")]
Position = Annotated[int, Shape(minimum=1, maximum=clockworx.CLOCK,
                                description="A number on the clock face.")]
Score = Annotated[int, Shape(minimum=1, maximum=clockworx.MAX_SCORE)]
Commitment = Annotated[str, Shape(pattern="^[0-9a-f]{64}$",
                                  description="A sealed number's commitment: SHA-256, in hex.")]
# The key as the file spells it ("Red"): the sheet's own spelling is kept.
ColourKey = Annotated[str, Shape(pattern=f"^(?:{'|'.join(map(any_case, colorwheel.COLOURS))})$")]


class Luck(TypedDict):
    """White and black dice: held by a character, or spare in the reserve."""

    white: Count
    black: Count


class Dice(TypedDict):
    """The dice in the bag, by colour."""

    red: Count
    yellow: Count
    blue: Count
    white: Count
    black: Count


class BagShown(TypedDict):
    """A bag: the dice in it, and the reserve beside it."""

    bag: Dice
    reserve: Luck


class ClockSheet(TypedDict):
    """A ClockWorx character: trait scores by name, and experience."""

    name: Name
    system: Literal["clockworx"]
    traits: dict[Name, Score]
    xp: Count


class WheelSheet(TypedDict):
    """A Color Wheel character: trait names by colour, and the dice held."""

    name: Name
    system: Literal["colorwheel"]
    traits: Annotated[dict[ColourKey, Annotated[list[Name], Shape(minItems=1)]],
                      Shape(minProperties=len(colorwheel.COLOURS),
                            maxProperties=len(colorwheel.COLOURS))]
    luck: Luck


Sheet = ClockSheet | WheelSheet


class ClockMade(ClockSheet):
    """A ClockWorx character made: the sheet, and the creation points left unspent."""

    unspent: Annotated[int, Shape(minimum=0, maximum=clockworx.BUDGET)]


class Created(TypedDict):
    """What `char new` says beyond the sheet: ClockWorx's unspent points, else nothing."""

    unspent: NotRequired[Annotated[int, Shape(minimum=0, maximum=clockworx.BUDGET)]]


class Outcome(TypedDict):
    """A resolved action: where the guess landed and what it earned."""

    target: Position
    guess: Position
    distance: Annotated[int, Shape(minimum=0, maximum=clockworx.CLOCK // 2)]
    trait: str | None
    score: Score | None
    success: bool
    critical: bool
    xp: Count


class Advancement(TypedDict):
    """Experience spent on a trait: its score now, the cost, the experience left."""

    trait: Name
    score: Score
    cost: Annotated[int, Shape(minimum=1)]
    xp_total: Count


class Drawn(TypedDict):
    """A draw: the dice drawn in order, the outcome, and the table after it."""

    color: Colour
    draws: Annotated[list[Die], Shape(minItems=1)]
    success: bool
    cancelled: bool
    white_spent: bool
    luck: Luck
    bag: Dice


class Settled(TypedDict):
    """A game's end: the dice the character holds after it, those back in the reserve, and
    the draws of the game it settles."""

    luck: Luck
    removed: Luck
    game: Annotated[list[str], Shape(
        description="The ids of the draws of the game it ends, in the order played: each "
                    "draw of the character no earlier end settled (a line from before "
                    "ends named them has no key: it settles every draw before it).")]


class Traded(TypedDict):
    """Whites traded for a trait."""

    color: Colour
    trait: Name
    cost: Annotated[int, Shape(enum=sorted(set(colorwheel.TRADE_COST.values())))]
    luck: Luck


class Turned(TypedDict):
    """Luck turning the last draw: the draw turned (its event's id), its outcome now."""

    turns: str
    success: bool
    luck: Luck
    after_undone: NotRequired[Annotated[list[str], Shape(
        description="The turns of this draw undone before it (no key: none).")]]


class GameEnded(Settled):
    """A game's end: the dice after it, those back in the reserve, and whether there was
    anything to settle (false: no black held, and no game played since the last end)."""

    settled: bool


class ClockMadeDry(ClockMade):
    """A ClockWorx character that `char new --dry-run` would make."""

    dry_run: Literal[True]


class WheelMadeDry(WheelSheet):
    """A Color Wheel character that `char new --dry-run` would make."""

    dry_run: Literal[True]


Made = ClockMade | WheelSheet | ClockMadeDry | WheelMadeDry
