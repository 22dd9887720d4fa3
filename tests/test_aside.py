"""`cwx sync` runs git commit and git pull itself: cwx's hooks step aside there, and sync
does their work in its own process, once, with what they would have said. A player's own
git commit and pull, and a player's own hooks, run them as ever. Real git: a bare origin
and two clones (tests/test_git.py's Table)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cwx.campaign import gitsetup
from cwx.git import repo, seen
from tests.helpers import cwx
from tests.test_git import Table, value
from tests.test_grows import copied, prepared, rewrite_history
from tests.test_post import _identity

__all__ = ["_identity", "prepared"]  # fixtures: git's author from no config, HOME in
# tmp_path; test_grows's table, the victim's turn pushed and Mallory cloned

CORRECTED = "cwx: note: reconciled 1 key with the ledger after the rebase, and committed it"


def marked(clone: Path, ran: Path, *, old: bool = False) -> None:
    """Each of the clone's cwx hooks writes its name to `ran` where it would start a cwx
    (past the line that steps aside); `old`: hooks as a cwx before that line wrote them."""
    for name in gitsetup.HOOKS:
        hook = clone / ".git" / "hooks" / name
        lines = hook.read_text().splitlines()
        at = next(n for n, line in enumerate(lines) if line.startswith(f'[ "${gitsetup.ASIDE}"'))
        lines[at + 1:at + 1] = [f'echo "${{0##*/}}" >> {ran}']
        if old:
            del lines[at]
        hook.write_text("\n".join(lines) + "\n")


def started(ran: Path) -> list[str]:
    return ran.read_text().split() if ran.exists() else []


def sync(clone: Path) -> str:
    done = cwx("sync", cwd=clone, env={"CWX_PLAYER": clone.name})
    assert done.status == 0, (done.stdout, done.stderr)
    return done.stdout + done.stderr


def both_earn(table: Table) -> tuple[Path, Path]:
    """Alice and Bob each earn Kris experience before either syncs: git's merge of
    kris.toml counts one of them, so Bob's pull brings a correction to commit."""
    alice, bob = table.start()
    table.git(alice, "push", "--quiet", "--set-upstream", "origin", "main")
    for clone in (alice, bob):
        assert cwx("clock", "resolve", "-T", 4, "-g", 4, "-t", "Repair", "-c", "kris",
                   cwd=clone, env={"CWX_PLAYER": clone.name}).status == 0
    return alice, bob


def merged_own_branch(table: Table, clone: Path) -> None:
    """A branch of the clone's own merged into main, not pushed: sync then pulls by a
    merge, where a rebase would flatten it."""
    table.git(clone, "checkout", "--quiet", "-b", "side")
    table.git(clone, "commit", "--quiet", "--allow-empty", "-m", "aside")
    table.git(clone, "checkout", "--quiet", "main")
    table.git(clone, "merge", "--quiet", "--no-ff", "--no-edit", "side")


def corrections(table: Table, clone: Path) -> list[str]:
    return [subject for subject in table.git(clone, "log", "--format=%s").stdout.splitlines()
            if subject.startswith("cwx reconcile after the")]


@pytest.mark.parametrize("how", ["rebase", "merge"])
def test_a_sync_starts_no_hook_yet_does_their_work_once(tmp_path: Path, how: str) -> None:
    table = Table(tmp_path)
    alice, bob = both_earn(table)
    if how == "merge":
        merged_own_branch(table, bob)
    ran = tmp_path / "ran"
    for clone in (alice, bob):
        marked(clone, ran)
    mine = tmp_path / "commit-msg"  # a player's own hook, not cwx's: it runs
    (bob / ".git" / "hooks" / "commit-msg").write_text(f"#!/bin/sh\ntouch {mine}\n")
    (bob / ".git" / "hooks" / "commit-msg").chmod(0o755)
    sync(alice)
    synced = cwx("sync", "--json", cwd=bob, env={"CWX_PLAYER": "Bob"})
    assert synced.status == 0, synced.stderr
    assert started(ran) == [] and mine.exists()
    # The post-rewrite (post-merge) hook's correction, in its words, where git relayed
    # them: once.
    steps = synced.json["steps"]
    corrected = CORRECTED.replace("rebase", how)
    assert [step[:len(corrected)] for step in steps if "reconciled" in step] == [corrected]
    assert steps[2].startswith(corrected) and steps[3] == "pulled 1 commit from origin/main"
    assert corrections(table, bob) == [f"cwx reconcile after the {how}: 1 key brought to the "
                                       "ledger"]
    sync(alice)
    assert started(ran) == []
    assert value(alice, "kris.toml", "xp") == value(bob, "kris.toml", "xp") > 0
    for clone in (alice, bob):
        assert cwx("check", cwd=clone).status == 0


def test_the_players_own_commit_and_pull_run_the_hooks(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = both_earn(table)
    ran = tmp_path / "ran"
    marked(bob, ran)
    sync(alice)
    table.commit(bob, "Bob's turn")
    assert started(ran) == ["pre-commit", "post-commit"]
    pulled = table.pull(bob, rebase=True)
    assert pulled.returncode == 0 and CORRECTED in pulled.stderr, pulled.stderr
    assert {"post-rewrite", "post-checkout"} <= set(started(ran)[2:])
    assert corrections(table, bob) == ["cwx reconcile after the rebase: 1 key brought to the "
                                       "ledger"]


def test_hooks_a_cwx_wrote_before_they_stepped_aside_run_in_a_sync_as_ever(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = both_earn(table)
    ran = tmp_path / "ran"
    marked(bob, ran, old=True)
    sync(alice)
    said = sync(bob)
    assert {"pre-commit", "post-commit", "post-rewrite"} <= set(started(ran))
    assert said.count("reconciled 1 key") == 1  # the hook's; sync's own after finds it done
    assert corrections(table, bob) == ["cwx reconcile after the rebase: 1 key brought to the "
                                       "ledger"]
    assert cwx("check", cwd=bob).status == 0


def test_a_commit_sync_made_is_remembered_though_its_pull_stops(tmp_path: Path) -> None:
    """The post-commit hook's work, done by sync: the journal it committed is the one the
    clone has proven, so a later rewrite of that commit is named (tests/test_grows.py),
    though the pull after it stopped on a clash and nothing checked it since."""
    table = Table(tmp_path)
    alice, bob = table.start()
    ran = tmp_path / "ran"
    marked(bob, ran)
    for clone, name in ((alice, "Kris A"), (bob, "Kris B")):  # a clash on one key
        text = (clone / "kris.toml").read_text().replace('name = "Kris"', f'name = "{name}"')
        (clone / "kris.toml").write_text(text)
        assert cwx("adopt", "kris.toml", cwd=clone).status == 0
    sync(alice)
    stopped = cwx("sync", cwd=bob, env={"CWX_PLAYER": "Bob"})
    assert stopped.status == 2 and "git rebase --continue" in stopped.stderr
    assert started(ran) == []
    clone = repo.of(str(bob))
    assert clone is not None
    kept = seen.recalled(clone, "journal.jsonl")
    committed = table.git(bob, "rev-parse", "ORIG_HEAD").stdout.strip()
    assert kept is not None and kept.commit == committed
    # Back on it, the commit is amended past the pre-commit hook: its line is named.
    table.git(bob, "rebase", "--abort")
    journal = bob / "journal.jsonl"
    lines = journal.read_text().splitlines(keepends=True)
    assert "Kris B" in lines[-1]
    journal.write_text("".join(lines[:-1]) + lines[-1].replace("Kris B", "Kris C"))
    table.git(bob, "commit", "--quiet", "--no-verify", "--amend", "--no-edit", "-a")
    checked = cwx("check", cwd=bob)
    assert checked.status == 1 and (f"changed line {len(lines)} of the journal as this clone "
                                    f"had proven it (at {committed[:12]})") in checked.stdout


def test_a_sync_leaves_what_the_player_staged_to_the_hooks_that_see_it(
        tmp_path: Path) -> None:
    """A file cwx never commits, staged by the player beside sync's files: sync's `git
    commit --only` carries it not, and its pre-commit hook (which sees HEAD and sync's
    files) passes the commit; it stays staged, for check to name."""
    table = Table(tmp_path)
    _, bob = both_earn(table)
    ran = tmp_path / "ran"
    marked(bob, ran)
    (bob / ".cwx-sealed.json").write_text("{}\n")
    table.git(bob, "add", "--force", ".cwx-sealed.json")
    done = cwx("sync", cwd=bob, env={"CWX_PLAYER": "Bob"})
    assert done.status == 1 and "cwx check says them" in done.stdout, done.stdout + done.stderr
    assert started(ran)[:2] == ["pre-commit", "post-commit"]  # left to the hooks
    assert ".cwx-sealed.json" not in table.git(bob, "ls-tree", "--name-only", "HEAD").stdout
    staged = table.git(bob, "diff", "--cached", "--name-only").stdout.split()
    assert staged == [".cwx-sealed.json"]


@pytest.mark.parametrize("how", ["rebase", "merge"])
def test_edits_git_sets_aside_leave_the_pull_to_the_hooks_and_sync_settles_after(
        tmp_path: Path, how: str) -> None:
    """With edits of the player's not committed, git sets them aside over the pull and
    puts them back after its hooks ran, which then reconcile nothing: the pull runs the
    hooks, and sync settles once the edits are back, as it always did."""
    table = Table(tmp_path)
    alice, bob = both_earn(table)
    if how == "merge":
        merged_own_branch(table, bob)
    ran = tmp_path / "ran"
    marked(bob, ran)
    sync(alice)
    (bob / "README.md").write_text((bob / "README.md").read_text() + "Bob's notes\n")
    said = sync(bob)
    hook = "post-rewrite" if how == "rebase" else "post-merge"
    assert hook in started(ran)
    assert "set aside (--autostash)" in said and f"reconciled 1 key with the ledger after the " \
        f"{how}" in said, said
    assert len(corrections(table, bob)) == 1
    assert (bob / "README.md").read_text().endswith("Bob's notes\n")
    assert cwx("check", cwd=bob).status == 0


def test_a_sync_onto_a_history_made_anew_says_what_its_hook_said(
        prepared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rebase of a clone whose commits are all pushed onto a history made anew makes
    no commit anew: git runs post-checkout alone (cli/hooks.py's _rebase_ends_here),
    whose refusal sync says, in the same words whether the hook ran or sync did its work."""
    said = {}
    for old in (True, False):
        table = copied(prepared, tmp_path / ("old" if old else "new"), monkeypatch)
        camp = table.folder / "camp"
        ran = table.folder / "ran"
        marked(camp, ran, old=old)
        assert cwx("check", cwd=camp).status == 0  # this clone proves its journal
        bad = rewrite_history(table)
        synced = cwx("sync", cwd=camp, env={"CWX_PLAYER": "Camp"})
        assert synced.status == 2 and f"commit {bad[:12]} by Mallory" in synced.error
        assert started(ran) == (["post-checkout"] if old else [])
        said[old] = re.sub(r"\b[0-9a-f]{12}\b", "ID", synced.stdout + synced.stderr
                           ).replace(str(table.folder), "TABLE")
    assert said[True] == said[False]


def test_a_check_that_fails_in_any_way_leaves_the_commit_to_the_hook(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cwx.campaign import checks
    from cwx.campaign import sync as syncing

    table = Table(tmp_path)
    _, bob = table.start()
    clone = repo.of(str(bob))
    assert clone is not None and syncing._passes_pre_commit(clone, ["kris.toml"])

    def broken(*_: object) -> None:
        raise RuntimeError("a bug in the check")

    # Before sync did the hooks' work, a check that broke stopped the hook, and git refused
    # the commit in the hook's words (exit 2): sync leaves it to the hook still.
    monkeypatch.setattr(checks, "before_commit", broken)
    assert not syncing._passes_pre_commit(clone, ["kris.toml"])
