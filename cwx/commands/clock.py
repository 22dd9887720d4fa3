"""`cwx clock`: the GM's number and the player's guess (ClockWorx).

Its commands differ in weight: a stateless resolve or pick needs only the rules, so the
files layer and the sealed number (whose hashing is not cheap to load) are imported
inside the commands that use them."""

import os
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cwx import clockworx
from cwx.cli import face
from cwx.cli.common import (
    ExitCode,
    Seed,
    about,
    changing,
    complete_traits,
    group,
    here,
    rng,
    saying,
)
from cwx.cli.output import JsonFlag, colour_on, emit
from cwx.clockworx import ClockOutcome
from cwx.errors import BadValue
from cwx.systems import clockworx as clockworx_system
from cwx.systems.clockworx import outcome_json, outcome_verdict

if TYPE_CHECKING:
    from cwx.campaign import Campaign
    from cwx.files import Change
    from cwx.seal import Seal

app = group("clock", "ClockWorx: pick the GM's number, resolve a guess, seal a number.")

SealFolder = Annotated[str | None, typer.Option(
    "--campaign", metavar="DIR", help="The folder the sealed number is kept in.",
    show_default="the campaign's root, outside a campaign the current folder")]


@app.command("pick")
def pick(
    seed: Seed = None,
    keep_secret: Annotated[bool, typer.Option(
        "--seal", help="Keep the number secret: print only a commitment to it.")] = False,
    target: Annotated[int | None, typer.Option(
        "--target", "-T", metavar="N", help="With --seal: the number the GM chose, 1-12.",
        show_default="a random one")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="With --seal: replace a sealed number not yet revealed.")] = False,
    campaign: SealFolder = None,
    json: JsonFlag = False,
) -> None:
    """Pick a target from 1 to 12 for a GM who wants a die; --seal keeps it secret.

    Example: cwx clock pick --seal
    """
    if not keep_secret:
        if target is not None or force:
            raise BadValue("--target and --force go with --seal")
        picked = clockworx.pick(rng(seed))
        emit(json, {"target": picked}, lambda: f"The GM's number is {picked}.")
        return
    if seed is not None:
        raise BadValue("a sealed number must not be predictable; leave out --seed")
    from cwx import seal

    path, camp = _seal_path(campaign, ".")
    with changing("clock pick --seal", [path], camp, private=[path]) as change:
        raw = change.raw(path)
        if raw is not None and not force:  # --force replaces even a file that is no seal
            seal.replacing(seal.decode(raw, path), path=path)
        sealed = seal.new(target if target is not None else clockworx.pick(rng(None)))
        change.create(path, seal.encode(sealed), force=True, secret=True)
        result = {"commitment": sealed.commitment}
        change.record(result)
    emit(json, result, lambda: f"Sealed. Share this commitment with the players:\n"
                               f"  {sealed.commitment}\n"
                               "Reveal it after the guess: cwx clock reveal")


@app.command("reveal")
def reveal(campaign: SealFolder = None, json: JsonFlag = False) -> None:
    """Reveal the sealed number, with the nonce that proves it was the one sealed.

    Example: cwx clock reveal
    """
    from cwx import seal

    path, camp = _seal_path(campaign, ".")
    with changing("clock reveal", [path], camp, private=[path]) as change:
        sealed = seal.to_reveal(change.raw(path), path, change.journal)
        if not sealed.revealed:
            _mark_revealed(change, path, sealed)
            change.record(sealed.proof())
    emit(json, sealed.proof(), lambda: _reveal_text(sealed))


@app.command("verify")
def verify(
    commitment: Annotated[str, typer.Option(metavar="HEX", help="The commitment the GM shared.",
                                            show_default=False)],
    target: Annotated[int, typer.Option("--target", "-T", metavar="N",
                                        help="The number revealed.", show_default=False)],
    nonce: Annotated[str, typer.Option(metavar="HEX", help="The nonce revealed.",
                                       show_default=False)],
    json: JsonFlag = False,
) -> None:
    """Check a revealed number against the commitment shared before the guess; no files
    needed. Exits 1 when they do not match, 2 when the commitment or nonce is malformed.

    Example: cwx clock verify --commitment 5e1c… --target 7 --nonce 9f2a…
    """
    from cwx import seal

    matches = seal.verified(commitment, target, nonce)
    result = {"target": target, "nonce": nonce.strip().lower(),
              "commitment": commitment.strip().lower(), "verified": matches}
    emit(json, result, lambda: f"Verified: {target} is the number that was sealed."
         if matches else f"Not verified: {target} with that nonce does not match the "
                         "commitment; this is not the number that was sealed.")
    if not matches:
        raise typer.Exit(1)


@app.command("resolve")
def resolve(
    guess: Annotated[int, typer.Option(
        "--guess", "-g", metavar="N", help="The player's guess, 1-12.", show_default=False)],
    target: Annotated[int | None, typer.Option(
        "--target", "-T", metavar="N", help="The GM's number, 1-12.", show_default=False)] = None,
    trait: Annotated[str | None, typer.Option(
        "--trait", "-t", metavar="NAME", help="The relevant trait; its score is read from --char.",
        autocompletion=complete_traits)] = None,
    char: Annotated[str | None, typer.Option(
        "--char", "-c", metavar="CHAR", help="The character (a file, or a name in the "
        "campaign); the experience earned is added to it.")] = None,
    score: Annotated[int | None, typer.Option(
        metavar="N", help="A trait score 1-6, without a character file.")] = None,
    against_seal: Annotated[bool, typer.Option(
        "--sealed", help="Resolve against the sealed number, and reveal it.")] = False,
    campaign: Annotated[str | None, typer.Option(
        "--campaign", metavar="DIR", help="With --sealed: the folder of the sealed number.",
        show_default="the campaign's root (the character's, else the current folder's)")] = None,
    exit_code: ExitCode = False,
    json: JsonFlag = False,
) -> None:
    """Resolve a guess against the GM's number; no trait and no score is untrained.

    Example: cwx clock resolve --target 4 --guess 3 --trait Repair --char kris
    """
    _one_way(trait, char, score, target, against_seal)
    if target is not None:
        clockworx.check_position(target, "--target")
    clockworx.check_position(guess, "--guess")
    if char is None and target is not None:
        _print_outcome(json, clockworx.resolve(target, guess, score, trait), exit_code=exit_code)
        return
    camp = here()
    char = camp.character(char) if char is not None else None
    seal_at = _seal_path(campaign, os.path.dirname(char or "") or ".") if against_seal \
        else None
    outcome, extra, who = _resolve_in_files(camp, target, guess, trait, score, char, seal_at)
    _print_outcome(json, outcome, extra, exit_code=exit_code, who=who)


def _one_way(trait: str | None, char: str | None, score: int | None, target: int | None,
             against_seal: bool) -> None:
    """The options of a resolve that go together, and those that do not."""
    if trait is not None and char is None and score is None:
        raise BadValue(f"--trait {trait}: give the character (--char), whose score cwx reads, "
                       "or the score itself (--score); a trait is never played untrained")
    if char is not None and score is not None:
        raise BadValue("give --score or --char, not both (with --char the score is the trait's)")
    if against_seal and target is not None:
        raise BadValue("--sealed resolves against the GM's sealed number; leave out --target")
    if not against_seal and target is None:
        raise BadValue("give the GM's number with --target, or use --sealed")


def _resolve_in_files(camp: "Campaign", target: int | None, guess: int, trait: str | None,
                      score: int | None, char: str | None,
                      seal_at: "tuple[str, Campaign] | None",
                      ) -> tuple[ClockOutcome, dict[str, Any], str | None]:
    """Resolve against a character (adding the experience) and/or the sealed number
    (revealing it), as one change with one journal line."""
    seal_path = seal_at[0] if seal_at else None
    paths = [p for p in (char, seal_path) if p]
    # A sealed number's events are journaled beside it, wherever the character is: that
    # journal is the witness that it was revealed.
    acting = seal_at[1] if seal_at else camp.of(char or ".")
    with changing("clock resolve", paths, acting, private=[seal_path or ""]) as change:
        extra: dict[str, Any] = {}
        if seal_path:
            sealed = _sealed_to_resolve(change, seal_path)
            target = sealed.target
            _mark_revealed(change, seal_path, sealed)
            extra = {k: v for k, v in sealed.proof().items() if k != "target"}
        assert target is not None
        if char is None:
            outcome = clockworx.resolve(target, guess, score, trait)
            change.record({**outcome_json(outcome), **extra})
            return outcome, extra, None
        sheet = change.character(char, clockworx_system.NAME)
        with about(char), saying(clockworx.NoSuchTrait, "; leave out --trait for an "
                                                        "untrained action"):
            own = clockworx.require_trait(sheet.traits, trait) if trait is not None else None
        outcome = clockworx.resolve(target, guess, sheet.traits[own] if own else None, own)
        change.save(char, sheet, sheet._replace(xp=sheet.xp + outcome.xp))
        extra["xp_total"] = sheet.xp + outcome.xp
        change.record({**outcome_json(outcome), **extra}, who=sheet.name, file=char)
    return outcome, extra, sheet.name


def _print_outcome(as_json: bool, outcome: ClockOutcome, extra: dict[str, Any] | None = None,
                   *, exit_code: bool, who: str | None = None) -> None:
    """Print a resolved action: the clock face for people, the keys for scripts."""
    extra = extra or {}

    def text() -> str:
        on = colour_on()
        lines = [face.draw(outcome, on), "", outcome_verdict(outcome, on)]
        if "commitment" in extra:
            lines.append(f"The sealed number was {outcome.target}; it matches commitment "
                         f"{extra['commitment'][:12]}…, the one the GM published (nonce "
                         f"{extra['nonce']}).")
        if "xp_total" in extra:
            lines.append(f"{who} now has {extra['xp_total']} xp.")
        return "\n".join(lines)

    emit(as_json, {**outcome_json(outcome), **extra}, text)
    if exit_code and not outcome.success:
        raise typer.Exit(1)


def _seal_path(folder: str | None, near: str) -> "tuple[str, Campaign]":
    """The sealed number's file, and the campaign it is journaled in: kept for `folder`
    if given, else for the root of the campaign `near` is in (one place for a GM who seals
    from any of its folders), else for `near` (seal.path_for says where)."""
    from cwx import seal
    from cwx.campaign import Campaign

    camp = Campaign.around(folder if folder is not None else near)
    if folder is None:
        folder = os.path.relpath(camp.root) if camp.root is not None else near
    path = seal.path_for(folder)
    if os.path.basename(path) != seal.FILE:  # in git's folder, made on first use
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        seal.not_left_behind(path, os.path.normpath(os.path.join(folder, seal.FILE)))
    return path, camp


def _sealed_to_resolve(change: "Change", path: str) -> "Seal":
    """The sealed number a guess is resolved against, witnessed by the journals."""
    from cwx import journal, seal

    sealed = seal.to_reveal(change.raw(path), path, change.journal)
    # The journal it is published in is the witness (the change is journaled there).
    witness = change.campaign.journal_file
    return seal.to_resolve(sealed, [journal.lines_from_end(witness)], path)


def _mark_revealed(change: "Change", path: str, sealed: "Seal") -> None:
    from cwx import seal

    change.create(path, seal.encode(sealed._replace(revealed=True)), force=True, secret=True)


def _reveal_text(sealed: "Seal") -> str:
    return (f"The sealed number is {sealed.target}; it matches commitment "
            f"{sealed.commitment[:12]}…, the one the GM published.\n"
            f"  nonce       {sealed.nonce}\n"
            f"  commitment  {sealed.commitment} (verified)\n"
            f"Anyone can check: cwx clock verify --commitment {sealed.commitment} "
            f"--target {sealed.target} --nonce {sealed.nonce}")
