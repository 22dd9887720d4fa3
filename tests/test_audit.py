"""cwx audit (#20): Pearson's chi-square over the dice a table drew by hand. The test is
honest: fair bags are flagged about as often as its level says, and a bag giving whites
twice as often is caught."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

from cwx import audit, colorwheel
from tests.helpers import cwx, saga

FAIR = {die: Fraction(1, 5) for die in colorwheel.DICE}  # a new bag: one die of each


def _campaign(rng: random.Random, draws: int, white_weight: float = 1.0) -> audit.Audit:
    """`draws` dice from a new bag, each fair but the white, drawn `white_weight` times as
    often as a fair bag would."""
    weights = [white_weight if die == "white" else 1.0 for die in colorwheel.DICE]
    came = rng.choices(colorwheel.DICE, weights, k=draws)
    return audit.test(((FAIR, die) for die in came), draws)


def test_fair_bags_are_flagged_about_as_often_as_the_level_says() -> None:
    rng = random.Random(20261202)
    flagged = sum(_campaign(rng, 300).p_value < 0.05 for _ in range(200))  # type: ignore[operator]
    assert 0.02 <= flagged / 200 <= 0.09, flagged


def test_a_bag_giving_whites_twice_as_often_is_caught() -> None:
    rng = random.Random(7)
    results = [_campaign(rng, 300, white_weight=2.0) for _ in range(100)]
    caught = sum(result.p_value < 0.05 for result in results)  # type: ignore[operator]
    assert caught >= 90, caught
    assert results[0].verdict.startswith("whites came out")


def test_the_tail_of_the_chi_square_distribution() -> None:
    # Known quantiles: 3.841 is the 95% point with 1 degree of freedom, 9.488 with 4.
    assert abs(audit.upper_tail(3.841, 1) - 0.05) < 1e-3
    assert abs(audit.upper_tail(9.488, 4) - 0.05) < 1e-3
    assert abs(audit.upper_tail(0.711, 4) - 0.95) < 1e-3
    assert audit.upper_tail(0.0, 3) == 1.0 and audit.upper_tail(500.0, 4) < 1e-100


def test_small_cells_are_merged_and_too_few_dice_say_how_many_more() -> None:
    few = audit.test([(FAIR, "red")] * 4, 4)
    assert few.p_value is None and few.needed == 21 and "21 more" in few.verdict
    cells = audit.merged([audit.Cell("red", 9, 10.0), audit.Cell("white", 1, 2.0),
                          audit.Cell("black", 3, 2.5)])
    assert [c.outcome for c in cells] == ["red", "white+black"] or \
        [c.outcome for c in cells] == ["white+black+red"]


def test_cwx_audit_reads_the_bag_as_it_stood_at_each_draw(tmp_path: Path) -> None:
    folder = saga(tmp_path / "camp")
    rng = random.Random(3)
    for _ in range(60):
        die = rng.choice(["red", "yellow", "blue"])
        assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", die,
                   cwd=folder).status == 0
    # A kept white: the next die came from a bag the reserve refilled.
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "white", "--drawn", "red",
               "--keep-white", cwd=folder).status == 0
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--seed", 1, cwd=folder).status == 0
    ran = cwx("audit", "--json", cwd=folder)
    assert ran.status == 0, ran.stderr
    data = ran.json
    assert data["draws"] == 61 and data["dice"] == 62  # cwx's own random draw left out
    assert {c["outcome"]: c["expected"] for c in data["cells"]}["white"] == 12.4
    assert data["p_value"] is not None and data["p_value"] < 0.05  # no white nor black came
    assert cwx("audit", "--all-draws", "--json", cwd=folder).json["draws"] == 62
    text = cwx("audit", cwd=folder).stdout
    assert "chi-square" in text and "Verdict:" in text
    assert cwx("audit", "--bag", "sue.toml", cwd=folder).status == 2  # a character, no bag


def test_a_draw_undone_is_no_evidence(tmp_path: Path) -> None:
    folder = saga(tmp_path / "camp")
    for _ in range(3):  # a black mistyped, taken back
        assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "black",
                   cwd=folder).status == 0
        assert cwx("undo", cwd=folder).status == 0
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "red", cwd=folder).status == 0
    data = cwx("audit", "--json", cwd=folder).json
    assert data["draws"] == 1
    assert {c["outcome"]: c["observed"] for c in data["cells"]}["black"] == 0
