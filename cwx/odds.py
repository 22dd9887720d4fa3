"""Exact odds, in fractions: a ClockWorx guess, and a Color Wheel action with its redraws.

Both are computed by running the rules themselves over every case, weighted by
its chance, so the odds can never drift from what the commands do. The Color
Wheel's redraw chain (keep a die, the GM refills from a finite reserve, draw
again) is a finite Markov chain whose every step moves a die out of the bag or
reserve; it always ends, and summing over its paths gives the exact chance.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import NamedTuple

from cwx import clockworx, colorwheel
from cwx.colorwheel import Table
from cwx.errors import RuleForbids


class ClockOdds(NamedTuple):
    """A guess against a target picked uniformly from the clock face."""

    score: int | None
    p_success: Fraction
    p_critical: Fraction
    expected_xp: Fraction


class Policy(NamedTuple):
    """How the player answers: keep whites, keep blacks, spend a white on a failure."""

    keep_white: bool = False
    keep_black: bool = False
    spend_white: bool = False


class WheelOdds(NamedTuple):
    """One action of a colour, from one table, under one policy."""

    colour: str
    policy: Policy
    p_success: Fraction
    expected_white: Fraction  # held afterwards
    expected_black: Fraction


def clock(score: int | None) -> ClockOdds:
    """Exact odds of one guess, trained with `score` or untrained (None)."""
    targets = range(1, clockworx.CLOCK + 1)
    outcomes = [clockworx.resolve(target, 1, score) for target in targets]
    share = Fraction(1, clockworx.CLOCK)
    return ClockOdds(
        score,
        share * sum(o.success for o in outcomes),
        share * sum(o.critical for o in outcomes),
        share * sum(o.xp for o in outcomes),
    )


def wheel(table: Table, colour: str, policy: Policy = Policy()) -> WheelOdds:
    """Exact odds of one action of `colour` from `table`, the player following `policy`."""
    colour = colorwheel.colour_named(colour)
    if table.bag.total == 0:
        raise RuleForbids("the bag is empty; there is nothing to draw")
    success, white, black = _chain(table, colour, policy)
    return WheelOdds(colour, policy, success, white, black)


@cache
def _chain(table: Table, colour: str, policy: Policy) -> tuple[Fraction, Fraction, Fraction]:
    """(chance of success, expected whites held, expected blacks held) from this table."""
    total = table.bag.total
    if total == 0:
        raise RuleForbids("under this policy the bag can run empty mid-action; "
                          "put more dice in it")
    success = white = black = Fraction(0)
    for die in colorwheel.DICE:
        count = table.bag.of(die)
        if not count:
            continue
        chance = Fraction(count, total)
        question = colorwheel.question_for(table, die)
        keep = (question == "keep-white" and policy.keep_white) or (
            question == "keep-black" and policy.keep_black)
        step = colorwheel.step(table, colour, die, keep)
        if step.outcome == "again":
            then = _chain(step.table, colour, policy)
        else:
            then = _end(step.table, step.outcome == "success", policy)
        success += chance * then[0]
        white += chance * then[1]
        black += chance * then[2]
    return success, white, black


def _end(table: Table, success: bool, policy: Policy) -> tuple[Fraction, Fraction, Fraction]:
    held = table.held
    if not success and policy.spend_white and held.white > 0:
        held = colorwheel.spend(table).held
        success = True
    return Fraction(int(success)), Fraction(held.white), Fraction(held.black)
