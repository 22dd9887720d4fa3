"""A turn is one command (#28): where campaign.toml says `sync = true`, a command that
changes the campaign pulls before it acts and pushes after. Real git: a bare origin and
two clones, as tests/test_post.py plays them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cwx.cli.common import SHARED
from tests.helpers import cwx, once
from tests.test_git import Table, value
from tests.test_post import _identity

__all__ = ["_identity"]  # the fixture: git's author from no config, HOME in tmp_path


@pytest.fixture(autouse=True)
def _syncing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CWX_NO_SYNC", raising=False)  # a test that skips a sync says so


def by_post(tmp_path: Path) -> tuple[Table, Path, Path]:
    """Alice starts the campaign by post (sync = true) and pushes; Bob clones it (built
    once, then copied)."""
    table = Table(tmp_path)
    once("by_post", tmp_path, ["origin.git", "alice", "bob"], lambda: _by_post(table))
    return table, tmp_path / "alice", tmp_path / "bob"


def _by_post(table: Table) -> None:
    alice, bob = table.start()
    settings = alice / "campaign.toml"
    settings.write_text(settings.read_text().replace("sync = false", "sync = true"))
    assert "sync = true" in settings.read_text()
    assert cwx("sync", cwd=alice).status == 0
    assert cwx("sync", cwd=bob).status == 0


def turn(where: Path, *args: object, status: int = 0) -> tuple[str, str]:
    ran = cwx(*args, cwd=where, env={"CWX_PLAYER": where.name})
    assert ran.status == status, (args, ran.stdout, ran.stderr)
    assert "Traceback" not in ran.stderr
    return ran.stdout, ran.stderr


def origin(table: Table) -> str:
    return table.git(table.folder / "origin.git", "rev-parse", "main").stdout.strip()


def head(table: Table, clone: Path) -> str:
    return table.git(clone, "rev-parse", "HEAD").stdout.strip()


def test_a_draw_is_the_draw_alone_pulled_before_and_pushed_after(tmp_path: Path) -> None:
    table, alice, bob = by_post(tmp_path)
    out, err = turn(alice, "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "blue",
                    "--json")
    json.loads(out)  # stdout is the draw's one JSON object; the push is said on stderr
    assert re.search(r"^cwx: note: pushed \w{12} to origin/main$", err, re.M)
    assert origin(table) == head(table, alice)
    # Bob, one commit behind, draws without a sync: Alice's draw comes in first.
    out, err = turn(bob, "bag", "draw", "-c", "rick", "-C", "red", "--drawn", "red")
    assert "pulled 1 commit from origin/main" in err and "pushed" in err
    assert "pushed" not in out and "commit" not in out  # git's chatter never on stdout
    assert origin(table) == head(table, bob)
    assert value(bob, "sue.toml", "luck") == value(alice, "sue.toml", "luck")
    assert cwx("check", cwd=bob).status == 0
    # A command that changes nothing pushes nothing; one that only reads never syncs.
    table.git(alice, "remote", "set-url", "origin", str(tmp_path / "gone.git"))
    turn(alice, "clock", "resolve", "-T", 4, "-g", 4, "--score", 3)  # offline too
    turn(alice, "clock", "pick")
    assert "--no-sync" not in cwx("log", "--help").stdout


def test_the_gm_reveals_the_guesses_sent_without_a_sync(tmp_path: Path) -> None:
    table, gm, player = by_post(tmp_path)
    turn(gm, "clock", "pick", "--seal", "--target", "9")
    out, _ = turn(player, "clock", "resolve", "--sealed", "-g", 8, "-t", "Repair", "-c", "kris")
    assert "push" not in out.lower() and "The GM pulls" in out  # pushed already
    assert origin(table) == head(table, player)
    out, _ = turn(gm, "clock", "reveal", "--json")
    assert len(json.loads(out)["guesses"]) == 1  # the guess came in before the reveal
    out, _ = turn(player, "undo", "--dry-run")  # a dry run never syncs, and says so
    assert out.rstrip().endswith("(as this clone stands: the real run pulls first)")
    assert value(player, "kris.toml", "xp") == 0
    turn(player, "xp", "spend", "-c", "kris", "-r", "Tough", status=2)  # refused: not synced
    assert value(player, "kris.toml", "xp") == 2  # the refusal still pulled the reveal first
    assert origin(table) == head(table, gm) == head(table, player)
    turn(gm, "clock", "pick", "--seal", "--target", "5")
    assert cwx("sync", cwd=player).status == 0
    out, _ = turn(player, "clock", "resolve", "--sealed", "-g", 4, "-c", "kris", "--no-sync")
    assert "Push it (cwx sync)" in out  # acting alone: the player shares it later


def test_no_sync_acts_alone_and_the_next_turn_shares_it(tmp_path: Path) -> None:
    table, alice, _ = by_post(tmp_path)
    before = origin(table)
    _, err = turn(alice, "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "blue",
                  "--no-sync")
    assert origin(table) == before and err == ""
    hook = alice / ".git" / "hooks" / "pre-push"  # what git runs inside a sync
    hook.write_text(f"#!/bin/sh\necho \"$CWX_NO_SYNC\" > {tmp_path / 'seen'}\n")
    hook.chmod(0o755)
    turn(alice, "bag", "draw", "-c", "rick", "-C", "red", "--drawn", "red")
    assert origin(table) == head(table, alice)
    told = table.git(alice, "log", "-2", "--format=%s").stdout.splitlines()
    assert told == ["cwx: Rick draws red; drew red: success",
                    "cwx: Sue draws blue; drew blue: success"]  # the one left is shared first
    # A cwx command a hook runs acts alone: git's hooks inherit CWX_NO_SYNC.
    assert (tmp_path / "seen").read_text().strip() == "1"


def test_a_pull_that_stops_leaves_the_action_undone(tmp_path: Path) -> None:
    table, alice, bob = by_post(tmp_path)
    for clone, name in ((alice, "Kris A"), (bob, "Kris B")):  # a clash on one key
        text = (clone / "kris.toml").read_text().replace('name = "Kris"', f'name = "{name}"')
        (clone / "kris.toml").write_text(text)
        turn(clone, "adopt", "kris.toml", "--no-sync")
    turn(alice, "clock", "resolve", "-T", 4, "-g", 4, "-t", "Repair", "-c", "kris")
    luck = value(bob, "sue.toml", "luck")
    _, err = turn(bob, "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white",
                  "--drawn", "blue", "--keep-white", status=2)
    # The merge driver's own lines (each side's value), then the one error.
    *driver, error = err.strip().splitlines()
    assert driver[0].startswith("cwx: kris.toml: name was 'Kris'; one side changed it")
    assert "cwx: note: cwx:" not in err  # the driver's lines keep their own one prefix
    assert error.startswith("cwx: error: ") and "cwx bag draw was not done" in error
    assert "git rebase --continue" in err and "then run it again" in err
    assert "--no-sync" not in err  # a rebase to settle first, not a way around it
    assert (bob / ".git" / "rebase-merge").exists()
    assert value(bob, "sue.toml", "luck") == luck
    # While git is in the middle of it, settling (cwx adopt) acts without a sync.
    table.git(bob, "checkout", "--theirs", "kris.toml")
    _, err = turn(bob, "adopt", "kris.toml")
    assert "not synced: git is in the middle of a rebase" in err


def test_an_unreachable_remote_leaves_the_action_undone(tmp_path: Path) -> None:
    table, alice, _ = by_post(tmp_path)
    table.git(alice, "remote", "set-url", "origin", str(tmp_path / "gone.git"))
    luck = value(alice, "sue.toml", "luck")
    _, err = turn(alice, "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white",
                  "--drawn", "blue", "--keep-white", status=2)
    assert len(err.strip().splitlines()) == 1 and "was not done" in err
    assert "--no-sync" in err and value(alice, "sue.toml", "luck") == luck
    turn(alice, "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white",
         "--drawn", "blue", "--keep-white", "--no-sync")
    assert value(alice, "sue.toml", "luck") != luck


def test_a_clone_with_no_remote_acts_and_says_nothing(tmp_path: Path) -> None:
    table, alice, _ = by_post(tmp_path)
    table.git(alice, "remote", "remove", "origin")
    table.git(alice, "config", "--unset", "branch.main.remote", check=False)
    _, err = turn(alice, "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "blue")
    assert err == ""


def test_a_scene_pulls_once_and_pushes_once(tmp_path: Path) -> None:
    table, alice, bob = by_post(tmp_path)
    turn(bob, "clock", "resolve", "-T", 4, "-g", 4, "-t", "Repair", "-c", "kris")
    pushes = table.git(tmp_path / "origin.git", "rev-list", "--count", "main").stdout
    ran = cwx("play", "-", cwd=alice, input="draw -c sue -C blue --drawn blue\n"
              "draw -c rick -C red --drawn red\n")
    assert ran.status == 0, ran.stderr
    assert ran.stderr.count("pulled") == 1 and ran.stderr.count("pushed") == 1
    assert int(table.git(tmp_path / "origin.git", "rev-list", "--count", "main").stdout) == \
        int(pushes) + 1
    assert origin(table) == head(table, alice)


def test_every_changing_command_takes_no_sync() -> None:
    for path in SHARED:
        assert "--no-sync" in cwx(*path.split(), "--help").stdout, path
    for path in ("adopt", "char new", "reconcile", "retire", "undo"):  # those with a dry run
        assert path in SHARED


def test_sync_must_be_true_or_false(tmp_path: Path) -> None:
    assert cwx("init", str(tmp_path / "c")).status == 0
    settings = tmp_path / "c" / "campaign.toml"
    settings.write_text(settings.read_text().replace("sync = false", 'sync = "yes"'))
    ran = cwx("char", "new", "kris.toml", "--system", "clockworx", "-t", "Run=4",
              cwd=tmp_path / "c")
    assert ran.status == 2 and "campaign.toml:" in ran.error and "[campaign.sync]" in ran.error
    assert "sync must be true" in cwx("check", cwd=tmp_path / "c").stdout


def test_sync_names_the_commit_as_it_is_pushed_and_never_pushes_nothing(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    table.git(alice, "push", "--quiet", "--set-upstream", "origin", "main")
    turn(alice, "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "blue")
    assert cwx("sync", cwd=alice).status == 0
    turn(bob, "bag", "draw", "-c", "rick", "-C", "red", "--drawn", "red")
    ran = cwx("sync", "--json", cwd=bob)  # Bob's commit is made anew on top of Alice's
    assert ran.status == 0
    now = table.git(bob, "log", "--format=%h", "--abbrev=12", "-1", "--grep",
                    "Rick draws").stdout.strip()
    assert ran.json["committed"] == now
    said = re.findall(r"\b[0-9a-f]{12}\b", " ".join(ran.json["steps"]))
    assert said
    for id in said:  # every id said is one the clone has, never one its rebase left
        table.git(bob, "merge-base", "--is-ancestor", id, "HEAD")
    ran = cwx("sync", cwd=bob)
    assert "nothing to push: origin/main has every commit" in ran.stdout
    assert "pushed" not in ran.stdout


def test_log_shows_what_each_clone_added_not_its_own_from_and_to(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    table.git(alice, "push", "--quiet", "--set-upstream", "origin", "main")
    for clone in (alice, bob):  # both earn experience for Kris before either syncs
        turn(clone, "clock", "resolve", "-T", 4, "-g", 4, "-t", "Repair", "-c", "kris")
    for clone in (alice, bob, alice):
        assert cwx("sync", cwd=clone).status == 0
    gained = value(alice, "kris.toml", "xp")
    text = cwx("log", "--char", "kris", cwd=alice).stdout
    rows = [row for row in text.splitlines() if "clock resolve" in row]
    assert len(rows) == 2 and all(f"xp +{gained // 2}" in row for row in rows), text
    assert "→" not in "".join(rows)  # each clone's own "0 → 2", untrue of the merged file


def test_a_campaign_is_named_for_the_table_not_for_a_clone(tmp_path: Path) -> None:
    table = Table(tmp_path)
    gm = table.clone("gm")
    turn(gm, "init", ".")
    assert value(gm, "campaign.toml", "campaign", "name") == "origin"  # origin.git's
    turn(gm, "init", "game")  # a folder of the clone is a campaign of its own name
    assert value(gm / "game", "campaign.toml", "campaign", "name") == "game"
    turn(tmp_path, "init", "solo")  # outside git, the folder's
    assert value(tmp_path / "solo", "campaign.toml", "campaign", "name") == "solo"


def test_bag_show_draws_many_whites_as_open_pips(tmp_path: Path) -> None:
    turn(tmp_path, "bag", "new", "bag.toml", "--white-reserve", 20, "--black-reserve", 20)
    out, _ = turn(tmp_path, "--paint", "never", "bag", "show", "bag.toml")
    assert "  white   ○×20 20" in out and "  black   ●×20 20" in out


def test_a_line_another_cwx_said_is_relayed_with_one_prefix(
        capsys: pytest.CaptureFixture[str]) -> None:
    from cwx.cli.common import note

    note("cwx: note: reconciled bag.toml")  # a hook's line, as git relays it to sync
    note("pulled 1 commit")
    assert capsys.readouterr().err.splitlines() == ["cwx: note: reconciled bag.toml",
                                                    "cwx: note: pulled 1 commit"]


def test_a_file_a_turn_makes_is_in_what_it_pushes(tmp_path: Path) -> None:
    table, gm, player = by_post(tmp_path)
    turn(gm, "bag", "new", "spare.toml", "--white-reserve", 1, "--black-reserve", 1)
    turn(gm, "char", "new", "mara.toml", "--system", "clockworx", "--name", "Mara",
         "--trait", "Run=4", "--trait", "Hide=3", "--trait", "Talk=3")
    assert table.git(gm, "status", "--porcelain").stdout == ""
    assert origin(table) == head(table, gm)
    pushed = table.git(tmp_path / "origin.git", "ls-tree", "--name-only", "main").stdout
    assert {"spare.toml", "mara.toml"} <= set(pushed.split())
    turn(player, "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "blue")
    assert (player / "spare.toml").exists() and cwx("check", cwd=player).status == 0


def test_adopt_settles_a_hand_edit_before_it_pulls_then_pushes(tmp_path: Path) -> None:
    table, gm, player = by_post(tmp_path)
    turn(player, "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "blue")  # the GM is behind
    sheet = gm / "kris.toml"
    sheet.write_text(re.sub(r"(?m)^xp = .*$", "xp = 40   # GM: reward", sheet.read_text()))
    _, err = turn(gm, "bag", "draw", "-c", "rick", "-C", "red", "--drawn", "red", status=2)
    assert "was not done" in err  # any other command: settle the edit first
    _, err = turn(gm, "adopt", "kris.toml")
    assert "not pulled first" in err and "pushed" in err
    assert origin(table) == head(table, gm) and table.git(gm, "status", "--porcelain").stdout == ""
    assert value(gm, "sue.toml", "luck") == value(player, "sue.toml", "luck")  # pulled after
    turn(player, "bag", "draw", "-c", "rick", "-C", "red", "--drawn", "red")
    assert value(player, "kris.toml", "xp") == 40 and cwx("check", cwd=player).status == 0


def test_luck_turns_the_draw_this_clone_saw_not_one_its_pull_brought(tmp_path: Path) -> None:
    _, alice, bob = by_post(tmp_path)
    # Bob's clock runs a year fast: his draw for Sue fails, stamped far ahead.
    turn(bob, "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "red", "--no-sync")
    lines = (bob / "journal.jsonl").read_text().splitlines()
    ahead = json.loads(lines[-1])
    ahead["at"] = ahead["at"].replace(ahead["at"][:4], str(int(ahead["at"][:4]) + 1), 1)
    (bob / "journal.jsonl").write_text("\n".join([*lines[:-1], json.dumps(ahead)]) + "\n")
    cwx("sync", cwd=bob, env={"CWX_PLAYER": "bob"})
    # Alice, offline, draws for Sue (fails, keeps a white), then spends it: the pull
    # before the spend brings Bob's draw, which is not the one she meant.
    turn(alice, "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white", "--drawn",
         "yellow", "--keep-white", "--no-sync")
    mine = json.loads((alice / "journal.jsonl").read_text().splitlines()[-1])["id"]
    _, err = turn(alice, "luck", "spend", "-c", "sue", status=2)
    assert f"the pull brought a later action by bob: the character's last action is now " \
           f"`bag draw` {ahead['id'][:8]}" in err and f"not the draw {mine[:8]}" in err
    assert "luck spend" not in (alice / "journal.jsonl").read_text()
    # Unnamed, a draw stamped a day ahead of every clock is not guessed at either.
    _, err = turn(alice, "luck", "spend", "-c", "sue", status=2)
    assert "is stamped more than a day ahead of this machine's clock" in err
    assert f"--draw {ahead['id'][:8]}` turns it" in err
    turn(alice, "luck", "spend", "-c", "sue", "--draw", mine[:8], status=2)
    out, _ = turn(alice, "luck", "spend", "-c", "sue", "--draw", ahead["id"][:8])
    assert f"the failure becomes a success (turns the draw {ahead['id'][:8]} of " in out
