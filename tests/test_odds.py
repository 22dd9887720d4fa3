"""Exact odds against hand-worked cases and against the real draw code run many times."""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cwx.base.errors import BadValue, RuleForbids
from cwx.rules import clockworx, colorwheel, odds
from cwx.rules.colorwheel import Bag, Luck, Table
from cwx.rules.odds import Policy
from tests.helpers import cpu_seconds, cwx

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


# ---------------------------------------------------------------- the chain, without recursion

@cache
def _reference(table: Table, colour: str, policy: Policy) -> tuple[Fraction, Fraction, Fraction]:
    """The chain summed the plainest way, by recursion: what odds.wheel computed before."""
    if table.bag.total == 0:
        raise RuleForbids("the bag ran empty")
    success = white = black = Fraction(0)
    for die in colorwheel.DICE:
        if not table.bag.of(die):
            continue
        question = colorwheel.question_for(table, die)
        keep = (question == "keep-white" and policy.keep_white) or (
            question == "keep-black" and policy.keep_black)
        step = colorwheel.step(table, colour, die, keep)
        if step.outcome == "again":
            then = _reference(step.table, colour, policy)
        else:
            won, held = step.outcome == "success", step.table.held
            if not won and policy.spend_white and held.white:
                won, held = True, colorwheel.spend(step.table).held
            then = (Fraction(won), Fraction(held.white), Fraction(held.black))
        chance = Fraction(table.bag.of(die), table.bag.total)
        success += chance * then[0]
        white += chance * then[1]
        black += chance * then[2]
    return success, white, black


SMALL = st.integers(0, 4)
SMALL_TABLES = st.builds(Table, st.builds(Bag, SMALL, SMALL, SMALL, SMALL, SMALL),
                         st.builds(Luck, SMALL, SMALL), st.builds(Luck, st.integers(0, 2),
                                                                  st.integers(0, 2)))


@given(SMALL_TABLES, st.sampled_from(colorwheel.COLOURS), st.builds(Policy, st.booleans(),
                                                                     st.booleans(), st.booleans()))
def test_the_chain_sums_to_the_reference_recursion(table: Table, colour: str, policy: Policy) -> None:
    try:
        expected: object = _reference(table, colour, policy)
    except RuleForbids:
        expected = RuleForbids
    try:
        result = odds.wheel(table, colour, policy)
        got: object = (result.p_success, result.expected_white, result.expected_black)
    except RuleForbids:
        got = RuleForbids
    assert got == expected


def test_a_chain_deeper_than_pythons_stack_is_summed(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only the limit stops a chain this long; the sum itself never recurses.
    spare = sys.getrecursionlimit() * 3
    monkeypatch.setattr(odds, "MOST_KEPT", spare + 1)
    table = Table(Bag(), Luck(spare, 0), Luck())
    result = odds.wheel(table, "red", Policy(keep_white=True))
    # Red at once (1/5), or k whites kept first (1/5 each) and then red; once the reserve
    # is out and the last white is kept, red is one die of the four left.
    fifth = Fraction(1, 5)
    assert result.p_success == (sum(fifth ** k * fifth for k in range(spare + 1))
                                + fifth ** (spare + 1) * Fraction(1, 4))
    assert result.expected_white == sum(fifth ** k for k in range(1, spare + 2))


def test_keeping_up_to_the_limit_is_computed_and_one_more_is_refused() -> None:
    half = odds.MOST_KEPT // 2
    keep_both = Policy(keep_white=True, keep_black=True)
    # A new bag holds one white and one black: with the reserve, `half` of each may be kept.
    at_limit = Table(Bag(), Luck(half - 1, half - 1), Luck())
    assert 0 < odds.wheel(at_limit, "red", keep_both).p_success < 1
    with pytest.raises(BadValue, match=f"up to {odds.MOST_KEPT} whites and blacks"):
        odds.wheel(at_limit._replace(reserve=Luck(half, half - 1)), "red", keep_both)


def test_whites_that_cannot_be_kept_do_not_count_towards_the_limit() -> None:
    # Holding a black, a drawn white is cancelled (W4): only the blacks can be kept.
    table = Table(Bag(), Luck(10_000, 10), Luck(0, 1))
    result = odds.wheel(table, "red", Policy(keep_white=True, keep_black=True))
    assert result.p_success == _reference(table, "red", Policy(keep_white=True, keep_black=True))[0]


def _bag_file(folder: Path, bag: int, reserve: int, *, white: int | None = None) -> Path:
    path = folder / "bag.toml"
    dice = "".join(f"{die} = {bag}\n" for die in colorwheel.DICE)
    path.write_text(f"[bag]\n{dice}\n[reserve]\nwhite = {reserve if white is None else white}\n"
                    f"black = {reserve}\n")
    return path


@pytest.mark.parametrize(("args", "bag", "reserve"), [
    (["--color", "red"], 1, 2600),
    (["--all"], 2600, 10),
    (["--all"], 2600, 2600),
    (["--color", "blue"], 1, 2**62),
], ids=["reserve of 2,600", "bag of 2,600", "bag and reserve of 2,600", "reserve of 2**62"])
def test_odds_of_keeping_too_many_dice_are_refused_at_once(tmp_path: Path, args: list[str],
                                                           bag: int, reserve: int) -> None:
    bag_file = _bag_file(tmp_path, bag, reserve)
    ran = cwx("odds", "wheel", *args, "--keep-white", "--keep-black", "--bag", bag_file)
    assert ran.status == 2
    spare = bag + reserve
    assert ran.error == (
        f"cwx: error: the odds of keeping dice from {spare:,} whites and {spare:,} blacks (bag and "
        "reserve together) would take too long to compute exactly; cwx computes them for up to "
        f"{odds.MOST_KEPT} whites and blacks that may be kept: ask about a smaller bag or reserve, "
        "or without --keep-white or --keep-black")


def test_odds_of_keeping_one_colour_name_only_it(tmp_path: Path) -> None:
    bag_file = _bag_file(tmp_path, 1, 10, white=6000)
    error = cwx("odds", "wheel", "--color", "red", "--keep-white", "--bag", bag_file).error
    assert "from 6,001 whites (bag" in error
    assert cwx("odds", "wheel", "--color", "red", "--keep-black", "--bag", bag_file).status == 0


def test_a_large_bag_without_keeping_is_one_draw_deep(tmp_path: Path) -> None:
    for bag in (200, 2**62):
        rows = cwx("odds", "wheel", "--all", "--json", "--bag", _bag_file(tmp_path, bag, 10)).json
        assert [row["p_success_exact"] for row in rows["odds"]] == ["2/5"] * 3 + ["3/5"] * 3


def test_the_limit_is_said_in_the_help() -> None:
    ran = cwx("odds", "wheel", "--help")
    assert ran.status == 0
    assert f"up to {odds.MOST_KEPT} whites and blacks that may be kept" in " ".join(ran.stdout.split())


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


def test_a_reserve_of_a_thousand_each_is_exact_and_quick(tmp_path: Path) -> None:
    bag_file = _bag_file(tmp_path, 1, 1000)
    began = cpu_seconds()
    ran = cwx("odds", "wheel", "--all", "--keep-white", "--keep-black", "--spend-white",
              "--json", "--bag", bag_file)
    assert ran.status == 0 and cpu_seconds() - began < 2
    rows = {row["color"]: row for row in ran.json["odds"]}
    table = Table(Bag(), Luck(1000, 1000), Luck())
    policy = Policy(keep_white=True, keep_black=True, spend_white=True)
    exact = odds.wheel(table, "purple", policy)
    assert rows["purple"]["p_success_exact"] == str(exact.p_success)


def test_odds_wheel_all_and_errors() -> None:
    rows = cwx("odds", "wheel", "--all", "--keep-white", "--json").json["odds"]
    assert [row["color"] for row in rows] == list(colorwheel.COLOURS)
    assert cwx("odds", "wheel").status == 2
    assert "not a colour" in cwx("odds", "wheel", "--color", "teal").error


def test_the_table_of_every_colour_draws_each_chance_as_a_bar() -> None:
    from tests.helpers import on_a_terminal

    piped = cwx("odds", "wheel", "--all").stdout.splitlines()
    assert piped[2].endswith("  " + "#" * 8) and piped[5].endswith("  " + "#" * 12)  # 2/5, 3/5
    shown = on_a_terminal("odds", "wheel", "--all", "--keep-white", "--keep-black")
    assert "\u2588" in shown and "#" not in shown


def test_a_fraction_past_pythons_digit_limit_is_printed_whole(tmp_path: Path) -> None:
    # Keeping from 2,400 of each gives a fraction of thousands of digits: exact in --json.
    bag_file = _bag_file(tmp_path, 1, 2400)
    ran = cwx("odds", "wheel", "-C", "red", "--keep-white", "--keep-black", "--json", "--bag",
              bag_file)
    assert ran.status == 0, ran.stderr
    assert max(len(ran.json[key]) for key in ("p_success_exact", "expected_white_exact",
                                              "expected_black_exact")) > 4300
    assert abs(float(Fraction(ran.json["p_success_exact"])) - ran.json["p_success"]) < 1e-12
    text = cwx("odds", "wheel", "-C", "red", "--keep-white", "--keep-black", "--bag", bag_file)
    assert text.status == 0 and "success  ≈5/16" in text.stdout
