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

app = group("luck", "Color Wheel: spend a white, or curse with a black.")


@app.command("spend")
def spend(char: CharFile, bag: DrawBag = None, json: JsonFlag = False) -> None:
    """Spend a held white: the last failed draw succeeds.

    Turn the character's last action, a failed draw, into a success (the white goes to the
    reserve). The bag is the one that draw came from.

    Example: cwx luck spend --char sue
    """
    done = here().spend_luck(char, bag=bag)
    emit(json, done.result, lambda: f"{done.who} spends a white: the failure becomes a "
                                    f"success.\n  luck  {_luck(done)}")


@app.command("curse")
def curse(char: CharFile, bag: DrawBag = None, json: JsonFlag = False) -> None:
    """The GM spoils the last successful draw with a black.

    The character's last action, a successful draw, fails, and one of their blacks goes to
    the reserve.

    Example: cwx luck curse --char sue
    """
    done = here().curse(char, bag=bag)
    emit(json, done.result, lambda: f"The GM spends one of {done.who}'s blacks: the success "
                                    f"becomes a failure.\n  luck  {_luck(done)}")


def _luck(move: "Move") -> str:
    return system.luck_text(move.table.held, colour_on())
