"""The journal's events told in words, for a recap and a commit message: who did what,
how it came out, and what it changed of the one who did it ("Sue draws blue (white,
blue): success, +1 white"). Each kind's words are its entry's (events.py)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from cwx import events, journal
from cwx.printable import printable


def told(event: journal.Event, *, actor: bool = True,
         void: Collection[str] = ()) -> str:
    """One event in a line: the actor (unless `actor` is False, for a list under their
    name), the verb, what and how, and the counts it moved (none, for an undo or turn in
    `void`: it counts for nothing)."""
    kind = events.kind(event.command)
    who = event.who or event.player or "the GM"
    verb = kind.verb or event.command
    what = (kind.what or _what)(event.result) or \
        (event.file if kind.table or event.who is None else None)
    if event.undoes is not None and (undid := events.undid(event.result)) is not None:
        verb, what = ("redoes" if undid[0] else "undoes"), undid[1]
    outcome = (kind.outcome or _outcome)(event.result)
    line = f"{who} {verb}" if actor else verb
    if what:
        line += f" {what}" if kind.verb else f" ({what})"
    said = [part for part in (outcome, gains(event)) if part]
    if event.id in void:  # two clones undid (or turned) the same at once: the first counts
        said = ["counts for nothing (another came first)"]
    if said:
        line += ": " + ", ".join(said)
    return printable(line)


def gains(event: journal.Event) -> str:
    """What the event added to or took from its own file's counts ("+2 xp, -1 black")."""
    moved: dict[str, int] = {}
    for change in event.changes:
        if change.key is None or change.correction or change.file != event.file:
            continue
        before, after = change.before or 0, change.after
        if isinstance(before, int) and isinstance(after, int) and \
                not isinstance(before, bool) and not isinstance(after, bool) and before != after:
            label = change.key.rpartition(".")[2]
            moved[label] = moved.get(label, 0) + after - before
    return ", ".join(f"{delta:+d} {label}" for label, delta in moved.items() if delta)


def _what(result: Mapping[str, Any]) -> str | None:
    return result.get("trait") or result.get("color")


def _outcome(result: Mapping[str, Any]) -> str | None:
    if "success" not in result:
        return None
    if result.get("critical"):
        return "critical success"
    return "success" if result["success"] else "failure"


def summary(events_: list[journal.Event], limit: int = 72,
            void: Collection[str] = ()) -> str:
    """Events in one line of at most `limit` characters (a commit's subject), the rest
    counted."""
    parts = [told(event, void=void) for event in events_]
    line = ""
    for number, part in enumerate(parts):
        rest = len(parts) - number - 1
        tail = f"; and {rest} more" if rest else ""
        joined = f"{line}; {part}" if line else part
        if len(joined) + len(tail) > limit and line:
            return f"{line}; and {len(parts) - number} more"
        line = joined
    return line


def void_in(path: str) -> set[str]:
    """The undos and turns of the journal at `path` that count for nothing."""
    turns = journal.Turns()
    for event in journal.holding(path, (b'"undoes"', b'"turns"')):
        turns.note(event)
    return turns.void()
