"""Play by post (#19): sealed guesses that travel between clones, `cwx sync`, `cwx recap`.
Real git: a bare origin, the GM's clone and two players', set up as the README says."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from cwx.rules import clockworx
from tests.helpers import cwx, later, once
from tests.test_git import Table, value
from tests.test_group import campaign_dice

EXPECTED = Path(__file__).parent / "data" / "recap.md"


@pytest.fixture(autouse=True)
def _identity(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # cwx sync commits in this process: git's author is the test's, from no config.
    for name, said in (("NAME", "Player"), ("EMAIL", "p@table")):
        monkeypatch.setenv(f"GIT_AUTHOR_{name}", said)
        monkeypatch.setenv(f"GIT_COMMITTER_{name}", said)
    monkeypatch.setenv("HOME", str(tmp_path))


def play(where: Path, player: str, *args: object, status: int = 0) -> str:
    ran = cwx(*args, cwd=where, env={"CWX_PLAYER": player})
    assert ran.status == status, (args, ran.stdout, ran.stderr)
    assert "Traceback" not in ran.stderr
    return ran.stdout + ran.stderr


def sync(where: Path, player: str, *args: object) -> dict[str, object]:
    ran = cwx("sync", "--json", *args, cwd=where, env={"CWX_PLAYER": player})
    assert ran.status == 0, (ran.stdout, ran.stderr)
    done: dict[str, object] = ran.json
    return done


def table_of_three(tmp_path: Path) -> tuple[Table, Path, Path, Path]:
    """The GM starts the campaign (Kris and Mara, ClockWorx) and pushes; Alice and Bob
    clone it and run git setup, as the README says (built once, then copied)."""
    table = Table(tmp_path)
    once("table_of_three", tmp_path, ["origin.git", "gm", "alice", "bob"],
         lambda: _three(table))
    return table, tmp_path / "gm", tmp_path / "alice", tmp_path / "bob"


def _three(table: Table) -> None:
    gm = table.clone("gm")
    play(gm, "GM", "init", ".")
    for name, traits in (("kris", ("Repair=4", "Run=3", "Lie=5")),
                         ("mara", ("Sing=2", "Dance=4", "Fight=6"))):
        play(gm, "GM", "char", "new", f"{name}.toml", "--system", "clockworx",
             *(part for trait in traits for part in ("--trait", trait)))
    sync(gm, "GM")
    alice, bob = table.clone("alice"), table.clone("bob")
    for clone in (alice, bob):
        play(clone, "GM", "git", "setup")


def test_sealed_guesses_travel_from_each_player_to_the_gm_and_back(tmp_path: Path) -> None:
    table, gm, alice, bob = table_of_three(tmp_path)
    said = play(gm, "GM", "clock", "pick", "--seal", "--target", "9", "--json")
    commitment = json.loads(said.splitlines()[0])["commitment"]
    sync(gm, "GM")
    guesses = {alice: ("kris", 7, "Repair"), bob: ("mara", 3, "Fight")}
    for clone, (char, guess, trait) in guesses.items():
        sync(clone, "GM")  # brings the seal
        ran = cwx("clock", "resolve", "--sealed", "-g", guess, "-t", trait.lower(), "-c",
                  char, "--json", cwd=clone, env={"CWX_PLAYER": clone.name})
        assert ran.status == 0, ran.stderr
        assert ran.json == {"pending": True, "commitment": commitment, "guess": guess,
                            "trait": trait, "score": value(clone, f"{char}.toml", "traits",
                                                           trait)}
        text = play(clone, clone.name, "clock", "resolve", "--sealed", "-g", 1, "-c", char,
                    status=2)
        assert "already guesses on" in text  # one guess a character on each seal
        assert value(clone, f"{char}.toml", "xp") == 0  # no experience until the reveal
        sync(clone, clone.name)
    sync(gm, "GM")
    checked = cwx("check", "--json", cwd=gm).json
    assert [g["file"] for g in checked["pending"]] == ["kris.toml", "mara.toml"]
    assert "pending on" in play(gm, "GM", "log")
    revealed = json.loads(play(gm, "GM", "clock", "reveal", "--json"))
    assert revealed["target"] == 9 and len(revealed["guesses"]) == 2
    sync(gm, "GM")
    for clone in (alice, bob):
        sync(clone, clone.name)
    for clone in (gm, alice, bob):
        for char, guess, trait in guesses.values():
            score = value(clone, f"{char}.toml", "traits", trait)
            assert value(clone, f"{char}.toml", "xp") == clockworx.resolve(9, guess, score,
                                                                           trait).xp
        verified = cwx("clock", "verify", "--json", cwd=clone)
        assert verified.status == 0 and verified.json["verified"] is True
        assert cwx("check", "--json", cwd=clone).json["pending"] == []
        assert "settled by the reveal" in play(clone, "x", "log")
    heads = {table.git(clone, "rev-parse", "HEAD").stdout for clone in (gm, alice, bob)}
    assert len(heads) == 1
    # After the reveal, a guess on it is refused, and so is one on an older seal.
    assert "already revealed" in play(alice, "Alice", "clock", "resolve", "--sealed", "-g",
                                      2, "-c", "kris", status=2)
    play(gm, "GM", "clock", "pick", "--seal")
    sync(gm, "GM")
    sync(alice, "Alice")
    assert "is not the latest" in play(alice, "Alice", "clock", "resolve", "--sealed", "-g",
                                       2, "-c", "kris", "--commitment", commitment[:12],
                                       status=2)


def test_a_guess_waits_undone_or_settled_never_both(tmp_path: Path) -> None:
    _, gm, alice, _ = table_of_three(tmp_path)
    play(gm, "GM", "clock", "pick", "--seal", "--target", "4")
    sync(gm, "GM")
    sync(alice, "Alice")
    play(alice, "Alice", "clock", "resolve", "--sealed", "-g", 4, "-t", "Repair", "-c", "kris")
    play(alice, "Alice", "undo")  # taken back while it waits: no guess
    play(alice, "Alice", "clock", "resolve", "--sealed", "-g", 5, "-t", "Run", "-c", "kris")
    sync(alice, "Alice")
    sync(gm, "GM")
    revealed = json.loads(play(gm, "GM", "clock", "reveal", "--json"))
    assert [entry["guess"] for entry in revealed["guesses"]] == [5]
    assert value(gm, "kris.toml", "xp") == clockworx.resolve(4, 5, 3, "Run").xp
    sync(gm, "GM")
    sync(alice, "Alice")
    # The settled guess is the reveal's now: Alice's undo passes it by.
    assert "no change left to undo" in play(alice, "Alice", "undo", status=2)
    # The GM's own sealed resolve settles the guesses on it too, and stays immediate.
    play(gm, "GM", "clock", "pick", "--seal", "--target", "6")
    sync(gm, "GM")
    sync(alice, "Alice")
    play(alice, "Alice", "clock", "resolve", "--sealed", "-g", 6, "-t", "Lie", "-c", "kris")
    sync(alice, "Alice")
    sync(gm, "GM")
    said = play(gm, "GM", "clock", "resolve", "--sealed", "-g", 7, "-t", "Dance", "-c", "mara",
                "--json")
    result = json.loads(said.splitlines()[0])
    assert result["target"] == 6 and [e["file"] for e in result["guesses"]] == ["kris.toml"]
    assert value(gm, "mara.toml", "xp") == clockworx.resolve(6, 7, 4, "Dance").xp
    assert cwx("clock", "verify", cwd=gm).status == 0


def test_verify_of_the_journal_fails_on_a_forged_reveal(tmp_path: Path) -> None:
    _, gm, _, _ = table_of_three(tmp_path)
    play(gm, "GM", "clock", "pick", "--seal", "--target", "2")
    play(gm, "GM", "clock", "reveal")
    lines = (gm / "journal.jsonl").read_text().splitlines()
    forged = json.loads(lines[-1])
    forged["result"]["target"], forged["id"] = 3, "f" * 16
    (gm / "journal.jsonl").write_text("\n".join([*lines, json.dumps(forged)]) + "\n")
    ran = cwx("clock", "verify", cwd=gm)
    assert ran.status == 1 and "NOT VERIFIED" in ran.stdout and "1 not verified" in ran.stdout


def test_syncing_from_two_clones_in_turn_ends_alike_and_accounted(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    table.git(alice, "push", "--quiet", "--set-upstream", "origin", "main")
    supply = campaign_dice(alice)
    moves = [(alice, "Alice", ("bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white",
                               "--drawn", "blue", "--keep-white")),
             (bob, "Bob", ("clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c", "kris")),
             (alice, "Alice", ("bag", "draw", "-c", "rick", "-C", "red", "--drawn", "black",
                               "--drawn", "red", "--keep-black")),
             (bob, "Bob", ("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "white",
                           "--drawn", "red", "--keep-white"))]
    for clone, player, move in moves:
        play(clone, player, *move)
        done = sync(clone, player)
        assert done["committed"] and done["pushed"] == "origin/main" and done["ok"] is True
        assert str(done["message"]).startswith("cwx: ")
    subject = table.git(bob, "log", "-1", "--format=%s").stdout.strip()
    assert subject.startswith("cwx: Sue draws red") and "+1 white" in subject
    sync(alice, "Alice")
    assert sync(bob, "Bob")["committed"] is None  # nothing to commit: still pulls and pushes
    heads = {table.git(clone, "rev-parse", "HEAD").stdout for clone in (alice, bob)}
    assert len(heads) == 1
    for clone in (alice, bob):
        assert cwx("check", cwd=clone).status == 0
        assert campaign_dice(clone) == supply
    assert value(alice, "sue.toml", "luck", "white") == 2


def test_sync_stops_at_a_conflict_with_the_next_step(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    for clone, score in ((alice, 4), (bob, 5)):
        text = (clone / "kris.toml").read_text().replace('name = "Kris"', f'name = "Kris {score}"')
        (clone / "kris.toml").write_text(text)
        play(clone, clone.name, "adopt", "kris.toml")
    sync(alice, "Alice")
    ran = cwx("sync", cwd=bob, env={"CWX_PLAYER": "Bob"})
    assert ran.status == 2 and "Traceback" not in ran.stderr
    assert "kris.toml" in ran.stderr and "git rebase --continue" in ran.stderr
    assert "--skip" not in ran.stderr  # a committed turn taken out with git is named
    assert "with journal.jsonl" in " ".join(ran.stderr.split())  # the adopt writes there
    assert (bob / ".git" / "rebase-merge").exists()  # left as git left it
    again = cwx("sync", cwd=bob)
    assert again.status == 2 and "middle of a rebase" in again.error


def test_a_merge_that_stopped_is_finished_by_a_commit_not_a_rebase(tmp_path: Path) -> None:
    # sync merges where the clone's own commits hold a merge (test_grows.py): the steps it
    # gives when that merge stops are a merge's.
    from cwx.campaign.sync import _next_step

    for twice in ({}, {"kris.toml": ["a" * 16]}):
        said = _next_step({"kris.toml": {"1", "2", "3"}}, b"", twice, str(tmp_path),
                          "no-rebase")
        assert "`git commit --no-edit`" in said and "rebase" not in said
    said = _next_step({}, b"fatal: no such remote\n", {}, str(tmp_path), "no-rebase")
    assert "git pull --no-rebase stopped (fatal: no such remote)" in said


def test_sync_without_a_remote_commits_and_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "solo"
    folder.mkdir()
    subprocess.run(["git", "init", "--quiet", "-b", "main"], cwd=folder, check=True)
    play(folder, "Sam", "init", ".")
    play(folder, "Sam", "bag", "draw", "-c", "sue", "-C", "red", "--drawn", "red",
         status=2)  # no Sue in a fresh campaign
    (folder / "notes.txt").write_text("not the campaign's\n")
    ran = cwx("sync", cwd=folder, env={"CWX_PLAYER": "Sam"})
    assert ran.status == 0 and "no remote" in ran.stdout
    tracked = subprocess.run(["git", "ls-files"], cwd=folder, capture_output=True, text=True)
    assert "journal.jsonl" in tracked.stdout and "notes.txt" not in tracked.stdout
    # The first sync shares what init made (a clone needs .gitignore and the schemas).
    assert {".gitignore", "character.schema.json"} <= set(tracked.stdout.split())


def test_sync_tells_events_of_long_names_in_a_message_past_an_arguments_bound(
        tmp_path: Path) -> None:
    # 200 events told, each of a character named in 255 letters of 4 bytes: a message
    # given to git as an argument was past the 128 KB one may hold (exit 3).
    folder = tmp_path / "solo"
    folder.mkdir()
    subprocess.run(["git", "init", "--quiet", "-b", "main"], cwd=folder, check=True)
    play(folder, "Sam", "init", ".")
    assert cwx("sync", cwd=folder, env={"CWX_PLAYER": "Sam"}).status == 0
    with open(folder / "journal.jsonl", "a", encoding="utf-8") as journal:
        for n in range(200):
            journal.write(json.dumps({
                "v": 2, "id": f"{n:016x}", "at": later("2026-01-01T00:00:00.000Z", n),
                "command": "adopt", "who": f"{n:😀>255}", "file": None, "bag": None,
                "result": {}, "changes": []}, ensure_ascii=False) + "\n")
    ran = cwx("sync", cwd=folder, env={"CWX_PLAYER": "Sam"})
    assert ran.status == 0, ran.stderr
    message = subprocess.run(["git", "log", "-1", "--format=%B"], cwd=folder,
                             capture_output=True, text=True).stdout.splitlines()
    assert message[0].startswith("cwx: ") and message[1] == ""
    assert message[2:202] == [f"{n:😀>255} adopts" for n in range(200)]


def test_sync_in_a_campaign_below_the_top_without_hooks(tmp_path: Path) -> None:
    table = Table(tmp_path)
    first = table.clone("first")
    (first / "README").write_text("a larger repository\n")
    play(first, "GM", "init", "game")  # inside git, init sets the clone up
    play(first / "game", "GM", "char", "new", "kris.toml", "--system", "clockworx",
         "--trait", "Repair=4", "--trait", "Run=4", "--trait", "Lie=4")
    table.commit(first, "start")
    table.git(first, "push", "--quiet", "--set-upstream", "origin", "main")
    second = table.clone("second")  # no git setup: sync settles by itself
    play(first / "game", "GM", "clock", "resolve", "-T", 4, "-g", 4, "-t", "Repair", "-c",
         "kris")
    (first / "README").write_text("edited, not the campaign's\n")
    sync(first / "game", "GM")
    assert "README" in table.git(first, "status", "--porcelain").stdout  # left alone
    play(second / "game", "Bo", "clock", "resolve", "-T", 4, "-g", 5, "-t", "Run", "-c",
         "kris")
    sync(second / "game", "Bo")
    xp = clockworx.resolve(4, 4, 4, "Repair").xp + clockworx.resolve(4, 5, 4, "Run").xp
    assert value(second / "game", "kris.toml", "xp") == xp
    assert cwx("check", cwd=second / "game").status == 0


def test_a_push_someone_beat_is_pulled_and_tried_again(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    table.git(alice, "push", "--quiet", "--set-upstream", "origin", "main")
    play(bob, "Bob", "clock", "resolve", "-T", 4, "-g", 4, "-t", "Repair", "-c", "kris")
    table.commit(bob, "Bob's turn, not pushed yet")
    # Bob pushes while Alice's sync is between its pull and its push (git's pre-push hook).
    hook = alice / ".git" / "hooks" / "pre-push"
    flag = tmp_path / "once"
    hook.write_text(f"#!/bin/sh\n[ -e {flag} ] && exit 0\ntouch {flag}\n"
                    f"env -u GIT_DIR -u GIT_WORK_TREE -u GIT_INDEX_FILE git -C {bob} push --quiet "
                    "origin main >/dev/null 2>&1\nexit 0\n")
    hook.chmod(0o755)
    play(alice, "Alice", "bag", "draw", "-c", "sue", "-C", "red", "--drawn", "red")
    ran = cwx("sync", cwd=alice, env={"CWX_PLAYER": "Alice"})
    assert ran.status == 0, ran.stderr
    assert "refused" in ran.stdout and re.search(r"pushed \w{12} to origin/main", ran.stdout)
    assert value(alice, "kris.toml", "xp") == value(bob, "kris.toml", "xp") > 0


def _normal(text: str) -> str:
    return re.sub(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?: [+-]\d{4})?", "WHEN",
                  re.sub(r"[0-9a-f]{12}…", "HEX…", text))


def test_recap_of_a_scripted_session_reads_as_expected(tmp_path: Path) -> None:
    _, gm, alice, _ = table_of_three(tmp_path)
    play(gm, "GM", "bag", "new", "bag2.toml")
    play(gm, "GM", "char", "new", "sue.toml", "--system", "colorwheel", "--name", "Sue",
         "--trait", "red=Strong", "--trait", "yellow=Clever", "--trait", "blue=Athletic",
         "--trait", "orange=Brave", "--trait", "green=Healer", "--trait", "purple=Friendly")
    play(gm, "Gwen", "clock", "pick", "--seal", "--target", "5")
    sync(gm, "Gwen")
    sync(alice, "Alice")
    play(alice, "Alice", "clock", "resolve", "--sealed", "-g", 4, "-t", "Run", "-c", "kris")
    play(alice, "Alice", "clock", "resolve", "-T", 2, "-g", 2, "-t", "Lie", "-c", "kris")
    play(alice, "Alice", "clock", "resolve", "-T", 8, "-g", 2, "-t", "Fight", "-c", "mara")
    play(alice, "Alice", "undo")  # Mara's miss taken back: struck through
    play(alice, "Alice", "bag", "draw", "-c", "sue", "-b", "bag2.toml", "-C", "blue",
         "--drawn", "white", "--drawn", "blue", "--keep-white")
    text = (alice / "mara.toml").read_text().replace('name = "mara"', 'name = "Mara"')
    (alice / "mara.toml").write_text(text)
    play(alice, "Alice", "adopt", "mara.toml")
    recap = _normal(play(alice, "Alice", "recap"))
    if os.environ.get("CWX_WRITE_EXPECTED"):
        EXPECTED.write_text(recap)
    assert recap == EXPECTED.read_text()
    data = json.loads(play(alice, "Alice", "recap", "--json"))
    assert set(data) >= {"sessions", "characters", "events"}
    assert [e["pending"] for e in data["events"] if e["command"] == "clock resolve --sealed"] \
        == [True]
    pending = next(e["told"] for e in data["events"] if e["pending"])
    assert "vs sealed:" in pending and "vs sealed 5" not in pending  # never the number


def test_sessions_are_split_by_four_hours_without_events(tmp_path: Path) -> None:
    _, gm, _, _ = table_of_three(tmp_path)
    for guess in (1, 2, 3):
        play(gm, "GM", "clock", "resolve", "-T", 12, "-g", guess, "-c", "kris")
    path = gm / "journal.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    hours = [0] * (len(lines) - 2) + [5, 5]  # the last two, five hours on
    for line, shift in zip(lines, hours, strict=True):
        line["at"] = later(line["at"], shift * 3600)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    every = json.loads(play(gm, "GM", "recap", "--all", "--json"))
    assert [s["events"] for s in every["sessions"]] == [len(lines) - 2, 2]
    first = json.loads(play(gm, "GM", "recap", "--session", "1", "--json"))
    assert first["sessions"][0]["number"] == 1 and first["total_sessions"] == 2
    latest = play(gm, "GM", "recap")
    assert latest.startswith("# Recap: session 2 of 2")
    assert "2 sessions" in play(gm, "GM", "recap", "--session", "3", status=2)
    assert "a day the calendar has" in play(gm, "GM", "recap", "--since", "2026-02-30",
                                            status=2)
    assert "No session since 2999-01-01" in play(gm, "GM", "recap", "--since", "2999-01-01")

def test_an_undone_guess_is_never_redone_once_the_number_is_shown(tmp_path: Path) -> None:
    _, gm, alice, _ = table_of_three(tmp_path)
    play(gm, "GM", "clock", "pick", "--seal", "--target", "7")
    sync(gm, "GM")
    sync(alice, "Alice")
    for guess in (6, 7):  # a guess for each number, each taken back
        play(alice, "Alice", "clock", "resolve", "--sealed", "-g", guess, "-c", "kris")
        play(alice, "Alice", "undo")
    sync(alice, "Alice")
    sync(gm, "GM")
    assert "guesses" not in json.loads(play(gm, "GM", "clock", "reveal", "--json"))
    sync(gm, "GM")
    sync(alice, "Alice")
    assert "was revealed since" in play(alice, "Alice", "undo", "--redo", status=2)
    assert value(alice, "kris.toml", "xp") == 0
    # undone before the reveal: undone, never late, never waiting
    recap = play(alice, "Alice", "recap", "--all")
    assert recap.count("(undone)") == 2 and "late" not in recap and "pending" not in recap
    told = json.loads(play(alice, "Alice", "recap", "--all", "--json"))
    guessed = [event for event in told["events"] if event["command"] == "clock resolve --sealed"]
    assert [(e["undone"], e["pending"], e["late"]) for e in guessed] == [(True, False, False)] * 2


def _forged(clone: Path, **result: object) -> None:
    """The journal's last line (a guess), its result changed by hand, under a new id."""
    path = clone / "journal.jsonl"
    lines = path.read_text().splitlines()
    line = json.loads(lines[-1])
    line["result"].update(result)
    path.write_text("\n".join([*lines[:-1], json.dumps(line)]) + "\n")


def test_a_guess_line_written_by_hand_earns_nothing_it_could_not(tmp_path: Path) -> None:
    _, gm, alice, bob = table_of_three(tmp_path)
    play(gm, "GM", "clock", "pick", "--seal", "--target", "9")
    sync(gm, "GM")
    sync(alice, "Alice")
    play(alice, "Alice", "clock", "resolve", "--sealed", "-g", 9, "-t", "Run", "-c", "kris")
    _forged(alice, score=6)  # Run is 3 on the sheet
    sync(alice, "Alice")
    sync(bob, "Bob")
    play(bob, "Bob", "clock", "resolve", "--sealed", "-g", 9, "-t", "Fight", "-c", "mara")
    lines = (bob / "journal.jsonl").read_text().splitlines()
    line = json.loads(lines[-1])
    line["file"] = "bag.toml"  # a guess naming no character: it must not block the reveal
    (bob / "journal.jsonl").write_text("\n".join([*lines[:-1], json.dumps(line)]) + "\n")
    # Bob's clone keeps what he guessed on, and its check would name the line rewritten
    # (tests/test_sealed.py): here the line stands for one another clone wrote.
    (bob / ".git" / "cwx" / "guessed.jsonl").unlink()
    sync(bob, "Bob")
    sync(gm, "GM")
    revealed = json.loads(play(gm, "GM", "clock", "reveal", "--json"))
    why = {entry["file"]: entry.get("why", "") for entry in revealed["guesses"]}
    assert "its score (6) is no Run score" in why["kris.toml"] and "bag.toml" in why["bag.toml"]
    assert value(gm, "kris.toml", "xp") == 0
    # A guess that reaches the GM after the number was shown counts for nothing, whatever
    # its stamp: Bob's clone had not pulled the reveal.
    play(bob, "Bob", "clock", "resolve", "--sealed", "-g", 9, "-t", "Dance", "-c", "mara")
    sync(gm, "GM")
    sync(bob, "Bob")
    sync(gm, "GM")
    assert "guesses" not in json.loads(play(gm, "GM", "clock", "reveal", "--json"))
    assert "counts for nothing" in play(gm, "GM", "check")
    assert value(gm, "mara.toml", "xp") == 0
    # sync and log say it late, as check does, never waiting
    synced = play(gm, "GM", "sync")
    assert "1 guess late: reached the GM after the reveal" in synced
    assert "waiting for the GM's reveal" not in synced
    logged = play(gm, "GM", "log", "--no-pager", "--last", "3")
    assert "late: reached the GM after the reveal" in logged and "pending on" not in logged


def test_a_guess_with_the_score_its_player_saw_counts_whatever_the_gm_changed(
        tmp_path: Path) -> None:
    _, gm, alice, _ = table_of_three(tmp_path)
    play(gm, "GM", "clock", "pick", "--seal", "--target", "2")
    sync(gm, "GM")
    text = (gm / "kris.toml").read_text().replace("Lie = 5", "Lie = 6")
    (gm / "kris.toml").write_text(text)
    play(gm, "GM", "adopt", "kris.toml")  # the GM's raise, not pushed yet
    sync(alice, "Alice")
    play(alice, "Alice", "clock", "resolve", "--sealed", "-g", 2, "-t", "Lie", "-c", "kris")
    sync(alice, "Alice")
    sync(gm, "GM")
    revealed = json.loads(play(gm, "GM", "clock", "reveal", "--json"))
    assert [entry.get("counted", True) for entry in revealed["guesses"]] == [True]
    assert value(gm, "kris.toml", "xp") == clockworx.resolve(2, 2, 5, "Lie").xp


def test_sync_carries_a_retirement_and_a_move_whole(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    table.git(alice, "push", "--quiet", "--set-upstream", "origin", "main")
    play(alice, "Alice", "retire", "kris.toml")  # git rm's it
    (alice / "pcs").mkdir()
    table.git(alice, "mv", "sue.toml", "pcs/sue.toml")
    play(alice, "Alice", "adopt", "sue.toml", "pcs/sue.toml")
    sync(alice, "Alice")
    tracked = table.git(alice, "ls-tree", "-r", "--name-only", "HEAD").stdout.split()
    assert "kris.toml" not in tracked and "sue.toml" not in tracked
    assert "pcs/sue.toml" in tracked
    sync(bob, "Bob")
    assert not (bob / "kris.toml").exists() and not (bob / "sue.toml").exists()
    assert cwx("check", cwd=bob).status == 0


def _ids(where: Path) -> dict[str, str]:
    """Each event's id by its command and order: "clock resolve#1" is the first resolve."""
    found: dict[str, str] = {}
    for line in (where / "journal.jsonl").read_text().splitlines():
        event = json.loads(line)
        count = sum(1 for key in found if key.startswith(event["command"] + "#"))
        found[f"{event['command']}#{count + 1}"] = event["id"]
    return found


def test_undo_names_an_event_says_what_it_restores_and_log_marks_it(tmp_path: Path) -> None:
    table, _, alice, bob = table_of_three(tmp_path)
    play(alice, "Alice", "clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c", "kris")
    play(alice, "Alice", "clock", "resolve", "-T", 4, "-g", 4, "-t", "Run", "-c", "mara",
         status=2)  # Mara has no Run: refused, nothing journaled
    play(alice, "Alice", "clock", "resolve", "-T", 4, "-g", 4, "-t", "Dance", "-c", "mara")
    sync(alice, "Alice")
    sync(bob, "Bob")
    first = _ids(bob)["clock resolve#1"]
    gained = clockworx.resolve(4, 3, 4, "Repair").xp
    # Bob names Alice's first move: refused without --player, as the latest undo is.
    refused = play(bob, "Bob", "undo", first[:6], status=2)
    assert "is Alice's, not Bob's" in refused and "--player NAME" in refused
    assert "at least its first 4" in play(bob, "Bob", "undo", first[:3], status=2)
    assert "no event of the journal has an id starting" in play(bob, "Bob", "undo", "zzzz",
                                                                status=2)
    said = play(bob, "Bob", "undo", first[:6], "--player", "Alice")
    assert "Undid `clock resolve` by kris, played by Alice (" in said
    assert f"{first[:8]}): kris.toml xp {gained} → 0." in said  # the value it sets back
    assert value(bob, "kris.toml", "xp") == 0
    assert value(bob, "mara.toml", "xp") == clockworx.resolve(4, 4, 4, "Dance").xp  # kept
    undo_id = _ids(bob)["undo#1"]
    log = play(bob, "Bob", "log")
    row = next(line for line in log.splitlines() if f" {first[:8]} " in line)
    assert f"undone by {undo_id[:8]}" in row
    assert f"undo (clock resolve {first[:8]})" in log
    assert "is undone already; cwx undo --redo" in play(bob, "Bob", "undo", first,
                                                        "--player", "Alice", status=2)
    # Redone by naming the change (or its undo); the restored values are said, and in JSON.
    dry = play(bob, "Bob", "undo", "--redo", first[:8], "--dry-run", "--json")
    assert json.loads(dry)["restores"] == [{"file": "kris.toml", "key": "xp", "from": 0,
                                            "to": gained}]
    assert json.loads(dry)["redo"] is True and json.loads(dry)["dry_run"] is True
    assert value(bob, "kris.toml", "xp") == 0
    redone = json.loads(play(bob, "Bob", "undo", undo_id[:8], "--json"))
    assert redone["redo"] is True and redone["change"]["id"] == first
    assert value(bob, "kris.toml", "xp") == gained
    assert f"undo (redoes clock resolve {first[:8]})" in play(bob, "Bob", "log")
    # A player's adopt is the player's, in the undo's words and in the commit's.
    text = (bob / "mara.toml").read_text().replace("Sing = 2", "Sing = 3")
    (bob / "mara.toml").write_text(text)
    play(bob, "Bob", "adopt", "mara.toml")
    assert "Undid `adopt` by Bob (" in play(bob, "Bob", "undo", "--dry-run")
    assert re.search(r"  Bob +- +adopt \(mara\.toml\)", play(bob, "Bob", "log"))  # no GM
    sync(bob, "Bob")
    message = table.git(bob, "log", "-1", "--format=%B").stdout
    assert f"kris redoes clock resolve {first[:8]}: +{gained} xp" in message
    assert "Bob adopts mara.toml" in message and "the GM" not in message
    assert cwx("check", cwd=bob).status == 0


def test_a_redo_that_counts_for_nothing_is_told_so_in_the_commit(tmp_path: Path) -> None:
    table, _, alice, bob = table_of_three(tmp_path)
    play(alice, "Alice", "clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c", "kris")
    play(alice, "Alice", "undo")
    sync(alice, "Alice")
    sync(bob, "Bob")
    play(alice, "Alice", "undo", "--redo")
    sync(alice, "Alice")
    play(bob, "Alice", "undo", "--redo")  # the same redo, on Bob's clone, before his pull
    table.git(bob, "pull", "--quiet", "--rebase", "--autostash")  # git's union of journals
    done = sync(bob, "Bob")
    assert done["committed"]
    message = table.git(bob, "log", "-1", "--format=%B").stdout
    assert "redoes clock resolve" in message and "counts for nothing" in message
    assert "+2 xp" not in message
    assert value(bob, "kris.toml", "xp") == value(alice, "kris.toml", "xp") == \
        clockworx.resolve(4, 3, 4, "Repair").xp


def test_posts_a_day_apart_are_one_session_with_a_gap_of_days(tmp_path: Path) -> None:
    _, gm, _, _ = table_of_three(tmp_path)
    for guess in (1, 2, 3):
        play(gm, "GM", "clock", "resolve", "-T", 4, "-g", guess, "-t", "Repair", "-c", "kris")
    path = gm / "journal.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    days = [0] * (len(lines) - 2) + [1, 2]  # the last two posts a day and two days on
    for line, shift in zip(lines, days, strict=True):
        line["at"] = later(line["at"], shift * 86400)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    first_day, last_day = lines[0]["at"][:10], lines[-1]["at"][:10]
    assert json.loads(play(gm, "GM", "recap", "--json"))["total_sessions"] == 3
    by_post = json.loads(play(gm, "GM", "recap", "--gap", "2d", "--json"))
    assert [s["events"] for s in by_post["sessions"]] == [len(lines)]
    assert json.loads(play(gm, "GM", "recap", "--gap", "1d12h", "--json"))[
        "total_sessions"] == 1
    assert "a duration in days" in play(gm, "GM", "recap", "--gap", "2 days", status=2)
    settings = (gm / "campaign.toml").read_text()
    (gm / "campaign.toml").write_text(settings.replace("[campaign]\n",
                                                       '[campaign]\nrecap_gap = "2d"\n'))
    assert json.loads(play(gm, "GM", "recap", "--json"))["total_sessions"] == 1
    assert json.loads(play(gm, "GM", "recap", "--gap", "4h", "--json"))["total_sessions"] == 3
    assert "holds 1 session" in play(gm, "GM", "audit", "--session", 2, status=2)  # as recap
    # --until: the posts up to a day, and the holdings as they stood then.
    until = json.loads(play(gm, "GM", "recap", "--until", first_day, "--json"))
    resolves = [e for e in until["events"] if e["command"] == "clock resolve"]
    assert len(resolves) == 1
    kris = next(c for c in until["characters"] if c["file"] == "kris.toml")
    assert kris["holds"]["xp"] == clockworx.resolve(4, 1, 4, "Repair").xp
    assert "No session until 2000-01-01" in play(gm, "GM", "recap", "--until", "2000-01-01")
    # A session named by a day it was under way.
    (gm / "campaign.toml").write_text(settings)
    named = json.loads(play(gm, "GM", "recap", "--session", last_day, "--json"))
    assert [s["number"] for s in named["sessions"]] == [3]
    assert "no session was under way" in play(gm, "GM", "recap", "--session", "2000-01-01",
                                              status=2)
    assert "one of --session" in play(gm, "GM", "recap", "--session", 1, "--until",
                                      last_day, status=2)


BY_POST = Path(__file__).parent / "data" / "recap-by-post.md"


def test_a_by_post_recap_is_paste_ready(tmp_path: Path) -> None:
    """The table's by-post week, told once: a purchase an adopt voided struck through and
    the adopt told as values set, a guess that reached the GM late told late, a
    same-name clash as two characters each made once with its own actions, corrections
    naming their files, and draws naming the trait."""
    table, gm, alice, bob = table_of_three(tmp_path)
    # A same-name clash: Alice makes a ClockWorx Zed, Bob a Color Wheel one who draws.
    play(alice, "Alice", "char", "new", "zed.toml", "--system", "clockworx", "--name", "Zed",
         "--trait", "Shoot=4", "--trait", "Run=4", "--trait", "Hide=4")
    sync(alice, "Alice")
    play(bob, "Bob", "char", "new", "zed.toml", "--system", "colorwheel", "--name", "Zed",
         *(f"--trait={colour}={trait}" for colour, trait in (
             ("red", "Strong"), ("yellow", "Sly"), ("blue", "Swift"), ("orange", "Bold"),
             ("green", "Kind"), ("purple", "Glib"))))
    play(bob, "Bob", "bag", "draw", "-c", "zed", "-C", "blue", "--drawn", "blue")
    clash = cwx("sync", cwd=bob, env={"CWX_PLAYER": "Bob"})
    assert clash.status == 2 and "zed.toml" in clash.stderr, clash.stderr
    # As the advice says: keep one side, save the other under a new name, adopt both.
    twin = table.git(bob, "show", ":3:zed.toml").stdout
    (bob / "wheel-zed.toml").write_text(twin)
    table.git(bob, "checkout", "--ours", "zed.toml")
    play(bob, "Bob", "adopt", "wheel-zed.toml")
    play(bob, "Bob", "adopt", "zed.toml")
    table.git(bob, "add", "-A")
    table.git(bob, "-c", "core.editor=true", "rebase", "--continue")
    sync(bob, "Bob")
    # A purchase the table takes back by hand: the adopt sets its values back.
    for guess in (2, 2):
        play(alice, "Alice", "clock", "resolve", "-T", 2, "-g", guess, "-t", "Lie", "-c", "kris")
    play(alice, "Alice", "xp", "spend", "-c", "kris", "--new", "Climb")
    sync(alice, "Alice")
    sync(bob, "Bob")
    sheet = (bob / "kris.toml").read_text()
    xp = value(bob, "kris.toml", "xp")
    sheet = sheet.replace(f"xp = {xp}", f"xp = {xp + 12}").replace("Climb = 1\n", "")
    (bob / "kris.toml").write_text(sheet)
    play(bob, "Bob", "adopt", "kris.toml")
    # Corrections of two files at once name both.
    for name in ("kris", "mara"):
        text = (bob / f"{name}.toml").read_text()
        (bob / f"{name}.toml").write_text(text.replace(f'name = "{name}"',
                                                       f'name = "{name.title()}"'))
    play(bob, "Bob", "adopt", "kris.toml", "mara.toml")
    sync(bob, "Bob")
    # A guess that reaches the GM after the reveal.
    play(gm, "GM", "clock", "pick", "--seal", "--target", "6")
    sync(gm, "GM")
    sync(alice, "Alice")
    play(alice, "Alice", "clock", "resolve", "--sealed", "-g", 6, "-t", "Run", "-c", "zed")
    sync(gm, "GM")
    play(gm, "GM", "clock", "reveal")
    sync(gm, "GM")
    sync(alice, "Alice")
    for clone in (gm, alice, bob):
        sync(clone, clone.name)
    recaps = {clone.name: play(clone, "x", "recap", "--gap", "2d") for clone in (gm, alice, bob)}
    assert len(set(recaps.values())) == 1  # every clone tells the same
    recap = _normal(recaps["gm"])
    if os.environ.get("CWX_WRITE_EXPECTED"):
        BY_POST.write_text(recap)
    assert recap == BY_POST.read_text()
    data = json.loads(play(gm, "GM", "recap", "--gap", "2d", "--json"))
    late = [e for e in data["events"] if e["late"]]
    assert [(e["command"], e["pending"]) for e in late] == [("clock resolve --sealed", False)]
    assert [e["command"] for e in data["events"] if e["voided_by"]] == ["xp spend"]
    assert {e["system"] for e in data["events"] if e["file"] == "zed.toml" and
            not e["correction"]} == {"ClockWorx", "Color Wheel"}
    assert "+12 xp" not in recap and "Bob: adopts\n" not in recap
