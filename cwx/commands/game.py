"""`cwx game`: settle a character's luck at the end of the game (Color Wheel)."""

from cwx import colorwheel, journal
from cwx.cli.common import BagFile, CharFile, group, here
from cwx.cli.output import JsonFlag, colour_on, emit
from cwx.commands._wheel import Move, wheel_move
from cwx.systems import colorwheel as system
from cwx.systems.colorwheel import WheelCharacter, settled, settlement_text

app = group("game", "Color Wheel: the end of the game.")


@app.command("end")
def end(char: CharFile, bag: BagFile = None, json: JsonFlag = False) -> None:
    """Settle luck: blacks cancel whites one for one, then every black goes to the reserve.

    Example: cwx game end --char sue
    """
    camp = here()
    char = camp.character(char)
    at = camp.of(char)
    settlement = None

    def play(sheet: WheelCharacter, table: colorwheel.Table) -> Move:
        nonlocal settlement
        last = journal.last_action(at.journal_file, at.name_of(char))  # under the lock
        colorwheel.check_end(system.last_action(last))
        settlement = colorwheel.settle(table)
        return Move(settlement.table, settled(settlement))

    sheet, move = wheel_move("game end", char, bag, play)
    assert settlement is not None
    emit(json, move.result, lambda: settlement_text(sheet.name, settlement, colour_on()))
