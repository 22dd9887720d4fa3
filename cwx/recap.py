"""`cwx recap`: what happened in a session, from the journal, in Markdown (a forge and
a terminal both read it) or as one JSON object.

A session is a run of events with no gap of SESSION_GAP or more between two of them (a
table that stops for the night starts a new one). An undone event is struck through; an
undo itself is not told. Guesses on a sealed number are told with their outcome once the
reveal settled them, and as pending, never with the number, until it does. Corrections
and adopts come last, as such. The end of a session gives each character's counts as
the journal says they stood then (the ledger folded to that moment), and the
campaign's dice.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from typing import Any

from cwx import events, guesses, journal, ledger, story
from cwx.errors import BadValue
from cwx.ink import plural
from cwx.printable import printable
from cwx.record import Record
from cwx.timeline import Timeline

SESSION_GAP = 4 * 3600  # seconds


class Session(Record):
    number: int
    start: str  # `when` of its first event
    end: str  # of its last
    events: int


def _seconds(when: str) -> float:
    import calendar
    import time

    return calendar.timegm(time.strptime(when[:19], "%Y-%m-%dT%H:%M:%S")) + \
        float(f"0.{when[20:23] or '0'}")


def sessions(order: Timeline) -> list[Session]:
    """The journal's sessions, in time order, numbered from 1."""
    found: list[Session] = []
    last = -1e18
    for event in order.events():
        at = _seconds(event.when)
        if at - last >= SESSION_GAP or not found:
            found.append(Session(len(found) + 1, event.when, event.when, 1))
        else:
            found[-1] = found[-1]._replace(end=event.when, events=found[-1].events + 1)
        last = at
    return found


def chosen(found: list[Session], number: int | None, every: bool,
           since: str | None) -> list[Session]:
    """The sessions asked for: one by number, all, those since a date, or the latest."""
    if not found:
        return []
    if every:
        return found
    if since is not None:
        return [session for session in found if session.end[:len(since)] >= since]
    if number is None:
        return found[-1:]
    if not 1 <= number <= len(found):
        raise BadValue(f"--session {number}: the journal holds "
                       f"{plural(len(found), 'session')} (1 to {len(found)})")
    return [found[number - 1]]


def date_given(text: str) -> str:
    """--since DATE as the journal writes times (YYYY-MM-DD, or with THH:MM), a real date."""
    import datetime

    given = text.strip()
    for form in ("%Y-%m-%d", "%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"):
        try:
            datetime.datetime.strptime(given, form)
            return given
        except ValueError:
            continue
    raise BadValue(f"--since {text}: give a date as YYYY-MM-DD (or YYYY-MM-DDTHH:MM), UTC, "
                   "a day the calendar has")


# ---------------------------------------------------------------- what a recap holds


class Told(Record):
    """One event as the recap tells it."""

    event: journal.Event
    line: str  # in words, the actor first
    undone: bool
    pending: bool  # a guess not yet settled
    aside: bool  # a correction or adopt: told at the end


class Recap(Record):
    total: int  # sessions in the journal
    sessions: list[Session]
    told: list[Told]
    standing: dict[str, dict[str, Any]]  # a character's file -> its counts at the end
    names: dict[str, str]  # a character's file -> its name (the latest it went by)
    dice: ledger.Dice | None
    since: str | None = None


def recap(path: str, number: int | None = None, every: bool = False,
          since: str | None = None) -> Recap:
    """The recap of the sessions asked for, from the journal at `path`."""
    with journal.opened(path) or io.BytesIO() as file:
        order = Timeline(file)
        found = sessions(order)
        picked = chosen(found, number, every, since)
        if not picked:
            return Recap(len(found), [], [], {}, {}, None, since)
        undone = order.turns.undone() | order.turns.void()
        settled = guesses.settlements(path)
        told = [_told(event, undone, settled) for event in _within(order, picked)
                if since is None or event.when[:len(since)] >= since]
        folded = _folded(order, picked[-1].end)
    names = {t.event.file: t.event.who for t in told if t.event.file and t.event.who}
    standing = {file: _counts(folded, file) for file in sorted(names)}
    return Recap(len(found), picked, told, standing, names, folded.supply(), since)


def _within(order: Timeline, picked: list[Session]) -> Iterator[journal.Event]:
    for event in order.events():
        if event.undoes is None and any(s.start <= event.when <= s.end for s in picked):
            yield event


def _told(event: journal.Event, undone: set[str],
          settled: Mapping[str, Mapping[str, Any]]) -> Told:
    kind = events.kind(event.command)
    line = story.told(event, actor=False)
    pending = False
    if kind.pending:
        entry = settled.get(event.id)
        if entry is None:
            pending = True
        else:
            line = guesses.told_settled(event, entry)
    return Told(event, line, event.id in undone, pending, kind.correction or kind.table)


def _folded(order: Timeline, end: str) -> ledger.Ledger:
    """The ledger as it stood at `end`: every event up to it, folded."""
    folding = ledger.Folding()
    for event in order.events():
        if event.when <= end:
            folding.note(event)
    for event in order.events():
        if event.when <= end:
            folding.add(event)
    return folding.ledger()


def _counts(folded: ledger.Ledger, file: str) -> dict[str, Any]:
    """A character's counts the ledger follows (its experience, its dice), as whole
    numbers: each top-level whole number and each die."""
    rules = folded.rules(file)
    return {key: value.value for key, value in folded.values(file).items()
            if ledger.is_number(value.value) and ("." not in key or rules(key).conserved)}


# ---------------------------------------------------------------- Markdown and JSON


def markdown(done: Recap) -> str:
    if not done.sessions:
        said = f"No session since {done.since}" if done.since and done.total else \
            "The journal holds no events yet"
        return f"# Recap\n\n{said}.\n"
    first, last = done.sessions[0], done.sessions[-1]
    numbers = f"session {first.number}" if first is last else \
        f"sessions {first.number}–{last.number}"
    players = sorted({t.event.player for t in done.told if t.event.player})
    lines = [f"# Recap: {numbers} of {done.total}", "",
             f"{_time(first.start)} – {_time(last.end)} UTC · "
             f"{plural(sum(s.events for s in done.sessions), 'event')}" +
             (f" · players: {', '.join(map(_escaped, players))}" if players else ""), ""]
    by_actor: dict[str, list[Told]] = {}
    for item in done.told:
        if not item.aside:
            by_actor.setdefault(_actor(item.event, done.names), []).append(item)
    for actor, items in by_actor.items():
        lines += [f"## {actor}", "", "| when | what |", "|---|---|"]
        lines += [f"| {_time(item.event.when)} | {_cell(item)} |" for item in items]
        lines.append("")
    lines += _end(done)
    aside = [item for item in done.told if item.aside]
    if aside:
        lines += ["## Corrections and adopts", ""]
        lines += [f"- {_time(item.event.when)} {_escaped(item.event.player or 'the GM')}: "
                  f"{_cell(item)}" for item in aside]
        lines.append("")
    return "\n".join(lines)


def _end(done: Recap) -> list[str]:
    lines = ["## At the end", ""]
    if done.standing:
        lines += ["| character | file | holds |", "|---|---|---|"]
        for file, counts in done.standing.items():
            held = ", ".join(f"{value} {key.rpartition('.')[2]}" for key, value in
                             counts.items()) or "-"
            lines.append(f"| {_escaped(done.names[file])} | {_escaped(file)} | {held} |")
        lines.append("")
    if done.dice is not None:
        lines += [f"Dice: {plural(done.dice.white, 'white')}, {plural(done.dice.black, 'black')}"
                  " (the supply)", ""]
    return lines


def _actor(event: journal.Event, names: Mapping[str, str]) -> str:
    if event.file and event.who:  # by file: a character renamed is one character
        return _escaped(f"{names.get(event.file, event.who)} ({event.file})")
    return "The GM" if event.who is None else _escaped(event.who)


def _cell(item: Told) -> str:
    text = _escaped(item.line)
    return f"~~{text}~~ (undone)" if item.undone else text


def _escaped(text: str) -> str:
    """A name from a file, shown in a table cell as it is, never as Markdown."""
    out = printable(text)
    for mark in "\\|*_`[]<>~#":
        out = out.replace(mark, "\\" + mark)
    return out


def _time(when: str) -> str:
    return when[:16].replace("T", " ")


def as_json(done: Recap) -> dict[str, Any]:
    return {
        "sessions": [{"number": s.number, "from": s.start, "to": s.end, "events": s.events}
                     for s in done.sessions],
        "total_sessions": done.total,
        "characters": [{"file": file, "name": done.names[file], "holds": counts,
                        "actions": [t.event.id for t in done.told
                                    if t.event.file == file and not t.aside]}
                       for file, counts in done.standing.items()],
        "events": [{"id": t.event.id, "at": t.event.when, "command": t.event.command,
                    "who": t.event.who, "file": t.event.file, "player": t.event.player,
                    "told": t.line, "undone": t.undone, "pending": t.pending,
                    "correction": t.aside} for t in done.told],
        "supply": None if done.dice is None else {"white": done.dice.white,
                                                  "black": done.dice.black},
    }
