"""`cwx retire`: a character who leaves the group, or a bag made by mistake, out of the
campaign, its dice accounted for."""

from typing import TYPE_CHECKING, Annotated

import typer

from cwx.base.printable import printable
from cwx.campaign import accounts
from cwx.cli.common import (
    BagFile,
    DryRun,
    command,
    complete_bags,
    complete_characters,
    dry,
    here,
)
from cwx.cli.output import JsonFlag, dry_json, emit

if TYPE_CHECKING:
    from cwx.campaign.results import Retirement

app = command("retire")


@app.command("retire")
def retire(
    file: Annotated[str, typer.Argument(
        help="The character (a file, or a name in the campaign) or the bag's file.",
        metavar="FILE", autocompletion=lambda ctx: [*complete_characters(ctx), *complete_bags()],
        show_default=False)],
    bag: BagFile = None,
    dry_run: DryRun = False,
    json: JsonFlag = False,
) -> None:
    """Take a character or a bag out of the campaign.

    A character's whites and blacks go back to its bag's reserve; a bag's dice leave the
    campaign with it (its supply lowered by them). The file is removed (and `git rm`'d in
    git), and the retirement journaled.

    Example: cwx retire rick
    """
    done, trouble = here().retire(file, bag=bag, dry_run=dry_run)
    result: Retirement = {"retired": done.file, "kind": done.kind,
              "dice": {"white": done.dice.white, "black": done.dice.black}, "bag": done.bag,
              "supply": {"white": done.supply.white, "black": done.supply.black},
              "removed": trouble is None, **dry_json(dry_run)}
    emit(json, result, lambda: dry(printable(_text(done, trouble)), dry_run))


def _text(done: accounts.Retired, trouble: str | None) -> str:
    if done.finished:
        lines = [f"{done.file} was retired already; its file is now removed."]
    elif done.kind == "character":
        back = f"; its {done.dice.said()} went back to the reserve of {done.bag}" \
            if done.bag else ""
        lines = [f"Retired {done.file}{back}."]
    else:
        lines = [f"Retired the bag {done.file}: its {done.dice.said()} left the campaign, "
                 f"whose supply is now {done.supply.said()}."]
    if trouble:
        lines.append(f"cwx: note: {done.file}: {trouble}")
    return "\n".join(lines)
