"""Players (cwx/campaign/players.py): every change records who made it, and `cwx undo` takes back
one's own moves, another's only when named, and undoes an undo (a redo) on request."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from tests.helpers import cwx, saga
from tests.test_git import Table, value


def resolve(where: Path, player: str, guess: int = 3) -> None:
    ran = cwx("clock", "resolve", "--target", 4, "--guess", guess, "--trait", "Repair",
              "--char", "kris.toml", cwd=where, env={"CWX_PLAYER": player})
    assert ran.status == 0, ran.stderr


def draw(where: Path, player: str) -> None:
    ran = cwx("bag", "draw", "-c", "rick.toml", "-C", "red", "--drawn", "white", "--drawn",
              "red", "--keep-white", cwd=where, env={"CWX_PLAYER": player})
    assert ran.status == 0, ran.stderr


def test_after_a_pull_undo_takes_back_ones_own_move_never_anothers(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    draw(bob, "Bob")
    table.commit(bob, "Rick keeps a white")
    resolve(alice, "Alice")
    table.commit(alice, "Kris repairs")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    assert value(bob, "kris.toml", "xp") == 2
    ran = cwx("undo", cwd=bob, env={"CWX_PLAYER": "Bob"})
    assert ran.status == 0 and "Undid `bag draw` by Rick, played by Bob" in ran.stdout
    assert value(bob, "kris.toml", "xp") == 2 and value(bob, "rick.toml", "luck", "white") == 0
    refused = cwx("undo", cwd=bob, env={"CWX_PLAYER": "Bob"})
    assert refused.status == 2 and "by Bob; --player NAME names another player" in refused.error
    by_name = cwx("undo", "--player", "Alice", "--json", cwd=bob, env={"CWX_PLAYER": "Bob"})
    assert by_name.json["undid"]["player"] == "Alice"
    assert value(bob, "kris.toml", "xp") == 0


def test_the_player_is_the_clones_git_author_unless_cwx_player_says(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, _ = table.start()
    table.git(alice, "config", "user.name", "Alice Liddell")
    resolve(alice, "Queen")
    ran = cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Repair",
              "--char", "kris.toml", cwd=alice)
    assert ran.status == 0
    players = [json.loads(line).get("player")
               for line in (alice / "journal.jsonl").read_text().splitlines()]
    assert players[-2:] == ["Queen", "Alice Liddell"]


def test_an_undo_is_redone_and_the_ledger_follows(tmp_path: Path) -> None:
    camp = saga(tmp_path / "saga", kris="kris.toml")
    resolve(camp, "Ann")
    resolve(camp, "Ann", guess=4)
    assert value(camp, "kris.toml", "xp") == 8
    assert cwx("undo", cwd=camp, env={"CWX_PLAYER": "Ann"}).status == 0
    assert cwx("undo", cwd=camp, env={"CWX_PLAYER": "Ann"}).status == 0
    assert value(camp, "kris.toml", "xp") == 0
    redone = cwx("undo", "--redo", cwd=camp, env={"CWX_PLAYER": "Ann"})
    assert redone.status == 0 and "Redid `clock resolve`" in redone.stdout
    assert value(camp, "kris.toml", "xp") == 2  # the latest undo first: the first resolve
    assert cwx("undo", "--redo", cwd=camp, env={"CWX_PLAYER": "Ann"}).status == 0
    assert value(camp, "kris.toml", "xp") == 8
    none_left = cwx("undo", "--redo", cwd=camp, env={"CWX_PLAYER": "Ann"})
    assert none_left.status == 2 and "no undo left to redo" in none_left.error
    # Undo walks back again over what was redone; the ledger agrees at every step.
    assert cwx("undo", cwd=camp, env={"CWX_PLAYER": "Ann"}).status == 0
    assert value(camp, "kris.toml", "xp") == 2
    assert cwx("check", camp).status == 0


def test_a_line_from_before_players_is_anyones_to_undo(tmp_path: Path) -> None:
    camp = saga(tmp_path / "saga", kris="kris.toml")
    resolve(camp, "Ann")
    journal = camp / "journal.jsonl"
    lines = journal.read_text().splitlines()
    old = json.loads(lines[-1])
    del old["player"]
    journal.write_text("\n".join([*lines[:-1], json.dumps(old)]) + "\n")
    assert cwx("undo", cwd=camp, env={"CWX_PLAYER": "Zed"}).status == 0
    assert tomllib.loads((camp / "kris.toml").read_text())["xp"] == 0


def test_a_redone_luck_spend_is_refused_once_its_draw_is_turned_again(tmp_path: Path) -> None:
    camp = saga(tmp_path / "saga")
    me = {"CWX_PLAYER": "Ann"}
    assert cwx("bag", "draw", "-c", "sue.toml", "-C", "red", "--drawn", "white", "--drawn",
               "blue", "--keep-white", cwd=camp, env=me).status == 0
    assert cwx("bag", "draw", "-c", "sue.toml", "-C", "red", "--drawn", "blue",
               cwd=camp, env=me).status == 0
    assert cwx("luck", "spend", "-c", "sue.toml", cwd=camp, env=me).status == 0
    assert cwx("undo", cwd=camp, env=me).status == 0
    assert cwx("luck", "curse", "-c", "sue.toml", cwd=camp, env={"CWX_PLAYER": "GM"}).status \
        in (0, 2)
    turned = cwx("luck", "spend", "-c", "sue.toml", cwd=camp, env=me)
    assert turned.status == 0, turned.stderr
    redo = cwx("undo", "--redo", cwd=camp, env=me)
    assert redo.status == 2 and "its draw was turned again since" in redo.error
