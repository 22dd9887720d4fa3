"""The commits this clone saw the table hold: each a remote's branch held as this clone
last fetched or pushed it, kept in its git folder (cwx/) where `git reflog expire`,
a fetch or a forced push never reaches (docs/rules.md, "The journal only grows").

A line the table had is never made anew after a new line: only a clone's own, never
pushed nor fetched, are (a rebase). Git's reflogs of the remotes' branches say which
commits the table had, until they are expired; this memory says it still. Only the
newest of a line of history is kept (a commit the table had holds its history).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from cwx.git import repo
from cwx.git.repo import FULL_ID, Repository


def _file(clone: Repository) -> str:
    return os.path.join(repo.git_folder(clone), "cwx", "table-held")


def _kept(clone: Repository) -> set[str]:
    try:
        with open(_file(clone), encoding="ascii", errors="replace") as file:
            return {line.strip() for line in file if FULL_ID.fullmatch(line.strip())}
    except OSError:
        return set()


def _tips(clone: Repository) -> set[str]:
    """Where each remote's branch stands now, as this clone last fetched or pushed it."""
    listed = repo.run(clone, "for-each-ref", "--format=%(objectname)", "refs/remotes/")
    return {name for name in listed.stdout.decode("ascii", "replace").split()
            if FULL_ID.fullmatch(name)}


def _commits(clone: Repository, names: Iterable[str]) -> list[str]:
    """Those of `names` this clone holds as commits (one asked may have been collected)."""
    asked = sorted(names)
    if not asked:
        return []
    told = repo.run(clone, "cat-file", "--batch-check=%(objectname) %(objecttype)",
                    input="".join(f"{name}\n" for name in asked).encode(
                        "utf-8", "surrogateescape"))
    return [name for name, _, kind in (line.partition(" ") for line in
                                       told.stdout.decode("ascii", "replace").splitlines())
            if kind == "commit" and FULL_ID.fullmatch(name)]


def note(clone: Repository, more: Iterable[str] = (), tips: set[str] | None = None) -> None:
    """The remotes' branches as they stand (and `more`, commits the table had too) kept
    with what this clone saw before: nothing written when nothing is new (one git call,
    none where the caller asked git for the `tips` already); else the newest of each line
    of history kept, by a temporary renamed over the file."""
    kept = _kept(clone)
    new = ((_tips(clone) if tips is None else tips) | set(more)) - kept
    if not new:
        return
    present = _newest(clone, sorted(kept | new))
    if present is None:  # one is no commit held (collected since, a tag): those that are
        commits = _commits(clone, kept | new)
        present = (_newest(clone, commits) if commits else None) or commits
    repo.write_whole(_file(clone), "".join(f"{name}\n" for name in sorted(present)).encode())


def _newest(clone: Repository, names: list[str]) -> list[str] | None:
    """The newest of `names` (none an ancestor of another) in one `git merge-base
    --independent`, where each is a commit this clone holds; None where one may not be.
    git takes a tag for its commit: an answer naming any commit not among `names` is
    None too. One that names only `names` is the newest of those that are commits (a
    tag's commit among them, or older than one of them, changes nothing)."""
    if not all(FULL_ID.fullmatch(name) for name in names):
        return None
    newest = repo.run(clone, "merge-base", "--independent", *names)
    found = [name for name in newest.stdout.decode("ascii", "replace").split()
             if FULL_ID.fullmatch(name)]
    return found if newest.returncode == 0 and set(found) <= set(names) else None


def recalled(clone: Repository, names: Iterable[str] = ()) -> list[str]:
    """The commits this clone saw the table hold, that it holds still; and the commits
    `names` name (a remote's branch, an entry of its reflog), each as `git rev-parse
    --verify NAME^{commit}` names it, asked in the same git call."""
    return _commits(clone, [*_kept(clone), *(f"{name}^{{commit}}" for name in names)])
