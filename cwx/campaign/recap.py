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

import array
import bisect
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from cwx import systems
from cwx.base import times
from cwx.base.errors import BadFile, BadValue
from cwx.base.ink import plural
from cwx.base.printable import named
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
    """One event as the recap tells it, by where its line is: what the Markdown and the
    JSON show that its line alone does not say. A recap of every session keeps one an
    event; the names and words (hundreds of letters each, 100,000 of them in a clone's
    journal) are read again from the line as it is written (`Recap.event`)."""

    id: str
    at: int  # where its line starts in the journal
    file: str | None
    # Whom it is told under: None, the GM; "", its file's character; else the hash of
    # its character's name as shown (the events are grouped by the name shown).
    named: int | str | None
    undone: bool
    pending: bool  # a guess not yet settled
    aside: bool  # a correction or adopt: told at the end
    system: str | None = None  # the rules its character played by then ("Color Wheel")
    voided: str | None = None  # the adopt that set a purchase's values back: its id
    late: bool = False  # a guess that reached the GM after the reveal: counts for nothing
    void: bool = False  # a guess the GM sealed a new number over: it waits for nothing
    nothing: bool = False  # a turn or game end another came first of: counts for nothing
    drawn: tuple[str, ...] | None = None  # the traits its colour held then, for a draw
    made: str = ""  # what is said of a file it made: its rules, or that it was made before


class Players:
    """The players of the events told: the first MAX_PLAYERS_NAMED by name, and how many
    in all (a clone's journal may name 100,000, in 100 letters each: never all held)."""

    def __init__(self) -> None:
        self.first: list[str] = []  # in order, no two alike
        # Each counted by its hash: one name's hash alike another's (one in 2**64, and
        # salted anew each run) would count the two as one.
        self.seen: set[int] = set()

    def add(self, player: str) -> None:
        if hash(player) in self.seen:
            return
        self.seen.add(hash(player))
        if len(self.first) < MAX_PLAYERS_NAMED or player < self.first[-1]:
            bisect.insort(self.first, player)
            del self.first[MAX_PLAYERS_NAMED:]


class Recap(Record):
    total: int  # sessions in the journal
    sessions: list[Session]
    told: list[Told]
    standing: dict[str, dict[str, Any]]  # a character's file -> its counts at the end
    names: dict[str, str]  # a character's file -> its name (the latest it went by)
    dice: ledger.Dice | None
    since: str | None = None
    until: str | None = None
    players: Players | None = None
    # Each told event read again from the open journal (None: the line is not the one
    # read before: the journal was written over in place meanwhile).
    event: Callable[[int], journal.Event | None] = lambda at: None
    settled: Mapping[str, Mapping[str, Any]] = {}  # each guess the reveals settled
    undone: frozenset[str] | set[str] = frozenset()  # as the journal's model counts them


def recap(read: history.Journal, number: int | str | None = None, every: bool = False,
          since: str | None = None, until: str | None = None,
          gap: int = SESSION_GAP, tick: Callable[[int], None] | None = None) -> Recap:
    """The recap of the sessions asked for (`number`: a session's number, or a day it was
    under way), from the open journal `read`: its events read once (twice for one session
    named, whose end must be known first), each noted as it comes and folded into the
    ledger up to the end of the last session told (or `until`), then each read again as
    it is told, while `read` is open. `tick` hears how many lines or events were read,
    now and then (a terminal's progress)."""
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
    reading = _Reading(read, read.path, number, every, since, end, until, gap)
    for count, (event, at) in enumerate(order.placed(), 1):
        if end is not None and event.when > end:
            break
        reading.read(event, at)
        if tick is not None and not count % TICK:
            tick(count)
    found = found if number is not None else reading.found
    picked = chosen(found, number, every, since, until)
    if not picked:
        return Recap(len(found), [], [], {}, {}, None, since, until)
    folded = reading.folding.ledger()
    told = reading.finish(read)
    standing = {file: _counts(folded, file) for file in sorted(reading.names)}
    return Recap(len(found), picked, told, standing, reading.names, folded.supply(), since,
                 until, reading.players, read.event_at, reading.settled, reading.undone)


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
        self.void = read.void()  # as the journal's model counts them
        self.undone = read.undone() | self.void
        self.settled = guesses.settlements(path)
        self.wanted = number
        self.every, self.since = every, since
        self._last = -1e18
        self._same: dict[str, str] = {}  # one copy of each file's name and rules
        self.names: dict[str, str] = {}  # each told character's file: its latest name
        self.players = Players()
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

    def read(self, event: journal.Event, at: int) -> None:
        """Note one event, in time order; `at`: where its line starts."""
        seconds = _seconds(event.when)
        if seconds - self._last >= self.gap or not self.found:
            self.found.append(Session(len(self.found) + 1, event.when, event.when, 1))
            if self.latest:  # only the latest session is told: the one before is not
                self.told, self.bought, self.waiting = [], [], []
                self.names, self.players = {}, Players()
        else:
            last = self.found[-1]
            self.found[-1] = last._replace(end=event.when, events=last.events + 1)
        self._last = seconds
        if self.until is not None and event.when[:len(self.until)] > self.until:
            return  # counted as a session's, neither told nor folded: the recap ends before
        kept = event.line not in self.left_out
        if kept:
            self.folding.add(event)
        again = self._follow(event) if kept else False  # past what the ledger keeps, unread
        if event.undoes is None and self._tells(event):
            self.told.append(self._told(event, at, again))
            if event.file and event.who:
                self.names[self._same.setdefault(event.file, event.file)] = event.who
            if event.player:
                self.players.add(event.player)

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
                self.told[at] = item._replace(pending=False, late=True)
            elif item.id in void:
                self.told[at] = item._replace(pending=False, void=True)
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
            if item.voided is None and not (item.undone or item.nothing) and \
                    adopt.order > order and _sets_back(adopt, changes):
                self.told[at] = item._replace(voided=adopt.id)

    def _tells(self, event: journal.Event) -> bool:
        if self.since is not None:  # the sessions since: their events since
            return event.when[:len(self.since)] >= self.since
        return self.wanted is None or len(self.found) == self.wanted

    def _told(self, event: journal.Event, at: int, again: bool) -> Told:
        kind = events.kind(event.command)
        sheet = self.sheets.get(event.file) if event.file else None
        pending = False
        if kind.pending and event.id not in self.settled and event.id not in self.undone:
            pending = True
            if guesses.guess_of(event) is not None:
                self.waiting.append(len(self.told))
        playing = systems.system_playing(event.command)
        system = systems.entry(playing).TITLE if playing else sheet.system if sheet else None
        made = ""
        if sheet is not None and any(c.key is None and c.file == event.file and c.created
                                     for c in event.changes):
            rules = f"{sheet.system}, " if sheet.system else ""
            made = f" ({rules}again: the file was made before)" if again else \
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
        named = None if event.who is None else "" if event.file else hash(_escaped(event.who))
        return Told(event.id, at, event.file and same.setdefault(event.file, event.file), named,
                    event.id in self.undone and event.id not in self.void, pending,
                    kind.correction or kind.table, system and same.setdefault(system, system),
                    drawn=_drawn(event, sheet), made=made and same.setdefault(made, made),
                    nothing=event.id in self.void)


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


def _drawn(event: journal.Event, sheet: _Sheet | None) -> tuple[str, ...] | None:
    """The traits a draw's colour held then, which it is told with (blue (Athletic)): the
    journal records the colour alone."""
    colour = event.result.get("color")
    if sheet is None or not isinstance(colour, str) or "trait" in event.result:
        return None
    return sheet.traits.get(colour) or None


def _traits_named(event: journal.Event, drawn: tuple[str, ...] | None) -> journal.Event:
    if not drawn:
        return event
    colour = event.result["color"]
    return event._replace(result={**event.result, "color": f"{colour} ({', '.join(drawn)})"})


def _line(done: Recap, item: Told, event: journal.Event) -> str:
    """An event told in words, without its actor, as it stood at the recap's end."""
    line = story.told(_traits_named(event, item.drawn), actor=False)
    if events.kind(event.command).pending:
        entry = done.settled.get(event.id)
        if entry is not None:
            line = guesses.told_settled(event, entry)
        elif event.id in done.undone:  # just undone: never late
            line = guesses.told_undone(line)
    line += item.made
    return guesses.told_late(line) if item.late else guesses.told_void(line) if item.void \
        else line


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
                _players(done.players), "")
    # Each actor's events (by the name shown: "The GM" for events of no file, or of
    # many), by their places in the list told: a name not a file's, as each event's
    # words, is read again from the journal as it is written. Places alone, 4 bytes each:
    # a long journal's recap holds no more than that while it is told.
    by_actor: dict[int, array.array[int]] = {}
    shown: dict[tuple[str | None, str | None], int] = {}  # a file's character: its name's hash
    played: dict[str, set[str]] = {}  # the rules each file's characters played by
    voiding = {item.voided for item in done.told if item.voided}
    for item in done.told:
        if item.file and item.system and not item.aside:
            played.setdefault(item.file, set()).add(item.system)

    def apart(item: Told) -> str | None:
        """Two characters of one file (a same-name clash) are told apart by their rules."""
        return item.system if len(played.get(item.file or "", ())) > 1 else None

    for number, item in enumerate(done.told):
        if not item.aside:
            system = apart(item)
            # A file's character goes by its latest name, whatever each event called it:
            # one actor a file, not one a name (a clone's journal may give every event one).
            if item.named is None:
                actor = hash("The GM")
            elif isinstance(item.named, int):
                actor = item.named
            elif (actor := shown.get((item.file, system), 0)) == 0:
                actor = shown[item.file, system] = hash(_actor_named(item.file, done.names,
                                                                     system))
            by_actor.setdefault(actor, array.array("I")).append(number)
    adopts = {item.id: item for item in done.told if item.aside and item.id in voiding}
    for places in by_actor.values():
        header = False
        for place in places:
            item = done.told[place]
            system = apart(item)
            event = _again(done, item)
            if not header:
                yield from (f"## {_actor(item, event, done.names, system)}", "",
                            "| when | what |", "|---|---|")
                header = True
            yield f"| {_time(event.when)} | {_cell(done, item, event, adopts)} |"
        yield ""
    yield from _end(done)
    aside = [item for item in done.told if item.aside]
    if aside:
        yield from ("## Corrections and adopts", "")
        for item in aside:
            event = _again(done, item)
            yield f"- {_time(event.when)} {_escaped(event.player or 'the GM')}: " \
                f"{_cell(done, item, event)}"
        yield ""


def _again(done: Recap, item: Told) -> journal.Event:
    """A told event, read again from the journal."""
    event = done.event(item.at)
    if event is None or event.id != item.id:
        raise BadFile("was written over while the recap was told; run cwx recap again",
                      path="journal.jsonl")
    return event


MAX_PLAYERS_NAMED = 20  # a table's are a handful; a clone's journal may name 100,000


def _players(players: Players | None) -> str:
    """Who played, by name in order, the first MAX_PLAYERS_NAMED (the rest counted)."""
    if players is None or not players.first:
        return ""
    named, everyone = players.first, len(players.seen)
    more = f" and {everyone - len(named):,} more" if everyone > len(named) else ""
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


def _actor(told: Told, event: journal.Event, names: Mapping[str, str],
           system: str | None = None) -> str:
    if told.file and event.who:  # by file: a character renamed is one character
        return _actor_named(told.file, names, system, event.who)
    return "The GM" if event.who is None else _escaped(event.who)


def _actor_named(file: str | None, names: Mapping[str, str], system: str | None,
                 who: str = "") -> str:
    rules = f", {system}" if system else ""
    return _escaped(f"{names.get(file or '', who)} ({file}{rules})")


def _cell(done: Recap, item: Told, event: journal.Event,
          adopts: Mapping[str, Told] | None = None) -> str:
    text = _escaped(_line(done, item, event))
    if item.voided:
        adopt = (adopts or {}).get(item.voided)
        by = _adopted_by(_again(done, adopt)) if adopt else "an adopt"
        return f"~~{text}~~ (voided: {by} set its values back)"
    if item.nothing:  # as `cwx log` says it
        return f"~~{text}~~ (counts for nothing: {_escaped(story.why_void(event))})"
    return f"~~{text}~~ (undone)" if item.undone else text


def _adopted_by(adopt: journal.Event) -> str:
    return f"{_escaped(adopt.player or 'the GM')}'s adopt of {_time(adopt.when)}"


def _escaped(text: str) -> str:
    """A name from a file, shown in a table cell as it is (a letter that prints nothing
    escaped), never as Markdown."""
    out = named(text)
    for mark in "\\|*_`[]<>~#":
        out = out.replace(mark, "\\" + mark)
    return out


def _time(when: str) -> str:
    return times.shown(when)


def as_json(done: Recap, told: Iterable[Told] | None = None) -> Recapped:
    """The recap as JSON (`told`: the events listed, if not every one told), its events
    read again from the journal."""
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
        "events": [_event_json(done, t) for t in (done.told if told is None else told)],
        "supply": None if done.dice is None else {"white": done.dice.white,
                                                  "black": done.dice.black},
    }


def _event_json(done: Recap, t: Told) -> Recounted:
    event = _again(done, t)
    return {"id": t.id, "at": event.when, "command": event.command, "who": event.who,
            "file": t.file, "player": event.player, "told": _line(done, t, event),
            "undone": t.undone, "pending": t.pending, "correction": t.aside, "late": t.late,
            "voided_by": t.voided, "system": t.system,
            "counts_for_nothing": story.why_void(event) if t.nothing else None}


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
                yield f"{', ' if m else ''}{dumps(_event_json(done, told))}"
            yield "]"
        else:
            yield dumps(value)
    yield "}"
