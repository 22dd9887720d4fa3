"""cwx/campaign/accounts.py: undo, adopt and reconcile, through the real files of a campaign."""

from __future__ import annotations

import os
import re
import shutil
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cwx.base.errors import BadFile, RuleForbids
from cwx.campaign import accounts
from cwx.campaign.accounts import Corrected
from cwx.campaign.files import Change
from cwx.campaign.folder import Campaign
from cwx.journal import lines as journal
from tests.helpers import cwx, saga
from tests.helpers import journal as lines_of


def open_(command: str, paths: list[str], camp: Campaign) -> Change:
    """How a command opens its files (cli/common.py's `changing`, saying nothing)."""
    return Change(command, paths, camp)


@pytest.fixture
def at_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A campaign of Sue (Color Wheel) and Kris (ClockWorx), made by cwx, entered."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    root = saga(tmp_path / "saga", kris="kris.toml")
    monkeypatch.chdir(root)
    return root


def play(*args: object) -> None:
    """A command of the game, in the campaign; never in the same millisecond as the last
    (the journal orders by time, and ties by a random id)."""
    time.sleep(0.002)
    ran = cwx(*args)
    assert ran.status == 0, ran.stderr


def resolve(guess: int) -> None:
    """Kris acts with Repair 3 at target 4: 0 steps earn 6 xp, 1 step 2, 2 steps 1."""
    play("clock", "resolve", "--char", "kris", "--target", 4, "--guess", guess,
         "--trait", "Repair")


def value(path: str, *keys: str) -> Any:
    data: Any = tomllib.loads(Path(path).read_text())
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def edit(path: str, old: str, new: str) -> None:
    """A hand edit, as a player makes one."""
    text = Path(path).read_text()
    assert old in text
    Path(path).write_text(text.replace(old, new, 1))


def here() -> Campaign:
    return Campaign.around(".")


# ---------------------------------------------------------------- undo
# Undo is asked for anyone's changes (player None) but where the player is the point.


def latest(name: str | None = None, player: str | None = None) -> journal.Event:
    """The change an undo would take back now."""
    return accounts.latest_undoable("journal.jsonl", name, player).target


def undo(char: str | None = None) -> journal.Event:
    return accounts.undo(open_, here(), char, None).target


def test_nothing_a_campaigns_making_did_is_undoable(at_table: Path) -> None:
    with pytest.raises(RuleForbids, match="there is no change left to undo"):
        latest()
    with pytest.raises(RuleForbids, match=re.escape("no change of kris.toml left to undo")):
        latest("kris.toml")


def test_undo_walks_back_one_change_at_a_time(at_table: Path) -> None:
    resolve(4)  # xp 0 -> 6
    resolve(5)  # 6 -> 8
    first, second = [e["id"] for e in lines_of(at_table)[-2:]]
    assert latest().id == second
    assert undo().id == second
    assert value("kris.toml", "xp") == 6
    assert latest().id == first
    assert undo().id == first
    assert value("kris.toml", "xp") == 0
    before = Path("journal.jsonl").read_bytes()
    with pytest.raises(RuleForbids, match="no change left to undo"):
        undo()
    assert Path("journal.jsonl").read_bytes() == before


def test_an_undo_is_journaled_as_the_inverse_of_what_it_undid(at_table: Path) -> None:
    resolve(4)
    undoing = accounts.undo(open_, here(), None, None)
    line = lines_of(at_table)[-1]
    assert (line["command"], line["undoes"], line["file"]) == ("undo", undoing.target.id,
                                                              "kris.toml")
    assert line["changes"] == [{"file": "kris.toml", "key": "xp", "from": 6, "to": 0}]
    assert line["result"] == accounts.undid(undoing)


def test_undo_takes_a_whole_number_back_by_its_delta(at_table: Path) -> None:
    resolve(4)  # xp 0 -> 6
    edit("kris.toml", "xp = 6", "xp = 9")  # the GM's hand-given reward, not adopted
    undo()
    assert value("kris.toml", "xp") == 3


def test_undo_of_one_character_leaves_the_others_latest_change(at_table: Path) -> None:
    resolve(4)
    play("bag", "draw", "-c", "sue", "--color", "red", "--drawn", "white", "--drawn", "red",
         "--keep-white")  # Sue keeps a white: the latest change
    assert value("sue.toml", "luck", "white") == 1
    assert latest().command == "bag draw"
    assert undo("kris.toml").command == "clock resolve"
    assert value("kris.toml", "xp") == 0 and value("sue.toml", "luck", "white") == 1


def test_a_players_undo_takes_back_only_their_own_change(
        at_table: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CWX_PLAYER", "Alice")
    resolve(4)
    monkeypatch.setenv("CWX_PLAYER", "Bob")
    resolve(5)
    assert latest(player="Alice").result["xp"] == 6
    assert latest(player="Bob").result["xp"] == 2
    assert latest().result["xp"] == 2  # anyone's: the latest


def test_undo_never_walks_past_a_change_to_a_file_that_is_gone(at_table: Path) -> None:
    resolve(4)
    os.rename("kris.toml", "kris.bak")
    before = Path("journal.jsonl").read_bytes()
    with pytest.raises(RuleForbids, match=re.escape("kris.toml, which it changed, is gone")):
        undo()
    assert Path("journal.jsonl").read_bytes() == before


def test_a_failed_draw_that_changed_no_file_is_undoable(at_table: Path) -> None:
    play("bag", "draw", "-c", "sue", "--color", "red", "--drawn", "blue")
    draw = lines_of(at_table)[-1]
    assert draw["changes"] == [] and draw["result"]["success"] is False
    assert undo().id == draw["id"]  # no longer Sue's last action
    assert lines_of(at_table)[-1]["undoes"] == draw["id"]


# ---------------------------------------------------------------- adopt


def test_adopt_journals_a_hand_edit_and_leaves_the_file(at_table: Path) -> None:
    edit("kris.toml", "xp = 0", "xp = 7")
    text = Path("kris.toml").read_text()
    assert accounts.adopt(open_, ["kris.toml"]).corrected == [Corrected("kris.toml", "xp", 0, 7)]
    assert Path("kris.toml").read_text() == text
    adopted = lines_of(at_table)[-1]
    assert adopted["command"] == "adopt" and adopted["result"] == {"adopted": 1}
    assert adopted["changes"] == [{"file": "kris.toml", "key": "xp", "from": 0, "to": 7}]
    assert accounts.reconcile(open_, here()) == []  # the ledger agrees now


def test_adopt_of_files_that_agree_journals_nothing(at_table: Path) -> None:
    before = Path("journal.jsonl").read_bytes()
    assert accounts.adopt(open_, ["kris.toml", "sue.toml", "bag.toml"]).corrected == []
    assert Path("journal.jsonl").read_bytes() == before


def test_adopt_of_a_file_the_ledger_never_knew_journals_its_whole_text(at_table: Path) -> None:
    npc = 'name = "Nob"\nsystem = "clockworx"\n[traits]\nA = 1\nB = 1\nC = 1\n'
    Path("npc.toml").write_text(npc)
    assert accounts.adopt(open_, ["npc.toml"]).corrected == [Corrected("npc.toml", None, None, None)]
    assert lines_of(at_table)[-1]["changes"] == [{"file": "npc.toml", "created": False,
                                               "text": npc}]
    edit("npc.toml", "A = 1", "A = 2")  # from now on, its keys are followed
    assert accounts.reconcile(open_, here()) == [Corrected("npc.toml", "traits.A", 2, 1)]


def test_adopt_refuses_a_file_the_rules_refuse(at_table: Path) -> None:
    edit("kris.toml", "Tough = 5", "Tough = 9")
    before = Path("journal.jsonl").read_bytes()
    with pytest.raises(RuleForbids, match="the rules refuse it") as refused:
        accounts.adopt(open_, ["kris.toml"])
    assert refused.value.key == "traits.Tough"
    assert Path("journal.jsonl").read_bytes() == before


def test_adopt_takes_files_of_one_campaign(at_table: Path, tmp_path: Path) -> None:
    shutil.copy("kris.toml", tmp_path / "loose.toml")
    with pytest.raises(BadFile, match="adopt takes files of one campaign"):
        accounts.adopt(open_, ["kris.toml", str(tmp_path / "loose.toml")])
    with pytest.raises(BadFile, match="adopt takes files of one campaign"):
        accounts.adopt(open_, [str(tmp_path / "loose.toml")])


def test_a_file_moved_is_adopted_with_the_file_that_holds_its_dice_now(at_table: Path) -> None:
    play("bag", "draw", "-c", "sue", "--color", "red", "--drawn", "white", "--drawn", "red",
         "--keep-white")  # Sue holds a white
    os.mkdir("party")
    os.rename("sue.toml", "party/sue.toml")
    adopted = accounts.adopt(open_, ["sue.toml", "party/sue.toml"]).corrected
    assert Corrected("sue.toml", "luck.white", 1, None) in adopted
    assert Corrected("party/sue.toml", None, None, None) in adopted
    assert accounts.reconcile(open_, here()) == []


def test_a_file_gone_with_dice_no_other_file_holds_is_refused(at_table: Path) -> None:
    play("bag", "draw", "-c", "sue", "--color", "red", "--drawn", "white", "--drawn", "red",
         "--keep-white")
    os.mkdir("party")
    os.rename("sue.toml", "party/sue.toml")
    edit("party/sue.toml", "white = 1", "white = 0")  # the white is lost on the way
    before = Path("journal.jsonl").read_bytes()
    with pytest.raises(RuleForbids, match="W9"):
        accounts.adopt(open_, ["sue.toml", "party/sue.toml"])
    assert Path("journal.jsonl").read_bytes() == before


# ---------------------------------------------------------------- reconcile


def test_reconcile_brings_every_file_to_its_ledger_value(at_table: Path) -> None:
    resolve(4)  # the ledger: xp 6
    edit("kris.toml", "xp = 6", "xp = 40")
    edit("sue.toml", "white = 0", "white = 3")
    corrected = accounts.reconcile(open_, here())
    assert sorted(corrected) == [Corrected("kris.toml", "xp", 40, 6),
                                 Corrected("sue.toml", "luck.white", 3, 0)]
    assert value("kris.toml", "xp") == 6 and value("sue.toml", "luck", "white") == 0
    event = lines_of(at_table)[-1]
    assert event["command"] == "reconcile" and event["result"] == {"corrected": 2}
    assert all(change["correction"] is True for change in event["changes"])
    before = Path("journal.jsonl").read_bytes()
    assert accounts.reconcile(open_, here()) == []
    assert Path("journal.jsonl").read_bytes() == before


def test_a_reconcile_counts_for_nothing_in_the_ledger(at_table: Path) -> None:
    edit("kris.toml", "xp = 0", "xp = 40")
    accounts.reconcile(open_, here())
    with pytest.raises(RuleForbids, match="no change left to undo"):
        latest()


def test_reconcile_after_a_merge_leaves_what_is_not_a_number(at_table: Path) -> None:
    edit("kris.toml", 'name = "Kris"', 'name = "Kristoff"')
    edit("kris.toml", "xp = 0", "xp = 5")
    kept: list[str] = []
    corrected = accounts.reconcile(open_, here(), numbers_only=True, kept=kept)
    assert corrected == [Corrected("kris.toml", "xp", 5, 0)]
    assert kept == ["kris.toml [name]"]
    assert value("kris.toml", "name") == "Kristoff" and value("kris.toml", "xp") == 0


def test_reconcile_that_would_leave_the_files_short_of_the_supply_changes_nothing(
        at_table: Path) -> None:
    # A line no cwx wrote takes the reserve's ten whites out of the ledger: bringing the
    # file to it would destroy them (W9), whatever check or a hook asks.
    from cwx.journal import lines as journal

    forged = journal.new("bag draw", [journal.Edit("bag.toml", "reserve.white", 10, 0)],
                         who="Sue", file="sue.toml", bag="bag.toml")
    with open("journal.jsonl", "ab") as file:
        file.write(journal.encode(forged))
    bag, journal_before = Path("bag.toml").read_text(), Path("journal.jsonl").read_bytes()
    with pytest.raises(RuleForbids, match="the files would hold 1 white and 11 blacks, and "
                                          "the campaign's supply is 11 whites and 11 blacks"
                                          ) as refused:
        accounts.reconcile(open_, here(), numbers_only=True)
    assert "(W9: a double spend, one die spent on two clones at once;" in str(refused.value)
    assert "\n" not in str(refused.value)  # one line
    assert Path("bag.toml").read_text() == bag
    assert Path("journal.jsonl").read_bytes() == journal_before


def test_the_ledger_knows_each_file_by_its_real_path(at_table: Path) -> None:
    os.symlink("kris.toml", "k.toml")
    edit("kris.toml", "xp = 0", "xp = 4")
    assert accounts.adopt(open_, ["k.toml"]).corrected == [Corrected("kris.toml", "xp", 0, 4)]
    assert lines_of(at_table)[-1]["file"] == "kris.toml"


def test_undo_of_a_trait_bought_then_raised_is_refused(campaign: Path) -> None:
    # Each raise is priced from the score before it: undoing the purchase beneath a raise
    # would leave a score the experience paid for no longer matches.
    from tests.helpers import cwx

    for _ in range(4):
        assert cwx("clock", "resolve", "-T", 4, "-g", 4, "-t", "Tough", "-c", "kris.toml",
                   cwd=campaign).status == 0
    assert cwx("xp", "spend", "-c", "kris.toml", "--new", "Climb", cwd=campaign,
               env={"CWX_PLAYER": "Alice"}).status == 0
    assert cwx("xp", "spend", "-c", "kris.toml", "--raise", "Climb", cwd=campaign,
               env={"CWX_PLAYER": "Bob"}).status == 0
    before = (campaign / "kris.toml").read_text()
    ran = cwx("undo", cwd=campaign, env={"CWX_PLAYER": "Alice"})
    assert ran.status == 2 and "changed since" in ran.error
    assert (campaign / "kris.toml").read_text() == before
