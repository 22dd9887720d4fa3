"""Three versions of a character or bag file, merged the way the ledger adds up.

Pure: takes the plain data of the common ancestor and of both sides, and gives the
merged data, or the clashes it cannot settle. Whole numbers add up (base, plus what
each side added); trait lists merge as sets (an item either side added is in, one
either side removed is out); any other value merges three-way (a side that left it as
it was takes the other's). The result is provisional: git settles two identical files
without asking, and a criss-cross merge can count a change twice, so the reconcile
after the merge is what makes the totals right.
"""

from __future__ import annotations

from collections.abc import Mapping

from cwx import systems
from cwx.base.errors import shown
from cwx.base.record import Record
from cwx.journal import ledger
from cwx.systems import sheets

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

Path = tuple[str, ...]
# A sheet has a few dozen keys; merging thousands, each edited in turn, would take a pull
# minutes (tomlkit's work grows as their square), so such a file is git's to merge.
MAX_LEAVES = 1000


class Merged(Record):
    data: dict[str, Any]
    clashes: list[str]  # why the merge needs a person; empty when it does not
    # each key that clashed, and its values: the base's, ours' and theirs'
    keys: dict[Path, tuple[Any, Any, Any]]


class Files(Record):
    """What the merge driver makes of three versions of a file: the merged text (with
    conflict markers on the keys that clash), and the clashes that need a person (no
    text: git's own text merge will do)."""

    text: str | None
    clashes: list[str]
    marked: bool = False  # the text marks each clashing key with both sides' values


def merge_files(base: str, ours: str, theirs: str, path: str) -> Files:
    """The three versions git gives the driver (%O %A %B), merged as the ledger adds up;
    any other TOML (or a file that does not parse) is left to git's text merge."""
    import os

    from cwx.base.errors import CwxError
    from cwx.git import textmerge
    from cwx.toml import tomlread

    try:  # a file past a file's bounds too: git merges its text, and check names it
        raws = [tomlread.read_bytes(p) for p in (base, ours, theirs)]
        data = [tomlread.parse(raw, p) for raw, p in zip(raws, (base, ours, theirs), strict=True)]
    except CwxError:
        return Files(None, [])
    if sheets.kind_of(data[1]) is None or sheets.kind_of(data[2]) is None:
        return Files(None, [])  # not cwx's TOML
    if any(len(_leaves(side)) > MAX_LEAVES for side in data):
        return Files(None, [])  # more keys than a sheet has: git's text merge, at its speed
    if not raws[0].strip():  # no common ancestor: each side made the file its own way
        if _alike(data[1], data[2]):
            return Files(None, [f"was made alike on both sides ({_made(data[1])}), each "
                                "played since: the ledger counts both sides' play"])
        return Files(None, [f"was made on both sides: {_made(data[1])} on one, "
                            f"{_made(data[2])} on the other (never summed)"])
    merged = merge(data[0], data[1], data[2], os.path.splitext(os.path.basename(path))[0])
    if merged.clashes and not merged.data:
        return Files(None, merged.clashes)  # a key and a table: git's text merge shows them
    try:
        text = _laid_out([raw.decode("utf-8") for raw in raws], data[1], merged, path,
                         os.path.dirname(os.path.abspath(ours)))
    except CwxError:
        return Files(None, merged.clashes)
    if not merged.keys:
        return Files(text, merged.clashes)
    shown = textmerge.marked(text, merged.keys)
    return Files(shown, merged.clashes, True) if shown is not None else \
        Files(None, merged.clashes)


def _laid_out(texts: list[str], ours: Mapping[str, Any], merged: Merged, path: str,
              beside: str) -> str:
    """The merged data written on both sides' text merged (comments, blank lines, key
    order and unknown keys of both kept); on ours' text alone when they cannot be. A
    clashing key keeps its place, for its conflict markers."""
    from cwx.base.errors import CwxError
    from cwx.git import textmerge
    from cwx.toml import tomledit, tomlread

    text, plain = texts[1], ours
    joined = textmerge.merged(texts[0], texts[1], texts[2], beside)
    if joined is not None:
        try:
            text, plain = joined, tomlread.parse(joined.encode("utf-8", "surrogateescape"),
                                                 path)
        except CwxError:
            text, plain = texts[1], ours
    wanted = [(key, value) for key, value in edits(plain, merged.data)
              if key not in merged.keys]
    try:
        return tomledit.edited(text, plain, wanted, path)
    except CwxError:
        if text is texts[1]:
            raise
        return tomledit.edited(texts[1], ours, [(key, value) for key, value in
                                                edits(ours, merged.data)
                                                if key not in merged.keys], path)


def _alike(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> bool:
    """Two files made alike, played apart since: they differ in nothing but the counts
    the ledger adds up (experience, dice)."""
    mine, yours = ledger.values_of(ours), ledger.values_of(theirs)
    rules = systems.rules(mine)
    for key in set(mine) | set(yours):
        rule = rules(key)
        if rule.whole and not rule.in_step:
            continue  # a count both sides may have moved
        if mine.get(key) != yours.get(key):
            return False
    return True


def _made(data: Mapping[str, Any]) -> str:
    """A file as made, for a person choosing between two: its name and kind."""
    name = data.get("name")
    kind = sheets.kind_of(data) or "file"
    system = data.get("system")
    what = f"a {system} character" if kind == "character" and isinstance(system, str) else \
        f"a {kind}"
    return f"{what} named {shown(name)}" if isinstance(name, str) else what


def merge(base: Mapping[str, Any], ours: Mapping[str, Any], theirs: Mapping[str, Any],
          name: str) -> Merged:
    """The three-way merge of one file's data."""
    old, mine, yours = _leaves(base), _leaves(ours), _leaves(theirs)
    rules = systems.rules(ledger.values_of(ours))
    merged: dict[Path, Any] = {}
    clashes: list[str] = []
    keys: dict[Path, tuple[Any, Any, Any]] = {}
    for path in [*mine, *(p for p in yours if p not in mine), *(p for p in old if p not in
                                                                   mine and p not in yours)]:
        key = ".".join(path)
        value, clash = _one(key, old.get(path), mine.get(path), yours.get(path), rules(key))
        if clash:
            clashes.append(clash)
            keys[path] = (old.get(path), mine.get(path), yours.get(path))
        elif value is not None:
            merged[path] = value
    shapes = _shapes(merged)
    if shapes:  # a key a value on one side, a table on the other: a person decides
        return Merged({}, [*clashes, *shapes], keys)
    data = _tree(merged)
    if not clashes and sheets.kind_of(data) is not None:
        clashes += [f"the merged file breaks a rule ({p.key}: {p.message})"
                    for p in sheets.problems(data, name)[:1]]
    return Merged(data, clashes, keys)


def _one(key: str, base: Any, ours: Any, theirs: Any,
         rule: systems.Rule) -> tuple[Any, str | None]:
    if all(v is None or ledger.is_number(v) for v in (base, ours, theirs)):
        total = (base or 0) + ((ours or 0) - (base or 0)) + ((theirs or 0) - (base or 0))
        if total < 0:
            return None, (f"{key} was {shown(base or 0)}; one side made it {shown(ours or 0)}, "
                          f"the other {shown(theirs or 0)}: together {shown(total)}, below 0 "
                          "(both sides spent it)")
        if total == 0 and (rule.absent_at_zero or None in (ours, theirs)):
            return None, None  # removed by one side (or a trait at 0, which is none)
        return total, None
    if isinstance(ours, list) and isinstance(theirs, list) and \
            (base is None or isinstance(base, list)):
        return _lists(base or [], ours, theirs), None
    if ours == theirs or theirs == base:
        return ours, None
    if ours == base:
        return theirs, None
    return None, (f"{key} was {shown(base)}; one side changed it to {shown(ours)}, the other "
                  f"to {shown(theirs)}")


def _lists(base: list[Any], ours: list[Any], theirs: list[Any]) -> list[Any]:
    """Items as sets (a list of thousands costs no square): what either side removed is
    out, what either added is in; ours' order, then theirs'."""
    mine, yours = set(map(_hashable, ours)), set(map(_hashable, theirs))
    removed = {_hashable(item) for item in base
               if _hashable(item) not in mine or _hashable(item) not in yours}
    kept = [item for item in ours if _hashable(item) not in removed]
    have = set(map(_hashable, kept))
    return kept + [item for item in theirs
                   if _hashable(item) not in have and _hashable(item) not in removed]


def _hashable(item: Any) -> Any:
    """A list's item as a set can hold it (a TOML list may hold tables and lists)."""
    if isinstance(item, dict):
        return ("{}", tuple(sorted((k, _hashable(v)) for k, v in item.items())))
    if isinstance(item, list):
        return ("[]", tuple(map(_hashable, item)))
    return item


def _leaves(data: Mapping[str, Any], prefix: Path = ()) -> dict[Path, Any]:
    """Every value that is not a table, by its path (arrays of tables count as values)."""
    found: dict[Path, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and value:
            found.update(_leaves(value, (*prefix, key)))
        else:
            found[(*prefix, key)] = value
    return found


def _shapes(leaves: Mapping[Path, Any]) -> list[str]:
    """Keys that are a value where another key makes them a table."""
    tables = {path[:end] for path in leaves for end in range(1, len(path))}
    return [f"{'.'.join(path)} is a value on one side and a table on the other"
            for path in leaves if path in tables]


def _tree(leaves: Mapping[Path, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for path, value in leaves.items():
        table = data
        for part in path[:-1]:
            table = table.setdefault(part, {})
        table[path[-1]] = value
    return data


def edits(ours: Mapping[str, Any], merged: Mapping[str, Any]) -> list[tuple[Path, Any]]:
    """The edits that turn our side's data into the merged data (None removes a key)."""
    mine, wanted = _leaves(ours), _leaves(merged)
    changed = [(path, value) for path, value in wanted.items() if mine.get(path) != value]
    return changed + [(path, None) for path in mine if path not in wanted]
