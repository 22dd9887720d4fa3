"""`cwx clock`: the GM's number and the player's guess (ClockWorx).

Each parses its options, calls one operation of the campaign (clockplay.py does the
work) and shows its result. A stateless resolve or pick needs only the rules, so the
campaign's operations are imported inside the commands that use them."""

from typing import TYPE_CHECKING, Annotated, cast

import typer

from cwx.base.errors import BadValue
from cwx.base.ink import plural
from cwx.cli import face
from cwx.cli.common import (
    ExitCode,
    Seed,
    complete_characters,
    complete_traits,
    group,
    here,
    rng,
)
from cwx.cli.output import JsonFlag, Utc, colour_on, emit
from cwx.rules import clockworx
from cwx.rules.clockworx import ClockOutcome
from cwx.systems import clockworx as clockworx_system
from cwx.systems.clockworx import outcome_json, outcome_verdict

if TYPE_CHECKING:
    from cwx.campaign.folder import Campaign
    from cwx.campaign.results import (
        Listed,
        Pending,
        Picked,
        Resolved,
        Resolving,
        Revealed,
        Verified,
        VerifiedAll,
    )

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
    # One shape for both: the number stays secret, so its key is null.
    secret = here().seal(target=target, force=force, void=void, folder=campaign)
    emit(json, secret, lambda: f"Sealed. Share this commitment with the players:\n"
                               f"  {secret['commitment']}\n"
                               "Reveal it after the guess: cwx clock reveal")


@app.command("reveal")
def reveal(campaign: SealFolder = None, json: JsonFlag = False) -> None:
    """Reveal the sealed number, and settle the guesses on it.

    It comes with the nonce that proves it was the one sealed; the guesses players made
    against it in their own clones are settled (pull first).

    Example: cwx clock reveal
    """
    result = here().reveal(folder=campaign)
    emit(json, result, lambda: "\n".join([_reveal_text(result), *_settled_lines(result)]))


def _settled_lines(result: "Listed") -> list[str]:
    from cwx.campaign import guesses

    settled = result.get(guesses.SETTLED, [])
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
    campaign's journal, from the journal alone. Exits 1 when one does not match (or the
    journal no longer holds a guess this clone made as it made it: the number swapped; or
    a seal over a number guesses wait on says nothing of them), 2 when a commitment or
    nonce is malformed.

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


def _not_verified(camp: "Campaign") -> tuple[list[str], list[str]]:
    """Each seal over a number guesses wait on that says nothing of it (they wait for
    ever); each guess settled as the rules do not settle it (a reveal's copy of it forged),
    each reveal whose line the rules do not give, and each reveal taken back by an undo no
    rule gives: all named by `cwx check` too, in its words."""
    from cwx.campaign import accounts, guesses

    silent, wrong = guesses.not_verified(camp.journal_file if camp.root else None)
    if camp.root is not None:
        wrong += accounts.reveals_not_given(camp.journal_file)
    return silent, wrong


def _verify_journal(as_json: bool) -> None:
    """Every reveal the journal holds, each checked against its commitment and seal."""
    from cwx.base import times
    from cwx.base.printable import printable
    from cwx.campaign import guesses, seal

    camp = here()
    shown = seal.shown(camp.journal_file)
    # A guess this clone made that the journal no longer holds: the number was swapped.
    lost = guesses.lost(camp.root) if camp.root is not None else []
    silent, wrong = _not_verified(camp)
    every = all(item.verified for item in shown) and not lost and not silent and not wrong

    def text() -> str:
        if not shown and not lost and not silent and not wrong:
            return "The journal reveals no sealed number yet."
        lines = [f"{'verified' if item.verified else 'NOT VERIFIED'}  "
                 f"{seal.short(item.commitment)}…  revealed {printable(str(item.target))}  "
                 f"{times.shown(item.when)}  (line {item.line})"
                 + ("" if item.published else ": no seal in the journal published it")
                 for item in shown]
        lines += [f"NOT VERIFIED  {guesses.said_lost(file, commitment)}"
                  for file, commitment in lost]
        lines += [f"NOT VERIFIED  {said}" for said in silent]
        lines += [f"NOT VERIFIED  {said}" for said in wrong]
        bad = sum(not item.verified for item in shown)
        lines.append(f"{plural(len(shown), 'reveal')} checked: " +
                     ("all verified." if every else f"{bad} not verified." if bad else
                      f"{plural(len(lost), 'guess')} of this clone's not held as made."
                      if lost else f"{plural(len(silent), 'seal')} over waiting guesses "
                      "saying nothing of them." if silent else
                      f"{plural(len(wrong), 'settlement')} of guesses the rules do not give."))
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
    done = here().resolve(guess, target=target, trait=trait, char=char, score=score,
                          sealed=against_seal, commitment=commitment, folder=campaign)
    if done.outcome is None:  # a guess that waits for the GM's reveal: its result Pending
        _print_pending(json, cast("Pending", done.result), done.who)
    else:
        _print_outcome(json, done.outcome, cast("Resolved", done.result),
                       exit_code=exit_code, who=done.who)


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


def _reveal_text(proof: "Revealed") -> str:
    target, nonce, commitment = proof["target"], proof["nonce"], proof["commitment"]
    return (f"The sealed number is {target}; it matches commitment "
            f"{commitment[:12]}…, the one the GM published.\n"
            f"  nonce       {nonce}\n"
            f"  commitment  {commitment} (verified)\n"
            f"Anyone can check: cwx clock verify --commitment {commitment} "
            f"--target {target} --nonce {nonce}")
