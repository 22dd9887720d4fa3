"""Around the rules: sealed numbers, the journal, check, init, schemas, completion."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest

from cwx import seal
from tests.helpers import EXAMPLES, cwx, journal

SEALED = seal.FILE


# ---------------------------------------------------------------- the sealed number

def test_pick_seal_prints_only_a_commitment(tmp_path: Path) -> None:
    ran = cwx("clock", "pick", "--seal", "--target", 7, "--campaign", tmp_path, "--json")
    assert ran.status == 0 and list(ran.json) == ["commitment"]
    assert len(ran.json["commitment"]) == 64
    assert "7" not in cwx("clock", "pick", "--seal", "--target", 7, "--force",
                          "--campaign", tmp_path).stdout.split("commitment")[0]
    # The journal, public in git, holds the commitment and never the number.
    assert all("nonce" not in json.dumps(e) for e in journal(tmp_path))


def test_the_sealed_file_is_for_the_gms_eyes_only(tmp_path: Path) -> None:
    cwx("clock", "pick", "--seal", "--campaign", tmp_path)
    assert (tmp_path / SEALED).stat().st_mode & 0o777 == 0o600


def test_the_same_number_never_gives_the_same_commitment(tmp_path: Path) -> None:
    # Twelve numbers: an unsalted hash would be recovered by trying them all.
    commitments = {seal.new(7).commitment for _ in range(50)}
    assert len(commitments) == 50
    sealed = seal.new(7)
    assert not any(seal.verified(sealed.commitment, n, "0" * 64) for n in range(1, 13))
    assert len(bytes.fromhex(sealed.nonce)) * 8 >= 128


def test_reveal_shows_the_number_and_verifies(tmp_path: Path) -> None:
    commitment = cwx("clock", "pick", "--seal", "--campaign", tmp_path, "--json").json["commitment"]
    ran = cwx("clock", "reveal", "--campaign", tmp_path, "--json")
    assert ran.status == 0
    assert set(ran.json) == {"target", "nonce", "commitment", "verified"}
    assert ran.json["commitment"] == commitment and ran.json["verified"] is True
    checked = cwx("clock", "verify", "--commitment", commitment, "--target", ran.json["target"],
                  "--nonce", ran.json["nonce"], "--json")
    assert checked.status == 0 and checked.json["verified"] is True
    wrong = ran.json["target"] % 12 + 1
    lie = cwx("clock", "verify", "--commitment", commitment, "--target", wrong,
              "--nonce", ran.json["nonce"])
    assert lie.status == 1 and "does not match the commitment" in lie.stdout
    lie = cwx("clock", "verify", "--commitment", commitment, "--target", wrong,
              "--nonce", ran.json["nonce"], "--json")
    assert lie.status == 1 and lie.json["verified"] is False


def test_a_tampered_sealed_file_is_an_error(tmp_path: Path) -> None:
    cwx("clock", "pick", "--seal", "--target", 3, "--campaign", tmp_path)
    path = tmp_path / SEALED
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "target": 4}))
    ran = cwx("clock", "reveal", "--campaign", tmp_path)
    assert ran.status == 2 and "has been altered" in ran.error
    path.write_text("{not json")
    assert "is not a sealed number" in cwx("clock", "reveal", "--campaign", tmp_path).error


def test_a_missing_sealed_file_is_an_error(tmp_path: Path) -> None:
    ran = cwx("clock", "reveal", "--campaign", tmp_path)
    assert ran.status == 2 and "no sealed number here" in ran.error


def test_an_unrevealed_seal_is_not_replaced_without_force(tmp_path: Path) -> None:
    cwx("clock", "pick", "--seal", "--campaign", tmp_path)
    before = (tmp_path / SEALED).read_bytes()
    ran = cwx("clock", "pick", "--seal", "--campaign", tmp_path)
    assert ran.status == 2 and "--force" in ran.error
    assert (tmp_path / SEALED).read_bytes() == before


def test_resolve_against_the_sealed_number_reveals_it(campaign: Path) -> None:
    cwx("clock", "pick", "--seal", "--target", 4, "--campaign", campaign)
    ran = cwx("clock", "resolve", "--sealed", "--guess", 3, "--trait", "Repair",
              "--char", campaign / "kris.toml", "--json")
    assert ran.status == 0
    assert ran.json["target"] == 4 and ran.json["xp"] == 2 and ran.json["verified"] is True
    assert tomllib.loads((campaign / "kris.toml").read_text())["xp"] == 2
    again = cwx("clock", "resolve", "--sealed", "--guess", 4, "--char", campaign / "kris.toml")
    assert again.status == 2 and "already revealed" in again.error


def test_pick_seal_refuses_a_seed() -> None:
    assert "predictable" in cwx("clock", "pick", "--seal", "--seed", 1).error


# ---------------------------------------------------------------- the journal

def test_log_json_is_the_journal_oldest_first(campaign: Path) -> None:
    kris, sue = campaign / "kris.toml", campaign / "sue.toml"
    cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair", "--char", kris)
    cwx("bag", "draw", "--char", sue, "--bag", campaign / "bag.toml", "--color", "red",
        "--drawn", "red")
    cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Repair", "--char", kris)
    ran = cwx("log", "--char", kris, "--json")
    events = ran.json["events"]
    assert [e["result"]["xp"] for e in events] == [2, 6]
    assert all(e["v"] == 2 and e["file"] == "kris.toml" for e in events)
    assert cwx("log", "--char", kris, "--last", 1, "--json").json["events"] == events[-1:]
    os.chdir(campaign)
    everything = cwx("log", "--json").json["events"]
    assert [e["command"] for e in everything] == ["clock resolve", "bag draw", "clock resolve"]


def test_events_carry_enough_to_replay_the_change(campaign: Path) -> None:
    sue = campaign / "sue.toml"
    cwx("bag", "draw", "--char", sue, "--bag", campaign / "bag.toml", "--color", "red",
        "--drawn", "white", "--drawn", "red", "--keep-white")
    (event,) = journal(campaign)
    replay = {(c["file"], c["key"]): c["to"] for c in event["changes"]}
    assert replay == {("sue.toml", "luck.white"): 1, ("bag.toml", "reserve.white"): 9}
    assert {c["from"] for c in event["changes"]} == {0, 10}


def test_log_for_people_is_a_table(campaign: Path) -> None:
    cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
        "--char", campaign / "kris.toml")
    text = cwx("log", "--char", campaign / "kris.toml").stdout
    assert text.splitlines()[0].split() == ["when", "who", "what", "outcome", "change"]
    assert "Kris" in text and "clock resolve (Repair, 3 vs 4)" in text and "xp 0 → 2" in text


def test_a_damaged_journal_line_is_left_out_by_log_and_named_by_check(campaign: Path) -> None:
    cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
        "--char", campaign / "kris.toml")
    with (campaign / "journal.jsonl").open("a") as file:
        file.write('{"v": 1}\n<<<<<<< HEAD\n')
    ran = cwx("log", "--char", campaign / "kris.toml", "--json")
    assert ran.status == 0 and len(ran.json["events"]) == 1
    assert "2 line(s) are not journal events" in ran.error
    checked = cwx("check", campaign)
    assert checked.status == 2
    assert "journal.jsonl:2: is not a journal event (unknown version" not in checked.stdout
    assert "journal.jsonl:2: is not a journal event (id must be text)" in checked.stdout
    assert "journal.jsonl:3: is a git conflict marker" in checked.stdout


# ---------------------------------------------------------------- check

def test_check_passes_the_examples() -> None:
    ran = cwx("check", EXAMPLES, "--json")
    assert ran.status == 0 and ran.json["ok"] is True and ran.json["problems"] == []
    assert ran.json["checked"] == len(list(EXAMPLES.glob("*.toml")))


def test_check_names_each_bad_file_and_exits_2(campaign: Path) -> None:
    (campaign / "broken.toml").write_text(
        'name = "x"\nsystem = "clockworx"\n[traits]\nA = 9\nB = 1\nC = 1\n')
    nested = campaign / "npcs"
    nested.mkdir()
    (nested / "guard.toml").write_text("[bag]\nred = -2\n")
    ran = cwx("check", campaign)
    assert ran.status == 2
    assert f"{campaign}/broken.toml:4 [traits.A]:" in ran.stdout
    assert f"{nested}/guard.toml:2 [bag.red]:" in ran.stdout
    assert "Checked 7 files: 5 valid, 2 problems." in ran.stdout
    data = cwx("check", campaign, "--json").json
    assert {p["file"] for p in data["problems"]} == {f"{campaign}/broken.toml",
                                                      f"{nested}/guard.toml"}


def test_check_takes_files_as_a_pre_commit_hook_passes_them(campaign: Path) -> None:
    assert cwx("check", campaign / "kris.toml", campaign / "bag.toml").status == 0
    hooks = (Path(__file__).parent.parent / ".pre-commit-hooks.yaml").read_text()
    assert "id: cwx-check" in hooks and "entry: cwx check" in hooks


# ---------------------------------------------------------------- init and schemas

def test_init_makes_a_campaign_ready_for_git(tmp_path: Path) -> None:
    folder = tmp_path / "saga"
    ran = cwx("init", folder, "--json")
    assert ran.status == 0
    assert set(ran.json["created"]) == {"bag.toml", "README.md", "Makefile", ".gitattributes",
                                        ".gitignore", "character.schema.json",
                                        "bag.schema.json"}
    assert "journal.jsonl merge=union" in (folder / ".gitattributes").read_text()
    assert (folder / "bag.toml").read_text().startswith("#:schema ./bag.schema.json\n")
    assert cwx("check", folder).status == 0
    new = cwx("char", "new", folder / "hero.toml", "--system", "clockworx",
              "--trait", "A=4", "--trait", "B=4", "--trait", "C=4")
    assert new.status == 0
    assert (folder / "hero.toml").read_text().startswith("#:schema ./character.schema.json\n")


def test_init_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    ran = cwx("init", tmp_path)
    assert ran.status == 2 and "is not empty" in ran.error
    assert os.listdir(tmp_path) == ["notes.txt"]
    (tmp_path / "Makefile").write_text("all:\n\techo mine\n")
    forced = cwx("init", tmp_path, "--force", "--json")
    assert forced.status == 0 and forced.json["kept"] == ["Makefile"]
    assert (tmp_path / "Makefile").read_text() == "all:\n\techo mine\n"


def test_init_merges_two_players_journals_without_conflict(tmp_path: Path) -> None:
    folder = tmp_path / "saga"
    cwx("init", folder)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(folder)]
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "start"], check=True)
    subprocess.run([*git, "checkout", "-qb", "gm"], check=True)
    cwx("clock", "pick", "--seal", "--campaign", folder)
    subprocess.run([*git, "commit", "-qam", "gm"], check=True)
    subprocess.run([*git, "checkout", "-q", "-"], check=True)
    cwx("bag", "new", folder / "bag2.toml")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "player"], check=True)
    merged = subprocess.run([*git, "merge", "-q", "gm", "-m", "merge"], capture_output=True)
    assert merged.returncode == 0, merged.stderr
    commands = [e["command"] for e in journal(folder)]
    assert commands.count("init") == 1 and "clock pick --seal" in commands
    assert "bag new" in commands


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_the_schemas_accept_every_example(example: Path) -> None:
    kind = "bag" if example.name == "bag.toml" else "character"
    schema = cwx("schema", kind).json
    jsonschema.validate(tomllib.loads(example.read_text()), schema)


@pytest.mark.parametrize(("kind", "data"), [
    ("character", {"system": "clockworx", "traits": {"A": 9, "B": 1, "C": 1}}),
    ("character", {"system": "clockworx", "traits": {"A": 1, "B": 1}}),
    ("character", {"system": "gurps", "traits": {}}),
    ("character", {"system": "colorwheel", "traits": {"red": ["x"]}}),
    ("bag", {"bag": {"green": 1}}),
    ("bag", {"bag": {"red": -1}}),
])
def test_the_schemas_reject_what_cwx_rejects(kind: str, data: dict[str, object]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, cwx("schema", kind).json)


def test_schema_of_an_unknown_kind() -> None:
    assert "not a kind of file" in cwx("schema", "dragon").error


# ---------------------------------------------------------------- completion

def _complete(words: str, cwd: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "cwx"], capture_output=True, text=True, cwd=cwd,
        env={**os.environ, "_CWX_COMPLETE": "complete_bash", "COMP_WORDS": words,
             "COMP_CWORD": str(len(words.split(" ")) - 1)})
    return done.stdout.split()


def test_completion_offers_the_characters_traits_and_the_colours(campaign: Path) -> None:
    assert _complete("cwx clock resolve --char kris.toml --trait ", campaign) == [
        "Scrounge", "Repair", "Tough"]
    assert _complete("cwx bag draw --char sue.toml --trait A", campaign) == ["Athletic"]
    assert _complete("cwx bag draw --color g", campaign) == ["green"]


# ---------------------------------------------------------------- the clock face

def test_the_clock_face_reads_plain_when_piped_and_with_no_color() -> None:
    args = ["clock", "resolve", "--target", "1", "--guess", "11", "--score", "3"]
    plain = cwx(*args).stdout
    assert "(11)" in plain and "[1]" in plain and "·12·" in plain and "1 inside" in plain
    coloured = cwx(*args, env={"FORCE_COLOR": "1"}).stdout
    assert "\x1b[" in coloured
    assert "\x1b[" not in cwx(*args, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    piped = subprocess.run([sys.executable, "-m", "cwx", *args], capture_output=True, text=True)
    assert piped.stdout == plain
