"""`cwx adopt`: record hand edits in the ledger, so the file becomes what the ledger says."""

from typing import TYPE_CHECKING, Annotated

import typer

from cwx.base.printable import printable
from cwx.campaign import accounts
from cwx.cli.common import DryRun, command, dry, here
from cwx.cli.output import JsonFlag, dry_json, emit
from cwx.cli.views import value_text
from cwx.journal.ledger import NO_DICE

if TYPE_CHECKING:
    from cwx.campaign.results import Adopted

app = command("adopt")


@app.command("adopt")
def adopt(
    paths: Annotated[list[str], typer.Argument(
        help="The character and bag files whose hand edits the table accepts.",
        metavar="FILE...", show_default=False)],
    supply: Annotated[bool, typer.Option(
        "--supply", help="The GM adds dice to the campaign or takes them away: the files "
        "may hold more or fewer whites and blacks than the ledger (journaled as such).")
    ] = False,
    dry_run: DryRun = False,
    json: JsonFlag = False,
) -> None:
    """Journal hand edits, so the ledger agrees with the files.

    For each key whose file value differs from its ledger value, a change from the one to
    the other (a file with no history: its whole text): the GM's hand-given reward, or the
    table's decision after two clones spent the same dice, joins the ledger. A file the
    ledger knows that is gone (moved, say) leaves it: adopt it together with the files that
    hold its dice now. Dice only move between files, unless --supply.

    Example: cwx adopt rick.toml bag.toml
    """
    done = here().adopt(paths, supply=supply, dry_run=dry_run)
    result: Adopted = {"adopted": [a.as_json() for a in done.corrected],
                       "supply": {"white": done.total.white, "black": done.total.black},
                       **dry_json(dry_run)}
    emit(json, result, lambda: dry(_text(done), dry_run))


def _text(done: accounts.Adopted) -> str:
    if not done.corrected:
        return "Nothing to adopt: every file agrees with the ledger."
    lines = ["Adopted into the ledger:"]
    for item in done.corrected:
        if item.key is None:
            lines.append(f"  {item.file}: the whole file, as its history's start")
        else:
            lines.append(f"  {item.file} [{item.key}] {value_text(item.before)} → "
                         f"{value_text(item.after)}")
    if done.supply != NO_DICE:
        change = ", ".join(f"{n:+d} {colour}" for n, colour in
                           ((done.supply.white, "white"), (done.supply.black, "black")) if n)
        lines.append(f"{done.player or 'The table'} changed the campaign's dice ({change}): "
                     f"its supply is now {done.total.said()}.")
    return "\n".join(map(printable, lines))  # names from files: shown, never obeyed
