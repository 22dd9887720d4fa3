"""`cwx luck`: the GM's curse (Color Wheel)."""

from cwx import colorwheel
from cwx.cli import views
from cwx.cli.common import BagFile, CharFile, Move, group, wheel_move
from cwx.cli.output import JsonFlag, emit
from cwx.sheets import WheelCharacter

app = group("luck", "Color Wheel: the GM's curse on a held black.")


@app.command("curse")
def curse(char: CharFile, bag: BagFile, json: JsonFlag = False) -> None:
    """Turn the character's success into a failure with one of their blacks (it goes to
    the reserve).

    Example: cwx luck curse --char sue.toml --bag bag.toml
    """
    def play(sheet: WheelCharacter, table: colorwheel.Table) -> Move:
        after = colorwheel.curse(table)
        return Move(after, {"luck": views.luck_json(after.held)})

    sheet, move = wheel_move("luck curse", char, bag, play)
    emit(json, move.result, lambda: f"The GM spends one of {sheet.name}'s blacks: the success "
                                    f"becomes a failure.\n  luck  {views.luck_text(move.table.held)}")
