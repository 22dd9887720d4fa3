"""`cwx sync`: send your turn and bring in the table's, in one command (play by post)."""

from typing import TYPE_CHECKING, Annotated

import typer

from cwx.campaign import sync as syncing
from cwx.cli.common import command, here, note
from cwx.cli.output import JsonFlag, emit

if TYPE_CHECKING:
    from cwx.campaign.results import SyncSteps

app = command("sync")


@app.command("sync")
def sync(
    message: Annotated[str | None, typer.Option(
        "--message", "-m", metavar="MESSAGE", help="The commit's first line.",
        show_default="told from the journal's events since the last commit")] = None,
    json: JsonFlag = False,
) -> None:
    """Share your turn: commit, pull, settle, push and check.

    Stage the campaign's own files, commit them, git pull --rebase (a merge when your
    commits not yet pushed hold one), settle as the hooks do, push (pulling once more if
    someone pushed meanwhile), and check. One line a step; a conflict stops it with the
    next step (exit 2); problems check finds, exit 1.

    Example: cwx sync
    """
    steps: list[str] = []
    say = steps.append if json else _step
    done = here().sync(message, say)
    result: SyncSteps = {**done.as_json(), "steps": steps}
    emit(json, result, lambda: _summary(done))
    if done.problems:
        raise typer.Exit(1)


def _step(line: str) -> None:
    note(line) if line.startswith("cwx:") else print(line, flush=True)


def _summary(done: syncing.Synced) -> str:
    if done.pushed is None:
        return "Synced here only: no remote to share it with."
    return f"Synced with {done.pushed}: your turn is shared, and you have the table's."
