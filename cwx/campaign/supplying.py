"""The campaign's supply of dice (W9) is the GM's word where campaign.toml names GMs: a
bag made or retired, `adopt --supply`, and an undo or redo of one each add dice or take
them away. A player's is refused by the command, and named by check when git brings it."""

from __future__ import annotations

import os
import shlex

from cwx.base.errors import CwxError
from cwx.base.record import Record
from cwx.campaign import seal
from cwx.campaign.gms import accepted
from cwx.journal import events, history, ledger
from cwx.journal import lines as journal
from cwx.journal.ledger import NO_DICE, Dice

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

STARTS = "init"  # the campaign's first making: its bag's dice, before any GM
MAX_LINKS = 64  # an undo of an undo of …: a table redoes a few times, never this many
SHOWN = 100  # such events named one by one (rederive.SHOWN)


class Moved(Record):
    """An event's change of the supply, and whether it is one no GM may be said to make."""

    dice: Dice
    by_no_gm: bool


def moved(event: journal.Event, target: Moved | None) -> Dice:
    """What `event` adds to the supply (negative: takes away): its own dice, and for an
    undo (or redo), the change of the event it takes back (`target`), taken back."""
    dice = ledger.moved(event)
    if target is not None:
        dice = dice.minus(target.dice)
    return dice


def judged(event: journal.Event, dice: Dice, target: Moved | None,
           gms: tuple[str, ...] | None) -> Moved:
    """The event's change of the supply (`dice`), held to the GMs: a player's, unless it
    takes back a player's (that puts the supply back as the GMs left it)."""
    return Moved(dice, dice != NO_DICE and not seal.is_gm(event.player, gms) and
                 not (target is not None and target.by_no_gm))


class Heard:
    """Each event of a journal that changes the supply by a player gm does not name, heard
    an event at a time on check's pass over it; the campaign's first making (its bag, made
    before any GM) aside."""

    def __init__(self, gms: tuple[str, ...] | None,
                 written: tuple[str, ...] | None = None) -> None:
        self.gms = gms
        self.written = gms if written is None else written  # campaign.toml's gm, as written
        self.moving: dict[str, Moved] = {}  # each event that changes the supply
        self.found: list[journal.Event] = []
        self.started = False
        self.settled: dict[str, int] = {}  # a file -> the last line a GM made or retired it

    def note(self, event: journal.Event) -> None:
        if self.gms is None:
            return
        first = event.command == STARTS and not self.started
        self.started = self.started or event.command == STARTS
        files = [c.file for c in event.changes if c.key is None and (c.text is not None or c.removed)]
        if files and seal.is_gm(event.player, self.gms):
            self.settled.update(dict.fromkeys(files, event.line))
        target = self.moving.get(event.undoes) if event.undoes is not None else None
        dice = moved(event, target)
        if dice == NO_DICE:
            return
        # The campaign's first making is anyone's; an undo of it is not.
        found = Moved(dice, False) if first else judged(event, dice, target, self.gms)
        if len(self.moving) < seal.MAX_HEARD:  # a table changes its dice a few times
            self.moving[event.id] = found
        if found.by_no_gm and len(self.found) < SHOWN:
            self.found.append(event._replace(result={"dice": event.result.get("dice")},
                                             changes=tuple(c for c in event.changes
                                                           if c.key is None)))

    def said(self, path: str, passed: set[str], played: int | None) -> list[CwxError]:
        """Each still standing (not undone, nor counting for nothing; a bag a GM made or
        retired since), with what settles it; a line naming no player only after lines
        that name theirs (before, it is an older cwx's: anyone's); and none the journal
        held when the table first named GMs (git proves it: firstgm.py)."""
        found = [event for event in self.found if event.id not in passed and
                 (event.player is not None or (played is not None and event.line > played))
                 and not any(self.settled.get(c.file, 0) > event.line for c in event.changes)]
        if found:
            from cwx.git import firstgm

            before = firstgm.held_before(os.path.dirname(os.path.abspath(path)),
                                         [event.id for event in found])
            found = [event for event in found if event.id not in before]
        return [CwxError(_said(event, self.gms, self.written), path=path, line=event.line)
                for event in found]


def _said(event: journal.Event, gms: tuple[str, ...] | None,
          written: tuple[str, ...] | None) -> str:
    who = f"by {event.player[:40]}" if event.player is not None else \
        "naming no player after lines that name theirs"
    return (f"{event.command[:40]} {event.id[:8]} changes the campaign's dice, {who}, no GM "
            f"of the campaign (campaign.toml: gm = {list(gms or ())}): only a GM adds dice or "
            f"takes them away (W9). If the table accepts it, "
            f"{accepted(event.player, gms, written)}; else "
            f"a GM's {_settles(event)}")


def _settles(event: journal.Event) -> str:
    """The GM's command that puts the supply back as the GMs left it."""
    player = f" --player={shlex.quote(event.player)}" if event.player is not None else ""
    if event.undoes is not None or events.kind(event.command).undoable:
        return f"`cwx undo {event.id}{player}` takes it back"
    gone = [c.file for c in event.changes if c.removed]
    if gone:
        dice = event.result.get("dice")
        white, black = (dice.get("white"), dice.get("black")) if isinstance(dice, dict) \
            else (None, None)
        if type(white) is int and type(black) is int and white >= 1 and black >= 1:
            return (f"`cwx bag new {shlex.quote(gone[0])} --white-reserve {white - 1} "
                    f"--black-reserve {black - 1}` brings its {white} whites and {black} "
                    "blacks back")
        return f"`cwx bag new {shlex.quote(gone[0])}`, with its dice, brings them back"
    made = next((c.file for c in event.changes if c.text is not None), event.file or "")
    return f"`cwx retire {shlex.quote(made)}` takes its dice out again"


def refuse_undo(camp: Any, target: journal.Event) -> None:
    """An undo (or redo) of `target` changes the supply as `target` did, taken back: a
    GM's move, unless `target` is itself a player's change of it (then taking it back
    puts the supply back as the GMs left it)."""
    if camp.root is None:
        return
    from cwx.campaign import gms as held

    gms = held.in_force(camp)[0]
    if gms is None:
        return
    found = _chain(camp.journal_file, target, gms)
    if found.dice != NO_DICE and not found.by_no_gm:
        seal.by_a_gm(camp, f"adds dice to the campaign or takes them away, as taking back "
                           f"`{target.command[:40]}` {target.id[:8]} would")


def _chain(path: str, event: journal.Event, gms: tuple[str, ...]) -> Moved:
    """`event`'s change of the supply, down its chain of undos (each looked up by id)."""
    links = [event]
    while links[-1].undoes is not None and len(links) < MAX_LINKS:
        found = history.event(path, links[-1].undoes)
        if found is None:
            break
        links.append(found)
    target: Moved | None = None
    for link in reversed(links):
        target = judged(link, moved(link, target), target, gms)
    assert target is not None
    return target
