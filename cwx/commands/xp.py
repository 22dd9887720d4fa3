"""`cwx xp`: spend experience on a new trait or a higher score, and show how it came and
went (ClockWorx)."""

from typing import TYPE_CHECKING, Annotated

import typer

from cwx.cli.common import CharFile, CharNamed, complete_traits, group, here
from cwx.cli.output import JsonFlag, Utc, emit
from cwx.cli.views import value_text
from cwx.systems.clockworx import XP, advancement_json, advancement_text

if TYPE_CHECKING:
    from cwx.journal.history import Step
    from cwx.journal.results import XpHistory

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
    step = here().spend_xp(char, new=new, raise_=raise_)
    emit(json, advancement_json(step), lambda: advancement_text(step))


@app.command("history")
def history(
    char: CharNamed,
    json: JsonFlag = False,
    utc: Utc = False,
) -> None:
    """Show every change to a character's experience, in order.

    Its own moves and what other events did to it: a reveal settling a guess, an undo, an
    adopt, a reconcile's correction (which leaves the count as it was).

    Example: cwx xp history kris
    """
    from cwx.journal import history as journal_history

    camp = here()
    path = camp.character(char)
    camp = camp.of(path)
    name = camp.name_of(path)
    with journal_history.opened(camp.journal_file) as read:
        # Each step kept with only what is shown of its event: a sheet made anew holds
        # its whole text (2,000 of 990 traits once held 216 MB).
        steps = [(step._replace(event=step.event._replace(result={}, changes=())),
                  read.told(step.event)) for step in read.steps(name, XP)]
    emit(json, _history_json(name, steps), lambda: _history_text(name, steps))


def _history_json(name: str, steps: "list[tuple[Step, str]]") -> "XpHistory":
    return {"file": name, "xp": steps[-1][0].after if steps else None, "changes": [
        {"id": step.event.id, "at": step.event.when, "command": step.event.command,
         "who": step.event.who, "player": step.event.player, "told": told,
         "from": step.before, "to": step.after,
         "set": None if step.said is None else {"from": step.said[0], "to": step.said[1]},
         "correction": step.correction, "whole": step.whole, "counts": step.counts,
         "undone_by": step.undone_by} for step, told in steps]}


def _history_text(name: str, steps: "list[tuple[Step, str]]") -> str:
    from cwx.base import times
    from cwx.base.printable import printable

    if not steps:
        return f"No change to the experience of {name} in the journal."
    rows: list[tuple[str, ...]] = [("when", "id", "player", "what", "xp", "")]
    for step, told in steps:
        rows.append((times.shown(step.event.when), step.event.id[:8], step.event.player or "-",
                     told, f"{value_text(step.before or 0)} → {value_text(step.after or 0)}",
                     _note(step)))
    rows = [tuple(printable(cell) for cell in row) for row in rows]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    table = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    return "\n".join([f"{name}: {value_text(steps[-1][0].after or 0)} xp, as the journal "
                      "counts it", "", *table])


def _note(step: "Step") -> str:
    """Why a change moved the count otherwise than its line says, if it did."""
    if not step.counts:
        return "counts for nothing (another undo came first)"
    if step.correction and step.said is not None:
        return f"a correction: the file's {value_text(step.said[0])} set to " \
               f"{value_text(step.said[1])}, the count unchanged"
    if step.undone_by is not None:
        return f"undone by {step.undone_by[:8]}"
    return ""
