"""`cwx undo`: take back the campaign's (or one character's) most recent change."""

from typing import Annotated

import typer

from cwx import accounts
from cwx.cli.common import DryRun, command, complete_characters, dry, here, opener
from cwx.cli.output import JsonFlag, emit
from cwx.printable import printable

app = command("undo")


@app.command("undo")
def undo(
    char: Annotated[str | None, typer.Option(
        "--char", "-c", metavar="CHAR", autocompletion=complete_characters,
        help="Only this character's changes (a file, or a name in the campaign).")] = None,
    player: Annotated[str | None, typer.Option(
        "--player", "-p", metavar="NAME", help="Another player's change (a GM undoing at the "
        "table).", show_default="yours: CWX_PLAYER, else your git author name, else your "
        "login")] = None,
    redo: Annotated[bool, typer.Option(
        "--redo", help="Undo your latest undo instead: what it took back is made again.")
    ] = False,
    dry_run: DryRun = False,
    json: JsonFlag = False,
) -> None:
    """Undo your most recent change not yet undone (creations and reconciles aside) by its
    inverse, journaled as an undo; repeated, it walks back, and --redo walks forward again.
    Whole numbers go back by their delta; any other value only if it still holds what the
    change wrote.

    Example: cwx undo --char sue.toml
    """
    from cwx import players

    camp = here()
    char = camp.character(char) if char else None
    camp = camp.of(char) if char else camp
    player = players.checked(player, "--player") if player is not None else \
        players.current(camp.journal_folder)
    undoing = accounts.undo(opener(dry_run), camp, char, player, redo=redo)
    emit(json, {**accounts.undid(undoing), **({"dry_run": True} if dry_run else {})},
         lambda: dry(printable(_said(undoing, redo)), dry_run))


def _said(undoing: accounts.Undoing, redo: bool) -> str:
    change = undoing.change
    by = f"{change.who or 'the GM'}, played by {change.player}" if change.player else \
        change.who or "the GM"
    when = change.when[:16].replace("T", " ")
    if redo:
        return f"Redid `{change.command}` by {by} ({when})."
    again = " again (it had been redone)" if undoing.target.id != change.id else ""
    return f"Undid `{change.command}` by {by} ({when}){again}."
