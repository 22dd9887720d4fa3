"""Guesses against a sealed number, made where the number is not (play by post).

The GM seals a number in their own clone; the commitment travels with the journal, the
number never does. A player's `clock resolve --sealed` in a clone without it journals a
pending guess: the commitment it is made against, the guess, and the trait and its score
at that moment (what the reveal uses, whatever the sheet says later). The GM's reveal,
after a pull, settles every pending guess on its commitment in time order, each by
C1-C7, the experience added to each character in the reveal's own change; the journal
line of the reveal lists them (`guesses`), which is how every clone knows a guess is
settled. One guess a character on each sealed number; a guess undone while it waits is
no guess.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from cwx.base.errors import Conflict, RuleForbids
from cwx.campaign import seal
from cwx.journal import lines as journal
from cwx.journal import sealed

# What the journal says of guesses is its model's: named here for the campaign's readers.
from cwx.journal.sealed import REPLACES as REPLACES
from cwx.journal.sealed import REVEALING as REVEALING
from cwx.journal.sealed import SETTLED as SETTLED
from cwx.journal.sealed import Board as Board
from cwx.journal.sealed import Counting as Counting
from cwx.journal.sealed import Guess as Guess
from cwx.journal.sealed import board as board
from cwx.journal.sealed import guess_of as guess_of
from cwx.journal.sealed import late as late
from cwx.journal.sealed import scores_held as scores_held
from cwx.journal.sealed import settlements as settlements
from cwx.rules import clockworx
from cwx.systems import clockworx as system

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

    from cwx.campaign.files import Change
    from cwx.campaign.folder import Campaign
    from cwx.campaign.results import Counted, Pending, SettledGuess, Waiting

GUESSING = system.GUESSING  # the journal's event of a pending guess
SEALING = seal.SEALING  # the journal's event that publishes a commitment
VOIDS = "void"  # the key of a seal's result listing the guesses it makes void (--void)


def witness(journal_path: str | None, gms: tuple[str, ...] | None = None, *,
            read: bool = True) -> sealed.Witness:
    """What holds the journal's reveals beyond its lines (sealed.Witness): the GMs (`gms`,
    or with `read` campaign.toml's gm beside the journal; one unreadable: anyone), and git's
    order of two reveals of one number."""
    if journal_path is None:
        return sealed.Witness(gms)
    import functools

    from cwx.git import unsettled

    root = os.path.dirname(journal_path) or "."
    if read:
        from cwx.base.errors import CwxError
        from cwx.campaign.folder import Campaign

        try:
            gms = Campaign(root, root).settings().gm
        except CwxError:
            gms = None
    return sealed.Witness(gms, functools.partial(unsettled.reveal_order, root),
                          functools.partial(_disproved, root, {}),
                          functools.partial(_a_gms_then, root))


def _a_gms_then(root: str, reveal: str, player: str) -> bool:
    """Whether a reveal by `player`, no GM now, was anyone's or a GM's when its line
    arrived (gms.anyones)."""
    from cwx.campaign import gms

    return reveal in gms.anyones(root, [(reveal, player)])


def _disproved(root: str, asked: dict[tuple[str, str], Any], reveal: str, guess: Guess,
               why: str) -> str | None:
    """What git proves against a reveal's word that a guess's file was gone or unreadable
    in the GM's clone (guesses._not_counted): the commit that added the reveal's line
    holds the file, and it reads as the ClockWorx character the guess was made for. None:
    no commit holds the reveal yet, or the file is not so there."""
    from cwx.base.errors import CwxError
    from cwx.git import unsettled
    from cwx.systems import sheets
    from cwx.toml import tomlread

    if guess.file is None:
        return None
    if (reveal, guess.file) not in asked:  # a reveal's commit is looked for once a file
        asked[reveal, guess.file] = unsettled.committed_with(root, reveal, [guess.file])
    found = asked[reveal, guess.file]
    raw = found[1].get(guess.file) if found is not None else None
    if found is None or raw is None:
        return None
    try:
        data = tomlread.parse(raw, guess.file)
        sheet = sheets.character(data, os.path.splitext(os.path.basename(guess.file))[0])
    except CwxError:
        return None
    if sheet.system != system.NAME:
        return None
    return (f"the commit that brought the reveal (commit {found[0].commit[:12]} by "
            f"{found[0].author[:60]}) holds {guess.file}, a ClockWorx character that reads "
            "as such")


def as_waiting(guess: Guess) -> Waiting:
    """A guess waiting, as --json says it."""
    return {"id": guess.id, "at": guess.when, "who": guess.who, "file": guess.file,
            "player": guess.player, "commitment": guess.commitment, "guess": guess.guess,
            "trait": guess.trait, "score": guess.score}


def said_void(seal_id: str) -> str:
    """Why a guess on a number sealed over counts for nothing, in words."""
    return (f"void: the GM sealed a new number (seal {seal_id[:8]}) before revealing the "
            "one it was made on; guess again on the new one")


def said_late(shown: str) -> str:
    """Why a guess `late` counts for nothing, and what the table may do, in words."""
    from cwx.base import times

    return (f"reached the GM after the reveal ({times.shown(shown)}): counts for nothing "
            "(the table may give its experience by hand, and adopt it)")


def said_held(shown: str, commit: str, author: str) -> str:
    """A guess left unsettled by a reveal whose commit held it before the reveal, in words:
    git's fact, and the two ways it came about (only the GM's clone knows which)."""
    from cwx.base import times

    return (f"unsettled by the reveal ({times.shown(shown)}), though the journal it was "
            f"committed with (commit {commit[:12]} by {author}) holds the guess before it: "
            "the guess was shared before the number. Either the GM's clone had it and the "
            "reveal left it out, or the GM revealed before pulling it (sync's rebase puts "
            "it first); the table decides, and may give its experience by hand and adopt it")


def why_void(found: Board, guess: str) -> str | None:
    """Why the guess of id `guess` is void (`said_void`), if it is."""
    void = next((item for item in found.void if item.id == guess), None)
    return None if void is None else said_void(found.replaced[void.commitment])


def told_settled(event: journal.Event, entry: Mapping[str, Any]) -> str:
    """A guess the reveal settled, in words (the guesser named apart): the number shown
    now, with the outcome."""
    from cwx.base.printable import printable

    trait = event.result.get("trait") or "untrained"
    word = "critical success" if entry.get("critical") else \
        "success" if entry.get("success") else "failure"
    gained = f", +{entry.get('xp')} xp" if entry.get("xp") and entry.get("counted") is not \
        False else ""
    tail = f" (counts for nothing: {entry.get('why')})" if entry.get("counted") is False \
        else " (settled at the reveal)"
    return printable(f"guesses {trait}, {entry.get('guess')} vs sealed "
                     f"{entry.get('target')}: {word}{gained}{tail}")


def told_late(told: str) -> str:
    """A guess told pending, told late instead: it reached the GM after the number was
    shown, so it counts for nothing (as check says)."""
    return told_undone(told) + \
        ": late, counts for nothing (it reached the GM after the number was shown)"


def told_void(told: str) -> str:
    """A guess told pending, told void instead: the GM sealed a new number over it."""
    return told_undone(told) + ": void, the GM sealed a new number before revealing it"


def sealed_over(journal_path: str | None) -> tuple[str | None, list[Guess]]:
    """What a new seal seals over: the latest commitment the journal published, if it was
    never revealed, and the guesses waiting on it."""
    latest = seal.published(journal_path)
    if latest is None:
        return None, []
    found = board(journal_path)
    if latest in found.revealed:
        return None, []
    return latest, found.on(latest)


def sealing_over(journal_path: str | None, void: bool) -> dict[str, Any]:
    """What a new seal's line says of the number it seals over (its commitment, and the
    guesses it voids); refused while guesses wait on it, unless the GM says --void."""
    from cwx.base.ink import plural

    latest, waiting = sealed_over(journal_path)
    if latest is None:
        return {}
    if waiting and not void:
        who = ", ".join(guess.who or guess.player or "a guess" for guess in waiting[:3])
        raise RuleForbids(f"{plural(len(waiting), 'guess')} ({who}) "
                          f"{'waits' if len(waiting) == 1 else 'wait'} on the sealed number "
                          f"{seal.short(latest)}: reveal it first (cwx clock reveal), or seal "
                          "anew with --void, which makes them void for every clone",
                          path=journal_path)
    return {REPLACES: latest, **({VOIDS: [guess.id for guess in waiting]} if waiting else {})}


def not_verified(journal_path: str | None) -> tuple[list[str], list[str]]:
    """Each seal over a number guesses wait on that says nothing of it, and each guess
    settled as the rules do not settle it, or listed in no form cwx writes (`cwx check`
    names them all), in words: the journal's guesses and seals read once."""
    from cwx.journal import sealed

    counting = sealed.counted(journal_path, seals=True, witness=witness(journal_path))
    undone = counting.turns.undone()
    return ([said_sealed_over(seal_id, commitment, waiting) for _, seal_id, commitment, waiting
             in counting.sealed_over_silently(counting.board())],
            [said_swapped(reveal, guess, commitment)
             for _, reveal, guess, commitment in counting.settled_on_another()] +
            [said_in_vain(counting, reveal, guess, why)
             for _, reveal, guess, why in counting.settled_in_vain()] +
            [f"{command} {event_id[:8]} lists its settled guesses in no form cwx writes (a "
             "line written by hand): its experience is none the rules give; `cwx undo "
             f"{event_id}` takes it back" for _, event_id, command in counting.misformed
             if event_id not in undone] +
            [said_counted_otherwise(reveal, guess, why)
             for _, reveal, guess, why in counting.counted_otherwise(
                held=lambda asked: scores_held(journal_path, asked) if journal_path else {})])


def said_counted_otherwise(reveal: str, guess: Guess, why: str) -> str:
    """A reveal that says a guess counts, or not, otherwise than the rules give, re-played
    from its guess line (Counting.counted_otherwise), in words, with the undo that takes it
    back."""
    return (f"reveal {reveal[:8]} settles {guess.who or 'a'}'s guess {guess.id[:8]} "
            f"(result.guesses, counted) and {why}: a reveal settles each guess it lists as "
            f"the rules give (a line written by hand?); `cwx undo {reveal}` takes it back, "
            "and the GM's `cwx clock reveal` then settles its guesses again")


def said_swapped(reveal: str, guess: Guess, commitment: str) -> str:
    """A reveal that settles a guess made on another number than the one it shows."""
    return (f"reveal {reveal[:8]} settles {guess.who or 'a'}'s guess {guess.id[:8]}, made on "
            f"commitment {seal.short(guess.commitment)}, with the number of "
            f"{seal.short(commitment)}: the sealed number was swapped after the guess; the "
            "table settles it (the guess's experience by hand, `cwx adopt`)")


def said_sealed_over(seal_id: str, commitment: str, waiting: Sequence[Guess]) -> str:
    """A seal over a number guesses wait on that says nothing of it, in words: the one
    step that settles it is each guess taken back (its number is gone)."""
    guess = waiting[0]
    more = f" (and {len(waiting) - 1} more)" if len(waiting) > 1 else ""
    return (f"clock pick --seal {seal_id[:8]} seals a new number over commitment "
            f"{seal.short(commitment)}, on which {guess.who or 'a'}'s guess {guess.id[:8]}"
            f"{more} waits, but says neither that it replaces it nor that the guess is void "
            "(a seal line cut by hand, or written in the GM's name?). If the GM's clone "
            "still holds that number (it never sealed this one), `cwx undo "
            f"{seal_id}` takes the seal back and the guess waits for its reveal; if the GM "
            f"sealed anew, the number is gone: `cwx undo {guess.id}` takes the guess back "
            "(its player's; the table gives its experience by hand if it decides so)")


def said_in_vain(counting: Counting, reveal: str, guess: str, why: str) -> str:
    """A reveal (or a line settling guesses with no number shown) that settles a guess
    the rules do not let it settle (Counting.settled_in_vain), in words, with the undo
    that takes it back."""
    said = counting.settlers.get(reveal, "reveal")
    return (f"{said} {reveal[:8]} settles guess {guess[:8]}, but {why}: its experience is "
            "none the rules give (a reveal line written or copied by hand); `cwx undo "
            f"{reveal}` takes it back")


def told_undone(told: str) -> str:
    """A guess told pending, told without its wait: it waits for nothing any more."""
    waiting = told.rfind(": pending on ")
    return told[:waiting] if waiting >= 0 else told


# ---------------------------------------------------------------- a guess


def against(journal_path: str | None, name: str | None, who: str | None,
            wanted: str | None) -> str:
    """The commitment a new guess is made against: the latest the journal published
    (`wanted`, if given, must be it, in full or its first digits), not yet revealed, and
    not guessed on by this character (`name`, as the journal names its file)."""
    latest = seal.published(journal_path)
    if latest is None:
        raise RuleForbids("no sealed number here, and the journal publishes none to guess "
                          "against: the GM seals one (cwx clock pick --seal) and pushes it; "
                          "pull, then guess", path=journal_path or None)
    if wanted is not None and not latest.startswith(wanted.strip().lower()):
        raise RuleForbids(f"the commitment {wanted.strip()[:12]} is not the latest the GM "
                          f"published ({seal.short(latest)}): pull, and guess against the "
                          "latest", path=journal_path)
    found = board(journal_path)
    if latest in found.revealed:
        raise RuleForbids(f"the sealed number {seal.short(latest)} was already revealed; "
                          "wait for the GM's next seal", path=journal_path)
    if name is not None and any(guess.file == name for guess in found.on(latest)):
        raise RuleForbids(f"{who or name} already guesses on {seal.short(latest)}: one guess "
                          "a character on each sealed number (`cwx undo` takes yours back "
                          "while it waits)", path=journal_path)
    return latest


def not_guessing(waiting: Sequence[Guess], name: str | None) -> None:
    """The GM's own resolve against the seal is refused for a character already guessing
    on it from another clone: one guess a character on each sealed number."""
    for guess in waiting:
        if name is not None and guess.file == name:
            raise RuleForbids(f"{guess.who or name} already guesses on this sealed number "
                              f"(from {guess.player or 'another clone'}): one guess a "
                              "character; cwx clock reveal settles it", path=name)


def pending_result(commitment: str, guess: int, trait: str | None,
                   score: int | None) -> Pending:
    """A pending guess: the journal's result, and --json's."""
    return {"pending": True, "commitment": commitment, "guess": guess, "trait": trait,
            "score": score}


# ---------------------------------------------------------------- what a clone guessed on

KEPT = "guessed.jsonl"  # beside the sealed number, in the clone's own git folder


def _kept_at(root: str) -> str | None:
    """Where a clone keeps the commitments its guesses were made on: in its own git
    folder, which no pull reaches (None outside git: no clone to hold to them)."""
    path = seal.path_for(root)
    return None if os.path.basename(path) == seal.FILE else \
        os.path.join(os.path.dirname(path), KEPT)


def keep(root: str, file: str | None, commitment: str) -> None:
    """Note that this clone guessed for `file` on `commitment`: a journal brought by git
    that says otherwise later (the number swapped, the line rewritten) is named by check."""
    path = _kept_at(root)
    if path is None:
        return
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    line = journal.dumps({"file": file, "commitment": commitment}) + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


def kept(root: str) -> list[tuple[str | None, str]]:
    """The (file, commitment) of each guess this clone made (a few hundred at most kept)."""
    path = _kept_at(root)
    if path is None or not os.path.isfile(path) or os.path.islink(path):
        return []
    found = []
    with open(path, "rb") as file:
        for raw in file.read(1 << 20).splitlines()[:10_000]:
            try:
                item = journal.decoded(raw)
            except ValueError:
                continue
            if isinstance(item, dict) and isinstance(item.get("commitment"), str) and \
                    (item.get("file") is None or isinstance(item.get("file"), str)):
                found.append((item.get("file"), item["commitment"]))
    return found


def not_as_guessed(root: str, counting: Counting) -> list[tuple[str | None, str]]:
    """Each guess this clone made that the journal no longer holds as it was made (its
    commitment swapped for another's: a line rewritten)."""
    held = {(guess.file, guess.commitment) for guess in counting.found.values()}
    return [item for item in dict.fromkeys(kept(root)) if item not in held]


def lost(root: str) -> list[tuple[str | None, str]]:
    """`not_as_guessed` of the campaign at `root`, its journal read only where this clone
    guessed at all."""
    if not kept(root):
        return []
    from cwx.journal import sealed

    return not_as_guessed(root, sealed.counted(journal.path_in(root)))


def said_lost(file: str | None, commitment: str) -> str:
    """A guess of this clone's the journal no longer holds, in words."""
    return (f"this clone guessed for {file or 'a score'} on commitment "
            f"{seal.short(commitment)}, but the journal holds no such guess now: the line "
            "was rewritten or the number swapped (git log -p journal.jsonl shows who)")


def refusal(root: str, what: str, before: str | None) -> str | None:
    """Why the campaign at `root` is not settled after a merge, pull or rebase (from
    `before`): it brought a journal that no longer holds a guess this clone made as it
    made it. None: every guess held."""
    from cwx.git.grows import REFUSED

    found = lost(root) if before else []
    if not found or before is None:
        return None
    return (f"after the {what}, {REFUSED} {said_lost(*found[0])}. Next: `git reset --keep "
            f"{before[:12]}` takes this clone back to before the {what} (your own commits "
            "kept); cwx check names it until the table settles it")


# ---------------------------------------------------------------- the reveal


def waiting_on(seal_path: str, journal_path: str | None) -> list[Guess]:
    """The guesses a reveal of the number sealed at `seal_path` would settle, read before
    the lock (to know which files to lock); none while the file is no seal."""
    from cwx.base.errors import CwxError
    from cwx.toml.tomlread import read_bytes

    try:
        sealed = seal.decode(read_bytes(seal_path, through_links=False), seal_path)
    except CwxError:
        return []
    return board(journal_path).on(sealed.commitment)


def files_to_settle(camp: Campaign, guesses: Sequence[Guess]) -> list[str]:
    """The character files the settlement of `guesses` writes (those still there)."""
    paths = {camp.named(guess.file) for guess in guesses if guess.file}
    return sorted(path for path in paths if os.path.lexists(path))


def still(journal_path: str | None, commitment: str, read: Sequence[Guess]) -> list[Guess]:
    """The guesses on `commitment`, read again under the lock: the same as before it, or
    the journal changed meanwhile (another clone's pull) and the reveal is made again."""
    now = board(journal_path).on(commitment)
    if [guess.id for guess in now] != [guess.id for guess in read]:
        raise Conflict("the journal's guesses changed while cwx read it; run the reveal "
                       "again", path=journal_path)
    return now


def settle(change: Change, camp: Campaign, target: int,
           guesses: Sequence[Guess]) -> list[SettledGuess]:
    """Each guess resolved against the revealed `target`, in time order, its experience
    added to its character (in `change`). A later guess of a character, one whose file is
    gone or no ClockWorx character, or one whose score is not the character's at the
    guess, settles with no experience, and says why."""
    settled: list[SettledGuess] = []
    done: set[str | None] = set()  # the files settled so far
    held = scores_held(change.campaign.journal_file, guesses)
    for guess in guesses:
        outcome = clockworx.resolve(target, guess.guess, guess.score, guess.trait)
        path = camp.named(guess.file) if guess.file else None
        why = _not_counted(change, guess, path, done, held[guess.id])
        counted: Counted = {}
        if why is not None:
            counted = {"counted": False, "why": why}
        elif path is not None:
            sheet = change.character(path, system.NAME)
            after = system.after_outcome(sheet, outcome)
            change.save(path, sheet, after)
            done.add(guess.file)
            counted = {"xp_total": after.xp}
        settled.append({"id": guess.id, "who": guess.who, "file": guess.file,
                        "player": guess.player, **system.outcome_json(outcome), **counted})
    return settled


def _not_counted(change: Change, guess: Guess, path: str | None, done: set[str | None],
                 held: set[int | None] | None) -> str | None:
    """Why a guess earns nothing (None: it counts)."""
    from cwx.base.errors import CwxError

    if path is None:
        return None  # a score without a character: the outcome alone
    if guess.file in done:
        return sealed.AGAIN
    if not os.path.lexists(path):
        return sealed.said_gone(guess)
    try:
        sheet = change.character(path, system.NAME)
    except CwxError as error:
        return f"{guess.file}: {error.message}"
    now = sheet.traits.get(guess.trait) if guess.trait else None
    if guess.score not in (held if held is not None else {now}):
        return sealed.said_unheld(guess)
    return None


def settled_text(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    """The settled guesses, one line each, for people."""
    lines = []
    for entry in entries:
        who = entry.get("who") or "an untrained guess"
        trait = system.trait_said(entry.get("trait"), entry.get("score"))
        word = "critical success" if entry.get("critical") else \
            "success" if entry.get("success") else "failure"
        gained = f", +{entry.get('xp')} xp" if entry.get("xp") else ""
        tail = f" (counts for nothing: {entry['why']})" if entry.get("counted") is False \
            else f"; now {entry['xp_total']} xp" if "xp_total" in entry else ""
        lines.append(f"  {who}: guess {entry.get('guess')} ({trait}): {word}{gained}{tail}")
    return lines
