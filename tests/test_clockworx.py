"""ClockWorx rules C1–C7, table-driven, and their properties."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cwx.base.errors import BadValue, RuleForbids
from cwx.rules import clockworx
from cwx.rules.clockworx import advance, distance, resolve

positions = st.integers(1, 12)
scores = st.integers(1, 6)


# ---------------------------------------------------------------- C3 distance

@pytest.mark.parametrize(("target", "guess", "steps"), [
    (4, 3, 1),
    (4, 4, 0),
    (12, 1, 1),    # 12 and 1 are neighbours
    (1, 12, 1),
    (11, 2, 3),    # across 12
    (1, 7, 6),     # the far side of the face
    (6, 12, 6),
    (3, 9, 6),
    (2, 10, 4),
    (10, 2, 4),
])
def test_distance_goes_the_short_way_round(target: int, guess: int, steps: int) -> None:
    assert distance(target, guess) == steps


# ---------------------------------------------------------------- C4, C5 resolve

@pytest.mark.parametrize(
    ("target", "guess", "score", "success", "critical", "xp"),
    [
        # The rule text's own examples: Kris repairs the valve with Repair 3.
        (4, 3, 3, True, False, 2),
        (4, 4, 3, True, True, 6),
        # Within the score, the points left over go inside.
        (4, 1, 3, True, False, 0),
        (4, 7, 3, True, False, 0),
        (4, 8, 3, False, False, 0),
        (12, 1, 1, True, False, 0),
        (12, 2, 1, False, False, 0),
        (6, 6, 6, True, True, 12),
        (6, 12, 6, True, False, 0),
        (1, 7, 5, False, False, 0),
        (9, 11, 5, True, False, 3),
        # Untrained: only the exact number, never critical, no experience.
        (4, 4, None, True, False, 0),
        (4, 3, None, False, False, 0),
        (12, 1, None, False, False, 0),
    ],
)
def test_resolve_follows_the_rules(
    target: int, guess: int, score: int | None, success: bool, critical: bool, xp: int
) -> None:
    outcome = resolve(target, guess, score)
    assert (outcome.success, outcome.critical, outcome.xp) == (success, critical, xp)
    assert outcome.distance == distance(target, guess)


def test_kris_moves_one_step_and_two_points_go_inside() -> None:
    outcome = resolve(4, 3, 3, "Repair")
    assert outcome.inside == 2
    assert outcome.trait == "Repair"


@pytest.mark.parametrize(("target", "guess"), [(0, 4), (13, 4), (4, 0), (4, 13), (-1, 5)])
def test_numbers_off_the_clock_face_are_refused(target: int, guess: int) -> None:
    with pytest.raises(BadValue):
        resolve(target, guess, 3)


@pytest.mark.parametrize("score", [0, 7, -1, True])
def test_scores_outside_one_to_six_are_refused(score: int) -> None:
    with pytest.raises(BadValue):
        resolve(4, 4, score)


@given(positions, positions)
def test_distance_is_symmetric_and_at_most_six(target: int, guess: int) -> None:
    steps = distance(target, guess)
    assert steps == distance(guess, target)
    assert 0 <= steps <= 6
    assert (steps == 0) == (target == guess)


@given(positions, positions, st.one_of(st.none(), scores))
def test_resolve_properties(target: int, guess: int, score: int | None) -> None:
    outcome = resolve(target, guess, score)
    assert outcome.xp >= 0
    if score is None:
        assert outcome.success == (target == guess)
        assert not outcome.critical and outcome.xp == 0
    else:
        assert outcome.success == (outcome.distance <= score)
        assert outcome.critical == (outcome.distance == 0)
        assert outcome.xp <= 2 * score
    assert outcome.critical == (score is not None and target == guess)


# ---------------------------------------------------------------- C1 characters

@pytest.mark.parametrize("traits", [
    {"Scrounge": 3, "Repair": 3, "Tough": 5},          # the rule text's Kris: 11 points
    {"A": 4, "B": 4, "C": 4},                          # the whole budget
    {"A": 1, "B": 1, "C": 1, "D": 1},
])
def test_valid_new_characters(traits: dict[str, int]) -> None:
    clockworx.check_traits(traits, creating=True)


@pytest.mark.parametrize(("traits", "complaint"), [
    ({"A": 3, "B": 3}, "at least 3"),
    ({"A": 6, "B": 6, "C": 1}, "total 13"),
    ({"A": 3, "a": 3, "B": 3}, "ignoring case"),
    ({"A": 7, "B": 1, "C": 1}, "1 to 6"),
    ({"A": 0, "B": 1, "C": 1}, "1 to 6"),
    ({" ": 1, "B": 1, "C": 1}, "empty"),
])
def test_invalid_new_characters(traits: dict[str, int], complaint: str) -> None:
    with pytest.raises(BadValue, match=complaint):
        clockworx.check_traits(traits, creating=True)


def test_advanced_characters_may_exceed_the_creation_budget() -> None:
    clockworx.check_traits({"A": 6, "B": 6, "C": 6}, creating=False)


def test_unspent_points_are_reported() -> None:
    assert clockworx.unspent({"Scrounge": 3, "Repair": 3, "Tough": 5}) == 1


# ---------------------------------------------------------------- C6 advancement

@pytest.mark.parametrize(("score", "cost"), [(1, 24), (2, 36), (3, 48), (4, 60), (5, 72)])
def test_raising_costs_twelve_times_the_new_score(score: int, cost: int) -> None:
    assert clockworx.raise_cost(score) == cost


def test_new_trait_costs_twelve_and_starts_at_one() -> None:
    step = advance({"A": 3, "B": 3, "C": 3}, 14, new="Climb")
    assert (step.trait, step.score, step.cost, step.xp_total, step.new) == ("Climb", 1, 12, 2, True)


def test_raise_uses_the_traits_own_spelling() -> None:
    step = advance({"Repair": 3, "B": 3, "C": 3}, 50, raise_="repair")
    assert (step.trait, step.score, step.cost, step.xp_total) == ("Repair", 4, 48, 2)


@pytest.mark.parametrize(("kwargs", "xp", "complaint"), [
    ({"new": "Climb"}, 11, "costs 12"),
    ({"raise_": "A"}, 23, "costs 24"),
    ({"raise_": "Top"}, 1000, "highest"),
    ({"raise_": "Nope"}, 1000, "no trait"),
    ({"new": "a"}, 1000, "already has"),
])
def test_advancement_refusals(kwargs: dict[str, str], xp: int, complaint: str) -> None:
    with pytest.raises((RuleForbids, BadValue), match=complaint):
        advance({"A": 1, "B": 2, "Top": 6}, xp, **kwargs)  # type: ignore[arg-type]


@given(st.integers(1, 5), st.integers(0, 500))
def test_advancement_never_leaves_negative_experience(score: int, xp: int) -> None:
    try:
        step = advance({"A": score, "B": 1, "C": 1}, xp, raise_="A")
    except RuleForbids:
        assert xp < clockworx.raise_cost(score)
    else:
        assert step.xp_total == xp - step.cost >= 0


@given(st.integers(1, 6), st.integers(1, 6))
def test_advancement_costs_sum_from_one_score_to_another(low: int, high: int) -> None:
    low, high = min(low, high), max(low, high)
    expected = 12 * sum(range(low + 1, high + 1))
    traits, xp, paid = {"A": low, "B": 1, "C": 1}, 10_000, 0
    while traits["A"] < high:
        step = advance(traits, xp, raise_="A")
        traits, xp, paid = {**traits, "A": step.score}, step.xp_total, paid + step.cost
    assert paid == expected
    # From a new trait to 6 costs 12 + 24 + 36 + 48 + 60 + 72.
    assert 12 + sum(clockworx.raise_cost(n) for n in range(1, 6)) == 252


# ---------------------------------------------------------------- C7 picking

def test_pick_is_uniform_over_the_clock_face() -> None:
    rng = random.Random(7)
    counts = Counter(clockworx.pick(rng) for _ in range(12_000))
    assert set(counts) == set(range(1, 13))
    assert all(850 <= count <= 1150 for count in counts.values())


def test_pick_with_a_seed_is_reproducible() -> None:
    assert clockworx.pick(random.Random(3)) == clockworx.pick(random.Random(3))
