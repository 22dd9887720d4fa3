"""`cwx char`: create a character and show its sheet."""

from typing import Annotated

import typer

from cwx import files, sheets
from cwx.cli import views
from cwx.cli.common import Force, complete_systems, create, group, reading
from cwx.cli.output import JsonFlag, emit
from cwx.errors import BadValue

app = group("char", "Create characters and show their sheets.")

File = Annotated[str, typer.Argument(help="The character's TOML file.", show_default=False)]


@app.command("new")
def new(
    file: File,
    system: Annotated[str, typer.Option(help="clockworx or colorwheel.", show_default=False,
                                        autocompletion=complete_systems)],
    trait: Annotated[list[str], typer.Option(
        help="ClockWorx: NAME=SCORE (three or more, 12 points in all). "
             "Color Wheel: COLOUR=NAME, one for each of the six colours.",
        show_default=False)],
    name: Annotated[str | None, typer.Option(help="The character's name [default: the file's name].")] = None,
    force: Force = False,
    json: JsonFlag = False,
) -> None:
    """Create a character file.

    Example: cwx char new kris.toml --system clockworx --trait Scrounge=3 --trait Repair=3 --trait Tough=5
    """
    pairs = [_pair(text) for text in trait]
    sheet = sheets.new_character(system, name or files.stem(file), pairs)
    result = views.sheet_json(sheet)
    left = sheets.unspent(sheet)
    if left is not None:  # C1: unspent creation points are allowed, and said
        result["unspent"] = left
    create("char new", file, sheet, force=force, result=result, who=sheet.name)
    emit(json, result, lambda: f"Created {file}\n\n" + views.sheet_text(sheet)
         + (views.unspent_text(left) if left is not None else ""))


@app.command("show")
def show(file: File, json: JsonFlag = False) -> None:
    """Show a character's sheet.

    Example: cwx char show kris.toml
    """
    with reading([file]) as change:
        sheet = change.character(file)
    emit(json, views.sheet_json(sheet), lambda: views.sheet_text(sheet))


def _pair(text: str) -> tuple[str, str]:
    left, equals, right = text.partition("=")
    if not equals or not left.strip() or not right.strip():
        raise BadValue(f"--trait {text!r} should look like NAME=SCORE or COLOUR=NAME")
    return left.strip(), right.strip()
