"""cwx/systems/sheets.py: what a campaign file must say, every problem of it, and a new character."""

from __future__ import annotations

import copy
import string
import tomllib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwx.base.errors import BadFile, BadValue
from cwx.rules.colorwheel import COLOURS, Bag, Luck
from cwx.systems import sheets
from tests.helpers import EXAMPLES

WHEEL = {"red": ["Strong"], "yellow": ["Clever"], "blue": ["Athletic"], "orange": ["Brave"],
         "green": ["Healer"], "purple": ["Friendly"]}
SUE = [("red", "Strong"), ("yellow", "Clever"), ("blue", "Athletic"), ("orange", "Brave"),
       ("green", "Healer"), ("purple", "Friendly")]


def keys_of(problems: list[BadFile]) -> list[str | None]:
    return [problem.key for problem in problems]


# ---------------------------------------------------------------- reading each kind


@pytest.mark.parametrize(("file", "kind"), [
    ("kris.toml", "clockworx"), ("mara.toml", "clockworx"), ("rick.toml", "colorwheel"),
    ("sue.toml", "colorwheel"), ("bag.toml", "bag")])
def test_each_shipped_example_reads_as_its_kind_with_no_problem(file: str, kind: str) -> None:
    data = tomllib.loads((EXAMPLES / file).read_text())
    assert sheets.problems(data, file[:-5]) == []
    sheet = sheets.read(data, file[:-5])
    assert sheet.kind == kind
    assert sheets.kind_of(data) == ("bag" if kind == "bag" else "character")


def test_a_clockworx_sheet_holds_its_name_traits_and_xp() -> None:
    data = {"name": "Kris", "system": "clockworx", "xp": 7,
            "traits": {"Scrounge": 3, "Repair": 3, "Tough": 5}}
    sheet = sheets.character(data, "kris")
    assert (sheet.name, dict(sheet.traits), sheet.xp) == ("Kris", data["traits"], 7)


def test_a_character_without_a_name_key_is_named_by_its_file() -> None:
    sheet = sheets.read({"system": "clockworx", "traits": {"A": 1, "B": 1, "C": 1}}, "kris")
    assert sheet.name == "kris" and sheet.xp == 0


def test_a_color_wheel_sheet_is_in_wheel_order_and_keeps_the_files_spelling() -> None:
    traits = {"Purple": ["Friendly"], "green": ["Healer"], "ORANGE": ["Brave"],
              "blue": ["Athletic"], "yellow": ["Clever"], "red": ["Strong", "Quick"]}
    sheet = sheets.read({"name": "Sue", "system": "colorwheel", "traits": traits}, "sue")
    assert list(sheet.traits) == list(COLOURS)
    assert sheet.traits["red"] == ("Strong", "Quick")
    assert sheet.colour_keys["purple"] == "Purple" and sheet.colour_keys["orange"] == "ORANGE"
    assert sheet.luck == Luck(0, 0)  # no [luck] table: no dice held
    assert sheets.data_of(sheet)["traits"]["Purple"] == ["Friendly"]  # written back as spelled


def test_a_bag_counts_a_missing_die_as_none_and_a_missing_reserve_as_empty() -> None:
    sheet = sheets.read({"bag": {"red": 2, "white": 3}}, "bag")
    assert sheet.bag == Bag(red=2, yellow=0, blue=0, white=3, black=0)
    assert sheet.reserve == Luck(0, 0)


def test_a_bag_asked_for_as_a_character_is_refused_at_its_table() -> None:
    with pytest.raises(BadFile, match="is a bag file, not a character") as refused:
        sheets.character({"bag": {"red": 1}}, "bag")
    assert refused.value.key == "bag"


def test_a_character_asked_for_as_a_bag_is_refused_at_its_system_key() -> None:
    data = {"system": "clockworx", "traits": {"A": 1, "B": 1, "C": 1}, "bag": {"red": 1}}
    with pytest.raises(BadFile, match="not a bag") as refused:
        sheets.read(data, "x", "bag")
    assert refused.value.key == "system"


@pytest.mark.parametrize(("data", "kind"), [
    ({"system": "clockworx"}, "character"), ({"traits": {}}, "character"),
    ({"luck": {}}, "character"), ({"reserve": {}}, "bag"), ({"bag": {}}, "bag"),
    ({"tool": {"ruff": {}}}, None), ({}, None)])
def test_the_kind_of_a_file_is_told_by_its_keys(data: dict[str, Any], kind: str | None) -> None:
    assert sheets.kind_of(data) == kind


# ---------------------------------------------------------------- every problem of a file


def test_every_problem_of_a_clockworx_file_is_found_in_the_order_read() -> None:
    data = {"name": "Kris", "system": "clockworx", "xp": -1,
            "traits": {"A": 9, "B": "x", "C": 3, "": 2}}
    found = sheets.problems(data, "kris")
    assert keys_of(found) == ["xp", "traits.B", "traits.", "traits.A"]
    assert "not -1" in found[0].message and "not 9" in found[3].message


def test_a_bad_name_does_not_hide_the_problems_after_it() -> None:
    data = {"name": "", "system": "clockworx", "xp": True, "traits": {"A": 1, "B": 1}}
    found = sheets.problems(data, "kris")
    assert keys_of(found) == ["name", "xp", "traits"]
    assert "at least 3 traits" in found[2].message


def test_every_problem_of_a_bag_file_is_found() -> None:
    data = {"bag": {"red": -1, "pink": 1}, "reserve": {"white": "x", "grey": 0}}
    assert sorted(map(str, keys_of(sheets.problems(data, "bag")))) == [
        "bag.pink", "bag.red", "reserve.grey", "reserve.white"]


def test_every_problem_of_a_color_wheel_characters_luck_is_found() -> None:
    data = {"system": "colorwheel", "traits": WHEEL, "luck": {"white": -1, "grey": 2}}
    assert keys_of(sheets.problems(data, "sue")) == ["luck.white", "luck.grey"]


@pytest.mark.parametrize(("data", "key"), [
    ({"system": "dnd", "xp": -1}, "system"),  # no system's rules to read the rest by
    ({"tool": {}}, None)])  # not a file of cwx's at all
def test_a_problem_that_leaves_nothing_to_check_is_the_only_one(data: dict[str, Any],
                                                                key: str | None) -> None:
    assert keys_of(sheets.problems(data, "x")) == [key]


def test_looking_for_problems_leaves_the_data_as_it_was() -> None:
    data = {"name": "", "system": "clockworx", "xp": -1,
            "traits": {"A": 9, "B": "x", "C": 3, "": 2}}
    before = copy.deepcopy(data)
    assert len(sheets.problems(data, "kris")) == 5
    assert data == before


@pytest.mark.parametrize(("traits", "key"), [
    ({**WHEEL, "red": "Strong"}, "traits.red"),  # not a list
    ({**WHEEL, "red": [""]}, "traits.red"),  # an empty name
    ({**WHEEL, "red": ["Strong", "strong"]}, "traits.red"),  # a name twice
    ({**WHEEL, "Red": ["Sly"]}, "traits.Red"),  # a colour twice: red's own list stays
])
def test_a_color_wheel_trait_problem_hides_no_luck_problem_and_adds_none_of_its_own(
        traits: dict[str, Any], key: str) -> None:
    found = sheets.problems({"system": "colorwheel", "traits": traits,
                             "luck": {"white": -1}}, "sue")
    assert keys_of(found) == [key, "luck.white"]
    assert not any("\\x00" in problem.message for problem in found)


# ---------------------------------------------------------------- a new character


def test_a_new_clockworx_character_has_its_traits_as_scores_and_no_xp() -> None:
    sheet = sheets.new_character("clockworx", "Kris",
                                 [("Scrounge", "3"), (" Repair ", " 3"), ("Tough", "5")])
    assert dict(sheet.traits) == {"Scrounge": 3, "Repair": 3, "Tough": 5}
    assert sheet.xp == 0 and sheet.kind == "clockworx"


def test_a_new_color_wheel_character_takes_colours_and_its_system_in_any_case() -> None:
    pairs = [(colour.upper(), trait) for colour, trait in SUE]
    sheet = sheets.new_character(" ColorWheel ", "Sue", pairs)
    assert sheet.kind == "colorwheel"
    assert sheet.traits == {colour: (trait,) for colour, trait in SUE}
    assert sheet.luck == Luck(0, 0)


@pytest.mark.parametrize(("system", "name", "pairs", "said"), [
    ("clokworx", "Kris", [], "did you mean 'clockworx'"),
    ("clockworx", "  ", [], "needs a name"),
    ("clockworx", "Kr\x1bis", [("A", "3"), ("B", "3"), ("C", "3")], "control characters"),
    ("clockworx", "Kris", [("A", "6"), ("B", "6"), ("C", "1")], "total 13 points"),
    ("clockworx", "Kris", [("A", "3"), ("B", "3")], "at least 3 traits"),
    ("clockworx", "Kris", [("A", "3"), ("a", "3"), ("C", "3")], "compared ignoring case"),
    ("clockworx", "Kris", [("A", "3"), ("B", "three"), ("C", "3")], "whole number 1–6"),
    ("colorwheel", "Sue", [*SUE, ("red", "Quick")], "exactly one trait on each colour"),
    ("colorwheel", "Sue", SUE[1:], "missing: red"),
])
def test_a_new_character_is_checked_as_creation_requires(
        system: str, name: str, pairs: list[tuple[str, str]], said: str) -> None:
    with pytest.raises(BadValue, match=said):
        sheets.new_character(system, name, pairs)


# ---------------------------------------------------------------- written back


def test_edits_are_only_the_keys_that_moved() -> None:
    before = sheets.read({"name": "Kris", "system": "clockworx",
                          "traits": {"A": 3, "B": 3, "C": 3}}, "kris")
    after = before._replace(xp=6, traits={"A": 3, "B": 4, "C": 3, "Climb": 1})
    assert sheets.edits(before, after) == [(("xp",), 6), (("traits", "B"), 4),
                                           (("traits", "Climb"), 1)]
    assert sheets.edits(after, before) == [(("xp",), 0), (("traits", "B"), 3),
                                           (("traits", "Climb"), None)]  # removed
    assert sheets.edits(before, before) == []


trait_names = st.lists(st.text(string.ascii_letters + " -'", min_size=1, max_size=12)
                       .filter(lambda name: name.strip() == name and name != ""),
                       min_size=3, max_size=7, unique_by=str.casefold)


@settings(max_examples=40)
@given(names=trait_names, scores=st.lists(st.integers(1, 6), min_size=7, max_size=7),
       xp=st.integers(0, 10_000))
def test_a_clockworx_sheet_reads_back_from_the_data_it_writes(names: list[str],
                                                              scores: list[int],
                                                              xp: int) -> None:
    data = {"name": "Kris", "system": "clockworx", "xp": xp,
            "traits": dict(zip(names, scores, strict=False))}
    sheet = sheets.read(data, "kris")
    assert sheets.data_of(sheet) == data
    assert sheets.read(sheets.data_of(sheet), "other") == sheet
