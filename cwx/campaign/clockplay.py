"""ClockWorx at the table: a guess resolved against the GM's number (the experience added
to the character), the number sealed and revealed (the guesses on it settled), a guess
made in a clone without the number, experience spent. Each is one change.

A resolve is the command played most: what only a sealed number needs (the seal, the
guesses) is imported inside the functions that need it."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from cwx.base.errors import BadValue, about, saying
from cwx.base.record import Record
from cwx.rules import clockworx
from cwx.rules.clockworx import Advancement, ClockOutcome
from cwx.systems import clockworx as system

if TYPE_CHECKING:
    from cwx.campaign import results
    from cwx.campaign.files import Acting as Campaign
    from cwx.campaign.files import Change
    from cwx.campaign.guesses import Guess
    from cwx.campaign.seal import Seal


class Resolved(Record):
    """A guess resolved (its outcome, and the result the journal and --json say: the
    outcome and what the files added, the character's xp, the sealed number's proof, the
    guesses its reveal settled), or in a clone without the sealed number, journaled to wait
    for the reveal (no outcome; the result is the pending guess). `who`: the character."""

    outcome: ClockOutcome | None
    result: results.Resolved | results.Pending
    who: str | None


def resolve(camp: Campaign, guess: int, *, target: int | None, trait: str | None,
            char: str | None, score: int | None, sealed: bool, commitment: str | None,
            folder: str | None) -> Resolved:
    """Resolve against a character (adding the experience) and/or the sealed number
    (revealing it, and settling the guesses waiting on it), as one change with one
    journal line; in a clone without the sealed number, a guess that waits for it."""
    if target is None and not sealed:
        raise BadValue("give the GM's number with --target, or use --sealed")
    char = camp.character(char) if char is not None else None
    near = os.path.dirname(char or "") or camp.folder
    seal_at = seal_path(camp, folder, near) if sealed else None
    if seal_at and not _sealed_here(*seal_at):
        return _guess(seal_at[1], guess, trait, score, char, commitment)
    if commitment is not None:
        raise BadValue("--commitment names the seal a player's guess waits on; this clone "
                       "holds the sealed number itself, so leave it out")
    seal_file = seal_at[0] if seal_at else None
    # A sealed number's events are journaled beside it, wherever the character is: that
    # journal is the witness that it was revealed.
    acting = seal_at[1] if seal_at else camp.of(char or ".")
    if seal_file:
        from cwx.campaign import seal

        seal.by_a_gm(acting, "reveals the number")
    waiting = _waiting(seal_file, acting) if seal_file else []
    paths = [p for p in (char, seal_file) if p]
    paths += [p for p in _to_settle(acting, waiting) if p not in paths]
    with acting.change("clock resolve", paths, private=[seal_file or ""]) as change:
        extra: results.Resolving = {}
        opens: dict[str, Any] = {}  # the seal a reveal opens, for the journal
        if seal_file:
            target, extra = _revealing(change, acting, seal_file, waiting, char)
            opens = _opens(change, extra["commitment"])
        assert target is not None
        sheet = change.character(char, system.NAME) if char else None
        own = own_trait(char, sheet, trait) if char and sheet else None
        outcome = clockworx.resolve(target, guess, sheet.traits[own] if sheet and own
                                    else score, own if sheet else trait)
        if sheet is not None:
            after = system.after_outcome(sheet, outcome)
            change.save(char or "", sheet, after)
            extra["xp_total"] = after.xp
        result: results.Resolved = {**system.outcome_json(outcome), **extra}
        change.record({**result, **opens}, who=sheet.name if sheet else None, file=char)
    return Resolved(outcome, result, sheet.name if sheet else None)


def own_trait(char: str, sheet: Any, trait: str | None) -> str | None:
    """The character's own spelling of the trait named (None: untrained)."""
    with about(char), saying(clockworx.NoSuchTrait, "; leave out --trait for an "
                                                    "untrained action"):
        return clockworx.require_trait(sheet.traits, trait) if trait is not None else None


def score(camp: Campaign, char: str, trait: str) -> int:
    """The character's score in `trait`, read under its lock."""
    path = camp.character(char)
    with camp.reading([path]) as change:
        sheet = change.character(path, system.NAME)
    with about(path):
        return int(sheet.traits[clockworx.require_trait(sheet.traits, trait)])


def spend_xp(camp: Campaign, char: str, *, new: str | None,
             raise_: str | None) -> Advancement:
    """Experience spent on a new trait, or one more point in a trait."""
    char = camp.character(char)
    with camp.of(char).change("xp spend", [char]) as change:
        sheet = change.character(char, system.NAME)
        with about(char):
            step = clockworx.advance(sheet.traits, sheet.xp, new=new, raise_=raise_)
        change.save(char, sheet, sheet._replace(traits={**sheet.traits, step.trait: step.score},
                                                xp=step.xp_total))
        change.record(system.advancement_json(step), who=sheet.name, file=char)
    return step


# ---------------------------------------------------------------- the sealed number


def seal(camp: Campaign, *, target: int | None, force: bool, void: bool,
         folder: str | None) -> results.Sealed:
    """The GM's number sealed where `folder`'s campaign keeps it (seal_path): its
    commitment, journaled for the players, with the number it seals over, if unrevealed
    (refused while guesses wait on that one, unless `void`: they are made void)."""
    import random

    from cwx.campaign import guesses, seal

    path, at = seal_path(camp, folder, camp.folder)
    seal.by_a_gm(at, "seals the number")
    with at.change("clock pick --seal", [path], private=[path]) as change:
        raw = change.raw(path)
        if raw is not None and not force:  # --force replaces even a file that is no seal
            seal.replacing(seal.decode(raw, path), path=path)
        over = guesses.sealing_over(change.journal, void)
        sealed = seal.new(target if target is not None else
                          clockworx.pick(random.SystemRandom()))
        change.create(path, seal.encode(sealed), force=True, secret=True)
        change.record({"commitment": sealed.commitment, **over})
    # One shape for a pick and a seal: the number stays secret, so its key is null.
    return {"target": None, "commitment": sealed.commitment}


def reveal(camp: Campaign, *, folder: str | None) -> results.Revealed:
    """The sealed number revealed with the nonce that proves it, and the guesses players
    made against it settled: its proof, and those guesses (`guesses`) if any."""
    from cwx.campaign import guesses, seal

    path, at = seal_path(camp, folder, camp.folder)
    seal.by_a_gm(at, "reveals the number")
    waiting = guesses.waiting_on(path, at.journal_file)
    with at.change("clock reveal", [path, *guesses.files_to_settle(at, waiting)],
                   private=[path]) as change:
        sealed = seal.to_reveal(change.raw(path), path, change.journal)
        settled = _settle(change, at, sealed, waiting)
        if not sealed.revealed or settled:
            _mark_revealed(change, path, sealed)
            change.record({**sealed.proof(), **_listed(settled),
                           **_opens(change, sealed.commitment)})
    return {**sealed.proof(), **_listed(settled)}


def seal_path(camp: Campaign, folder: str | None, near: str) -> tuple[str, Campaign]:
    """The sealed number's file, and the campaign it is journaled in: kept for `folder`
    if given, else for the root of the campaign `near` is in (one place for a GM who seals
    from any of its folders), else for `near` (seal.path_for says where)."""
    from cwx.campaign import seal

    at = camp.elsewhere(folder if folder is not None else near)
    if folder is None:
        folder = os.path.relpath(at.root) if at.root is not None else near
    path = seal.path_for(folder)
    if os.path.basename(path) != seal.FILE:  # in git's folder, made on first use
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        seal.not_left_behind(path, os.path.normpath(os.path.join(folder, seal.FILE)))
    return path, at


def _sealed_here(path: str, camp: Campaign) -> bool:
    from cwx.campaign import seal

    return seal.here(path, camp.journal_file)


def _guess(camp: Campaign, guess: int, trait: str | None, score: int | None,
           char: str | None, commitment: str | None) -> Resolved:
    """A guess journaled pending against the latest published seal (no file changes)."""
    from cwx.campaign import guesses

    with camp.change(guesses.GUESSING, [char] if char else []) as change:
        who = None
        if char is not None:
            sheet = change.character(char, system.NAME)
            trait = own_trait(char, sheet, trait)
            score, who = sheet.traits[trait] if trait else None, sheet.name
        against = guesses.against(change.journal, change.name_of(char) if char else None,
                                  who, commitment)
        result = guesses.pending_result(against, guess, trait, score)
        change.record(result, who=who, file=char)
        name = change.name_of(char) if char else None
    if camp.root is not None:  # the clone holds the GM to the number it guessed on
        guesses.keep(camp.root, name, against)
    return Resolved(None, result, who)


def _settle(change: Change, camp: Campaign, sealed: Seal,
            waiting: list[Guess]) -> list[results.SettledGuess]:
    """The guesses waiting on the seal, settled in this change (the reveal's)."""
    from cwx.campaign import guesses

    now = guesses.still(change.journal, sealed.commitment, waiting)
    return guesses.settle(change, camp, sealed.target, now)


def _listed(settled: list[results.SettledGuess]) -> results.Listed:
    from cwx.campaign import guesses

    return {guesses.SETTLED: settled} if settled else {}


def _waiting(seal_file: str, camp: Campaign) -> list[Guess]:
    from cwx.campaign import guesses  # loaded by sealed resolves only (start-up)

    return guesses.waiting_on(seal_file, camp.journal_file)


def _to_settle(camp: Campaign, waiting: list[Guess]) -> list[str]:
    if not waiting:
        return []
    from cwx.campaign import guesses

    return guesses.files_to_settle(camp, waiting)


def _revealing(change: Change, camp: Campaign, path: str, waiting: list[Guess],
               char: str | None) -> tuple[int, results.Resolving]:
    """The sealed number resolved against, revealed (and the guesses on it settled; the
    GM's own character may not be one of them)."""
    from cwx.campaign import guesses

    guesses.not_guessing(waiting, change.name_of(char) if char else None)
    sealed = _sealed_to_resolve(change, path)
    settled = _settle(change, camp, sealed, waiting)
    _mark_revealed(change, path, sealed)
    proof = sealed.proof()
    extra: results.Resolving = {"nonce": proof["nonce"], "commitment": proof["commitment"],
                                "verified": proof["verified"]}
    if settled:  # as _listed says them
        extra["guesses"] = settled
    return sealed.target, extra


def _opens(change: Change, commitment: str) -> dict[str, Any]:
    """The seal a reveal opens, as the journal records it (each clone checks it is the
    seal of the commitment its guesses were made on)."""
    from cwx.campaign import seal

    return {seal.OPENS: seal.published_by(change.journal, commitment)}


def _sealed_to_resolve(change: Change, path: str) -> Seal:
    """The sealed number a guess is resolved against, witnessed by the journals."""
    from cwx.campaign import seal

    sealed = seal.to_reveal(change.raw(path), path, change.journal)
    # The journal it is published in is the witness (the change is journaled there).
    return seal.to_resolve(sealed, [change.campaign.journal_file], path)


def _mark_revealed(change: Change, path: str, sealed: Seal) -> None:
    from cwx.campaign import seal

    change.create(path, seal.encode(sealed._replace(revealed=True)), force=True, secret=True)
