"""`cwx clock`: the GM's number and the player's guess (ClockWorx)."""

import os
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cwx.cli.common import ExitCode, Seed, complete_traits, group, rng
from cwx.cli.output import JsonFlag, colour_on, emit

if TYPE_CHECKING:
    from cwx.clockworx import ClockOutcome
    from cwx.files import Change
    from cwx.seal import Seal

app = group("clock", "ClockWorx: pick the GM's number, resolve a guess, seal a number.")

Campaign = Annotated[str, typer.Option(
    "--campaign", help="The campaign folder the sealed number is kept in.")]


@app.command("pick")
def pick(
    seed: Seed = None,
    seal: Annotated[bool, typer.Option(
        "--seal", help="Keep the number secret: print only a commitment to it.")] = False,
    target: Annotated[int | None, typer.Option(
        help="With --seal: the number the GM chose [default: a random one].")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="With --seal: replace a sealed number not yet revealed.")] = False,
    campaign: Campaign = ".",
    json: JsonFlag = False,
) -> None:
    """Pick a target from 1 to 12 for a GM who wants a die; --seal keeps it secret.

    Example: cwx clock pick --seal
    """
    from cwx import clockworx
    from cwx.errors import BadValue

    if not seal:
        if target is not None or force:
            raise BadValue("--target and --force go with --seal")
        picked = clockworx.pick(rng(seed))
        emit(json, {"target": picked}, lambda: f"The GM's number is {picked}.")
        return
    if seed is not None:
        raise BadValue("a sealed number must not be predictable; leave out --seed")
    from cwx import seal as sealing
    from cwx.errors import RuleForbids
    from cwx.files import Change

    path = _seal_path(campaign)
    with Change("clock pick --seal", [path], journal_beside=path) as change:
        raw = change.raw(path)
        if raw is not None and not force and not sealing.decode(raw, path).revealed:
            raise RuleForbids("a sealed number is waiting to be revealed (cwx clock reveal); "
                              "pass --force to seal a new one instead", path=path)
        sealed = sealing.seal(target if target is not None else clockworx.pick(rng(None)))
        change.create(path, sealing.encode(sealed), force=True, secret=True)
        result = {"commitment": sealed.commitment}
        change.record({"result": result})
    emit(json, result, lambda: f"Sealed. Share this commitment with the players:\n"
                               f"  {sealed.commitment}\n"
                               "Reveal it after the guess: cwx clock reveal")


@app.command("reveal")
def reveal(campaign: Campaign = ".", json: JsonFlag = False) -> None:
    """Reveal the sealed number, with the nonce that proves it was the one sealed.

    Example: cwx clock reveal
    """
    from cwx.files import Change

    path = _seal_path(campaign)
    with Change("clock reveal", [path], journal_beside=path) as change:
        sealed = _open_seal(change, path)
        result = _reveal(change, path, sealed)
    emit(json, result, lambda: _reveal_text(sealed))


@app.command("verify")
def verify(
    commitment: Annotated[str, typer.Option(help="The commitment the GM shared.",
                                            show_default=False)],
    target: Annotated[int, typer.Option(help="The number revealed.", show_default=False)],
    nonce: Annotated[str, typer.Option(help="The nonce revealed.", show_default=False)],
    json: JsonFlag = False,
) -> None:
    """Check a revealed number against the commitment shared before the guess; no files needed.

    Example: cwx clock verify --commitment 5e1c… --target 7 --nonce 9f2a…
    """
    from cwx import seal as sealing
    from cwx.errors import BadValue

    if not sealing.verified(commitment, target, nonce):
        raise BadValue(f"{target} with that nonce does not match the commitment: "
                       "this is not the number that was sealed")
    result = {"target": target, "nonce": nonce, "commitment": commitment.strip().lower(),
              "verified": True}
    emit(json, result, lambda: f"Verified: {target} is the number that was sealed.")


@app.command("resolve")
def resolve(
    guess: Annotated[int, typer.Option(help="The player's guess, 1-12.", show_default=False)],
    target: Annotated[int | None, typer.Option(
        help="The GM's number, 1-12.", show_default=False)] = None,
    trait: Annotated[str | None, typer.Option(
        help="The relevant trait; its score is read from --char.",
        autocompletion=complete_traits)] = None,
    char: Annotated[str | None, typer.Option(
        help="The character's file; the experience earned is added to it.")] = None,
    score: Annotated[int | None, typer.Option(
        help="A trait score 1-6, without a character file.")] = None,
    sealed: Annotated[bool, typer.Option(
        "--sealed", help="Resolve against the sealed number, and reveal it.")] = False,
    campaign: Annotated[str | None, typer.Option(
        "--campaign", help="With --sealed: the folder of the sealed number "
                           "[default: the character's, else the current one].")] = None,
    exit_code: ExitCode = False,
    json: JsonFlag = False,
) -> None:
    """Resolve a guess against the GM's number; no trait and no score is untrained.

    Example: cwx clock resolve --target 4 --guess 3 --trait Repair --char kris.toml
    """
    from cwx import clockworx
    from cwx.errors import BadValue

    if char is not None and score is not None:
        raise BadValue("give --score or --char, not both (with --char the score is the trait's)")
    if sealed == (target is not None):
        raise BadValue("give the GM's number with --target, or use --sealed")
    if target is not None:
        clockworx.check_position(target, "--target")
    clockworx.check_position(guess, "--guess")
    if char is None and target is not None:
        show(json, clockworx.resolve(target, guess, score, trait), exit_code=exit_code)
        return
    seal_path = _seal_path(campaign or os.path.dirname(char or "")) if sealed else None
    outcome, extra, who = _resolve_in_files(target, guess, trait, score, char, seal_path)
    show(json, outcome, extra, exit_code=exit_code, who=who)


def _resolve_in_files(target: int | None, guess: int, trait: str | None, score: int | None,
                      char: str | None, seal_path: str | None,
                      ) -> "tuple[ClockOutcome, dict[str, Any], str | None]":
    """Resolve against a character (adding the experience) and/or the sealed number
    (revealing it), as one change with one journal line."""
    from cwx import clockworx
    from cwx.cli import views
    from cwx.cli.common import about, clock_character, record
    from cwx.files import Change

    paths = [p for p in (char, seal_path) if p]
    with Change("clock resolve", paths, journal_beside=char or seal_path) as change:
        extra: dict[str, Any] = {}
        if seal_path:
            the_seal = _open_seal(change, seal_path, unrevealed=True)
            target = the_seal.target
            extra = {k: v for k, v in _reveal(change, seal_path, the_seal, journal=False).items()
                     if k != "target"}
        assert target is not None
        if char is None:
            outcome = clockworx.resolve(target, guess, score, trait)
            change.record({"result": {**views.outcome_json(outcome), **extra}})
            return outcome, extra, None
        sheet = clock_character(change, char)
        with about(char):
            own = clockworx.require_trait(sheet.traits, trait) if trait is not None else None
        outcome = clockworx.resolve(target, guess, sheet.traits[own] if own else None, own)
        if outcome.xp:
            change.set(char, ("xp",), sheet.xp + outcome.xp)
        extra["xp_total"] = sheet.xp + outcome.xp
        record(change, sheet.name, char, {**views.outcome_json(outcome), **extra})
    return outcome, extra, sheet.name


def show(as_json: bool, outcome: "ClockOutcome", extra: dict[str, Any] | None = None, *,
         exit_code: bool, who: str | None = None) -> None:
    """Print a resolved action: the clock face for people, the keys for scripts."""
    from cwx.cli import face, views

    extra = extra or {}

    def text() -> str:
        on = colour_on()
        lines = [face.draw(outcome, on), "", views.outcome_verdict(outcome, on)]
        if "commitment" in extra:
            lines.append(f"The sealed number was {outcome.target} (nonce {extra['nonce']}); "
                         "it matches the commitment.")
        if "xp_total" in extra:
            lines.append(f"{who} now has {extra['xp_total']} xp.")
        return "\n".join(lines)

    emit(as_json, {**views.outcome_json(outcome), **extra}, text)
    if exit_code and not outcome.success:
        raise typer.Exit(1)


def _seal_path(folder: str) -> str:
    from cwx.seal import SEALED  # imported only here: hashing is not cheap to load

    return os.path.join(folder or ".", SEALED)


def _open_seal(change: "Change", path: str, *, unrevealed: bool = False) -> "Seal":
    from cwx import seal as sealing
    from cwx.errors import BadFile, RuleForbids

    raw = change.raw(path)
    if raw is None:
        raise BadFile("no sealed number here; the GM seals one with cwx clock pick --seal",
                      path=path)
    sealed = sealing.decode(raw, path)
    if unrevealed and sealed.revealed:
        raise RuleForbids("the sealed number was already revealed; the GM seals a new one "
                          "with cwx clock pick --seal", path=path)
    return sealed


def _reveal(change: "Change", path: str, sealed: "Seal", *, journal: bool = True) -> dict[str, Any]:
    """Mark the seal revealed (once) and say what a player needs to check it."""
    from cwx import seal as sealing

    result = {"target": sealed.target, "nonce": sealed.nonce,
              "commitment": sealed.commitment, "verified": True}
    if not sealed.revealed:
        change.create(path, sealing.encode(sealed._replace(revealed=True)), force=True,
                      secret=True)
        if journal:
            change.record({"result": result})
    return result


def _reveal_text(sealed: "Seal") -> str:
    return (f"The sealed number is {sealed.target}.\n"
            f"  nonce       {sealed.nonce}\n"
            f"  commitment  {sealed.commitment} (verified)\n"
            f"Anyone can check: cwx clock verify --commitment {sealed.commitment} "
            f"--target {sealed.target} --nonce {sealed.nonce}")
