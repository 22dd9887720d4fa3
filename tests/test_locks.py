"""cwx/store/locks.py: folder locks, held across processes, one lock a folder whatever its name."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cwx.base.errors import BadFile
from cwx.store.locks import FolderLocks

# A second process that locks `folder`, says so in `log`, and holds the lock until `go`
# exists; when it has to wait, it says that too (its `waiting` callback).
HOLDER = """
import os, sys, time
from cwx.store.locks import FolderLocks

folder, log, go, name = sys.argv[1:]

def say(what):
    with open(log, "a") as out:
        out.write(f"{name} {what}\\n")

held = FolderLocks(waiting=lambda where: say("waiting"))
held.acquire([folder])
say("in")
while not os.path.exists(go):
    time.sleep(0.005)
say("out")
held.release()
"""


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[bytes]]]:
    """The processes a test starts: none outlives it, whatever it asserted."""
    processes: list[subprocess.Popen[bytes]] = []
    yield processes
    for process in processes:
        if process.poll() is None:
            process.kill()
        process.wait()


def holder(started: list[subprocess.Popen[bytes]], folder: Path, log: Path, go: Path,
           name: str) -> subprocess.Popen[bytes]:
    root = Path(__file__).resolve().parent.parent
    process = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder), str(log), str(go),
                                name], cwd=root)
    started.append(process)
    return process


def until(done: object, what: str) -> None:
    deadline = time.monotonic() + 20
    while not (done() if callable(done) else done):
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.005)


def said(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    made = tmp_path / "table"
    made.mkdir()
    yield made


def locked_elsewhere(path: Path) -> bool:
    """Whether another holder has the folder locked (a lock of our own, not kept)."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops the probe's lock
    return False


# ---------------------------------------------------------------- across processes


def test_two_processes_take_the_lock_one_after_the_other(
        folder: Path, tmp_path: Path, started: list[subprocess.Popen[bytes]]) -> None:
    log, go_a, go_b = tmp_path / "log", tmp_path / "go-a", tmp_path / "go-b"
    go_b.touch()  # the second lets go as soon as it has the lock
    first = holder(started, folder, log, go_a, "a")
    until(lambda: said(log) == ["a in"], "the first process locked the folder")
    second = holder(started, folder, log, go_b, "b")
    until(lambda: "b waiting" in said(log), "the second process waited")
    assert said(log) == ["a in", "b waiting"]  # not in while the first holds it
    go_a.touch()
    assert first.wait(20) == 0 and second.wait(20) == 0
    assert said(log) == ["a in", "b waiting", "a out", "b in", "b out"]


def test_the_waiting_callback_is_told_the_folder_when_blocked(
        folder: Path, tmp_path: Path, started: list[subprocess.Popen[bytes]]) -> None:
    log, go = tmp_path / "log", tmp_path / "go"
    other = holder(started, folder, log, go, "other")
    until(lambda: said(log) == ["other in"], "the other process locked the folder")
    told: list[str] = []

    def waiting(where: str) -> None:
        told.append(where)
        go.touch()  # the other process lets go once we are waiting

    held = FolderLocks(waiting)
    try:
        held.acquire([str(folder)])
        assert told == [os.path.realpath(folder)]
        assert said(log) == ["other in", "other out"]  # we have it once the other let go
        assert held.holds(str(folder))
    finally:
        held.release()
    assert other.wait(20) == 0


def test_the_waiting_callback_is_not_called_when_the_folder_is_free(folder: Path) -> None:
    told: list[str] = []
    held = FolderLocks(told.append)
    try:
        held.acquire([str(folder)])
        assert told == [] and locked_elsewhere(folder)
    finally:
        held.release()
    assert not locked_elsewhere(folder)


# ---------------------------------------------------------------- names of a folder


def test_a_folder_by_two_names_is_one_lock(folder: Path, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(folder)
    held = FolderLocks()
    try:
        held.acquire([str(link), str(folder), str(folder / ".")])
        assert list(held.held) == [os.path.realpath(folder)]
        assert held.holds(str(link)) and held.holds(str(folder))
        assert locked_elsewhere(link)
        held.acquire([str(link)])  # already held: nothing more
        assert len(held.held) == 1
    finally:
        held.release()
    assert held.held == {} and not held.holds(str(link)) and not locked_elsewhere(folder)


def test_folders_are_locked_in_sorted_order_and_released_together(tmp_path: Path) -> None:
    names = ["c", "a", "b"]
    for name in names:
        (tmp_path / name).mkdir()
    held = FolderLocks()
    try:
        held.acquire([str(tmp_path / name) for name in names])
        assert list(held.held) == [os.path.realpath(tmp_path / n) for n in sorted(names)]
        assert all(locked_elsewhere(tmp_path / name) for name in names)
    finally:
        held.release()
    assert not any(locked_elsewhere(tmp_path / name) for name in names)


def test_a_folder_not_held_is_not_held(folder: Path, tmp_path: Path) -> None:
    held = FolderLocks()
    assert not held.holds(str(folder)) and not held.holds(str(tmp_path / "missing"))


def test_a_missing_folder_is_a_bad_file(tmp_path: Path) -> None:
    held = FolderLocks()
    with pytest.raises(BadFile, match="the folder does not exist") as refused:
        held.acquire([str(tmp_path / "missing")])
    assert refused.value.path == os.path.realpath(tmp_path / "missing")
    assert held.held == {}


def test_a_file_is_no_folder_to_lock(tmp_path: Path) -> None:
    (tmp_path / "bag.toml").write_text("[bag]\n")
    with pytest.raises(BadFile, match="is not a folder"):
        FolderLocks().acquire([str(tmp_path / "bag.toml")])
