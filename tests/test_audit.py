"""cwx audit (#20): Pearson's chi-square over the dice a table drew by hand. The test is
honest: fair bags are flagged about as often as its level says, and a bag giving whites
twice as often is caught."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from cwx.campaign import audit
from cwx.journal.lines import Event
from cwx.rules import colorwheel
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


def _die_by_die(dice: list[str], colour: str, bag: dict[str, int], reserve: tuple[int, int],
                blacks: int) -> tuple[dict[str, int], dict[str, float]] | None:
    """A draw replayed as the rules play it, die by die (colorwheel.draw): the reference."""
    from cwx.base.errors import CwxError

    table = colorwheel.Table(colorwheel.Bag(*(bag[d] for d in colorwheel.DICE)),
                             colorwheel.Luck(*reserve), colorwheel.Luck(0, blacks))
    recorded = colorwheel.Recorded(dice)
    observed = dict.fromkeys(colorwheel.DICE, 0)
    expected = dict.fromkeys(colorwheel.DICE, 0.0)

    def next_die(bag: colorwheel.Bag) -> str:
        came = recorded(bag)
        observed[came] += 1
        for d in colorwheel.DICE:
            expected[d] += bag.of(d) / bag.total
        return came

    try:
        colorwheel.draw(table, colour, next_die, lambda q, t: recorded.used < len(dice))
        recorded.check_all_used(cancelled=True)
    except CwxError:
        return None
    return observed, expected


@settings(max_examples=300)
@given(st.one_of(st.lists(st.sampled_from(colorwheel.DICE), min_size=1, max_size=12),
                 st.builds(lambda w, b, last: ["white"] * w + ["black"] * b + [last],
                           st.integers(0, 6), st.integers(0, 6),
                           st.sampled_from(colorwheel.DICE))),
       st.lists(st.integers(0, 4), min_size=5, max_size=5), st.integers(0, 3),
       st.integers(0, 3), st.integers(0, 1))
def test_runs_of_kept_dice_are_counted_as_the_rules_draw_them_die_by_die(
        dice: list[str], counts: list[int], white: int, black: int, blacks: int) -> None:
    bag = dict(zip(colorwheel.DICE, counts, strict=True))
    state = {"bag.toml": {**{f"bag.{d}": n for d, n in bag.items()},
                          "reserve.white": white, "reserve.black": black},
             "sue.toml": {"luck.black": blacks}}
    event = Event(2, "0" * 16, "2099-01-01T00:00:00.000Z", "bag draw", "Sue", "sue.toml",
                  "bag.toml", {"draws": dice, "color": "orange"}, ())
    counted = audit._replayed(event, state)
    reference = _die_by_die(dice, "orange", bag, (white, black), blacks)
    assert (counted is None) == (reference is None)
    if counted is not None and reference is not None:
        assert counted.observed == reference[0] and counted.dice == len(dice)
        for die in colorwheel.DICE:
            assert abs(counted.expected[die] - reference[1][die]) < 1e-9


def test_an_audit_shows_its_p_value_with_one_precision() -> None:
    import re

    from cwx.commands.audit import _text

    rng = random.Random(11)
    fair = next(done for done in (_campaign(rng, 300) for _ in range(50))
                if done.p_value is not None and done.p_value >= 0.05)
    shown = re.findall(r"p = ([^ ).]+(?:\.\d+)?(?:e-\d+)?)", _text(fair))
    assert len(shown) == 2 and len(set(shown)) == 1, shown  # the figures' and the verdict's
    assert audit.p_shown(0.104) == "0.10" and audit.p_shown(8.9e-08) == "8.9e-08"


def test_a_colour_drawn_where_the_bag_held_none_is_null_in_json_not_infinity() -> None:
    import json
    import math

    cells = (audit.Cell("red", 10, 10.0), audit.Cell("black", 1, 0.0))
    done = audit.Audit(11, 11, cells, cells, math.inf, 1, 0.0, "black came out where the bag "
                       "held none: the record or the bag is wrong")
    shown = done.as_json()
    assert shown["chi_square"] is None and shown["p_value"] == 0.0
    json.dumps(shown, allow_nan=False)  # what --json prints: JSON has no infinity
