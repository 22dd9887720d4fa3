"""`cwx xp`: spend experience on a new trait or a higher score (ClockWorx)."""

from typing import Annotated

import typer

from cwx.cli.common import CharFile, about, changing, complete_traits, group, here
from cwx.cli.output import JsonFlag, emit
from cwx.rules import clockworx
from cwx.systems import clockworx as clockworx_system
from cwx.systems.clockworx import advancement_json, advancement_text

app = group("xp", "ClockWorx: spend experience.")


@app.command("spend")
def spend(
    char: CharFile,
    new: Annotated[str | None, typer.Option(
        "--new", "-n", metavar="NAME", help="Buy a new trait at 1 (costs 12).")] = None,
    raise_: Annotated[str | None, typer.Option(
        "--raise", "-r", metavar="NAME", help="Raise a trait by one (n to n+1 costs 12×(n+1)).",
        autocompletion=complete_traits)] = None,
    json: JsonFlag = False,
) -> None:
    """Spend experience: a new trait, or one more point in a trait.

    Example: cwx xp spend --char kris --raise Repair
    """
    camp = here()
    char = camp.character(char)
    with changing("xp spend", [char], camp.of(char)) as change:
        sheet = change.character(char, clockworx_system.NAME)
        with about(char):
            step = clockworx.advance(sheet.traits, sheet.xp, new=new, raise_=raise_)
        change.save(char, sheet, sheet._replace(traits={**sheet.traits, step.trait: step.score},
                                                xp=step.xp_total))
        result = advancement_json(step)
        change.record(result, who=sheet.name, file=char)
    emit(json, result, lambda: advancement_text(step))
