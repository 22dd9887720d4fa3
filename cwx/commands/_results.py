"""What the commands that build their own results give scripts (--json), as types: the
odds and the party. `make schemas` writes docs/json/ from them; the commands import them
for type checking only. A module of cwx.commands that is no command (its name starts "_")."""

from __future__ import annotations

from typing import Annotated, TypedDict

from cwx.base.shapes import Shape
from cwx.campaign.results import Chance
from cwx.systems.results import BagShown, Colour, Score, Sheet

Exact = Annotated[str, Shape(pattern="^[0-9]+(/[0-9]+)?$",
                             description="The same number, exactly: a fraction.")]


class Party(TypedDict):
    """The characters, and the campaign's bag (null: none)."""

    characters: list[Sheet]
    bag: BagShown | None


# ---------------------------------------------------------------- odds


class ClockChances(TypedDict):
    """A guess's chances with a score (null: untrained), as numbers and exactly."""

    score: Score | None
    p_success: Chance
    p_success_exact: Exact
    p_critical: Chance
    p_critical_exact: Exact
    expected_xp: Annotated[float, Shape(minimum=0)]
    expected_xp_exact: Exact


class ClockChancesAll(TypedDict):
    """Every score's chances (--all)."""

    odds: list[ClockChances]


class Policy(TypedDict):
    """What the player keeps and spends."""

    keep_white: bool
    keep_black: bool
    spend_white: bool


class WheelChances(TypedDict):
    """A colour's chance of success, and the luck held afterwards on average."""

    color: Colour
    p_success: Chance
    p_success_exact: Exact
    expected_white: Annotated[float, Shape(minimum=0)]
    expected_white_exact: Exact
    expected_black: Annotated[float, Shape(minimum=0)]
    expected_black_exact: Exact
    policy: Policy


class WheelChancesAll(TypedDict):
    """Every colour's chances (--all)."""

    odds: list[WheelChances]
