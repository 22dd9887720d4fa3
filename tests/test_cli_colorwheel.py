"""The Color Wheel commands through the CLI: JSON keys, recorded draws, prompts, errors."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from tests.helpers import ROOT, cwx, journal

DRAW_KEYS = {"color", "draws", "success", "cancelled", "white_spent", "luck", "bag"}
SUE_TRAITS = ["red=Strong", "yellow=Clever", "blue=Athletic", "orange=Brave", "green=Healer",
              "purple=Friendly"]


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def luck_of(path: Path) -> dict[str, int]:
    return dict(tomllib.loads(path.read_text())["luck"])


def draw(campaign: Path, who: str, *args: object) -> object:
    return cwx("bag", "draw", "--char", campaign / who, "--bag", campaign / "bag.toml", *args)


# ---------------------------------------------------------------- bag new / show

def test_bag_new_holds_five_dice_and_a_reserve(tmp_path: Path) -> None:
    ran = cwx("bag", "new", tmp_path / "bag.toml", "--json")
    assert ran.status == 0
    assert ran.json == {"bag": {"red": 1, "yellow": 1, "blue": 1, "white": 1, "black": 1},
                        "reserve": {"white": 10, "black": 10}}
    custom = cwx("bag", "new", tmp_path / "b2.toml", "--white-reserve", 3, "--black-reserve", 0,
                 "--json")
    assert custom.json["reserve"] == {"white": 3, "black": 0}
    assert cwx("bag", "show", tmp_path / "b2.toml", "--json").json == custom.json


def test_bag_new_refuses_a_negative_reserve_and_an_existing_file(campaign: Path) -> None:
    assert cwx("bag", "new", campaign / "x.toml", "--white-reserve", -1).status == 2
    ran = cwx("bag", "new", campaign / "bag.toml")
    assert ran.status == 2 and "already exists" in ran.error


def test_bag_show_for_people_reads_without_colour(campaign: Path) -> None:
    ran = cwx("bag", "show", campaign / "bag.toml")
    assert "5 dice in all" in ran.stdout and "\x1b[" not in ran.stdout


def test_bag_show_paints_dice_on_a_colour_terminal(campaign: Path) -> None:
    ran = cwx("bag", "show", campaign / "bag.toml", env={"FORCE_COLOR": "1"})
    assert "\x1b[34m●\x1b[0m" in ran.stdout  # the blue die, in blue
    plain = cwx("bag", "show", campaign / "bag.toml", env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in plain.stdout


# ---------------------------------------------------------------- char new / show

def test_char_new_colorwheel_needs_all_six_colours(tmp_path: Path) -> None:
    args = [a for pair in SUE_TRAITS for a in ("--trait", pair)]
    ran = cwx("char", "new", tmp_path / "sue.toml", "--system", "colorwheel", "--name", "Sue",
              *args, "--json")
    assert ran.status == 0
    assert ran.json == {"name": "Sue", "system": "colorwheel",
                        "traits": {c: [n] for c, n in (p.split("=") for p in SUE_TRAITS)},
                        "luck": {"white": 0, "black": 0}}
    short = cwx("char", "new", tmp_path / "x.toml", "--system", "colorwheel", *args[:-2])
    assert short.status == 2 and "missing: purple" in short.error
    double = cwx("char", "new", tmp_path / "y.toml", "--system", "colorwheel", *args,
                 "--trait", "RED=Mighty")
    assert double.status == 2 and "exactly one trait on each colour" in double.error
    odd = cwx("char", "new", tmp_path / "z.toml", "--system", "colorwheel", *args[:-2],
              "--trait", "teal=Calm")
    assert odd.status == 2 and "'teal' is not a colour" in odd.error


def test_char_show_colorwheel(campaign: Path) -> None:
    ran = cwx("char", "show", campaign / "rick.toml", "--json")
    assert ran.json["luck"] == {"white": 1, "black": 0}
    assert ran.json["traits"]["purple"] == ["Friendly"]
    sheet = cwx("char", "show", campaign / "rick.toml").stdout
    assert "Rick · Color Wheel" in sheet and "purple  Friendly" in sheet


# ---------------------------------------------------------------- bag draw

def test_draw_json_keys_and_the_files_after(campaign: Path) -> None:
    ran = draw(campaign, "sue.toml", "--trait", "athletic", "--drawn", "white", "--drawn", "blue",
               "--keep-white", "--json")
    assert ran.status == 0 and set(ran.json) == DRAW_KEYS
    assert ran.json == {"color": "blue", "draws": ["white", "blue"], "success": True,
                        "cancelled": False, "white_spent": False,
                        "luck": {"white": 1, "black": 0},
                        "bag": {"red": 1, "yellow": 1, "blue": 1, "white": 1, "black": 1}}
    assert luck_of(campaign / "sue.toml") == {"white": 1, "black": 0}
    bag = tomllib.loads((campaign / "bag.toml").read_text())
    assert bag["reserve"] == {"white": 9, "black": 10}
    event = journal(campaign)[-1]
    assert event["command"] == "bag draw" and event["bag"] == "bag.toml"
    assert {c["key"] for c in event["changes"]} == {"luck.white", "reserve.white"}


def test_a_white_drawn_while_holding_black_is_cancelled(campaign: Path) -> None:
    draw(campaign, "sue.toml", "--color", "red", "--drawn", "black", "--drawn", "red",
         "--keep-black")
    ran = draw(campaign, "sue.toml", "--color", "red", "--drawn", "white", "--json")
    assert ran.json["cancelled"] is True and ran.json["success"] is False
    assert ran.json["luck"] == {"white": 0, "black": 0}


def test_spend_white_turns_the_failure(campaign: Path) -> None:
    ran = draw(campaign, "rick.toml", "--color", "purple", "--drawn", "yellow", "--spend-white",
               "--json")
    assert ran.json["success"] is True and ran.json["white_spent"] is True
    assert ran.json["luck"]["white"] == 0


def test_without_keep_flags_and_no_terminal_the_answer_is_no(campaign: Path) -> None:
    ran = draw(campaign, "sue.toml", "--color", "blue", "--drawn", "white", "--json")
    assert ran.json["success"] is True and ran.json["draws"] == ["white"]
    assert luck_of(campaign / "sue.toml") == {"white": 0, "black": 0}


def test_a_seeded_draw_is_reproducible(campaign: Path) -> None:
    before = files_of(campaign)
    first = draw(campaign, "sue.toml", "--color", "green", "--seed", 9, "--json").json
    for name, raw in before.items():
        (campaign / name).write_bytes(raw)
    assert draw(campaign, "sue.toml", "--color", "green", "--seed", 9, "--json").json == first


def test_exit_code_flag_on_a_failed_draw(campaign: Path) -> None:
    assert draw(campaign, "sue.toml", "--color", "red", "--drawn", "red", "--exit-code").status == 0
    assert draw(campaign, "sue.toml", "--color", "red", "--drawn", "blue",
                "--exit-code").status == 1


@pytest.mark.parametrize(("args", "complaint"), [
    (["--color", "red", "--drawn", "white"], None),  # control: this one is fine
    (["--color", "red", "--drawn", "white", "--keep-white"], "ran out after 1"),
    (["--color", "red", "--drawn", "red", "--drawn", "blue"], "2 dice were recorded"),
    (["--color", "red", "--drawn", "green"], "'green' is not a die"),
    (["--color", "teal"], "'teal' is not a colour"),
    (["--trait", "Flying"], "no trait 'Flying'"),
    (["--color", "red", "--trait", "Strong"], "not both: a trait brings its own colour"),
    ([], "--color or the trait"),
    (["--color", "red", "--drawn", "red", "--seed", "3"], "--seed is for random draws"),
])
def test_draw_errors_change_nothing(campaign: Path, args: list[str],
                                    complaint: str | None) -> None:
    before = files_of(campaign)
    ran = draw(campaign, "sue.toml", *args)
    if complaint is None:
        assert ran.status == 0
        return
    assert ran.status == 2 and complaint in ran.error
    assert files_of(campaign) == before


def test_a_recorded_die_the_bag_does_not_hold_changes_nothing(campaign: Path) -> None:
    bag = campaign / "bag.toml"
    bag.write_text(bag.read_text().replace("black = 10", "black = 0"))
    draw(campaign, "rick.toml", "--color", "red", "--drawn", "black", "--drawn", "red",
         "--keep-black")  # no spare black to replace it: the bag is now without black
    before = files_of(campaign)
    ran = draw(campaign, "rick.toml", "--color", "red", "--drawn", "black")
    assert ran.status == 2 and "holds no black" in ran.error
    assert files_of(campaign) == before


def test_an_empty_bag_is_an_error(campaign: Path) -> None:
    bag = campaign / "bag.toml"
    bag.write_text("[bag]\nred = 0\nyellow = 0\nblue = 0\nwhite = 0\nblack = 0\n")
    ran = draw(campaign, "sue.toml", "--color", "red")
    assert ran.status == 2 and "the bag is empty" in ran.error


def test_draw_refuses_a_clockworx_character(campaign: Path) -> None:
    ran = draw(campaign, "kris.toml", "--color", "red")
    assert ran.status == 2 and "is a ClockWorx character" in ran.error


def test_the_prompt_asks_on_a_terminal_and_keeps_json_clean(campaign: Path) -> None:
    # A real pseudo-terminal: the player answers "y" to keep the white.
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "cwx", "bag", "draw", "--char", campaign / "sue.toml",
         "--bag", campaign / "bag.toml", "--color", "blue", "--drawn", "white",
         "--drawn", "blue", "--json"],
        stdin=follower, stdout=subprocess.PIPE, stderr=follower, cwd=ROOT)
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + 30
    while b"[y/N]" not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1)
        if ready:
            seen += os.read(leader, 1024)
    assert b"Drew white. Keep it and draw again" in seen
    os.write(leader, b"y\n")
    out, _ = process.communicate(timeout=30)
    os.close(leader)
    assert process.returncode == 0
    import json

    result = json.loads(out)
    assert result["draws"] == ["white", "blue"] and result["luck"]["white"] == 1


# ---------------------------------------------------------------- curse, end, buy

def test_luck_curse_spoils_the_last_successful_draw_once(campaign: Path) -> None:
    draw(campaign, "sue.toml", "--color", "red", "--drawn", "black", "--drawn", "red",
         "--keep-black")
    ran = cwx("luck", "curse", "--char", campaign / "sue.toml", "--bag", campaign / "bag.toml",
              "--json")
    assert ran.status == 0
    assert ran.json["luck"] == {"white": 0, "black": 0} and ran.json["success"] is False
    again = cwx("luck", "curse", "--char", campaign / "sue.toml", "--bag",
                campaign / "bag.toml")
    assert again.status == 2
    assert again.error == (f"cwx: error: {campaign / 'sue.toml'}: the character's last draw "
                           "was already turned (a white spent, or a curse): an action is "
                           "turned once")


def test_game_end(campaign: Path) -> None:
    sue = campaign / "sue.toml"
    sue.write_text(sue.read_text().replace("white = 0", "white = 5").replace(
        "black = 0", "black = 2"))
    ran = cwx("game", "end", "--char", sue, "--bag", campaign / "bag.toml", "--json")
    assert ran.json["luck"] == {"white": 3, "black": 0}
    assert tomllib.loads((campaign / "bag.toml").read_text())["reserve"] == {
        "white": 12, "black": 12}


def test_wheel_buy(campaign: Path) -> None:
    sue = campaign / "sue.toml"
    sue.write_text(sue.read_text().replace("white = 0", "white = 4"))
    ran = cwx("wheel", "buy", "--char", sue, "--bag", campaign / "bag.toml", "--color", "Blue",
              "--trait", "Swimmer", "--json")
    assert ran.json == {"color": "blue", "trait": "Swimmer", "cost": 3,
                        "luck": {"white": 1, "black": 0}}
    text = sue.read_text()
    assert 'blue = ["Athletic", "Swimmer"]      # climbing a fence' in text
    refused = cwx("wheel", "buy", "--char", sue, "--bag", campaign / "bag.toml", "--color",
                  "green", "--trait", "Herbalist")
    assert refused.status == 2 and "costs 5 whites; the character holds 1" in refused.error


# ---------------------------------------------------------------- bad bag files

@pytest.mark.parametrize(("text", "where", "complaint"), [
    ("[bag]\nred = -1\n", ":2 [bag.red]", "0 or more"),
    ("[bag]\ngreen = 1\n", ":2 [bag.green]", "unknown key 'green'"),
    ("[bag]\nred = 1\n[reserve]\nwhite = 'ten'\n", ":4 [reserve.white]", "whole number"),
    ("bag = 3\n", ":1 [bag]", "must be a table"),
    ("[reserve]\nwhite = 1\n", " [bag]", "missing"),
])
def test_a_bad_bag_is_refused_and_left_alone(campaign: Path, text: str, where: str,
                                             complaint: str) -> None:
    bag = campaign / "bag.toml"
    bag.write_text(text)
    before = files_of(campaign)
    for args in (["bag", "show", bag],
                 ["bag", "draw", "--char", campaign / "sue.toml", "--bag", bag, "--color", "red"]):
        ran = cwx(*args)
        assert ran.status == 2
        assert ran.error.startswith(f"cwx: error: {bag}{where}: ") and complaint in ran.error
        assert files_of(campaign) == before


def test_every_colour_wheel_command_has_help_with_an_example() -> None:
    for command in (["bag", "new"], ["bag", "show"], ["bag", "draw"], ["luck", "curse"],
                    ["game", "end"], ["wheel", "buy"]):
        ran = cwx(*command, "--help")
        assert ran.status == 0 and "Example: cwx " in ran.stdout, command


def test_char_show_gives_the_traits_as_the_file_has_them(tmp_path: Path) -> None:
    path = tmp_path / "odd.toml"
    path.write_text('name = "Odd"\nsystem = "colorwheel"\n[traits]\nPurple = ["Friendly"]\n'
                    'red = ["Quick"]\nyellow = ["Lucky"]\nblue = ["Sharp"]\n'
                    'orange = ["Daring"]\ngreen = ["Patient"]\n')
    traits = cwx("char", "show", path, "--json").json["traits"]
    assert list(traits) == ["Purple", "red", "yellow", "blue", "orange", "green"]
    bag = tmp_path / "bag.toml"
    cwx("bag", "new", bag)
    path.write_text(path.read_text() + "[luck]\nwhite = 5\n")
    assert cwx("wheel", "buy", "--char", path, "--bag", bag, "--color", "purple",
               "--trait", "Charming").status == 0
    assert 'Purple = ["Friendly", "Charming"]' in path.read_text()
