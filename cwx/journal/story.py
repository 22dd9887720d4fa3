"""The journal's events told in words, for a recap and a commit message: who did what,
how it came out, and what it changed of the one who did it ("Sue draws blue (white,
blue): success, +1 white"). Each kind's words are its entry's (events.py)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from cwx.base.printable import printable
from cwx.journal import events
from cwx.journal import lines as journal

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any


def told(event: journal.Event, *, actor: bool = True,
         void: Collection[str] = ()) -> str:
    """One event in a line: the actor (unless `actor` is False, for a list under their
    name), the verb, what and how, and the counts it moved (none, for an undo or turn in
    `void`: it counts for nothing)."""
    kind = events.kind(event.command)
    who = actor_of(event)
    verb = kind.verb or event.command
    what = (kind.what or _what)(event.result) or \
        (event.file if kind.table or event.who is None else None)
    if event.undoes is not None and (undid := events.undid(event.result)) is not None:
        verb, what = ("redoes" if undid[0] else "undoes"), undid[1]
    moved = gains(event)
    if kind.table:  # the table's word sets values, which are no reward or loss: said as set
        files = list(dict.fromkeys(c.file for c in event.changes))
        what = ", ".join(files[:4]) + (f" and {len(files) - 4} more" if len(files) > 4
                                       else "") or what
        moved = set_to(event, len(files) > 1)
    outcome = (kind.outcome or _outcome)(event.result)
    line = f"{who} {verb}" if actor else verb
    if what:
        line += f" {what}" if kind.verb else f" ({what})"
    said = [part for part in (outcome, moved) if part]
    if event.id in void:  # two clones undid (or turned) the same at once: the first counts
        said = ["counts for nothing (another came first)"]
    if said:
        line += ": " + ", ".join(said)
    return printable(line)


def why_void(event: journal.Event) -> str:
    """Why an undo, turn or game's end counts for nothing (journal.Turns.void), in words:
    as `cwx log` and `cwx recap` say it."""
    if event.undoes == event.id:
        return "it names itself as what it undoes"
    if event.undoes:
        return "another undo came first, or what it undoes counts for nothing"
    return "another end of that game came first" if events.kind(event.command).settles \
        else "another turn of that draw came first"


def actor_of(event: journal.Event) -> str:
    """Who an event is told as done by: its character, else its player (an adopt, an
    undo), else the GM (a line from before players were recorded)."""
    return event.who or event.player or "the GM"


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


def set_to(event: journal.Event, where: bool, most: int = 6) -> str:
    """The values an event set, as from → to ("xp 0 → 12, traits.Climb 1 → –"), each
    key named with its file when `where`; a file taken in whole is named by `what`."""
    said = [f"{change.file + ' ' if where else ''}{change.key} {_value(change.before)} → "
            f"{_value(change.after)}" for change in event.changes if change.key is not None]
    more = f" and {len(said) - most} more" if len(said) > most else ""
    return ", ".join(said[:most]) + more


LONG = 255  # characters of a text value shown whole: a name's bound (docs/rules.md, Limits)
ITEMS = 10  # items of a list value shown whole


def brief(value: Any) -> Any:
    """A change's value as a reader keeps it: a number, or a short text or list, as it
    is; a long text or a big list or table (no count the ledger folds, and up to a
    journal line's megabyte each) as a short summary, so that many cost little."""
    if isinstance(value, str):
        return value if len(value) <= LONG else \
            f"{value[:40]}… ({len(value):,} characters)"
    if isinstance(value, list):
        return value if len(value) <= ITEMS and all(brief(item) is item for item in value) \
            else f"a list of {len(value):,} items"
    if isinstance(value, dict):
        return value if len(value) <= ITEMS and all(brief(item) is item
                                                    for item in value.values()) \
            else f"a table of {len(value):,} keys"
    return value


def _value(value: object) -> str:
    if value is None:
        return "–"
    if isinstance(value, list):
        return "[" + ", ".join(map(_value, value[:6])) + (", …" if len(value) > 6 else "") + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value) if isinstance(value, (str, int, float)) else "…"
    return text if len(text) <= 40 else text[:39] + "…"


def _what(result: Mapping[str, Any]) -> str | None:
    return result.get("trait") or result.get("color")


def _outcome(result: Mapping[str, Any]) -> str | None:
    if "success" not in result:
        return None
    if result.get("critical"):
        return "critical success"
    return "success" if result["success"] else "failure"


def summary(events_: list[journal.Event], limit: int = 72,
            void: Collection[str] = (), total: int | None = None) -> str:
    """Events in one line of at most `limit` characters (a commit's subject), the rest
    counted (`total`: how many there are, when `events_` are only the first of them)."""
    total = len(events_) if total is None else total
    line = ""
    for number, event in enumerate(events_):
        part = told(event, void=void)  # each told only if the line may still hold it
        rest = total - number - 1
        tail = f"; and {rest} more" if rest else ""
        joined = f"{line}; {part}" if line else part
        if len(joined) + len(tail) > limit and line:
            return f"{line}; and {total - number} more"
        line = joined
    return f"{line}; and {total - len(events_)} more" if total > len(events_) else line
