"""`cwx wheel`: trade whites for new traits (Color Wheel)."""

from typing import Annotated

import typer

from cwx.cli.common import BagFile, CharFile, complete_colours, group
from cwx.cli.output import JsonFlag, emit

app = group("wheel", "Color Wheel: trade whites for new traits.")


@app.command("buy")
def buy(
    char: CharFile,
    bag: BagFile,
    color: Annotated[str, typer.Option(
        "--color", help="The new trait's colour: 3 whites for a primary, 5 for a secondary.",
        show_default=False, autocompletion=complete_colours)],
    trait: Annotated[str, typer.Option(help="The new trait's name.", show_default=False)],
    json: JsonFlag = False,
) -> None:
    """Trade whites for a new trait (holding no black); the whites go to the reserve.

    Example: cwx wheel buy --char sue.toml --bag bag.toml --color blue --trait Swimmer
    """
    from cwx import colorwheel
    from cwx.cli import views
    from cwx.cli.common import about, changing, record, save_table, wheel_table

    with changing("wheel buy", [char, bag], journal_beside=char) as change:
        sheet, _, table = wheel_table(change, char, bag)
        with about(char):
            bought = colorwheel.trade(table, sheet.traits, color, trait)
        key = sheet.colour_keys.get(bought.colour, bought.colour)
        change.set(char, ("traits", key), list(bought.traits[bought.colour]))
        save_table(change, char, bag, table, bought.table)
        result = {"color": bought.colour, "trait": bought.trait, "cost": bought.cost,
                  "luck": views.luck_json(bought.table.held)}
        record(change, sheet.name, char, result, bag=bag)
    emit(json, result, lambda: f"{sheet.name} trades {bought.cost} whites for "
                               f"{bought.trait} ({bought.colour}).\n"
                               f"  luck  {views.luck_text(bought.table.held)}")
