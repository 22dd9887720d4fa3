"""Two players, two clones of one bare origin, real git: what git merges adds up.

Each clone is set up as the README says (`cwx init` in the first, `cwx git setup` after
cloning); git runs with its author set in the environment and no global config."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from cwx.campaign import gitsetup
from cwx.git import repo
from tests.helpers import FULL, SUE, cwx, once

RICK = ["--trait", "red=Quick", "--trait", "yellow=Wary", "--trait", "blue=Calm",
        "--trait", "orange=Bold", "--trait", "green=Kind", "--trait", "purple=Friendly"]


class Table:
    """A bare origin and the clones of the players around the table."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.env = {**os.environ, "GIT_AUTHOR_NAME": "Player", "GIT_AUTHOR_EMAIL": "p@table",
                    "GIT_COMMITTER_NAME": "Player", "GIT_COMMITTER_EMAIL": "p@table",
                    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
                    "HOME": str(folder), "GIT_TERMINAL_PROMPT": "0"}
        self.git(folder, "init", "--quiet", "--bare", "--initial-branch=main", "origin.git")
        # The receiving end of a push to a folder reads no GIT_CONFIG_* (tests/conftest.py)
        # and starts `git gc --auto` after each push; the origin's own config turns it off.
        with open(folder / "origin.git" / "config", "a") as config:
            config.write("[receive]\n\tautogc = false\n")

    def git(self, where: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(["git", *args], cwd=where, env=self.env, capture_output=True,
                              text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"git {' '.join(args)}: {done.stdout}{done.stderr}")
        return done

    def clone(self, name: str) -> Path:
        self.git(self.folder, "clone", "--quiet", "origin.git", name)
        clone = self.folder / name
        self.git(clone, "checkout", "--quiet", "-B", "main")
        return clone

    def start(self) -> tuple[Path, Path]:
        """Alice starts the campaign and pushes it; Bob clones it and runs git setup (built
        once a test process, then copied: tests/helpers.py's `once`)."""
        once("Table.start", self.folder, ["origin.git", "alice", "bob"], self._start)
        return self.folder / "alice", self.folder / "bob"

    def _start(self) -> None:
        alice = self.clone("alice")
        assert self.cwx(alice, "init", ".").status == 0
        self.cwx(alice, "char", "new", "sue.toml", "--system", "colorwheel", "--name", "Sue",
                 *SUE)
        self.cwx(alice, "char", "new", "rick.toml", "--system", "colorwheel", "--name", "Rick",
                 *RICK)
        self.cwx(alice, "char", "new", "kris.toml", "--system", "clockworx", "--name", "Kris",
                 "--trait", "Scrounge=3", "--trait", "Repair=3", "--trait", "Tough=5")
        self.commit(alice, "the campaign begins")
        self.git(alice, "push", "--quiet", "origin", "main")
        bob = self.clone("bob")
        assert self.cwx(bob, "git", "setup").status == 0

    def cwx(self, where: Path, *args: object) -> Any:
        ran = cwx(*args, cwd=where)
        assert ran.status in (0, 1), (args, ran.stderr)
        return ran

    def commit(self, where: Path, message: str) -> None:
        self.git(where, "add", "-A")
        self.git(where, "commit", "--quiet", "--allow-empty", "-m", message)

    def pull(self, where: Path, *, rebase: bool) -> subprocess.CompletedProcess[str]:
        return self.git(where, "pull", "--quiet", "--rebase" if rebase else "--no-rebase",
                        "origin", "main", check=False)


def value(clone: Path, name: str, *key: str) -> Any:
    data: Any = tomllib.loads((clone / name).read_text())
    for part in key:
        data = data[part]
    return data


def dice(clone: Path) -> tuple[int, int]:
    """Every white and black of the campaign (W9)."""
    bag = tomllib.loads((clone / "bag.toml").read_text())
    white = bag["bag"]["white"] + bag["reserve"]["white"]
    black = bag["bag"]["black"] + bag["reserve"]["black"]
    for name in ("sue.toml", "rick.toml"):
        luck = tomllib.loads((clone / name).read_text())["luck"]
        white, black = white + luck["white"], black + luck["black"]
    return white, black


def checked(clone: Path) -> None:
    ran = cwx("check", clone, cwd=clone)
    assert ran.status == 0, ran.stdout


KEEP_WHITE = ["--drawn", "white", "--drawn", "red", "--keep-white", "--color", "red"]


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
def test_both_keep_a_white_and_identical_files_still_add_up(tmp_path: Path,
                                                             rebase: bool) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    table.cwx(alice, "bag", "draw", "--char", "sue.toml", "--bag", "bag.toml", *KEEP_WHITE)
    table.commit(alice, "Sue keeps a white")
    table.git(alice, "push", "--quiet", "origin", "main")
    table.cwx(bob, "bag", "draw", "--char", "rick.toml", "--bag", "bag.toml", *KEEP_WHITE)
    table.commit(bob, "Rick keeps a white")
    assert (alice / "bag.toml").read_bytes() == (bob / "bag.toml").read_bytes()  # git can't tell
    pulled = table.pull(bob, rebase=rebase)
    assert pulled.returncode == 0, pulled.stderr
    assert "reconciled 1 key" in pulled.stderr
    assert value(bob, "bag.toml", "reserve", "white") == 8
    assert (value(bob, "sue.toml", "luck", "white"), value(bob, "rick.toml", "luck", "white")) \
        == (1, 1)
    assert dice(bob) == (11, 11)
    checked(bob)
    assert table.git(bob, "status", "--porcelain").stdout == ""  # the correction is committed
    assert "cwx reconcile after the" in table.git(bob, "log", "-1", "--format=%s").stdout


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
def test_both_give_one_character_experience_without_a_conflict(tmp_path: Path,
                                                                rebase: bool) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    table.cwx(alice, "clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Tough",
              "--char", "kris.toml")
    table.commit(alice, "+10")
    table.git(alice, "push", "--quiet", "origin", "main")
    table.cwx(bob, "clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
              "--char", "kris.toml")
    table.commit(bob, "+2")
    pulled = table.pull(bob, rebase=rebase)
    assert pulled.returncode == 0, pulled.stderr
    assert value(bob, "kris.toml", "xp") == 12
    checked(bob)
    assert table.git(bob, "status", "--porcelain").stdout == ""


def test_one_buys_a_trait_while_the_other_draws(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    for _ in range(3):  # Sue gathers three whites, shared with Bob
        table.cwx(alice, "bag", "draw", "--char", "sue.toml", "--bag", "bag.toml", *KEEP_WHITE)
    table.commit(alice, "three whites")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    table.cwx(alice, "wheel", "buy", "--char", "sue.toml", "--bag", "bag.toml", "--color",
              "red", "--trait", "Climber")
    table.commit(alice, "Sue buys Climber")
    table.git(alice, "push", "--quiet", "origin", "main")
    table.cwx(bob, "bag", "draw", "--char", "sue.toml", "--bag", "bag.toml", *KEEP_WHITE)
    table.commit(bob, "Sue keeps a fourth white")
    pulled = table.pull(bob, rebase=False)
    assert pulled.returncode == 0, pulled.stderr
    assert value(bob, "sue.toml", "traits", "red") == ["Strong", "Climber"]
    assert value(bob, "sue.toml", "luck", "white") == 1  # 3 - 3 bought + 1 kept
    assert value(bob, "bag.toml", "reserve", "white") == 10 - 3 + 3 - 1
    assert dice(bob) == (11, 11)
    checked(bob)


def test_two_clones_spending_on_one_failure_and_an_undo_keep_the_ledger(tmp_path: Path,
                                                                         ) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    table.cwx(alice, "bag", "draw", "--char", "sue.toml", *KEEP_WHITE)
    table.cwx(alice, "bag", "draw", "--char", "sue.toml", "--color", "red", "--drawn", "blue")
    table.commit(alice, "Sue keeps a white, then fails")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    for clone in (alice, bob):  # both players spend her white on the failure at once
        table.cwx(clone, "luck", "spend", "-c", "sue")
        table.commit(clone, "Sue spends her white")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    assert value(bob, "sue.toml", "luck", "white") == 0  # one white spent, not two
    checked(bob)
    undone = cwx("undo", "-c", "sue", cwd=bob)  # the spend that counts is the one undone
    assert undone.status == 0, undone.stderr
    # ... and the other, which it pre-empted, counts again: the white stays spent
    assert "which it had pre-empted, counts again" in undone.stdout
    assert value(bob, "sue.toml", "luck", "white") == 0 and dice(bob) == (11, 11)
    checked(bob)
    assert cwx("undo", "-c", "sue", cwd=bob).status == 0  # that one undone too
    assert value(bob, "sue.toml", "luck", "white") == 1 and dice(bob) == (11, 11)
    checked(bob)
    assert cwx("luck", "spend", "-c", "sue", cwd=bob).status == 0  # the failure is free again
    assert value(bob, "sue.toml", "luck", "white") == 0 and dice(bob) == (11, 11)
    checked(bob)


def test_two_different_names_are_a_real_conflict_that_check_names(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    for clone, name in ((alice, "Kris the Bold"), (bob, "Kris Smith")):
        path = clone / "kris.toml"
        path.write_text(path.read_text().replace('name = "Kris"', f'name = "{name}"'))
        assert table.cwx(clone, "adopt", "kris.toml").status == 0
        table.commit(clone, f"renamed {name}")
    table.git(alice, "push", "--quiet", "origin", "main")
    pulled = table.pull(bob, rebase=False)
    assert pulled.returncode != 0
    assert "name was 'Kris'; one side changed it to" in pulled.stderr
    assert "then `cwx adopt kris.toml`" in pulled.stderr  # the next step
    text = (bob / "kris.toml").read_text()
    assert "<<<<<<<" in text and ">>>>>>>" in text
    ran = cwx("check", bob, cwd=bob)
    assert ran.status == 1 and "kris.toml:" in ran.stdout and "conflict markers" in ran.stdout


# ---------------------------------------------------------------- random play, merged

ACTIONS = {
    "keep white": ["bag", "draw", "--bag", "bag.toml", *KEEP_WHITE],
    "keep black": ["bag", "draw", "--bag", "bag.toml", "--drawn", "black", "--drawn", "blue",
                   "--keep-black", "--color", "blue"],
    "spend": ["bag", "draw", "--bag", "bag.toml", "--drawn", "yellow", "--color", "red",
              "--spend-white"],
    "end": ["game", "end", "--bag", "bag.toml"],
}
PLAY = st.lists(st.sampled_from([*ACTIONS, "xp"]), max_size=4)


CANCELLED = ["bag", "draw", "--bag", "bag.toml", "--drawn", "white", "--color", "red"]


def play(table: Table, clone: Path, who: str, moves: list[str]) -> None:
    for move in moves:
        black = value(clone, who, "luck", "black")
        if move == "xp":  # both sides give the shared ClockWorx character experience
            table.cwx(clone, "clock", "resolve", "--target", 5, "--guess", 4, "--trait",
                      "Tough", "--char", "kris.toml")
        elif move == "keep white" and black:  # a held black cancels the white instead
            table.cwx(clone, *CANCELLED, "--char", who)
        else:
            table.cwx(clone, *ACTIONS[move], "--char", who)
    table.commit(clone, f"{who}: {', '.join(moves) or 'nothing'}")


def ledger_keys(clone: Path) -> dict[str, Any]:
    return {name: tomllib.loads((clone / name).read_text())
            for name in ("bag.toml", "sue.toml", "rick.toml", "kris.toml")}


# Four plays chosen for each way git brings them together (merge or rebase, either clone
# first) and every move on both sides: a white cancelled by a held black, a game ended
# with dice held, experience from both clones, one clone playing nothing. Hypothesis runs
# derandomized, so the twelve random plays make test ran were twelve fixed ones, four of
# them empty on both sides: make test plays these four, make bench (CWX_TEST_FULL=1)
# them and forty random ones.
@settings(max_examples=40, phases=tuple(Phase) if FULL else [Phase.explicit])
@example(alice_moves=["keep white", "xp", "keep black", "end"],
         bob_moves=["keep black", "keep white", "spend", "xp"], alice_first=True, rebase=False)
@example(alice_moves=["spend", "keep black", "keep white", "xp"],
         bob_moves=["xp", "keep white", "end", "spend"], alice_first=False, rebase=True)
@example(alice_moves=["keep black", "end", "xp"], bob_moves=["keep white"],
         alice_first=False, rebase=False)
@example(alice_moves=[], bob_moves=["spend", "keep black", "xp"], alice_first=True,
         rebase=True)
@given(alice_moves=PLAY, bob_moves=PLAY, alice_first=st.booleans(), rebase=st.booleans())
def test_random_play_on_two_clones_merges_to_what_one_clone_playing_both_holds(
        tmp_path_factory: pytest.TempPathFactory, alice_moves: list[str],
        bob_moves: list[str], alice_first: bool, rebase: bool) -> None:
    table = Table(tmp_path_factory.mktemp("table"))
    alice, bob = table.start()
    solo = table.clone("solo")  # one clone playing both sequences, one after the other
    before = dice(alice)
    play(table, alice, "sue.toml", alice_moves)
    play(table, bob, "rick.toml", bob_moves)
    play(table, solo, "sue.toml", alice_moves)
    play(table, solo, "rick.toml", bob_moves)
    first, second = (alice, bob) if alice_first else (bob, alice)
    table.git(first, "push", "--quiet", "origin", "main")
    pulled = table.pull(second, rebase=rebase)
    assert pulled.returncode == 0, pulled.stderr
    assert dice(second) == before
    checked(second)
    assert ledger_keys(second) == ledger_keys(solo)


@pytest.mark.parametrize("name", ["sue.toml", "süe.toml"])  # git quotes the second
def test_a_pull_never_reconciles_away_edits_not_yet_committed(tmp_path: Path,
                                                              name: str) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    if name != "sue.toml":
        table.cwx(alice, "char", "new", name, "--system", "colorwheel", "--name", "Süe", *SUE)
        table.commit(alice, "Süe joins")
        table.git(alice, "push", "--quiet", "origin", "main")
        assert table.pull(bob, rebase=False).returncode == 0
    table.cwx(alice, "clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
              "--char", "kris.toml")
    table.commit(alice, "+2")
    table.git(alice, "push", "--quiet", "origin", "main")
    sue = bob / name
    sue.write_text(sue.read_text().replace("white = 0", "white = 3"))  # the GM, by hand
    pulled = table.pull(bob, rebase=False)
    assert pulled.returncode == 0, pulled.stderr
    assert f"{name} had changes not yet committed" in pulled.stderr
    assert value(bob, name, "luck", "white") == 3


def test_a_squash_merge_is_left_to_be_committed(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, _ = table.start()
    table.git(alice, "checkout", "--quiet", "-b", "feat")
    table.cwx(alice, "clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Tough",
              "--char", "kris.toml")
    table.commit(alice, "feat: +10")
    table.git(alice, "checkout", "--quiet", "main")
    head = table.git(alice, "rev-parse", "HEAD").stdout
    done = table.git(alice, "merge", "--squash", "feat")
    assert "squash merge is not committed yet" in done.stderr
    assert table.git(alice, "rev-parse", "HEAD").stdout == head  # no commit of its own


def test_a_hook_that_is_a_link_is_kept_and_the_driver_still_set(tmp_path: Path) -> None:
    table = Table(tmp_path)
    _, bob = table.start()
    hooks = bob / ".git" / "hooks"
    (hooks / "pre-commit").unlink()
    (tmp_path / "mine").write_text("#!/bin/sh\nexit 0\n")
    (hooks / "pre-commit").symlink_to(tmp_path / "mine")
    ran = table.cwx(bob, "git", "setup")
    assert ran.status == 0 and "pre-commit is not cwx's" in ran.stderr
    assert (hooks / "pre-commit").is_symlink()
    assert "git merge -- %O %A %B %P" in table.git(bob, "config", "merge.cwx.driver").stdout


def test_a_shared_hooks_folder_gets_no_hook(tmp_path: Path) -> None:
    table = Table(tmp_path)
    _, bob = table.start()
    shared = tmp_path / "shared-hooks"
    shared.mkdir()
    table.git(bob, "config", "core.hooksPath", str(shared))
    ran = table.cwx(bob, "git", "setup")
    assert ran.status == 0 and "core.hooksPath" in ran.stderr
    assert list(shared.iterdir()) == []


def test_a_die_git_carries_into_a_moved_file_is_never_reconciled_away(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    (alice / "pcs").mkdir()
    table.git(alice, "mv", "sue.toml", "pcs/sue.toml")
    table.cwx(alice, "adopt", "pcs/sue.toml", "sue.toml")  # moved: Sue's keys go with her
    checked(alice)
    table.commit(alice, "Sue moves into pcs/")
    table.git(alice, "push", "--quiet", "origin", "main")
    table.cwx(bob, "bag", "draw", "--char", "sue.toml", *KEEP_WHITE)
    table.commit(bob, "Sue keeps a white")
    before = dice(bob)
    pulled = table.pull(bob, rebase=False)  # git takes the white into pcs/sue.toml
    assert pulled.returncode == 0, pulled.stderr
    assert value(bob, "pcs/sue.toml", "luck", "white") == 1  # not reconciled away
    assert "the ledger's dice in files that are gone" in pulled.stderr
    ran = cwx("check", ".", cwd=bob)
    assert ran.status == 1 and "sue.toml: is gone, with 1 die (a white or a black)" in ran.stdout
    assert "`cwx reconcile` brings them together" not in ran.stdout
    refused = cwx("reconcile", cwd=bob)
    assert refused.status == 2 and "would be lost" in refused.error
    # The table settles it: the die is where git put it, and the gone file leaves the ledger.
    assert cwx("adopt", "sue.toml", "pcs/sue.toml", cwd=bob).status == 0
    checked(bob)
    bag = tomllib.loads((bob / "bag.toml").read_text())
    assert bag["bag"]["white"] + bag["reserve"]["white"] + \
        value(bob, "pcs/sue.toml", "luck", "white") + value(bob, "rick.toml", "luck", "white") \
        == before[0]



def test_a_redo_record_git_brings_is_never_finished_by_the_hook(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    temp = ".kris.toml.deadbeef.cwx-tmp"
    (alice / temp).write_text((alice / "kris.toml").read_text().replace("xp = 0", "xp = 900"))
    (alice / ".cwx-redo-0123456789ab.json").write_text(json.dumps({
        "redo": 2, "command": "xp spend", "journal": None, "journal_size": 0,
        "replace": [[str(bob / temp), str(bob / "kris.toml"), None]]}))
    table.git(alice, "add", "--force", temp, ".cwx-redo-0123456789ab.json")
    table.git(alice, "commit", "--quiet", "--no-verify", "-m", "planted")
    table.git(alice, "push", "--quiet", "origin", "main")
    pulled = table.pull(bob, rebase=False)
    assert pulled.returncode == 0
    assert "which cwx never commits" in pulled.stderr and ".cwx-redo-0123456789ab.json" in \
        pulled.stderr
    assert value(bob, "kris.toml", "xp") == 0 and (bob / temp).exists()


def test_a_sealed_number_git_brings_neither_swaps_nor_replaces_the_gms(tmp_path: Path) -> None:
    table = Table(tmp_path)
    gm, player = table.start()
    assert cwx("clock", "pick", "--seal", "--target", 7, cwd=gm).status == 0
    assert table.git(gm, "status", "--porcelain").stdout == " M journal.jsonl\n"  # no seal
    table.commit(gm, "sealed")
    table.git(gm, "push", "--quiet", "origin", "main")
    assert table.pull(player, rebase=True).returncode == 0
    # A player seals a number they know and pushes the file where older cwx kept it.
    assert cwx("clock", "pick", "--seal", "--target", 2, cwd=player).status == 0
    shutil.copy(next((player / ".git" / "cwx").glob("sealed.json")), player / ".cwx-sealed.json")
    (player / ".cwx-sealed.json").chmod(0o600)  # as git checks out under umask 077
    table.git(player, "add", "--force", ".cwx-sealed.json", "journal.jsonl")
    table.git(player, "commit", "--quiet", "--no-verify", "-m", "the player's own number")
    table.git(player, "push", "--quiet", "origin", "main")
    assert table.pull(gm, rebase=True).returncode == 0
    ran = cwx("clock", "resolve", "--sealed", "--guess", 7, "--score", 3, "-j", cwd=gm)
    assert ran.status == 0 and ran.json["target"] == 7, ran.error


def test_a_number_an_older_cwx_sealed_in_the_folder_is_moved_never_lost(tmp_path: Path) -> None:
    table = Table(tmp_path)
    gm, _ = table.start()
    assert cwx("clock", "pick", "--seal", "--target", 5, cwd=gm).status == 0
    kept = gm / ".git" / "cwx" / "sealed.json"
    kept.rename(gm / ".cwx-sealed.json")  # where cwx 0.3 kept it
    ran = cwx("clock", "pick", "--seal", "--target", 9, cwd=gm)
    assert ran.status == 2 and f"mv .cwx-sealed.json {kept}" in ran.error
    assert not kept.exists()
    (gm / ".cwx-sealed.json").rename(kept)
    assert cwx("clock", "reveal", "-j", cwd=gm).json["target"] == 5


def test_what_git_should_never_carry_is_found_in_a_folder_of_any_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(tmp_path)
    for name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "HOME"):
        monkeypatch.setenv(name, table.env[name])  # gitsetup runs git in this process
    camp = tmp_path / "alice" / "camp[1]"
    table.clone("alice")
    assert cwx("init", camp).status == 0
    (camp / ".cwx-sealed.json").write_text("{}")
    table.git(camp.parent, "add", "--force", "camp[1]/.cwx-sealed.json")
    assert gitsetup.tracked_litter(repo.of(str(camp.parent)), "camp[1]") == ["camp[1]/.cwx-sealed.json"]
    assert gitsetup.tracked_litter(repo.of(str(camp.parent)), "camp1") == []


def all_dice(clone: Path) -> int:
    """Every white and black in the clone's character and bag files, counted by hand."""
    total = 0
    for path in clone.rglob("*.toml"):
        data = tomllib.loads(path.read_text()) if path.name != "campaign.toml" else {}
        for table in ("luck", "bag", "reserve"):
            total += sum(data.get(table, {}).get(die, 0) for die in ("white", "black"))
    return total


def test_a_character_made_anew_while_the_other_clone_drew_loses_no_die(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    before = all_dice(alice)
    table.cwx(bob, "bag", "draw", "--char", "sue.toml", *KEEP_WHITE)
    table.commit(bob, "Sue keeps a white")
    table.git(bob, "push", "--quiet", "origin", "main")
    table.cwx(alice, "char", "new", "sue.toml", "--force", "--system", "colorwheel",
              "--name", "Sue", *SUE)
    table.commit(alice, "Sue, made anew")
    pulled = table.pull(alice, rebase=False)
    assert pulled.returncode == 0, pulled.stderr
    said = " ".join(pulled.stderr.split())
    # A clash named as such: the making never saw the draw (#17).
    assert "needs a person" in said and "was made anew by char new" in said, said
    assert "while another clone played it (bag draw" in said
    assert all_dice(alice) == before  # the hook changed nothing: a person settles it


def both_move_sue_holding_a_white(table: Table, alice: Path, bob: Path) -> int:
    """Sue keeps a white on Alice's clone; then both clones move her into pcs/ (git mv,
    adopt OLD NEW) at once, and Bob merges Alice's move: the dice Bob held before."""
    table.cwx(alice, "bag", "draw", "--char", "sue.toml", *KEEP_WHITE)
    table.commit(alice, "Sue keeps a white")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    before = all_dice(bob)
    for clone in (alice, bob):
        (clone / "pcs").mkdir()
        table.git(clone, "mv", "sue.toml", "pcs/sue.toml")
        table.cwx(clone, "adopt", "sue.toml", "pcs/sue.toml")
        table.commit(clone, "Sue moves into pcs/")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    return before


def test_two_clones_moving_one_character_at_once_settle_with_one_adopt(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    before = both_move_sue_holding_a_white(table, alice, bob)
    ran = cwx("check", ".", cwd=bob)
    assert ran.status == 1 and "sue.toml: the ledger took 1 die (a white or a black) more" in \
        ran.stdout
    assert cwx("adopt", "sue.toml", cwd=bob).status == 0
    checked(bob)
    assert all_dice(bob) == before


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
@pytest.mark.parametrize("brought", ["a second bag", "the GM's refill"])
def test_dice_the_other_clone_rightly_brought_still_let_the_hook_reconcile(
        tmp_path: Path, rebase: bool, brought: str) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    table.cwx(alice, "bag", "draw", "--char", "sue.toml", *KEEP_WHITE)
    if brought == "a second bag":
        table.cwx(alice, "bag", "new", "bag2.toml")
    else:
        bag = alice / "bag.toml"
        bag.write_text(bag.read_text().replace("black = 10", "black = 12"))
        table.cwx(alice, "adopt", "bag.toml", "--supply")
    table.commit(alice, "a white kept, and dice brought")
    table.git(alice, "push", "--quiet", "origin", "main")
    table.cwx(bob, "bag", "draw", "--char", "rick.toml", *KEEP_WHITE)
    table.commit(bob, "Rick keeps a white")
    pulled = table.pull(bob, rebase=rebase)
    assert pulled.returncode == 0, pulled.stderr
    assert "needs a person" not in pulled.stderr  # the driver, or the hook, adds up
    checked(bob)
    assert value(bob, "bag.toml", "reserve", "white") == 8


def both_keep_a_white_for_rick(table: Table, alice: Path, bob: Path) -> None:
    """Identical bag files on both clones: Bob's pull needs the hook's reconcile."""
    for clone in (alice, bob):
        table.cwx(clone, "bag", "draw", "--char", "rick.toml", *KEEP_WHITE)
        table.commit(clone, "Rick keeps a white")
    table.git(alice, "push", "--quiet", "origin", "main")


@pytest.mark.parametrize("aside", ["a hidden copy", "a campaign of its own"])
def test_files_git_does_not_track_and_cwx_does_not_count_stop_no_reconcile(
        tmp_path: Path, aside: str) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    both_keep_a_white_for_rick(table, alice, bob)
    if aside == "a hidden copy":
        (bob / ".bak").mkdir()
        for name in ("sue.toml", "bag.toml"):
            (bob / ".bak" / name).write_text((bob / name).read_text())
    else:
        assert cwx("init", bob / "side").status == 0
    pulled = table.pull(bob, rebase=False)
    assert pulled.returncode == 0 and "reconciled" in pulled.stderr, pulled.stderr
    checked(bob)


def test_a_pull_with_autostash_leaves_the_edits_it_set_aside(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    both_keep_a_white_for_rick(table, alice, bob)
    table.cwx(bob, "bag", "draw", "--char", "sue.toml", *KEEP_WHITE)  # not committed
    pulled = table.git(bob, "pull", "--quiet", "--rebase", "--autostash", "origin", "main")
    assert "set aside (--autostash)" in pulled.stderr and "reconciled" not in pulled.stderr


def test_a_repair_of_a_file_moved_twice_lets_the_other_clone_reconcile(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    both_move_sue_holding_a_white(table, alice, bob)
    table.cwx(bob, "adopt", "sue.toml")  # the white was taken out twice: put it right
    table.commit(bob, "repair")
    both_keep_a_white_for_rick(table, bob, alice)  # identical bags: the hook reconciles
    pulled = table.pull(alice, rebase=False)
    assert pulled.returncode == 0 and "needs a person" not in pulled.stderr, pulled.stderr
    checked(alice)


def test_a_campaign_the_config_names_that_is_gone_is_passed_by(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, _ = table.start()
    assert cwx("init", alice / "side").status == 0  # inside the work tree: the hooks know it
    shutil.rmtree(alice / "side")
    table.git(alice, "add", "-A")
    done = table.git(alice, "commit", "--quiet", "--allow-empty", "-m", "side is gone",
                     check=False)
    assert done.returncode == 0 and "side is no campaign now" in done.stderr


@pytest.mark.parametrize("found", [True, False], ids=["on PATH", "nowhere"])
def test_the_merge_driver_outlives_the_environment_it_was_set_up_from(
        tmp_path: Path, found: bool) -> None:
    import sys

    table = Table(tmp_path)
    alice, bob = table.start()
    copy = tmp_path / "old-venv"
    shutil.copytree(Path(sys.prefix), copy, symlinks=True)
    setup = subprocess.run([str(copy / "bin" / "python"), "-m", "cwx", "git", "setup"],
                           cwd=bob, env=table.env, capture_output=True, text=True)
    assert setup.returncode == 0, setup.stderr
    assert str(copy) in table.git(bob, "config", "merge.cwx.driver").stdout
    shutil.rmtree(copy)  # the environment is re-made elsewhere, or cwx uninstalled
    bin_folder = str(Path(sys.executable).parent) if found else str(tmp_path / "empty")
    env = {**table.env, "PATH": f"{bin_folder}{os.pathsep}/usr/bin{os.pathsep}/bin"}
    for clone in (alice, bob):  # one keeps a white, the other two: the same lines differ
        twice = ["--drawn", "white"] if clone == bob else []
        table.cwx(clone, "bag", "draw", "-c", "sue", *twice, *KEEP_WHITE)
        committed = subprocess.run(["git", "commit", "--quiet", "-am", "a draw"], cwd=clone,
                                   env=env, capture_output=True, text=True)
        if clone == bob and not found:  # its pre-commit hook cannot run cwx: stopped
            assert committed.returncode == 1 and "install it" in committed.stderr
            table.git(bob, "commit", "--quiet", "--no-verify", "-am", "a draw")
        else:
            assert committed.returncode == 0, committed.stderr
    table.git(alice, "push", "--quiet", "origin", "main")
    pulled = subprocess.run(["git", "pull", "--no-rebase", "origin", "main"], cwd=bob, env=env,
                            capture_output=True, text=True)
    if found:
        assert pulled.returncode == 0, pulled.stderr
        assert value(bob, "sue.toml", "luck", "white") == 3
    else:
        assert pulled.returncode != 0
        assert "cwx git setup" in pulled.stderr and "no cwx" in pulled.stderr
        assert "<<<<<<<" in (bob / "sue.toml").read_text()


@pytest.mark.parametrize("name", ["-zed.toml", "-h"])
def test_a_file_named_like_an_option_merges_as_a_file(tmp_path: Path, name: str) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    old = gitsetup.driver_command().replace("git merge -- ", "git merge ")
    table.git(bob, "config", "merge.cwx.driver", old)  # as an older cwx git setup wrote it
    assert table.cwx(bob, "git", "setup").status == 0
    assert "git merge -- %O %A %B %P" in table.git(bob, "config", "merge.cwx.driver").stdout
    with open(alice / ".gitattributes", "a") as attributes:
        attributes.write(f"{name} merge=cwx\n")  # a clone's own: the driver merges any name
    (alice / name).write_text('name = "Zed"\nsystem = "clockworx"\nxp = 0\n\n'
                              "[traits]\nA = 4\nB = 4\nC = 4\n")
    commit(table, alice)
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    for clone, xp in ((alice, 10), (bob, 2)):
        (clone / name).write_text((clone / name).read_text().replace("xp = 0", f"xp = {xp}"))
        commit(table, clone)
    table.git(alice, "push", "--quiet", "origin", "main")
    pulled = table.pull(bob, rebase=False)
    assert "No such option" not in pulled.stderr and "Usage" not in pulled.stdout, pulled
    assert pulled.returncode == 0, pulled.stderr
    assert value(bob, name, "xp") == 12  # merged as a sheet: both sides' experience


def commit(table: Table, clone: Path) -> None:
    """A hand edit committed past the hook (the test is of the merge driver alone)."""
    table.git(clone, "add", "-A")
    table.git(clone, "commit", "--quiet", "--no-verify", "-m", "an edit")
