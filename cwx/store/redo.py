"""The redo record: what a decided change still has to do, written into every folder the
change touches (durable.py says when), and read back as untrusted input.

A record is input like any other file. cwx runs only one it can prove this machine
wrote: each record carries a mark, a keyed hash of its contents under a key that lives
in this user's state folder (never in a campaign), and one git tracks is never run
whatever it says, since another clone may have pushed it. A record cwx can run must
still name only cwx's own temporary files, beside their targets, in folders that each
hold the very same record. Anything else is refused and left for a person.
"""

from __future__ import annotations

import os
import re
import stat
import zlib

from cwx.base import digests
from cwx.base.errors import BadFile
from cwx.base.record import Record
from cwx.journal.lines import dumps

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

TEMP_SUFFIX = ".cwx-tmp"


REDO_PREFIX = ".cwx-redo-"


REDO_SUFFIX = ".json"


JOURNAL = "journal.jsonl"


# 3: the mark of the machine that wrote it. Older ones are never run: 2 (cwx 0.2) has no
# mark, 1 (cwx 0.1) no fingerprints of the old files either.
RECORD_VERSION = 3


MAX_RECORD = 8 << 20  # files of at most 64 KiB each and a journal line of at most 1 MiB, escaped


# Patterns, compiled where first needed (re caches them): most commands meet no file of
# these names, and compiling one costs a command about a million instructions.
_TEMP_NAME = r"^\.(.+)\.[0-9a-f]{8}\.cwx-tmp$"
_RECORD_NAME = r"^\.cwx-redo-[0-9a-f]{12}\.json$"
_FINGERPRINT = r"^[0-9]+:[0-9a-f]{8}$"


def temp_target(name: str) -> str | None:
    """The file a temporary file of cwx's named `name` is for (None: not one of cwx's)."""
    if not name.endswith(TEMP_SUFFIX):
        return None
    found = re.match(_TEMP_NAME, name)
    return found.group(1) if found else None


class JournalLine(Record):
    """One event for the journal at `path`: one JSON object and a newline."""

    path: str
    line: bytes


class Pending(Record):
    temp: str
    target: str
    old: str | None  # fingerprint of the bytes the change was computed from; None: no file


class Redo(Record):
    """What a decided change still has to do: enough to finish it, or to see it is not ours."""

    command: str
    replace: tuple[Pending, ...]
    journal: JournalLine | None
    journal_size: int  # the journal's size before the line
    name: str  # the record's file name, the same in every folder it is written to

    def folders(self) -> set[str]:
        paths = [pending.target for pending in self.replace]
        if self.journal:
            paths.append(self.journal.path)
        return {os.path.dirname(path) for path in paths}

    def encode(self) -> bytes:
        journal = [self.journal.path, self.journal.line.decode()] if self.journal else None
        fields: dict[str, Any] = {"redo": RECORD_VERSION, "command": self.command,
                                  "replace": [list(p) for p in self.replace],
                                  "journal": journal, "journal_size": self.journal_size}
        fields["mark"] = mark(fields)
        return dumps(fields, ascii=True).encode()


# ---------------------------------------------------------------- the machine's mark

KEY_FILE = os.path.join("cwx", "redo.key")


def _state_folder() -> str:
    """The user's folder for state that is no one else's (XDG_STATE_HOME, else
    ~/.local/state): never a campaign, which git carries to other clones."""
    return os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "state")


def _key(make: bool) -> bytes | None:
    """This user's key on this machine; made at the first record (when `make`). None when
    there is none and none can be kept: records are then written unmarked, and a person
    finishes a killed change."""
    path = os.path.join(_state_folder(), KEY_FILE)
    try:
        key = read_plain(path, 64)
    except FileNotFoundError:
        if not make:
            return None
        key = os.urandom(32)
        try:
            os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW |
                         os.O_CLOEXEC, 0o600)
        except FileExistsError:  # another cwx made it meanwhile: that one is the key
            return _key(make=False)
        except OSError:
            return None
        try:
            os.write(fd, key)
            os.fsync(fd)
        finally:
            os.close(fd)
        return key
    except OSError:
        return None
    return key if len(key) == 32 else None


def mark(fields: dict[str, Any], *, make: bool = True) -> str | None:
    """The mark of a record's fields (all but the mark itself): a keyed BLAKE2 hash only
    a holder of this user's key can make."""
    key = _key(make)
    if key is None:
        return None
    body = dumps({k: v for k, v in fields.items() if k != "mark"}, ascii=True).encode()
    return digests.blake2b(body, key=key, digest_size=32)  # no OpenSSL loaded (digests.py)


class Untrusted(BadFile):
    """A redo record cwx did not write (or cannot finish safely): never executed."""


def fingerprint(data: bytes) -> str:
    """Enough to notice that a file changed: its length and CRC-32."""
    return f"{len(data)}:{zlib.crc32(data):08x}"


class Found(Record):
    """A redo record as found in one folder."""

    path: str
    raw: bytes
    redo: Redo | None  # None: not a record this cwx can finish
    problem: str | None


def inspect(folder: str) -> list[tuple[str, str]]:
    """What `cwx check` says of the redo records in `folder` (path, message): each one cwx
    will not run, and each interrupted change still waiting to be finished or undone."""
    told = []
    for found in records(os.path.realpath(folder)):
        if found.problem or found.redo is None:
            told.append((found.path, said(found.problem)))
        else:
            state = "finished" if complete(found) else "undone"
            told.append((found.path, f"an interrupted `cwx {found.redo.command}` waits to be "
                                     f"{state}; the next cwx command that changes files here "
                                     "does it"))
    return told


def said(problem: str | None) -> str:
    """What is said of a record cwx will not run: why, and what a person may do."""
    if problem and "move it back" in problem:
        return problem  # a moved campaign's own record: it says what to do
    return f"{problem}; cwx will not run it. Look at it, and delete it when you know where " \
           "it came from"


def records(folder: str) -> list[Found]:
    """The redo records in `folder`, read and checked."""
    try:
        names = sorted(n for n in os.listdir(folder) if n.startswith(REDO_PREFIX))
    except OSError:
        return []
    found = []
    for name in names:
        path = os.path.join(folder, name)
        try:
            raw = read_plain(path, MAX_RECORD)
        except OSError as error:
            found.append(Found(path, b"", None, f"a redo record cwx cannot read "
                                                f"({error.strerror})"))
            continue
        redo, problem = _decode(raw, name)
        if redo is not None and problem is None:
            problem = _untrusted(redo, folder) or _tracked(path)
        found.append(Found(path, raw, redo, problem))
    return found


def read_plain(path: str, limit: int) -> bytes:
    """A regular file's bytes, never through a link, at most `limit` of them."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(0, "not a regular file", path)
        if info.st_size > limit:
            raise OSError(0, "too large to be one", path)
        return os.read(fd, limit + 1)
    finally:
        os.close(fd)


def _decode(raw: bytes, name: str) -> tuple[Redo | None, str | None]:
    if not re.match(_RECORD_NAME, name):
        return None, "a file named like a redo record, which cwx never names so"
    try:
        import json

        fields = json.loads(raw)
    except (ValueError, RecursionError):
        return None, "a redo record that is not valid JSON"
    if not isinstance(fields, dict):
        return None, "a redo record that is not a JSON object"
    if fields.get("redo") != RECORD_VERSION:
        return None, ("a redo record from an older cwx, which cannot tell who wrote it or "
                      "whether its files were edited since")
    written = fields.get("mark")
    if written is None or not isinstance(written, str) or \
            written != mark(fields, make=False):
        return None, ("a redo record this machine cannot prove it wrote (it carries no mark "
                      "of this user's key: another clone's, another user's, or planted)")
    try:
        replace = tuple(_pending(item) for item in fields["replace"])
        journal, line = fields["journal"], None
        if journal is not None:
            if not (isinstance(journal, list) and len(journal) == 2 and
                    all(isinstance(part, str) for part in journal)):
                raise TypeError
            line = JournalLine(journal[0], journal[1].encode())
        size, command = fields["journal_size"], fields["command"]
        if not isinstance(size, int) or isinstance(size, bool) or size < 0 or \
                not isinstance(command, str) or len(command) > 100:
            raise TypeError
    except (KeyError, TypeError, ValueError, UnicodeEncodeError):
        return None, "a redo record of a shape cwx never writes"
    return Redo(command, replace, line, size, name), None


def _pending(item: Any) -> Pending:
    if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str) and
            isinstance(item[1], str) and (item[2] is None or isinstance(item[2], str))):
        raise TypeError
    return Pending(item[0], item[1], item[2])


def _untrusted(redo: Redo, found_in: str) -> str | None:
    """Why this record is not one cwx wrote, or None when it could be."""
    folders = redo.folders()
    if found_in not in folders:
        if not any(os.path.isdir(folder) for folder in folders):
            return (f"a redo record of an interrupted `cwx {redo.command}` in "
                    f"{' and '.join(sorted(folders))}, which is not there any more (was the "
                    "campaign moved?): move it back and run cwx there to finish the change, "
                    "or give the change up by deleting this record and the .cwx-tmp files "
                    "beside it")
        return "a redo record naming no file in its own folder"
    for folder in folders:
        if not _canonical(folder):
            return f"a redo record naming a file in {folder}, not a folder's real path"
    for pending in redo.replace:
        folder, name = os.path.split(pending.target)
        if temp_target(os.path.basename(pending.temp)) != name or \
                os.path.dirname(pending.temp) != folder:
            return f"a redo record naming {pending.temp}, not a temporary file of cwx's beside " \
                   f"{pending.target}"
        if pending.old is not None and not re.match(_FINGERPRINT, pending.old):
            return "a redo record of a shape cwx never writes"
    if redo.journal:
        line = redo.journal.line
        if os.path.basename(redo.journal.path) != JOURNAL:
            return f"a redo record that would append to {redo.journal.path}, which is no journal"
        if not line.endswith(b"\n") or b"\n" in line[:-1] or len(line) > MAX_RECORD:
            return "a redo record whose journal line is not one line"
    if not redo.replace and not redo.journal:
        return "a redo record with nothing to do"
    return None


def _tracked(path: str) -> str | None:
    """A record git tracks came with the repository (another clone pushed it): however
    it was made, it is not this machine's change waiting here."""
    from cwx.git import repo

    if repo.tracks(path):
        return "a redo record git tracks, which cwx never commits (a clone pushed it)"
    return None


def _canonical(folder: str) -> bool:
    return os.path.isabs(folder) and os.path.normpath(folder) == folder and \
        os.path.realpath(folder) == folder


def complete(found: Found) -> bool:
    """Whether every folder of the change holds this record: whether it was decided. Only
    a copy that is not there says no; one cwx cannot read says nothing, and is an error."""
    assert found.redo is not None
    for folder in found.redo.folders():
        path = os.path.join(folder, found.redo.name)
        try:
            if read_plain(path, MAX_RECORD) != found.raw:
                return False
        except (FileNotFoundError, NotADirectoryError):
            return False
        except OSError as error:
            raise BadFile(f"cwx cannot tell whether an interrupted `cwx {found.redo.command}` "
                          f"was decided: this copy of its record cannot be read "
                          f"({error.strerror}); nothing was changed. Let cwx read it (or ask "
                          "its owner to run cwx there)", path=path) from None
    return True


def fingerprint_of(path: str) -> str | None:
    try:
        return fingerprint(read_plain(path, MAX_RECORD))
    except FileNotFoundError:
        return None
    except OSError:
        return "unreadable"
