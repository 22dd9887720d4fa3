"""`cwx bag`: the Color Wheel's bag of dice: make one, look in it, draw from it."""

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from cwx.base.errors import BadValue
from cwx.cli.common import (
    BagFile,
    CharFile,
    Colour,
    ExitCode,
    Force,
    KeepBlack,
    KeepWhite,
    Seed,
    SpendWhite,
    complete_bags,
    complete_dice,
    complete_traits,
    group,
    here,
    reading,
    rng,
)
from cwx.cli.output import JsonFlag, colour_on, emit, plural
from cwx.rules import colorwheel
from cwx.rules.colorwheel import Table
from cwx.systems import bag as bags
from cwx.systems import colorwheel as system

if TYPE_CHECKING:  # a Literal the rules name for mypy alone, quoted where it runs here
    from cwx.rules.colorwheel import Question

app = group("bag", "Color Wheel: make a bag, look in it, draw from it.")

File = Annotated[str, typer.Argument(metavar="FILE", help="The bag's TOML file.",
                                     show_default=False)]


@app.command("new")
def new(
    file: File,
    white_reserve: Annotated[int, typer.Option(
        min=0, metavar="N", help="Spare white dice beside the bag.")] = colorwheel.DEFAULT_RESERVE,
    black_reserve: Annotated[int, typer.Option(
        min=0, metavar="N", help="Spare black dice beside the bag.")] = colorwheel.DEFAULT_RESERVE,
    force: Force = False,
    json: JsonFlag = False,
) -> None:
    """Make a new bag of five dice, and a reserve beside it.

    One die each of red, yellow, blue, white and black in the bag, and whites and blacks in
    the reserve.

    Example: cwx bag new bag.toml --white-reserve 10 --black-reserve 10
    """
    made = here().new_bag(file, white_reserve=white_reserve, black_reserve=black_reserve,
                          force=force)
    emit(json, made.result, lambda: f"Created {file}\n\n" + bags.as_text(made.sheet, colour_on()))


@app.command("show")
def show(
    file: Annotated[str | None, typer.Argument(
        metavar="[FILE]", help="The bag's TOML file.", autocompletion=complete_bags,
        show_default="the campaign's bag")] = None,
    json: JsonFlag = False,
) -> None:
    """Show the dice in the bag and the reserve beside it.

    Example: cwx bag show bag.toml
    """
    camp = here()
    file = camp.bag(file, ask="as FILE")
    with reading([file], camp) as change:
        sheet = change.bag(file)
    emit(json, bags.as_json(sheet), lambda: bags.as_text(sheet, colour_on()))


@app.command("draw")
def draw(
    char: CharFile,
    bag: BagFile = None,
    colour: Colour = None,
    trait: Annotated[str | None, typer.Option(
        "--trait", "-t", metavar="NAME", help="The trait used; the action takes its colour.",
        autocompletion=complete_traits)] = None,
    drawn: Annotated[list[str] | None, typer.Option(
        "--drawn", metavar="DIE", help="A die the table drew by hand: red, yellow, blue, white "
        "or black (repeat, in order), instead of a random draw.",
        autocompletion=complete_dice)] = None,
    seed: Seed = None,
    keep_white: KeepWhite = False,
    keep_black: KeepBlack = False,
    spend_white: SpendWhite = False,
    exit_code: ExitCode = False,
    json: JsonFlag = False,
) -> None:
    """Draw from the bag for an action.

    Without --keep-white/--keep-black, a terminal asks; a script's answer is no.

    Example: cwx bag draw --char sue --trait Athletic --keep-white
    """
    if colour is not None and trait is not None:
        raise BadValue("give the action's colour (--color) or the trait used (--trait), not "
                       "both: a trait brings its own colour")
    if colour is None and trait is None:
        raise BadValue("say the action's colour with --color or the trait used with --trait")
    recorded = colorwheel.Recorded(drawn) if drawn else None
    if recorded and seed is not None:
        raise BadValue("--seed is for random draws; recorded dice (--drawn) need none")
    done = here().draw(char, bag=bag, colour=colour, trait=trait,
                       dice=recorded or colorwheel.random_die(rng(seed)),
                       choose=_answers(keep_white, keep_black), spend_white=spend_white,
                       ask_to_spend=_ask_to_spend)
    result = done.draw
    assert result is not None
    emit(json, system.drawn(result), lambda: system.draw_text(result, done.who, colour_on()))
    if exit_code and not result.success:
        raise typer.Exit(1)


def _answers(keep_white: bool, keep_black: bool) -> Callable[["Question", Table], bool]:
    """The player's answers: the flags, else a prompt on a terminal, else no."""

    def choose(question: "Question", table: Table) -> bool:
        if (keep_white and question == "keep-white") or (keep_black and question == "keep-black"):
            return True
        if not sys.stdin.isatty():
            return False
        return _ask(question, table)

    return choose


def _ask(question: "Question", table: Table) -> bool:
    die = "white" if question == "keep-white" else "black"
    outcome = "the automatic success" if die == "white" else "the automatic failure"
    spare = (table.reserve.white if die == "white" else table.reserve.black) > 0
    refill = "the GM puts another in the bag" if spare else "the reserve has none to replace it"
    return _yes(f"Drew {die}. Keep it and draw again ({refill})? No takes {outcome}. [y/N] ")


def _ask_to_spend(table: Table) -> bool:
    """After a failure, on a terminal: the seed's "you may spend one of your whites"."""
    if not sys.stdin.isatty():
        return False
    held = "the white" if table.held.white == 1 else \
        f"one of the {plural(table.held.white, 'white')}"
    return _yes(f"The action fails. Spend {held} held to turn it into a success? [y/N] ")


def _yes(question: str) -> bool:
    """Ask on stderr (so --json stays clean); no, or the end of input, is the safe answer."""
    while True:
        sys.stderr.write(question)
        sys.stderr.flush()
        answer = sys.stdin.readline()
        if not answer:  # end of input: the safe answer
            sys.stderr.write("\n")
            return False
        word = answer.strip().casefold()
        if word in ("", "n", "no"):
            return False
        if word in ("y", "yes"):
            return True
