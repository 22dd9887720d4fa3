"""Durable changes: folder locks, atomic replaces, and redo records.

Every change takes an exclusive `flock` on each folder it touches, in one sorted order
(of real paths, so a folder named twice through a link is locked once), so two commands
never wait on each other. A folder is never replaced, so its lock never strands on an
old inode the way a lock on the data file would.

Under the locks a change with a journal line, or of more than one file, runs in three steps:

1. every new file is written beside its target as a synced temporary file;
2. a redo record naming them, the bytes each target was computed from and the journal
   line is written into every folder the change touches, one folder after another. The
   change is *decided* once every folder holds its copy;
3. the targets are replaced, the journal line is appended, and the copies are deleted.

A command killed in step 1 or 2 leaves a record that some folder lacks: the next
command that changes files there rolls it back (nothing had been replaced). Killed in
step 3, the record is in every folder, and the next command that changes files in any
of them rolls it forward before its own work, unless a target has been changed since
(a hand edit is never overwritten: that is refused, with what to do). Commands that only
read never finish or undo another command's change; they are told one is waiting.

A redo record is input like any other file: one committed to a shared campaign is
checked to name only cwx's own temporary files, beside their targets, in folders that
each hold the very same record. Anything else is refused and left for a person.

This layer never prints: what to say while waiting for a lock is the caller's, and
what it finds is returned as notes or raised as errors. The locks are locks.py's; the
redo record's form, and the checks that tell cwx's own from a planted one, redo.py's.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Sequence

from cwx.base.errors import BadFile, Conflict, WriteFailed
from cwx.base.record import Record
from cwx.store.locks import FolderLocks
from cwx.store.redo import (
    MAX_RECORD,
    REDO_PREFIX,
    REDO_SUFFIX,
    TEMP_SUFFIX,
    Found,
    JournalLine,
    Pending,
    Redo,
    Untrusted,
    complete,
    fingerprint,
    fingerprint_of,
    read_plain,
    records,
    said,
    temp_target,
)

# The test seam: CWX_TEST_CHECKPOINT="sleep SECONDS" waits at every checkpoint of a commit
# (so that random kills land inside it), "pause NAME[#N] FLAG" creates FLAG at the Nth
# checkpoint NAME and waits there to be killed. Read once, only by `checkpoint`.
CHECKPOINT_HOOK = "CWX_TEST_CHECKPOINT"


class Replacement(Record):
    """New bytes bound for `target` (a real path, never a symlink)."""

    target: str
    data: bytes
    mode: int | None  # the permission bits to set; None for a new file (the umask decides)
    old: bytes | None  # the bytes the change was computed from; None for a new file


# ---------------------------------------------------------------- the test seam

_hook: Callable[[str], None] | None = None
saved = 0  # changes this process committed: a late Ctrl-C must not say nothing changed


def checkpoint(name: str) -> None:
    """A named moment inside a commit, where the crash tests wait or kill."""
    global _hook
    if _hook is None:
        _hook = _hook_from(os.environ.get(CHECKPOINT_HOOK, ""))
    _hook(name)


def _hook_from(spec: str) -> Callable[[str], None]:
    words = spec.split()
    if len(words) == 2 and words[0] == "sleep":
        seconds = float(words[1])
        return lambda name: time.sleep(seconds)
    if len(words) == 3 and words[0] == "pause":
        wanted, _, nth = words[1].partition("#")
        flag, seen = words[2], {"count": 0}

        def pause(name: str) -> None:
            if name == wanted:
                seen["count"] += 1
                if seen["count"] == int(nth or 1):
                    with open(flag, "w"):
                        pass
                    time.sleep(60)

        return pause
    return lambda name: None


# ---------------------------------------------------------------- settling


def settle(locks: FolderLocks, folders: Iterable[str], *, finish: bool,
           rebase: Rebase | None = None) -> list[str]:
    """Lock `folders`. When `finish`, first complete (or undo) what a killed command left
    and sweep its temporary files; otherwise leave it be. Returns what the caller may
    want to tell the user (a change waiting, a record cwx will not run)."""
    wanted = {os.path.realpath(folder) for folder in folders}
    while True:
        locks.acquire(wanted)
        waiting = [found for folder in sorted(locks.held) for found in records(folder)]
        needed: set[str] = set()
        for found in waiting:
            if found.redo and not found.problem and complete(found):
                needed |= found.redo.folders()
        if not finish or all(locks.holds(folder) for folder in needed):
            break
        # A decided change reaches folders we do not hold: start over, in sorted order.
        locks.release()
        wanted |= needed
    notes: list[str] = []
    seen: set[str] = set()
    for found in waiting:
        if found.redo and found.redo.name in seen:
            continue  # the same record, found in a second folder
        if found.redo:
            seen.add(found.redo.name)
        if found.problem or found.redo is None:
            message = said(found.problem)
            if finish:
                raise Untrusted(message, path=found.path)
            notes.append(f"{found.path}: {message}")
        elif not complete(found):
            if finish:
                _roll_back(found, set(locks.held))
        elif finish:
            try:
                _roll_forward(found.redo, rebase)
            except PermissionError as error:
                owner = os.lstat(found.path).st_uid
                raise _write_failed(error, f"an interrupted change by another user (uid "
                                           f"{owner}) waits here, and only they (or root) can "
                                           "finish it: ask them to run any cwx command that "
                                           "changes files here") from None
            except OSError as error:
                raise _write_failed(error, "could not finish a change an interrupted cwx "
                                           "command left; fix the problem and run cwx again") from None
        else:
            folders_named = " and ".join(sorted(found.redo.folders()))
            notes.append(f"an interrupted `cwx {found.redo.command}` waits to be finished in "
                         f"{folders_named}; the next cwx command that changes files there "
                         "finishes it")
    if finish:
        for folder in sorted(locks.held):
            _sweep(folder)
    return notes


def _roll_back(found: Found, held: set[str]) -> None:
    """A change killed before it was decided: nothing was replaced, so forget it. A record
    some folder lacks although part of its change was made (a folder moved away since)
    is never rolled back: that would keep half a change."""
    assert found.redo is not None
    waiting = [p for p in found.redo.replace if os.path.lexists(p.temp)]
    # A temporary file gone may have been swept (its target as the change found it) or
    # moved into place (its target changed): only the second is half a change.
    replaced = [p for p in found.redo.replace
                if not os.path.lexists(p.temp) and fingerprint_of(p.target) != p.old]
    if waiting and replaced:
        gone = [f for f in sorted(found.redo.folders())
                if not os.path.lexists(os.path.join(f, found.redo.name))]
        raise BadFile(f"an interrupted `cwx {found.redo.command}` is half made, and its record "
                      f"is missing from {' and '.join(gone)} (a folder moved or renamed?); "
                      "nothing was changed. Put the folder back and run cwx again to finish "
                      "it", path=found.path)
    for pending in waiting:
        if os.path.dirname(pending.temp) in held:
            with contextlib.suppress(OSError):
                os.unlink(pending.temp)
    for folder in sorted(found.redo.folders() & held):
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(folder, found.redo.name))


Rebase = Callable[[str, bytes, JournalLine], "bytes | None"]


def _roll_forward(redo: Redo, rebase: Rebase | None) -> None:
    """Finish a decided change. A target edited since is not overwritten: the change is
    made again on the edited file (`rebase`), or, where the edit touched it, refused."""
    _changing_files()
    waiting = [pending for pending in redo.replace if os.path.lexists(pending.temp)]
    rebased: dict[str, bytes] = {}
    for pending in waiting:
        if not stat.S_ISREG(os.lstat(pending.temp).st_mode):
            raise Untrusted("is not a temporary file cwx wrote; cwx will not move it into "
                            "place. Look at it, and delete it and the redo record "
                            f"{redo.name} beside it", path=pending.target)
        _still_writable(pending.target)
        if fingerprint_of(pending.target) == pending.old:
            continue
        now = _bytes_of(pending.target)
        remade = rebase(pending.target, now, redo.journal) \
            if rebase and redo.journal and now is not None else None
        if remade is None:
            raise Conflict(
                f"was edited after an interrupted `cwx {redo.command}` computed its change, "
                "in a value that change sets too, so cwx will not choose between them; "
                "nothing was changed. Put that value back as it was and run cwx again to "
                f"finish the change (the journal line waits in {redo.name})",
                path=pending.target)
        rebased[pending.target] = remade
    for pending in waiting:
        if pending.target in rebased:
            mode = stat.S_IMODE(os.stat(pending.target).st_mode)
            os.replace(_write_temp(pending.target, rebased[pending.target], mode),
                       pending.target)
            os.unlink(pending.temp)
        else:
            if os.path.lexists(pending.target):  # the mode it has now, not when computed
                os.chmod(pending.temp, stat.S_IMODE(os.stat(pending.target).st_mode))
            os.replace(pending.temp, pending.target)
    for folder in sorted({os.path.dirname(p.target) for p in waiting}):
        _sync_folder(folder)
    if redo.journal:
        _finish_journal(redo.journal, redo.journal_size)
    for folder in sorted(redo.folders()):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(os.path.join(folder, redo.name))


def _still_writable(target: str) -> None:
    """A file made read-only since the kill is not replaced behind its owner's back."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    if not mode & 0o222:
        raise WriteFailed("was made read-only after an interrupted cwx command; make it "
                          "writable (chmod u+w) to let cwx finish that change", path=target)


def _bytes_of(path: str) -> bytes | None:
    try:
        return read_plain(path, MAX_RECORD)
    except OSError:
        return None


def _finish_journal(entry: JournalLine, before: int) -> None:
    """Make sure the line follows the journal's first `before` bytes, reading only what
    was written after them: a line cut short by the kill is replaced, a line already
    there is left, and bytes another program added are never cut."""
    try:
        fd = os.open(entry.path, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        _append(entry)
        return
    try:
        size = os.fstat(fd).st_size
        if size > before:
            tail = os.pread(fd, min(size - before, len(entry.line) + 1), before)
            if tail.startswith(entry.line) or tail.startswith(b"\n" + entry.line):
                return
            if size - before <= len(entry.line) + 1 and (
                    entry.line.startswith(tail) or (b"\n" + entry.line).startswith(tail)):
                os.ftruncate(fd, before)
    finally:
        os.close(fd)
    _append(entry)


# ---------------------------------------------------------------- committing


def commit(replacements: Sequence[Replacement], journal: JournalLine | None,
           command: str) -> None:
    """Replace every target and append the journal line: all of it, or after a crash none
    and then (rolled forward by the next command that changes files there) all of it."""
    global saved
    _changing_files()
    with _shielded():
        _commit(replacements, journal, command)
        saved += 1


def _changing_files() -> None:
    """What git said of the work tree, kept for this command, asked again once cwx writes
    files there (a .gitattributes changes what git reads: git/repo.py, one_state)."""
    from cwx.git.repo import forget

    forget()


@contextlib.contextmanager
def _shielded() -> Iterator[None]:
    """Ctrl-C and a polite kill wait until the commit is over (it takes milliseconds), so
    a change is never left for the next command without need; a Ctrl-C that came too late
    to stop it is spent, and the command ends as it would have."""
    wanted = {signal.SIGINT, signal.SIGTERM}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, wanted)
    try:
        yield
    finally:
        if signal.SIGINT in signal.sigpending():
            signal.sigwait({signal.SIGINT})
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _commit(replacements: Sequence[Replacement], journal: JournalLine | None,
            command: str) -> None:
    for item in replacements:
        _replaceable(item.target)
    if journal is not None:
        _appendable(journal.path)
    temps: list[str] = []
    copies: list[str] = []
    try:
        for item in replacements:
            temps.append(_write_temp(item.target, item.data, item.mode))
            checkpoint("temp")
        redo = Redo(command,
                    tuple(Pending(temp, item.target, _old(item))
                          for temp, item in zip(temps, replacements, strict=True)),
                    journal, _size(journal.path) if journal else 0,
                    f"{REDO_PREFIX}{os.urandom(6).hex()}{REDO_SUFFIX}")
        if len(replacements) > 1 or journal is not None:
            record = redo.encode()
            for folder in sorted(redo.folders()):
                copies.append(_write_record(folder, redo.name, record))
                checkpoint("record")
    except OSError as error:
        _forget(temps + copies)
        raise _write_failed(error, "the files are unchanged") from None
    # Decided: from here a failure is finished by the next command that changes files.
    replaced = appended = 0
    try:
        for pending in redo.replace:
            os.replace(pending.temp, pending.target)
            replaced += 1
            checkpoint("replace")
        for folder in sorted({os.path.dirname(p.target) for p in redo.replace}):
            _sync_folder(folder)
        if journal is not None:
            appended = 1
            _append(journal)
            checkpoint("journal")
        for path in copies:
            os.unlink(path)
            checkpoint("forget")
    except OSError as error:
        if not replaced and _unappend(journal, redo.journal_size, appended) and \
                _forget(temps + copies):
            raise _write_failed(error, "the files are unchanged") from None
        folders = " and ".join(sorted(redo.folders()))
        raise _write_failed(error, f"the change is half made and waits in {redo.name}: the "
                                   f"next cwx command that changes files in {folders} "
                                   "finishes it") from None


def _unappend(journal: JournalLine | None, before: int, began: int) -> bool:
    """Cut what a failed append wrote (we hold the lock: no one else wrote after it)."""
    if journal is None or not began:
        return True
    try:
        if _size(journal.path) > before:
            os.truncate(journal.path, before)
    except OSError:
        return False
    return True


def _old(item: Replacement) -> str | None:
    return None if item.old is None else fingerprint(item.old)


def _replaceable(target: str) -> None:
    """Refuse, before anything is decided, a replace the folder's sticky bit forbids."""
    folder = os.path.dirname(target)
    try:
        where, info = os.stat(folder), os.lstat(target)
    except FileNotFoundError:
        return
    me = os.geteuid()
    if where.st_mode & stat.S_ISVTX and me not in (0, info.st_uid, where.st_uid):
        raise WriteFailed("belongs to another user in a shared folder (its sticky bit lets "
                          "only the owner replace it); nothing was changed. Ask its owner, "
                          "or copy it to a folder of your own", path=target)


def _appendable(path: str) -> None:
    """The journal is appended to in place: never through a link, never a device."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        raise BadFile("is a symbolic link; cwx never writes the journal through a link. "
                      "Replace the link with the journal itself", path=path)
    if not stat.S_ISREG(info.st_mode):
        raise BadFile("is not a regular file, so cwx cannot journal in it", path=path)
    if not os.access(path, os.W_OK):
        raise WriteFailed("is not writable; make it writable (chmod u+w) to let cwx journal "
                          "its changes; nothing was changed", path=path)


def _write_temp(target: str, data: bytes, mode: int | None) -> str:
    folder, name = os.path.split(target)
    temp = os.path.join(folder, f".{name}.{os.urandom(4).hex()}{TEMP_SUFFIX}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o666 if mode is None else mode & 0o777)
    try:
        if mode is not None:
            os.fchmod(fd, mode)  # the umask must not change a file's own mode
        _write_all(fd, data)
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


def _write_record(folder: str, name: str, record: bytes) -> str:
    path = os.path.join(folder, name)
    os.replace(_write_temp(path, record, None), path)
    _sync_folder(folder)
    return path


def _forget(paths: Iterable[str]) -> bool:
    """Delete what an undecided change wrote; whether all of it went."""
    gone = True
    for path in paths:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError:
            gone = False
    return gone


def _size(path: str) -> int:
    try:
        return os.lstat(path).st_size
    except FileNotFoundError:
        return 0


def _sweep(folder: str) -> None:
    """Delete temporary files a killed command left; we hold the folder, so none is live."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if temp_target(name) is not None:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, name))


def _append(entry: JournalLine) -> None:
    """Append the line; after a journal whose last line was cut short (a full disk, an
    editor), on a line of its own, so the new event is never glued to the fragment."""
    fd = os.open(entry.path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o666)
    try:
        size = os.fstat(fd).st_size
        torn = size > 0 and os.pread(fd, 1, size - 1) != b"\n"
        _write_all(fd, (b"\n" if torn else b"") + entry.line)
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: str) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_failed(error: OSError, outcome: str) -> WriteFailed:
    reason = error.strerror or str(error)
    path = error.filename
    if isinstance(path, str) and (target := temp_target(os.path.basename(path))):
        path = os.path.join(os.path.dirname(path), target)  # the file it was for
    return WriteFailed(f"could not write ({reason}); {outcome}", path=path)
