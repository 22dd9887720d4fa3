"""A journal's versions in git's history: the commits that touched it, and its blobs and
their ids, read through one `git cat-file --batch-command`. What grows.py proves,
signing.py verifies and gmlist.py walks, read alike."""

from __future__ import annotations

import contextlib
import re
import subprocess
from collections.abc import Iterator

from cwx.base.errors import CwxError
from cwx.git import repo
from cwx.git.repo import Repository

# An object's answer to `info` or `contents`: its id, type and size (else it is missing,
# or its name ambiguous: "NAME missing", "NAME ambiguous").
_FOUND = re.compile(rb"([0-9a-f]{40}|[0-9a-f]{64}) ([a-z]+) ([0-9]+)\n")
_CHUNK = 2048  # bytes of questions sent before their answers are read: never a full pipe
_USAGE = 129  # what git exits with on an option it does not know


class Blobs:
    """The blobs of one `git cat-file --batch-command`, read as they are asked for (a few
    kept), and the journal's blob ids (`ids`) asked of the same git. A git before 2.36
    (no --batch-command) is asked as it was before: blobs through one `--batch`, ids by a
    `--batch-check` each."""

    KEPT = 8
    commands = True  # whether git takes --batch-command (False once one refused it)

    def __init__(self, clone: Repository) -> None:
        self.clone = clone
        self.process: subprocess.Popen[bytes] | None = None  # started by the first question
        self.kept: dict[str, bytes] = {}
        self.answered = False  # git answered a command: it takes them
        self.legacy = not Blobs.commands

    def __call__(self, blob: str) -> bytes:
        if not blob:
            return b""  # no journal in that commit
        if blob in self.kept:
            return self.kept[blob]
        found = self._contents(blob)
        if found is None:
            raise CwxError(f"git cat-file could not read blob {blob}")
        data = found[1]
        if len(self.kept) >= self.KEPT:
            del self.kept[next(iter(self.kept))]
        self.kept[blob] = data
        return data

    def named(self, name: str) -> bytes | None:
        """The blob `name` names (`COMMIT:PATH`), as `git cat-file blob` shows it; None
        where it names none (no such file, not a blob)."""
        asked = not self.legacy and "\n" not in name  # a name of two lines is no command
        found = self._contents(name) if asked else None
        if found is not None and found[0] == b"blob":
            return found[1]
        if asked and found is None:
            return None  # missing, or ambiguous: cat-file finds none either
        # Not asked, or of another type, which git may peel (a tag of a blob): cat-file's.
        shown = repo.run(self.clone, "cat-file", "blob", name)
        return shown.stdout if shown.returncode == 0 else None

    def ids(self, commits: list[str], path: str) -> dict[str, str]:
        """Each commit's blob id of `path` ("" where the commit has none), as blob_ids
        says it, asked of this reader's git a few at a time."""
        if self.legacy:
            return blob_ids(self.clone, commits, path)
        found: dict[str, str] = {}
        asked = [commit for commit in commits if "\n" not in f"{commit}:{path}"]
        at = 0
        while at < len(asked):
            chunk: list[str] = []
            size = 0
            while at < len(asked) and (not chunk or size + len(asked[at]) + len(path) < _CHUNK):
                chunk.append(asked[at])
                size, at = size + len(asked[at]) + len(path) + 7, at + 1
            told = self._ask(b"".join(f"info {commit}:{path}\n".encode(
                "utf-8", "surrogateescape") for commit in chunk), len(chunk))
            if told is None:  # git takes no commands (only ever at the first): as before
                return blob_ids(self.clone, commits, path)
            for commit, answer in zip(chunk, told, strict=True):
                header = _FOUND.fullmatch(answer)
                found[commit] = header[1].decode() if header and header[2] == b"blob" else ""
        # A name git reads as two questions is none.
        return {commit: found.get(commit, "") for commit in commits}

    def _contents(self, name: str) -> tuple[bytes, bytes] | None:
        """The type and contents of the object `name` names; None: none."""
        if self.legacy:
            return self._legacy(name)
        told = self._ask(f"contents {name}\n".encode("utf-8", "surrogateescape"), 1)
        if told is None:
            return self._legacy(name)
        return self._body(told[0])

    def _legacy(self, name: str) -> tuple[bytes, bytes] | None:
        if self.process is None:
            self.process = repo.reader(self.clone, "cat-file", "--batch")
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(name.encode("utf-8", "surrogateescape") + b"\n")
            self.process.stdin.flush()
        except OSError:
            return None
        assert self.process.stdout is not None
        return self._body(self.process.stdout.readline())

    def _body(self, header: bytes) -> tuple[bytes, bytes] | None:
        """What follows an answer's `header`: the object's type and contents, read whole;
        None where there is none (missing, ambiguous). A short read is git gone: an error."""
        found = _FOUND.fullmatch(header)
        if found is None:
            if not header.endswith(b"\n"):
                raise CwxError("git cat-file stopped answering")
            return None
        assert self.process is not None and self.process.stdout is not None
        size = int(found[3])
        data = self.process.stdout.read(size + 1)
        if len(data) != size + 1 or not data.endswith(b"\n"):
            raise CwxError("git cat-file stopped answering")
        return found[2], data[:size]

    def _ask(self, questions: bytes, count: int) -> list[bytes] | None:
        """`count` commands sent to git (flushed), and the first line of each answer (a
        `contents` answer's object still to read); None where git takes no commands
        (its first answer never came): this reader then asks as before."""
        if self.process is None:
            self.process = repo.reader(self.clone, "cat-file", "--batch-command", "--buffer")
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(questions + b"flush\n")
            self.process.stdin.flush()
            first = self.process.stdout.readline()
        except OSError:
            first = b""
        if not first and not self.answered:
            self.close()
            # A git that knows no --batch-command: no reader in this process asks it again.
            if self.process.returncode == _USAGE:
                Blobs.commands = False
            self.process, self.legacy = None, True
            return None
        self.answered = True
        assert self.process.stdout is not None
        # An `info` answer is one line; `contents` is asked alone, its object read after.
        lines = [first, *(self.process.stdout.readline() for _ in range(count - 1))]
        if not all(line.endswith(b"\n") for line in lines):
            raise CwxError("git cat-file stopped answering")
        return lines

    def close(self) -> None:
        if self.process is None:
            return
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):  # git gone: nothing left to say
                    pipe.close()
        self.process.wait()


def blob_ids(clone: Repository, commits: list[str], path: str) -> dict[str, str]:
    """Each commit's journal blob id ("" where the commit has no journal)."""
    if not commits:
        return {}
    asked = "".join(f"{commit}:{path}\n" for commit in commits).encode()
    done = repo.run(clone, "cat-file", "--batch-check=%(objectname) %(objecttype)",
                    input=asked)
    found: dict[str, str] = {}
    for commit, answer in zip(commits, done.stdout.decode().splitlines(), strict=False):
        name, _, kind = answer.partition(" ")
        found[commit] = name if kind == "blob" else ""
    return found


def walked(clone: Repository, path: str, since: str | None,
            head: str = "HEAD") -> Iterator[tuple[str, list[str]]]:
    """Each commit (oldest first) of `head`'s history that touched the journal, with its
    parents in the journal's history (git's own parent rewriting: a commit between them
    left the journal as it was), leaving out what `since` holds."""
    done = repo.run(clone, "rev-list", "--full-history", "--parents", "--topo-order",
                    "--reverse", "--ignore-missing", head, *([f"^{since}"] if since else []),
                    "--", f":(literal){path}")
    for line in done.stdout.decode().splitlines():
        commit, *parents = line.split()
        yield commit, parents
