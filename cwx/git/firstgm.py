"""What the journal held when the table first named its GMs (docs/rules.md, "The supply"):
a change made before any GM was named is anyone's. Git proves it: the journal of each
commit whose campaign.toml wrote a `gm` where no parent's did, on every path to HEAD
whichever parent a merge names first (gmlist.py's first lists), or, none yet, of HEAD
(the GMs are being named now). Asked only of a few lines check would name, never of
every line."""

from __future__ import annotations

import os
from collections.abc import Iterable

from cwx.base.errors import CwxError
from cwx.git import gmlist, repo, versions
from cwx.journal import lines as journal


def held_before(root: str, ids: Iterable[str]) -> set[str]:
    """The ids among `ids` whose lines the journal of the campaign at `root` held when its
    campaign.toml first named GMs: in every commit that names them first (a branch of its
    own may name some, with lines of its own: those are no table's before its GMs).
    Outside git, or where git cannot answer: none."""
    wanted = {id_.encode("utf-8", "surrogateescape") for id_ in ids}
    clone = repo.of(root)
    if clone is None or not wanted:
        return set()
    ledger = os.path.relpath(os.path.join(os.path.realpath(root), "journal.jsonl"), clone.top)
    read = versions.Blobs(clone)
    try:
        journals = read.ids(gmlist.first_named(root, read) or ["HEAD"], ledger)
        held = None
        for blob in journals.values():
            found = _ids(read(blob), wanted)
            held = found if held is None else held & found
    except (CwxError, OSError, ValueError):
        return set()
    finally:
        read.close()
    return {id_.decode("utf-8", "surrogateescape") for id_ in held or ()}


def _ids(raw: bytes, wanted: set[bytes]) -> set[bytes]:
    """The ids of `wanted` that a journal's lines hold."""
    return {found for line in journal.git_lines(raw)
            if (found := journal.id_of(line)) is not None and found in wanted}


def arrivals(root: str, ids: Iterable[str], most: int = 16) -> dict[str, str]:
    """The commit that first brought each of `ids` (at most `most` of them: each is a
    search of the journal's history) into the journal of the campaign at `root`, as
    HEAD's history holds it. An id no commit holds yet (a line not committed) is left
    out, and so is every one outside git."""
    clone = repo.of(root)
    if clone is None:
        return {}
    ledger = os.path.relpath(os.path.join(os.path.realpath(root), "journal.jsonl"), clone.top)
    found: dict[str, str] = {}
    for id_ in list(dict.fromkeys(ids))[:most]:
        try:
            done = repo.run(clone, "log", "--format=%H", "--topo-order", "--reverse",
                            f"-S{id_}", "HEAD", "--", f":(literal){ledger}")
        except (CwxError, OSError):
            return found
        first = done.stdout.split()[:1] if done.returncode == 0 else []
        if first:
            found[id_] = first[0].decode("ascii")
    return found
