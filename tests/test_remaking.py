"""A making anew that says it never saw what its character earned (issue 30, RM2): a
copy of a character's first making, marked `created` as a first making is, or whose `saw`
names the first making, over experience its clone had. Git shows the clone had it (the
commit that brought the making held the earning line before it): check names it, and
its undo gives the experience back. Real git: a bare origin, the GM's clone and two
players'; the honest clash (made anew on one clone while another played) is no forgery."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tests.helpers import cwx, journal, once
from tests.test_post import _identity, play, sync, table_of_three

__all__ = ["_identity"]  # the fixture: git's author from no config, HOME in tmp_path


def _earned(gm: Path, alice: Path) -> int:
    """Alice's critical success for Kris (Repair 4, guessed right: C4), shared (built once,
    then copied: tests/helpers.py's `once`); kris's xp."""

    def made() -> None:
        play(alice, "Alice", "clock", "resolve", "-T", 4, "-g", 4, "-t", "repair", "-c",
             "kris")
        sync(alice, "Alice")
        sync(gm, "GM")

    once("Kris's critical success, shared", gm.parent, ["origin.git", "gm", "alice", "bob"],
         made)
    return int(next(line.split("=")[1].split("#")[0] for line in
                    (gm / "kris.toml").read_text().splitlines() if line.startswith("xp")))


@pytest.mark.parametrize("claim", ["created", "saw", "created in a merge"])
def test_a_making_anew_that_says_it_never_saw_the_experience_is_named(
        tmp_path: Path, claim: str) -> None:
    table, gm, alice, bob = table_of_three(tmp_path)
    xp = _earned(gm, alice)
    assert xp > 0
    sync(bob, "Bob")
    # Bob copies Kris's first making, Repair 4 -> 5 (Lie 5 -> 4), its file written to
    # match; pushed.
    lines = journal(bob)
    first = next(e for e in lines if e["command"] == "char new" and e["file"] == "kris.toml")
    forged = copy.deepcopy(first)
    text = first["changes"][0]["text"].replace("Repair = 4", "Repair = 5").replace(
        "Lie = 5", "Lie = 4")
    forged.update(id="f00d00000000beef", at=lines[-1]["at"], player="Bob")
    forged["changes"][0]["text"] = text
    if claim.startswith("created"):
        forged["changes"][0]["created"] = True
    else:
        forged["changes"][0].pop("created", None)
        forged["result"]["saw"] = {"at": first["at"], "id": first["id"]}
    if claim.endswith("merge"):  # written in the resolution of a merge of Bob's own
        table.git(bob, "checkout", "-qb", "side")
        (bob / "notes.md").write_text("notes\n")
        table.git(bob, "add", "notes.md")
        table.git(bob, "commit", "-qm", "notes", "--no-verify")
        table.git(bob, "checkout", "-q", "main")
        table.git(bob, "merge", "-q", "--no-ff", "--no-commit", "side")
    with open(bob / "journal.jsonl", "a") as file:
        file.write(json.dumps(forged, separators=(",", ":")) + "\n")
    (bob / "kris.toml").write_text(text)
    table.git(bob, "commit", "-qam", "tidy", "--no-verify")
    table.git(bob, "push", "-q", "--no-verify", "origin", "main")
    table.git(gm, "pull", "-q", "--no-rebase")
    fresh = table.clone("fresh")
    for clone in (gm, fresh):
        checked = play(clone, "x", "check", status=1)
        told = [line for line in checked.splitlines() if "f00d0000" in line]
        assert len(told) == 1, checked
        assert f"char new f00d0000 makes kris.toml anew over a character with {xp} xp " \
               "earned, which it says it never saw" in told[0]
        assert "that brought it held" in told[0] and "before it: `char new --force` " \
            "refuses a making anew over what a character earned" in told[0]
    advice = told[0].rpartition("; `")[2].partition("`")[0].split()
    assert advice == ["cwx", "undo", "f00d00000000beef"]
    play(gm, "GM", *advice[1:])  # followed: the making taken back, the sheet brought back
    assert "cwx reconcile" in play(gm, "GM", "check", status=1)
    play(gm, "GM", "reconcile")
    assert play(gm, "GM", "check").endswith("0 problems.\n")
    sheet = (gm / "kris.toml").read_text()
    assert f"xp = {xp}" in sheet and "Repair = 4" in sheet


def test_a_character_made_anew_while_another_clone_played_is_a_clash_not_a_forgery(
        tmp_path: Path) -> None:
    """Honest: Bob's clone earns Kris experience while Alice's makes Kris anew, never having
    pulled it; Alice's sync rebases her making onto Bob's turn. The clash is named, and
    the making is not called one that saw what it made anew."""
    _, _, alice, bob = table_of_three(tmp_path)
    play(bob, "Bob", "clock", "resolve", "-T", 4, "-g", 4, "-t", "repair", "-c", "kris")
    sync(bob, "Bob")
    play(alice, "Alice", "char", "new", "kris.toml", "--force", "--system", "clockworx",
         "-t", "Repair=4", "-t", "Run=3", "-t", "Lie=5")
    assert cwx("sync", cwd=alice, env={"CWX_PLAYER": "Alice"}).status != 0
    checked = play(alice, "Alice", "check", status=1)
    assert "made anew by char new" in checked and "while another clone played it" in checked
    assert "never saw (" not in checked
