"""What the journal held when the table first named its GMs (docs/rules.md, "The supply"):
a change made before any GM was named is anyone's. Git proves it: the journal of the first
commit whose campaign.toml wrote a `gm` (or, none yet, of HEAD: the GMs are being named
now). Asked only of a few lines check would name, never of every line."""

from __future__ import annotations

import os
from collections.abc import Iterable

from cwx.base.errors import CwxError
from cwx.git import repo
from cwx.journal import lines as journal

_GM_LINE = r"^[[:space:]]*gm[[:space:]]*="  # a line of campaign.toml writing its gm


def held_before(root: str, ids: Iterable[str]) -> set[str]:
    """The ids among `ids` whose lines the journal of the campaign at `root` held when its
    campaign.toml first named GMs. Outside git, or where git cannot answer: none."""
    wanted = {id_.encode("utf-8", "surrogateescape") for id_ in ids}
    clone = repo.of(root)
    if clone is None or not wanted:
        return set()
    here = os.path.realpath(root)
    settings, ledger = (os.path.relpath(os.path.join(here, name), clone.top)
                        for name in ("campaign.toml", "journal.jsonl"))
    try:
        named = repo.run(clone, "log", "--reverse", "--topo-order", "--format=%H", "-G",
                         _GM_LINE, "HEAD", "--", f":(literal){settings}")
        first = named.stdout.split(b"\n", 1)[0].decode("ascii", "replace").strip() \
            if named.returncode == 0 else ""
        blob = repo.run(clone, "cat-file", "blob", f"{first or 'HEAD'}:{ledger}")
    except (CwxError, OSError):
        return set()
    if blob.returncode != 0:
        return set()
    return {found.decode("utf-8", "surrogateescape")
            for raw in journal.git_lines(blob.stdout)
            if (found := journal.id_of(raw)) is not None and found in wanted}
