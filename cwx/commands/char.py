"""`cwx char`: create a character and show its sheet."""

from typing import TYPE_CHECKING, Annotated

import typer

from cwx import sheets, systems
from cwx.campaign import stem
from cwx.cli.common import Force, changing, complete_systems, group, here, note, reading
from cwx.cli.output import JsonFlag, colour_on, emit
from cwx.errors import BadValue, CwxError

if TYPE_CHECKING:
    from cwx.campaign import Campaign

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
    sheet = sheets.new_character(system, name or stem(file), [_pair(text) for text in trait])
    entry = systems.system(sheet.system)
    result = {**entry.as_json(sheet), **entry.created(sheet)}
    from cwx import accounts  # only a command that makes a file needs the ledger

    accounts.make(changing, "char new", here().of(file), file, sheet, force=force,
                  result=result, who=sheet.name)
    emit(json, result, lambda: f"Created {file}\n\n{entry.as_text(sheet, colour_on())}"
         f"{entry.created_text(sheet)}")


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
    from cwx import files

    camp = here()
    if chars and len(chars) == 1:
        path = camp.character(chars[0])
        with reading([path], camp) as change:
            sheet = change.character(path)
        entry = sheets.entry_of_sheet(sheet)
        emit(json, entry.as_json(sheet), lambda: entry.as_text(sheet, colour_on()))
        return
    paths = files.each_once([camp.character(c) for c in chars] if chars else _party(camp))
    bag = None if chars else _party_bag(camp)
    with reading(paths + ([bag] if bag else []), camp) as change:
        party = []
        for path in paths:
            try:
                party.append(change.character(path))
            except CwxError as error:
                if chars:
                    raise  # a character asked for by name is shown, or said why not
                note(f"{error}; left out (cwx check says more)")
        bag_sheet = change.bag(bag) if bag else None
    shown = [*party, *([bag_sheet] if bag_sheet else [])]
    result = {"characters": [sheets.entry_of_sheet(s).as_json(s) for s in party],
              "bag": sheets.entry_of_sheet(bag_sheet).as_json(bag_sheet) if bag_sheet else None}
    emit(json, result, lambda: "\n\n".join(sheets.entry_of_sheet(s).in_party(s, colour_on())
                                           for s in shown))


def _party(camp: "Campaign") -> list[str]:
    """Every character of the campaign the current folder is in."""
    members = camp.members(lambda error: note(f"{error}; left out (cwx check says more)"))
    found = [member.path for member in members if member.kind == "character"]
    if not found:
        raise BadValue(f"the campaign at {camp.needed()} has no characters yet; cwx char new "
                       "makes one")
    return found


def _party_bag(camp: "Campaign") -> str | None:
    """The campaign's bag, for the party view; none for a campaign without one."""
    import os

    try:
        bag = camp.bag(None)
    except CwxError:
        return None  # a party with no bag (ClockWorx only) shows none
    if not os.path.lexists(bag):
        note(f"{bag}: no such file; the party is shown without its bag")
        return None
    return bag


def _pair(text: str) -> tuple[str, str]:
    left, equals, right = text.partition("=")
    if not equals or not left.strip() or not right.strip():
        raise BadValue(f"--trait {text!r} should look like NAME=SCORE or COLOUR=NAME")
    return left.strip(), right.strip()
