"""Exact odds, in fractions: a ClockWorx guess, and a Color Wheel action with its redraws.

Both are computed by running the rules themselves over every case, weighted by
its chance, so the odds can never drift from what the commands do. The Color
Wheel's redraw chain (keep a die, the GM refills from a finite reserve, draw
again) is a finite Markov chain whose every step moves a die out of the bag or
reserve; it always ends, and summing over its paths gives the exact chance.
Keeping many dice makes a chain that would take minutes to sum: its size is
checked first, and such a chain refused.
"""

from __future__ import annotations

from fractions import Fraction

from cwx import clockworx, colorwheel
from cwx.colorwheel import Step, Table
from cwx.errors import BadValue, RuleForbids
from cwx.record import Record


class ClockOdds(Record):
    """A guess against a target picked uniformly from the clock face."""

    score: int | None
    p_success: Fraction
    p_critical: Fraction
    expected_xp: Fraction


class Policy(Record):
    """How the player answers: keep whites, keep blacks, spend a white on a failure."""

    keep_white: bool = False
    keep_black: bool = False
    spend_white: bool = False


class WheelOdds(Record):
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
    _refuse_a_long_chain(table, policy)
    success, white, black = _chain(table, colour, policy)
    return WheelOdds(colour, policy, success, white, black)


# The most whites and blacks the player may keep, bag and reserve together, for odds cwx
# will sum. A table of the chain is the first with some whites and some blacks moved to the
# character, so there are at most (whites + 1) x (blacks + 1) of them, the most when the
# dice are half of each: 81 x 81, each summed over fractions that grow as the chain deepens.
# Measured, `cwx odds wheel --all` on that takes 1.3 s (2 s with 2**62 red, yellow and blue
# dice in the bag); 251 of each took 14 s, 1,001 of each 43 s and 1 GB for one colour.
MOST_KEPT = 160


def _refuse_a_long_chain(table: Table, policy: Policy) -> None:
    """Refuse, before any work, a chain that would take more than a couple of seconds to sum."""
    whites = table.bag.white + table.reserve.white if _keeps(table, "white", policy) else 0
    blacks = table.bag.black + table.reserve.black if _keeps(table, "black", policy) else 0
    if whites + blacks <= MOST_KEPT:
        return
    from cwx.ink import plural

    dice = " and ".join(plural(n, die) for n, die in ((whites, "white"), (blacks, "black")) if n)
    raise BadValue(
        f"the odds of keeping dice from {dice} (bag and reserve together) would take too long to "
        f"compute exactly; cwx computes them for up to {MOST_KEPT} whites and blacks that may be "
        "kept: ask about a smaller bag or reserve, or without --keep-white or --keep-black"
    )


def _chain(start: Table, colour: str, policy: Policy) -> tuple[Fraction, Fraction, Fraction]:
    """(chance of success, expected whites held, expected blacks held) from `start`,
    each table of the chain's acyclic graph summed once those it leads to are, on a stack
    of our own (the chain outgrows Python's when many dice may be kept)."""
    done: dict[Table, tuple[Fraction, Fraction, Fraction]] = {}
    drawing: dict[Table, list[tuple[int, Step]]] = {}  # tables waiting for the ones they lead to
    stack = [start]
    while stack:
        table = stack[-1]
        if table in done:
            stack.pop()
            continue
        steps = drawing.get(table)
        if steps is None:
            steps = drawing[table] = _steps(table, colour, policy)
            later = [s.table for _, s in steps if s.outcome == "again" and s.table not in done]
            if later:
                stack.extend(later)
                continue
        del drawing[table]
        # Weighted by how many of each die the bag holds; one division by its total at the end.
        success: Fraction | int = 0
        white: Fraction | int = 0
        black: Fraction | int = 0
        for count, step in steps:
            then = done[step.table] if step.outcome == "again" else _end(step, policy)
            success += count * then[0]
            white += count * then[1]
            black += count * then[2]
        total = table.bag.total
        done[table] = Fraction(success, total), Fraction(white, total), Fraction(black, total)
        stack.pop()
    return done[start]


def _steps(table: Table, colour: str, policy: Policy) -> list[tuple[int, Step]]:
    """Each die the bag can give, how many of it there are, and the step it makes."""
    if table.bag.total == 0:
        raise RuleForbids("under this policy the bag can run empty mid-action; "
                          "put more dice in it")
    return [(table.bag.of(die), colorwheel.step(table, colour, die, _keeps(table, die, policy)))
            for die in colorwheel.DICE if table.bag.of(die)]


def _keeps(table: Table, die: str, policy: Policy) -> bool:
    """The policy's answer to the question this die would put, drawn now."""
    question = colorwheel.question_for(table, die)
    return (question == "keep-white" and policy.keep_white) or (
        question == "keep-black" and policy.keep_black)


def _end(step: Step, policy: Policy) -> tuple[int, int, int]:
    """(success, whites held, blacks held) once the action has ended, after any white spent."""
    success, held = step.outcome == "success", step.table.held
    if not success and policy.spend_white and held.white > 0:
        held = colorwheel.spend(step.table).held
        success = True
    return int(success), held.white, held.black
