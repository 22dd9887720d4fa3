"""`cwx xp`: spend experience on a new trait or a higher score, and show how it came and
went (ClockWorx)."""

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from cwx.cli.common import CharFile, CharNamed, complete_traits, group, here
from cwx.cli.output import JsonFlag, Utc, emit, emit_parts, json_parts
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
        # Read twice, never held: the count at the end (the JSON's first) and the
        # table's widths, then each step as it is written (1,000 traits named in 255
        # letters of 4 bytes once held 110 MB, and its text again).
        def steps(told: bool = True) -> "Iterator[tuple[Step, str]]":
            return ((step, read.told(step.event) if told else "")
                    for step in read.steps(name, XP))

        emit_parts(json, json_parts(_history_json(name, steps)) if json else
                   _history_text(name, steps))


def _history_json(name: str, steps: "Callable[..., Iterator[tuple[Step, str]]]") -> "XpHistory":
    """The history as JSON, its changes a list made as it is written."""
    last = None
    for step, _ in steps(False):  # the count at the end comes first
        last = step
    # Its changes a generator, which json_parts writes as the list XpHistory says.
    return {"file": name, "xp": last.after if last else None, "changes": (
        {"id": step.event.id, "at": step.event.when, "command": step.event.command,
         "who": step.event.who, "player": step.event.player, "told": told,
         "from": step.before, "to": step.after,
         "set": None if step.said is None else {"from": step.said[0], "to": step.said[1]},
         "correction": step.correction, "whole": step.whole, "counts": step.counts,
         "undone_by": step.undone_by} for step, told in steps())}  # type: ignore[typeddict-item]


def _history_text(name: str, steps: "Callable[..., Iterator[tuple[Step, str]]]"
                  ) -> "Iterator[str]":
    """The history as a table, a line at a time: its widths found first."""
    from cwx.base import times
    from cwx.base.printable import printable

    def rows() -> "Iterator[tuple[Step | None, tuple[str, ...]]]":
        yield None, ("when", "id", "player", "what", "xp", "")
        for step, told in steps():
            yield step, tuple(printable(cell) for cell in (
                times.shown(step.event.when), step.event.id[:8], step.event.player or "-",
                told, f"{value_text(step.before or 0)} → {value_text(step.after or 0)}",
                _note(step)))

    widths = [0] * 6
    last = None
    for step, row in rows():
        last = step
        widths = [max(width, len(cell)) for width, cell in zip(widths, row, strict=True)]
    if last is None:
        yield f"No change to the experience of {name} in the journal."
        return
    yield f"{name}: {value_text(last.after or 0)} xp, as the journal counts it"
    yield ""
    for _, row in rows():
        yield "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)
                        ).rstrip()


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
