"""`cwx party`: the party at a glance, one compact block a character, and the bag."""

from typing import TYPE_CHECKING, Annotated

import typer

from cwx import systems
from cwx.base.errors import CwxError
from cwx.cli.common import command, complete_characters, here, note, reading
from cwx.cli.output import JsonFlag, colour_on, emit
from cwx.systems import bag as bags
from cwx.systems import sheets

if TYPE_CHECKING:
    from cwx.campaign.folder import Campaign
    from cwx.commands._results import Party

app = command("party")


@app.command("party")
def party(
    chars: Annotated[list[str] | None, typer.Argument(
        help="Characters: files, or names in the campaign.", metavar="[CHAR]...",
        autocompletion=complete_characters,
        show_default="every character of the campaign, and its bag")] = None,
    json: JsonFlag = False,
) -> None:
    """Show the party at a glance, one compact block each.

    The characters named, or every character of the campaign and its bag. --json is always
    an object with a list of characters (and the bag, or null), however many are named.

    Example: cwx party sue kris
    """
    from cwx.campaign import files

    camp = here()
    paths = files.each_once([camp.character(c) for c in chars] if chars else _party(camp))
    bag = None if chars else _party_bag(camp)
    with reading(paths + ([bag] if bag else []), camp) as change:
        found = []
        for path in paths:
            try:
                found.append(change.character(path))
            except CwxError as error:
                if chars:
                    raise  # a character asked for by name is shown, or said why not
                note(f"{error}; left out (cwx check says more)")
        bag_sheet = change.bag(bag) if bag else None
    shown = [*found, *([bag_sheet] if bag_sheet else [])]
    result: Party = {"characters": [systems.system(s.system).as_json(s) for s in found],
                     "bag": bags.as_json(bag_sheet) if bag_sheet else None}
    # A campaign with no one in it yet is an empty party, not an error (exit 0).
    empty = [] if found else [f"No characters in the campaign at {camp.needed()} yet; "
                              "cwx char new makes one."]
    emit(json, result, lambda: "\n\n".join([*empty, *(sheets.entry_of_sheet(s).in_party(
        s, colour_on()) for s in shown)]))


def _party(camp: "Campaign") -> list[str]:
    """Every character of the campaign the current folder is in."""
    members = camp.members(lambda error: note(f"{error}; left out (cwx check says more)"))
    return [member.path for member in members if member.kind == "character"]


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
