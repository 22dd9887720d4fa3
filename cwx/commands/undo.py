"""`cwx undo`: take back the campaign's (or one character's) most recent change, or one
named by its id."""

from typing import TYPE_CHECKING, Annotated

import typer

from cwx.base import times
from cwx.base.printable import printable
from cwx.campaign import accounts
from cwx.cli.common import (
    DryRun,
    command,
    complete_characters,
    complete_players,
    dry,
    here,
)
from cwx.cli.output import JsonFlag, Utc, dry_json, emit

if TYPE_CHECKING:
    from cwx.campaign.accounts import Corrected
    from cwx.campaign.folder import Campaign
    from cwx.campaign.results import Undone
    from cwx.journal.lines import Event

app = command("undo")


@app.command("undo")
def undo(
    event: Annotated[str | None, typer.Argument(
        metavar="[ID]", help="The event to take back: its id, or the start of it (4 digits "
        "or more, as cwx log shows it).", show_default="your latest change")] = None,
    char: Annotated[str | None, typer.Option(
        "--char", "-c", metavar="CHAR", autocompletion=complete_characters,
        help="Only this character's changes (a file, or a name in the campaign).")] = None,
    player: Annotated[str | None, typer.Option(
        "--player", "-p", metavar="NAME", autocompletion=complete_players,
        help="Another player's change (a GM undoing at the table).",
        show_default="yours: CWX_PLAYER, else your git author name, else your login")] = None,
    redo: Annotated[bool, typer.Option(
        "--redo", help="Undo your latest undo instead: what it took back is made again (with "
        "ID: that change, undone, is made again).")] = False,
    dry_run: DryRun = False,
    json: JsonFlag = False,
    utc: Utc = False,
) -> None:
    """Undo your most recent change, or the event ID.

    The latest of yours not yet undone (creations and reconciles aside), or the event ID, is
    taken back by its inverse, journaled as an undo, and each value it sets back is said;
    repeated, it walks back, and --redo walks forward again. Whole numbers go back by their
    delta; any other value only if it still holds what the change wrote.

    Example: cwx undo --char sue.toml    (one named: cwx undo 3f9a2c)
    """
    camp = here()
    undoing = camp.undo(event, char=char, player=player, redo=redo, dry_run=dry_run)
    result: Undone = {**accounts.undid(undoing),
                      "restores": [item.as_json() for item in undoing.restored],
                      "ledger_only": [item.as_json() for item in undoing.ledger_only],
                      "counts_again": [accounts.named(event) for event in undoing.freed],
                      "follows": [item.as_json() for item in undoing.followed],
                      **dry_json(dry_run)}
    emit(json, result,
         lambda: dry(printable(_said(undoing)) + _unpulled(camp, dry_run), dry_run))


def _unpulled(camp: "Campaign", dry_run: bool) -> str:
    """By post, a dry run never pulls, and the real run may find a later change to undo."""
    return "\n(as this clone stands: the real run pulls first)" \
        if dry_run and camp.root is not None and camp.settings().sync else ""


def _said(undoing: accounts.Undoing) -> str:
    from cwx.cli.views import value_text
    from cwx.journal.story import actor_of

    change = undoing.change
    who = actor_of(change)
    by = f"{who}, played by {change.player}" if change.who and change.player else who
    when = f"{times.shown(change.when)}, {change.id[:8]}"
    if undoing.redo:
        said = f"Redid `{change.command}` by {by} ({when})"
    else:
        again = " again (it had been redone)" if undoing.target.id != change.id else ""
        said = f"Undid `{change.command}` by {by} ({when}){again}"
    alone = {(item.file, item.key): item for item in undoing.ledger_only}
    values = [f"{item.file} {item.key} {value_text(item.before)} → {value_text(item.after)}"
              + _apart(alone.pop((item.file, item.key), None), whole=False)
              for item in undoing.restored]
    values += [f"{item.file} {item.key} stays {value_text(item.after)}" + _apart(item)
               for item in alone.values()]
    said += ": " + ", ".join(values) + "." if values else ", which changed no file."
    return said + _flipped(undoing)


def _flipped(undoing: accounts.Undoing) -> str:
    """The turns and game ends that count again (it had pre-empted them), or no more (a
    redo pre-empts them again), and the keys the sheets follow them by."""
    from cwx.cli.views import value_text
    from cwx.journal.story import actor_of

    def named(events: "tuple[Event, ...]") -> str:
        return ", ".join(f"`{event.command}` {event.id[:8]} by {actor_of(event)}"
                         for event in events)

    said = ""
    if undoing.freed:
        said += f" {named(undoing.freed)}, which it had pre-empted, counts again"
    if undoing.pre_empted:
        said += (";" if said else "") + f" {named(undoing.pre_empted)} counts for nothing " \
            "again: the one made again came first"
    if said and undoing.followed:
        said += ": " + ", ".join(f"{item.file} {item.key} {value_text(item.before)} → "
                                 f"{value_text(item.after)}" for item in undoing.followed)
    return said + "." if said else ""


def _apart(taken: "Corrected | None", whole: bool = True) -> str:
    """A take-back journaled beside the sheet: the ledger's value, which the sheet never
    took (a forged line), whole or in part."""
    from cwx.cli.views import value_text

    if taken is None:
        return ""
    some = "the change" if whole else "all of the change"
    return f" (the ledger's {value_text(taken.before)}: the sheet never took {some})"
