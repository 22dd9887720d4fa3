"""`cwx char`: create a character and show its sheet."""

import os
from typing import Annotated

import typer

from cwx import files, sheets
from cwx.cli import views
from cwx.cli.common import (
    Force,
    bag_path,
    character_path,
    complete_systems,
    create,
    group,
    in_campaign,
    note,
    reading,
)
from cwx.cli.output import JsonFlag, emit
from cwx.errors import BadValue, CwxError

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
    json: JsonFlag = False,
) -> None:
    """Create a character file.

    Example: cwx char new kris.toml --system clockworx --trait Scrounge=3 --trait Repair=3 --trait Tough=5
    """
    if not file.strip():
        raise BadValue("the character's file needs a name, like kris.toml")
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
def show(
    chars: Annotated[list[str] | None, typer.Argument(
        help="Characters: files, or names in the campaign.", metavar="[CHAR]...",
        show_default="every character of the campaign, and its bag")] = None,
    json: JsonFlag = False,
) -> None:
    """Show a character's sheet; several, or with none every character of the campaign
    and its bag, one compact block each (the party at a glance).

    Example: cwx char show kris.toml
    """
    if chars and len(chars) == 1:
        path = character_path(chars[0])
        with reading([path]) as change:
            sheet = change.character(path)
        emit(json, views.sheet_json(sheet), lambda: views.sheet_text(sheet))
        return
    paths = files.each_once([character_path(c) for c in chars] if chars else _party())
    bag = None
    if not chars:
        try:
            bag = bag_path(None, os.path.join(".", "-"))
        except CwxError:
            bag = None  # a party with no bag (ClockWorx only) shows none
        if bag and not os.path.lexists(bag):
            note(f"{bag}: no such file; the party is shown without its bag")
            bag = None
    with reading(paths + ([bag] if bag else [])) as change:
        party = []
        for path in paths:
            try:
                party.append(change.character(path))
            except CwxError as error:
                if chars:
                    raise  # a character asked for by name is shown, or said why not
                note(f"{error}; left out (cwx check says more)")
        bag_sheet = change.bag(bag) if bag else None
    result = {"characters": [views.sheet_json(sheet) for sheet in party],
              "bag": views.bag_sheet_json(bag_sheet) if bag_sheet else None}
    emit(json, result, lambda: views.party_text(party, bag_sheet))


def _party() -> list[str]:
    """Every character of the campaign the current folder is in."""
    root, paths = in_campaign(".", lambda error: note(f"{error}; left out (cwx check says more)"))
    found = []
    for path in paths:
        if sheets.kind_of(files.parse(files.read_bytes(path), path)) == "character":
            found.append(path)
    if not found:
        raise BadValue(f"the campaign at {root} has no characters yet; cwx char new makes one")
    return found


def _pair(text: str) -> tuple[str, str]:
    left, equals, right = text.partition("=")
    if not equals or not left.strip() or not right.strip():
        raise BadValue(f"--trait {text!r} should look like NAME=SCORE or COLOUR=NAME")
    return left.strip(), right.strip()
