"""git asked each question once a command (git/repo.py, one_state): within a command or
a library operation an answer that depends on the repository alone is kept, whatever
may change the repository forgets it, and nothing is kept past the command. Real git in
a folder of the test's, each git process this process starts counted by a `git` on PATH
that writes its command line down and runs the real one."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from cwx.git import attributes, repo
from cwx.store import durable
from tests.helpers import SUE, cwx

Asked = Callable[[str], int]  # how many git processes ran this command ("symbolic-ref")
GIT = shutil.which("git") or "git"  # the real one, for the test's own commands


@pytest.fixture
def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Asked:
    """Every git process this process starts from here on counted, by its command (a
    hook's own git, started by the hook, is not)."""
    folder, log = tmp_path / "counting", tmp_path / "asked.log"
    folder.mkdir()
    (folder / "git").write_text(f'#!/bin/sh\necho "$PPID $*" >> {shlex.quote(str(log))}\n'
                                f'exec {shlex.quote(GIT)} "$@"\n')
    (folder / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")

    def count(command: str) -> int:
        lines = log.read_text().splitlines() if log.exists() else []
        return sum(f" {command} " in f" {line} " for line in lines
                   if line.split(" ", 1)[0] == str(os.getpid()))

    return count


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A campaign in a clone of its own (`cwx init`, Sue), committed once."""
    for name, value in (("GIT_AUTHOR_NAME", "GM"), ("GIT_AUTHOR_EMAIL", "gm@table"),
                        ("GIT_COMMITTER_NAME", "GM"), ("GIT_COMMITTER_EMAIL", "gm@table")):
        monkeypatch.setenv(name, value)
    folder = tmp_path / "table"
    subprocess.run([GIT, "init", "--quiet", "-b", "main", str(folder)], check=True)
    assert cwx("init", ".", cwd=folder).status == 0
    assert cwx("char", "new", "sue.toml", "--system", "colorwheel", "--name", "Sue", *SUE,
               cwd=folder).status == 0
    _git(folder, "add", "-A")
    _git(folder, "commit", "--quiet", "-m", "the campaign begins")
    return folder


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run([GIT, *args], cwd=folder, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _clone(folder: Path) -> repo.Repository:
    found = repo.of(str(folder))
    assert found is not None
    return found


def test_a_question_asked_again_in_one_state_starts_no_git(table: Path, asked: Asked) -> None:
    clone = _clone(table)
    with repo.one_state():
        branch = repo.run(clone, "symbolic-ref", "--quiet", "HEAD")
        assert repo.run(clone, "symbolic-ref", "--quiet", "HEAD") is branch
        listed = repo.git(clone, "ls-files", "-z", "--", ":(literal).", strip=False)
        assert repo.git(clone, "ls-files", "-z", "--", ":(literal).", strip=False) == listed
        # The same command with other input, or another environment, is another question.
        head = repo.run(clone, "cat-file", "--batch-check", input=b"HEAD\n")
        assert repo.run(clone, "cat-file", "--batch-check", input=b"HEAD\n") is head
        assert repo.run(clone, "cat-file", "--batch-check", input=b"HEAD:sue.toml\n") \
            .stdout.split()[1] == b"blob"
        alone = {"GIT_INDEX_FILE": str(table / ".git" / "no-index")}
        assert repo.git(clone, "ls-files", "-z", "--", ":(literal).", env=alone) == ""
        # What reads the work tree is asked each time, and forgets nothing.
        for _ in range(2):
            repo.run(clone, "diff", "--quiet", "HEAD", "--")
        assert repo.run(clone, "symbolic-ref", "--quiet", "HEAD") is branch
    assert branch.stdout == b"refs/heads/main\n" and "sue.toml" in listed
    assert (asked("symbolic-ref"), asked("ls-files"), asked("cat-file"), asked("diff")) == \
        (1, 2, 2, 2)


def test_a_change_between_asks_again(table: Path, asked: Asked) -> None:
    clone = _clone(table)
    with repo.one_state():
        before = repo.git(clone, "rev-parse", "HEAD")
        assert repo.git(clone, "rev-parse", "HEAD") == before
        repo.git(clone, "commit", "--quiet", "--allow-empty", "-m", "a turn")
        after = repo.git(clone, "rev-parse", "HEAD")
        # A setting set through git is read anew.
        assert repo.run(clone, "config", "--get", "cwx.asked").returncode == 1
        repo.git(clone, "config", "cwx.asked", "twice")
        assert repo.git(clone, "config", "--get", "cwx.asked") == "twice"
    assert after != before
    assert _git(table, "rev-parse", "HEAD").strip() == after
    assert asked("rev-parse") == 2


def test_what_cwx_writes_of_the_attributes_asks_again(table: Path, asked: Asked) -> None:
    clone = _clone(table)

    def said(attribute: str, path: str) -> str:
        return repo.git(clone, "check-attr", attribute, "--", path).rpartition(": ")[2]

    (table / ".git" / "info" / "attributes").unlink(missing_ok=True)
    _git(table, "rm", "--quiet", ".gitattributes")  # a campaign cwx never set up
    with repo.one_state():
        assert said("merge", "journal.jsonl") == said("merge", "journal.jsonl") == "unspecified"
        attributes.install(clone, ".")  # the clone's info/attributes, written by hand
        assert said("merge", "journal.jsonl") == "union"
        assert said("eol", "sue.toml") == "unspecified"
        # A file a change writes, as `cwx git setup` writes .gitattributes: through the store.
        durable.commit([durable.Replacement(str(table / ".gitattributes"), b"*.toml eol=crlf\n",
                                            None, None)], None, "git setup")
        assert said("eol", "sue.toml") == "crlf"
    assert asked("check-attr") == 4


def test_nothing_is_kept_outside_one_state(table: Path, asked: Asked) -> None:
    clone = _clone(table)
    with repo.one_state():
        kept = repo.git(clone, "rev-parse", "HEAD")
    _git(table, "commit", "--quiet", "--allow-empty", "-m", "made by hand")
    now = repo.git(clone, "rev-parse", "HEAD")
    assert now != kept and now == repo.git(clone, "rev-parse", "HEAD")
    assert asked("rev-parse") == 3
    with repo.one_state():  # a new scope keeps nothing of the last one
        assert repo.git(clone, "rev-parse", "HEAD") == now
    assert asked("rev-parse") == 4


def test_one_state_inside_another_is_the_outer_ones(table: Path, asked: Asked) -> None:
    clone = _clone(table)
    with repo.one_state():
        branch = repo.run(clone, "symbolic-ref", "--quiet", "HEAD")
        with repo.one_state():
            assert repo.run(clone, "symbolic-ref", "--quiet", "HEAD") is branch
        assert repo.run(clone, "symbolic-ref", "--quiet", "HEAD") is branch
    assert asked("symbolic-ref") == 1


def test_a_long_answer_is_asked_again(table: Path, asked: Asked) -> None:
    # A command's memory stays bounded, whatever it reads of the history.
    (table / "notes.txt").write_bytes(b"x" * (2 << 20))
    _git(table, "add", "notes.txt")
    _git(table, "commit", "--quiet", "--no-verify", "-m", "long notes")
    clone = _clone(table)
    with repo.one_state():
        for _ in range(2):
            assert len(repo.run(clone, "cat-file", "blob", "HEAD:notes.txt").stdout) == 2 << 20
    assert asked("cat-file") == 2


def _rewrite_the_journal(table: Path) -> None:
    """Sue's making taken out of the journal, committed past the hooks: a rewrite."""
    journal = table / "journal.jsonl"
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(line for line in lines if '"char new"' not in line))
    _git(table, "commit", "--quiet", "--no-verify", "-am", "Sue was never made")


def test_each_command_asks_once_and_sees_the_commit_made_before_it(table: Path,
                                                                  asked: Asked) -> None:
    # Two commands in one process (as the tests run them): what the first asked of git is
    # not the second's answer.
    assert cwx("check", cwd=table).status == 0
    # The files git tracks, asked by the attributes' check and by the litter's, once.
    assert asked("ls-files -z -- :(literal).") == 1
    _rewrite_the_journal(table)
    refused = cwx("reconcile", cwd=table)
    assert refused.status == 2 and "rewritten journal" in refused.error


def test_a_command_within_another_asks_anew(table: Path) -> None:
    # A scene (cwx play) runs each of its lines as a command within its own, and the
    # player may commit between two lines: each line asks git anew, and so does the scene
    # after it.
    clone = _clone(table)
    with repo.one_state():
        head = repo.git(clone, "rev-parse", "HEAD")
        assert cwx("reconcile", cwd=table).status == 0
        _rewrite_the_journal(table)
        refused = cwx("reconcile", cwd=table)
        assert refused.status == 2 and "rewritten journal" in refused.error
        assert repo.git(clone, "rev-parse", "HEAD") != head


def test_each_operation_asks_once_and_sees_the_commit_made_before_it(
        tmp_path: Path, table: Path, asked: Asked) -> None:
    from cwx.base.errors import Conflict
    from cwx.campaign.operations import Campaign

    # A bot's operations, one after another in one process.
    camp = Campaign.around(str(table))
    assert camp.reconcile() == []
    _rewrite_the_journal(table)
    with pytest.raises(Conflict, match="rewritten journal"):
        camp.reconcile()
    # Each asked git anew, and once: the proof's one question of HEAD and the remotes.
    assert asked("rev-parse HEAD^{commit} --remotes --symbolic-full-name HEAD") == 2
