"""What check re-plays beyond each event's own changes (issue 30): a reveal's word on whether
each guess counts, a making's text, the `from` of a die moved, a clock drifting ahead.
Each finding is one line with the next step, and that step, followed, settles it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cwx, saga
from tests.test_post import _identity, play, sync, table_of_three
from tests.test_sealed import _guessed_in_one_folder

__all__ = ["_identity"]  # the fixture: git's author from no config, HOME in tmp_path


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, lines: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))


def _xp(folder: Path) -> int:
    return int(next(line for line in (folder / "kris.toml").read_text().splitlines()
                    if line.startswith("xp")).split("=")[1].split("#")[0])


# ---------------------------------------------------------------- a reveal's word


@pytest.mark.parametrize("why", [
    "its character had guessed on this number",  # no other guess of Kris's on it
    "its score (3) is no Repair score kris had by the guess",  # Kris made with Repair 3
    "the GM says so",  # no reason the rules give
])
def test_a_reveal_that_denies_a_guess_it_listed_is_named_and_revealing_again_settles_it(
        tmp_path: Path, why: str) -> None:
    """The GM's reveal lists Kris's exact guess but says it counts for nothing: check
    names it; the advice followed (the reveal undone, the GM reveals again) gives the 6 xp."""
    folder = _guessed_in_one_folder(tmp_path / "camp", 3)
    assert cwx("clock", "reveal", cwd=folder).status == 0
    path = folder / "journal.jsonl"
    lines = _lines(path)
    reveal = lines[-1]
    entry = reveal["result"]["guesses"][0]
    del entry["xp_total"]
    entry.update(counted=False, why=why)
    reveal["changes"] = []
    _write(path, lines)
    (folder / "kris.toml").write_text((folder / "kris.toml").read_text().replace(
        "xp = 6", "xp = 0"))
    checked = cwx("check", folder)
    assert checked.status == 1
    said = [line.split("/camp/")[-1] for line in checked.stdout.splitlines()
            if f"reveal {reveal['id'][:8]}" in line]
    assert said == [f"journal.jsonl:{len(lines)}: reveal {reveal['id'][:8]} settles kris's guess "
                    f"{entry['id'][:8]} (result.guesses, counted) and says it counts for "
                    f"nothing ({why!r}), where the rules count it: a reveal settles each guess "
                    f"it lists as the rules give (a line written by hand?); `cwx undo "
                    f"{reveal['id']}` takes it back, and the GM's `cwx clock reveal` then "
                    "settles its guesses again"], checked.stdout
    assert cwx("undo", reveal["id"], "--player", "Vic", cwd=folder).status == 0
    assert cwx("check", folder).status == 0
    assert cwx("clock", "reveal", cwd=folder).status == 0  # the GM's, settling it again
    assert _xp(folder) == 6
    assert cwx("check", folder).status == 0


def test_a_reveal_is_held_to_the_rules_on_a_second_guess_of_one_character(
        tmp_path: Path) -> None:
    """Two clones guessed for Kris at once (a guess line copied with a new id): the honest
    reveal counts the first alone and passes; one that counts both is named."""
    folder = _guessed_in_one_folder(tmp_path / "camp", 3)
    path = folder / "journal.jsonl"
    lines = _lines(path)
    lines.append({**lines[-1], "id": "9" * 16, "at": lines[-1]["at"][:-4] + "999Z"})
    _write(path, lines)
    assert cwx("clock", "reveal", cwd=folder).status == 0
    assert cwx("check", folder).status == 0
    lines = _lines(path)
    reveal = lines[-1]
    second = reveal["result"]["guesses"][1]
    assert second["why"] == "its character had guessed on this number"
    del second["why"], second["counted"]
    reveal["changes"][0]["to"] = 12
    _write(path, lines)
    checked = cwx("check", folder)
    assert checked.status == 1
    assert f"reveal {reveal['id'][:8]} settles kris's guess 99999999 (result.guesses, " \
           "counted) and counts it, where the rules give nothing: its character had " \
           "guessed on this number" in checked.stdout, checked.stdout


def test_a_pull_that_brings_a_denied_guess_or_a_forged_gain_changes_no_file(
        tmp_path: Path) -> None:
    """Real git: the GM seals, Alice guesses 3, the GM reveals it counting for nothing and
    pushes a forged gain for Kris past the hooks; Alice's pull names both in her check, and
    her hook brings no file to the ledger they make (no hook makes a file follow a line the
    rules do not give)."""
    table, gm, alice, _ = table_of_three(tmp_path)
    play(gm, "GM", "clock", "pick", "--seal", "--target", "3")
    sync(gm, "GM")
    sync(alice, "Alice")
    play(alice, "Alice", "clock", "resolve", "--sealed", "-g", 3, "-t", "repair", "-c", "kris")
    sync(alice, "Alice")
    sync(gm, "GM")
    play(gm, "GM", "clock", "reveal")
    path = gm / "journal.jsonl"
    lines = _lines(path)
    reveal = lines[-1]
    entry = reveal["result"]["guesses"][0]
    entry.update(counted=False, why="the GM says so")
    reveal["changes"] = []
    gain = {**reveal, "id": "f" * 16, "command": "clock resolve", "who": "Kris",
            "file": "kris.toml", "result": {"target": 4, "guess": 4, "distance": 0,
                                            "trait": "Repair", "score": 3, "success": True,
                                            "critical": True, "xp": 6},
            "changes": [{"file": "kris.toml", "key": "xp", "from": 0, "to": 1000}]}
    _write(path, [*lines, gain])
    table.git(gm, "checkout", "kris.toml")
    table.git(gm, "commit", "-qam", "the reveal", "--no-verify")
    table.git(gm, "push", "-q", "origin", "main")
    table.git(alice, "pull", "-q", "--no-rebase")
    assert _xp(alice) == 0
    checked = play(alice, "Alice", "check", status=1)
    assert f"reveal {reveal['id'][:8]} settles Kris's guess" in checked or \
        f"reveal {reveal['id'][:8]} settles kris's guess" in checked, checked
    assert "clock resolve ffffffff changes kris.toml xp 0 → 1000" in checked


# ---------------------------------------------------------------- a making


def _remade(campaign: Path, file: str, text: str, *, id_: str, created: bool) -> None:
    """A `char new` line written by hand, as a forger's clone writes it (having seen the
    file's latest event), and the file it says."""
    lines = _lines(campaign / "journal.jsonl")
    last = lines[-1]
    made = {"v": 2, "id": id_, "at": last["at"][:-4] + "999Z", "command": "char new",
            "who": None, "file": file, "bag": None, "player": "Mallory",
            "result": {"saw": {"at": last["at"], "id": last["id"]}},
            "changes": [{"file": file, "created": created, "text": text}]}
    _write(campaign / "journal.jsonl", [*lines, made])
    (campaign / file).write_text(text)


def test_a_remaking_over_a_character_that_earned_experience_is_named(tmp_path: Path) -> None:
    """Kris earns 2 xp; a forged `char new` (a remaking, within C1's 12 points, xp 0) makes
    him anew: the rules refuse `char new --force` over him. Named; its undo and a reconcile
    (the advice) give him back as played."""
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "repair", "-c", "kris",
               cwd=campaign).status == 0
    text = (campaign / "kris.toml").read_text().replace("xp = 2", "xp = 0")
    _remade(campaign, "kris.toml", text.replace("Tough = 5", "Tough = 6"),
            id_="ad2ad2ad2ad2ad22", created=False)
    checked = cwx("check", campaign)
    assert checked.status == 1
    assert f"journal.jsonl:{len(_lines(campaign / 'journal.jsonl'))}: char new ad2ad2ad makes " \
           "kris.toml anew over a character with 2 xp earned (by the lines it saw), which " \
           "`char new --force` refuses: a character that earned any is retired first: a " \
           "change the rules do not give (a line no cwx wrote?); `cwx undo ad2ad2ad` takes " \
           "it back" in checked.stdout, checked.stdout
    assert cwx("undo", "ad2ad2ad", cwd=campaign).status == 0
    assert cwx("reconcile", campaign).status == 0
    assert _xp(campaign) == 2 and "Tough = 5" in (campaign / "kris.toml").read_text()
    assert cwx("check", campaign).status == 0
    # An honest remaking of a character that earned nothing passes.
    assert cwx("char", "new", campaign / "sue2.toml", "--system", "clockworx", "-t", "A=3",
               "-t", "B=3", "-t", "C=3").status == 0
    assert cwx("char", "new", campaign / "sue2.toml", "--system", "clockworx", "-t", "A=4",
               "-t", "B=4", "-t", "C=4", "--force").status == 0
    assert cwx("check", campaign).status == 0


def test_a_colour_wheel_making_is_held_to_what_creation_gives(tmp_path: Path) -> None:
    """A forged making of a Color Wheel character holding luck and two traits on red (W2:
    one trait a colour, no dice) is named, as a ClockWorx making with experience is."""
    campaign = saga(tmp_path / "camp")
    text = (campaign / "sue.toml").read_text().replace(
        'red = ["Strong"]', 'red = ["Strong", "Quick"]').replace("white = 0", "white = 2")
    assert 'red = ["Strong", "Quick"]' in text and "white = 2" in text
    _remade(campaign, "zoe.toml", text.replace('"Sue"', '"Zoe"'), id_="ad3ad3ad3ad3ad33",
            created=True)
    checked = cwx("check", campaign)
    assert checked.status == 1
    assert "char new ad3ad3ad makes zoe.toml a character with 2 white and 0 black dice held " \
           "and traits traded for on red, which no making gives" in checked.stdout, \
        checked.stdout


# ---------------------------------------------------------------- where a die starts


def test_a_draw_that_starts_a_die_from_what_no_clone_held_is_named(tmp_path: Path) -> None:
    """Sue keeps a white (0 → 1). A forged copy of that draw says she held 5 (5 → 6): the
    ledger sums the same +1, and the draw re-plays alike from its own `from`, but no clone
    ever held 5 there. Named; its undo (the advice) settles it."""
    campaign = saga(tmp_path / "camp")
    assert cwx("bag", "draw", "-c", campaign / "sue.toml", "-C", "blue", "--drawn", "white",
               "--drawn", "blue", "--keep-white").status == 0
    assert cwx("check", campaign).status == 0
    path = campaign / "journal.jsonl"
    lines = _lines(path)
    forged = json.loads(json.dumps(lines[-1]))
    forged.update(id="5a5a5a5a5a5a5a5a", at=lines[-1]["at"][:-4] + "999Z")
    for change in forged["changes"]:
        if change["key"] == "luck.white":
            change["from"], change["to"] = 5, 6
    forged["result"]["luck"]["white"] = 6
    _write(path, [*lines, forged])
    checked = cwx("check", campaign)
    assert checked.status == 1
    said = [line.split("/camp/")[-1] for line in checked.stdout.splitlines() if "5a5a5a5a" in line]
    assert said == [f"journal.jsonl:{len(lines) + 1}: bag draw 5a5a5a5a starts sue.toml "
                    "luck.white from 5, which no clone held there: its start and the changes "
                    "before it leave 0 to 1: a change the rules do not give (a line no cwx "
                    "wrote?); `cwx undo 5a5a5a5a` takes it back"], checked.stdout
    assert cwx("undo", "5a5a5a5a", cwd=campaign).status == 0
    assert cwx("check", campaign).status == 0


# ---------------------------------------------------------------- a clock creeping ahead


def _missed(at: str, id_: str) -> dict[str, Any]:
    """Kris's failed guess (no change), stamped `at`."""
    return {"v": 2, "id": id_, "at": at, "command": "clock resolve", "who": "Kris",
            "file": "kris.toml", "bag": None, "player": "Mallory",
            "result": {"target": 4, "guess": 10, "distance": 6, "trait": "Repair", "score": 3,
                       "success": False, "critical": False, "xp": 0},
            "changes": []}


@pytest.mark.parametrize(("steps", "minutes"), [(12, 9), (1, 30 * 60)])
def test_a_journal_stamped_far_ahead_of_this_clock_is_noted_once(
        tmp_path: Path, steps: int, minutes: int) -> None:
    """Lines each 9 minutes past the last (none leaps ten) carry the journal 108 minutes
    ahead: check notes its latest line once, how far ahead, exit 0. A single leap of 30
    hours is noted once too, as the leap."""
    import time

    campaign = saga(tmp_path / "camp", kris="kris.toml")
    path = campaign / "journal.jsonl"
    now = time.time()
    lines = _lines(path) + [
        _missed(time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(now + 60 * minutes * n)),
                f"{0xc0de0000 + n:016x}") for n in range(1, steps + 1)]
    _write(path, lines)
    checked = cwx("check", campaign)
    assert checked.status == 0, checked.stdout
    notes = [line for line in checked.stdout.splitlines() if line.startswith("Note:")]
    ahead = f"{round(steps * minutes / 60)} hours" if steps * minutes >= 120 else \
        f"{steps * minutes} minutes"
    assert len(notes) == 1 and f"journal.jsonl:{len(lines)}: " in notes[0] and \
        f"{ahead} ahead of this clone's clock" in notes[0], notes
    assert ("no line leapt there" in notes[0]) == (steps > 1)
    said = json.loads(cwx("check", campaign, "--json").stdout)
    assert [entry["line"] for entry in said["ahead"]] == [len(lines)]
