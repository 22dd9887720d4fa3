"""`cwx recap`: what happened in a session, from the journal, in Markdown (a forge and
a terminal both read it) or as one JSON object.

A session is a run of events with no gap of SESSION_GAP or more between two of them (a
table that stops for the night starts a new one); a table playing by post names a longer
gap (--gap, or recap_gap in campaign.toml), so that a day's wait is no new session. An
undone event is struck through; an undo itself is not told. Guesses on a sealed number
are told with their outcome once the reveal settled them, as pending, never with the
number, until it does, and as late once a reveal passed them by. Corrections and adopts
come last, as such, with the values they set. The end of a session gives each
character's counts as the journal says they stood then (the ledger folded to that
moment), and the campaign's dice.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from cwx import systems
from cwx.base import times
from cwx.base.errors import BadValue
from cwx.base.ink import plural
from cwx.base.printable import printable
from cwx.base.record import Record
from cwx.campaign import guesses
from cwx.journal import events, history, ledger, story
from cwx.journal import lines as journal
from cwx.journal.timeline import TICK, Timeline

if TYPE_CHECKING:
    from cwx.campaign.results import Recapped, Recounted

SESSION_GAP = 4 * 3600  # seconds


class Session(Record):
    number: int
    start: str  # `when` of its first event
    end: str  # of its last
    events: int


class _Minute:
    """The last minute read, and its seconds since the epoch."""

    stamp = ""
    seconds = 0


def _seconds(when: str) -> float:
    """A stamp's seconds since the epoch (its minute parsed once for all the minute's
    events, in time order: strptime was half a recap's time)."""
    if when[:16] != _Minute.stamp:
        import calendar
        import time

        _Minute.seconds = calendar.timegm(time.strptime(when[:16], "%Y-%m-%dT%H:%M"))
        _Minute.stamp = when[:16]
    second = when[17:19]
    if not second.isdigit() or int(second) > 61:  # as strptime's %S
        raise ValueError(f"unconverted data remains: {second}")
    return _Minute.seconds + int(second) + float(f"0.{when[20:23] or '0'}")


def sessions(order: Timeline, gap: int = SESSION_GAP) -> list[Session]:
    """The journal's sessions, in time order, numbered from 1."""
    found: list[Session] = []
    last = -1e18
    for event in order.events():
        at = _seconds(event.when)
        if at - last >= gap or not found:
            found.append(Session(len(found) + 1, event.when, event.when, 1))
        else:
            found[-1] = found[-1]._replace(end=event.when, events=found[-1].events + 1)
        last = at
    return found


def chosen(found: list[Session], number: int | None, every: bool,
           since: str | None, until: str | None = None) -> list[Session]:
    """The sessions asked for: one by number, all, those since a date (or until one), or
    the latest."""
    if not found:
        return []
    if every:
        return found
    if since is not None or until is not None:
        return [session for session in found
                if (since is None or session.end[:len(since)] >= since) and
                (until is None or session.start[:len(until)] <= until)]
    if number is None:
        return found[-1:]
    if not 1 <= number <= len(found):
        raise BadValue(f"--session {number}: the journal holds "
                       f"{plural(len(found), 'session')} (1 to {len(found)})")
    return [found[number - 1]]


def on_day(found: list[Session], day: str) -> int:
    """The number of the one session under way on `day` (YYYY-MM-DD, or to the minute):
    a session named by its date."""
    under_way = [s.number for s in found if s.start[:len(day)] <= day <= s.end[:len(day)]]
    if not under_way:
        raise BadValue(f"--session {day}: no session was under way then (cwx recap --all "
                       "--json lists each session's dates)")
    if len(under_way) > 1:
        raise BadValue(f"--session {day}: sessions {', '.join(map(str, under_way))} were all "
                       "under way then; name one by its number (or give --gap a longer gap)")
    return under_way[0]


def session_given(text: str) -> int | str:
    """--session N, or --session DATE: the session under way on that day."""
    if text.strip().isdigit():
        return int(text.strip())
    return date_given(text, "--session")


def date_given(text: str, option: str = "--since") -> str:
    """--since DATE as the journal writes times (YYYY-MM-DD, or with THH:MM), a real date."""
    import datetime

    given = text.strip()
    for form in ("%Y-%m-%d", "%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"):
        try:
            datetime.datetime.strptime(given, form)
            return given
        except ValueError:
            continue
    raise BadValue(f"{option} {text}: give a date as YYYY-MM-DD (or YYYY-MM-DDTHH:MM), UTC, "
                   "a day the calendar has" + (", or a session's number" if option ==
                                               "--session" else ""))


# ---------------------------------------------------------------- what a recap holds


class Told(Record):
    """One event as the recap tells it: only what the Markdown and the JSON show (a recap
    of every session holds one of these an event, never the events themselves)."""

    id: str
    when: str
    command: str
    who: str | None
    file: str | None
    player: str | None
    line: str  # in words, the actor first
    undone: bool
    pending: bool  # a guess not yet settled
    aside: bool  # a correction or adopt: told at the end
    system: str | None = None  # the rules its character played by then ("Color Wheel")
    voided: str | None = None  # the adopt that set a purchase's values back: its id
    late: bool = False  # a guess that reached the GM after the reveal: counts for nothing


class Recap(Record):
    total: int  # sessions in the journal
    sessions: list[Session]
    told: list[Told]
    standing: dict[str, dict[str, Any]]  # a character's file -> its counts at the end
    names: dict[str, str]  # a character's file -> its name (the latest it went by)
    dice: ledger.Dice | None
    since: str | None = None
    until: str | None = None


def recap(path: str, number: int | str | None = None, every: bool = False,
          since: str | None = None, until: str | None = None,
          gap: int = SESSION_GAP, tick: Callable[[int], None] | None = None) -> Recap:
    """The recap of the sessions asked for (`number`: a session's number, or a day it was
    under way), from the journal at `path`: its events read once (twice for one session
    named, whose end must be known first), each told as it comes and folded into the
    ledger up to the end of the last session told (or `until`). `tick` hears how many
    lines or events were read, now and then (a terminal's progress)."""
    with history.opened(path) as read:
        order = read.played(tick=tick)
        end = None
        if number is not None:  # the ledger is folded to that session's end
            found = sessions(order, gap)
            if isinstance(number, str):
                number = on_day(found, number)
            picked = chosen(found, number, every, since)
            if not picked:
                return Recap(len(found), [], [], {}, {}, None, since, until)
            end = picked[-1].end
        reading = _Reading(read, path, number, every, since, end, until, gap)
        for count, event in enumerate(order.events(), 1):
            if end is not None and event.when > end:
                break
            reading.read(event)
            if tick is not None and not count % TICK:
                tick(count)
        found = found if number is not None else reading.found
        picked = chosen(found, number, every, since, until)
        if not picked:
            return Recap(len(found), [], [], {}, {}, None, since, until)
        folded = reading.folding.ledger()
        told = reading.finish(read)
    names = {t.file: t.who for t in told if t.file and t.who}
    standing = {file: _counts(folded, file) for file in sorted(names)}
    return Recap(len(found), picked, told, standing, names, folded.supply(), since, until)


class _Reading:
    """One pass over the journal's events in time order: its sessions, the events to
    tell (those of the sessions asked for, or, for the latest, since the latest gap),
    and the ledger folded as far as the pass goes."""

    def __init__(self, read: history.Journal, path: str, number: int | None, every: bool,
                 since: str | None, end: str | None, until: str | None, gap: int) -> None:
        self.found: list[Session] = []
        self.told: list[Told] = []
        self.latest = number is None and not every and since is None and until is None
        self.end, self.until, self.gap = end, until, gap
        self.undone = read.undone() | read.void()  # as the journal's model counts them
        self.settled = guesses.settlements(path)
        self.wanted = number
        self.every, self.since = every, since
        self._last = -1e18
        self._same: dict[str, str] = {}  # one copy of each name, command and file
        self.folding = ledger.Folding()
        self.sheets: dict[str, _Sheet] = {}  # each file's rules and colours' traits, as made
        self._made: tuple[str | None, _Sheet] = (None, _Sheet(None, {}))  # the last text read
        self.bought: list[_Bought] = []  # purchases told that an adopt may set back
        self.settable = history.set_by_table(path)  # the keys an adopt sets (None: many)
        self.waiting: list[int] = []  # where the guesses told pending are told
        self.left_out: set[int] = set()  # lines past what the ledger keeps, as check says
        for event in history.prelude(path):
            if (end is None or event.when <= end) and \
                    (until is None or event.when[:len(until)] <= until) and \
                    not self.folding.note(event):
                self.left_out.add(event.line)

    def read(self, event: journal.Event) -> None:
        at = _seconds(event.when)
        if at - self._last >= self.gap or not self.found:
            self.found.append(Session(len(self.found) + 1, event.when, event.when, 1))
            if self.latest:  # only the latest session is told: the one before is not
                self.told, self.bought, self.waiting = [], [], []
        else:
            last = self.found[-1]
            self.found[-1] = last._replace(end=event.when, events=last.events + 1)
        self._last = at
        if self.until is not None and event.when[:len(self.until)] > self.until:
            return  # counted as a session's, neither told nor folded: the recap ends before
        kept = event.line not in self.left_out
        if kept:
            self.folding.add(event)
        again = self._follow(event) if kept else False  # past what the ledger keeps, unread
        if event.undoes is None and self._tells(event):
            self.told.append(self._told(event, again))

    def finish(self, read: history.Journal) -> list[Told]:
        """The events told, each guess still pending by the recap's last moment marked as
        the journal's model says it: late, once a reveal by then showed its number (it
        reached the GM after the reveal: it counts for nothing), or void, once a seal by
        then sealed a new number over it (it waits for nothing)."""
        by = self._by if self.end is not None or self.until is not None else None
        late = read.late(by) if self.waiting else {}
        void = read.voided(by) if self.waiting else {}
        for at in self.waiting:
            item = self.told[at]
            if item.id in late:
                self.told[at] = item._replace(pending=False, late=True, line=guesses.told_late(
                    item.line))
            elif item.id in void:
                self.told[at] = item._replace(pending=False, line=guesses.told_void(item.line))
        return self.told

    def _by(self, when: str) -> bool:
        """Whether a stamp comes by the recap's last moment (its last session's end, or
        --until): the events the pass reads, and no later."""
        return (self.end is None or when <= self.end) and \
            (self.until is None or when[:len(self.until)] <= self.until)

    def _follow(self, event: journal.Event) -> bool:
        """Each file's rules and traits as the event leaves them; whether it made a file
        that was made before (a same-name clash, a file made anew)."""
        again = False
        for change in event.changes:
            if change.key is None and change.removed:
                self.sheets.pop(change.file, None)
            elif change.key is None and change.text is not None:
                again = again or change.file in self.sheets
                if change.file in self.sheets or len(self.sheets) < MAX_KEPT:
                    if change.text != self._made[0]:  # a sheet made again as it was: read once
                        self._made = (change.text, _sheet_of(change.text))
                    self.sheets[change.file] = self._made[1]._replace(
                        traits=dict(self._made[1].traits))
            elif change.key is not None and change.file in self.sheets:
                sheet = self.sheets[change.file]
                plays = systems.system(sheet.plays) if sheet.plays is not None else None
                drawn = plays.drawn_traits_changed(change.key, change.after) \
                    if plays is not None else None
                if drawn is not None:
                    sheet.traits[drawn[0]] = drawn[1]
        return again

    def _voids(self, adopt: journal.Event) -> None:
        """Strike through each purchase told whose values this adopt sets back."""
        for at, order, changes in self.bought:
            item = self.told[at]
            if item.voided is None and not item.undone and adopt.order > order and \
                    _sets_back(adopt, changes):
                self.told[at] = item._replace(voided=adopt.id)

    def _tells(self, event: journal.Event) -> bool:
        if self.since is not None:  # the sessions since: their events since
            return event.when[:len(self.since)] >= self.since
        return self.wanted is None or len(self.found) == self.wanted

    def _told(self, event: journal.Event, again: bool) -> Told:
        kind = events.kind(event.command)
        sheet = self.sheets.get(event.file) if event.file else None
        line = story.told(_traits_named(event, sheet), actor=False)
        pending = False
        if kind.pending:
            entry = self.settled.get(event.id)
            if entry is None and event.id in self.undone:  # just undone: never late
                line = guesses.told_undone(line)
            elif entry is None:
                pending = True
                if guesses.guess_of(event) is not None:
                    self.waiting.append(len(self.told))
            else:
                line = guesses.told_settled(event, entry)
        playing = systems.system_playing(event.command)
        system = systems.entry(playing).TITLE if playing else sheet.system if sheet else None
        if sheet is not None and any(c.key is None and c.file == event.file and c.created
                                     for c in event.changes):
            rules = f"{sheet.system}, " if sheet.system else ""
            line += f" ({rules}again: the file was made before)" if again else \
                f" ({sheet.system})" if sheet.system else ""
        if kind.buys and event.id not in self.undone:
            own = [c for c in event.changes if c.key is not None and c.file == event.file]
            if 0 < len(own) <= MAX_BOUGHT and (self.settable is None or all(
                    (c.file, c.key) in self.settable for c in own)):
                # What no purchase of cwx's holds, or no adopt sets back, is never voided.
                self.bought.append((len(self.told), event.order, tuple(
                    (c.file, c.key, *_spent(c.before, c.after)) for c in own)))
        if kind.table:
            self._voids(event)
        same = self._same
        return Told(event.id, event.when, same.setdefault(event.command, event.command),
                    event.who and same.setdefault(event.who, event.who),
                    event.file and same.setdefault(event.file, event.file),
                    event.player and same.setdefault(event.player, event.player), line,
                    event.id in self.undone, pending, kind.correction or kind.table,
                    system and same.setdefault(system, system))


MAX_KEPT = 1 << 16  # files followed: far beyond a campaign's, bounded for a hostile one
MAX_BOUGHT = 16  # keys a purchase changes of its file (a trait and the experience or dice)


class _Sheet(Record):
    """What a recap follows of a file: the rules it plays by, its colours' traits."""

    system: str | None  # as people read it ("ClockWorx"); None: no character
    traits: dict[str, tuple[str, ...]]  # a colour's traits (a few, each a short name)
    plays: str | None = None  # the system's name in the registry


# A purchase told, as an adopt may set it back: where it is told, when it was, and each
# key it changed of its file, as much as a setting back is checked against, never its
# values whole (a recap of every session keeps one an event): (file, key, a whole
# number's change or None for another value, the value before as _kept keeps it).
_Spent = tuple[str, str | None, int | None, object]
_Bought = tuple[int, journal.Order, tuple[_Spent, ...]]


def _spent(before: Any, after: Any) -> tuple[int | None, object]:
    numbers = type(before or 0) is int and type(after) is int
    return ((after - (before or 0)) if numbers else None), _kept(before)


def _kept(value: Any) -> object:
    """A value to compare with another later: itself when small, else a digest of it
    (bytes, which no JSON value is, so a digest never equals a value)."""
    if value is None or type(value) in (int, bool, float) or \
            (type(value) is str and len(value) <= 64):
        return value
    import hashlib

    return hashlib.blake2b(journal.dumps(value).encode(), digest_size=16).digest()


def _sheet_of(text: str) -> _Sheet:
    """A file's rules and the traits its draws name, from the text it was made with."""
    from cwx.base.errors import CwxError
    from cwx.toml import tomlread

    try:
        data = tomlread.parse(text.encode(), None)
    except CwxError:
        return _Sheet(None, {})
    named = data.get("system")
    if not (isinstance(named, str) and named in systems.system_names()):
        return _Sheet(None, {})
    plays = systems.system(named)
    return _Sheet(plays.TITLE, plays.traits_drawn_for(data), named)


def _traits_named(event: journal.Event, sheet: _Sheet | None) -> journal.Event:
    """A draw told with the trait its colour held then (blue (Athletic)): the journal
    records the colour alone."""
    colour = event.result.get("color")
    if sheet is None or not isinstance(colour, str) or "trait" in event.result or \
            colour not in sheet.traits:
        return event
    names = sheet.traits[colour]
    if not names:
        return event
    return event._replace(result={**event.result, "color": f"{colour} ({', '.join(names)})"})


def _sets_back(adopt: journal.Event, own: tuple[_Spent, ...]) -> bool:
    """Whether `adopt` sets back every key a purchase changed of its own file (`own`): a
    whole number by the purchase's change, any other value to what it was before."""
    for file, key, moved, was in own:
        back = next((a for a in adopt.changes if a.file == file and a.key == key), None)
        if back is None:
            return False
        if moved is not None and type(back.before or 0) is int and type(back.after) is int:
            if back.after - (back.before or 0) != -moved:
                return False
        elif _kept(back.after) != was:
            return False
    return bool(own)


def _counts(folded: ledger.Ledger, file: str) -> dict[str, Any]:
    """A character's counts the ledger follows (its experience, its dice), as whole
    numbers: each top-level whole number and each die."""
    rules = folded.rules(file)
    return {key: value.value for key, value in folded.values(file).items()
            if ledger.is_number(value.value) and ("." not in key or rules(key).conserved)}


# ---------------------------------------------------------------- Markdown and JSON


def markdown(done: Recap) -> str:
    return "\n".join(markdown_lines(done)).rstrip("\n") + "\n"


def markdown_lines(done: Recap) -> Iterator[str]:
    """The recap in Markdown, a line at a time (a recap of every session is written as it
    is made, never held whole)."""
    if not done.sessions:
        bounds = " ".join(f"{word} {date}" for word, date in (("since", done.since),
                                                              ("until", done.until)) if date)
        said = f"No session {bounds}" if bounds and done.total else \
            "The journal holds no events yet"
        yield from ("# Recap", "", f"{said}.")
        return
    first, last = done.sessions[0], done.sessions[-1]
    numbers = f"session {first.number}" if first is last else \
        f"sessions {first.number}–{last.number}"
    yield from (f"# Recap: {numbers} of {done.total}", "",
                f"{_time(first.start)} – {_time(last.end)} · "
                f"{plural(sum(s.events for s in done.sessions), 'event')}" +
                _players(done.told), "")
    by_actor: dict[str, list[Told]] = {}
    actors: dict[tuple[str | None, str | None, str | None], str] = {}  # each told once
    played: dict[str, set[str]] = {}  # the rules each file's characters played by
    voiding = {item.voided for item in done.told if item.voided}
    for item in done.told:
        if item.file and item.system and not item.aside:
            played.setdefault(item.file, set()).add(item.system)
    for item in done.told:
        if not item.aside:
            # Two characters of one file (a same-name clash) are told apart by their rules.
            system = item.system if len(played.get(item.file or "", ())) > 1 else None
            # A file's character goes by its latest name, whatever each event called it:
            # one actor a file, not one a name (a clone's journal may give every event one).
            who = "" if item.file and item.who else item.who
            actor = actors.get((item.file, who, system))
            if actor is None:
                actor = actors[item.file, who, system] = _actor(item, done.names, system)
            by_actor.setdefault(actor, []).append(item)
    adopts = {item.id: item for item in done.told if item.aside and item.id in voiding}
    for actor, items in by_actor.items():
        yield from (f"## {actor}", "", "| when | what |", "|---|---|")
        for item in items:
            yield f"| {_time(item.when)} | {_cell(item, adopts)} |"
        yield ""
    yield from _end(done)
    aside = [item for item in done.told if item.aside]
    if aside:
        yield from ("## Corrections and adopts", "")
        for item in aside:
            yield f"- {_time(item.when)} {_escaped(item.player or 'the GM')}: {_cell(item)}"
        yield ""


MAX_PLAYERS_NAMED = 20  # a table's are a handful; a clone's journal may name 100,000


def _players(told: list[Told]) -> str:
    """Who played, by name in order, the first MAX_PLAYERS_NAMED (the rest counted)."""
    everyone = {t.player for t in told if t.player}
    if not everyone:
        return ""
    named = heapq.nsmallest(MAX_PLAYERS_NAMED, everyone)
    more = f" and {len(everyone) - len(named):,} more" if len(everyone) > len(named) else ""
    return f" · players: {', '.join(map(_escaped, named))}{more}"


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


def _actor(told: Told, names: Mapping[str, str], system: str | None = None) -> str:
    if told.file and told.who:  # by file: a character renamed is one character
        rules = f", {system}" if system else ""
        return _escaped(f"{names.get(told.file, told.who)} ({told.file}{rules})")
    return "The GM" if told.who is None else _escaped(told.who)


def _cell(item: Told, adopts: Mapping[str, Told] | None = None) -> str:
    text = _escaped(item.line)
    if item.voided:
        adopt = (adopts or {}).get(item.voided)
        by = f"{_escaped(adopt.player or 'the GM')}'s adopt of {_time(adopt.when)}" if adopt \
            else "an adopt"
        return f"~~{text}~~ (voided: {by} set its values back)"
    return f"~~{text}~~ (undone)" if item.undone else text


def _escaped(text: str) -> str:
    """A name from a file, shown in a table cell as it is, never as Markdown."""
    out = printable(text)
    for mark in "\\|*_`[]<>~#":
        out = out.replace(mark, "\\" + mark)
    return out


def _time(when: str) -> str:
    return times.shown(when)


def as_json(done: Recap, told: Iterable[Told] | None = None) -> Recapped:
    """The recap as JSON (`told`: the events listed, if not every one told)."""
    actions: dict[str | None, list[str]] = {}  # each file's, in one pass over the events
    for t in done.told:
        if not t.aside:
            actions.setdefault(t.file, []).append(t.id)
    return {
        "sessions": [{"number": s.number, "from": s.start, "to": s.end, "events": s.events}
                     for s in done.sessions],
        "total_sessions": done.total,
        "characters": [{"file": file, "name": done.names[file], "holds": counts,
                        "actions": actions.get(file, [])}
                       for file, counts in done.standing.items()],
        "events": [_event_json(t) for t in (done.told if told is None else told)],
        "supply": None if done.dice is None else {"white": done.dice.white,
                                                  "black": done.dice.black},
    }


def _event_json(t: Told) -> Recounted:
    return {"id": t.id, "at": t.when, "command": t.command, "who": t.who, "file": t.file,
            "player": t.player, "told": t.line, "undone": t.undone, "pending": t.pending,
            "correction": t.aside, "late": t.late, "voided_by": t.voided, "system": t.system}


def json_parts(done: Recap) -> Iterator[str]:
    """as_json's text (json.dumps of it), the events one at a time, never all at once."""
    import json

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)

    yield "{"
    for n, (key, value) in enumerate(as_json(done, ()).items()):
        yield f"{', ' if n else ''}{dumps(key)}: "
        if key == "events":
            yield "["
            for m, told in enumerate(done.told):
                yield f"{', ' if m else ''}{dumps(_event_json(told))}"
            yield "]"
        else:
            yield dumps(value)
    yield "}"
