"""A game's end names the draws it settles, by id (#30, item 3: "an event that acts on
another names it by id"): the game it ends is the one its clone saw, whatever order git
merges the lines in. Of two ends of one draw the first counts (two clones ended the game
at once); check names an end that settles a draw it cannot."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from tests.helpers import cwx, journal, saga
from tests.test_git import Table, value
from tests.test_post import _identity, play, sync

__all__ = ["_identity"]  # the fixture: git's author from no config, HOME in tmp_path

BLACK = ["bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "black", "--drawn", "red",
         "--keep-black"]  # Sue keeps a black, then fails on the red


def _ids(events: list[dict[str, object]], command: str) -> list[object]:
    return [event["id"] for event in events if event["command"] == command]


def test_an_end_names_the_draws_of_its_game_and_an_older_end_reads_as_it_did(
        tmp_path: Path) -> None:
    folder = saga(tmp_path / "saga")
    for _ in range(2):
        assert cwx(*BLACK, cwd=folder).status == 0
    ended = cwx("game", "end", "-c", "sue", "--json", cwd=folder)
    assert ended.status == 0 and ended.json["settled"] is True
    drawn = _ids(journal(folder), "bag draw")
    assert ended.json["game"] == drawn == journal(folder)[-1]["result"]["game"]
    assert "game end (after 2 draws)" in cwx("log", cwd=folder).stdout
    assert "ends the game after 2 draws" in cwx("recap", cwd=folder).stdout
    # An end written before ends named their draws settles every draw before it.
    path = folder / "journal.jsonl"
    lines = path.read_text().splitlines()
    older = json.loads(lines[-1])
    del older["result"]["game"]
    path.write_text("\n".join([*lines[:-1], json.dumps(older)]) + "\n")
    assert cwx("check", cwd=folder).status == 0
    assert cwx(*BLACK, cwd=folder).status == 0
    again = cwx("game", "end", "-c", "sue", "--json", cwd=folder)
    assert again.json["game"] == [journal(folder)[-2]["id"]]  # this game's draw alone
    assert cwx("check", cwd=folder).status == 0
    nothing = cwx("game", "end", "-c", "sue", "--json", cwd=folder)
    assert nothing.json["settled"] is False and nothing.json["game"] == []


def test_the_game_an_end_settles_is_the_one_its_clone_saw_however_git_merges(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    # Both clones end the same game at once: the blacks are settled twice.
    assert table.cwx(alice, *BLACK).status == 0
    table.commit(alice, "Sue draws")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    assert table.cwx(alice, "game", "end", "-c", "sue").status == 0
    table.commit(alice, "Alice ends the game")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.cwx(bob, "game", "end", "-c", "sue").status == 0
    table.commit(bob, "Bob ends the game")
    assert table.pull(bob, rebase=False).returncode == 0
    ends = [event for event in journal(bob) if event["command"] == "game end"]
    assert ends[0]["result"]["game"] == ends[1]["result"]["game"]
    later = max(ends, key=lambda event: (event["at"], event["id"]))
    assert cwx("check", cwd=bob).status == 0  # the files hold one settlement, as the ledger
    told = [row for row in cwx("log", cwd=bob).stdout.splitlines() if later["id"][:8] in row]
    assert "counts for nothing" in told[0]
    table.git(bob, "push", "--quiet", "origin", "main")
    assert table.pull(alice, rebase=False).returncode == 0
    # Bob draws before he sees Alice's next game end; her end never settles his draw,
    # though his line is stamped before hers: his own end does.
    assert table.cwx(bob, *BLACK).status == 0
    table.commit(bob, "Sue draws, at Bob's")
    assert table.cwx(alice, *BLACK).status == 0
    assert table.cwx(alice, "game", "end", "-c", "sue").status == 0
    table.commit(alice, "Sue draws and ends, at Alice's")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    hers = journal(alice)[-1]
    own = next(e for e in reversed(journal(bob)) if e["command"] == "bag draw" and
               e["id"] not in hers["result"]["game"])
    assert own["at"] < hers["at"]  # played before her end, in another game
    ended = table.cwx(bob, "game", "end", "-c", "sue", "--json")
    assert ended.json["game"] == [own["id"]]
    assert cwx("check", cwd=bob).status == 0
    assert value(bob, "sue.toml", "luck", "black") == 0


def test_an_end_that_settles_a_draw_it_cannot_is_named_and_undone(tmp_path: Path) -> None:
    folder = saga(tmp_path / "saga")
    assert cwx(*BLACK, cwd=folder).status == 0
    assert cwx("game", "end", "-c", "sue", cwd=folder).status == 0
    path = folder / "journal.jsonl"
    lines = path.read_text().splitlines()
    forged = json.loads(lines[-1])
    forged["result"]["game"] = ["00000000deadbeef"]  # a draw no line made
    path.write_text("\n".join([*lines[:-1], json.dumps(forged)]) + "\n")
    checked = cwx("check", cwd=folder)
    assert checked.status == 1
    assert f"game end {forged['id'][:8]} settles draw 00000000, but no draw of its " \
        "character in the journal made it" in checked.stdout
    assert cwx("undo", forged["id"], cwd=folder).status == 0  # the advice, followed
    assert cwx("check", cwd=folder).status == 0


def test_sync_stopped_by_two_ends_of_one_game_says_the_ledger_counts_one(
        tmp_path: Path) -> None:
    # Alice ends the game and draws on; Bob ends it too. Their sheets clash on the black
    # both settled, and the reserve holds it twice: his end counts for nothing, so the
    # ledger is right, and no adopt of both files is the way (it would count it twice).
    table = Table(tmp_path)
    alice, bob = table.start()
    play(alice, "Alice", *BLACK)
    sync(alice, "Alice")
    sync(bob, "Bob")
    play(alice, "Alice", "game", "end", "-c", "sue")
    play(alice, "Alice", "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white",
         "--drawn", "red", "--keep-white")
    sync(alice, "Alice")
    play(bob, "Bob", "game", "end", "-c", "sue")
    stopped = cwx("sync", cwd=bob, env={"CWX_PLAYER": "Bob"})
    assert stopped.status == 2 and "both sides spent it" in stopped.stderr
    assert "the file it went to" not in stopped.stderr and "adopt" not in stopped.stderr
    bobs = journal(bob)[-1]["id"][:8]
    assert f"and {bobs} counts for nothing (another came first)" in stopped.stderr
    # The advice, followed: either side's value, the rebase continued, a reconcile.
    text = (bob / "sue.toml").read_text()
    ours, _, rest = text.partition("<<<<<<< ours\n")[2].partition("|||||||")
    (bob / "sue.toml").write_text(text.partition("<<<<<<< ours\n")[0] + ours +
                                  rest.partition(">>>>>>> theirs\n")[2])
    table.git(bob, "add", "sue.toml")
    table.git(bob, "-c", "core.editor=true", "rebase", "--continue")
    play(bob, "Bob", "reconcile")
    sync(bob, "Bob")
    assert cwx("check", cwd=bob).status == 0
    assert value(bob, "bag.toml", "reserve", "black") == 10  # the black went there once
    assert value(bob, "sue.toml", "luck", "white") == 1  # Alice's draw after her end


def _advice(checked: str, id_: str) -> list[str]:
    """The `cwx undo ID` a finding of check's gives for `id_`, as words to run."""
    found = re.search(rf"`cwx (undo [^`]*{id_[:8]}[^`]*)`", checked)
    assert found is not None, checked
    return found.group(1).split()


def test_a_forged_end_taken_back_gives_the_end_it_pre_empted_back(tmp_path: Path) -> None:
    # A forged end (by Mallory, only the black) stamped just before Sue's honest end makes
    # hers count for nothing; check's advice, followed, gives hers back: no die is lost.
    folder = saga(tmp_path / "saga")
    reserve = (folder / "bag.toml").read_text()
    assert cwx("bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white", "--drawn",
               "black", "--drawn", "red", "--keep-white", "--keep-black",
               cwd=folder).status == 0
    assert cwx("game", "end", "-c", "sue", cwd=folder).status == 0
    path = folder / "journal.jsonl"
    lines = path.read_text().splitlines()
    honest = json.loads(lines[-1])
    forged = {**honest, "id": "f00d0000000000e0", "player": "Mallory",
              "at": honest["at"][:-4] + "000Z",
              "changes": [{"file": "sue.toml", "key": "luck.black", "from": 1, "to": 0},
                          {"file": "bag.toml", "key": "reserve.black", "from": 10, "to": 11}],
              "result": {**honest["result"], "removed": {"white": 0, "black": 1},
                         "luck": {"white": 1, "black": 0}}}
    path.write_text("\n".join([*lines[:-1], json.dumps(forged), lines[-1]]) + "\n")
    told = [row for row in cwx("log", cwd=folder).stdout.splitlines()
            if honest["id"][:8] in row]
    assert "counts for nothing: another end of that game came first" in told[0]
    recap = cwx("recap", "--json", cwd=folder).json["events"]
    assert [event["counts_for_nothing"] for event in recap if event["id"] == honest["id"]] \
        == ["another end of that game came first"]
    assert "-1 white, -1 black~~ (counts for nothing: another end of that game came first)" \
        in cwx("recap", cwd=folder).stdout
    checked = cwx("check", cwd=folder)
    assert checked.status == 1
    undone = cwx(*_advice(checked.stdout, forged["id"]), cwd=folder)
    assert undone.status == 0
    assert f"`game end` {honest['id'][:8]} by Sue, which it had pre-empted, counts again" \
        in undone.stdout
    assert cwx("check", cwd=folder).status == 0
    assert _luck(folder) == (0, 0) and (folder / "bag.toml").read_text() == reserve
    told = [row for row in cwx("log", cwd=folder).stdout.splitlines()
            if honest["id"][:8] in row]
    assert "counts for nothing" not in told[0]
    assert cwx("reconcile", cwd=folder).stdout.startswith("Nothing to reconcile")


def test_a_turn_pre_empted_counts_again_once_the_first_is_undone(tmp_path: Path) -> None:
    # Two clones spent a white on one failure (git merged the sheets' one change): the
    # second counts for nothing until the first is undone, and then the white stays spent.
    folder = saga(tmp_path / "saga")
    assert cwx("bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white", "--drawn",
               "red", "--keep-white", cwd=folder).status == 0
    assert cwx("bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "red",
               cwd=folder).status == 0
    assert cwx("luck", "spend", "-c", "sue", cwd=folder).status == 0
    path = folder / "journal.jsonl"
    lines = path.read_text().splitlines()
    first = json.loads(lines[-1])
    second = {**first, "id": "5ec0d000000000e1", "at": first["at"][:-4] + "999Z",
              "player": "Bob"}
    path.write_text("\n".join([*lines, json.dumps(second)]) + "\n")
    assert cwx("check", cwd=folder).status == 0
    assert "(counts for nothing: another turn of that draw came first)" in \
        cwx("recap", cwd=folder).stdout
    undone = cwx("undo", first["id"], "--json", cwd=folder)
    assert undone.status == 0
    assert [item["id"] for item in undone.json["counts_again"]] == [second["id"]]
    assert cwx("check", cwd=folder).status == 0 and _luck(folder) == (0, 0)
    assert cwx("luck", "spend", "-c", "sue", cwd=folder).status == 2  # turned already


def _luck(folder: Path) -> tuple[int, int]:
    luck = tomllib.loads((folder / "sue.toml").read_text())["luck"]
    return luck["white"], luck["black"]


def test_an_end_made_again_pre_empts_the_other_end_again(tmp_path: Path) -> None:
    # Two clones ended one game; the first undone, the second counts; its redo pre-empts
    # the second again. The sheets follow each step, and no die is lost or made.
    folder = saga(tmp_path / "saga")
    assert cwx("bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white", "--drawn",
               "black", "--drawn", "red", "--keep-white", "--keep-black",
               cwd=folder).status == 0
    assert cwx("game", "end", "-c", "sue", cwd=folder).status == 0
    first = journal(folder)[-1]
    with open(folder / "journal.jsonl", "a") as lines:
        lines.write(json.dumps({**first, "id": "e2e2e2e2e2e2e2e2", "player": "Bob",
                                "at": first["at"][:-4] + "999Z"}) + "\n")
    assert cwx("undo", first["id"], cwd=folder).status == 0
    assert cwx("check", cwd=folder).status == 0 and _luck(folder) == (0, 0)
    redone = cwx("undo", journal(folder)[-1]["id"], cwd=folder)
    assert redone.status == 0, redone.stderr
    assert "`game end` e2e2e2e2 by Sue counts for nothing again" in redone.stdout
    assert cwx("check", cwd=folder).status == 0 and _luck(folder) == (0, 0)
    told = [row for row in cwx("log", cwd=folder).stdout.splitlines() if "e2e2e2e2" in row]
    assert "counts for nothing: another end of that game came first" in told[0]
