"""The ClockWorx commands as scripts and people see them: JSON keys, text, exit codes, errors."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.helpers import cwx, journal

RESOLVE_KEYS = {"target", "guess", "distance", "trait", "score", "success", "critical", "xp"}


def test_stateless_resolve_json_keys() -> None:
    ran = cwx("clock", "resolve", "--target", 4, "--guess", 3, "--score", 3, "--json")
    assert ran.status == 0 and ran.stderr == ""
    assert ran.json == {"target": 4, "guess": 3, "distance": 1, "trait": None, "score": 3,
                        "success": True, "critical": False, "xp": 2}


def test_untrained_resolve_needs_the_exact_number() -> None:
    assert cwx("clock", "resolve", "--target", 4, "--guess", 4, "--json").json["success"] is True
    miss = cwx("clock", "resolve", "--target", 4, "--guess", 5, "--json").json
    assert miss["success"] is False and miss["score"] is None and miss["xp"] == 0


def test_resolve_with_a_character_adds_the_experience(campaign: Path) -> None:
    kris = campaign / "kris.toml"
    ran = cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "repair",
              "--char", kris, "--json")
    assert ran.status == 0
    assert set(ran.json) == RESOLVE_KEYS | {"xp_total"}
    assert ran.json["trait"] == "Repair" and ran.json["xp"] == 6 and ran.json["xp_total"] == 6
    assert tomllib.loads(kris.read_text())["xp"] == 6


def test_resolve_for_people_draws_the_clock_face() -> None:
    ran = cwx("clock", "resolve", "--target", 4, "--guess", 3, "--score", 3)
    assert ran.status == 0
    assert "(3)" in ran.stdout and "[4]" in ran.stdout and "2 inside" in ran.stdout
    assert "Success." in ran.stdout and "+2 xp" in ran.stdout
    assert "\x1b[" not in ran.stdout  # not a terminal: no colour codes


def test_a_trait_the_character_lacks_is_an_error_not_an_untrained_roll(campaign: Path) -> None:
    kris = campaign / "kris.toml"
    before = kris.read_bytes()
    ran = cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Flying",
              "--char", kris)
    assert ran.status == 2
    assert ran.error.startswith(f"cwx: error: {kris}: no trait 'Flying'")
    assert kris.read_bytes() == before and journal(campaign) == []


@pytest.mark.parametrize(("args", "complaint"), [
    (["--target", "13", "--guess", "3"], "--target must be a whole number from 1 to 12"),
    (["--target", "4", "--guess", "0"], "--guess must be"),
    (["--target", "4", "--guess", "3", "--score", "7"], "score must be a whole number from 1 to 6"),
    (["--target", "x", "--guess", "3"], "'x' is not a valid int"),
    (["--guess", "3"], "give the GM's number with --target, or use --sealed"),
    (["--target", "3"], "Missing option '--guess'"),
    (["--target", "4", "--guess", "3", "--score", "2", "--char", "k.toml"], "not both"),
])
def test_resolve_errors_are_one_line_and_exit_2(args: list[str], complaint: str) -> None:
    ran = cwx("clock", "resolve", *args)
    assert ran.status == 2 and ran.stdout == ""
    assert complaint in ran.error


def test_exit_code_flag_gives_1_on_a_failed_action() -> None:
    base = ["clock", "resolve", "--target", "4", "--exit-code", "--score", "1"]
    assert cwx(*base, "--guess", 4).status == 0
    assert cwx(*base, "--guess", 8).status == 1
    assert cwx("clock", "resolve", "--target", 4, "--guess", 8, "--score", 1).status == 0


def test_pick_json_and_seed() -> None:
    first = cwx("clock", "pick", "--seed", 42, "--json")
    assert first.status == 0 and first.json["commitment"] is None  # --seal's key, null
    assert set(first.json) == {"target", "commitment"}
    assert 1 <= first.json["target"] <= 12
    assert cwx("clock", "pick", "--seed", 42, "--json").json == first.json


def test_unseeded_picks_do_not_repeat_a_pattern() -> None:
    picks = {cwx("clock", "pick", "--json").json["target"] for _ in range(60)}
    assert len(picks) >= 6  # 60 uniform picks from 12 miss six values with odds < 1e-9


def test_char_new_clockworx(tmp_path: Path) -> None:
    path = tmp_path / "kris.toml"
    ran = cwx("char", "new", path, "--system", "clockworx", "--trait", "Scrounge=3",
              "--trait", "Repair=3", "--trait", "Tough=5", "--name", "Kris", "--json")
    assert ran.status == 0
    assert ran.json == {"name": "Kris", "system": "clockworx",
                        "traits": {"Scrounge": 3, "Repair": 3, "Tough": 5}, "xp": 0,
                        "unspent": 1}
    assert tomllib.loads(path.read_text())["traits"]["Tough"] == 5
    assert "# Kris, a ClockWorx character" in path.read_text()
    assert journal(tmp_path)[0]["command"] == "char new"


def test_char_new_reports_unspent_creation_points(tmp_path: Path) -> None:
    ran = cwx("char", "new", tmp_path / "kris.toml", "--system", "clockworx",
              "--trait", "Scrounge=3", "--trait", "Repair=3", "--trait", "Tough=5")
    assert ran.status == 0
    assert "1 of 12 creation points left unspent." in ran.stdout


def test_char_new_names_with_spaces_and_quotes_are_written_as_toml(tmp_path: Path) -> None:
    path = tmp_path / "odd.toml"
    assert cwx("char", "new", path, "--system", "clockworx", "--trait", 'Piercing "Stare"=2',
               "--trait", "Huge Muscles=2", "--trait", "Flawless Skin=2").status == 0
    assert cwx("char", "show", path, "--json").json["traits"] == {
        'Piercing "Stare"': 2, "Huge Muscles": 2, "Flawless Skin": 2}
    assert cwx("char", "show", path, "--json").json["name"] == "odd"


@pytest.mark.parametrize(("traits", "complaint"), [
    (["A=4", "B=4", "C=5"], "total 13"),
    (["A=4", "B=4"], "at least 3"),
    (["A=4", "a=4", "B=1"], "ignoring case"),
    (["A=x", "B=1", "C=1"], "whole number"),
    (["A", "B=1", "C=1"], "NAME=SCORE"),
    (["A=7", "B=1", "C=1"], "1 to 6"),
])
def test_char_new_refuses_what_c1_forbids(tmp_path: Path, traits: list[str],
                                          complaint: str) -> None:
    args = [arg for t in traits for arg in ("--trait", t)]
    ran = cwx("char", "new", tmp_path / "x.toml", "--system", "clockworx", *args)
    assert ran.status == 2 and complaint in ran.error
    assert not (tmp_path / "x.toml").exists()


def test_char_show_json_and_sheet(campaign: Path) -> None:
    ran = cwx("char", "show", campaign / "kris.toml", "--json")
    assert ran.json == {"name": "Kris", "system": "clockworx",
                        "traits": {"Scrounge": 3, "Repair": 3, "Tough": 5}, "xp": 0}
    sheet = cwx("char", "show", campaign / "kris.toml").stdout
    assert "Kris · ClockWorx" in sheet and "Tough     ●●●●●○  5" in sheet


def test_xp_spend_new_and_raise(campaign: Path) -> None:
    mara = campaign / "mara.toml"
    ran = cwx("xp", "spend", "--char", mara, "--new", "Climb", "--json")
    assert ran.status == 0
    assert ran.json == {"trait": "Climb", "score": 1, "cost": 12, "xp_total": 2}
    data = tomllib.loads(mara.read_text())
    assert data["traits"]["Climb"] == 1 and data["xp"] == 2
    refused = cwx("xp", "spend", "--char", mara, "--raise", "climb")
    assert refused.status == 2
    assert refused.error == (f"cwx: error: {mara}: 'Climb' to 2 costs 24 experience; "
                             "the character has 2")


def test_xp_spend_needs_exactly_one_of_new_and_raise(campaign: Path) -> None:
    ran = cwx("xp", "spend", "--char", campaign / "mara.toml")
    assert ran.status == 2 and "either a new trait" in ran.error


def test_clockworx_commands_refuse_a_color_wheel_character(tmp_path: Path) -> None:
    sue = tmp_path / "sue.toml"
    cwx("char", "new", sue, "--system", "colorwheel", *[
        arg for pair in ["red=Strong", "yellow=Clever", "blue=Athletic", "orange=Brave",
                         "green=Healer", "purple=Friendly"] for arg in ("--trait", pair)])
    ran = cwx("xp", "spend", "--char", sue, "--new", "X")
    assert ran.status == 2 and "is a Color Wheel character" in ran.error


def test_every_command_has_help_with_an_example() -> None:
    for command in (["char", "new"], ["char", "show"], ["clock", "pick"], ["clock", "resolve"],
                    ["xp", "spend"]):
        ran = cwx(*command, "--help")
        assert ran.status == 0 and "Example: cwx " in ran.stdout, command


def test_a_bare_group_shows_its_help() -> None:
    ran = cwx("clock")
    assert ran.status == 0 and "resolve" in ran.stdout
