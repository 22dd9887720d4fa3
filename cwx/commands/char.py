"""`cwx char`: create a character and show its sheet."""

from typing import Annotated

import typer

from cwx import systems
from cwx.base.errors import BadValue
from cwx.cli.common import (
    CharNamed,
    DryRun,
    Force,
    complete_systems,
    dry,
    group,
    here,
    reading,
)
from cwx.cli.output import JsonFlag, colour_on, dry_json, emit
from cwx.systems import sheets

app = group("char", "Create characters and show their sheets.")

File = Annotated[str, typer.Argument(metavar="FILE", help="The character's TOML file.",
                                     show_default=False)]


@app.command("new")
def new(
    file: File,
    system: Annotated[str, typer.Option(metavar="SYSTEM", help="clockworx or colorwheel.",
                                        show_default=False, autocompletion=complete_systems)],
    trait: Annotated[list[str], typer.Option(
        "--trait", "-t", metavar="TRAIT", help="ClockWorx: NAME=SCORE (three or more, 12 points in all). "
        "Color Wheel: COLOUR=NAME, one for each of the six colours.", show_default=False)],
    name: Annotated[str | None, typer.Option(
        metavar="NAME", help="The character's name.", show_default="the file's name")] = None,
    force: Force = False,
    dry_run: DryRun = False,
    json: JsonFlag = False,
) -> None:
    """Create a character file.

    Example: cwx char new kris.toml --system clockworx --trait Scrounge=3 --trait Repair=3 --trait Tough=5
    """
    if not file.strip():
        raise BadValue("the character's file needs a name, like kris.toml")
    made = here().new_character(file, system=system, traits=[_pair(text) for text in trait],
                                name=name, force=force, dry_run=dry_run)
    sheet, result = made.sheet, made.result
    entry = systems.system(sheet.system)
    emit(json, {**result, **dry_json(dry_run)},
         lambda: dry(f"Created {file}\n\n{entry.as_text(sheet, colour_on())}"
                     f"{entry.created_text(sheet)}", dry_run))


@app.command("show")
def show(
    char: CharNamed,
    json: JsonFlag = False,
) -> None:
    """Show a character's sheet (the party at a glance: cwx party).

    Example: cwx char show kris.toml
    """
    camp = here()
    path = camp.character(char)
    with reading([path], camp) as change:
        sheet = change.character(path)
    entry = sheets.entry_of_sheet(sheet)
    emit(json, entry.as_json(sheet), lambda: entry.as_text(sheet, colour_on()))


def _pair(text: str) -> tuple[str, str]:
    left, equals, right = text.partition("=")
    if not equals or not left.strip() or not right.strip():
        raise BadValue(f"--trait {text!r} should look like NAME=SCORE or COLOUR=NAME")
    return left.strip(), right.strip()
