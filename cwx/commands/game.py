"""`cwx game`: settle a character's luck at the end of the game (Color Wheel)."""

from typing import TYPE_CHECKING

from cwx.cli.common import BagFile, CharFile, group, here
from cwx.cli.output import JsonFlag, colour_on, emit
from cwx.commands._wheel import Move, wheel_move
from cwx.journal import lines as journal
from cwx.rules import colorwheel
from cwx.rules.colorwheel import Luck
from cwx.systems import colorwheel as system
from cwx.systems.colorwheel import WheelCharacter, settled, settlement_text

if TYPE_CHECKING:
    from cwx.systems.results import GameEnded

app = group("game", "Color Wheel: the end of the game.")


@app.command("end")
def end(char: CharFile, bag: BagFile = None, json: JsonFlag = False) -> None:
    """Settle luck at the end of a game.

    Blacks cancel whites one for one, then every black goes to the reserve. A game already
    ended (or never begun) with no black held is left as it is, exit 0, so a scene may end
    every character's game and be played again.

    Example: cwx game end --char sue
    """
    camp = here()
    char = camp.character(char)
    at = camp.of(char)
    settlement = None

    def play(sheet: WheelCharacter, table: colorwheel.Table) -> Move:
        nonlocal settlement
        last = journal.last_action(at.journal_file, at.name_of(char))  # under the lock
        if not colorwheel.to_settle(system.last_action(last), table.held):
            raise _Settled(sheet.name, table.held)
        settlement = colorwheel.settle(table)
        return Move(settlement.table, settled(settlement))

    try:
        sheet, _ = wheel_move("game end", char, bag, play)
    except _Settled as already:  # nothing was written
        who = already.who
        nothing: GameEnded = {"luck": system.luck_json(already.held),
                              "removed": {"white": 0, "black": 0}, "settled": False}
        emit(json, nothing,
             lambda: f"Nothing to settle for {who}: no black held, and no game played since "
                     "the last end.")
        return
    assert settlement is not None
    ended: GameEnded = {**settled(settlement), "settled": True}  # move.result's keys
    emit(json, ended,
         lambda: settlement_text(sheet.name, settlement, colour_on()))


class _Settled(Exception):
    """A game's end with nothing to do: leaves the change unwritten."""

    def __init__(self, who: str, held: Luck) -> None:
        super().__init__(who)
        self.who, self.held = who, held
