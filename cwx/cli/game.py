"""`cwx game`: settle a character's luck at the end of the game (Color Wheel)."""

from cwx import colorwheel
from cwx.cli import views
from cwx.cli.common import (
    BagFile,
    CharFile,
    Move,
    character_path,
    group,
    last_action,
    wheel_move,
)
from cwx.cli.output import JsonFlag, emit
from cwx.sheets import WheelCharacter

app = group("game", "Color Wheel: the end of the game.")


@app.command("end")
def end(char: CharFile, bag: BagFile = None, json: JsonFlag = False) -> None:
    """Settle luck: blacks cancel whites one for one, then every black goes to the reserve.

    Example: cwx game end --char sue
    """
    char = character_path(char)

    def play(sheet: WheelCharacter, table: colorwheel.Table) -> Move:
        last = last_action(char)  # under the lock: no move comes between
        colorwheel.check_end(last.event.command if last else None)
        settled = colorwheel.settle(table)
        return Move(settled.table, {"luck": views.luck_json(settled.table.held),
                                    "removed": views.luck_json(settled.removed)})

    sheet, move = wheel_move("game end", char, bag, play)
    emit(json, move.result, lambda: views.settlement_text(sheet.name, move.table.held,
                                                          move.result["removed"]))
