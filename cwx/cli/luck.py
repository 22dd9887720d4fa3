"""`cwx luck`: a character's luck, after the fact: a white spent on a failure, the GM's
curse on a success (Color Wheel)."""

import os
from collections.abc import Callable
from typing import Annotated

import typer

from cwx import campaign, colorwheel, journal
from cwx.cli import views
from cwx.cli.common import (
    CharFile,
    Move,
    character_path,
    group,
    last_action,
    wheel_move,
)
from cwx.cli.output import JsonFlag, emit
from cwx.colorwheel import Table, Turn
from cwx.errors import BadFile, Conflict
from cwx.sheets import WheelCharacter

# Luck turns a draw already made, so the bag is the one it came from.
DrawBag = Annotated[str | None, typer.Option(
    "--bag", "-b", metavar="FILE", show_default="the bag the last draw came from",
    help="The bag's file.")]

app = group("luck", "Color Wheel: spend a white on a failure; the GM's curse on a success.")


@app.command("spend")
def spend(char: CharFile, bag: DrawBag = None, json: JsonFlag = False) -> None:
    """Turn the character's last action, a failed draw, into a success by spending a held
    white (it goes to the reserve). The bag is the one that draw came from.

    Example: cwx luck spend --char sue
    """
    sheet, move = _turn("spend", char, bag, colorwheel.spend)
    emit(json, move.result, lambda: f"{sheet.name} spends a white: the failure becomes a "
                                    f"success.\n  luck  {views.luck_text(move.table.held)}")


@app.command("curse")
def curse(char: CharFile, bag: DrawBag = None, json: JsonFlag = False) -> None:
    """The GM spoils the character's last action, a successful draw, with one of their
    blacks (it goes to the reserve).

    Example: cwx luck curse --char sue
    """
    sheet, move = _turn("curse", char, bag, colorwheel.curse)
    emit(json, move.result, lambda: f"The GM spends one of {sheet.name}'s blacks: the success "
                                    f"becomes a failure.\n  luck  {views.luck_text(move.table.held)}")


def _bag_of(folder: str, action: journal.Action | None) -> str | None:
    """The bag the character's last draw came from, as the journal in `folder` names it."""
    if action is None or not action.event.bag:
        return None
    name = action.event.bag
    path = os.path.relpath(os.path.join(folder, name))
    try:
        campaign.named_by_journal(folder, name)
    except BadFile:
        reach = "the campaign" if campaign.root_above(folder) else "the journal's folder"
        raise BadFile(f"the bag the last draw came from is outside {reach}; say which bag "
                      "with --bag", path=path) from None
    if not os.path.lexists(path):
        raise BadFile("no such file: the bag the last draw came from is gone; if it was "
                      "moved, say where with --bag", path=path)
    return path


class _Moved(Exception):
    """The character acted again between the first look at the journal and the lock."""


def _turn(turn: Turn, char: str, bag: str | None,
          rule: Callable[[Table], Table]) -> tuple[WheelCharacter, Move]:
    """Turn the character's last draw, as the rules allow: a spend and a curse alike."""
    char = character_path(char)
    folder = os.path.realpath(campaign.journal_folder(char))
    for _ in range(10):
        seen = last_action(char)  # for the bag that draw came from
        from_draw = _bag_of(folder, seen) if bag is None else None

        def play(sheet: WheelCharacter, table: Table, seen: journal.Action | None = seen,
                 ) -> Move:
            action = last_action(char)  # again, under the lock
            if (action and action.event.id) != (seen and seen.event.id):
                raise _Moved
            colorwheel.check_turn(turn, action.event.command if action else None,
                                  bool(action and action.event.result.get("success")),
                                  bool(action and action.turned))
            assert action is not None
            after = rule(table)
            result = {"turns": action.event.id, "success": turn == "spend",
                      "luck": views.luck_json(after.held)}
            if action.undone_turns:  # it was turned before, and that undone (journal.Turns)
                result["after_undone"] = list(action.undone_turns)
            return Move(after, result)

        try:
            return wheel_move(f"luck {turn}", char, bag or from_draw, play)
        except _Moved:
            continue
    raise Conflict("the character keeps acting while cwx reads the journal; run the "
                   "command again", path=journal.path_in(folder))
