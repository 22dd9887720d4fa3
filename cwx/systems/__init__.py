"""The games cwx plays, and the files they keep, in one table.

The table's entries are modules of this package, one a kind of campaign file: a system's
characters (`clockworx`, `colorwheel`), or a file a system brings along (the Color
Wheel's `bag`). An entry says everything the rest of cwx needs of its files: how a sheet
is read from a file's data and written back, the text of a new file and its JSON Schema,
how a sheet reads for people and scripts, which keys the ledger follows and how (its key
rules), and the journal's event kinds its commands write. Nothing outside the entries
asks which system a file plays: it asks the table (pre-commit's `all_languages` is the
model, one name to one entry). A new system is a rules module, an entry here and its
line in the table, and its commands (cwx/commands/). What an entry is made of, and the
helpers it reads its data with, are in parts.py; the package's other modules (sheets,
templates, schemas) read files through the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from cwx.base.errors import BadFile, BadValue, shown
from cwx.systems.parts import PLAIN as PLAIN
from cwx.systems.parts import EventKind as EventKind
from cwx.systems.parts import Rule as Rule

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any, Final

    from cwx.systems.parts import Kind as Kind
    from cwx.systems.parts import System as System

# ---------------------------------------------------------------- the table

# Each entry is loaded when it is first asked for: a command reads only the kinds of
# file it meets (a stateful resolve, ClockWorx alone). Each loader's return type is the
# protocol its entry meets, so mypy checks every entry's names and signatures.


def _clockworx() -> System:
    from cwx.systems import clockworx

    return clockworx


def _colorwheel() -> System:
    from cwx.systems import colorwheel

    return colorwheel


def _bag() -> Kind:
    from cwx.systems import bag

    return bag


SYSTEMS: Final[Mapping[str, Callable[[], System]]] = {
    "clockworx": _clockworx,
    "colorwheel": _colorwheel,
}
KINDS: Final[Mapping[str, Callable[[], Kind]]] = {"bag": _bag, **SYSTEMS}
_NAMES: Final = tuple(KINDS)


def names() -> tuple[str, ...]:
    """Every entry, by name."""
    return _NAMES


def entry(name: str) -> Kind:
    """The entry of a kind of file, by its name (one of `names()`)."""
    return KINDS[name]()


def kinds() -> list[Kind]:
    return [entry(name) for name in names()]


def systems() -> list[System]:
    """The systems a character may play, by name."""
    return [load() for load in SYSTEMS.values()]


def system_names() -> list[str]:
    return [kind.NAME for kind in systems()]


def system(value: object, *, typed: bool = False) -> System:
    """The system a file names (or, `typed`, one a player typed: any case, a suggestion)."""
    if value is None:
        raise BadFile(f"a character needs a system key: system = {_either()}", key="system")
    wanted = value.strip().casefold() if typed and isinstance(value, str) else value
    if isinstance(wanted, str) and wanted in SYSTEMS:
        return SYSTEMS[wanted]()
    if typed:
        from cwx.base.hints import did_you_mean

        raise BadValue(f"unknown system {shown(value)}"
                       f"{did_you_mean(str(value), system_names())}; use "
                       f"{' or '.join(system_names())}")
    raise BadFile(f"unknown system {shown(value)}; use {_either()}", key="system")


def _either() -> str:
    return " or ".join(f'"{name}"' for name in system_names())


def kind_of(data: Mapping[str, Any]) -> str | None:
    """"character" (a system key, or a table only characters have), another kind's name
    (a table of its own: "bag"), or None: a TOML file that is not cwx's."""
    everything = kinds()
    if "system" in data or any(table in data for kind in everything if kind.CHARACTER
                               for table in kind.TABLES):
        return "character"
    return next((kind.NAME for kind in everything if not kind.CHARACTER and
                 any(table in data for table in kind.TABLES)), None)


def entry_of(data: Mapping[str, Any]) -> Kind:
    """The entry of a campaign file's kind; BadFile when it has none (not cwx's, or a
    character of no system cwx knows)."""
    kind = kind_of(data)
    if kind is None:
        raise BadFile("is neither a character (no system key) nor a file of a kind cwx keeps")
    return system(data.get("system")) if kind == "character" else entry(kind)


def character(data: Mapping[str, Any], name: str) -> Any:
    """The character sheet a file's data holds; a file of another kind is refused."""
    named = data.get("system")
    if isinstance(named, str) and named in names():  # the common case: no other entry read
        return system(named).read(data, name)
    kind = kind_of(data)
    if kind not in (None, "character"):
        raise BadFile(f"is a {kind} file, not a character; name a character's file here",
                      key=kind)
    return system(data.get("system")).read(data, name)


def read(data: Mapping[str, Any], name: str) -> Any:
    """The sheet of a campaign file of any kind."""
    return entry_of(data).read(data, name)


def values_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of a file's data the ledger follows, as the journal names them
    ("traits.Repair"): its kind's (of a character of an unknown system, any character's);
    of a file that is no campaign file, none."""
    found: dict[str, Any] = {}
    for top, tables in _ledger_keys(data):
        found.update({key: data[key] for key in top if key in data})
        for table in tables:
            inner = data.get(table)
            if isinstance(inner, dict):
                found.update({f"{table}.{key}": value for key, value in inner.items()})
    return found


def _ledger_keys(data: Mapping[str, Any]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    kind = kind_of(data)
    if kind is None:
        return []
    if kind != "character":
        return [entry(kind).LEDGER]
    named = data.get("system")
    known = [k for k in systems() if named == k.NAME]
    return [k.LEDGER for k in (known or systems())]


def rules(values: Mapping[str, Any]) -> Callable[[str], Rule]:
    """How the ledger treats each key of a file whose ledger values are `values`: by its
    kind's rules (a whole number of a file of no kind cwx knows: summed, unbounded)."""
    named = values.get("system")
    for kind in kinds():
        if (kind.CHARACTER and named == kind.NAME) or (
                not kind.CHARACTER and "system" not in values and
                any(key.partition(".")[0] in kind.TABLES for key in values)):
            return kind.rule
    return _unknown_rule


def _unknown_rule(key: str) -> Rule:
    return Rule(low=None)


_followed: dict[str, bool] = {}
_FOLLOWED = 4096  # keys remembered, of the few a campaign's files have


def follows(key: str) -> bool:
    """Whether a key (as the journal names it) is one the ledger follows in some kind of
    file: a top key ("xp") or a table's ("traits.Repair"); never "xp.sub"."""
    found = _followed.get(key)
    if found is None:
        table, dot, rest = key.partition(".")
        found = any((table in kind.LEDGER[1] and bool(rest)) if dot else table in kind.LEDGER[0]
                    for kind in kinds())
        if len(_followed) < _FOLLOWED:  # a hostile journal's million keys are not all kept
            _followed[key] = found
    return found


_conserved: dict[str, bool] = {}


def conserved(key: str) -> bool:
    """Whether a key is a die that W9 counts, by any kind's rules (each kind's tables are
    its own: "luck.white" is a character's die, "reserve.white" a bag's)."""
    found = _conserved.get(key)
    if found is None:
        found = any(kind.rule(key).conserved for kind in kinds())
        if len(_conserved) < _FOLLOWED:
            _conserved[key] = found
    return found


def event_kind(command: str) -> EventKind | None:
    """The kind of the journal's events of `command` that a system's commands write."""
    for kind in kinds():
        found = kind.EVENTS.get(command)
        if found is not None:
            return found
    return None


def system_playing(command: str) -> str | None:
    """The system whose characters `command` ("bag draw") plays, if it is one system's."""
    for kind in kinds():
        if kind.CHARACTER and command in kind.EVENTS:
            return str(kind.NAME)
    return None


