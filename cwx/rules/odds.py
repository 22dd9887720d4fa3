"""Exact odds, in fractions: a ClockWorx guess, and a Color Wheel action with its redraws.

A ClockWorx guess is computed by running the rules over every target. The Color Wheel's
redraw chain (keep a die, the GM refills from a finite reserve, draw again) is a finite
Markov chain; while the reserve refills the bag its steps repeat, so it is summed by
phases in closed form (below), and the tests hold it equal to the plain recursion over
the rules themselves (tests/test_odds.py) on thousands of tables.
"""

from __future__ import annotations

from fractions import Fraction

from cwx.base.errors import BadValue, RuleForbids
from cwx.base.record import Record
from cwx.rules import clockworx, colorwheel
from cwx.rules.colorwheel import Table


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
    success, white, black = _phases(table, colour, policy)
    return WheelOdds(colour, policy, success, white, black)


# The most whites and blacks the player may keep, bag and reserve together, for odds cwx
# will sum, and the most digits the exact fractions may run to. Summed by phases (below),
# the work grows with the digits: the chances raised to the reserve's power, a factor a
# white the bag itself gives up. Measured (python bench/hostile.py), the slowest tables
# within these bounds take under a second.
MOST_KEPT = 5_000
MOST_DIGITS = 30_000
MOST_GIVEN_UP = 600  # whites the bag itself gives up, one a keep: a step of the sum each
# Those whites times the blacks a reserve refills after each: a long fraction each step.
MOST_REFILLS = 5_000
# Those whites times the digits: each step sums fractions as long as the whole (red
# 2**62, 600 whites and 900 blacks, a reserve of 380 and 1, within the others: 1.6 s).
MOST_STEP_DIGITS = 6_000_000


def _refuse_a_long_chain(table: Table, policy: Policy) -> None:
    """Refuse, before any work, a chain that would take more than a couple of seconds to sum."""
    whites = table.bag.white + table.reserve.white if _keeps(table, "white", policy) else 0
    blacks = table.bag.black + table.reserve.black if _keeps(table, "black", policy) else 0
    if whites + blacks <= MOST_KEPT:
        given_up = table.bag.white if _keeps(table, "white", policy) else 0
        refills = table.reserve.black if _keeps(table, "black", policy) else 0
        if given_up > MOST_GIVEN_UP or given_up * refills > MOST_REFILLS:
            raise BadValue(
                f"the exact odds of keeping whites from a bag of {given_up:,} would take too "
                f"long to compute; cwx computes them for up to {MOST_GIVEN_UP:,} whites in the "
                f"bag, and up to {MOST_REFILLS:,} whites in the bag times blacks in the reserve: "
                "ask about a smaller bag or reserve, or without --keep-white")
        digits = _digits(table, policy)
        if given_up * digits > MOST_STEP_DIGITS:
            raise BadValue(
                f"the exact odds of keeping whites from a bag of {given_up:,} would run to "
                f"about {digits:,} digits, summed {given_up:,} times; cwx computes them up to "
                f"{MOST_STEP_DIGITS:,} for the whites in the bag times the digits: ask about "
                "a smaller bag or reserve, or without --keep-white")
        if digits > MOST_DIGITS:
            raise BadValue(
                f"the exact odds of keeping dice from this bag and reserve would run to about "
                f"{digits:,} digits; cwx computes them up to {MOST_DIGITS:,} digits: ask about "
                "a smaller bag or reserve, or without --keep-white or --keep-black")
        return
    from cwx.base.ink import plural

    dice = " and ".join(plural(n, die) for n, die in ((whites, "white"), (blacks, "black")) if n)
    raise BadValue(
        f"the odds of keeping dice from {dice} (bag and reserve together) would take too long to "
        f"compute exactly; cwx computes them for up to {MOST_KEPT} whites and blacks that may be "
        "kept: ask about a smaller bag or reserve, or without --keep-white or --keep-black"
    )


def _digits(table: Table, policy: Policy) -> int:
    """About how many digits the exact odds can run to (an upper bound): each chance has
    the digits of the dice on the table; the whites the bag gives up, one a keep, each
    bring a factor, each with the blacks' reserve run at its own chances."""
    bag, reserve = table.bag, table.reserve
    bits = (bag.total + reserve.white + reserve.black).bit_length()
    keeps_white = _keeps(table, "white", policy)
    whites = reserve.white if keeps_white else 0
    blacks = reserve.black if _keeps(table, "black", policy) else 0
    given_up = bag.white if keeps_white else 0
    return bits * (given_up * (1 + blacks) + whites + blacks + 1) * 3 // 10


def _keeps(table: Table, die: str, policy: Policy) -> bool:
    """The policy's answer to the question this die would put, drawn now."""
    question = colorwheel.question_for(table, die)
    return (question == "keep-white" and policy.keep_white) or (
        question == "keep-black" and policy.keep_black)


# ---------------------------------------------------------------- the chain by its phases
#
# Holding no black, the player keeps whites; a kept white is replaced from the reserve
# while it lasts, so the bag, and every chance, stays as it was, and the steps repeat but
# for the whites held. Once the reserve is out, the bag loses a white a keep. A black
# kept (or held from the start) begins the second phase: from then a white is cancelled
# (W4), and blacks are kept the same way. Each phase is a run of identical steps, summed
# in closed form (geometric series: a reserve of thousands is as quick as one of ten),
# then the bag's own dice, step by step. Every figure stays an exact fraction.

_EMPTY = "under this policy the bag can run empty mid-action; put more dice in it"


def _geometric(p: Fraction, n: int) -> tuple[Fraction, Fraction]:
    """(sum of p**i, sum of i * p**i), i from 0 to n - 1."""
    if n <= 0:
        return Fraction(0), Fraction(0)
    if p == 1:
        return Fraction(n), Fraction(n * (n - 1), 2)
    power = p ** n
    return (1 - power) / (1 - p), (p - n * power + (n - 1) * power * p) / (1 - p) ** 2


class _Ends(Record):
    """A second phase, from its first step, summed over its ends."""

    success: Fraction
    spent: Fraction  # the chance a white is spent on a failure
    gained: Fraction  # blacks kept in it, expected
    cancelled: Fraction  # the chance a white cancels a held black (W4)


def _second(s: int, f: int, white: int, black: int, reserve: int, keep: bool,
            spending: bool) -> _Ends:
    """A black held: `s` and `f` dice that win and lose, `white` whites (each cancelled),
    `black` blacks (kept if `keep`, replaced while the `reserve` lasts)."""
    success = spent = gained = cancelled = Fraction(0)
    reach = Fraction(1)
    lose = f + white + (0 if keep else black)  # the dice that end it in failure
    won = s + (lose if spending else 0)
    paid = lose if spending else 0
    if keep and reserve > 0 and black > 0:  # identical steps while the reserve lasts
        total = s + f + white + black
        p = Fraction(black, total)
        run, _ = _geometric(p, reserve)
        success += run * Fraction(won, total)
        spent += run * Fraction(paid, total)
        cancelled += run * Fraction(white, total)
        gained += p * run
        reach = p ** reserve
    if reach:  # then the bag's own blacks, one fewer a keep, till a die that is not one
        ends = s + f + white + (0 if keep else black)  # the dice that end it
        if ends == 0:
            raise RuleForbids(_EMPTY)
        # Drawn without replacement, the first die that ends it is any of them alike, and
        # the blacks before it number black / (ends + 1) on average.
        success += reach * Fraction(won, ends)
        spent += reach * Fraction(paid, ends)
        cancelled += reach * Fraction(white, ends)
        if keep:
            gained += reach * Fraction(black, ends + 1)
    return _Ends(success, spent, gained, cancelled)


class _Step(Record):
    """One step of the first phase, weighted by its chances: what its ends give, and the
    chance of going on (a white kept)."""

    success: Fraction
    spent: Fraction
    ending: Fraction  # the chance it ends the action (each end keeps the whites held)
    blacks: Fraction  # blacks held at its ends, weighted
    on: Fraction


def _phases(table: Table, colour: str, policy: Policy) -> tuple[Fraction, Fraction, Fraction]:
    """(chance of success, expected whites held, expected blacks held) from `table`."""
    bag, reserve, held = table.bag, table.reserve, table.held
    s = sum(bag.of(d) for d in colorwheel.PRIMARY if colorwheel.wins(colour, d))
    f = sum(bag.of(d) for d in colorwheel.PRIMARY) - s
    if bag.total == 0:
        raise RuleForbids(_EMPTY)
    if held.black > 0:  # a white is cancelled from the first draw
        ends = _second(s, f, bag.white, bag.black, reserve.black, policy.keep_black,
                       policy.spend_white and held.white > 0)
        return ends.success, held.white - ends.spent, held.black + ends.gained - ends.cancelled
    seconds: dict[tuple[int, bool], _Ends] = {}

    def step(whites: int, holding: int) -> _Step:
        spending = policy.spend_white and holding > 0
        total = s + f + whites + bag.black
        if total == 0:
            raise RuleForbids(_EMPTY)
        won = s + (0 if policy.keep_white else whites)
        lost = f + (0 if policy.keep_black else bag.black)
        kept_black = bag.black if policy.keep_black else 0
        then = _Ends(Fraction(0), Fraction(0), Fraction(0), Fraction(0))
        if kept_black:  # replaced from the reserve if it can be; one black held
            key = (whites, spending)
            if key not in seconds:
                seconds[key] = _second(s, f, whites, bag.black - (0 if reserve.black else 1),
                                       max(reserve.black - 1, 0), True, spending)
            then = seconds[key]
        black_share = Fraction(kept_black, total)
        return _Step(Fraction(won + (lost if spending else 0), total) + black_share * then.success,
                     Fraction(lost if spending else 0, total) + black_share * then.spent,
                     Fraction(won + lost + kept_black, total),
                     black_share * (1 + then.gained - then.cancelled),
                     Fraction(whites, total) if policy.keep_white else Fraction(0))

    # Each run of steps: what it gives if reached, and the chance it goes on to the next.
    # Summed from the last run back (each sum a small fraction times the one after it, plus
    # a small fraction): summed from the first, every term was a long fraction added to a
    # long fraction, and a bag of thousands of whites took minutes.
    runs: list[tuple[Fraction, Fraction, Fraction, Fraction]] = []
    on, kept = Fraction(1), 0
    while on:
        whites = bag.white - max(kept - reserve.white, 0)  # replaced while the reserve lasts
        holding = held.white + kept
        one = step(whites, holding)
        # States kept..reserve all have the bag as it is; alike once spending is possible.
        run = reserve.white - kept + 1 if policy.keep_white and kept <= reserve.white and \
            (holding > 0 or not policy.spend_white) else 1
        sums, weighted = _geometric(one.on, run) if run > 1 else (Fraction(1), Fraction(0))
        on = one.on ** run
        runs.append((sums * one.success,
                     (one.ending * holding - one.spent) * sums + one.ending * weighted,
                     sums * one.blacks, on))
        kept += run
        if whites == 0 and kept > reserve.white:
            break
    success = white_held = black_held = Fraction(0)
    for run_success, run_white, run_black, run_on in reversed(runs):
        success = run_success + run_on * success
        white_held = run_white + run_on * white_held
        black_held = run_black + run_on * black_held
    return success, white_held, black_held
