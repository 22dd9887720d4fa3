"""Nothing lost: real processes at once, processes killed mid-write, the file system's
refusals, and a campaign folder under git."""

from __future__ import annotations

import os
import random
import shutil
import signal
import statistics
import subprocess
import time
import tomllib
from pathlib import Path

import pytest

from cwx.store import durable, redo
from tests.helpers import (
    FULL,
    SUE,
    cwx,
    cwx_process,
    journal,
    killed_at,
    litter,
    settle,
    start,
    two_folders,
    valid_kind,
)

# Writers of one character at once: with the folder's lock taken out, 16 lost an update
# in each of three runs, as 32 did (make bench runs 32).
WRITERS = 32 if FULL else 16


# Each step of a commit waits this long in the crash tests, so that most random kills
# land inside the commit (temporary files, redo record, replaces, journal) and not in
# Python's start-up.
STEP = {durable.CHECKPOINT_HOOK: "sleep 0.02"}


def xp(path: Path) -> int:
    return int(tomllib.loads(path.read_text())["xp"])


def whites(campaign: Path, bag: Path, *characters: Path) -> tuple[int, ...]:
    """Sue's whites, the reserve's, and every white anywhere (W9 keeps the last fixed)."""
    data = tomllib.loads(bag.read_text())
    held = [tomllib.loads(c.read_text())["luck"]["white"] for c in characters]
    total = data["bag"]["white"] + data["reserve"]["white"] + sum(held)
    return (*held, data["reserve"]["white"], total)


def dice(bag: Path, *characters: Path) -> tuple[int, int]:
    data = tomllib.loads(bag.read_text())
    white = data["bag"]["white"] + data["reserve"]["white"]
    black = data["bag"]["black"] + data["reserve"]["black"]
    for path in characters:
        luck = tomllib.loads(path.read_text())["luck"]
        white, black = white + luck["white"], black + luck["black"]
    return white, black


# ---------------------------------------------------------------- concurrency

def test_many_writers_on_one_character_lose_no_update(campaign: Path) -> None:
    kris = campaign / "kris.toml"
    processes = [start("clock", "resolve", "--target", 7, "--guess", 7, "--trait", "Tough",
                       "--char", kris) for _ in range(WRITERS)]
    for process in processes:
        _, err = process.communicate(timeout=180)
        assert process.returncode == 0, err
    assert xp(kris) == 10 * WRITERS
    events = journal(campaign)
    assert sorted(e["result"]["xp_total"] for e in events) == list(range(10, 10 * WRITERS + 1, 10))
    assert litter(campaign) == []


DRAWS_EACH = 12


def test_two_characters_drawing_at_once_from_one_bag_conserve_every_die(campaign: Path) -> None:
    sue, rick, bag = campaign / "sue.toml", campaign / "rick.toml", campaign / "bag.toml"
    before = dice(bag, sue, rick)
    processes = [
        start("bag", "draw", "--char", who, "--bag", bag, "--color", colour, "--keep-white",
              "--keep-black", "--spend-white", "--json")
        for _ in range(DRAWS_EACH) for who, colour in ((sue, "blue"), (rick, "purple"))
    ]
    for process in processes:
        _, err = process.communicate(timeout=180)
        assert process.returncode == 0, err
    after = dice(bag, sue, rick)
    print(f"{2 * DRAWS_EACH} concurrent draws: dice before {before}, after {after}")
    assert after == before
    events = [e for e in journal(campaign) if e["command"] == "bag draw"]
    assert len(events) == 2 * DRAWS_EACH
    kept = sum(len(e["result"]["draws"]) - 1 for e in events)
    assert kept > 0  # the keep flags really moved dice between the bag and the hands


def test_mixed_commands_on_two_characters_and_a_bag_never_deadlock(campaign: Path) -> None:
    # Three folders, so the locks of one change span folders and must be taken in order.
    party, shared = campaign / "party", campaign / "shared"
    party.mkdir()
    shared.mkdir()
    sue, rick, bag = campaign / "sue.toml", party / "rick.toml", shared / "bag.toml"
    shutil.move(campaign / "rick.toml", rick)
    shutil.move(campaign / "bag.toml", bag)
    before = dice(bag, sue, rick)
    rng = random.Random(5)
    commands = []
    for n in range(36):
        who = (sue, rick)[n % 2]
        commands.append(rng.choice([
            ["bag", "draw", "--char", who, "--bag", bag, "--color",
             rng.choice(["red", "green", "purple"]), "--keep-white", "--keep-black",
             "--seed", n],
            ["bag", "draw", "--char", who, "--bag", bag, "--color", "blue", "--spend-white",
             "--seed", n],
            ["luck", "curse", "--char", who, "--bag", bag],
            ["game", "end", "--char", who, "--bag", bag],
            ["wheel", "buy", "--char", who, "--bag", bag, "--color", "red", "--trait", f"T{n}"],
            ["bag", "show", bag],
            ["char", "show", who],
            ["odds", "wheel", "--color", "red", "--bag", bag],
            ["clock", "resolve", "--target", 3, "--guess", 3, "--trait", "Tough",
             "--char", campaign / "kris.toml"],
        ]))
    processes = [start(*command) for command in commands]
    deadline = time.monotonic() + 180
    for process in processes:
        _, err = process.communicate(timeout=max(1, deadline - time.monotonic()))
        assert process.returncode in (0, 2), err
        assert "Traceback" not in err
        if process.returncode == 2:  # only the rules may refuse: no black, too few whites
            assert any(word in err for word in ("holds no black", "whites", "holding black",
                                                "turned once", "failed;", "not a draw",
                                                "already ended", "no draw")), err
    assert dice(bag, sue, rick) == before
    for folder in (campaign, party, shared):
        assert litter(folder) == []


# ---------------------------------------------------------------- crashes

def _typical_seconds(args: list[object], reset: object) -> float:
    times = []
    for _ in range(3):
        began = time.perf_counter()
        assert cwx_process(*args, env=STEP).status == 0
        times.append(time.perf_counter() - began)
        reset()  # type: ignore[operator]
    return statistics.median(times)


def _kill_at_random(args: list[object], typical: float, rng: random.Random) -> None:
    process = start(*args, env=STEP)
    time.sleep(rng.uniform(0.4, 1.0) * typical)
    process.send_signal(signal.SIGKILL)
    process.wait()


# A kill test kills its command once at each checkpoint of its commit, in order (each
# window a kill can leave: temporary files, redo records, replaces, the journal line,
# records forgotten), then at random moments, which also land in start-up and between
# checkpoints: KILLS of them in make test, 30 in make bench (CWX_TEST_FULL=1). Random
# kills alone hit each window only by chance, the more rarely the busier the machine.
KILLS = 30 if FULL else 4


def _kill(args: list[object], at: str | None, typical: float, rng: random.Random,
          flag: Path) -> None:
    """Kill cwx running `args` at checkpoint `at`, or at a random moment where `at` is None."""
    if at is None:
        _kill_at_random(args, typical, rng)
    else:
        killed_at(at, flag, *args)


SINGLE_FILE = ["temp", "record#1", "replace#1", "journal", "forget#1"]
TWO_FILES = ["temp#1", "temp#2", "record#1", "replace#1", "replace#2", "journal", "forget#1"]
TWO_FOLDERS = ["temp#1", "temp#2", "record#1", "record#2", "replace#1", "replace#2",
               "journal", "forget#1", "forget#2"]


def test_kills_during_single_file_writes_leave_it_before_or_after(campaign: Path) -> None:
    kris = campaign / "kris.toml"
    args: list[object] = ["clock", "resolve", "--target", 7, "--guess", 7, "--trait", "Tough",
                          "--char", kris]
    original = kris.read_bytes()
    typical = _typical_seconds(args, lambda: kris.write_bytes(original))
    (campaign / "journal.jsonl").unlink()
    rng, applied, mid_write = random.Random(11), 0, 0
    kills: list[str | None] = [*SINGLE_FILE, *[None] * KILLS]
    for at in kills:
        before = xp(kris)
        _kill(args, at, typical, rng, campaign.parent / "flag")
        mid_write += bool(litter(campaign))
        valid_kind(kris)  # parseable and valid, right after the kill
        assert xp(kris) in (before, before + 10)
        settle(campaign)  # what the next command that changes files does first
        assert xp(kris) in (before, before + 10)
        applied += xp(kris) == before + 10
        assert litter(campaign) == []
    assert len(journal(campaign)) == applied
    print(f"{len(kills)} kills of single-file writes: {applied} completed, "
          f"{mid_write} caught mid-write, 0 corrupted")


def test_kills_during_two_file_changes_never_lose_or_duplicate_a_die(campaign: Path) -> None:
    sue, bag = campaign / "sue.toml", campaign / "bag.toml"
    keep = ["bag", "draw", "--char", sue, "--bag", bag, "--color", "blue", "--drawn", "white",
            "--drawn", "blue", "--keep-white"]
    spend = ["bag", "draw", "--char", sue, "--bag", bag, "--color", "red", "--drawn", "blue",
             "--spend-white"]
    originals = {p: p.read_bytes() for p in (sue, bag)}

    def reset() -> None:
        for path, raw in originals.items():
            path.write_bytes(raw)

    typical = _typical_seconds(keep, reset)
    (campaign / "journal.jsonl").unlink()
    total = whites(campaign, bag, sue)[-1]
    rng, applied, between, mid_write = random.Random(12), 0, 0, 0
    kills: list[str | None] = [*TWO_FILES, *[None] * KILLS]
    for n, at in enumerate(kills):
        held, reserve, _ = whites(campaign, bag, sue)
        move = +1 if held == 0 or (reserve > 0 and n % 2 == 0) else -1
        _kill(keep if move > 0 else spend, at, typical, rng, campaign.parent / "flag")
        mid_write += bool(litter(campaign))
        for path in (sue, bag):
            valid_kind(path)  # each file parses and is valid right after the kill
        now_held, now_reserve, _ = whites(campaign, bag, sue)
        assert now_held in (held, held + move) and now_reserve in (reserve, reserve - move)
        between += (now_held - held) != (reserve - now_reserve)
        settle(campaign)  # rolls a decided change forward, an undecided one back
        settled = whites(campaign, bag, sue)
        assert settled in ((held, reserve, total), (held + move, reserve - move, total))
        applied += settled[0] != held
        assert litter(campaign) == []
    assert len(journal(campaign)) == applied
    print(f"{len(kills)} kills of two-file changes: {applied} completed, {mid_write} caught "
          f"mid-write, {between} between the two replaces; dice before {total}, after "
          f"{whites(campaign, bag, sue)[-1]}")


def test_kills_of_changes_across_two_folders_never_lose_a_die_or_a_journal_line(
        campaign: Path) -> None:
    # The bag in a/, the characters and their journal in z/: each change writes its redo
    # record to a/ and then z/, and the steps are slowed so kills land between the copies.
    # After each kill a command runs in z/ alone, then one in both: whatever the kill
    # left must be finished or undone whole, and no other command's journal line lost.
    bag, sue, kris, z = two_folders(campaign)
    a = bag.parent
    keep = ["bag", "draw", "--char", sue, "--bag", bag, "--color", "blue", "--drawn", "white",
            "--drawn", "blue", "--keep-white"]
    spend = ["bag", "draw", "--char", sue, "--bag", bag, "--color", "red", "--drawn", "blue",
             "--spend-white"]
    in_z = ["clock", "resolve", "--target", 5, "--guess", 5, "--trait", "Tough", "--char", kris]
    originals = {p: p.read_bytes() for p in (sue, bag)}

    def reset() -> None:
        for path, raw in originals.items():
            path.write_bytes(raw)
        (z / "journal.jsonl").unlink(missing_ok=True)

    typical = _typical_seconds(keep, reset)
    total = dice(bag, sue)
    rng, completed, checks, records_alone = random.Random(13), 0, 0, 0
    kills: list[str | None] = [*TWO_FOLDERS, *[None] * KILLS]
    for n, at in enumerate(kills):
        held = tomllib.loads(sue.read_text())["luck"]["white"]
        reserve = tomllib.loads(bag.read_text())["reserve"]["white"]
        move = +1 if held == 0 or (reserve > 0 and n % 2 == 0) else -1
        _kill(keep if move > 0 else spend, at, typical, rng, campaign.parent / "flag")
        records_alone += sum(1 for name in os.listdir(a) if name.startswith(redo.REDO_PREFIX)) \
            > sum(1 for name in os.listdir(z) if name.startswith(redo.REDO_PREFIX))
        resolves = sum(e["command"] == "clock resolve" for e in journal(z))
        assert cwx(*in_z).status == 0  # in this process: the killed one was a real one
        assert cwx("bag", "new", a / f"spare-{n}.toml").status == 0  # settles a/
        settle(z)
        now = tomllib.loads(sue.read_text())["luck"]["white"]
        assert now in (held, held + move)
        completed += now != held
        assert dice(bag, sue) == total
        events = journal(z)
        assert sum(e["command"] == "clock resolve" for e in events) == resolves + 1
        assert sum(e["command"] == "bag draw" for e in events) == completed
        assert litter(a) == [] and litter(z) == []
        checks += 1
    print(f"{len(kills)} kills of changes across two folders: {completed} completed, "
          f"{records_alone} left a record in a/ alone; {checks} conservation checks, "
          f"dice {total} before and {dice(bag, sue)} after")


def test_a_kill_between_the_two_replaces_is_rolled_forward(campaign: Path,
                                                            tmp_path: Path) -> None:
    sue, bag, kris = campaign / "sue.toml", campaign / "bag.toml", campaign / "kris.toml"
    bag_before = bag.read_bytes()
    killed_at("replace#1", tmp_path / "flag", "bag", "draw", "--char", sue, "--bag", bag,
              "--color", "blue", "--drawn", "white", "--drawn", "blue", "--keep-white")
    # The window itself: Sue holds the white, the bag has not yet given it up.
    assert tomllib.loads(sue.read_text())["luck"]["white"] == 1
    assert bag.read_bytes() == bag_before
    assert any(n.startswith(redo.REDO_PREFIX) for n in litter(campaign))
    assert journal(campaign) == []
    # The next command that changes files in the folder finishes the change before its own.
    assert cwx("clock", "resolve", "--target", 2, "--guess", 2, "--trait", "Repair",
               "--char", kris).status == 0
    assert tomllib.loads(bag.read_text())["reserve"]["white"] == 9
    assert whites(campaign, bag, sue) == (1, 9, 12 - 1)
    assert [e["command"] for e in journal(campaign)] == ["bag draw", "clock resolve"]
    assert litter(campaign) == []


def test_a_temporary_file_left_by_a_kill_is_swept_by_the_next_changing_command(
        campaign: Path) -> None:
    stray = campaign / f".kris.toml.{'d' * 8}{redo.TEMP_SUFFIX}"
    stray.write_text("half a file")
    assert cwx("char", "show", campaign / "kris.toml").status == 0
    assert stray.exists()  # a reading command leaves it
    assert cwx("xp", "spend", "--char", campaign / "mara.toml", "--new", "Climb").status == 0
    assert not stray.exists()


# ---------------------------------------------------------------- the file system

def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    ran = cwx("char", "new", tmp_path / "nowhere" / "kris.toml", "--system", "clockworx",
              "--trait", "A=1", "--trait", "B=1", "--trait", "C=1")
    assert ran.status == 2 and "does not exist" in ran.error
    assert not (tmp_path / "nowhere").exists()


def test_a_read_only_folder_is_a_clear_error_with_the_original_intact(campaign: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes to read-only folders")
    kris = campaign / "kris.toml"
    before = kris.read_bytes()
    campaign.chmod(0o555)
    try:
        ran = cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Tough",
                  "--char", kris)
    finally:
        campaign.chmod(0o755)
    assert ran.status == 2 and "could not write" in ran.error
    assert kris.read_bytes() == before


def test_a_folder_refusing_writes_is_a_clear_error_even_for_root(
    campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    kris = campaign / "kris.toml"
    before = kris.read_bytes()
    opening = os.open

    def read_only_folder(path: str, flags: int, *args: int) -> int:
        if str(path).endswith(redo.TEMP_SUFFIX):
            raise OSError(errno.EROFS, "Read-only file system", path)
        return opening(path, flags, *args)

    monkeypatch.setattr(durable.os, "open", read_only_folder)
    ran = cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Tough",
              "--char", kris)
    assert ran.status == 2
    assert ran.error.endswith("could not write (Read-only file system); the files are unchanged")
    assert kris.read_bytes() == before and litter(campaign) == []


def test_a_campaign_under_git_stays_clean(campaign: Path) -> None:
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(campaign)]
    subprocess.run(["git", "init", "-q", str(campaign)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "start"], check=True)
    cwx("bag", "draw", "--char", campaign / "sue.toml", "--bag", campaign / "bag.toml",
        "--color", "red", "--drawn", "white", "--drawn", "red", "--keep-white")
    status = subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    assert sorted(status) == [" M bag.toml", " M sue.toml", "?? journal.jsonl"]


def test_recovery_mends_a_journal_line_cut_short_without_reading_the_journal(
    tmp_path: Path
) -> None:
    # A command killed mid-append: half its line is in the journal, its redo record waits.
    journal_path = tmp_path / "journal.jsonl"
    old = b'{"v":1,"command":"earlier"}\n'
    line = b'{"v":1,"command":"killed"}\n'
    journal_path.write_bytes(old + line[:9])
    record = redo.Redo("test", (), redo.JournalLine(str(journal_path), line), len(old),
                       f"{redo.REDO_PREFIX}{'0' * 12}.json")
    (tmp_path / record.name).write_bytes(record.encode())
    settle(tmp_path)
    assert journal_path.read_bytes() == old + line
    assert litter(tmp_path) == []
    settle(tmp_path)  # again: the record is gone, the line stays there once
    assert journal_path.read_bytes() == old + line


# ---------------------------------------------------------------- the ledger's commands, killed

LEDGER_COMMANDS = {
    # the command, the checkpoints its commit passes (adopt writes the journal alone)
    "reconcile": (["reconcile"], ["temp", "record#1", "replace#1", "journal", "forget#1"]),
    "adopt": (["adopt", "sue.toml", "--supply"], ["record#1", "journal", "forget#1"]),
    "undo": (["undo"], ["temp", "record#1", "replace#1", "journal", "forget#1"]),
}


def _ledger_table(folder: Path, command: str) -> None:
    assert cwx("init", folder).status == 0
    assert cwx("char", "new", folder / "sue.toml", "--system", "colorwheel", "--name", "Sue",
               *SUE).status == 0
    sue = folder / "sue.toml"
    if command == "undo":
        assert cwx("bag", "draw", "--char", sue, "--bag", folder / "bag.toml", "--color", "red",
                   "--drawn", "white", "--drawn", "red", "--keep-white").status == 0
    else:  # a hand edit, for reconcile to take back or adopt to accept
        sue.write_text(sue.read_text().replace("white = 0", "white = 2"))
        sue.write_text(sue.read_text().replace("black = 0", "black = 1"))


def _state(folder: Path) -> tuple[bytes, ...]:
    return tuple((folder / name).read_bytes() for name in ("sue.toml", "bag.toml"))


@pytest.mark.parametrize("command", sorted(LEDGER_COMMANDS))
def test_a_ledger_command_killed_at_any_step_leaves_the_campaign_before_or_after(
        tmp_path: Path, command: str) -> None:
    args, checkpoints = LEDGER_COMMANDS[command]
    finished = tmp_path / "finished"
    _ledger_table(finished, command)
    assert cwx(*args, cwd=finished).status == 0
    after = (_state(finished), len(journal(finished)))
    for checkpoint in checkpoints:
        folder = tmp_path / checkpoint.replace("#", "-")
        _ledger_table(folder, command)
        before = (_state(folder), len(journal(folder)))
        killed_at(checkpoint, tmp_path / "flag", *args, cwd=folder)
        settle(folder)  # what the next command that changes files does first
        now = (_state(folder), len(journal(folder)))
        assert now in (before, after), (command, checkpoint)
        assert litter(folder) == []
        ran = cwx("check", folder)
        assert ran.status == (0 if now == after or command == "undo" else 1), ran.stdout
