"""`cwx wheel`: trade whites for new traits (Color Wheel)."""

from typing import Annotated

import typer

from cwx import colorwheel
from cwx.cli import views
from cwx.cli.common import BagFile, CharFile, Move, complete_colours, group, wheel_move
from cwx.cli.output import JsonFlag, emit
from cwx.sheets import WheelCharacter

app = group("wheel", "Color Wheel: trade whites for new traits.")


@app.command("buy")
def buy(
    char: CharFile,
    colour: Annotated[str, typer.Option(
        "--color", "-C", metavar="COLOR", help="The new trait's colour: 3 whites for a primary (red, yellow, "
        "blue), 5 for a secondary (orange, green, purple).", show_default=False,
        autocompletion=complete_colours)],
    trait: Annotated[str, typer.Option(
        "--trait", "-t", metavar="NAME", help="The new trait's name.", show_default=False)],
    bag: BagFile = None,
    json: JsonFlag = False,
) -> None:
    """Trade whites for a new trait (holding no black); the whites go to the reserve.

    Example: cwx wheel buy --char sue --color blue --trait Swimmer
    """
    def play(sheet: WheelCharacter, table: colorwheel.Table) -> Move:
        bought = colorwheel.trade(table, sheet.traits, colour, trait)
        return Move(bought.table, {"color": bought.colour, "trait": bought.trait,
                                   "cost": bought.cost, "luck": views.luck_json(bought.table.held)},
                    traits=bought.traits)

    sheet, move = wheel_move("wheel buy", char, bag, play)
    result = move.result
    emit(json, result, lambda: f"{sheet.name} trades {result['cost']} whites for "
                               f"{result['trait']} ({result['color']}).\n"
                               f"  luck  {views.luck_text(move.table.held)}")
