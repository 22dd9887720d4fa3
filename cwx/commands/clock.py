"""`cwx clock`: the GM's number and the player's guess (ClockWorx).

Its commands differ in weight: a stateless resolve or pick needs only the rules, so the
files layer and the sealed number (whose hashing is not cheap to load) are imported
inside the commands that use them."""

import os
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cwx.base.errors import BadValue
from cwx.base.ink import plural
from cwx.cli import face
from cwx.cli.common import (
    ExitCode,
    Seed,
    about,
    changing,
    complete_characters,
    complete_traits,
    group,
    here,
    rng,
    saying,
)
from cwx.cli.output import JsonFlag, Utc, colour_on, emit
from cwx.rules import clockworx
from cwx.rules.clockworx import ClockOutcome
from cwx.systems import clockworx as clockworx_system
from cwx.systems.clockworx import outcome_json, outcome_verdict

if TYPE_CHECKING:
    from cwx.campaign.files import Change
    from cwx.campaign.folder import Campaign
    from cwx.campaign.guesses import Guess
    from cwx.campaign.results import (
        Listed,
        Pending,
        Picked,
        Resolved,
        Resolving,
        Revealed,
        Sealed,
        SettledGuess,
        Verified,
        VerifiedAll,
    )
    from cwx.campaign.seal import Seal

app = group("clock", "ClockWorx: the GM's number, sealed or not, and guesses.")

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
    void: Annotated[bool, typer.Option(
        "--void", help="With --seal: void the guesses waiting on the number sealed over, "
        "for every clone (else such a seal is refused).")] = False,
    campaign: SealFolder = None,
    json: JsonFlag = False,
) -> None:
    """Pick the GM's number, 1 to 12; --seal keeps it secret.

    A new seal over one that players guess on is refused: reveal it first, or say --void.

    Example: cwx clock pick --seal
    Example: cwx clock pick --seal --force --void
    """
    if not keep_secret:
        if target is not None or force or void:
            raise BadValue("--target, --force and --void go with --seal")
        picked = clockworx.pick(rng(seed))
        open_pick: Picked = {"target": picked, "commitment": None}
        emit(json, open_pick, lambda: f"The GM's number is {picked}.")
        return
    if seed is not None:
        raise BadValue("a sealed number must not be predictable; leave out --seed")
    from cwx.campaign import seal

    path, camp = _seal_path(campaign, ".")
    seal.by_a_gm(camp, "seals")
    with changing("clock pick --seal", [path], camp, private=[path]) as change:
        raw = change.raw(path)
        if raw is not None and not force:  # --force replaces even a file that is no seal
            seal.replacing(seal.decode(raw, path), path=path)
        from cwx.campaign import guesses

        over = guesses.sealing_over(change.journal, void)
        sealed = seal.new(target if target is not None else clockworx.pick(rng(None)))
        change.create(path, seal.encode(sealed), force=True, secret=True)
        result = {"commitment": sealed.commitment, **over}
        change.record(result)
    # One shape for both: the number stays secret, so its key is null.
    secret: Sealed = {"target": None, "commitment": sealed.commitment}
    emit(json, secret, lambda: f"Sealed. Share this commitment with the players:\n"
                           f"  {sealed.commitment}\n"
                           "Reveal it after the guess: cwx clock reveal")


@app.command("reveal")
def reveal(campaign: SealFolder = None, json: JsonFlag = False) -> None:
    """Reveal the sealed number, and settle the guesses on it.

    It comes with the nonce that proves it was the one sealed; the guesses players made
    against it in their own clones are settled (pull first).

    Example: cwx clock reveal
    """
    from cwx.campaign import guesses, seal

    path, camp = _seal_path(campaign, ".")
    seal.by_a_gm(camp, "reveals")
    waiting = guesses.waiting_on(path, camp.journal_file)
    with changing("clock reveal", [path, *guesses.files_to_settle(camp, waiting)], camp,
                  private=[path]) as change:
        sealed = seal.to_reveal(change.raw(path), path, change.journal)
        settled = _settle(change, camp, sealed, waiting)
        if not sealed.revealed or settled:
            _mark_revealed(change, path, sealed)
            change.record({**sealed.proof(), **_listed(settled),
                           **_opens(change, sealed.commitment)})
    revealed: Revealed = {**sealed.proof(), **_listed(settled)}
    emit(json, revealed,
         lambda: "\n".join([_reveal_text(sealed), *_settled_lines(settled)]))


def _settle(change: "Change", camp: "Campaign", sealed: "Seal",
            waiting: "list[Guess]") -> "list[SettledGuess]":
    """The guesses waiting on the seal, settled in this change (the reveal's)."""
    from cwx.campaign import guesses

    now = guesses.still(change.journal, sealed.commitment, waiting)
    return guesses.settle(change, camp, sealed.target, now)


def _listed(settled: "list[SettledGuess]") -> "Listed":
    from cwx.campaign import guesses

    return {guesses.SETTLED: settled} if settled else {}


def _settled_lines(settled: "list[SettledGuess]") -> list[str]:
    from cwx.campaign import guesses

    if not settled:
        return []
    return [f"Settled {plural(len(settled), 'guess')} made against it:",
            *guesses.settled_text(settled)]


@app.command("verify")
def verify(
    commitment: Annotated[str | None, typer.Option(
        metavar="HEX", help="The commitment the GM shared.", show_default=False)] = None,
    target: Annotated[int | None, typer.Option(
        "--target", "-T", metavar="N", help="The number revealed.", show_default=False)] = None,
    nonce: Annotated[str | None, typer.Option(
        metavar="HEX", help="The nonce revealed.", show_default=False)] = None,
    json: JsonFlag = False,
    utc: Utc = False,
) -> None:
    """Check a revealed number against its commitment.

    Against the commitment shared before the guess; with no option, re-check every reveal in the
    campaign's journal, from the journal alone. Exits 1 when one does not match, 2 when a
    commitment or nonce is malformed.

    Example: cwx clock verify --commitment 5e1c… --target 7 --nonce 9f2a…
    """
    from cwx.campaign import seal

    given = [commitment, target, nonce]
    if all(value is None for value in given):
        _verify_journal(json)
        return
    if commitment is None or target is None or nonce is None:
        raise BadValue("give --commitment, --target and --nonce together (or none, to "
                       "re-check every reveal in the journal)")
    matches = seal.verified(commitment, target, nonce)
    result: Verified = {"target": target, "nonce": nonce.strip().lower(),
                        "commitment": commitment.strip().lower(), "verified": matches}
    emit(json, result, lambda: f"Verified: {target} is the number that was sealed."
         if matches else f"Not verified: {target} with that nonce does not match the "
                         "commitment; this is not the number that was sealed.")
    if not matches:
        raise typer.Exit(1)


def _verify_journal(as_json: bool) -> None:
    """Every reveal the journal holds, each checked against its commitment and seal."""
    from cwx.base import times
    from cwx.base.printable import printable
    from cwx.campaign import seal

    shown = seal.shown(here().journal_file)
    every = all(item.verified for item in shown)

    def text() -> str:
        if not shown:
            return "The journal reveals no sealed number yet."
        lines = [f"{'verified' if item.verified else 'NOT VERIFIED'}  "
                 f"{seal.short(item.commitment)}…  revealed {printable(str(item.target))}  "
                 f"{times.shown(item.when)}  (line {item.line})"
                 + ("" if item.published else ": no seal in the journal published it")
                 for item in shown]
        bad = sum(not item.verified for item in shown)
        lines.append(f"{plural(len(shown), 'reveal')} checked: " +
                     ("all verified." if every else f"{bad} not verified."))
        return "\n".join(lines)

    checked: VerifiedAll = {"seals": [item.as_json() for item in shown], "verified": every}
    emit(as_json, checked, text)
    if not every:
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
        "--char", "-c", metavar="CHAR", autocompletion=complete_characters,
        help="The character (a file, or a name in the campaign); the experience earned is "
        "added to it.")] = None,
    score: Annotated[int | None, typer.Option(
        metavar="N", help="A trait score 1-6, without a character file.")] = None,
    against_seal: Annotated[bool, typer.Option(
        "--sealed", help="Resolve against the GM's sealed number and reveal it; in a clone "
        "without it, a guess that waits for the GM's reveal.")] = False,
    commitment: Annotated[str | None, typer.Option(
        metavar="HEX", help="With --sealed, in a player's clone: the commitment the GM shared "
        "(its first digits will do); refused unless it is the latest.",
        show_default="the latest in the journal")] = None,
    campaign: Annotated[str | None, typer.Option(
        "--campaign", metavar="DIR", help="With --sealed: the folder of the sealed number.",
        show_default="the campaign's root (the character's, else the current folder's)")] = None,
    exit_code: ExitCode = False,
    json: JsonFlag = False,
) -> None:
    """Resolve a guess against the GM's number.

    No trait and no score is untrained.

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
    if seal_at and not _sealed_here(*seal_at):
        _print_pending(json, *_guess(seal_at[1], guess, trait, score, char, commitment))
        return
    if commitment is not None:
        raise BadValue("--commitment names the seal a player's guess waits on; this clone "
                       "holds the sealed number itself, so leave it out")
    outcome, extra, who = _resolve_in_files(camp, target, guess, trait, score, char, seal_at)
    _print_outcome(json, outcome, extra, exit_code=exit_code, who=who)


def _sealed_here(path: str, camp: "Campaign") -> bool:
    from cwx.campaign import seal

    return seal.here(path, camp.journal_file)


def _guess(camp: "Campaign", guess: int, trait: str | None, score: int | None,
           char: str | None, commitment: str | None) -> "tuple[Pending, str | None]":
    """A guess journaled pending against the latest published seal (no file changes)."""
    from cwx.campaign import guesses

    with changing(guesses.GUESSING, [char] if char else [], camp) as change:
        who = None
        if char is not None:
            sheet = change.character(char, clockworx_system.NAME)
            trait = _own_trait(char, sheet, trait)
            score, who = sheet.traits[trait] if trait else None, sheet.name
        against = guesses.against(change.journal, change.name_of(char) if char else None,
                                  who, commitment)
        result = guesses.pending_result(against, guess, trait, score)
        change.record(result, who=who, file=char)
        name = change.name_of(char) if char else None
    if camp.root is not None:  # the clone holds the GM to the number it guessed on
        guesses.keep(camp.root, name, against)
    return result, who


def _own_trait(char: str, sheet: Any, trait: str | None) -> str | None:
    """The character's own spelling of the trait named (None: untrained)."""
    with about(char), saying(clockworx.NoSuchTrait, "; leave out --trait for an "
                                                    "untrained action"):
        return clockworx.require_trait(sheet.traits, trait) if trait is not None else None


def _print_pending(as_json: bool, result: "Pending", who: str | None) -> None:
    from cwx.campaign import bypost

    def text() -> str:
        trait = clockworx_system.trait_said(result["trait"], result["score"])
        # By post (sync = true) the command pushes the guess itself once it is said.
        push = "The GM" if bypost.pushes() else "Push it (cwx sync); the GM"
        return (f"{who or 'The guess'}: guess {result['guess']} ({trait}) waits for the GM's "
                f"reveal of commitment {result['commitment'][:12]}….\n"
                f"{push} pulls and runs cwx clock reveal, and the experience comes with your "
                "next pull.")

    emit(as_json, result, text)


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
                      ) -> "tuple[ClockOutcome, Resolving, str | None]":
    """Resolve against a character (adding the experience) and/or the sealed number
    (revealing it, and settling the guesses waiting on it), as one change with one
    journal line."""

    seal_path = seal_at[0] if seal_at else None
    # A sealed number's events are journaled beside it, wherever the character is: that
    # journal is the witness that it was revealed.
    acting = seal_at[1] if seal_at else camp.of(char or ".")
    if seal_at:
        from cwx.campaign import seal

        seal.by_a_gm(acting, "reveals")
    waiting = _waiting(seal_path, acting) if seal_path else []
    paths = [p for p in (char, seal_path) if p]
    paths += [p for p in _to_settle(acting, waiting) if p not in paths]
    with changing("clock resolve", paths, acting, private=[seal_path or ""]) as change:
        extra: Resolving = {}
        opens: dict[str, Any] = {}  # the seal a reveal opens, for the journal
        if seal_path:
            target, extra = _revealing(change, acting, seal_path, waiting, char)
            opens = _opens(change, extra["commitment"])
        assert target is not None
        sheet = change.character(char, clockworx_system.NAME) if char else None
        own = _own_trait(char, sheet, trait) if char and sheet else None
        outcome = clockworx.resolve(target, guess, sheet.traits[own] if sheet and own
                                    else score, own if sheet else trait)
        if sheet is not None:
            xp = sheet.xp + outcome.xp
            change.save(char or "", sheet, sheet._replace(xp=xp))
            extra["xp_total"] = xp
        change.record({**outcome_json(outcome), **extra, **opens},
                      who=sheet.name if sheet else None, file=char)
    return outcome, extra, sheet.name if sheet else None


def _opens(change: "Change", commitment: str) -> dict[str, Any]:
    """The seal a reveal opens, as the journal records it (each clone checks it is the
    seal of the commitment its guesses were made on)."""
    from cwx.campaign import seal

    return {seal.OPENS: seal.published_by(change.journal, commitment)}


def _waiting(seal_path: str, camp: "Campaign") -> "list[Guess]":
    from cwx.campaign import guesses  # loaded by sealed resolves only (start-up)

    return guesses.waiting_on(seal_path, camp.journal_file)


def _to_settle(camp: "Campaign", waiting: "list[Guess]") -> list[str]:
    if not waiting:
        return []
    from cwx.campaign import guesses

    return guesses.files_to_settle(camp, waiting)


def _revealing(change: "Change", camp: "Campaign", path: str, waiting: "list[Guess]",
               char: str | None) -> "tuple[int, Resolving]":
    """The sealed number resolved against, revealed (and the guesses on it settled; the
    GM's own character may not be one of them)."""
    from cwx.campaign import guesses

    guesses.not_guessing(waiting, change.name_of(char) if char else None)
    sealed = _sealed_to_resolve(change, path)
    settled = _settle(change, camp, sealed, waiting)
    _mark_revealed(change, path, sealed)
    proof = sealed.proof()
    extra: Resolving = {"nonce": proof["nonce"], "commitment": proof["commitment"],
                        "verified": proof["verified"]}
    if settled:  # as _listed says them
        extra["guesses"] = settled
    return sealed.target, extra


def _print_outcome(as_json: bool, outcome: ClockOutcome, extra: "Resolving | None" = None,
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

    resolved: Resolved = {**outcome_json(outcome), **extra}
    emit(as_json, resolved, text)
    if exit_code and not outcome.success:
        raise typer.Exit(1)


def _seal_path(folder: str | None, near: str) -> "tuple[str, Campaign]":
    """The sealed number's file, and the campaign it is journaled in: kept for `folder`
    if given, else for the root of the campaign `near` is in (one place for a GM who seals
    from any of its folders), else for `near` (seal.path_for says where)."""
    from cwx.campaign import seal
    from cwx.campaign.folder import Campaign

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
    from cwx.campaign import seal
    from cwx.journal import lines as journal

    sealed = seal.to_reveal(change.raw(path), path, change.journal)
    # The journal it is published in is the witness (the change is journaled there).
    witness = change.campaign.journal_file
    return seal.to_resolve(sealed, [journal.lines_from_end(witness)], path)


def _mark_revealed(change: "Change", path: str, sealed: "Seal") -> None:
    from cwx.campaign import seal

    change.create(path, seal.encode(sealed._replace(revealed=True)), force=True, secret=True)


def _reveal_text(sealed: "Seal") -> str:
    return (f"The sealed number is {sealed.target}; it matches commitment "
            f"{sealed.commitment[:12]}…, the one the GM published.\n"
            f"  nonce       {sealed.nonce}\n"
            f"  commitment  {sealed.commitment} (verified)\n"
            f"Anyone can check: cwx clock verify --commitment {sealed.commitment} "
            f"--target {sealed.target} --nonce {sealed.nonce}")
