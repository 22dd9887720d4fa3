"""The skeleton of every Color Wheel move, for the Color Wheel's commands (bag draw, luck,
game end, wheel buy): a module of cwx.commands that is no command (its name starts "_")."""

from collections.abc import Callable, Mapping
from typing import Any

from cwx.base.record import Record
from cwx.cli.common import about, changing, here
from cwx.rules.colorwheel import Table
from cwx.systems.colorwheel import NAME


class Move(Record):
    """What one Color Wheel rule did: the table after it, its result (the journal's, and
    --json's), and the character's traits when the move changed them."""

    table: Table
    result: Mapping[str, Any]  # a record of systems/results.py: Drawn, Traded, Turned...
    traits: Mapping[str, tuple[str, ...]] | None = None


def wheel_move(command: str, char: str, bag: str | None,
               play: Callable[[Any, Table], "Move"]) -> tuple[Any, "Move"]:
    """The skeleton of every Color Wheel move: find the character (by file or name) and
    its bag, open both under their locks, play one rule on their table, write the dice
    (and traits) that moved to both files, and journal it, all or nothing."""
    camp = here()
    char = camp.character(char)
    camp = camp.of(char)
    bag = camp.bag(bag)
    with changing(command, [char, bag], camp) as change:
        sheet = change.character(char, NAME)
        bag_sheet = change.bag(bag)
        with about(char):
            move = play(sheet, Table(bag_sheet.bag, bag_sheet.reserve, sheet.luck))
        change.save(char, sheet, sheet._replace(luck=move.table.held,
                                                traits=move.traits or sheet.traits))
        change.save(bag, bag_sheet, bag_sheet._replace(bag=move.table.bag,
                                                       reserve=move.table.reserve))
        change.record(move.result, who=sheet.name, file=char, bag=bag)
    return sheet, move
