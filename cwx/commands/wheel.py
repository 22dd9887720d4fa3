"""`cwx wheel`: trade whites for new traits (Color Wheel)."""

from typing import Annotated

import typer

from cwx.base.errors import BadValue
from cwx.cli.common import BagFile, CharFile, Colour, group
from cwx.cli.output import JsonFlag, colour_on, emit
from cwx.commands._wheel import Move, wheel_move
from cwx.rules import colorwheel
from cwx.systems.colorwheel import WheelCharacter, luck_text, traded

app = group("wheel", "Color Wheel: trade whites for new traits.")


@app.command("buy")
def buy(
    char: CharFile,
    trait: Annotated[str, typer.Option(
        "--trait", "-t", metavar="NAME", help="The new trait's name.", show_default=False)],
    colour: Colour = None,
    bag: BagFile = None,
    json: JsonFlag = False,
) -> None:
    """Trade whites for a new trait on a colour.

    Holding no black: 3 whites for a primary colour (red, yellow, blue), 5 for a secondary
    (orange, green, purple). The whites go to the reserve.

    Example: cwx wheel buy --char sue --color blue --trait Swimmer
    """
    if colour is None:
        raise BadValue("say the new trait's colour with --color")

    def play(sheet: WheelCharacter, table: colorwheel.Table) -> Move:
        bought = colorwheel.trade(table, sheet.traits, colour, trait)
        return Move(bought.table, traded(bought), traits=bought.traits)

    sheet, move = wheel_move("wheel buy", char, bag, play)
    result = move.result
    emit(json, result, lambda: f"{sheet.name} trades {result['cost']} whites for "
                               f"{result['trait']} ({result['color']}).\n"
                               f"  luck  {luck_text(move.table.held, colour_on())}")
