"""The Color Wheel at the table: a draw from the bag, luck spent or cursed after it, a trait
bought with whites, a game's end. Each is one move on the character's table (its bag,
the reserve, the dice it holds), written to both files and journaled as one change."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cwx.base.errors import BadFile, Conflict, RuleForbids, about, saying
from cwx.base.record import Record
from cwx.journal import recent
from cwx.journal.lines import Event
from cwx.rules import colorwheel
from cwx.rules.colorwheel import Bag, Table
from cwx.systems import colorwheel as system

if TYPE_CHECKING:
    from cwx.campaign.files import Acting as Campaign
    from cwx.rules.colorwheel import Question, Turn
    from cwx.systems.results import GameEnded


class Move(Record):
    """What one Color Wheel rule did: the table after it, its result (the journal's, and
    --json's), the character's traits when the move changed them, and once made, who made
    it (the character's name) and what its rule said beside the table: a draw's `draw`,
    a game's end's `settlement` (None: nothing to settle, and nothing written)."""

    table: Table
    result: Mapping[str, Any]  # a record of systems/results.py: Drawn, Traded, Turned...
    traits: Mapping[str, tuple[str, ...]] | None = None
    who: str = ""
    draw: colorwheel.Draw | None = None
    settlement: colorwheel.Settlement | None = None
    turned: Event | None = None  # the draw luck turned


def move(camp: Campaign, command: str, char: str, bag: str | None,
         play: Callable[[Any, Table], Move]) -> Move:
    """The skeleton of every Color Wheel move: find the character (by file or name) and
    its bag, open both under their locks, play one rule on their table, write the dice
    (and traits) that moved to both files, and journal it, all or nothing."""
    char = camp.character(char)
    at = camp.of(char)
    bag = at.bag(bag)
    with at.change(command, [char, bag]) as change:
        sheet = change.character(char, system.NAME)
        bag_sheet = change.bag(bag)
        with about(char):
            moved = play(sheet, Table(bag_sheet.bag, bag_sheet.reserve, sheet.luck))
        change.save(char, sheet, sheet._replace(luck=moved.table.held,
                                                traits=moved.traits or sheet.traits))
        change.save(bag, bag_sheet, bag_sheet._replace(bag=moved.table.bag,
                                                       reserve=moved.table.reserve))
        change.record(moved.result, who=sheet.name, file=char, bag=bag)
    return moved._replace(who=sheet.name)


# ---------------------------------------------------------------- a draw


def draw(camp: Campaign, char: str, *, bag: str | None, colour: str | None,
         trait: str | None, dice: Callable[[Bag], str],
         choose: Callable[[Question, Table], bool], spend_white: bool,
         ask_to_spend: Callable[[Table], bool] | None) -> Move:
    """One action drawn for `char`, in its `colour` or its `trait`'s (W4, W5): the
    move's `draw`."""
    drawing = _Drawing(colour, trait, dice, choose, spend_white, ask_to_spend)
    return move(camp, "bag draw", char, bag, drawing.play)


class _Drawing:
    """One draw as the player called it: the rule played on the character's table."""

    def __init__(self, colour: str | None, trait: str | None, dice: Callable[[Bag], str],
                 choose: Callable[[Question, Table], bool], spend_white: bool,
                 ask_to_spend: Callable[[Table], bool] | None) -> None:
        self.colour, self.trait, self.dice, self.choose = colour, trait, dice, choose
        self.spend_white, self.ask_to_spend = spend_white, ask_to_spend
        self.result: colorwheel.Draw | None = None

    def play(self, sheet: system.WheelCharacter, table: Table) -> Move:
        recorded = self.dice if isinstance(self.dice, colorwheel.Recorded) else None
        action = colorwheel.colour_named(self.colour) if self.colour else \
            colorwheel.trait_colour(sheet.traits, self.trait or "")
        with saying(colorwheel.DiceRanOut, " with --drawn"), \
                saying(colorwheel.DiceLeftOver, " (--keep-white, --keep-black)"):
            self.result = colorwheel.draw(table, action, self.dice, self.choose,
                                          spend_white=self.spend_white or self._asked)
            if recorded:
                recorded.check_all_used(cancelled=self.result.cancelled)
        # The journal says which dice a table drew by hand: cwx audit tests those.
        return Move(self.result.after, {**system.drawn(self.result),
                                        **({"recorded": True} if recorded else {})},
                    draw=self.result)

    def _asked(self, table: Table) -> bool:
        recorded = self.dice if isinstance(self.dice, colorwheel.Recorded) else None
        if recorded and recorded.used < len(recorded.dice):
            return False  # the record is refused below: no question about an action not made
        return self.ask_to_spend(table) if self.ask_to_spend is not None else False


# ---------------------------------------------------------------- luck, after the draw


class _Moved(Exception):
    """The character acted again between the first look at the journal and the lock."""


_aimed: dict[str, str] = {}  # a character's file (real) -> its last action's id, before a pull


def aim(camp: Campaign, char: str) -> None:
    """Before a pull: the draw a luck spend or curse is meant for, the character's last
    action as this clone played it (the pull may bring a later one)."""
    char = camp.character(char)
    at = camp.of(char)
    seen = recent.last_action(at.journal_file, at.name_of(char))
    _aimed[os.path.realpath(char)] = seen.event.id if seen is not None else ""


def turn(camp: Campaign, turned: Turn, char: str, bag: str | None,
         draw: str | None = None) -> Move:
    """Turn the character's last draw, as the rules allow: a white spent on a failure,
    or the GM's black on a success (W5, W6); the bag is the one that draw came from.
    `draw` names it by id (or a start of it); else it is the one this clone saw before
    any pull, and not one stamped a day ahead of every clock."""
    rule = colorwheel.spend if turned == "spend" else colorwheel.curse
    char = camp.character(char)
    at = camp.of(char)
    aimed = _aimed.pop(os.path.realpath(char), None)
    if turned == "curse":
        _by_the_gm(at)
    for _ in range(10):
        seen = recent.last_action(at.journal_file, at.name_of(char))  # the draw's bag
        _meant(at, turned, char, seen, draw, aimed)
        from_draw = _bag_of(at, seen) if bag is None else None

        def play(sheet: Any, table: Table, seen: recent.Action | None = seen) -> Move:
            action = recent.last_action(at.journal_file, at.name_of(char))  # locked
            if (action and action.event.id) != (seen and seen.event.id):
                raise _Moved
            with saying(colorwheel.NoDraw, " (cwx bag draw, with --drawn for dice drawn by "
                                           "hand)"):
                colorwheel.check_turn(turned, system.last_action(action))
            after = rule(table)
            assert action is not None  # check_turn refused no action
            return Move(after, system.turned(action, turned, after), turned=action.event)

        try:
            return move(at, f"luck {turned}", char, bag or from_draw, play)
        except _Moved:
            continue
    raise Conflict("the character keeps acting while cwx reads the journal; run the "
                   "command again", path=at.journal_file)


def _by_the_gm(camp: Campaign) -> None:
    """The curse is the GM's (W6): refused for a player who is none of the GMs in force
    (gms.py)."""
    if camp.root is None:
        return
    from cwx.campaign import gms, players, seal

    in_force, written = gms.in_force(camp)
    player = players.current(camp.root)
    if not seal.is_gm(player, in_force):
        seal.refuse(camp.root, f"{player} is no GM of this campaign ("
                    f"{gms.told(in_force, written)}): only the GM curses (W6)", player,
                    in_force, written)


def _meant(camp: Campaign, turned: Turn, char: str, seen: recent.Action | None,
           draw: str | None, aimed: str | None) -> None:
    """Refused, with the command that turns it, where the character's last action is
    not the draw meant: not the one `draw` names, not the one this clone saw before its
    pull (`aimed`), or, unnamed, one stamped a day ahead of every clock."""
    import time

    from cwx.base import times
    from cwx.base.hints import typed
    from cwx.journal import clock

    if seen is None:
        return  # the rules say there is no draw to turn
    event = seen.event
    last = f"`{event.command}` {event.id[:8]} of {times.shown(event.when)}"
    again = f"`cwx luck {turned} -c {typed(char)} --draw {event.id[:8]}` turns it if it " \
        "is the one you mean"
    nothing = f"nothing was {'spent' if turned == 'spend' else 'cursed'}"
    if draw is not None:
        if not draw or not event.id.startswith(draw.lower()):
            raise RuleForbids(f"the draw {draw} is not the character's last action ({last} "
                              f"is), and luck turns the last one only: {nothing}; {again}",
                              path=char)
        return
    if aimed is not None and aimed != event.id:
        by = f" by {event.player}" if event.player else ""
        saw = f"not the draw {aimed[:8]} this clone saw" if aimed else \
            "where this clone saw none"
        raise RuleForbids(f"the pull brought a later action{by}: the character's last "
                          f"action is now {last}, {saw}; {nothing}. {again}", path=char)
    if clock.leapt(camp.journal_file, event, clock.DAY, time.time()):
        raise RuleForbids(f"the character's last action, {last}, is stamped more than a day "
                          "ahead of this machine's clock and of every line before it (a "
                          "clone's clock far wrong, or a line written to be turned), so cwx "
                          f"does not guess it is the one you mean: {nothing}; {again}",
                          path=char)


def _bag_of(camp: Campaign, action: recent.Action | None) -> str | None:
    """The bag the character's last draw came from, as its journal names it."""
    if action is None or not action.event.bag:
        return None
    name = action.event.bag
    path = os.path.relpath(os.path.join(camp.journal_folder, name))
    try:
        camp.named(name)
    except BadFile:
        reach = "the campaign" if camp.root is not None else "the journal's folder"
        raise BadFile(f"the bag the last draw came from is outside {reach}; say which bag "
                      "with --bag", path=path) from None
    if not os.path.lexists(path):
        raise BadFile("no such file: the bag the last draw came from is gone; if it was "
                      "moved, say where with --bag", path=path)
    return path


# ---------------------------------------------------------------- a trait bought, a game's end


def buy(camp: Campaign, char: str, *, trait: str, colour: str, bag: str | None) -> Move:
    """Whites traded for a new trait on `colour` (W8)."""

    def play(sheet: system.WheelCharacter, table: Table) -> Move:
        bought = colorwheel.trade(table, sheet.traits, colour, trait)
        return Move(bought.table, system.traded(bought), traits=bought.traits)

    return move(camp, "wheel buy", char, bag, play)


class _Settled(Exception):
    """A game's end with nothing to do: leaves the change unwritten."""

    def __init__(self, who: str, table: Table) -> None:
        super().__init__(who)
        self.who, self.table = who, table


def end(camp: Campaign, char: str, bag: str | None) -> Move:
    """The character's luck settled at the end of a game (W7): the move's `settlement`.
    A game already ended (or never begun) with no black held is left as it is: nothing to
    settle (None), nothing written."""
    from cwx.journal import ends

    char = camp.character(char)
    at = camp.of(char)

    def play(sheet: system.WheelCharacter, table: Table) -> Move:
        name = at.name_of(char)
        last = recent.last_action(at.journal_file, name)  # under the lock
        if not colorwheel.to_settle(system.last_action(last), table.held):
            raise _Settled(sheet.name, table)
        settlement = colorwheel.settle(table)
        # Named by id: the game it ends is the one this clone saw, however git merges.
        draws = ends.unsettled(at.journal_file, name)
        return Move(settlement.table, system.settled(settlement, draws), settlement=settlement)

    try:
        made = move(at, "game end", char, bag, play)
    except _Settled as already:  # nothing was written
        nothing: GameEnded = {"luck": system.luck_json(already.table.held),
                              "removed": {"white": 0, "black": 0}, "game": [],
                              "settled": False}
        return Move(already.table, nothing, who=already.who)
    assert made.settlement is not None
    ended: GameEnded = {**system.settled(made.settlement, list(made.result["game"])),
                        "settled": True}
    return made._replace(result=ended)


# ---------------------------------------------------------------- a table, for its odds


def seated(camp: Campaign, char: str | None, *, bag: str | None, trait: str | None,
           held: colorwheel.Luck | None) -> tuple[Table, str | None]:
    """The character's table (the campaign's bag, or `bag`, and the luck it holds) and its
    trait's colour; without a character, the luck `held` at `bag` (a new one if None)."""
    colour = None
    luck = held or colorwheel.Luck()
    if char is not None:
        path = camp.character(char)
        bag = camp.of(path).bag(bag)
        with camp.reading([path]) as change:
            sheet = change.character(path, system.NAME)
        if trait is not None:
            with about(path):
                colour = colorwheel.trait_colour(sheet.traits, trait)
        luck = sheet.luck
    if bag is None:
        spare = colorwheel.DEFAULT_RESERVE
        return Table(colorwheel.Bag(), colorwheel.Luck(spare, spare), luck), colour
    with camp.reading([bag]) as change:
        kept = change.bag(bag)
    return Table(kept.bag, kept.reserve, luck), colour
