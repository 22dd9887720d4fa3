"""Exact odds against hand-worked cases and against the real draw code run many times."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from cwx import clockworx, colorwheel, odds
from cwx.colorwheel import Bag, Luck, Table
from cwx.odds import Policy
from tests.helpers import cwx

NEW_BAG = Table(Bag(), Luck(10, 10), Luck())
MONTE_CARLO_DRAWS = 20_000
# Agreement required: within 4.5 standard errors (a false alarm about once in 150,000 runs).
SIGMAS = 4.5


# ---------------------------------------------------------------- hand-worked cases

@pytest.mark.parametrize(("score", "success", "critical", "xp"), [
    (None, Fraction(1, 12), Fraction(0), Fraction(0)),
    (1, Fraction(3, 12), Fraction(1, 12), Fraction(2, 12)),            # 2 + 0 + 0
    (3, Fraction(7, 12), Fraction(1, 12), Fraction(6 + 2 * 2 + 2 * 1, 12)),
    (6, Fraction(1), Fraction(1, 12), Fraction(12 + 2 * (5 + 4 + 3 + 2 + 1), 12)),
])
def test_clock_odds_by_hand(score: int | None, success: Fraction, critical: Fraction,
                            xp: Fraction) -> None:
    result = odds.clock(score)
    assert (result.p_success, result.p_critical, result.expected_xp) == (success, critical, xp)


@pytest.mark.parametrize(("colour", "held", "chance"), [
    ("red", Luck(), Fraction(2, 5)),       # red or white of five
    ("blue", Luck(), Fraction(2, 5)),
    ("purple", Luck(), Fraction(3, 5)),    # red, blue or white
    ("green", Luck(), Fraction(3, 5)),
    ("red", Luck(0, 1), Fraction(1, 5)),   # a held black cancels the white
    ("orange", Luck(0, 3), Fraction(2, 5)),
])
def test_wheel_odds_by_hand(colour: str, held: Luck, chance: Fraction) -> None:
    assert odds.wheel(Table(Bag(), Luck(10, 10), held), colour).p_success == chance


def test_keeping_whites_from_an_empty_reserve_by_hand() -> None:
    # Bag: red, yellow, blue, white; no reserve. Keep the white: it leaves the bag, draw again.
    table = Table(Bag(1, 1, 1, 1, 0), Luck(0, 0), Luck())
    result = odds.wheel(table, "red", Policy(keep_white=True))
    # 1/4 red at once; 1/4 white then 1/3 red from the three left.
    assert result.p_success == Fraction(1, 4) + Fraction(1, 4) * Fraction(1, 3)
    assert result.expected_white == Fraction(1, 4)


def test_spending_white_adds_the_failures_it_can_buy() -> None:
    table = Table(Bag(), Luck(10, 10), Luck(1, 0))
    plain = odds.wheel(table, "red").p_success
    spent = odds.wheel(table, "red", Policy(spend_white=True))
    assert plain == Fraction(2, 5) and spent.p_success == 1
    assert spent.expected_white == Fraction(2, 5)


# ---------------------------------------------------------------- Monte-Carlo agreement

def _simulate(table: Table, colour: str, policy: Policy, draws: int,
              seed: int) -> tuple[float, float, float]:
    rng = random.Random(seed)
    source = colorwheel.random_die(rng)

    def choose(question: str, _: Table) -> bool:
        return (question == "keep-white" and policy.keep_white) or (
            question == "keep-black" and policy.keep_black)

    wins = whites = blacks = 0
    for _ in range(draws):
        result = colorwheel.draw(table, colour, source, choose, spend_white=policy.spend_white)
        wins += result.success
        whites += result.after.held.white
        blacks += result.after.held.black
    return wins / draws, whites / draws, blacks / draws


CASES = [
    (NEW_BAG, "red", Policy()),
    (NEW_BAG, "purple", Policy(keep_white=True, keep_black=True)),
    (NEW_BAG, "green", Policy(keep_white=True)),
    (NEW_BAG, "blue", Policy(keep_black=True, spend_white=True)),
    (Table(Bag(), Luck(2, 1), Luck(0, 1)), "orange", Policy(True, True, True)),
    (Table(Bag(2, 1, 1, 3, 2), Luck(0, 0), Luck(0, 0)), "yellow", Policy(keep_white=True)),
]


@pytest.mark.parametrize(("table", "colour", "policy"), CASES)
def test_exact_wheel_odds_agree_with_the_real_draw_code(table: Table, colour: str,
                                                         policy: Policy) -> None:
    exact = odds.wheel(table, colour, policy)
    p, white, black = _simulate(table, colour, policy, MONTE_CARLO_DRAWS, seed=1129)
    error = SIGMAS * math.sqrt(float(exact.p_success * (1 - exact.p_success))
                               / MONTE_CARLO_DRAWS)
    print(f"{colour} {policy}: exact {float(exact.p_success):.4f}, simulated {p:.4f}, "
          f"difference {abs(p - float(exact.p_success)):.4f} (allowed {error:.4f})")
    assert abs(p - float(exact.p_success)) <= max(error, 1e-9)
    # Held dice per action are small counts; their means agree to a few hundredths.
    assert abs(white - float(exact.expected_white)) <= 0.05
    assert abs(black - float(exact.expected_black)) <= 0.05


@pytest.mark.parametrize("score", [None, 1, 2, 3, 4, 5, 6])
def test_exact_clock_odds_agree_with_the_real_resolve(score: int | None) -> None:
    rng = random.Random(4)
    n = MONTE_CARLO_DRAWS
    results = [clockworx.resolve(clockworx.pick(rng), rng.randint(1, 12), score)
               for _ in range(n)]
    exact = odds.clock(score)
    p = sum(r.success for r in results) / n
    xp = sum(r.xp for r in results) / n
    error = SIGMAS * math.sqrt(float(exact.p_success * (1 - exact.p_success)) / n)
    assert abs(p - float(exact.p_success)) <= max(error, 1e-9)
    assert abs(xp - float(exact.expected_xp)) <= 0.1


# ---------------------------------------------------------------- the commands

def test_odds_clock_json() -> None:
    ran = cwx("odds", "clock", "--score", 3, "--json")
    assert ran.json["p_success_exact"] == "7/12"
    assert ran.json["p_success"] == pytest.approx(7 / 12)
    assert ran.json["expected_xp"] == 1.0
    untrained = cwx("odds", "clock", "--json").json
    assert untrained["p_success_exact"] == "1/12" and untrained["score"] is None


def test_odds_clock_all_is_a_table_of_every_score() -> None:
    ran = cwx("odds", "clock", "--all", "--json")
    assert [row["score"] for row in ran.json["odds"]] == [None, 1, 2, 3, 4, 5, 6]
    assert "untrained" in cwx("odds", "clock", "--all").stdout


def test_odds_wheel_json_and_bag(campaign: object) -> None:
    ran = cwx("odds", "wheel", "--color", "Purple", "--json")
    assert ran.json["p_success_exact"] == "3/5" and ran.json["color"] == "purple"
    black = cwx("odds", "wheel", "--color", "red", "--black", 1, "--json").json
    assert black["p_success_exact"] == "1/5"
    from pathlib import Path

    assert isinstance(campaign, Path)
    bag = campaign / "bag.toml"
    bag.write_text(bag.read_text().replace("white = 1\n", "white = 3\n", 1))
    assert cwx("odds", "wheel", "--color", "red", "--bag", bag,
               "--json").json["p_success_exact"] == "4/7"


def test_odds_wheel_all_and_errors() -> None:
    rows = cwx("odds", "wheel", "--all", "--keep-white", "--json").json["odds"]
    assert [row["color"] for row in rows] == list(colorwheel.COLOURS)
    assert cwx("odds", "wheel").status == 2
    assert "not a colour" in cwx("odds", "wheel", "--color", "teal").error
