"""`cwx audit`: is the table's physical bag fair?

When the table draws real dice and records them (`bag draw --drawn`), the journal knows
what the bag held at every draw and what came out. Each die drawn had an exact chance of
each colour (its count in the bag over the bag's total, at that moment: the journal
folded up to the draw, replayed die by die, never today's file); summed over the draws
they give each colour's expected count, set beside the observed count by Pearson's
chi-square test. Cells expected fewer than MIN_EXPECTED times are merged, as the test
requires; too few draws for two cells, and it says how many more it needs.

The chi-square distribution's tail is the regularised upper incomplete gamma function,
a few lines here (Numerical Recipes' series and continued fraction): no dependency.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from cwx.base.errors import CwxError
from cwx.base.record import Record
from cwx.journal import ledger
from cwx.journal import lines as journal
from cwx.rules import colorwheel
from cwx.toml import tomlread

if TYPE_CHECKING:
    from cwx.campaign.results import Audited

MIN_EXPECTED = 5  # the least expected count of a cell the chi-square test trusts
LEVEL = 0.05  # a p-value below this is a sign of bias
OUTCOMES = colorwheel.DICE  # red, yellow, blue, white, black
DRAW = "bag draw"


class Cell(Record):
    outcome: str  # a die's colour, or several merged ("yellow+black")
    observed: int
    expected: float


class Audit(Record):
    draws: int  # actions audited
    dice: int  # dice drawn in them
    cells: tuple[Cell, ...]  # one a colour, before merging
    tested: tuple[Cell, ...]  # the cells the test used (small ones merged)
    chi_square: float | None
    df: int | None
    p_value: float | None
    verdict: str
    needed: int | None = None  # more dice drawn the test needs (None: enough)
    skipped: int = 0  # recorded draws the journal could not replay

    def as_json(self) -> Audited:
        return {"draws": self.draws, "dice": self.dice,
                "cells": [{"outcome": c.outcome, "observed": c.observed,
                           "expected": round(c.expected, 6)} for c in self.cells],
                "tested": [{"outcome": c.outcome, "observed": c.observed,
                            "expected": round(c.expected, 6)} for c in self.tested],
                # JSON has no infinity: a colour drawn where the bag held none is null,
                # and the verdict says why.
                "chi_square": None if self.chi_square == math.inf else self.chi_square,
                "df": self.df, "p_value": self.p_value,
                "verdict": self.verdict, "needed": self.needed, "skipped": self.skipped}


# ---------------------------------------------------------------- the test


class Tally(Record):
    """The dice drawn, counted: each outcome's observed count and expected count."""

    observed: Mapping[str, int]
    expected: Mapping[str, float]
    dice: int


def test(observations: Iterable[tuple[Mapping[str, Fraction], str]], draws: int = 0,
         skipped: int = 0) -> Audit:
    """Pearson's chi-square over dice drawn: each with its chance of every outcome at that
    moment, and the outcome that came."""
    observed = dict.fromkeys(OUTCOMES, 0)
    expected = dict.fromkeys(OUTCOMES, 0.0)
    dice = 0
    for chances, came in observations:
        dice += 1
        observed[came] += 1
        for outcome, chance in chances.items():
            expected[outcome] += float(chance)
    return tested(Tally(observed, expected, dice), draws, skipped)


def tested(tally: Tally, draws: int = 0, skipped: int = 0) -> Audit:
    """Pearson's chi-square over the dice counted in `tally`."""
    observed, expected, dice = tally
    cells = tuple(Cell(o, observed[o], expected[o]) for o in OUTCOMES if expected[o] > 0 or
                  observed[o])
    tested = merged(cells)
    if len(tested) < 2:
        needed = _needed(cells, dice)
        return Audit(draws, dice, cells, tested, None, None, None,
                     f"too few dice drawn for the test: about {needed} more recorded dice "
                     f"are needed (each colour expected {MIN_EXPECTED} times or more)",
                     needed, skipped)
    if any(cell.expected == 0 and cell.observed for cell in tested):
        impossible = [c.outcome for c in tested if c.expected == 0 and c.observed]
        return Audit(draws, dice, cells, tested, math.inf, len(tested) - 1, 0.0,
                     f"{', '.join(impossible)} came out where the bag held none: the record "
                     "or the bag is wrong", None, skipped)
    chi = sum((c.observed - c.expected) ** 2 / c.expected for c in tested)
    df = len(tested) - 1
    p = upper_tail(chi, df)
    return Audit(draws, dice, cells, tested, round(chi, 6), df, p, verdict(cells, p), None,
                 skipped)


def merged(cells: Sequence[Cell]) -> tuple[Cell, ...]:
    """The cells, those expected fewer than MIN_EXPECTED times merged together (into the
    smallest of the others while still too small)."""
    big = sorted((c for c in cells if c.expected >= MIN_EXPECTED), key=lambda c: c.expected)
    small = [c for c in cells if c.expected < MIN_EXPECTED]
    if not small:
        return tuple(big)
    pooled = Cell("+".join(c.outcome for c in small), sum(c.observed for c in small),
                  sum(c.expected for c in small))
    while pooled.expected < MIN_EXPECTED and big:
        other = big.pop(0)
        pooled = Cell(f"{pooled.outcome}+{other.outcome}", pooled.observed + other.observed,
                      pooled.expected + other.expected)
    return tuple([*big, pooled]) if pooled.expected >= MIN_EXPECTED else tuple(big)


def _needed(cells: Sequence[Cell], dice: int) -> int:
    """More dice for two cells of MIN_EXPECTED: the second likeliest outcome's share."""
    if dice == 0:
        return 2 * MIN_EXPECTED
    shares = sorted((c.expected / dice for c in cells), reverse=True)
    second = shares[1] if len(shares) > 1 else shares[0]
    return max(1, math.ceil(MIN_EXPECTED / second) - dice) if second else 2 * MIN_EXPECTED


def verdict(cells: Sequence[Cell], p: float) -> str:
    """In plain words: no sign of bias, or which colour came out how often against the
    expected, with the p-value."""
    if p >= LEVEL:
        return f"no sign of a biased bag (p = {p_shown(p)})"
    worst = max(cells, key=lambda c: abs(c.observed - c.expected) / math.sqrt(c.expected)
                if c.expected else 0.0)
    plural = "whites" if worst.outcome == "white" else "blacks" if worst.outcome == "black" \
        else f"{worst.outcome} dice"
    if worst.observed < worst.expected:
        return (f"{plural} came out {worst.observed} times where {worst.expected:.1f} were "
                f"expected, p = {p_shown(p)}")
    return f"{plural} came out {worst.observed / worst.expected:.2g}× as often as expected, " \
           f"p = {p_shown(p)}"


def p_shown(p: float) -> str:
    """A p-value as every line of an audit shows it: two significant digits (0.10, 0.048,
    1.2e-05), the same in the verdict as in the figures."""
    return f"{p:#.2g}"


def upper_tail(chi: float, df: int) -> float:
    """P(X >= chi) for X chi-square with `df` degrees of freedom: Q(df/2, chi/2)."""
    if chi <= 0:
        return 1.0
    return _gamma_q(df / 2, chi / 2)


def _gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x)."""
    if x < a + 1:  # the series for P converges fast here
        term = total = 1 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    # Lentz's continued fraction for Q
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


# ---------------------------------------------------------------- the journal's draws


class Dice(Record):
    """The dice of the audited draws, counted with their chances at each moment."""

    tally: Tally
    draws: int
    skipped: int


def from_journal(path: str, bag: str | None, *, start: str = "", end: str = "\uffff",
                 every: bool = False) -> Dice:
    """The recorded draws (all draws with `every`) of the journal at `path`, from the bag
    named `bag` (any, if None), stamped between `start` and `end`: the bag, reserve and
    character as the journal says they stood just before each, replayed die by die."""
    from cwx.journal import history

    state: dict[str, dict[str, int]] = {}
    observed = dict.fromkeys(OUTCOMES, 0)
    expected = dict.fromkeys(OUTCOMES, 0.0)
    draws = skipped = dice = 0
    with history.opened(path) as read:
        order = read.played()
        void = order.turns.void()
        undone = order.turns.undone()  # a draw undone was recorded wrong: no evidence
        for event in order.events():
            if event.command == DRAW and event.id not in undone and event.id not in void and \
                    start <= event.when <= end and \
                    (bag is None or event.bag == bag) and \
                    (every or event.result.get("recorded") is True):
                replayed = _replayed(event, state)
                if replayed is None:
                    skipped += 1
                else:
                    draws += 1
                    dice += replayed.dice
                    for outcome in OUTCOMES:
                        observed[outcome] += replayed.observed[outcome]
                        expected[outcome] += replayed.expected[outcome]
            if event.id not in void:
                _apply(event, state)
    return Dice(Tally(observed, expected, dice), draws, skipped)


# The keys a draw is replayed on (_replayed): the bag's and reserve's dice, the blacks
# the character holds. Only these are followed: a journal of a million other keys costs
# the audit nothing.
REPLAYED = frozenset((*(f"bag.{die}" for die in OUTCOMES), "reserve.white", "reserve.black",
                      "luck.black"))


def _apply(event: journal.Event, state: dict[str, dict[str, int]]) -> None:
    """The event's changes to the dice a draw is replayed on (REPLAYED), as the ledger
    folds them."""
    for change in event.changes:
        if change.correction:
            continue
        if change.key is None:
            if change.removed:
                state.pop(change.file, None)
            elif change.text is not None:
                try:
                    values = ledger.values_of(tomlread.loads(change.text))
                except CwxError:
                    continue
                state[change.file] = {k: v for k, v in values.items()
                                      if k in REPLAYED and ledger.is_number(v)}
            continue
        if change.key not in REPLAYED:
            continue
        before, after = change.before or 0, change.after or 0
        if ledger.is_number(before) and ledger.is_number(after):
            values = state.setdefault(change.file, {})
            values[change.key] = values.get(change.key, 0) + after - before


def _replayed(event: journal.Event, state: Mapping[str, Mapping[str, int]]) -> Tally | None:
    """A draw's dice counted with their chances, replayed on the table the journal had;
    None when it cannot be (the rules refuse the dice recorded, or the journal does not
    hold them). The rules allow one shape: whites kept (none while a black is held), then
    blacks kept, then the die that ends the action; a run of dice kept alike is summed at
    once, so a draw of 100,000 recorded whites costs what a few dice do."""
    dice = event.result.get("draws")
    colour = event.result.get("color")
    if not isinstance(dice, list) or not dice or not isinstance(colour, str) or \
            event.file is None or event.bag is None or not all(map(OUTCOMES.__contains__, dice)):
        return None
    try:
        colorwheel.colour_named(colour)
    except CwxError:
        return None
    have, held = state.get(event.bag, {}), state.get(event.file, {})
    bag = {d: have.get(f"bag.{d}", 0) for d in OUTCOMES}
    reserve = {d: have.get(f"reserve.{d}", 0) for d in ("white", "black")}
    blacks = held.get("luck.black", 0)
    if min(*bag.values(), *reserve.values(), blacks) < 0:
        return None  # no table holds fewer than no dice: a journal no cwx wrote
    observed = dict.fromkeys(OUTCOMES, 0)
    expected = dict.fromkeys(OUTCOMES, 0.0)
    left = len(dice)
    for die, run in itertools.groupby(dice):
        count = len(list(run))
        left -= count
        kept = count if left else count - 1  # the action's last die is never kept
        if kept:
            if die not in ("white", "black") or (die == "white" and blacks):
                return None  # this die ends the action, yet more were recorded after it
            if not _kept(bag, reserve, die, kept, expected):
                return None
            blacks += kept if die == "black" else 0
        if not left:  # the die that ends the action
            total = sum(bag.values())
            if bag[die] < 1:
                return None
            for outcome in OUTCOMES:
                expected[outcome] += bag[outcome] / total
        observed[die] += count
    return Tally(observed, expected, len(dice))


def _kept(bag: dict[str, int], reserve: dict[str, int], die: str, kept: int,
          expected: dict[str, float]) -> bool:
    """`kept` dice of one colour drawn and kept in a row, each replaced from the reserve
    while it lasts (W4), their chances added to `expected` and the bag and reserve moved
    on; False if the bag runs out of them first."""
    refilled = min(kept, reserve[die])
    unreplaced = kept - refilled  # the bag holds one fewer after each of these
    if bag[die] < unreplaced + (0 if unreplaced else 1):
        return False
    total = sum(bag.values())
    # A die's chance of each colour at the draw, over its chance from the bag as it was:
    # total / (total - i) after i dice went unreplaced, summed over the run.
    same = min(kept, refilled + 1)
    scale = same + math.fsum(map(total.__truediv__, range(total - 1, total - 1 - kept + same, -1)))
    for outcome in OUTCOMES:
        if outcome != die:
            expected[outcome] += bag[outcome] / total * scale
    expected[die] += kept - (total - bag[die]) / total * scale
    bag[die] -= unreplaced
    reserve[die] -= refilled
    return True
