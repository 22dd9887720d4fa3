"""What each kind of event in the journal is, by the command that wrote it, in one table:
a character's action, a turn of one, a creation, the table's word, a correction; how
`cwx log` tells it; whether `cwx undo` takes it back. The campaign's own kinds are here,
each system's in its entry (cwx/systems/); nothing else compares command names."""

from __future__ import annotations

from collections.abc import Mapping

from cwx import systems
from cwx.systems import EventKind

CAMPAIGN: Mapping[str, EventKind] = {
    "init": EventKind(undoable=False, brings=True, verb="starts the campaign"),
    "char new": EventKind(undoable=False, verb="is made"),
    "adopt": EventKind(table=True, verb="adopts"),
    "reconcile": EventKind(undoable=False, correction=True, verb="reconciles"),
    "undo": EventKind(undoable=False, verb="undoes"),
    # A file's text is not journaled on the way out: its keys go to 0, itself is removed.
    "retire": EventKind(undoable=False, what=lambda result: result.get("retired"),
                        verb="retires"),
}
UNKNOWN = EventKind()  # a command this cwx does not know (a later one's, or a hand's)
_found: dict[str, EventKind] = {}


def kind(command: str) -> EventKind:
    """The kind of the journal's events of `command`."""
    found = _found.get(command)
    if found is None:
        found = CAMPAIGN.get(command) or systems.event_kind(command) or UNKNOWN
        if len(_found) < 1024:  # a hostile journal's many commands are not all kept
            _found[command] = found
    return found


def turns() -> list[str]:
    """The commands whose events turn a character's last action (luck spend, curse)."""
    return [command for kind_ in systems.kinds() for command, event in kind_.EVENTS.items()
            if event.turn]
