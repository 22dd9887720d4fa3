"""`cwx luck`: a character's luck, after the fact: a white spent on a failure, the GM's
curse on a success (Color Wheel)."""

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cwx.base.errors import BadFile, Conflict
from cwx.cli.common import CharFile, complete_bags, group, here, saying
from cwx.cli.output import JsonFlag, colour_on, emit
from cwx.commands._wheel import Move, wheel_move
from cwx.journal import lines as journal
from cwx.rules import colorwheel
from cwx.rules.colorwheel import Table, Turn
from cwx.systems import colorwheel as system

if TYPE_CHECKING:
    from cwx.campaign.folder import Campaign

# Luck turns a draw already made, so the bag is the one it came from.
DrawBag = Annotated[str | None, typer.Option(
    "--bag", "-b", metavar="FILE", show_default="the bag the last draw came from",
    autocompletion=complete_bags, help="The bag's file.")]

app = group("luck", "Color Wheel: spend a white, or curse with a black.")


@app.command("spend")
def spend(char: CharFile, bag: DrawBag = None, json: JsonFlag = False) -> None:
    """Spend a held white: the last failed draw succeeds.

    Turn the character's last action, a failed draw, into a success (the white goes to the
    reserve). The bag is the one that draw came from.

    Example: cwx luck spend --char sue
    """
    sheet, move = _turn("spend", char, bag, colorwheel.spend)
    emit(json, move.result, lambda: f"{sheet.name} spends a white: the failure becomes a "
                                    f"success.\n  luck  {_luck(move)}")


@app.command("curse")
def curse(char: CharFile, bag: DrawBag = None, json: JsonFlag = False) -> None:
    """The GM spoils the last successful draw with a black.

    The character's last action, a successful draw, fails, and one of their blacks goes to
    the reserve.

    Example: cwx luck curse --char sue
    """
    sheet, move = _turn("curse", char, bag, colorwheel.curse)
    emit(json, move.result, lambda: f"The GM spends one of {sheet.name}'s blacks: the success "
                                    f"becomes a failure.\n  luck  {_luck(move)}")


def _luck(move: Move) -> str:
    return system.luck_text(move.table.held, colour_on())


def _bag_of(camp: "Campaign", action: journal.Action | None) -> str | None:
    """The bag the character's last draw came from, as its journal names it."""
    if action is None or not action.event.bag:
        return None
    name = action.event.bag
    path = os.path.relpath(os.path.join(camp.journal_folder, name))
    try:
        camp.named(name)
    except BadFile:
        reach = "the campaign" if camp.root is not None else "the journal's folder"
        raise BadFile(f"the bag the last draw came from is outside {reach}; say which bag "
                      "with --bag", path=path) from None
    if not os.path.lexists(path):
        raise BadFile("no such file: the bag the last draw came from is gone; if it was "
                      "moved, say where with --bag", path=path)
    return path


class _Moved(Exception):
    """The character acted again between the first look at the journal and the lock."""


def _turn(turn: Turn, char: str, bag: str | None,
          rule: Callable[[Table], Table]) -> tuple[Any, Move]:
    """Turn the character's last draw, as the rules allow: a spend and a curse alike."""
    camp = here()
    char = camp.character(char)
    camp = camp.of(char)
    for _ in range(10):
        seen = journal.last_action(camp.journal_file, camp.name_of(char))  # the draw's bag
        from_draw = _bag_of(camp, seen) if bag is None else None

        def play(sheet: Any, table: Table, seen: journal.Action | None = seen) -> Move:
            action = journal.last_action(camp.journal_file, camp.name_of(char))  # locked
            if (action and action.event.id) != (seen and seen.event.id):
                raise _Moved
            with saying(colorwheel.NoDraw, " (cwx bag draw, with --drawn for dice drawn by "
                                           "hand)"):
                colorwheel.check_turn(turn, system.last_action(action))
            after = rule(table)
            return Move(after, system.turned(action, turn, after))

        try:
            return wheel_move(f"luck {turn}", char, bag or from_draw, play)
        except _Moved:
            continue
    raise Conflict("the character keeps acting while cwx reads the journal; run the "
                   "command again", path=camp.journal_file)
