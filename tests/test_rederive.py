"""`cwx check` re-plays every event through the rules (issue 30, item 2): a change the
rules do not give is named, with the event, its line, the key, what the rules give and
what the line says; an undo settles it; the table's adopt is taken as written."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import SUE, cwx, followed, journal, saga


def _append(folder: Path, **event: Any) -> None:
    now = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    line = {"v": 2, "at": now, "bag": None, "player": "Mallory", **event}
    with open(folder / "journal.jsonl", "a") as file:
        file.write(json.dumps(line) + "\n")


def _lines(folder: Path) -> int:
    return len((folder / "journal.jsonl").read_text().splitlines())


def _checked(folder: Path) -> list[str]:
    ran = cwx("check", folder)
    return [line for line in ran.stdout.splitlines() if "the rules" in line]


def test_a_resolve_whose_experience_the_rules_do_not_give_is_named(tmp_path: Path) -> None:
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    _append(campaign, id="f0f0f0f0f0f0f0f0", command="clock resolve", who="Kris",
            file="kris.toml", result={"target": 4, "guess": 4, "distance": 0,
                                      "trait": "Repair", "score": 3, "success": True,
                                      "critical": True, "xp": 3, "xp_total": 1000},
            changes=[{"file": "kris.toml", "key": "xp", "from": 0, "to": 1000}])
    line = _lines(campaign)
    followed(campaign)
    ran = cwx("check", campaign)
    assert ran.status == 1
    said = ran.stdout
    assert f"journal.jsonl:{line}: clock resolve f0f0f0f0 changes kris.toml xp 0 → 1000; " \
           "the rules give 0 → 6" in said  # a critical success with Repair 3 (C4)
    assert f"journal.jsonl:{line}: clock resolve f0f0f0f0 says xp 3; the rules give 6" in said
    assert "`cwx undo f0f0f0f0` takes it back" in said


def _forged_draw(campaign: Path) -> None:
    """A draw of red (a failure) whose line moves 10 whites from the reserve to Sue."""
    _append(campaign, id="d1d1d1d1d1d1d1d1", command="bag draw", who="Sue",
            file="sue.toml", bag="bag.toml",
            result={"color": "blue", "draws": ["red"], "success": False, "cancelled": False,
                    "white_spent": False, "luck": {"white": 10, "black": 0},
                    "bag": {"red": 1, "yellow": 1, "blue": 1, "white": 1, "black": 1}},
            changes=[{"file": "sue.toml", "key": "luck.white", "from": 0, "to": 10},
                     {"file": "bag.toml", "key": "reserve.white", "from": 10, "to": 0}])


def test_a_failed_draw_that_moves_dice_is_named_and_an_undo_settles_it(
        tmp_path: Path) -> None:
    campaign = saga(tmp_path / "camp")
    _forged_draw(campaign)
    line = _lines(campaign)
    followed(campaign)
    said = _checked(campaign)
    assert said == [
        f"{campaign}/journal.jsonl:{line}: bag draw d1d1d1d1 changes sue.toml luck.white "
        "0 → 10; the rules give no change: a change the rules do not give (a line no cwx "
        "wrote?); `cwx undo d1d1d1d1` takes it back",
        f"{campaign}/journal.jsonl:{line}: bag draw d1d1d1d1 changes bag.toml reserve.white "
        "10 → 0; the rules give no change: a change the rules do not give (a line no cwx "
        "wrote?); `cwx undo d1d1d1d1` takes it back"]
    assert cwx("undo", "d1d1d1d1", cwd=campaign).status == 0  # anyone's to take back
    assert cwx("check", campaign).status == 0


def test_a_reconcile_by_hand_never_follows_a_line_the_rules_do_not_give(
        tmp_path: Path) -> None:
    # As the hooks' reconcile after a merge: refused in one line naming the journal's line
    # and the undo that settles it, no file changed; that undo, followed, settles it.
    campaign = saga(tmp_path / "camp")
    _forged_draw(campaign)
    line = _lines(campaign)
    before = [(campaign / name).read_bytes() for name in ("sue.toml", "bag.toml")]
    refused = cwx("reconcile", campaign)
    assert refused.status == 2
    assert f"journal.jsonl: the journal holds a line the rules do not give, which no file " \
        f"is brought to, so cwx changed nothing: line {line}: bag draw d1d1d1d1 changes " \
        "sue.toml luck.white 0 → 10" in refused.error
    assert refused.error.endswith("`cwx undo d1d1d1d1` takes it back")
    assert [(campaign / name).read_bytes() for name in ("sue.toml", "bag.toml")] == before
    assert cwx("undo", "d1d1d1d1", cwd=campaign).status == 0
    assert cwx("check", campaign).status == 0
    assert [(campaign / name).read_bytes() for name in ("sue.toml", "bag.toml")] == before


def test_an_undo_that_takes_back_another_change_is_named(tmp_path: Path) -> None:
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c",
               campaign / "kris.toml").status == 0
    resolved = journal(campaign)[-1]["id"]
    _append(campaign, id="a0a0a0a0a0a0a0a0", command="undo", who="Kris", file="kris.toml",
            undoes=resolved, result={},
            changes=[{"file": "kris.toml", "key": "xp", "from": 2, "to": 50}])
    line = _lines(campaign)
    followed(campaign)
    assert _checked(campaign) == [
        f"{campaign}/journal.jsonl:{line}: undo a0a0a0a0 does not take back what "
        f"{resolved[:8]} changed (an undo changes each key back by what it changed): a change "
        "the rules do not give (a line no cwx wrote?); `cwx undo a0a0a0a0` takes it back"]
    assert cwx("undo", "a0a0a0a0", "--player", "Mallory", cwd=campaign).status == 0
    assert cwx("check", campaign).status == 0
    assert "xp = 2 " in (campaign / "kris.toml").read_text()


def test_an_undo_or_redo_of_an_event_no_line_holds_gives_no_change(tmp_path: Path) -> None:
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    _append(campaign, id="aaaabbbbccccdddd", command="undo", who="Kris", file="kris.toml",
            undoes="ffffeeeeddddcccc", result={},
            changes=[{"file": "kris.toml", "key": "xp", "from": 0, "to": 1000}])
    _append(campaign, id="abababababababab", command="undo", who="Kris", file="kris.toml",
            undoes="eeeeeeeeeeeeeeee", result={"redo": True},
            changes=[{"file": "kris.toml", "key": "xp", "from": 1000, "to": 1007}])
    line = _lines(campaign)
    followed(campaign)
    assert _checked(campaign) == [
        f"{campaign}/journal.jsonl:{line - 1}: undo aaaabbbb changes kris.toml xp 0 → 1000; "
        "the rules give no change (it undoes ffffeeeeddddcccc, which no line of the journal "
        "holds): a change the rules do not give (a line no cwx wrote?); `cwx undo aaaabbbb` "
        "takes it back",
        f"{campaign}/journal.jsonl:{line}: undo abababab changes kris.toml xp 1000 → 1007; "
        "the rules give no change (it undoes eeeeeeeeeeeeeeee, which no line of the journal "
        "holds): a change the rules do not give (a line no cwx wrote?); `cwx undo abababab` "
        "takes it back"]
    for forged in ("aaaabbbb", "abababab"):  # the advice, followed
        assert cwx("undo", forged, "--player", "Vic", cwd=campaign).status == 0
    assert cwx("check", campaign).status == 0
    assert "xp = 0 " in (campaign / "kris.toml").read_text()


def test_an_undo_names_an_earlier_line_or_counts_for_nothing(tmp_path: Path) -> None:
    """An undo naming itself undoes nothing and its changes count for nothing; one naming a
    later line is named, and settles nothing of that line."""
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    _append(campaign, id="bbbb000000000001", command="undo", who="Kris", file="kris.toml",
            undoes="bbbb000000000001", result={},
            changes=[{"file": "kris.toml", "key": "xp", "from": 0, "to": 500}])
    _append(campaign, id="cccc000000000001", command="undo", who="Kris", file="kris.toml",
            undoes="f0f0f0f0f0f0f0f0", result={},
            changes=[{"file": "kris.toml", "key": "xp", "from": 0, "to": -1000}])
    _append(campaign, id="f0f0f0f0f0f0f0f0", command="clock resolve", who="Kris",
            file="kris.toml", result={"target": 4, "guess": 4, "distance": 0,
                                      "trait": "Repair", "score": 3, "success": True,
                                      "critical": True, "xp": 6, "xp_total": 1000},
            changes=[{"file": "kris.toml", "key": "xp", "from": -1000, "to": 0}])
    line = _lines(campaign)
    followed(campaign)
    assert "xp = 0 " in (campaign / "kris.toml").read_text()  # the ledger holds neither
    ran = cwx("check", campaign)
    assert ran.status == 1
    assert f"journal.jsonl:{line - 2}: undo bbbb0000 names itself as the event it undoes: " \
        "an undo names an earlier event by id, so it counts for nothing" in ran.stdout
    assert f"journal.jsonl:{line - 1}: undo cccc0000 names f0f0f0f0, a later line ({line}), " \
        "as the event it undoes" in ran.stdout
    assert f"journal.jsonl:{line}: clock resolve f0f0f0f0 changes kris.toml xp -1000 → 0; " \
        "the rules give -1000 → -994" in ran.stdout  # not settled by the undo before it
    log = cwx("log", cwd=campaign, env={"COLUMNS": "400"}).stdout
    assert "counts for nothing: it names itself as what it undoes" in log
    assert "undone by bbbb0000" not in log


def test_a_retirement_sends_its_dice_to_the_reserve_and_nowhere_else(tmp_path: Path) -> None:
    campaign = saga(tmp_path / "camp")
    assert cwx("bag", "draw", "-c", campaign / "sue.toml", "-C", "blue", "--drawn", "white",
               "--drawn", "white", "--drawn", "red", "--keep-white").status == 0
    assert cwx("char", "new", campaign / "mal.toml", "--system", "colorwheel", "--name", "Mal",
               *SUE).status == 0
    saw = journal(campaign)[-1]
    _append(campaign, id="dddd000000000001", command="retire", who="Sue", file="sue.toml",
            bag="bag.toml", result={"retired": "sue.toml", "kind": "character",
                                    "dice": {"white": 2, "black": 0},
                                    "saw": {"at": saw["at"], "id": saw["id"]}},
            changes=[{"file": "sue.toml", "key": "luck.white", "from": 2, "to": 0},
                     {"file": "mal.toml", "key": "luck.white", "from": 0, "to": 2},
                     {"file": "sue.toml", "removed": True}])
    (campaign / "sue.toml").unlink()
    line = _lines(campaign)
    followed(campaign)
    assert _checked(campaign) == [
        f"{campaign}/journal.jsonl:{line}: retire dddd0000 changes mal.toml luck.white 0 → 2; "
        "the rules give no change: a change the rules do not give (a line no cwx wrote?); "
        "`cwx undo dddd0000` takes it back",
        f"{campaign}/journal.jsonl:{line}: retire dddd0000 changes bag.toml reserve.white 0 → "
        "0; the rules give 0 → 2: a change the rules do not give (a line no cwx wrote?); "
        "`cwx undo dddd0000` takes it back"]


def test_a_character_retired_as_a_bag_or_taking_another_file_is_refused() -> None:
    from cwx.journal import lines, rederive

    def retired(kind: str, *more: dict[str, Any]) -> list[str | None]:
        line = {"v": 2, "id": "dddd000000000002", "at": "2026-01-01T00:00:00.000Z",
                "command": "retire", "file": "sue.toml", "bag": None,
                "result": {"retired": "sue.toml", "kind": kind, "supply": {
                    "white": -2, "black": 0}, "dice": {"white": 2, "black": 0}},
                "changes": [{"file": "sue.toml", "key": "luck.white", "from": 2, "to": 0},
                            *more]}
        event = lines.parse(json.dumps(line).encode(), 1)
        assert isinstance(event, lines.Event)
        return [item.why for item in rederive.replayed(event)]

    assert retired("bag") == ["retires sue.toml as a bag, but luck.white is no bag's die"]
    assert retired("bag", {"file": "kris.toml", "removed": True}) == [
        "removes kris.toml, which it does not retire"]
    assert retired("character") == [
        "retires sue.toml holding dice, but names no bag whose reserve takes them back"]


def test_a_spend_or_curse_turns_its_characters_last_draw_as_the_rules_say(
        tmp_path: Path) -> None:
    """W5, W6: a white turns a failure, the GM's curse a success, each its character's last
    action; a turn naming any other draw, or none, is named."""
    campaign = saga(tmp_path / "camp")
    sue = campaign / "sue.toml"
    for drawn in (["blue"], ["white", "red", "--keep-white"], ["black", "yellow", "--keep-black"],
                  ["blue"], ["red"]):
        args = [arg if arg.startswith("--") else f"--drawn={arg}" for arg in drawn]
        assert cwx("bag", "draw", "-c", sue, "-C", "blue", *args).status == 0
    draws = [line["id"] for line in journal(campaign) if line["command"] == "bag draw"]
    at = journal(campaign)[-1]["at"][:-4] + "999Z"  # after the draws, in their second

    def turn(id_: str, command: str, draw: str) -> None:
        die = "white" if command == "luck spend" else "black"
        _append(campaign, id=id_, at=at, command=command, who="Sue", file="sue.toml",
                bag="bag.toml", result={"turns": draw, "success": command == "luck spend"},
                changes=[{"file": "sue.toml", "key": f"luck.{die}", "from": 1, "to": 0},
                         {"file": "bag.toml", "key": f"reserve.{die}", "from": 9, "to": 10}])

    turn("a1a1a1a1a1a1a1a1", "luck spend", draws[0])
    turn("a2a2a2a2a2a2a2a2", "luck curse", draws[1])
    turn("a3a3a3a3a3a3a3a3", "luck spend", "deadbeefdeadbeef")
    turn("a4a4a4a4a4a4a4a4", "luck curse", draws[3])
    line = _lines(campaign)
    said = [text.partition(": ")[2].partition(": a spend")[0]
            for text in cwx("check", campaign).stdout.splitlines() if "turns draw" in text]
    assert said == [
        f"luck spend a1a1a1a1 turns draw {draws[0][:8]}, but that draw succeeded: a white "
        "turns a failure (W5)",
        f"luck curse a2a2a2a2 turns draw {draws[1][:8]}, but that draw failed: the GM's curse "
        "spoils a success (W6)",
        "luck spend a3a3a3a3 turns draw deadbeef, but no draw of its character in the "
        "journal made it",
        f"luck curse a4a4a4a4 turns draw {draws[3][:8]}, but its character's last action was "
        f"bag draw {draws[4][:8]}, played after that draw"]
    assert f"journal.jsonl:{line}: luck curse a4a4a4a4" in cwx("check", campaign).stdout


def _resolve(campaign: Path, id_: str, score: int, xp: int, start: int = 0,
             trait: str = "Repair") -> None:
    """A resolve of Kris's trait (target 4, guess 3: a success, xp = score - 1) by
    Mallory, stamped a second after the journal's latest line."""
    latest = max(time.mktime(time.strptime(line["at"][:19], "%Y-%m-%dT%H:%M:%S"))
                 for line in journal(campaign))
    at = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.localtime(latest + 1))
    _append(campaign, id=id_, at=at, command="clock resolve", who="Kris", file="kris.toml",
            result={"target": 4, "guess": 3, "distance": 1, "trait": trait, "score": score,
                    "success": True, "critical": False, "xp": xp, "xp_total": start + xp},
            changes=[{"file": "kris.toml", "key": "xp", "from": start, "to": start + xp}])


def test_a_resolve_played_with_a_score_the_ledger_did_not_hold_is_named(
        tmp_path: Path) -> None:
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    _resolve(campaign, "f0f0f0f0f0f0f0f0", 6, 5)  # Kris's Repair is 3: +2, not +5
    line = _lines(campaign)
    followed(campaign)
    assert _checked(campaign) == [
        f"{campaign}/journal.jsonl:{line}: clock resolve f0f0f0f0 is played with kris.toml "
        "traits.Repair 6, where the ledger held 3 at its place in the journal, and never that "
        "score before it: a change the rules do not give (a line no cwx wrote?); `cwx undo "
        "f0f0f0f0` takes it back"]
    assert cwx("undo", "f0f0f0f0", "--player", "Vic", cwd=campaign).status == 0  # anyone's
    assert cwx("check", campaign).status == 0
    assert "xp = 0 " in (campaign / "kris.toml").read_text()


def test_two_forged_ids_of_one_start_are_each_named_by_a_start_of_their_own(
        tmp_path: Path) -> None:
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    _resolve(campaign, "0000000011111111", 6, 5)
    _resolve(campaign, "0000000022222222", 5, 4, 5)
    followed(campaign)
    said = _checked(campaign)
    assert [line.rpartition("`cwx undo ")[2] for line in said] == [
        "000000001` takes it back", "000000002` takes it back"], said
    for named in ("000000001", "000000002"):  # the advice, followed
        assert cwx("undo", named, "--player", "Vic", cwd=campaign).status == 0
    assert cwx("check", campaign).status == 0


def test_a_score_is_the_ledgers_at_the_resolves_place(tmp_path: Path) -> None:
    """A trait bought by `xp spend`, or edited and adopted, plays from then on; a resolve
    before it, with its later score, is named."""
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    kris = campaign / "kris.toml"
    _resolve(campaign, "e0e0e0e0e0e0e0e0", 3, 2)  # Repair 3, as the sheet
    _resolve(campaign, "e1e1e1e1e1e1e1e1", 1, 0, 2, "Cook")  # Cook 1 before it is bought
    followed(campaign)
    assert cwx("clock", "resolve", "-T", 4, "-g", 4, "-t", "Tough", "-c", kris).status == 0
    assert cwx("xp", "spend", "-c", kris, "--new", "Cook").status == 0  # 12 of 2 + 10
    _resolve(campaign, "e2e2e2e2e2e2e2e2", 1, 0, 0, "Cook")  # after the purchase: right
    kris.write_text(kris.read_text().replace("Repair = 3", "Repair = 6"))
    assert cwx("adopt", kris).status == 0
    _resolve(campaign, "e3e3e3e3e3e3e3e3", 6, 5)  # after the adopt: right
    followed(campaign)
    said = _checked(campaign)
    assert len(said) == 1 and "clock resolve e1e1e1e1 is played with kris.toml " \
        "traits.Cook 1, where the ledger held 0" in said[0], said


def test_a_resolve_played_before_its_clone_pulled_a_raise_is_honest(tmp_path: Path) -> None:
    """The GM raises Repair 3 -> 4 and adopts it; a clone not yet pulled resolves with 3,
    and git's merge puts its line after the raise: the score its character held before is
    honest. A score it never held by the resolve's place is still named."""
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    kris = campaign / "kris.toml"
    kris.write_text(kris.read_text().replace("Repair = 3", "Repair = 4"))
    assert cwx("adopt", kris).status == 0
    _resolve(campaign, "c3c3c3c3c3c3c3c3", 3, 2)  # with the score before the raise
    _resolve(campaign, "c5c5c5c5c5c5c5c5", 5, 4, 2)  # with one never held
    followed(campaign)
    said = _checked(campaign)
    assert len(said) == 1 and "clock resolve c5c5c5c5 is played with kris.toml " \
        "traits.Repair 5, where the ledger held 4 at its place in the journal" in said[0], said


def test_a_score_the_ledger_never_knew_is_taken_as_the_line_says(tmp_path: Path) -> None:
    """A character made before the journal, its traits never changed by a line: the
    ledger knows no score to hold the resolve to (as a journal of an older cwx)."""
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    lines = (campaign / "journal.jsonl").read_text().splitlines()
    (campaign / "journal.jsonl").write_text("\n".join(
        line for line in lines if '"kris.toml"' not in line) + "\n")
    _resolve(campaign, "d0d0d0d0d0d0d0d0", 6, 5)
    said = cwx("check", campaign).stdout
    assert "d0d0d0d0" not in said, said


def test_a_command_no_rule_knows_and_a_file_made_by_a_move_are_named(tmp_path: Path) -> None:
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    _append(campaign, id="c0c0c0c0c0c0c0c0", command="clock bless", who="Kris",
            file="kris.toml", result={},
            changes=[{"file": "kris.toml", "key": "xp", "from": 0, "to": 9}])
    _append(campaign, id="c1c1c1c1c1c1c1c1", command="luck spend", who="Sue",
            file="sue.toml", bag="bag.toml", result={"success": True},
            changes=[{"file": "rick.toml", "created": True,
                      "text": 'system = "colorwheel"\n[traits]\n[luck]\nwhite = 5\n'}])
    said = "\n".join(_checked(campaign))
    assert "clock bless c0c0c0c0 is a command this cwx does not know (clock bless)" in said
    assert "luck spend c1c1c1c1 writes rick.toml whole, which no luck spend does" in said


def test_every_move_cwx_makes_replays_as_written(tmp_path: Path) -> None:
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    sue, kris = campaign / "sue.toml", campaign / "kris.toml"
    for args in (
            ["bag", "draw", "-c", sue, "-C", "blue", "--drawn", "white", "--drawn", "black",
             "--drawn", "yellow", "--keep-white", "--keep-black"],
            ["luck", "spend", "-c", sue],
            ["bag", "draw", "-c", sue, "-C", "red", "--drawn", "white"],  # cancelled (D13)
            ["game", "end", "-c", sue],
            ["bag", "draw", "-c", sue, "-C", "green", "--drawn", "white", "--drawn", "white",
             "--drawn", "white", "--drawn", "blue", "--keep-white"],
            ["wheel", "buy", "-c", sue, "-C", "red", "-t", "Loud"],
            ["bag", "draw", "-c", sue, "-C", "purple", "--drawn", "red"],
            ["clock", "resolve", "-T", 4, "-g", 4, "-t", "Repair", "-c", kris],
            ["clock", "resolve", "-T", 4, "-g", 11, "-t", "Tough", "-c", kris],
            ["clock", "resolve", "-T", 4, "-g", 4, "-c", kris],
            ["clock", "resolve", "-T", 1, "-g", 1, "-t", "Tough", "-c", kris],
            ["xp", "spend", "-c", kris, "--new", "Cook"],
            ["undo"], ["undo", "--redo"],
            ["clock", "pick", "--seal", "-T", 5],
            ["clock", "resolve", "--sealed", "-g", 6, "-t", "Tough", "-c", kris],
            ["retire", sue]):
        ran = cwx(*args, cwd=campaign, env={"CWX_PLAYER": "GM"})
        assert ran.status in (0, 1), (args, ran.stderr)
    ran = cwx("check", campaign)
    assert ran.status == 0, ran.stdout


# ---------------------------------------------------------------- any forged change


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A campaign played with every kind of move, nothing undone: each line is the rules'."""
    folder = saga(tmp_path_factory.mktemp("played") / "camp", kris="kris.toml")
    sue, kris = folder / "sue.toml", folder / "kris.toml"
    for args in (
            ["bag", "draw", "-c", sue, "-C", "blue", "--drawn", "white", "--drawn", "black",
             "--drawn", "yellow", "--keep-white", "--keep-black"],
            ["luck", "spend", "-c", sue],
            ["game", "end", "-c", sue],
            ["bag", "draw", "-c", sue, "-C", "green", "--drawn", "white", "--drawn", "white",
             "--drawn", "white", "--drawn", "blue", "--keep-white"],
            ["wheel", "buy", "-c", sue, "-C", "red", "-t", "Loud"],
            ["clock", "resolve", "-T", 4, "-g", 4, "-t", "Repair", "-c", kris],
            ["clock", "resolve", "-T", 5, "-g", 5, "-t", "Tough", "-c", kris],
            ["xp", "spend", "-c", kris, "--new", "Cook"]):
        assert cwx(*args, cwd=folder, env={"CWX_PLAYER": "GM"}).status == 0, args
    assert cwx("check", folder).status == 0
    return folder


_FOLLOWED = ("xp", "luck.white", "luck.black", "reserve.white", "bag.white", "traits.Repair")


@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_check_names_a_random_forged_change_on_a_played_journal(
        played: Path, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    folder = tmp_path_factory.mktemp("forged") / "camp"
    shutil.copytree(played, folder)
    lines = (folder / "journal.jsonl").read_text().splitlines()
    moves = [n for n, line in enumerate(lines) if json.loads(line)["command"] not in
             ("init", "char new", "adopt", "reconcile")]
    at = data.draw(st.sampled_from(moves), label="line")
    event = json.loads(lines[at])
    keyed = [c for c in event["changes"] if "key" in c]
    delta = data.draw(st.integers(-5, 5).filter(bool), label="delta")
    altered = bool(keyed) and data.draw(st.booleans(), label="alter a change")
    if altered:
        change = data.draw(st.sampled_from(keyed), label="change")
        change["to"] = (change["to"] if isinstance(change["to"], int) else 0) + delta
    else:
        key = data.draw(st.sampled_from(_FOLLOWED), label="key")
        file = data.draw(st.sampled_from(["kris.toml", "sue.toml", "bag.toml"]), label="file")
        if any(c.get("file") == file and c.get("key") == key for c in keyed):
            return  # that key is changed already: the branch above forges it
        event["changes"].append({"file": file, "key": key, "from": 1, "to": 1 + abs(delta)})
    lines[at] = json.dumps(event)
    (folder / "journal.jsonl").write_text("\n".join(lines) + "\n")
    ran = cwx("check", folder)
    assert ran.status == 1
    assert f"journal.jsonl:{at + 1}: {event['command']} {event['id'][:8]}" in ran.stdout, \
        ran.stdout
    # The advice, followed: the forged line is taken back whole, its forged change in the
    # journal alone (no sheet took it), its honest part (if any) from the sheets, as any
    # undo; then check passes. The forged change never stops it: only an honest part a
    # later move spent (or an altered value the undo cannot take back) does, the undo
    # saying why in one line and changing nothing.
    forged = (change["file"], change["key"]) if altered else (file, key)
    sheets = {name: (folder / name).read_bytes() for name in ("kris.toml", "sue.toml")}
    for named in sorted({line.rpartition("`cwx undo ")[2].partition("`")[0]
                         for line in ran.stdout.splitlines() if "`cwx undo " in line}):
        undone = cwx("undo", named, "--player", "Vic", cwd=folder)
        if undone.status == 2:
            assert altered or f"{forged[0]} [{forged[1]}]" not in undone.error, undone.error
            assert {name: (folder / name).read_bytes() for name in sheets} == sheets
            return
        assert undone.status == 0, (named, undone.stderr)
    after = cwx("check", folder)
    assert after.status == 0, (ran.stdout, after.stdout)


@pytest.mark.parametrize("forgery", ["undo of no line", "undo of a resolve", "clock resolve"])
def test_a_file_a_forged_line_changed_is_never_settled_by_reconcile(
        tmp_path: Path, forgery: str) -> None:
    # A forged line carrying xp that no sheet took (no reconcile ran): check names it
    # with the undo that takes it back, and its advice for kris.toml is not the reconcile
    # that would write the forged xp into the sheet. The advice, followed, settles it:
    # the undo journals the take-back alone (the sheet holds the ledger without it) and
    # keeps the honest play before and after. Where the sheet took the forged change,
    # `cwx undo ID` takes both back (tested above).
    from cwx.journal import lines

    folder = tmp_path / "camp"
    kris = folder / "kris.toml"
    assert cwx("init", folder).status == 0
    assert cwx("char", "new", kris, "--system", "clockworx", "-t", "A=3",
               "-t", "Repair=3", "-t", "C=6", cwd=folder).status == 0
    assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c", kris).status == 0
    if forgery == "clock resolve":  # a critical success of Repair 3 gives 6, not 1000
        forged = lines.new("clock resolve", [lines.Edit("kris.toml", "xp", 2, 1002)],
                           file="kris.toml", who="Kris", result={
                               "target": 4, "guess": 4, "distance": 0, "trait": "Repair",
                               "score": 3, "success": True, "critical": True, "xp": 1000,
                               "xp_total": 1002})
    else:  # an undo of no line, or one that adds where it should take back 2
        undoes = "f" * 16 if forgery == "undo of no line" else journal(folder)[-1]["id"]
        forged = lines.new("undo", [lines.Edit("kris.toml", "xp", 2, 1002)],
                           file="kris.toml", undoes=undoes)
    with open(folder / "journal.jsonl", "ab") as file:
        file.write(lines.encode(forged))
    assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c", kris).status == 0
    checked = cwx("check", cwd=folder)
    assert checked.status == 1 and f"`cwx undo {forged.id[:8]}`" in checked.stdout
    told = [line for line in checked.stdout.splitlines() if line.startswith("kris.toml")]
    assert told and all("`cwx reconcile`" not in line and "settle that first" in line
                        for line in told), checked.stdout
    before = (folder / "journal.jsonl").read_bytes(), kris.read_bytes()
    dry = cwx("undo", forged.id[:8], "--dry-run", "--json", "--player", "Vic", cwd=folder)
    assert dry.status == 0 and dry.json["restores"] == [] and dry.json["ledger_only"] == [
        {"file": "kris.toml", "key": "xp", "from": 1004, "to": 4}], dry.stdout
    said = cwx("undo", forged.id[:8], "--dry-run", "--player", "Vic", cwd=folder).stdout
    assert "kris.toml xp stays 4 (the ledger's 1004: the sheet never took the change)" \
        in said, said
    assert ((folder / "journal.jsonl").read_bytes(), kris.read_bytes()) == before
    undone = cwx("undo", forged.id[:8], "--json", "--player", "Vic", cwd=folder)  # followed
    assert undone.status == 0 and undone.json["ledger_only"] == dry.json["ledger_only"]
    assert kris.read_bytes() == before[1]  # the honest +2 and +2 kept, nothing written
    after = cwx("check", cwd=folder)
    assert after.status == 0, after.stdout
    assert "xp = 4 " in kris.read_text()
    logged = [line for line in cwx("log", cwd=folder).stdout.splitlines()
              if f"  {forged.id[:8]}  " in line]
    assert len(logged) == 1 and "undone by" in logged[0], logged  # still there, taken back


def test_a_making_the_rules_forbid_is_named_and_its_undo_gives_the_file_back(
        tmp_path: Path) -> None:
    """A forged `char new` remaking Kris with 1000 xp and 18 points (C1: 12 points and
    nothing earned), and one making a new character with experience."""
    campaign = saga(tmp_path / "camp", kris="kris.toml")
    assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "repair", "-c", "kris",
               cwd=campaign).status == 0
    lines = [json.loads(line) for line in (campaign / "journal.jsonl").read_text().splitlines()]
    made = next(e for e in lines if e["command"] == "char new" and e["file"] == "kris.toml")
    text = (campaign / "kris.toml").read_text()
    forged = text.replace("xp = 2", "xp = 1000")
    for trait in ("Scrounge", "Repair", "Tough"):
        forged = forged.replace(f"\n{trait} = ", f"\n{trait} = 6 #")
    assert forged.count("= 6 #") == 3
    (campaign / "kris.toml").write_text(forged)
    _append(campaign, id="ad0ad0ad0ad0ad00", command="char new", who="Kris",
            file="kris.toml", result={**made["result"], "xp": 1000},
            changes=[{"file": "kris.toml", "created": False, "text": forged}])
    _append(campaign, id="ad1ad1ad1ad1ad11", command="char new", who="Max", file="max.toml",
            result={}, changes=[{"file": "max.toml", "created": True,
                                 "text": text.replace("xp = 2", "xp = 5")}])
    (campaign / "max.toml").write_text(text.replace("xp = 2", "xp = 5"))
    said = "\n".join(_checked(campaign))
    assert "char new ad0ad0ad makes kris.toml a character with 1000 xp earned, which no " \
           "making gives" in said
    assert "char new ad1ad1ad makes max.toml a character with 5 xp earned" in said
    # Its undo takes the making back whole: the ledger holds Kris as played, and a
    # reconcile brings the file back to it.
    assert cwx("undo", "ad0ad0ad", cwd=campaign).status == 0
    followed(campaign)
    sheet = (campaign / "kris.toml").read_text()
    assert "xp = 2" in sheet and "= 6" not in sheet
    assert "kris.toml" not in "\n".join(_checked(campaign))
