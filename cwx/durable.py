"""Durable writes: folder locks, atomic replaces, and a redo record for multi-file changes.

Every change takes an exclusive `flock` on each folder it touches, in sorted
order so two commands can never wait on each other. A folder is never replaced,
so its lock is never stranded on an old inode the way a lock on the data file
would be. Under the locks a change writes every new file beside its target as
a synced temporary file, then a redo record naming them (in every folder
involved), then replaces the targets, appends the journal line and deletes the
record. A command killed at any point leaves either temporary files that no
record names (swept away by the next command) or a record that the next
command in any of those folders rolls forward before doing its own work, so a
character and a bag are never left half changed.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from cwx.errors import BadFile, WriteFailed

TEMP_SUFFIX = ".cwx-tmp"
REDO_PREFIX = ".cwx-redo-"
# For the crash tests only. PAUSE_HOOK: a path to create, after which the process
# waits between the first and second replace of a change, to be killed there.
# STEP_HOOK: seconds to wait after each step of a commit, so that kills at random
# moments land inside the commit rather than in Python's start-up.
PAUSE_HOOK = "CWX_TEST_PAUSE_BETWEEN_REPLACES"
STEP_HOOK = "CWX_TEST_STEP_SECONDS"


class Replacement(NamedTuple):
    """New bytes bound for `target` (a real path, never a symlink)."""

    target: str
    data: bytes
    mode: int | None  # the permission bits to keep; None for a new file


class JournalLine(NamedTuple):
    """One event for the journal at `path`, encoded and ending in a newline."""

    path: str
    line: bytes


class FolderLocks:
    """Exclusive locks on folders, taken in sorted order and released together."""

    def __init__(self) -> None:
        self.held: dict[str, int] = {}

    def acquire(self, folders: Iterable[str]) -> None:
        for folder in sorted(set(folders) - set(self.held)):
            try:
                fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
            except FileNotFoundError:
                raise BadFile("the folder does not exist; create it first", path=folder) from None
            except NotADirectoryError:
                raise BadFile("is not a folder", path=folder) from None
            except PermissionError:
                raise BadFile("cwx may not open this folder (permission denied)",
                              path=folder) from None
            _wait_for_lock(fd, folder)
            self.held[folder] = fd

    def release(self) -> None:
        for fd in self.held.values():
            os.close(fd)  # closing drops the flock
        self.held.clear()


def _wait_for_lock(fd: int, folder: str) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    if sys.stderr.isatty():
        print(f"cwx: waiting for another cwx command in {folder} ...", file=sys.stderr)
    fcntl.flock(fd, fcntl.LOCK_EX)


class Redo(NamedTuple):
    """What a change will do once it starts replacing files: enough to finish it."""

    replace: tuple[tuple[str, str], ...]  # (temporary file, target)
    journal: JournalLine | None
    journal_size: int  # the journal's size before the line: recovery judges by size alone
    name: str  # the record's file name, the same in every folder it is written to

    def folders(self) -> set[str]:
        paths = [target for _, target in self.replace]
        if self.journal:
            paths.append(self.journal.path)
        return {os.path.dirname(path) for path in paths}

    def encode(self) -> bytes:
        journal = [self.journal.path, self.journal.line.decode()] if self.journal else None
        return json.dumps({"replace": self.replace, "journal": journal,
                           "journal_size": self.journal_size}).encode()

    @classmethod
    def decode(cls, data: bytes, name: str) -> Redo:
        fields = json.loads(data)
        journal = fields["journal"]
        return cls(
            tuple((str(temp), str(target)) for temp, target in fields["replace"]),
            JournalLine(str(journal[0]), str(journal[1]).encode()) if journal else None,
            int(fields["journal_size"]),
            name,
        )


def settle_folders(locks: FolderLocks, folders: Iterable[str]) -> None:
    """Lock `folders`, finish any change a killed command left behind, sweep its litter."""
    wanted = set(folders)
    while True:
        locks.acquire(wanted)
        pending = {redo.name: redo for folder in sorted(wanted) for redo in _pending(folder)}
        needed = set().union(*(redo.folders() for redo in pending.values()))
        if needed <= set(locks.held):
            break
        # A pending change reaches folders we do not hold: start over, in sorted order.
        locks.release()
        wanted |= needed
    try:
        for redo in pending.values():
            _roll_forward(redo)
        for folder in sorted(wanted):
            _sweep(folder)
    except OSError as error:
        raise _write_failed(error, "could not finish a change an interrupted cwx command "
                                   "left; fix the problem and run cwx again") from None


def commit(replacements: Sequence[Replacement], journal: JournalLine | None) -> None:
    """Replace every target and append the journal line: all of it, or after a crash none
    and then (rolled forward by the next command) all of it."""
    several = len(replacements) + (journal is not None) > 1
    temps: list[str] = []
    written: list[str] = []
    step = _test_step()
    try:
        for item in replacements:
            temps.append(_write_temp(item))
            step()
        redo = Redo(tuple(zip(temps, (item.target for item in replacements), strict=True)),
                    journal, _size(journal.path) if journal else 0,
                    f"{REDO_PREFIX}{os.urandom(6).hex()}.json")
        if several:
            for folder in sorted(redo.folders()):
                written.append(_write_record(folder, redo))
                step()
    except OSError as error:
        for path in temps + written:
            with contextlib.suppress(OSError):
                os.unlink(path)
        raise _write_failed(error, "the files are unchanged") from None
    # The change is decided: from here a failure is rolled forward by the next command.
    try:
        for number, (temp, target) in enumerate(redo.replace):
            os.replace(temp, target)
            step()
            if number == 0 and len(redo.replace) > 1 and (hook := os.environ.get(PAUSE_HOOK)):
                _pause_for_test(hook)
        for folder in {os.path.dirname(target) for _, target in redo.replace}:
            _sync_folder(folder)
        if journal is not None:
            _append(journal)
            step()
        for path in written:
            os.unlink(path)
            step()
    except OSError as error:
        raise _write_failed(error, "the next cwx command in this folder will finish it") from None


def _write_temp(item: Replacement) -> str:
    folder, name = os.path.split(item.target)
    temp = os.path.join(folder, f".{name}.{os.urandom(4).hex()}{TEMP_SUFFIX}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if item.mode is None
                 else item.mode)
    try:
        if item.mode is not None:
            os.fchmod(fd, item.mode)  # the umask must not narrow a file's own mode
        _write_all(fd, item.data)
        os.fsync(fd)
    except OSError:
        os.close(fd)
        os.unlink(temp)
        raise
    os.close(fd)
    return temp


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _write_record(folder: str, redo: Redo) -> str:
    path = os.path.join(folder, redo.name)
    os.replace(_write_temp(Replacement(path, redo.encode(), None)), path)
    _sync_folder(folder)
    return path


def _pending(folder: str) -> list[Redo]:
    """Redo records a killed command left in `folder`."""
    found = []
    with contextlib.suppress(OSError):
        for name in sorted(os.listdir(folder)):
            if name.startswith(REDO_PREFIX) and name.endswith(".json"):
                path = os.path.join(folder, name)
                with contextlib.suppress(OSError, ValueError, KeyError, TypeError, IndexError), \
                        open(path, "rb") as file:
                    found.append(Redo.decode(file.read(), name))
    return found


def _roll_forward(redo: Redo) -> None:
    for temp, target in redo.replace:
        if os.path.exists(temp):
            os.replace(temp, target)
            _sync_folder(os.path.dirname(target))
    if redo.journal:
        _finish_journal(redo.journal, redo.journal_size)
    for folder in redo.folders():
        with contextlib.suppress(FileNotFoundError):
            os.unlink(os.path.join(folder, redo.name))


def _finish_journal(entry: JournalLine, before: int) -> None:
    """Make the journal its first `before` bytes and then this line, judging by sizes alone:
    the journal is never read, however long the campaign."""
    size = _size(entry.path)
    if size == before + len(entry.line):
        return  # the line was written before the kill
    if size > before:
        os.truncate(entry.path, before)  # a line cut short by the kill
    _append(entry)


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except FileNotFoundError:
        return 0


def _sweep(folder: str) -> None:
    """Delete temporary files a killed command left; we hold the folder, so none is live."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name.endswith(TEMP_SUFFIX):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, name))


def _append(entry: JournalLine) -> None:
    fd = os.open(entry.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        _write_all(fd, entry.line)
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: str) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _test_step() -> Callable[[], None]:
    seconds = float(os.environ.get(STEP_HOOK) or 0)
    return (lambda: time.sleep(seconds)) if seconds else (lambda: None)


def _pause_for_test(flag: str) -> None:
    with open(flag, "w"):
        pass
    time.sleep(60)


def _write_failed(error: OSError, outcome: str) -> WriteFailed:
    reason = error.strerror or str(error)
    return WriteFailed(f"could not write ({reason}); {outcome}", path=error.filename)
