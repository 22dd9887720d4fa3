"""`cwx luck`: a character's luck, after the fact: a white spent on a failure, the GM's
curse on a success (Color Wheel)."""

from typing import TYPE_CHECKING, Annotated

import typer

from cwx.cli.common import CharFile, complete_bags, group, here
from cwx.cli.output import JsonFlag, colour_on, emit
from cwx.systems import colorwheel as system

if TYPE_CHECKING:
    from cwx.campaign.wheelplay import Move

# Luck turns a draw already made, so the bag is the one it came from.
DrawBag = Annotated[str | None, typer.Option(
    "--bag", "-b", metavar="FILE", show_default="the bag the last draw came from",
    autocompletion=complete_bags, help="The bag's file.")]

# The draw meant, by id: the one a pull or a clock far ahead would otherwise shadow.
DrawId = Annotated[str | None, typer.Option(
    "--draw", metavar="ID", show_default="the last action, as this clone saw it",
    help="The draw to turn, by its id or a start of it (as `cwx log` shows it); refused "
         "unless it is the character's last action.")]

app = group("luck", "Color Wheel: spend a white, or curse with a black.")


@app.command("spend")
def spend(char: CharFile, bag: DrawBag = None, draw: DrawId = None,
          json: JsonFlag = False) -> None:
    """Spend a held white: the last failed draw succeeds.

    Turn the character's last action, a failed draw, into a success (the white goes to the
    reserve). The bag is the one that draw came from. A pull before it that brings a later
    action, or a last action stamped a day ahead of every clock, is refused: --draw names
    the one meant.

    Example: cwx luck spend --char sue
    """
    done = here().spend_luck(char, bag=bag, draw=draw)
    emit(json, done.result, lambda: f"{done.who} spends a white: the failure becomes a "
                                    f"success ({_which(done)}).\n  luck  {_luck(done)}")


@app.command("curse")
def curse(char: CharFile, bag: DrawBag = None, draw: DrawId = None,
          json: JsonFlag = False) -> None:
    """The GM spoils the last successful draw with a black.

    The character's last action, a successful draw, fails, and one of their blacks goes to
    the reserve. Refused as luck spend is where the draw meant is in doubt (--draw).

    Example: cwx luck curse --char sue
    """
    done = here().curse(char, bag=bag, draw=draw)
    emit(json, done.result, lambda: f"The GM spends one of {done.who}'s blacks: the success "
                                    f"becomes a failure ({_which(done)}).\n  luck  {_luck(done)}")


def _which(move: "Move") -> str:
    """The draw turned, by id: the one the player meant, whatever git merged."""
    from cwx.base import times

    assert move.turned is not None
    return f"turns the draw {move.turned.id[:8]} of {times.shown(move.turned.when)}"


def _luck(move: "Move") -> str:
    return system.luck_text(move.table.held, colour_on())
