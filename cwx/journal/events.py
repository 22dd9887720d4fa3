"""What each kind of event in the journal is, by the command that wrote it, in one table:
a character's action, a turn of one, a creation, the table's word, a correction; how
`cwx log` tells it; whether `cwx undo` takes it back. The campaign's own kinds are here,
each system's in its entry (cwx/systems/); nothing else compares command names."""

from __future__ import annotations

from collections.abc import Mapping

from cwx import systems
from cwx.systems import bag as bags
from cwx.systems.parts import EventKind, Replay, before, whole

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any


def _making(event: Any) -> Replay:
    """A creation makes files whole (the supply counts the dice a bag brings) and changes
    no key; a character it makes holds what creation gives, nothing earned (C1)."""
    for change in event.changes:
        if change.key is None and change.text is not None and not change.removed:
            why = _as_made(change.file, change.text)
            if why is not None:
                return Replay(makes=None, refused=why)
    return Replay(makes=None)


def _as_made(file: str, text: str) -> str | None:
    """Why a character file's text is none a making gives (more points than creation's,
    experience), or None. A text cwx cannot read as a character is check's to name as a
    file, not here."""
    import os

    from cwx.base.errors import CwxError
    from cwx.toml import tomlread

    try:
        data = tomlread.parse(text.encode("utf-8", "surrogateescape"), file)
        if not systems.entry_of(data).CHARACTER:
            return None
        entry = systems.system(data.get("system"))
        earned = entry.earned(entry.read(data, os.path.splitext(os.path.basename(file))[0]))
    except (CwxError, ValueError):
        return None
    if earned is None:
        return None
    return (f"makes {file} a character with {earned}, which no making gives: a new "
            "character has what creation gives and nothing earned (C1, W2), and `char new "
            "--force` is refused over one that earned any")


def _correcting(event: Any) -> Replay:
    """A reconcile's changes are corrections, which count for nothing: it gives no other."""
    return Replay()


def _undoing(event: Any) -> Replay:
    """An undo names the event it takes back (`undoes`), and cwx/rederive.py compares
    their changes once the journal is read; one that names none gives no change."""
    return Replay()


def _retiring(event: Any) -> Replay:
    """Every count of the retired file goes to 0 (a score goes with the file, unjournaled);
    its dice go to the reserve beside its line's bag, a character's (W9), or out of the
    supply with it, a bag's; no other file changes, none other is removed."""
    gone = event.result.get("retired")
    said = event.result.get("kind")
    if said is None:  # a line that does not say: a character's dice make it one
        said = "character" if any(c.file == gone and c.key is not None and
                                  _holds("character", c.key) for c in event.changes) else "bag"
    dice = {"white": 0, "black": 0}
    changes: dict[tuple[str, str], tuple[Any, Any]] = {}
    for change in event.changes:
        if change.key is None and change.removed and change.file != gone:
            return Replay(refused=f"removes {change.file}, which it does not retire")
    for change in event.changes:
        if change.key is None or change.file != gone:
            continue  # another file's: the rules give it below, or leave it
        changes[(change.file, change.key)] = (change.before, 0)
        colour = change.key.rpartition(".")[2]
        if systems.conserved(change.key) and colour in dice and whole(change.before):
            dice[colour] += change.before
            if not _holds(said, change.key):
                return Replay(refused=f"retires {gone} as a {said}, but {change.key} is no "
                                      f"{said}'s die")
    result: dict[str, Any] = {"dice": dice} if "dice" in event.result else {}
    if said == "character":
        if "supply" in event.result:
            result["supply"] = None  # a character's dice stay in the campaign
        if any(dice.values()):
            if not isinstance(event.bag, str):
                return Replay(refused=f"retires {gone} holding dice, but names no bag whose "
                                      "reserve takes them back")
            for colour, count in dice.items():
                key = bags.reserve_key(colour)
                was = before(event, event.bag, key, 0)
                changes[(event.bag, key)] = (was, was + count if whole(was) else was)
    else:
        result["supply"] = {colour: -count for colour, count in dice.items()}
    return Replay(changes, result)


def _holds(kind: object, key: str) -> bool:
    """Whether a file of `kind` ("character", "bag") holds the die `key`."""
    return any(entry.rule(key).conserved for entry in systems.kinds()
               if (entry.CHARACTER and kind == "character") or kind == entry.NAME)


CAMPAIGN: Mapping[str, EventKind] = {
    "init": EventKind(undoable=False, brings=True, verb="starts the campaign",
                      replay=_making),
    "char new": EventKind(undoable=False, verb="is made", replay=_making),
    "adopt": EventKind(table=True, verb="adopts"),
    "reconcile": EventKind(undoable=False, correction=True, verb="reconciles",
                           replay=_correcting),
    "undo": EventKind(undoable=False, verb="undoes", what=lambda result: _undid(result),
                      replay=_undoing),
    # A file's text is not journaled on the way out: its keys go to 0, itself is removed.
    "retire": EventKind(undoable=False, what=lambda result: result.get("retired"),
                        verb="retires", replay=_retiring),
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


def tables() -> list[str]:
    """The commands whose events are the table's word, setting values (an adopt)."""
    return [command for command, kind_ in (*CAMPAIGN.items(), *(
        item for entry in systems.kinds() for item in entry.EVENTS.items())) if kind_.table]


def undid(result: Mapping[str, Any]) -> tuple[bool, str] | None:
    """What an undo's result says it took back: whether it made its change again (a
    redo), and the change (`clock resolve 1ec4f891`); None: a line that does not say."""
    change, target = result.get("change"), result.get("undid")
    if not isinstance(change, Mapping) or not isinstance(target, Mapping):
        return None
    command, id_ = change.get("command"), change.get("id")
    if not isinstance(command, str) or not isinstance(id_, str):
        return None
    redo = result.get("redo")
    if not isinstance(redo, bool):  # a line from before `redo`: mostly an undo of an undo
        redo = target.get("id") != id_
    return redo, f"{command} {id_[:8]}"


def _undid(result: Mapping[str, Any]) -> str | None:
    said = undid(result)
    return None if said is None else f"redoes {said[1]}" if said[0] else said[1]
