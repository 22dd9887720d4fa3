"""Trait names, shared by both systems: matched ignoring case, never empty, never twice."""

from __future__ import annotations

import pytest

from cwx.base import traitnames
from cwx.base.errors import BadValue


def test_traits_match_ignoring_case() -> None:
    assert traitnames.find({"Repair": 3}, "rEPAIR") == "Repair"
    assert traitnames.find(["Knife Fighting"], " knife fighting ") == "Knife Fighting"
    assert traitnames.find({"Repair": 3}, "Climb") is None


@pytest.mark.parametrize(("named", "complaint", "key"), [
    ([("A", "traits.A"), ("", "traits.x")], "must not be empty", "traits.x"),
    ([("Strong", "traits.red"), ("strong", "traits.blue")], "'strong' repeats 'Strong'",
     "traits.blue"),
    ([("Strong", "traits.red"), ("Strong", "traits.blue")], "'Strong' is named twice",
     "traits.blue"),
])
def test_a_name_empty_or_named_twice_is_refused_at_its_key(
        named: list[tuple[str, str]], complaint: str, key: str) -> None:
    with pytest.raises(BadValue, match=complaint) as caught:
        traitnames.check_names(named)
    assert caught.value.key == key
