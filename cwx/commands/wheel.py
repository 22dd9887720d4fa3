"""`cwx wheel`: trade whites for new traits (Color Wheel)."""

from typing import Annotated

import typer

from cwx.base.errors import BadValue
from cwx.cli.common import BagFile, CharFile, Colour, group, here
from cwx.cli.output import JsonFlag, colour_on, emit
from cwx.systems.colorwheel import luck_text

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

    done = here().buy(char, trait=trait, colour=colour, bag=bag)
    result = done.result
    emit(json, result, lambda: f"{done.who} trades {result['cost']} whites for "
                               f"{result['trait']} ({result['color']}).\n"
                               f"  luck  {luck_text(done.table.held, colour_on())}")
