"""`cwx clock`: the GM's number and the player's guess (ClockWorx)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from cwx.cli.common import Seed, complete_traits, group, rng
from cwx.cli.output import JsonFlag, colour_on, emit

if TYPE_CHECKING:
    from cwx.clockworx import ClockOutcome

app = group("clock", "ClockWorx: pick the GM's number, resolve a guess.")


@app.command("pick")
def pick(seed: Seed = None, json: JsonFlag = False) -> None:
    """Pick a target from 1 to 12 for a GM who wants a die.

    Example: cwx clock pick
    """
    from cwx import clockworx

    target = clockworx.pick(rng(seed))
    emit(json, {"target": target}, lambda: f"The GM's number is {target}.")


@app.command("resolve")
def resolve(
    target: Annotated[int, typer.Option(help="The GM's number, 1-12.", show_default=False)],
    guess: Annotated[int, typer.Option(help="The player's guess, 1-12.", show_default=False)],
    trait: Annotated[str | None, typer.Option(
        help="The relevant trait; its score is read from --char.",
        autocompletion=complete_traits)] = None,
    char: Annotated[str | None, typer.Option(
        help="The character's file; the experience earned is added to it.")] = None,
    score: Annotated[int | None, typer.Option(
        help="A trait score 1-6, without a character file.")] = None,
    exit_code: Annotated[bool, typer.Option(
        "--exit-code", help="Exit 1 when the action fails.")] = False,
    json: JsonFlag = False,
) -> None:
    """Resolve a guess against the GM's number; no trait and no score is untrained.

    Example: cwx clock resolve --target 4 --guess 3 --trait Repair --char kris.toml
    """
    from cwx import clockworx
    from cwx.errors import BadValue

    if char is not None and score is not None:
        raise BadValue("give --score or --char, not both (with --char the score is the trait's)")
    clockworx.check_position(target, "--target")
    clockworx.check_position(guess, "--guess")
    if char is None:
        show(json, clockworx.resolve(target, guess, score, trait), exit_code=exit_code)
        return
    from cwx.cli import views
    from cwx.cli.common import about, clock_character, record
    from cwx.files import Change

    with Change("clock resolve", [char], journal_beside=char) as change:
        sheet = clock_character(change, char)
        with about(char):
            own = clockworx.require_trait(sheet.traits, trait) if trait is not None else None
        outcome = clockworx.resolve(target, guess, sheet.traits[own] if own else None, own)
        if outcome.xp:
            change.set(char, ("xp",), sheet.xp + outcome.xp)
        total = {"xp_total": sheet.xp + outcome.xp}
        record(change, sheet.name, char, {**views.outcome_json(outcome), **total})
    show(json, outcome, total, exit_code=exit_code, who=sheet.name)


def show(as_json: bool, outcome: ClockOutcome, extra: dict[str, Any] | None = None, *,
         exit_code: bool, who: str | None = None) -> None:
    """Print a resolved action: the clock face for people, the keys for scripts."""
    from cwx.cli import face, views

    extra = extra or {}

    def text() -> str:
        on = colour_on()
        lines = [face.draw(outcome, on), "", views.outcome_verdict(outcome, on)]
        if "xp_total" in extra:
            lines.append(f"{who} now has {extra['xp_total']} xp.")
        return "\n".join(lines)

    emit(as_json, {**views.outcome_json(outcome), **extra}, text)
    if exit_code and not outcome.success:
        raise typer.Exit(1)
