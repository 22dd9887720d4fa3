"""What git proves of a guess a reveal left unsettled: whether the journal the reveal was
committed with held the guess before it (docs/rules.md, "The sealed number"). Asked only
of guesses on a number already shown, a few in a campaign."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from cwx.base.errors import CwxError
from cwx.base.record import Record
from cwx.git import repo
from cwx.git.repo import Repository
from cwx.git.versions import Blobs
from cwx.journal import lines as journal


class Held(Record):
    """The commit that added a reveal's line, whose journal held the guess before it."""

    commit: str  # its full id
    author: str  # "Mallory <m@table>"


def held_before(root: str, reveals: Mapping[str, str]) -> dict[str, Held]:
    """For each guess (its id -> the id of the reveal of its number), the commit that
    added the reveal's line, where the journal it committed holds the guess's line before
    the reveal's. Outside git, or where git cannot answer: none."""
    clone = repo.of(root)
    if clone is None or not reveals:
        return {}
    path = os.path.relpath(os.path.join(os.path.realpath(root), "journal.jsonl"), clone.top)
    found: dict[str, Held] = {}
    added: dict[str, tuple[Held, list[bytes]] | None] = {}
    read = Blobs(clone)  # one reader for every reveal's journal
    try:
        for guess, reveal in reveals.items():
            if reveal not in added:
                added[reveal] = _added(clone, path, reveal, read)
            made = added[reveal]
            if made is not None and _before(made[1], guess.encode(), reveal.encode()):
                found[guess] = made[0]
    except CwxError:
        return {}  # git cannot answer (not installed): nothing proven
    finally:
        read.close()
    return found


def _added(clone: Repository, path: str, reveal: str, read: Blobs
           ) -> tuple[Held, list[bytes]] | None:
    """The commit that first brought a line holding `reveal` to the journal, and the
    journal it committed, read by `read` (None: no commit did; the line is not committed
    yet)."""
    if not reveal or not all(c in "0123456789abcdefABCDEF" for c in reveal):
        return None  # an id cwx never writes: not searched for
    # A line added by a merge's own resolution is its (--cc); parents come first whatever
    # their dates say (--topo-order).
    done = repo.run(clone, "log", "--format=%H%x00%an <%ae>", "--reverse", "--topo-order",
                    "--cc", "-s", f"-S{reveal}", "--", f":(literal){path}")
    first = done.stdout.split(b"\n", 1)[0].decode("utf-8", "replace")
    if done.returncode != 0 or "\0" not in first:
        return None
    commit, author = first.split("\0", 1)
    blob = read.named(f"{commit}:{path}")
    if blob is None:
        return None
    return Held(commit, author), journal.git_lines(blob)


def _before(lines: list[bytes], guess: bytes, reveal: bytes) -> bool:
    """Whether the guess's line stands before the reveal's (each the first of its id)."""
    seen = False
    for raw in lines:
        if not seen and guess in raw and journal.id_of(raw) == guess:
            seen = True
        elif reveal in raw and journal.id_of(raw) == reveal:
            return seen
    return False


def reveal_order(root: str, reveals: Sequence[tuple[str, frozenset[str]]],
                 guesses: Sequence[str]) -> dict[str, tuple[int, int, int]]:
    """Each reveal of one number's place (lower first), as git proves it, never as a merge
    put their lines: after every reveal whose line the commit that added its own held
    (ancestry; within one commit, its clone's order); among reveals none of whose commits
    held another, first the one that left out fewest of the guesses on the number its own
    commit's journal held before it (cwx's reveal settles every guess its clone had: a
    copy made on a history cut before the reveal leaves them out). A reveal no commit
    holds yet comes after those that are, in the work tree's order. With each, how many
    came neither before nor after it (made on histories apart). Outside git, or where git
    cannot answer: none (sealed.Order)."""
    clone = repo.of(root)
    if clone is None or len(reveals) < 2:
        return {}
    path = os.path.relpath(os.path.join(os.path.realpath(root), journal.NAME), clone.top)
    read = Blobs(clone)  # one reader for every reveal's journal
    try:
        added = {reveal: _added(clone, path, reveal, read) for reveal, _ in reveals}
        here: list[bytes] | None = None  # the work tree's journal, where a reveal is no commit's
        if any(made is None for made in added.values()):
            with open(os.path.join(root, journal.NAME), "rb") as file:
                here = journal.git_lines(file.read())
        where = {reveal: _place(made[1] if made else here or [], reveal.encode())
                 for reveal, made in added.items()}
        commits = {reveal: made[0].commit if made else None for reveal, made in added.items()}
        before = {reveal: len([other for other, _ in reveals if other != reveal and
                               _came_first(clone, commits, where, other, reveal)])
                  for reveal, _ in reveals}
        left = {reveal: _left_out(made[1], reveal.encode(), listed, guesses)
                if (made := added[reveal]) is not None else 0 for reveal, listed in reveals}
        after = {reveal: len([other for other, _ in reveals if other != reveal and
                              _came_first(clone, commits, where, reveal, other)])
                 for reveal, _ in reveals}
    except (CwxError, OSError):
        return {}  # git cannot answer (not installed), the journal unread: nothing proven
    finally:
        read.close()
    return {reveal: (before[reveal], left[reveal], len(reveals) - 1 - before[reveal] -
                     after[reveal]) for reveal, _ in reveals}


def _came_first(clone: Repository, commits: Mapping[str, str | None],
               where: Mapping[str, int | None], older: str, newer: str) -> bool:
    """Whether the reveal `older` came before `newer`, as git proves it: the commit that
    added `newer` holds the line of `older` (an ancestor of it added it, or it did, with
    the line earlier in it); or `newer` is in no commit yet and `older` is (two in none:
    the work tree's order, this clone's own)."""
    first, then = commits[older], commits[newer]
    if (then is None) != (first is None):
        return then is None
    if first == then:  # one commit, or the work tree: its clone's order
        at, here = where[older], where[newer]
        return at is not None and here is not None and at < here
    assert first is not None and then is not None
    return repo.run(clone, "merge-base", "--is-ancestor", first, then).returncode == 0


def _place(lines: list[bytes], wanted: bytes) -> int | None:
    """Where the first line of id `wanted` stands in a committed journal."""
    return next((number for number, raw in enumerate(lines)
                 if wanted in raw and journal.id_of(raw) == wanted), None)


def _left_out(lines: list[bytes], reveal: bytes, listed: frozenset[str],
              guesses: Sequence[str]) -> int:
    """How many of `guesses` stand before the reveal's line in its commit's journal
    without the reveal listing them."""
    wanted = {guess.encode() for guess in guesses if guess not in listed}
    seen: set[bytes] = set()
    for raw in lines:
        found = journal.id_of(raw)
        if found == reveal:
            break
        if found in wanted:
            seen.add(found)
    return len(seen)


def committed_with(root: str, reveal: str, names: Sequence[str],
                   ) -> tuple[Held, dict[str, bytes | None]] | None:
    """The commit that added the reveal's line, and each file of `names` (as the journal
    names them) as its tree holds it (None: it holds none). None: no commit added the
    line yet, or git cannot answer."""
    clone = repo.of(root)
    if clone is None:
        return None
    folder = os.path.relpath(os.path.realpath(root), clone.top)
    read = Blobs(clone)  # one reader for the journal and each file
    try:
        made = _added(clone, os.path.normpath(os.path.join(folder, journal.NAME)), reveal, read)
        if made is None:
            return None
        found: dict[str, bytes | None] = {}
        for name in names:
            found[name] = read.named(
                f"{made[0].commit}:{os.path.normpath(os.path.join(folder, name))}")
    except CwxError:
        return None
    finally:
        read.close()
    return made[0], found
