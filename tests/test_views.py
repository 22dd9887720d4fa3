"""cwx/cli/views.py (value_text) and the sheet and outcome views each system's entry gives it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cwx.cli.views import value_text
from cwx.rules import clockworx, colorwheel
from cwx.rules.colorwheel import Bag, Luck, Table
from cwx.systems import clockworx as clock_views
from cwx.systems import colorwheel as wheel_views
from cwx.systems import sheets

ESCAPE = "\x1b["
SUE = [("red", "Strong"), ("yellow", "Clever"), ("blue", "Athletic"), ("orange", "Brave"),
       ("green", "Healer"), ("purple", "Friendly")]


def plain(text: str) -> str:
    """Text with its colour taken out."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


@pytest.fixture(autouse=True)
def _basic_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    # Orange is inked by what the terminal takes: the tests say which.
    monkeypatch.delenv("COLORTERM", raising=False)
    monkeypatch.setenv("TERM", "xterm")


# ---------------------------------------------------------------- values (views.py)


@pytest.mark.parametrize(("value", "text"), [
    (None, "–"),
    ("Strong", "Strong"),
    ("", ""),
    (3, "3"),
    (-4, "-4"),
    (0, "0"),
    (True, "true"),
    (False, "false"),
    (1.5, "1.5"),
    ({"white": 1}, '{"white":1}'),
    ([], "[]"),
    (["Strong", "Quick"], "Strong, Quick"),
    ([None, 2], "–, 2"),
    (list(range(10)), "0, 1, 2, 3, 4, 5, 6, 7, 8, 9"),
    (list(range(13)), "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, and 3 more"),
    (2 ** 300, "a number of about 91 digits"),
])
def test_a_value_reads_as_a_line_of_text_shows_it(value: Any, text: str) -> None:
    assert value_text(value) == text


def test_a_long_list_of_huge_numbers_stays_short() -> None:
    text = value_text([10 ** 4000] * 50)
    assert text.count("a number of about") == 10 and text.endswith(", and 40 more")
    assert len(text) < 400


# ---------------------------------------------------------------- ClockWorx


@pytest.fixture
def kris() -> Any:
    return sheets.new_character("clockworx", "Kris",
                                [("Scrounge", "3"), ("Repair", "3"), ("Tough", "5")])


def test_a_clockworx_sheet_reads_as_pips_and_next_steps(kris: Any) -> None:
    text = sheets.entry_of_sheet(kris).as_text(kris, False)
    assert text.splitlines()[:5] == [
        "Kris · ClockWorx",
        "  Scrounge  ●●●○○○  3",
        "  Repair    ●●●○○○  3",
        "  Tough     ●●●●●○  5",
        "  experience  0",
    ]
    assert text.splitlines()[5].startswith("  next: new trait 12")
    assert ESCAPE not in text


def test_a_clockworx_sheet_in_colour_is_the_same_text_inked(kris: Any) -> None:
    entry = sheets.entry_of_sheet(kris)
    inked = entry.as_text(kris, True)
    assert ESCAPE in inked and "\x1b[1mKris\x1b[0m" in inked
    assert plain(inked) == entry.as_text(kris, False)


def test_a_clockworx_character_in_the_party(kris: Any) -> None:
    entry = sheets.entry_of_sheet(kris)
    assert entry.in_party(kris, False) == ("Kris · ClockWorx · 0 xp\n"
                                           "  Scrounge 3 · Repair 3 · Tough 5")
    assert plain(entry.in_party(kris, True)) == entry.in_party(kris, False)


@pytest.mark.parametrize(("target", "guess", "score", "trait", "said"), [
    (4, 4, 3, "Repair", "Critical success! Guess 4, target 4: 0 steps (Repair 3). +6 xp"),
    (4, 6, 3, "Repair", "Success. Guess 6, target 4: 2 steps (Repair 3). +1 xp"),
    (12, 1, 1, "Tough", "Success. Guess 1, target 12: 1 step (Tough 1)."),  # no xp: none said
    (4, 10, None, None, "Failure. Guess 10, target 4: 6 steps (untrained)."),
])
def test_a_clockworx_outcome_reads_as_its_verdict(target: int, guess: int, score: int | None,
                                                  trait: str | None, said: str) -> None:
    outcome = clockworx.resolve(target, guess, score, trait)
    assert clock_views.outcome_verdict(outcome, False) == said
    assert plain(clock_views.outcome_verdict(outcome, True)) == said


def test_a_clockworx_verdict_is_inked_good_or_bad() -> None:
    assert clock_views.outcome_verdict(clockworx.resolve(4, 5, 3, "Repair"), True) \
        .startswith("\x1b[32mSuccess.\x1b[0m")
    assert clock_views.outcome_verdict(clockworx.resolve(4, 10, None), True) \
        .startswith("\x1b[31mFailure.\x1b[0m")


# ---------------------------------------------------------------- the Color Wheel


@pytest.fixture
def sue() -> Any:
    return sheets.new_character("colorwheel", "Sue", SUE)


def test_a_color_wheel_sheet_reads_colour_by_colour(sue: Any) -> None:
    text = sheets.entry_of_sheet(sue).as_text(sue, False)
    assert text.splitlines() == [
        "Sue · Color Wheel",
        "  ● red     Strong",
        "  ● yellow  Clever",
        "  ● blue    Athletic",
        "  ● orange  Brave",
        "  ● green   Healer",
        "  ● purple  Friendly",
        "  luck      white – 0   black – 0",
    ]


def test_a_color_wheel_sheet_in_colour_inks_each_colour(sue: Any) -> None:
    entry = sheets.entry_of_sheet(sue)
    inked = entry.as_text(sue, True)
    assert plain(inked) == entry.as_text(sue, False)
    for colour, code in [("red", "31"), ("yellow", "33"), ("blue", "34"), ("orange", "91"),
                         ("green", "32"), ("purple", "35")]:
        assert f"\x1b[{code}m●\x1b[0m {colour}" in inked


def test_orange_has_a_colour_of_its_own_on_a_terminal_of_many(
        sue: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    assert "\x1b[38;5;208m●\x1b[0m orange" in sheets.entry_of_sheet(sue).as_text(sue, True)


def test_a_color_wheel_character_in_the_party_with_luck_held(sue: Any) -> None:
    held = sue._replace(luck=Luck(2, 1))
    assert sheets.entry_of_sheet(held).in_party(held, False) == (
        "Sue · Color Wheel · white ○○ 2   black ● 1\n"
        "  red Strong · yellow Clever · blue Athletic · orange Brave · green Healer · "
        "purple Friendly")


def test_many_dice_read_as_a_count_not_a_row() -> None:
    assert wheel_views.dice("white", 13, False) == "○×13"  # open, as a row of whites is
    assert wheel_views.dice("black", 13, False) == "●×13"
    assert wheel_views.dice("white", 12, False) == "○" * 12
    assert wheel_views.dice("black", 0, False) == "–"


def draws(*dice: str) -> Any:
    """What comes out of the bag, die after die."""
    coming = iter(dice)
    return lambda bag: next(coming)


def test_a_draw_reads_as_its_dice_verdict_and_luck() -> None:
    table = Table(Bag(), Luck(10, 10), Luck(1, 0))
    draw = colorwheel.draw(table, "blue", draws("white", "blue"), lambda question, at: True)
    said = wheel_views.draw_text(draw, "Sue", False)
    assert said == ("Sue draws for blue: white then blue. Success. (kept white)\n"
                    "  luck  white ○○ 2   black – 0")
    inked = wheel_views.draw_text(draw, "Sue", True).splitlines()
    assert "\x1b[32mSuccess.\x1b[0m" in inked[0] and plain(inked[0]) == said.splitlines()[0]
    assert inked[1] == "  luck  white \x1b[97m●●\x1b[0m 2   black – 0"  # a white in colour is solid


def test_a_failed_draw_turned_by_a_white_says_so() -> None:
    table = Table(Bag(), Luck(10, 10), Luck(1, 0))
    draw = colorwheel.draw(table, "red", draws("yellow"), lambda question, at: True,
                           spend_white=True)
    assert wheel_views.draw_text(draw, "Sue", False) == (
        "Sue draws for red: yellow. Success. (spent a white to succeed)\n"
        "  luck  white – 0   black – 0")


def test_a_failed_draw_reads_as_a_failure() -> None:
    table = Table(Bag(), Luck(10, 10), Luck(0, 0))
    draw = colorwheel.draw(table, "red", draws("blue"), lambda question, at: True)
    said = wheel_views.draw_text(draw, "Sue", False)
    assert said.startswith("Sue draws for red: blue. Failure.\n")
    assert "\x1b[31mFailure.\x1b[0m" in wheel_views.draw_text(draw, "Sue", True)


def test_a_bag_reads_die_by_die_and_in_all() -> None:
    bag = sheets.read({"bag": {"red": 2, "white": 13}, "reserve": {"white": 3}}, "bag")
    text = sheets.entry_of_sheet(bag).as_text(bag, False)
    assert text.splitlines() == ["bag", "  red     ●● 2", "  yellow  – 0", "  blue    – 0",
                                 "  white   ○×13 13", "  black   – 0", "  15 dice in all",
                                 "reserve", "  white   ○○○ 3", "  black   – 0"]
    assert ESCAPE not in text


@pytest.mark.parametrize("system", ["clockworx", "colorwheel", "bag"])
def test_colour_off_is_never_an_escape_code(system: str, kris: Any, sue: Any) -> None:
    sheet = {"clockworx": kris, "colorwheel": sue,
             "bag": sheets.read({"bag": {"red": 1}, "reserve": {"white": 2}}, "bag")}[system]
    entry = sheets.entry_of_sheet(sheet)
    for text in (entry.as_text(sheet, False), entry.in_party(sheet, False)):
        assert ESCAPE not in text and "\x1b" not in text
    assert ESCAPE in entry.in_party(sheet, True)
