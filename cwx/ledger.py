"""The campaign's ledger: what every file's keys should hold, folded from the journal.

Pure: takes the journal's events (in any order: git merges lines as it likes) and gives
each file's ledger values (docs/rules.md, "The campaign ledger"):

- a whole number is its value at the file's last journaled creation (or, with none,
  the `from` of its first journaled change) plus `to - from` of every later change, so
  two clones' journals, joined by git, add up whatever order their lines are in;
- a trait list holds what its creation or first change held, with every item any change
  added or removed since, the latest change of an item winning;
- any other value is the `to` of its latest change;
- a missing whole number counts as 0 (a trait at 0 is no trait), and a reconcile's
  corrections do not count: they only bring files to the ledger.

Events are ordered by (`at`, `id`), so every clone orders them alike.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from cwx.journal import Event

# The keys cwx writes; every other key is the player's own and never drifts.
TOP = ("name", "system", "xp")
TABLES = ("traits", "luck", "bag", "reserve")
COUNTS = ("xp", "luck.", "bag.", "reserve.")  # whole numbers that may not go below 0
Order = tuple[str, str]  # (when, id)


def is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def values_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """The ledger's keys of one file's data, as the journal names them ("traits.Repair")."""
    found = {key: data[key] for key in TOP if key in data}
    for table in TABLES:
        inner = data.get(table)
        if isinstance(inner, dict):
            found.update({f"{table}.{key}": value for key, value in inner.items()})
    return found


def split(key: str) -> tuple[str, ...]:
    """A journal key as a path in the file: "traits.Knife Fighting" -> (traits, Knife Fighting)."""
    table, dot, rest = key.partition(".")
    return (table, rest) if dot else (table,)


class Step(NamedTuple):
    """One change of one key, as the fold keeps it."""

    order: Order
    before: Any
    after: Any
    event: str  # its event, to name the events behind a value: the id,
    said: str  # and the command, who and when, for people


class Value(NamedTuple):
    """A key's ledger value, and the changes that made it."""

    value: Any  # None: missing (a whole number missing counts as 0)
    steps: tuple[Step, ...]


class Ledger:
    """The fold of a campaign's journal, file by file and key by key."""

    def __init__(self) -> None:
        self.creations: dict[str, tuple[Order, dict[str, Any]]] = {}  # the latest, by file
        self.steps: dict[str, dict[str, list[Step]]] = {}
        self.known: set[str] = set()  # every file the journal names

    def add(self, event: Event) -> None:
        order = (event.when, event.id)
        said = f"{event.command} ({event.who or 'GM'}, {event.when[:16].replace('T', ' ')})"
        for change in event.changes:
            self.known.add(change.file)
            if change.key is None:
                if change.text is not None:
                    self._created(change.file, order, change.text)
            elif not change.correction:
                self.steps.setdefault(change.file, {}).setdefault(change.key, []).append(
                    Step(order, change.before, change.after, event.id, said))

    def _created(self, file: str, order: Order, text: str) -> None:
        if file in self.creations and self.creations[file][0] >= order:
            return
        try:
            values = values_of(tomllib.loads(text))
        except (tomllib.TOMLDecodeError, ValueError, RecursionError):
            return  # not a TOML file of cwx's (a README, a schema): no ledger
        self.creations[file] = (order, values)

    def files(self) -> list[str]:
        return sorted(set(self.creations) | set(self.steps))

    def values(self, file: str) -> dict[str, Value]:
        """Every key of `file` the ledger knows, with its value."""
        created = self.creations.get(file)
        since = created[0] if created else ("", "")
        baseline = created[1] if created else {}
        found: dict[str, Value] = {}
        keys = set(baseline) | set(self.steps.get(file, {}))
        for key in sorted(keys):
            steps = sorted(s for s in self.steps.get(file, {}).get(key, []) if s.order > since)
            found[key] = _fold(key, baseline.get(key), created is not None, steps)
        return found


def _fold(key: str, base: Any, created: bool, steps: list[Step]) -> Value:
    events = tuple(steps)
    start = base if created or not steps else steps[0].before
    if all(is_number(v) or v is None for s in steps for v in (s.before, s.after)) and \
            (start is None or is_number(start)) and not (start is None and not steps):
        total = (start or 0) + sum((s.after or 0) - (s.before or 0) for s in steps)
        return Value(total, events)
    if isinstance(start, list) or any(isinstance(s.after, list) for s in steps):
        return Value(_fold_list(start, steps), events)
    return Value(steps[-1].after if steps else start, events)


def _fold_list(start: Any, steps: list[Step]) -> list[Any]:
    """Items added or removed by any change, the latest change of an item winning."""
    items = list(start) if isinstance(start, list) else []
    present = dict.fromkeys(items, True)
    for step in steps:  # in time order
        before = set(_items(step.before))
        after = set(_items(step.after))
        for item in _items(step.after):
            if item not in before:
                present[item] = True
        for item in before - after:
            present[item] = False
    return [item for item, here in present.items() if here]


def _items(value: Any) -> list[Any]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def fold(events: Iterable[Event]) -> Ledger:
    ledger = Ledger()
    for event in events:
        ledger.add(event)
    return ledger


def same(key: str, ledger: Any, file: Any) -> bool:
    """Whether a file's value agrees with the ledger's: whole numbers missing count as 0,
    lists compare as sets (the file keeps its own order)."""
    if is_number(ledger) or is_number(file):
        mine = 0 if ledger is None else ledger
        theirs = 0 if file is None else file
        return is_number(mine) and is_number(theirs) and mine == theirs
    if isinstance(ledger, list) and isinstance(file, list):
        return set(_items(ledger)) == set(_items(file)) and len(file) == len(set(file))
    return bool(ledger == file)


def forbidden(key: str, value: Any) -> str | None:
    """Why the rules forbid a ledger value (two clones spent the same dice or experience)."""
    if not is_number(value):
        return None
    if key.startswith(COUNTS) and value < 0:
        return f"{key} would be {value}, below 0"
    if key.startswith("traits.") and not 0 <= value <= 6:
        return f"{key} would be {value}; a score is 1 to 6 (0: no trait)"
    return None


def settled(key: str, ledger_value: Any, file_value: Any) -> Any:
    """What reconcile writes for a key: the ledger's value, in the file's own terms (a list
    keeps the file's order; a trait at 0 is no trait: the key goes)."""
    if is_number(ledger_value) or (ledger_value is None and is_number(file_value)):
        value = ledger_value or 0
        return None if value == 0 and key.startswith("traits.") else value
    if isinstance(ledger_value, list):
        wanted = _items(ledger_value)
        kept = [item for item in _items(file_value) if item in wanted]
        return kept + [item for item in wanted if item not in kept]
    return ledger_value


def undone(key: str, before: Any, after: Any, current: Any) -> Any:
    """A key's value with one change taken back: a whole number by its delta (which
    survives merges), a list by its items, any other value only while it still holds
    what the change wrote. Raises ValueError saying why it cannot be."""
    if all(is_number(v) or v is None for v in (before, after)) and \
            (current is None or is_number(current)):
        value = (current or 0) - ((after or 0) - (before or 0))
        return None if value == 0 and key.startswith("traits.") else value
    if isinstance(before, list) or isinstance(after, list):
        added = [i for i in _items(after) if i not in _items(before)]
        removed = [i for i in _items(before) if i not in _items(after)]
        have = _items(current)
        if any(i not in have for i in added) or any(i in have for i in removed):
            raise ValueError(f"{key} no longer holds what the change wrote")
        return [i for i in have if i not in added] + removed
    if not same(key, after, current):
        raise ValueError(f"{key} no longer holds what the change wrote ({after!r}); it is "
                         f"{current!r}")
    return before
