"""`cwx undo`: take back the campaign's (or one character's) most recent change."""

from typing import Annotated

import typer

from cwx import accounts
from cwx.cli.common import changing, command, here
from cwx.cli.output import JsonFlag, emit
from cwx.printable import printable

app = command("undo")


@app.command("undo")
def undo(
    char: Annotated[str | None, typer.Option(
        "--char", "-c", metavar="CHAR", help="Only this character's changes (a file, or a name "
        "in the campaign).")] = None,
    json: JsonFlag = False,
) -> None:
    """Undo the most recent change not yet undone (creations, reconciles and undos aside)
    by its inverse, journaled as an undo; repeated, it walks back. Whole numbers go back
    by their delta; any other value only if it still holds what the change wrote.

    Example: cwx undo --char sue.toml
    """
    camp = here()
    char = camp.character(char) if char else None
    target = accounts.undo(changing, camp.of(char) if char else camp, char)
    emit(json, accounts.undid(target), lambda: printable(
        f"Undid `{target.command}` by {target.who or 'the GM'} "
        f"({target.when[:16].replace('T', ' ')})."))
