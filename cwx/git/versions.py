"""A journal's versions in git's history: the commits that touched it, and its blobs,
read through one `git cat-file --batch`. What grows.py proves, signing.py verifies and
gmlist.py walks, read alike."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

from cwx.base.errors import CwxError
from cwx.git import repo
from cwx.git.repo import Repository


class Blobs:
    """The blobs of one `git cat-file --batch`, read as they are asked for (a few kept)."""

    KEPT = 8

    def __init__(self, clone: Repository) -> None:
        self.clone = clone
        self.process: subprocess.Popen[bytes] | None = None  # started by the first blob read
        self.kept: dict[str, bytes] = {}

    def __call__(self, blob: str) -> bytes:
        if not blob:
            return b""  # no journal in that commit
        if blob in self.kept:
            return self.kept[blob]
        if self.process is None:
            self.process = repo.reader(self.clone, "cat-file", "--batch")
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(blob.encode() + b"\n")
        self.process.stdin.flush()
        header = self.process.stdout.readline().split()
        if len(header) != 3:
            raise CwxError(f"git cat-file could not read blob {blob}")
        size = int(header[2])
        data = self.process.stdout.read(size + 1)[:size]
        if len(self.kept) >= self.KEPT:
            del self.kept[next(iter(self.kept))]
        self.kept[blob] = data
        return data

    def close(self) -> None:
        if self.process is None:
            return
        if self.process.stdin is not None:
            self.process.stdin.close()
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
