"""A `.gitattributes` line a clone pushes that turns off cwx's merges (`merge=binary`) or
has git write the campaign's files otherwise than it commits them (`ident`, another
encoding): powerless in a clone cwx set up (cwx's lines in .git/info/attributes decide),
and named at its line, with advice that works when followed, in a clone it did not.
Real git: a bare origin, the GM's clone and two players'."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_git import Table, value
from tests.test_post import _identity, play, sync, table_of_three

__all__ = ["_identity"]  # the fixture: git's author from no config, HOME in tmp_path


def _pushed(table: Table, clone: Path, lines: str) -> int:
    """`lines` added to the clone's .gitattributes, pushed past its hooks: the number of
    the first of them."""
    attributes = clone / ".gitattributes"
    first = len(attributes.read_text().splitlines()) + 1
    attributes.write_text(attributes.read_text() + lines)
    table.git(clone, "add", ".gitattributes")
    table.git(clone, "commit", "-qm", "attributes", "--no-verify")
    table.git(clone, "push", "-q", "origin", "main")
    return first


def _turn(clone: Path, player: str) -> None:
    play(clone, player, "clock", "resolve", "-T", 4, "-g", 3, "-t", "repair", "-c", "kris")


def _merge(table: Table, clone: Path, path: str) -> str:
    return table.git(clone, "check-attr", "merge", "--", path).stdout.split(": ")[-1].strip()


@pytest.mark.parametrize("lines", [
    "journal.jsonl merge=binary\n*.toml merge=binary\n",
    "[attr]plain merge=text -diff\njournal.jsonl plain\n*.toml binary\n",  # macros
])
def test_a_pushed_merge_attribute_is_powerless_where_cwx_set_up(tmp_path: Path,
                                                                 lines: str) -> None:
    """Alice pushes lines that make git merge the journal and sheets its own way; the GM
    and Alice then play a turn each at once: the GM's sync merges both as cwx does. The
    GM's clone was set up before cwx kept its attributes: the sync puts them there."""
    table, gm, alice, _ = table_of_three(tmp_path)
    info = gm / ".git" / "info" / "attributes"
    info.unlink()
    _pushed(table, alice, lines)
    sync(gm, "GM")
    assert "journal.jsonl merge=union eol=lf diff" in info.read_text()
    before = value(gm, "kris.toml", "xp")
    _turn(alice, "Alice")
    sync(alice, "Alice")
    _turn(gm, "GM")
    gained = value(gm, "kris.toml", "xp") - before
    sync(gm, "GM")
    assert _merge(table, gm, "journal.jsonl") == "union"
    assert _merge(table, gm, "kris.toml") == "cwx"
    assert value(gm, "kris.toml", "xp") == before + 2 * gained  # both turns count
    assert "0 problems" in play(gm, "GM", "check")
    sync(alice, "Alice")
    assert value(alice, "kris.toml", "xp") == before + 2 * gained


def test_a_clone_cwx_never_set_up_is_told_the_line_and_the_advice_works(
        tmp_path: Path) -> None:
    """Carol clones after Alice pushed `merge=binary`: check names the line, sync stops
    before anything; a plain `git pull --rebase` stops on both turns with the journal's
    other side alone in the work tree: check names the line and how to go on from
    there, and that advice, followed, shares both turns."""
    table, _, alice, _ = table_of_three(tmp_path)
    first = _pushed(table, alice, "journal.jsonl merge=binary\n*.toml merge=binary\n")
    carol = table.clone("carol")
    named = f".gitattributes:{first}: sets merge=binary for journal.jsonl: git then merges"
    assert named in play(carol, "Carol", "check", status=1)
    before = value(carol, "kris.toml", "xp")
    _turn(carol, "Carol")
    gained = value(carol, "kris.toml", "xp") - before
    assert named in play(carol, "Carol", "sync", status=2)
    table.git(carol, "commit", "-qam", "Carol's turn")
    _turn(alice, "Alice")
    sync(alice, "Alice")
    assert table.git(carol, "pull", "-q", "--rebase", check=False).returncode != 0
    checked = play(carol, "Carol", "check", status=1)
    assert named in checked and "`cwx git setup` puts cwx's own attributes in this clone's " \
        ".git/info/attributes" in checked and \
        "then `git rebase --abort` and cwx sync again" in checked
    play(carol, "Carol", "git", "setup")  # the advice, followed
    table.git(carol, "rebase", "--abort")
    sync(carol, "Carol")
    assert value(carol, "kris.toml", "xp") == before + 2 * gained
    assert "0 problems" in play(carol, "Carol", "check")


@pytest.mark.parametrize("lines", [
    "journal.jsonl ident\n*.toml ident\n",
    "[attr]wide working-tree-encoding=UTF-16LE\njournal.jsonl wide\n",
])
def test_an_attribute_that_rewrites_the_files_is_named_until_setup_writes_them_back(
        tmp_path: Path, lines: str) -> None:
    """Alice pushes lines by which git writes the journal (and sheets) otherwise than it
    commits them, with a character whose trait holds `$Id$`. The GM's clone writes them
    as committed; Bob's, set up before cwx kept its own attributes, has his hook refuse
    to reconcile; a fresh clone's check and sync name the line. `cwx git setup`, as the
    advice says, writes the files back as committed, and play goes on."""
    table, gm, alice, bob = table_of_three(tmp_path)
    (bob / ".git" / "info" / "attributes").unlink()  # a clone an older cwx set up
    first = _pushed(table, alice, lines)
    play(alice, "Alice", "char", "new", "x.toml", "--system", "clockworx", "-t", "A$Id$=3",
         "-t", "B=3", "-t", "C=6")
    sync(alice, "Alice")
    sync(gm, "GM")
    assert "$Id:" not in (gm / "journal.jsonl").read_text()
    assert "0 problems" in play(gm, "GM", "check")
    named = f".gitattributes:{first + ('attr' in lines)}: sets "
    pulled = table.git(bob, "pull", "-q", "--no-rebase")
    assert "after the merge, cwx did not reconcile the campaign: " + named in pulled.stderr
    fresh = table.clone("dave")
    for clone in (bob, fresh):
        assert named in play(clone, "Dave", "check", status=1)
        if clone == bob and "ident" in lines:  # a turn not yet committed is kept
            _turn(clone, "Dave")
        assert named in play(clone, "Dave", "sync", status=2)
        play(clone, "Dave", "git", "setup")  # the advice, followed
        assert "0 problems" in play(clone, "Dave", "check")
        if clone != bob or "ident" not in lines:
            _turn(clone, "Dave")
        sync(clone, "Dave")
    sync(gm, "GM")
    assert "0 problems" in play(gm, "GM", "check")
    played = [line for line in map(json.loads, (gm / "journal.jsonl").read_text().splitlines())
              if line["command"] == "clock resolve"]
    assert len(played) == 2  # Bob's turn and the fresh clone's, both shared
    assert value(gm, "kris.toml", "xp") == sum(line["result"]["xp"] for line in played)


def test_a_campaign_in_a_folder_of_its_own_is_guarded_by_its_own_patterns(
        tmp_path: Path) -> None:
    """A campaign in "camp [1]", a folder of a larger repository whose top .gitattributes
    (a glob, a macro) would expand `$Id$` in its journal and filter its sheets: cwx's
    lines match that folder's files alone, whatever its name, and decide; without them,
    check names each line from the campaign's folder, and setup puts them back."""
    table = Table(tmp_path)
    top = tmp_path / "top"
    table.git(tmp_path, "init", "-q", "-b", "main", "top")
    play(top, "GM", "init", "camp [1]")
    camp = top / "camp [1]"
    play(camp, "GM", "char", "new", "kris.toml", "--system", "clockworx", "-t", "A=3", "-t",
         "B=3", "-t", "C=6")
    (top / ".gitattributes").write_text("[attr]lfs filter=lfs -diff\n*.json[l] ident\n"
                                        "camp?\\[1]/*.toml lfs\n")
    table.git(top, "add", "-A")
    table.git(top, "commit", "-qm", "the campaign", "--no-verify")
    asked = table.git(top, "check-attr", "-a", "--", "camp [1]/journal.jsonl",
                      "camp [1]/kris.toml", "other.toml").stdout
    assert "camp [1]/journal.jsonl: merge: union" in asked and \
        "camp [1]/kris.toml: filter: unset" in asked and "other.toml: merge" not in asked
    assert "0 problems" in play(camp, "GM", "check")
    (top / ".git" / "info" / "attributes").unlink()
    checked = play(camp, "GM", "check", status=1)
    assert "../.gitattributes:2: sets ident for journal.jsonl: git then writes" in checked
    assert "../.gitattributes:3: sets filter=lfs, -diff for its TOML files: " in checked
    play(camp, "GM", "git", "setup")
    assert "0 problems" in play(camp, "GM", "check")
