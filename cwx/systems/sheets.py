"""What a campaign file must say, checked on plain data, whatever its kind.

Pure: takes what `tomllib` parsed and returns a frozen sheet, or raises BadFile naming
the key at fault (the files layer adds the path and line); and back, the data a new file
must hold and the keys a move changes. Which kind of file, and what its sheet holds, is
the entry's of that kind (cwx/systems/): nothing here names a system.
"""

from __future__ import annotations

from collections.abc import Mapping

from cwx import systems
from cwx.base.errors import BadFile

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any, Literal

    Kind = Literal["character", "bag"]  # what `check` reports a file to be
    Edit = tuple[tuple[str, ...], Any]


def kind_of(data: Mapping[str, Any]) -> str | None:
    """"character", another kind cwx keeps ("bag"), or None: TOML that is not cwx's."""
    return systems.kind_of(data)


def character(data: Mapping[str, Any], default_name: str) -> Any:
    """A character's sheet (its system's); a file of another kind is refused."""
    return systems.character(data, default_name)


def read(data: Mapping[str, Any], default_name: str, kind: str | None = None) -> Any:
    """The sheet of a campaign file: of the kind asked for ("bag"), or of any kind."""
    if kind is not None and kind != "character":
        return systems.entry(kind).read(data, default_name)
    return systems.read(data, default_name)


def problems(data: Mapping[str, Any], default_name: str) -> list[BadFile]:
    """Every problem of a campaign file, not only the first: each key at fault is noted
    and set aside (by its kind's entry), and the rest checked again, until nothing more
    is found (or a problem leaves nothing to check beyond it)."""
    found: list[BadFile] = []
    from cwx.toml.tomlread import copied

    masked = copied(data)
    for _ in range(64):
        try:
            systems.read(masked, default_name)
            break
        except BadFile as problem:
            if any(p.key == problem.key and p.message == problem.message for p in found):
                break
            found.append(problem)
            if not _set_aside(masked, problem.key):
                break
    return found


def _set_aside(data: dict[str, Any], key: str | None) -> bool:
    """Put a harmless value where the problem was, so the check can go on past it."""
    if key == "name":
        data["name"] = "x"
        return True
    if key is None or key == "system" or key not in _keys(data):
        return False  # a whole table or the system at fault: nothing beyond it to check
    try:
        return systems.entry_of(data).set_aside(data, key)
    except BadFile:
        return False


def _keys(data: Mapping[str, Any]) -> set[str]:
    found = set(data)
    for table, inner in data.items():
        if isinstance(inner, dict):
            found.update(f"{table}.{key}" for key in inner)
    return found


def new_character(system: str, name: str, pairs: list[tuple[str, str]]) -> Any:
    """A character as created on the command line (C1, W2), checked as creation requires."""
    from cwx.base import traitnames
    from cwx.base.errors import BadValue

    entry = systems.system(system, typed=True)
    if not name.strip():
        raise BadValue("the character needs a name: give --name, or a file name before .toml")
    traitnames.shown_as(name, "name")
    return entry.new(name, pairs)


def entry_of_sheet(sheet: Any) -> systems.Kind:
    """The entry of a sheet's kind (each sheet names it)."""
    return systems.entry(sheet.kind)


def data_of(sheet: Any) -> dict[str, Any]:
    """The plain data a file for `sheet` holds (what its template means)."""
    return entry_of_sheet(sheet).data_of(sheet)


def edits(before: Any, after: Any) -> list[Edit]:
    """The keys of a file that change from one sheet of it to the next, the one way every
    move writes its file: only what moved is written, so an untouched key is never added
    or rewritten. A key that is gone (a trait) is a key removed (None)."""
    old, new = _flat(data_of(before)), _flat(data_of(after))
    return [(key, new.get(key)) for key in [*old, *(k for k in new if k not in old)]
            if old.get(key) != new.get(key)]


def _flat(data: Mapping[str, Any]) -> dict[tuple[str, ...], Any]:
    """(table, key) -> value for the tables cwx writes, (key,) -> value at the top."""
    flat: dict[tuple[str, ...], Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            flat.update({(key, inner): item for inner, item in value.items()})
        else:
            flat[(key,)] = value
    return flat
