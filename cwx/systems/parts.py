"""What an entry of the table is made of (systems/__init__.py is the table): the ledger's
key rules, the journal's event kinds, the protocols an entry meets (mypy checks each
entry against its own), and the helpers every entry reads its data with."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from cwx.base.errors import BadFile, BadValue, shown
from cwx.base.record import Record

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any, Protocol

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
    settles: bool = False  # ends a game: settles its draws, each named by id (journal/ends.py)
    settled: bool = False  # a draw a game's end settles
    gm: bool = False  # the GM's alone to make (the curse, W6), where campaign.toml names GMs
    what: Callable[[Mapping[str, Any]], str | None] | None = None  # log: detail of its result
    outcome: Callable[[Mapping[str, Any]], str | None] | None = None  # log: its outcome
    verb: str | None = None  # what the actor did, as a recap tells it ("draws"); None: the command
    # check: what the rules give for one of its events (docs/rules.md, "What check
    # proves"); None: its changes are taken as written (an adopt, the table's word).
    replay: Callable[[Any], Replay] | None = None


class Replay(Record):
    """What the rules give for one event, from the inputs its line records and the state
    it says it started from (each change's `from`): a pure re-play, for `cwx check`."""

    changes: Mapping[tuple[str, str], tuple[Any, Any]] = {}  # (file, key) -> (from, to)
    result: Mapping[str, Any] = {}  # the figures its result must hold ("xp": 6)
    makes: frozenset[str] | None = frozenset()  # files it may make whole (None: any)
    refused: str | None = None  # the rules refuse the event itself, and why
    # Ledger keys it is re-played from that its line records beside its changes (a
    # resolve's trait score): (file, key) -> value, held to the ledger's at its place.
    reads: Mapping[tuple[str, str], Any] = {}


def before(event: Any, file: str | None, key: str, otherwise: Any = None) -> Any:
    """The value a key of `file` held before `event`, as its line says (the `from` of its
    change of the key); `otherwise` for a key it does not change."""
    for change in event.changes:
        if change.key == key and change.file == file:
            return change.before
    return otherwise


def whole(value: object) -> bool:
    """A whole number as JSON and TOML hold one (never a bool)."""
    return type(value) is int


if TYPE_CHECKING:  # what an entry must say; the protocols cost start-up, so typing only
    from cwx.systems.results import BagShown, Created, Sheet

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

        def as_json(self, sheet: Any) -> Sheet | BagShown:
            """The sheet for scripts (SPEC section 4)."""

        def as_text(self, sheet: Any, on: bool) -> str:
            """The sheet for people; `on`: in colour."""

        def in_party(self, sheet: Any, on: bool) -> str:
            """A compact block of the sheet, for the party view."""


    class System(Kind, Protocol):
        """A system's characters: a kind of file that a player makes on the command line."""

        def new(self, name: str, pairs: list[tuple[str, str]]) -> Any:
            """A character as `char new --trait` makes it, checked as creation requires."""

        def as_json(self, sheet: Any) -> Sheet:
            """The character for scripts (SPEC section 4)."""

        def created(self, sheet: Any) -> Created:
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
    if not whole(value) or value < 0:
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


def count_set_aside(inner: dict[str, Any], name: str) -> None:
    """A count with a problem made harmless for `check` to look past (an entry's
    set_aside): one `count` takes goes, since the key itself is unknown; any other
    becomes 0."""
    if whole(inner[name]) and inner[name] >= 0:
        inner.pop(name)
    else:
        inner[name] = 0
