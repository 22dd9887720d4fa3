"""The games cwx plays, and the files they keep, in one table.

Each module in this package is the entry of one kind of campaign file: a system's
characters (`clockworx`, `colorwheel`), or a file a system brings along (the Color
Wheel's `bag`). An entry says everything the rest of cwx needs of its files: how a sheet
is read from a file's data and written back, the text of a new file and its JSON Schema,
how a sheet reads for people and scripts, which keys the ledger follows and how (its key
rules), and the journal's event kinds its commands write. Nothing outside the entries
asks which system a file plays: it asks the table (pre-commit's `all_languages` is the
model, one name to one module). A new system is a rules module, an entry here, and its
commands (cwx/commands/).

This module also holds the few helpers every entry reads its data with.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast

from cwx.base.errors import BadFile, BadValue, shown
from cwx.base.record import Record

# ---------------------------------------------------------------- what an entry says


class Rule(Record):
    """How the ledger treats one key of a file (docs/rules.md, "The campaign ledger")."""

    whole: bool = True  # a whole number, summed by its changes (else: the latest value)
    low: int | None = 0  # the least it may be (None: no bound)
    high: int | None = None  # the most (None: no bound but TOML's)
    absent_at_zero: bool = False  # 0 is no key at all (a trait at 0 is no trait)
    in_step: bool = False  # each change starts where the last ended (two clones at once clash)
    conserved: bool = False  # a die: counted campaign-wide, never made or destroyed (W9)


PLAIN = Rule(whole=False)  # a name, a system, a list: the ledger keeps its latest value


class EventKind(Record):
    """What the journal's events of one command are (journal.py reads them by command)."""

    action: bool = False  # a character's move in the game: luck looks at it, undo takes it
    turn: bool = False  # turns a character's last action (a white spent, the GM's curse)
    undoable: bool = True  # `cwx undo` may take it back
    table: bool = False  # the table's word: dice in or out of the ledger (an adopt)
    correction: bool = False  # brings files to the ledger; counts for nothing in it
    buys: bool = False  # a purchase: what it changed was paid for (experience, dice)
    brings: bool = False  # a file it makes brings its dice into the campaign (a new bag)
    pending: bool = False  # waits for a later event to settle it (a guess on a sealed number)
    what: Callable[[Mapping[str, Any]], str | None] | None = None  # log: detail of its result
    outcome: Callable[[Mapping[str, Any]], str | None] | None = None  # log: its outcome
    verb: str | None = None  # what the actor did, as a recap tells it ("draws"); None: the command


if TYPE_CHECKING:  # what an entry must say; the protocols cost start-up, so typing only
    class Kind(Protocol):
        """The entry of one kind of campaign file: everything cwx needs of its files."""

        NAME: str  # as a file says it (system = "clockworx"), or the kind's name ("bag")
        TITLE: str  # as people read it ("ClockWorx")
        CHARACTER: bool  # a system's characters (else another kind of file)
        TABLES: tuple[str, ...]  # tables that mark a file of this kind
        LEDGER: tuple[tuple[str, ...], tuple[str, ...]]  # the keys it follows: top, tables
        EVENTS: Mapping[str, EventKind]  # the journal's events of its commands

        def read(self, data: Mapping[str, Any], name: str) -> Any:
            """Plain data (as tomllib reads it) to a sheet; BadFile naming the key at fault."""

        def data_of(self, sheet: Any) -> dict[str, Any]:
            """The plain data a file for this sheet holds."""

        def set_aside(self, data: dict[str, Any], key: str) -> bool:
            """Put a harmless value where a problem was, so `check` can look past it."""

        def template(self, sheet: Any, schema: str | None) -> str:
            """The text of a new file (with a `#:schema` line pointing at `schema`)."""

        def schema(self) -> dict[str, Any]:
            """Its JSON Schema: a kind's whole schema; a system's, what its characters add."""

        def rule(self, key: str) -> Rule:
            """How the ledger treats `key` (as the journal names it: "traits.Repair")."""

        def as_json(self, sheet: Any) -> dict[str, Any]:
            """The sheet for scripts (SPEC section 4)."""

        def as_text(self, sheet: Any, on: bool) -> str:
            """The sheet for people; `on`: in colour."""

        def in_party(self, sheet: Any, on: bool) -> str:
            """A compact block of the sheet, for the party view."""


    class System(Kind, Protocol):
        """A system's characters: a kind of file that a player makes on the command line."""

        def new(self, name: str, pairs: list[tuple[str, str]]) -> Any:
            """A character as `char new --trait` makes it, checked as creation requires."""

        def created(self, sheet: Any) -> dict[str, Any]:
            """What `char new` reports beyond the sheet (ClockWorx: the points unspent)."""

        def created_text(self, sheet: Any) -> str:
            """The same, for people ("" for nothing)."""

        def trait_names(self, sheet: Any) -> list[str]:
            """The traits a player may name for this character (completion offers them)."""

        def earned(self, sheet: Any) -> str | None:
            """What the character earned that a sheet made anew would wipe ("8 xp"), beyond
            the dice W9 counts; None: nothing."""

        def traits_drawn_for(self, data: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
            """A sheet's traits by the action a draw records (the Color Wheel: a colour's
            traits, a few, each cut short, as a recap names them; none elsewhere)."""

        def drawn_traits_changed(self, key: str, value: Any) -> tuple[str, tuple[str, ...]] | None:
            """A change of a sheet's ledger key as the action whose traits it sets and those
            traits ("traits.blue", ["Swift"]: "blue", ("Swift",)), or None for any other key."""


# ---------------------------------------------------------------- the table

# Every entry, by name: a module of this package each. The package's other modules
# (sheets, templates, schemas) are the systems layer's, not entries.
_ENTRIES = ("bag", "clockworx", "colorwheel")


def names() -> tuple[str, ...]:
    """Every entry, by name."""
    return _ENTRIES


def entry(name: str) -> Kind:
    """The entry of a kind of file, by its name (one of `names()`)."""
    return cast("Kind", importlib.import_module(f"{__name__}.{name}"))


def kinds() -> list[Kind]:
    return [entry(name) for name in names()]


def systems() -> list[System]:
    """The systems a character may play, by name."""
    return [cast("System", kind) for kind in kinds() if kind.CHARACTER]


def system_names() -> list[str]:
    return [kind.NAME for kind in systems()]


def system(value: object, *, typed: bool = False) -> System:
    """The system a file names (or, `typed`, one a player typed: any case, a suggestion)."""
    if value is None:
        raise BadFile(f"a character needs a system key: system = {_either()}", key="system")
    wanted = value.strip().casefold() if typed and isinstance(value, str) else value
    if isinstance(wanted, str) and wanted in names() and entry(wanted).CHARACTER:
        return cast("System", entry(wanted))
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


# ---------------------------------------------------------------- reading a sheet's data


def table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    if value is None:
        raise BadFile(f"the [{key}] table is missing", key=key)
    if not isinstance(value, dict):
        raise BadFile(f"{key} must be a table, like [{key}] on a line of its own", key=key)
    return value


def optional_table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    return table(data, key) if key in data else {}


def count(data: Mapping[str, Any], key: str, where: str) -> int:
    """A number of dice or points: a whole number from 0, absent meaning 0."""
    from cwx.toml.tomledit import LARGEST

    value = data.get(key, 0)
    if not _whole(value) or value < 0:
        raise BadFile(f"must be a whole number 0 or more, not {shown(value)}", key=where)
    if value > LARGEST:
        raise BadFile(f"is larger than a TOML integer can be ({LARGEST})", key=where)
    return int(value)


def known(inner: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    allowed = tuple(allowed)
    for key in inner:
        if key not in allowed:
            raise BadFile(f"unknown key {key!r} in [{where}]; it may hold {', '.join(allowed)}",
                          key=f"{where}.{key}")


def as_bad_file(check: Callable[[], object]) -> None:
    """Run a rules check, reporting its complaint as a problem in the file."""
    try:
        check()
    except BadValue as error:
        raise BadFile(error.message, key=error.key or "traits") from None


def character_name(data: Mapping[str, Any], default: str) -> str:
    """A character's name: its file's `name`, or the file's own name."""
    from cwx.base import traitnames

    name = data.get("name", default)
    if not isinstance(name, str) or not name.strip():
        raise BadFile("name must be a non-empty string", key="name")
    as_bad_file(lambda: traitnames.shown_as(name, "name"))
    return name


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
