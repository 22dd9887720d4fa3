"""The campaign's dice are the GM's word (issue 30, W9): where campaign.toml names GMs, a
bag made or retired, `adopt --supply`, and an undo or redo of one are refused for any
other player, and one that arrives by git is named by check with what settles it. Real
git: a bare origin, the GM's clone and the players'."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cwx, journal
from tests.test_git import Table
from tests.test_post import _identity, play, sync, table_of_three

__all__ = ["_identity"]  # the fixture: git's author from no config, HOME in tmp_path


def _gm(table: Table, clone: Path, *names: str) -> None:
    settings = clone / "campaign.toml"
    listed = ", ".join(f'"{name}"' for name in names)
    settings.write_text(settings.read_text().replace("[campaign]\n",
                                                     f"[campaign]\ngm = [{listed}]\n"))
    table.git(clone, "commit", "-qam", "the table names its GMs")


def _as(clone: Path, player: str) -> dict[str, Any]:
    """The journal's last line rewritten in `player`'s name (a line written past cwx's
    refusal: an older cwx, a hand)."""
    path = clone / "journal.jsonl"
    kept, last = path.read_text().rstrip("\n").rpartition("\n")[::2]
    line = {**json.loads(last), "player": player}
    path.write_text(kept + "\n" + json.dumps(line, separators=(",", ":")) + "\n")
    return line


def _pushed(table: Table, clone: Path) -> None:
    table.git(clone, "add", "-A")
    table.git(clone, "commit", "-qm", "a turn", "--no-verify")
    table.git(clone, "push", "-q", "--no-verify", "origin", "main")


def _told(clone: Path, what: str) -> str:
    """check's one line on the change `what` (exit 1), and its advice, run as said."""
    checked = play(clone, "x", "check", status=1)
    told = [line for line in checked.splitlines() if what in line]
    assert len(told) == 1, checked
    return told[0]


def _advice(line: str) -> list[str]:
    return line.rpartition("a GM's `")[2].partition("`")[0].split()


def test_a_bag_made_or_retired_by_a_player_is_refused_and_named_until_a_gm_settles_it(
        tmp_path: Path) -> None:
    """A1b: gm = ["Bob"] (the campaign made by another, its bag counts as made before any
    GM, and so does a bag Alice made before the table named GMs). Alice's bag new and
    retire of a bag are refused; written past the refusal and pushed, each is named in the
    GM's clone, and the GM's command it names settles it."""
    table, gm, alice, bob = table_of_three(tmp_path)
    play(alice, "Alice", "bag", "new", "early.toml")  # before the table names GMs: anyone's
    sync(alice, "Alice")
    sync(gm, "GM")
    _gm(table, gm, "Bob")
    sync(gm, "GM")
    assert play(gm, "GM", "check").endswith("0 problems.\n")  # the GM's init: before any GM
    for clone in (alice, bob):
        sync(clone, "x")
    before = (alice / "journal.jsonl").read_bytes()
    refused = play(alice, "Alice", "bag", "new", "extra.toml", "--white-reserve", 1000,
                   status=2)
    assert "Alice is no GM of this campaign (gm = ['Bob']): only a GM adds dice to the " \
           "campaign (`bag new`: a bag brings its dice)" in refused
    assert refused.count("\n") == 1 and not (alice / "extra.toml").exists()
    refused = play(alice, "Alice", "retire", "bag.toml", status=2)
    assert "only a GM takes dice out of the campaign (a bag retired takes its dice)" in refused
    assert (alice / "journal.jsonl").read_bytes() == before and (alice / "bag.toml").exists()
    # Past the refusal: made as Bob, its line then in Alice's name; pushed.
    play(alice, "Bob", "bag", "new", "extra.toml", "--white-reserve", 1000)
    made = _as(alice, "Alice")
    _pushed(table, alice)
    table.git(bob, "pull", "-q", "--no-rebase")
    told = _told(bob, f"bag new {made['id'][:8]}")
    assert "changes the campaign's dice, by Alice, no GM of the campaign (campaign.toml: " \
           "gm = ['Bob']): only a GM adds dice or takes them away (W9)" in told
    assert _advice(told) == ["cwx", "retire", "extra.toml"]
    play(bob, "Bob", *_advice(told)[1:])
    assert "Checked" in play(bob, "Bob", "check") and not (bob / "extra.toml").exists()
    sync(bob, "Bob")
    # The campaign's bag retired past the refusal: named, and the GM's bag new of it, as
    # the advice says, brings its dice back.
    sync(alice, "Alice")
    play(alice, "Bob", "retire", "bag.toml")
    retired = _as(alice, "Alice")
    _pushed(table, alice)
    table.git(gm, "pull", "-q", "--no-rebase")
    told = _told(gm, f"retire {retired['id'][:8]}")
    assert "by Alice, no GM of the campaign" in told
    assert _advice(told) == ["cwx", "bag", "new", "bag.toml", "--white-reserve", "10",
                             "--black-reserve", "10"], told
    table.git(bob, "pull", "-q", "--no-rebase")
    play(bob, "Bob", *_advice(told)[1:])
    assert "Dice: 22 whites, 22 blacks (the supply)" in play(bob, "Bob", "check")


def test_an_undo_that_changes_the_campaigns_dice_is_a_gms(tmp_path: Path) -> None:
    """A1c: the GM adds a white (adopt --supply); Alice's undo of it is refused, --player
    naming whose change it is, never who undoes it; her hand-written undo in her own name
    is named in the GM's clone, and the GM's undo it names puts the white back."""
    table, gm, alice, _ = table_of_three(tmp_path)
    _gm(table, gm, "GM")
    play(gm, "GM", "char", "new", "sue.toml", "--system", "colorwheel", "-t", "red=Strong",
         "-t", "yellow=Clever", "-t", "blue=Quick", "-t", "orange=Brave", "-t",
         "green=Healer", "-t", "purple=Kind")
    sue = gm / "sue.toml"
    sue.write_text(sue.read_text().replace("white = 0", "white = 1", 1))
    assert "GM changed the campaign's dice (+1 white)" in play(gm, "GM", "adopt", "--supply",
                                                              "sue.toml")
    adopted = journal(gm)[-1]
    play(gm, "GM", "clock", "resolve", "-T", 4, "-g", 3, "-t", "repair", "-c", "kris")
    resolved = journal(gm)[-1]
    sync(gm, "GM")
    sync(alice, "Alice")
    refused = play(alice, "Alice", "undo", adopted["id"], "--player", "GM", status=2)
    assert "Alice is no GM of this campaign (gm = ['GM']): only a GM adds dice to the " \
           f"campaign or takes them away, as taking back `adopt` {adopted['id'][:8]} " \
           "would" in refused and refused.count("\n") == 1
    # --player names whose change is undone: the undo's line names who undid it.
    play(alice, "Alice", "undo", resolved["id"], "--player", "GM")
    assert journal(alice)[-1]["player"] == "Alice"
    play(alice, "Alice", "undo", "--redo", "--player", "Alice")
    # Past the refusal: the undo of the adopt, by hand, in Alice's own name.
    play(alice, "GM", "undo", adopted["id"], "--player", "GM")
    undo = _as(alice, "Alice")
    _pushed(table, alice)
    table.git(gm, "pull", "-q", "--no-rebase")
    told = _told(gm, f"undo {undo['id'][:8]}")
    assert "changes the campaign's dice, by Alice, no GM of the campaign" in told
    assert _advice(told) == ["cwx", "undo", undo["id"], "--player=Alice"]
    play(gm, "GM", *_advice(told)[1:])
    checked = play(gm, "GM", "check")
    assert "Dice: 12 whites, 11 blacks (the supply)" in checked and "0 problems" in checked
    assert "white = 1" in sue.read_text()


@pytest.mark.parametrize("player", ["GM", "Alice"])
def test_a_player_takes_back_a_players_change_of_the_dice(tmp_path: Path,
                                                          player: str) -> None:
    """A player's change of the dice named by check is anyone's to take back: the undo
    puts the supply back as the GMs left it."""
    table, gm, _, _ = table_of_three(tmp_path)
    _gm(table, gm, "GM")
    bag = gm / "bag.toml"
    bag.write_text(bag.read_text().replace("white = 10", "white = 15", 1))
    play(gm, "GM", "adopt", "--supply", "bag.toml")
    adopted = _as(gm, "Alice")
    assert "changes the campaign's dice, by Alice" in _told(gm, adopted["id"][:8])
    play(gm, player, "undo", adopted["id"], "--player", "Alice")
    assert "Dice: 11 whites, 11 blacks (the supply)" in play(gm, player, "check")


def test_the_campaigns_first_making_is_anyones_but_an_undo_of_it_is_not(
        tmp_path: Path) -> None:
    """The bag `cwx init` makes is counted as made before any GM; a line taking it back,
    in Mallory's name, takes its dice out of the campaign: named, and the GM's undo it
    names brings them back (outside git: the journal alone)."""
    folder = tmp_path / "camp"
    assert cwx("init", folder, env={"CWX_PLAYER": "Vic"}).status == 0
    settings = folder / "campaign.toml"
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["GM"]\n'))
    assert cwx("check", folder).status == 0
    started = journal(folder)[0]
    undo = {"v": 2, "id": "f00d00000000aaaa", "at": started["at"], "command": "undo",
            "who": None, "file": None, "bag": None, "result": {}, "changes": [],
            "undoes": started["id"], "player": "Mallory"}
    with open(folder / "journal.jsonl", "a") as file:
        file.write(json.dumps(undo) + "\n")
    checked = cwx("check", folder)
    told = [line for line in checked.stdout.splitlines() if "the campaign's dice, by" in line]
    assert checked.status == 1 and len(told) == 1, checked.stdout
    assert _advice(told[0]) == ["cwx", "undo", "f00d00000000aaaa", "--player=Mallory"]
    assert cwx(*_advice(told[0])[1:], cwd=folder, env={"CWX_PLAYER": "GM"}).status == 0
    checked = cwx("check", folder)
    assert checked.status == 0 and "Dice: 11 whites, 11 blacks (the supply)" in checked.stdout


def _started(tmp_path: Path, player: str) -> tuple[Table, Path, str]:
    """A campaign `player` made and committed in a repository of its own, no GM named:
    (the table, its folder, the id of its making)."""
    table = Table(tmp_path)
    camp = tmp_path / "camp"
    assert cwx("init", camp, env={"CWX_PLAYER": player}).status == 0
    table.git(camp, "init", "-q", "-b", "main")
    table.git(camp, "add", "-A")
    table.git(camp, "commit", "-qm", "init")
    return table, camp, journal(camp)[0]["id"]


def test_a_change_before_the_gms_is_one_every_first_naming_of_them_held(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """firstgm: none named yet, HEAD's journal is before them; named, each commit naming
    them first must hold the line, so a branch of Mallory's own, naming GMs in the commit
    that brings her bag, merged in, brings no line before them."""
    from cwx.git import firstgm

    table, camp, started = _started(tmp_path, "Vic")
    git = table.git
    monkeypatch.chdir(camp)
    assert firstgm.held_before(".", [started]) == {started}  # no gm: HEAD's
    git(camp, "checkout", "-qb", "mallory")
    assert cwx("bag", "new", "mine.toml", cwd=camp, env={"CWX_PLAYER": "Mallory"}).status == 0
    hers = journal(camp)[-1]["id"]
    _gm(table, camp, "Mallory")
    git(camp, "checkout", "-q", "main")
    _gm(table, camp, "GM")
    assert firstgm.held_before(".", [started, hers]) == {started}
    git(camp, "merge", "-q", "mallory", check=False)
    git(camp, "checkout", "--ours", "campaign.toml")
    git(camp, "add", "-A")
    git(camp, "commit", "-qm", "merged", "--no-verify")
    assert firstgm.held_before(".", [started, hers]) == {started}


@pytest.mark.parametrize("first", ["hers", "main"])
def test_a_change_before_the_gms_is_so_whichever_parent_a_merge_takes_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: str) -> None:
    """SP2: Mallory's branch, cut before the table named GMs, brings her bag of 1,000
    whites, then gm = ["GM"] as the table writes it on main. Merged either way round (her
    branch the merge's first parent, or main), the table's own naming of the GMs never held
    her bag: it is no line before the GMs, and check names it."""
    from cwx.git import firstgm

    table, camp, started = _started(tmp_path, "GM")
    git = table.git
    git(camp, "checkout", "-qb", "mallory")
    assert cwx("bag", "new", "extra.toml", "--white-reserve", 1000, cwd=camp,
               env={"CWX_PLAYER": "Mallory"}).status == 0
    hers = journal(camp)[-1]["id"]
    git(camp, "add", "-A")
    git(camp, "commit", "-qm", "a bag")
    _gm(table, camp, "GM")
    git(camp, "checkout", "-q", "main")
    _gm(table, camp, "GM")
    if first == "hers":
        git(camp, "checkout", "-q", "mallory")
    git(camp, "merge", "-q", "--no-edit", "main" if first == "hers" else "mallory")
    monkeypatch.chdir(camp)
    assert firstgm.held_before(".", [started, hers]) == {started}
    checked = cwx("check", camp)
    assert checked.status == 1, checked.stdout
    assert f"bag new {hers[:8]} changes the campaign's dice, by Mallory" in checked.stdout
