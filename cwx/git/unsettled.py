"""What git proves of a guess a reveal left unsettled: whether the journal the reveal was
committed with held the guess before it (docs/rules.md, "The sealed number"). Asked only
of guesses on a number already shown, a few in a campaign."""

from __future__ import annotations

import os
from collections.abc import Mapping

from cwx.base.errors import CwxError
from cwx.base.record import Record
from cwx.git import repo
from cwx.git.repo import Repository
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
    try:
        for guess, reveal in reveals.items():
            if reveal not in added:
                added[reveal] = _added(clone, path, reveal)
            made = added[reveal]
            if made is not None and _before(made[1], guess.encode(), reveal.encode()):
                found[guess] = made[0]
    except CwxError:
        return {}  # git cannot answer (not installed): nothing proven
    return found


def _added(clone: Repository, path: str, reveal: str) -> tuple[Held, list[bytes]] | None:
    """The commit that first brought a line holding `reveal` to the journal, and the
    journal it committed (None: no commit did; the line is not committed yet)."""
    if not reveal or not all(c in "0123456789abcdefABCDEF" for c in reveal):
        return None  # an id cwx never writes: not searched for
    done = repo.run(clone, "log", "--format=%H%x00%an <%ae>", "--reverse", f"-S{reveal}",
                    "--", f":(literal){path}")
    first = done.stdout.split(b"\n", 1)[0].decode("utf-8", "replace")
    if done.returncode != 0 or "\0" not in first:
        return None
    commit, author = first.split("\0", 1)
    blob = repo.run(clone, "cat-file", "blob", f"{commit}:{path}")
    if blob.returncode != 0:
        return None
    return Held(commit, author), journal.git_lines(blob.stdout)


def _before(lines: list[bytes], guess: bytes, reveal: bytes) -> bool:
    """Whether the guess's line stands before the reveal's (each the first of its id)."""
    seen = False
    for raw in lines:
        if not seen and guess in raw and journal.id_of(raw) == guess:
            seen = True
        elif reveal in raw and journal.id_of(raw) == reveal:
            return seen
    return False
