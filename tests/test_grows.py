"""The journal only grows, across git too (SPEC 9.2): a pull that changes, removes or moves
a line the clone had is refused by the hooks, `cwx sync` stops on it, and `cwx check`
names it in any clone. Real git: a bare origin, the victim's clone set up as the README
says, and Mallory's, plain; one prepared table copied for each test."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwx.git import grows
from tests.helpers import cwx
from tests.test_git import Table, value

MALLORY = {"GIT_AUTHOR_NAME": "Mallory", "GIT_AUTHOR_EMAIL": "m@table",
           "GIT_COMMITTER_NAME": "Mallory", "GIT_COMMITTER_EMAIL": "m@table"}


# ---------------------------------------------------------------- the pure rule


def _lines(*names: str) -> bytes:
    return b"".join(json.dumps({"v": 2, "id": name, "n": 1}, separators=(",", ":")).encode() +
                    b"\n" for name in names)


def test_a_journal_extends_one_with_lines_added_anywhere_or_copied() -> None:
    old = _lines("a", "b", "c")
    assert grows.extends(old, old) is None
    assert grows.extends(old, old + _lines("d")) is None  # appended (a rebase)
    assert grows.extends(old, _lines("a", "x", "b", "y", "c")) is None  # a union merge
    assert grows.extends(old, old + _lines("b")) is None  # git copied a line twice
    assert grows.extends(b"", old) is None


def test_a_line_changed_removed_or_moved_is_the_break() -> None:
    old = _lines("a", "b", "c")
    changed = old.replace(b'"id":"b","n":1', b'"id":"b","n":9')
    assert grows.extends(old, changed) == grows.Break(2, "changed")
    assert grows.extends(old, _lines("a", "c")) == grows.Break(2, "removed")
    assert grows.extends(old, _lines("a", "c", "b")) == grows.Break(3, "moved")
    # A union merge of the rewritten line with the original keeps both: one id, two lines,
    # named as what it is, a line repeating an earlier event's id.
    twin = changed.split(b"\n")[1] + b"\n"
    assert grows.extends(old, old + twin) == grows.Break(2, "repeated")
    again = _lines("a", "x", "b", "c").replace(b'"id":"x","n":1', b'"id":"a","n":2')
    assert grows.extends(old, again) == grows.Break(1, "repeated")
    said = grows.Rewrite("1" * 40, "2" * 40, "Mallory <m@table>", 2, "repeated").said()
    assert said == ("commit 111111111111 by Mallory <m@table> added a line repeating the id "
                    "of line 2 (an earlier event's id) of the journal as 222222222222 had it")


def _interleaved(sides: list[int]) -> tuple[list[str], list[str]]:
    """Five old lines, in order, with new ones among them where `sides` says (0: a new line
    here)."""
    old = [f"o{n}" for n in range(5)]
    new, taken = [], 0
    for n, side in enumerate(sides):
        if side and taken < len(old):
            new.append(old[taken])
            taken += 1
        else:
            new.append(f"n{n}")
    return old, new + old[taken:]


@settings(max_examples=40)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=12), st.data())
def test_any_interleaving_extends_and_any_edit_breaks(sides: list[int], data: st.DataObject) -> None:
    old, new = _interleaved(sides)
    assert grows.extends(_lines(*old), _lines(*new)) is None
    at = data.draw(st.integers(0, len(new) - 1))
    if new[at].startswith("o"):
        edited = _lines(*new).split(b"\n")
        edited[at] = edited[at].replace(b'"n":1', b'"n":2')
        assert grows.extends(_lines(*old), b"\n".join(edited)) is not None
        assert grows.extends(_lines(*old), _lines(*new[:at], *new[at + 1:])) is not None


# ---------------------------------------------------------------- real git


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Camp (set up, hooks and all) made Kris, earned 2 xp and pushed; Mallory cloned."""
    folder = tmp_path_factory.mktemp("table")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
        patch.setenv("GIT_CONFIG_NOSYSTEM", "1")
        patch.setenv("HOME", str(folder))
        table = Table(folder)
        camp = table.clone("camp")
        assert cwx("init", ".", cwd=camp).status == 0
        assert cwx("char", "new", "kris.toml", "--system", "clockworx", "--name", "Kris",
                   "--trait", "Repair=3", "--trait", "Tough=5", "--trait", "Run=2", cwd=camp).status == 0
        table.commit(camp, "the campaign begins")
        table.git(camp, "push", "--quiet", "origin", "main")
        assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "repair", "-c", "kris",
                   cwd=camp).status == 0
        table.git(camp, "commit", "--quiet", "-am", "victim +2 xp")
        table.git(camp, "push", "--quiet")
        table.clone("mallory")
    yield folder


@pytest.fixture
def table(prepared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    return copied(prepared, tmp_path, monkeypatch)


def copied(prepared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    """The prepared table, copied to `tmp_path`: each clone's origin is the copy's."""
    folder = tmp_path / "t"
    shutil.copytree(prepared, folder, symlinks=True)
    monkeypatch.setenv("HOME", str(folder))
    made = Table.__new__(Table)
    made.folder = folder
    made.env = {**os.environ, "GIT_AUTHOR_NAME": "Player", "GIT_AUTHOR_EMAIL": "p@table",
                "GIT_COMMITTER_NAME": "Player", "GIT_COMMITTER_EMAIL": "p@table",
                "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
                "HOME": str(folder), "GIT_TERMINAL_PROMPT": "0"}
    for name in ("camp", "mallory"):
        made.git(folder / name, "remote", "set-url", "origin", str(folder / "origin.git"))
    for name, said in (("NAME", "Player"), ("EMAIL", "p@table")):
        monkeypatch.setenv(f"GIT_AUTHOR_{name}", said)
        monkeypatch.setenv(f"GIT_COMMITTER_{name}", said)
    return made


def rewrite(table: Table, how: str, message: str = "tidy") -> str:
    """Mallory pulls, rewrites an old line of the journal as `how` says, commits past
    any hook and pushes: the commit's id."""
    mallory = table.folder / "mallory"
    table.git(mallory, "pull", "--quiet")
    path = mallory / "journal.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    if how == "edit":  # the reproduction's: sed -i '$s/"to":2}/"to":200}/'
        assert '"to":2}' in lines[-1]
        lines[-1] = lines[-1].replace('"to":2}', '"to":200}')
    elif how == "delete":
        del lines[-1]
    else:  # reorder
        lines[-2], lines[-1] = lines[-1], lines[-2]
    path.write_text("".join(lines))
    return _pushed_by_mallory(table, message)


def next_step(said: str) -> list[str]:
    """The one next step a note gives, as the words a shell would run."""
    found = re.search(r"Next: `([^`]*)`", said)
    assert found, said
    return found.group(1).split()


@pytest.mark.parametrize("how", ["edit", "delete", "reorder"])
def test_a_pull_that_rewrites_an_old_line_is_refused_and_named(table: Table, how: str) -> None:
    camp = table.folder / "camp"
    journal_before = (camp / "journal.jsonl").read_bytes()
    bad = rewrite(table, how)
    pulled = table.git(camp, "pull", "--quiet", "--no-rebase")
    assert value(camp, "kris.toml", "xp") == 2  # today's hook made it 200
    assert "cwx reconciled nothing" in pulled.stderr
    assert f"commit {bad[:12]} by Mallory <m@table>" in pulled.stderr
    assert table.git(camp, "rev-parse", "HEAD").stdout.strip() == bad  # no commit of cwx's
    checked = cwx("check", cwd=camp)
    assert checked.status == 1
    assert f"commit {bad[:12]} by Mallory <m@table> " in checked.stdout
    assert {"edit": "changed", "delete": "removed", "reorder": "moved"}[how] in checked.stdout
    refused = cwx("reconcile", cwd=camp)  # refuses what the hooks refuse
    assert refused.status == 2 and "changed nothing" in refused.error
    # The one next step, followed as said: the clone is back as it was, and check passes.
    step = next_step(pulled.stderr)
    assert step[:3] == ["git", "reset", "--keep"]
    table.git(camp, *step[1:])
    assert (camp / "journal.jsonl").read_bytes() == journal_before
    assert cwx("check", cwd=camp).status == 0
    assert value(camp, "kris.toml", "xp") == 2


def test_a_rebase_that_brings_a_rewrite_is_refused_and_keeps_the_clones_own_turn(
        table: Table) -> None:
    camp = table.folder / "camp"
    bad = rewrite(table, "edit")
    assert cwx("clock", "resolve", "-T", 5, "-g", 5, "-t", "tough", "-c", "kris",
               cwd=camp).status == 0
    table.git(camp, "commit", "--quiet", "-am", "my turn")
    mine = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    pulled = table.git(camp, "pull", "--quiet", "--rebase")
    assert f"commit {bad[:12]} by Mallory" in pulled.stderr
    assert value(camp, "kris.toml", "xp") != 200 + 10
    table.git(camp, *next_step(pulled.stderr)[1:])
    assert table.git(camp, "rev-parse", "HEAD").stdout.strip() == mine
    assert cwx("check", cwd=camp).status == 0


def test_sync_stops_on_a_rewrite_and_pushes_nothing(table: Table) -> None:
    camp = table.folder / "camp"
    bad = rewrite(table, "edit")
    assert cwx("clock", "resolve", "-T", 5, "-g", 5, "-t", "tough", "-c", "kris",
               cwd=camp).status == 0
    synced = cwx("sync", cwd=camp, env={"CWX_PLAYER": "Camp"})
    assert synced.status == 2
    assert f"commit {bad[:12]} by Mallory" in synced.error and "Next: `git reset" in synced.error
    origin = table.git(table.folder / "origin.git", "rev-parse", "main").stdout.strip()
    assert origin == bad  # the turn was not pushed on top of the rewrite
    table.git(camp, *next_step(synced.error)[1:])
    assert cwx("check", cwd=camp).status == 0


def test_check_names_a_rewrite_in_any_clone_however_it_came(table: Table) -> None:
    bad = rewrite(table, "edit")
    fresh = table.clone("fresh")  # no hooks: the rewrite is simply its history
    checked = cwx("check", "--json", cwd=fresh)
    assert checked.status == 1
    said = [p["message"] for p in checked.json["problems"]]
    assert any(f"commit {bad[:12]} by Mallory <m@table> changed line" in m for m in said)
    # A revert after a later turn, merged by the journal's union, keeps the rewritten
    # line beside the old one: still named, never taken as mended.
    assert cwx("clock", "resolve", "-T", 5, "-g", 5, "-t", "tough", "-c", "kris",
               cwd=fresh).status == 0
    table.git(fresh, "commit", "--quiet", "-am", "a turn")
    table.git(fresh, "revert", "--no-edit", "HEAD~1")
    assert b'"to":200}' in (fresh / "journal.jsonl").read_bytes()
    again = cwx("check", cwd=fresh)
    assert again.status == 1 and again.stdout.count("Mallory") == 1
    # Proven once: the clone keeps what it proved, by commit.
    kept = list((fresh / ".git" / "cwx").glob("journal-proven-*"))
    assert kept and "ok " in kept[0].read_text()


def rewrite_history(table: Table) -> str:
    """Mallory rewrites the whole history (`git rebase --root`, editing the old commit
    that gave Kris 2 xp to give 200) and force-pushes it: each commit of the new history
    extends its parent, and the author of the edited one is still its player. The edited
    commit's id."""
    mallory = table.folder / "mallory"
    table.git(mallory, "pull", "--quiet")
    env = {**table.env, **MALLORY,
           "GIT_SEQUENCE_EDITOR": "sed -i 's/^pick \\(.* victim +2 xp\\)$/edit \\1/'"}

    def run(*args: str) -> None:
        done = subprocess.run(["git", *args], cwd=mallory, env=env, capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr

    run("rebase", "--quiet", "--interactive", "--root")
    path = mallory / "journal.jsonl"
    path.write_text(path.read_text().replace('"to":2}', '"to":200}'))
    run("commit", "--quiet", "--no-verify", "--amend", "--no-edit", "-a")
    run("rebase", "--continue")
    run("push", "--quiet", "--force", "origin", "main")
    edited = table.git(mallory, "rev-parse", "HEAD").stdout.strip()
    assert table.git(mallory, "show", "-s", "--format=%an %cn", edited).stdout.split() == \
        ["Player", "Mallory"]
    return edited


@pytest.mark.parametrize("how", ["reset", "forced pull"])
def test_a_rewritten_history_taken_any_way_is_named_by_who_committed_it(
        table: Table, how: str) -> None:
    camp = table.folder / "camp"
    files = {name: (camp / name).read_bytes() for name in ("kris.toml", "journal.jsonl")}
    assert cwx("check", cwd=camp).status == 0  # this clone proves its journal
    proven = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    bad = rewrite_history(table)
    if how == "reset":  # no hook runs: HEAD simply moves onto the rewritten history
        table.git(camp, "fetch", "--quiet")
        table.git(camp, "reset", "--quiet", "--hard", "origin/main")
    else:  # the hook refuses the pull, and the player forces it anyway
        pulled = table.git(camp, "pull", "--quiet", "--no-rebase", check=False)
        assert "cwx reconciled nothing" in pulled.stderr
        assert f"commit {bad[:12]} by Mallory <m@table> (authored by Player <p@table>) " \
               f"changed line" in pulled.stderr
        assert f"Next: `git reset --keep {proven[:12]}` takes this clone back to before " \
               "the merge (your own commits kept)" in pulled.stderr
        table.git(camp, "merge", "--abort", check=False)
        table.git(camp, "reset", "--quiet", "--hard", "origin/main")
    assert table.git(camp, "rev-parse", "HEAD").stdout.strip() == bad
    checked = cwx("check", cwd=camp)
    assert checked.status == 1
    assert (f"commit {bad[:12]} by Mallory <m@table> (authored by Player <p@table>) changed "
            f"line 3 of the journal as this clone had proven it (at {proven[:12]})"
            in checked.stdout)
    assert "`cwx reconcile`" not in checked.stdout  # no advice to follow the rewrite
    refused = cwx("reconcile", cwd=camp)
    assert refused.status == 2 and "changed nothing" in refused.error
    assert cwx("clock", "resolve", "-T", 5, "-g", 5, "-t", "tough", "-c", "kris",
               cwd=camp).status == 0
    synced = cwx("sync", cwd=camp, env={"CWX_PLAYER": "Camp"})
    assert synced.status == 2 and f"commit {bad[:12]} by Mallory" in synced.error
    assert table.git(camp, "rev-parse", "HEAD").stdout.strip() == bad  # nothing committed
    table.git(camp, "checkout", "--quiet", "--", ".")  # the turn is played again later
    # The one next step, followed as said: this clone is back on what it had proven.
    found = re.search(r"`(git reset --keep [0-9a-f]+)`", checked.stdout)
    assert found, checked.stdout
    table.git(camp, *found.group(1).split()[1:])
    assert {name: (camp / name).read_bytes() for name in files} == files
    assert cwx("check", cwd=camp).status == 0
    # A fresh clone of the rewritten origin has no history of its own to compare with
    # (docs/rules.md): it names the line by the rules' re-play alone, and nobody by it.
    fresh = cwx("check", cwd=table.clone("fresh"))
    assert fresh.status == 1 and "the rules give 0 → 2" in fresh.stdout
    assert "Mallory" not in fresh.stdout


@pytest.mark.parametrize("how", [("switch", "--quiet", "-c", "again", "origin/main"),
                                 ("switch", "--quiet", "--detach", "origin/main")])
def test_a_rewritten_history_taken_as_a_new_branch_is_named(
        table: Table, how: tuple[str, ...]) -> None:
    """A branch this clone never proved (or HEAD on none) is held to the table's lines of
    what it proved on the others: a new branch at a forced push is named like a pull."""
    camp = table.folder / "camp"
    assert cwx("check", cwd=camp).status == 0
    proven = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    bad = rewrite_history(table)
    table.git(camp, "fetch", "--quiet")
    table.git(camp, *how)
    checked = cwx("check", cwd=camp)
    assert checked.status == 1
    assert (f"commit {bad[:12]} by Mallory <m@table> (authored by Player <p@table>) changed "
            f"line 3 of the journal as this clone had proven it (at {proven[:12]})"
            in checked.stdout), checked.stdout
    table.git(camp, "switch", "--quiet", "main")
    assert cwx("check", cwd=camp).status == 0


def test_a_rebase_onto_a_rewritten_history_keeps_the_turn_committed_since(
        table: Table) -> None:
    camp = table.folder / "camp"
    assert cwx("check", cwd=camp).status == 0
    bad = rewrite_history(table)
    assert cwx("clock", "resolve", "-T", 5, "-g", 5, "-t", "tough", "-c", "kris",
               cwd=camp).status == 0
    table.git(camp, "commit", "--quiet", "-am", "my turn")  # not proven by a check since
    mine = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    pulled = table.git(camp, "pull", "--quiet", "--rebase", check=False)
    assert f"commit {bad[:12]} by Mallory <m@table>" in pulled.stderr, pulled.stderr
    table.git(camp, "rebase", "--abort", check=False)  # where git stopped on a clash
    table.git(camp, *next_step(pulled.stderr)[1:])
    assert table.git(camp, "rev-parse", "HEAD").stdout.strip() == mine
    assert cwx("check", cwd=camp).status == 0


def _moved_back(table: Table, camp: Path, mallory: Path) -> None:
    """Mallory moves the table's branch back one commit; the clone takes it as it is."""
    table.git(mallory, "pull", "--quiet")
    table.git(mallory, "push", "--quiet", "--force", "origin", "HEAD~1:main")
    table.git(camp, "fetch", "--quiet")
    table.git(camp, "reset", "--quiet", "--hard", "origin/main")


def test_a_branch_moved_back_past_a_proven_line_is_named(table: Table) -> None:
    camp, mallory = table.folder / "camp", table.folder / "mallory"
    assert cwx("check", cwd=camp).status == 0
    proven = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    _moved_back(table, camp, mallory)
    checked = cwx("check", cwd=camp)
    assert checked.status == 1
    assert ("committed by Player <p@table>) does not hold line 3 of the journal as this "
            f"clone had proven it (at {proven[:12]}) as it was: no commit of it made the "
            "change, the branch was moved there") in checked.stdout
    table.git(camp, "reset", "--quiet", "--keep", proven)
    assert cwx("check", cwd=camp).status == 0


def test_refs_that_make_gits_answers_odd_change_nothing_of_a_proof(table: Table) -> None:
    # HEAD's commit, the remotes' branches and HEAD's branch are asked in one `git
    # rev-parse`: beside a tag named HEAD, git names no branch for HEAD, and that answer is
    # asked again a question at a time; a remote's branch named like an option is a name.
    from cwx.git import held, repo

    camp, mallory = table.folder / "camp", table.folder / "mallory"
    table.git(camp, "update-ref", "refs/remotes/origin/--all", "HEAD")
    assert cwx("check", cwd=camp).status == 0
    proven = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    clone = repo.of(str(camp))
    assert clone is not None
    standing = grows._standing(clone)
    assert standing is not None and standing[0] == proven and standing[2] == "refs/heads/main"
    # A broken ref, which for-each-ref leaves out, is no remote's commit either.
    (camp / ".git" / "refs" / "remotes" / "origin" / "broken").write_text("deadbeef\n")
    assert grows._standing(clone) == standing
    assert standing[1] == held._tips(clone) and proven in standing[1]
    (camp / ".git" / "refs" / "remotes" / "origin" / "broken").unlink()
    table.git(camp, "update-ref", "refs/tags/HEAD", "HEAD")
    assert grows._standing(clone) == (proven, None, None)
    _moved_back(table, camp, mallory)
    checked = cwx("check", cwd=camp)
    assert checked.status == 1
    assert f"as this clone had proven it (at {proven[:12]}) as it was" in checked.stdout


def test_a_git_without_batch_commands_proves_a_history_alike(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    # Blob ids and blobs are read through one `git cat-file --batch-command` (git 2.36);
    # a git that refuses it is asked by --batch-check and --batch, for the same findings.
    from cwx.git import repo, versions

    rewrite(table, "edit")
    fresh = table.clone("fresh")
    first = cwx("check", "--json", cwd=fresh)
    assert first.status == 1
    shutil.rmtree(fresh / ".git" / "cwx")  # nothing proven yet: the walk again
    monkeypatch.setattr(versions.Blobs, "commands", False)
    again = cwx("check", "--json", cwd=fresh)
    assert again.json == first.json
    clone = repo.of(str(fresh))
    assert clone is not None
    read = versions.Blobs(clone)
    try:
        assert read.named("HEAD:journal.jsonl") == (fresh / "journal.jsonl").read_bytes()
        assert read.named("HEAD:nothing here") is None
        assert read.ids(["HEAD", "no such commit"], "journal.jsonl")["no such commit"] == ""
    finally:
        read.close()


def test_only_a_git_that_knows_no_batch_commands_turns_every_reader_to_the_old_way(
        table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A reader whose git stops before answering (a repository it cannot read) asks the
    # old way itself; the next reader, in a play scene or a bot, still tries commands.
    from cwx.git import repo, versions

    clone = repo.of(str(table.folder / "camp"))
    assert clone is not None
    monkeypatch.setattr(versions.Blobs, "commands", True)
    gone = versions.Blobs(clone._replace(git_dir=str(tmp_path / "no such git")))
    assert gone._ask(b"info HEAD:journal.jsonl\n", 1) is None and gone.legacy
    assert versions.Blobs.commands and not versions.Blobs(clone).legacy
    # A git older than 2.36 refuses the option (exit 129): every later reader asks as before.
    old = tmp_path / "old git"
    old.mkdir()
    (old / "git").write_text('#!/bin/sh\necho "usage: git cat-file ..." >&2\nexit 129\n')
    (old / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{old}{os.pathsep}{os.environ['PATH']}")
    assert versions.Blobs(clone)._ask(b"info HEAD:journal.jsonl\n", 1) is None
    assert not versions.Blobs.commands and versions.Blobs(clone).legacy


def test_a_hand_edit_of_a_committed_line_is_named_and_never_committed(table: Table) -> None:
    camp = table.folder / "camp"
    path = camp / "journal.jsonl"
    path.write_text(path.read_text().replace('"to":2}', '"to":20}'))
    checked = cwx("check", cwd=camp)
    assert checked.status == 1 and "the journal here changed line" in checked.stdout
    committed = table.git(camp, "commit", "-qam", "quietly", check=False)
    assert committed.returncode != 0  # the pre-commit hook's check


def test_honest_play_on_two_clones_merged_either_way_is_never_named(table: Table) -> None:
    camp, mallory = table.folder / "camp", table.folder / "mallory"
    table.git(mallory, "pull", "--quiet")
    assert cwx("git", "setup", cwd=mallory).status == 0
    for clone, trait in ((camp, "tough"), (mallory, "repair")):
        assert cwx("clock", "resolve", "-T", 4, "-g", 2, "-t", trait, "-c", "kris",
                   cwd=clone).status == 0
        table.git(clone, "commit", "--quiet", "-am", trait)
    table.git(camp, "push", "--quiet")
    pulled = table.git(mallory, "pull", "--quiet", "--no-rebase")
    assert "reconciled nothing" not in pulled.stderr
    table.git(mallory, "push", "--quiet")
    table.git(camp, "pull", "--quiet", "--rebase")
    for clone in (camp, mallory):
        assert cwx("check", cwd=clone).status == 0, cwx("check", cwd=clone).stdout


# ---------------------------------------------------------------- a turn committed with git


def amend_into_a_failure(table: Table) -> str:
    """Mallory amends the victim's last commit (its turn) into a failure the rules give
    too, past any hook, and force-pushes it: the amended commit's id."""
    mallory = table.folder / "mallory"
    table.git(mallory, "pull", "--quiet")
    path = mallory / "journal.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    turn = json.loads(lines[-1])
    turn["result"].update(target=10, distance=7, success=False, xp=0, xp_total=0)
    turn["changes"] = []
    lines[-1] = json.dumps(turn, separators=(",", ":")) + "\n"
    path.write_text("".join(lines))
    kris = mallory / "kris.toml"
    kris.write_text(re.sub(r"(?m)^xp = 2", "xp = 0", kris.read_text()))
    env = {**table.env, **MALLORY}
    for args in (("commit", "--quiet", "--no-verify", "--amend", "-a", "--no-edit"),
                 ("push", "--quiet", "--force")):
        subprocess.run(["git", *args], cwd=mallory, env=env, check=True)
    return table.git(mallory, "rev-parse", "HEAD").stdout.strip()


@pytest.mark.parametrize("how", ["pull --rebase", "reset"])
def test_a_turn_committed_with_git_and_rewritten_later_is_named(table: Table, how: str) -> None:
    """The victim committed its turn with plain `git commit` (no cwx command since): the
    post-commit hook remembered it, so the forced push that amends it is named, whether
    a rebase drops the turn (git's fork point, no hook runs) or a reset takes the rewrite."""
    camp = table.folder / "camp"
    mine = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    files = {name: (camp / name).read_bytes() for name in ("kris.toml", "journal.jsonl")}
    bad = amend_into_a_failure(table)
    if how == "reset":
        table.git(camp, "fetch", "--quiet")
        table.git(camp, "reset", "--quiet", "--hard", "origin/main")
    else:
        table.git(camp, "pull", "--quiet", "--rebase")
    assert table.git(camp, "rev-parse", "HEAD").stdout.strip() == bad  # the turn dropped
    checked = cwx("check", cwd=camp)
    assert checked.status == 1
    assert (f"commit {bad[:12]} by Mallory <m@table> (authored by Player <p@table>) changed "
            f"line 3 of the journal as this clone had proven it (at {mine[:12]})"
            in checked.stdout)
    synced = cwx("sync", cwd=camp, env={"CWX_PLAYER": "Camp"})
    assert synced.status == 2 and f"commit {bad[:12]} by Mallory" in synced.error
    found = re.search(r"`git (reset --keep [0-9a-f]+)`", checked.stdout)
    assert found, checked.stdout
    table.git(camp, *found.group(1).split())  # the advice, followed as said
    assert {name: (camp / name).read_bytes() for name in files} == files
    assert cwx("check", cwd=camp).status == 0


@pytest.mark.parametrize("verify", [True, False])
def test_a_turn_committed_then_taken_out_with_git_is_named(table: Table, verify: bool) -> None:
    """docs/rules.md: a turn a clone committed and then took out with git (a reset) is
    named, even committed past the pre-commit hook (--no-verify skips only that hook)."""
    camp = table.folder / "camp"
    assert cwx("clock", "resolve", "-T", 5, "-g", 5, "-t", "tough", "-c", "kris",
               cwd=camp).status == 0
    table.git(camp, "commit", "--quiet", *([] if verify else ["--no-verify"]), "-am", "x")
    turn = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    files = {name: (camp / name).read_bytes() for name in ("kris.toml", "journal.jsonl")}
    table.git(camp, "reset", "--quiet", "--hard", "HEAD~1")
    checked = cwx("check", cwd=camp)
    assert checked.status == 1
    assert (f"does not hold line 4 of the journal as this clone had proven it (at "
            f"{turn[:12]}) as it was: no commit of it made the change, the branch was moved "
            "there") in checked.stdout
    found = re.search(r"`git (reset --keep [0-9a-f]+)`", checked.stdout)
    assert found and found.group(1).endswith(turn[:12]), checked.stdout
    table.git(camp, *found.group(1).split())
    assert {name: (camp / name).read_bytes() for name in files} == files
    assert cwx("check", cwd=camp).status == 0


# ---------------------------------------------------------------- a clone's own merges


def turn(table: Table, clone: Path, guess: int, message: str | None = None) -> None:
    """One honest turn of Kris's, committed with plain git when `message` says."""
    assert cwx("clock", "resolve", "-T", 4, "-g", guess, "-t", "tough", "-c", "kris",
               cwd=clone).status == 0
    if message is not None:
        table.git(clone, "commit", "--quiet", "-am", message)


def pushed(table: Table, guess: int) -> None:
    """Mallory (playing honestly) pulls, plays a turn and pushes it."""
    mallory = table.folder / "mallory"
    table.git(mallory, "pull", "--quiet", "--rebase")
    turn(table, mallory, guess, f"mallory {guess}")
    table.git(mallory, "push", "--quiet")


def synced_alike(table: Table, clone: Path, lines: int) -> None:
    """`cwx sync` in `clone` shares every turn, names no rewrite, and leaves it and the
    origin the same commit, which check passes; Mallory's pull of it holds every line."""
    synced = cwx("sync", cwd=clone, env={"CWX_PLAYER": "Camp"})
    assert synced.status == 0, synced.stderr
    assert "reconciled nothing" not in synced.stdout + synced.stderr
    origin = table.git(table.folder / "origin.git", "rev-parse", "main").stdout
    assert table.git(clone, "rev-parse", "HEAD").stdout == origin
    mallory = table.folder / "mallory"
    table.git(mallory, "pull", "--quiet", "--rebase")
    checked = cwx("check", cwd=clone)
    assert checked.status == 0, checked.stdout
    for each in (clone, mallory):
        assert len((each / "journal.jsonl").read_bytes().splitlines()) == lines
    assert value(clone, "kris.toml", "xp") == value(mallory, "kris.toml", "xp")


def test_sync_after_a_merge_by_git_keeps_it_and_never_reorders_a_line(table: Table) -> None:
    """A player who pulls as git's own hint says (a merge), then syncs: the merge's order of
    the two turns, proven by the hooks, is kept (sync merges where a rebase would flatten
    it), whether or not the table moved on since."""
    camp = table.folder / "camp"
    lines = len((camp / "journal.jsonl").read_bytes().splitlines())
    turn(table, camp, 4, "mine")
    pushed(table, 3)
    table.git(camp, "pull", "--quiet", "--no-rebase")
    merge = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    assert cwx("check", cwd=camp).status == 0  # the merge proven: its order is the clone's
    synced_alike(table, camp, lines + 2)
    assert table.git(camp, "rev-parse", "HEAD").stdout.strip() == merge
    # Again, and the table moves on after the merge; a turn waits uncommitted.
    turn(table, camp, 5, "mine again")
    pushed(table, 2)
    table.git(camp, "pull", "--quiet", "--no-rebase")  # its hook proves the merge
    pushed(table, 1)
    turn(table, camp, 6)
    synced_alike(table, camp, lines + 6)
    assert table.git(camp, "merge-base", "--is-ancestor", merge, "HEAD").returncode == 0


def test_a_branch_of_the_clones_own_merged_then_synced_is_never_named(table: Table) -> None:
    """Turns on a branch of one's own, then on main: the branch's proven turn is not taken
    out (a branch holds it), until no branch does; merged, it is synced whole."""
    camp = table.folder / "camp"
    lines = len((camp / "journal.jsonl").read_bytes().splitlines())
    table.git(camp, "switch", "--quiet", "-c", "side")
    turn(table, camp, 4, "on a side branch")
    side = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    table.git(camp, "switch", "--quiet", "main")
    assert cwx("check", cwd=camp).status == 0
    turn(table, camp, 2, "on main")  # the pre-commit hook's check passes too
    table.git(camp, "branch", "--quiet", "-D", "side")  # now no branch holds the turn
    checked = cwx("check", cwd=camp)
    assert checked.status == 1 and "branch side was deleted holding line 4 of the journal " \
        f"as this clone had proven it there (at {side[:12]})" in checked.stdout
    found = re.search(r"`git (branch side [0-9a-f]+)` puts the branch back \(then `git "
                      r"(merge side)`", checked.stdout)
    assert found and found.group(1).endswith(side[:12]), checked.stdout
    for step in found.groups():  # the advice, followed as said
        table.git(camp, *step.split(), "--quiet", *(["--no-edit"] if "merge" in step else []))
    assert cwx("check", cwd=camp).status == 0
    pushed(table, 3)
    synced_alike(table, camp, lines + 3)


def test_a_branch_that_merged_the_table_then_a_pull_on_main_is_never_named(
        table: Table) -> None:
    """Each branch is held to what this clone proved on it: turns on a branch of one's own
    that merged the table's, then a pull on main, are no branch moved past a line."""
    camp = table.folder / "camp"
    lines = len((camp / "journal.jsonl").read_bytes().splitlines())
    table.git(camp, "switch", "--quiet", "-c", "side")
    turn(table, camp, 4, "on a side branch")
    pushed(table, 3)
    table.git(camp, "fetch", "--quiet")
    table.git(camp, "merge", "--quiet", "--no-edit", "origin/main")
    turn(table, camp, 2, "again on the side branch")
    table.git(camp, "switch", "--quiet", "main")
    pulled = table.git(camp, "pull", "--quiet", "--rebase")
    assert "reconciled nothing" not in pulled.stderr, pulled.stderr
    synced_alike(table, camp, lines + 1)


def test_a_branch_cut_before_a_pull_rebase_on_main_plays_on_unnamed(table: Table) -> None:
    """A branch cut at a turn main then made anew after the table's (a `git pull
    --rebase`): a turn played on the branch removes no line, as the branch never held
    the table's."""
    camp = table.folder / "camp"
    turn(table, camp, 4, "mine")
    table.git(camp, "branch", "side")
    pushed(table, 3)
    table.git(camp, "pull", "--quiet", "--rebase")
    table.git(camp, "switch", "--quiet", "side")
    turn(table, camp, 2, "on the branch")  # the pre-commit hook's check passes too
    checked = cwx("check", cwd=camp)
    assert checked.status == 0, checked.stdout
    table.git(camp, "switch", "--quiet", "main")
    assert cwx("check", cwd=camp).status == 0


def test_a_clone_pulling_by_url_rebases_its_own_turn_unnamed(table: Table) -> None:
    """A clone with no remote's branch (it pulls and pushes by URL): what the pull fetched
    is the table's, so its own turn, never pushed, is made anew after the table's."""
    camp = table.folder / "camp"
    url = str(table.folder / "origin.git")
    table.git(camp, "remote", "remove", "origin")
    turn(table, camp, 4, "mine")
    pushed(table, 3)
    pulled = table.git(camp, "pull", "--quiet", "--rebase", url, "main")
    assert "reconciled nothing" not in pulled.stderr, pulled.stderr
    checked = cwx("check", cwd=camp)
    assert checked.status == 0, checked.stdout
    table.git(camp, "push", "--quiet", url, "main")


def test_turns_squashed_by_a_reset_that_keeps_them_are_named_only_once_dropped(
        table: Table) -> None:
    """Two turns not yet pushed, squashed (`git reset --soft`, or a plain reset and `git
    add`): the proven lines wait staged or in the work tree, so nothing is named and the
    commit passes; a reset that drops them (or a checkout over them) is named."""
    camp = table.folder / "camp"
    lines = len((camp / "journal.jsonl").read_bytes().splitlines())
    turn(table, camp, 4, "one")
    turn(table, camp, 5, "two")
    files = {name: (camp / name).read_bytes() for name in ("kris.toml", "journal.jsonl")}
    table.git(camp, "reset", "--quiet", "--soft", "HEAD~2")
    assert cwx("check", cwd=camp).status == 0
    table.git(camp, "commit", "--quiet", "-m", "one and two")  # the pre-commit hook passes
    table.git(camp, "reset", "--quiet", "HEAD~1")  # the work tree keeps them
    assert cwx("check", cwd=camp).status == 0
    table.git(camp, "checkout", "--quiet", "--", ".")
    checked = cwx("check", cwd=camp)
    assert checked.status == 1 and "the branch was moved there" in checked.stdout
    found = re.search(r"`git (reset --keep [0-9a-f]+)`", checked.stdout)
    assert found, checked.stdout
    table.git(camp, *found.group(1).split())
    assert {name: (camp / name).read_bytes() for name in files} == files
    synced_alike(table, camp, lines + 2)


def test_a_rebase_by_hand_that_flattens_the_clones_merge_is_undone_as_said(
        table: Table) -> None:
    """`git pull --rebase` over the clone's own merge moves a line it proved: refused, and
    the advice of the hook, of check and of sync, followed, brings the clone back to its
    merge; `cwx sync` then shares it, the table's turns since kept."""
    camp = table.folder / "camp"
    lines = len((camp / "journal.jsonl").read_bytes().splitlines())
    turn(table, camp, 4, "mine")
    pushed(table, 3)
    table.git(camp, "pull", "--quiet", "--no-rebase")
    merge = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    assert cwx("check", cwd=camp).status == 0
    pushed(table, 2)
    pulled = table.git(camp, "pull", "--quiet", "--rebase")
    assert "made anew by this rebase" in pulled.stderr
    step = next_step(pulled.stderr)
    assert step == ["git", "reset", "--keep", merge[:12]]
    turn(table, camp, 6)  # played, not committed: it stands in the reset's way
    checked = cwx("check", cwd=camp)
    assert checked.status == 1 and f"`git reset --keep {merge[:12]}`" in checked.stdout
    assert "then `cwx sync`" in checked.stdout and "--force" not in checked.stdout
    refused = cwx("sync", cwd=camp, env={"CWX_PLAYER": "Camp"})
    assert refused.status == 2 and f"`git reset --keep {merge[:12]}`" in refused.error
    assert "`git stash` it first, `git stash pop` it after" in refused.error
    for said in (["stash", "--quiet"], step[1:], ["stash", "pop", "--quiet"]):
        table.git(camp, *said)
    synced_alike(table, camp, lines + 4)


# ---------------------------------------------------------------- line endings


def test_a_line_ending_is_no_change_of_a_line() -> None:
    from cwx.git import seen

    old = _lines("a", "b", "c")
    crlf = old.replace(b"\n", b"\r\n")
    assert grows.extends(old, crlf) is None and grows.extends(crlf, old) is None
    assert grows.extends(old, crlf + _lines("d")) is None  # cwx's own LF line after them
    assert seen.form(old) == seen.form(crlf)
    changed = crlf.replace(b'"id":"b","n":1', b'"id":"b","n":9')
    assert grows.extends(old, changed) == grows.Break(2, "changed")


@pytest.mark.parametrize("how", ["core.autocrlf", "attributes"])
def test_a_clone_whose_journal_has_crlf_line_endings_plays_on(table: Table, how: str) -> None:
    """Git for Windows' core.autocrlf=true (in the clone's own config) on a campaign whose
    attributes an older cwx wrote, or attributes a player committed asking CRLF of the
    journal in any clone: check passes, cwx's own turns append, commit and sync."""
    mallory = table.folder / "mallory"
    table.git(mallory, "pull", "--quiet")
    attributes = mallory / ".gitattributes"
    text = attributes.read_text().replace("journal.jsonl eol=lf\n", "")  # an older cwx's
    attributes.write_text(text + ("journal.jsonl text eol=crlf\n" if how == "attributes"
                                  else ""))
    table.git(mallory, "commit", "--quiet", "--no-verify", "-am", "attributes")
    table.git(mallory, "push", "--quiet")
    options = ["-c", "core.autocrlf=true"] if how == "core.autocrlf" else []
    table.git(table.folder, "clone", "--quiet", *options, "origin.git", "win")
    win = table.folder / "win"
    assert b"\r\n" in (win / "journal.jsonl").read_bytes()
    checked = cwx("check", cwd=win)
    assert checked.status == 0, checked.stdout
    assert cwx("git", "setup", cwd=win).status == 0
    assert "journal.jsonl eol=lf" in (win / ".gitattributes").read_text()
    for guess in (5, 4):
        assert cwx("clock", "resolve", "-T", 5, "-g", guess, "-t", "tough", "-c", "kris",
                   cwd=win).status == 0
        checked = cwx("check", cwd=win)
        assert checked.status == 0, checked.stdout
    table.git(win, "commit", "--quiet", "-m", "a turn", "--", "journal.jsonl", "kris.toml")
    assert cwx("clock", "resolve", "-T", 5, "-g", 3, "-t", "tough", "-c", "kris",
               cwd=win).status == 0
    synced = cwx("sync", cwd=win, env={"CWX_PLAYER": "Win"})
    assert synced.status == 0, synced.error
    camp = table.folder / "camp"
    table.git(camp, "pull", "--quiet")
    for clone in (win, camp):
        checked = cwx("check", cwd=clone)
        assert checked.status == 0, checked.stdout
    assert value(camp, "kris.toml", "xp") == value(win, "kris.toml", "xp")


def test_the_lines_a_work_tree_appends_are_read_a_line_at_a_time(tmp_path: Path) -> None:
    # 100,000 lines not yet committed (121 MB) once cost check in a clone 290 MB: the
    # work tree's journal was read whole, and split whole, to look for an id met again.
    import io
    import tracemalloc

    from cwx.git import grows

    def line(n: int, id_: int) -> bytes:
        return b'{"v":2,"id":"%016x","at":"2099-01-01T00:00:00.000Z","note":"%s"}\n' % (
            id_, b"x" * 2000 if n else b"")

    old = line(0, 0) + line(0, 1)
    added = b"".join(line(n, n + 2) for n in range(1, 6000))
    (tmp_path / "added").write_bytes(added)
    with open(tmp_path / "added", "rb") as rest:
        tracemalloc.start()
        try:
            alone = grows._appended_alone(old, old, rest)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert alone and peak < len(added) // 3, f"{peak:,} bytes held"
    assert not grows._appended_alone(old, old, io.BytesIO(added + line(1, 1)))
    assert not grows._appended_alone(old, old[:-1] + b" ", io.BytesIO(added))
    assert grows._appended_alone(b"", b"", io.BytesIO(added + line(1, 5)))


def test_a_long_committed_journal_is_compared_with_the_work_trees_a_block_at_a_time(
        table: Table) -> None:
    # A commit of 100,000 lines (114 MB) once cost check, and so sync and the hooks,
    # 377 MB: HEAD's journal, the work tree's and HEAD's lines were each held whole.
    import tracemalloc

    from cwx.git import repo

    camp = table.folder / "camp"
    path = camp / "journal.jsonl"
    with path.open("a", encoding="utf-8") as journal:
        for n in range(6000):
            journal.write(json.dumps({
                "v": 2, "id": f"{n:016x}", "at": "2026-01-01T00:00:00.000Z", "command": "adopt",
                "who": f"{n:😀>255}", "file": None, "bag": None, "result": {}, "changes": []},
                ensure_ascii=False) + "\n")
    table.git(camp, "commit", "--quiet", "--no-verify", "-am", "long")
    clone = repo.of(str(camp))
    assert clone is not None
    tracemalloc.start()
    try:
        assert grows.in_work_tree(clone, "journal.jsonl", str(path)) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # A few blocks of a megabyte, whatever the journal's size (here 7 MB).
    assert peak < path.stat().st_size, f"{peak:,} bytes for {path.stat().st_size:,}"
    text = path.read_text(encoding="utf-8")  # a committed line changed: still named
    path.write_text(text.replace('"adopt"', '"adopts"', 1), encoding="utf-8")
    changed = grows.in_work_tree(clone, "journal.jsonl", str(path))
    assert changed is not None and changed.how == "changed"


# ---------------------------------------------------------------- a commit of one parent


def test_a_commit_of_one_parent_adds_its_lines_after_the_old() -> None:
    old = _lines("a", "b", "c")
    for added in (old, old + _lines("d"), old + _lines("b"),  # git copied a line twice
                  old.replace(b"\n", b"\r\n") + _lines("d")):
        assert grows.extends(old, added, after=True) is None
    assert grows.extends(old, _lines("a", "x", "b", "c"), after=True) == grows.Break(2, "preceded")
    assert grows.extends(old, _lines("a", "c", "b", "c"), after=True) == grows.Break(2, "preceded")
    assert grows.extends(old, _lines("x", "a", "b", "c")) is None  # a merge's may
    assert grows.extends(old, _lines("a", "c"), after=True) == grows.Break(2, "removed")
    twin = _lines("a", "x", "b", "c").replace(b'"id":"x","n":1', b'"id":"b","n":2')
    assert grows.extends(old, twin, after=True) == grows.Break(2, "repeated")  # said first
    said = grows.Rewrite("1" * 40, "2" * 40, "Mallory <m@table>", 2, "preceded").said()
    assert said == ("commit 111111111111 by Mallory <m@table> put a new line before line 2 "
                    "of the journal as 222222222222 had it (a commit that merges nothing "
                    "adds its lines after the old)")


@settings(max_examples=30)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=12))
def test_an_interleaving_passes_as_one_parent_only_when_it_appends(sides: list[int]) -> None:
    old, new = _interleaved(sides)
    gap = grows.extends(_lines(*old), _lines(*new), after=True)
    assert (gap is None) == (new[:len(old)] == old)
    assert gap is None or gap.how == "preceded"


def _pushed_by_mallory(table: Table, message: str) -> str:
    """Mallory's work tree committed past any hook and pushed: the commit's id."""
    mallory = table.folder / "mallory"
    env = {**table.env, **MALLORY}
    for args in (("commit", "--quiet", "--no-verify", "-am", message), ("push", "--quiet")):
        done = subprocess.run(["git", *args], cwd=mallory, env=env, capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr
    return table.git(mallory, "rev-parse", "HEAD").stdout.strip()


def test_a_seal_put_before_a_guess_it_saw_is_refused_and_named(table: Table) -> None:
    """Issue 30's S1: the GM saw an exact guess on the sealed number, sealed another, and
    put that seal before the guess (stamped a moment earlier, the void it made cut out) in
    a commit of its own, then revealed: the guess would read as made on a number already
    sealed over. A commit that merges nothing adds its lines after the old."""
    camp, mallory = table.folder / "camp", table.folder / "mallory"
    gm = {"CWX_PLAYER": "GM"}
    table.git(mallory, "pull", "--quiet")
    assert cwx("clock", "pick", "--seal", "-T", 3, cwd=mallory, env=gm).status == 0
    _pushed_by_mallory(table, "the GM seals a number")
    table.git(camp, "pull", "--quiet")
    assert cwx("clock", "resolve", "--sealed", "-g", 3, "-t", "repair", "-c", "kris",
               cwd=camp).status == 0
    table.git(camp, "commit", "--quiet", "-am", "a guess")
    table.git(camp, "push", "--quiet")
    table.git(mallory, "pull", "--quiet")
    assert cwx("clock", "pick", "--seal", "--force", "--void", "-T", 9, cwd=mallory,
               env=gm).status == 0
    path = mallory / "journal.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    seal = json.loads(lines.pop())
    guess = next(at for at, line in enumerate(lines) if '"clock resolve --sealed"' in line)
    stamp = datetime.strptime(json.loads(lines[guess])["at"], "%Y-%m-%dT%H:%M:%S.%fZ")
    seal["at"] = (stamp - timedelta(milliseconds=1)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    seal["result"].pop("void", None)
    lines.insert(guess, json.dumps(seal, separators=(",", ":")) + "\n")
    path.write_text("".join(lines))
    assert cwx("clock", "reveal", cwd=mallory, env=gm).status == 0
    bad = _pushed_by_mallory(table, "the GM reveals")
    before = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    files = {name: (camp / name).read_bytes() for name in ("kris.toml", "journal.jsonl")}
    pulled = table.git(camp, "pull", "--quiet")  # a fast-forward: the post-merge hook
    named = f"commit {bad[:12]} by Mallory <m@table> put a new line before line {guess + 1} "
    assert "cwx reconciled nothing" in pulled.stderr and named in pulled.stderr
    assert (camp / "kris.toml").read_bytes() == files["kris.toml"]
    for clone in (camp, table.clone("fresh")):
        checked = cwx("check", cwd=clone)
        assert checked.status == 1 and named in checked.stdout, checked.stdout
    synced = cwx("sync", cwd=camp, env={"CWX_PLAYER": "Camp"})
    assert synced.status == 2 and named in synced.error
    table.git(camp, *next_step(pulled.stderr)[1:])  # the one next step, as said
    assert table.git(camp, "rev-parse", "HEAD").stdout.strip() == before
    assert {name: (camp / name).read_bytes() for name in files} == files
    checked = cwx("check", cwd=camp)
    assert checked.status == 0 and "Pending: Kris guesses 3" in checked.stdout, checked.stdout


def test_a_game_end_forged_before_an_honest_one_is_refused_by_sync(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30's GE2: Mallory puts a forged end of Sue's game just before her honest one
    (stamped a moment earlier) in a commit of its own: the honest one would count for
    nothing. Bob's sync stops on it and pushes nothing; its next step keeps his turn."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for name, said in (("NAME", "Player"), ("EMAIL", "p@table")):
        monkeypatch.setenv(f"GIT_AUTHOR_{name}", said)
        monkeypatch.setenv(f"GIT_COMMITTER_{name}", said)
    table = Table(tmp_path)
    alice, bob = table.start()  # Bob has cwx's hooks; Alice plays Mallory
    by_bob = {"CWX_PLAYER": "Bob"}
    for args in (("bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white", "--drawn",
                  "black", "--drawn", "red", "--keep-white", "--keep-black"),
                 ("game", "end", "-c", "sue"), ("sync",)):
        assert cwx(*args, cwd=bob, env=by_bob).status == 0
    table.git(alice, "pull", "--quiet", "origin", "main")
    path = alice / "journal.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    forged = json.loads(lines[-1])
    forged.update(id="f00d0000000000e0", player="Mallory", at=forged["at"][:-4] + "000Z",
                  changes=[{"file": "sue.toml", "key": "luck.black", "from": 1, "to": 0},
                           {"file": "bag.toml", "key": "reserve.black", "from": 10, "to": 11}])
    lines.insert(len(lines) - 1, json.dumps(forged, separators=(",", ":")) + "\n")
    path.write_text("".join(lines))
    env = {**table.env, **MALLORY}
    for args in (("commit", "--quiet", "--no-verify", "-am", "tidy"),
                 ("push", "--quiet", "origin", "main")):
        subprocess.run(["git", *args], cwd=alice, env=env, check=True)
    bad = table.git(alice, "rev-parse", "HEAD").stdout.strip()
    assert cwx("bag", "draw", "-c", "rick", "-C", "red", "--drawn", "red", cwd=bob,
               env=by_bob).status == 0
    synced = cwx("sync", cwd=bob, env=by_bob)
    named = f"commit {bad[:12]} by Mallory <m@table> put a new line before line {len(lines) - 1} "
    assert synced.status == 2 and named in synced.error, synced.stderr
    assert table.git(table.folder / "origin.git", "rev-parse", "main").stdout.strip() == bad
    checked = cwx("check", cwd=bob)
    assert checked.status == 1 and named in checked.stdout
    table.git(bob, *next_step(synced.error)[1:])
    assert cwx("check", cwd=bob).status == 0
    assert value(bob, "sue.toml", "luck") == {"white": 0, "black": 0}
    assert "Rick draws" in table.git(bob, "log", "-1", "--format=%B").stdout  # his turn, kept


def test_a_line_put_before_a_committed_one_waits_for_a_merge(table: Table) -> None:
    """The work tree is proven as the next commit will be: the pre-commit hook refuses a
    line put before a committed one, but in a merge being concluded (two parents)."""
    from cwx.git import repo

    camp = table.folder / "camp"
    path = camp / "journal.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    early = json.loads(lines[-1])
    early.update(id="0123456789abcdef", changes=[])
    lines.insert(len(lines) - 1, json.dumps(early, separators=(",", ":")) + "\n")
    path.write_text("".join(lines))
    checked = cwx("check", cwd=camp)
    assert checked.status == 1 and \
        f"the journal here put a new line before line {len(lines) - 1} " in checked.stdout
    assert table.git(camp, "commit", "-qam", "early", check=False).returncode != 0
    clone = repo.of(str(camp))
    assert clone is not None
    (camp / ".git" / "MERGE_HEAD").write_text(
        table.git(camp, "rev-parse", "HEAD").stdout)  # as a merge stopped on a clash
    assert grows.in_work_tree(clone, "journal.jsonl", str(path)) is None


def test_honest_play_brought_any_way_git_brings_it_is_never_named(table: Table) -> None:
    """Each way a clone takes the table's turns beside its own (a stash over a pull, a
    squash of its own branch, cwx sync's rebase; a merge: above) adds its lines after the
    old in every commit that merges nothing: never named, and the clones end alike."""
    camp = table.folder / "camp"
    lines = len((camp / "journal.jsonl").read_bytes().splitlines())
    turn(table, camp, 4)  # not committed, set aside over a pull
    pushed(table, 3)
    for args in (("stash", "--quiet"), ("pull", "--quiet"), ("stash", "pop", "--quiet"),
                 ("commit", "--quiet", "-am", "stashed"), ("push", "--quiet"),
                 ("switch", "--quiet", "-c", "side")):
        table.git(camp, *args)
    turn(table, camp, 5, "on a side branch")
    table.git(camp, "switch", "--quiet", "main")
    pushed(table, 2)
    for args in (("pull", "--quiet", "--rebase"), ("merge", "--quiet", "--squash", "side"),
                 ("commit", "--quiet", "-m", "squashed"), ("branch", "--quiet", "-D", "side")):
        said = table.git(camp, *args)
        assert "reconciled nothing" not in said.stderr, said.stderr
    pushed(table, 1)
    turn(table, camp, 6, "mine")
    synced_alike(table, camp, lines + 6)  # a rebase


def _put_before_the_tables_turn(table: Table) -> str:
    """Mallory takes back the table's last turn (B), plays his own there, puts B after it
    and force-pushes: every commit extends its parent, his turn stands among lines the
    table had. The commit that made B anew."""
    mallory = table.folder / "mallory"
    table.git(mallory, "pull", "--quiet")
    taken = (mallory / "journal.jsonl").read_text().splitlines(keepends=True)[-1]
    table.git(mallory, "reset", "--quiet", "--hard", "HEAD~1")
    turn(table, mallory, 3)
    _committed_by_mallory(table, "mallory's turn, put before B")
    with (mallory / "journal.jsonl").open("a") as journal:
        journal.write(taken)
    assert cwx("reconcile", cwd=mallory).status == 0
    _committed_by_mallory(table, "B, made anew")
    table.git(mallory, "push", "--quiet", "--force", "origin", "main")
    return table.git(mallory, "rev-parse", "HEAD").stdout.strip()


def _committed_by_mallory(table: Table, message: str) -> None:
    done = subprocess.run(["git", "commit", "--quiet", "--no-verify", "-am", message],
                          cwd=table.folder / "mallory", env={**table.env, **MALLORY},
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("expired", ["before the reset", "after the pull"])
def test_a_turn_put_among_the_tables_stays_named_when_git_forgets_its_reflogs(
        table: Table, expired: str) -> None:
    """Issue 30's RI1: what the table had is kept in cwx's own memory (held.py), not only
    in git's reflogs of the remotes' branches, which `git reflog expire` empties, or in
    what git last fetched, which the next fetch (of a branch the table keeps) replaces."""
    camp = table.folder / "camp"
    table.git(camp, "push", "--quiet", "origin", "HEAD~1:refs/heads/extra")
    turn(table, camp, 4, "B")
    table.git(camp, "push", "--quiet")
    assert cwx("check", cwd=camp).status == 0  # this clone proves its journal
    proven = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    files = {name: (camp / name).read_bytes() for name in ("kris.toml", "journal.jsonl")}
    line = len(files["journal.jsonl"].splitlines())  # B's
    bad = _put_before_the_tables_turn(table)
    named = f"commit {bad[:12]} by Mallory <m@table> put a new line before line {line} "
    if expired == "after the pull":
        pulled = table.git(camp, "pull", "--quiet", "--rebase", check=False)
        assert "cwx reconciled nothing" in pulled.stderr and named in pulled.stderr
    else:
        table.git(camp, "fetch", "--quiet")
    table.git(camp, "fetch", "--quiet", "origin", "extra")
    table.git(camp, "reflog", "expire", "--expire=now", "--all")
    if expired == "before the reset":  # no hook runs: HEAD simply moves
        table.git(camp, "reset", "--quiet", "--hard", "origin/main")
    checked = cwx("check", cwd=camp)
    assert checked.status == 1 and named in checked.stdout, checked.stdout
    found = re.search(r"`(git reset --keep [0-9a-f]+)`", checked.stdout)
    assert found, checked.stdout
    table.git(camp, *found.group(1).split()[1:])  # the one next step, as said
    assert table.git(camp, "rev-parse", "HEAD").stdout.strip() == proven
    assert {name: (camp / name).read_bytes() for name in files} == files
    assert cwx("check", cwd=camp).status == 0
