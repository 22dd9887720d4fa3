"""A squash (`git merge --squash`) of a branch that merged the table's turns puts the
branch's own turns among them, which only a merge may: check names it with the step
that works, the squash taken back and the branch merged. Real git: a bare origin, the
GM's clone and two players'."""

from __future__ import annotations

from pathlib import Path

from tests.test_git import value
from tests.test_post import _identity, play, sync, table_of_three

__all__ = ["_identity"]  # the fixture: git's author from no config, HOME in tmp_path


def _turn(clone: Path, player: str, guess: int) -> int:
    """A turn of Kris's, played: the experience it gave."""
    before = value(clone, "kris.toml", "xp")
    play(clone, player, "clock", "resolve", "-T", 4, "-g", guess, "-t", "repair", "-c", "kris")
    return int(value(clone, "kris.toml", "xp") - before)


def test_a_squash_among_the_tables_turns_is_named_with_the_merge_that_replaces_it(
        tmp_path: Path) -> None:
    table, _, alice, bob = table_of_three(tmp_path)
    start = value(alice, "kris.toml", "xp")
    gained = _turn(bob, "Bob", 4)
    sync(bob, "Bob")
    table.git(alice, "checkout", "-qb", "side")
    gained += _turn(alice, "Alice", 3)
    table.git(alice, "commit", "-qam", "Alice's turn")
    table.git(alice, "fetch", "-q")
    table.git(alice, "merge", "-q", "--no-edit", "origin/main")  # the table's turn, merged
    gained += _turn(alice, "Alice", 2)
    table.git(alice, "commit", "-qam", "Alice's second turn")
    table.git(alice, "checkout", "-q", "main")
    table.git(alice, "merge", "-q", "--ff-only", "origin/main")
    table.git(alice, "merge", "--squash", "side")
    refused = table.git(alice, "commit", "-qm", "squashed", check=False)
    assert refused.returncode != 0
    step = "`git reset --merge` takes the squash back, then `git merge` that branch"
    assert "put a new line before line" in refused.stderr and step in refused.stderr
    assert step in play(alice, "Alice", "check", status=1)
    table.git(alice, "reset", "--merge")  # the advice, followed
    table.git(alice, "merge", "-q", "--no-edit", "side")
    sync(alice, "Alice")
    assert "0 problems" in play(alice, "Alice", "check")
    assert value(alice, "kris.toml", "xp") == start + gained
    sync(bob, "Bob")
    assert value(bob, "kris.toml", "xp") == start + gained


def test_a_squash_after_a_rebase_is_reconciled_before_its_commit(tmp_path: Path) -> None:
    """Alice's turn, on main and on a branch cut from it, is made anew by a rebase on main
    (the table's turn first): a squash of the branch then holds it on both sides, and the
    merge of Kris's sheet adds it up twice. The hook's note says to reconcile before the
    commit (whose check would refuse it), and that, followed, commits the squash."""
    table, _, alice, bob = table_of_three(tmp_path)
    start = value(alice, "kris.toml", "xp")
    gained = _turn(alice, "Alice", 3)
    table.git(alice, "commit", "-qam", "Alice's turn")
    table.git(alice, "checkout", "-qb", "side")
    gained += _turn(alice, "Alice", 2)
    table.git(alice, "commit", "-qam", "Alice's second turn")
    table.git(alice, "checkout", "-q", "main")
    gained += _turn(bob, "Bob", 4)
    sync(bob, "Bob")
    table.git(alice, "pull", "-q", "--rebase")
    squashed = table.git(alice, "merge", "--squash", "side")
    assert "before you commit it, `cwx reconcile` if `cwx check` asks for it" in \
        squashed.stderr
    assert "kris.toml:5 [xp]: the file says" in play(alice, "Alice", "check", status=1)
    play(alice, "Alice", "reconcile")  # the note, followed
    table.git(alice, "commit", "-qam", "squashed")
    sync(alice, "Alice")
    assert "0 problems" in play(alice, "Alice", "check")
    assert value(alice, "kris.toml", "xp") == start + gained
    sync(bob, "Bob")
    assert value(bob, "kris.toml", "xp") == start + gained
