"""What `cwx sync` refuses, it leaves unstaged: a journal that is a link and a file whose
name is not UTF-8 are refused before anything is staged, and a commit the check refuses
puts the index back as it was. Real git, in tmp_path."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers import EXAMPLES, SUE, cwx
from tests.test_post import _identity, play

__all__ = ["_identity"]  # the fixture: git's author from no config, HOME in tmp_path


@pytest.fixture
def solo(tmp_path: Path) -> Path:
    """A campaign at the top of a clone without a remote, synced once."""
    folder = tmp_path / "solo"
    folder.mkdir()
    subprocess.run(["git", "init", "--quiet", "-b", "main"], cwd=folder, check=True)
    play(folder, "Sam", "init", ".")
    assert cwx("sync", cwd=folder, env={"CWX_PLAYER": "Sam"}).status == 0
    return folder


def staged(folder: Path) -> str:
    return subprocess.run(["git", "diff", "--cached", "--name-only"], cwd=folder,
                          capture_output=True, text=True, check=True).stdout


def test_a_file_whose_name_is_not_utf8_is_refused_before_it_is_staged(solo: Path) -> None:
    name = os.path.join(os.fsencode(solo), b"k\xff.toml")
    with open(name, "wb") as file:
        file.write((EXAMPLES / "kris.toml").read_bytes())
    ran = cwx("sync", cwd=solo, env={"CWX_PLAYER": "Sam"})
    assert ran.status == 2 and "its name is not UTF-8" in ran.error and "rename" in ran.error
    assert staged(solo) == ""


@pytest.mark.parametrize("where", ["in the campaign", "in another campaign"])
def test_a_journal_that_is_a_link_is_refused_before_it_is_staged(
        solo: Path, tmp_path: Path, where: str) -> None:
    journal = solo / "journal.jsonl"
    target = solo / "kept.jsonl" if where == "in the campaign" else tmp_path / "other.jsonl"
    journal.rename(target)
    journal.symlink_to(target)
    ran = cwx("sync", cwd=solo, env={"CWX_PLAYER": "Sam"})
    assert ran.status == 2 and "journal.jsonl: is a symbolic link" in ran.error
    assert staged(solo) == ""


def test_a_commit_the_check_refuses_leaves_the_index_as_it_was(solo: Path) -> None:
    (solo / "notes.txt").write_text("staged by the player, not by sync\n")
    subprocess.run(["git", "add", "notes.txt"], cwd=solo, check=True)
    (solo / "k.toml").write_text((EXAMPLES / "kris.toml").read_text().replace(
        "Tough = 5", "Tough = 9"))  # a score the rules refuse: check refuses the commit
    ran = cwx("sync", cwd=solo, env={"CWX_PLAYER": "Sam"})
    assert ran.status == 2 and "the commit was refused" in ran.error
    assert staged(solo).split() == ["notes.txt"]


def test_the_commits_a_sync_starts_from_are_asked_at_once_and_follow_a_commit(
        solo: Path) -> None:
    # One git process answers for the remote's branch and HEAD: a name naming nothing is
    # None, never another's id; asked again after a commit, HEAD is the new commit.
    from cwx.campaign import sync
    from cwx.git import repo

    clone = repo.of(str(solo))
    assert clone is not None
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=solo, capture_output=True,
                          text=True, check=True).stdout.strip()
    assert sync._heads_of(clone, "origin/main", "HEAD", "no such/branch") == [None, head,
                                                                               None]
    play(solo, "Sam", "char", "new", "sue.toml", "--system", "colorwheel", "--name", "Sue",
         *SUE)
    assert cwx("sync", cwd=solo, env={"CWX_PLAYER": "Sam"}).status == 0
    _, now = sync._heads_of(clone, "origin/main", "HEAD")
    assert now not in (None, head)
    assert now == subprocess.run(["git", "rev-parse", "HEAD"], cwd=solo, capture_output=True,
                                 text=True, check=True).stdout.strip()
