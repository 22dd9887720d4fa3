"""What the journal says of sealed numbers and the guesses on them (play by post,
cwx/campaign/guesses.py): the seals that publish a commitment, the reveals that open
one, the guesses waiting, settled, late or void. Heard an event at a time (Counting), so
a reader passing over the journal anyway counts them on its way, or read here from the
lines that can hold one."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from typing import Any, Final

from cwx.base.errors import BadValue
from cwx.base.record import Record
from cwx.journal import lines as journal
from cwx.journal import recent
from cwx.rules import clockworx
from cwx.systems.clockworx import GUESSING

SEALING = "clock pick --seal"  # the journal's event that publishes a commitment
SETTLED: Final = "guesses"  # the key of a reveal's result that lists the guesses it settled
REPLACES = "replaces"  # the key of a seal's result naming the commitment it seals over
MAX_REPLACED = 10_000  # seals sealed over that a board keeps: a table makes a few
_HEX64 = r"^[0-9a-f]{64}$"
# What a line must hold to be a guess, a reveal, a seal over another or an undo.
GUESSED = (b'"pending"', b'"nonce"', b'"undoes"', b'"' + REPLACES.encode() + b'"')


# hashlib and hmac are imported where a number is checked: loading them costs a command
# about 20 ms, and reading what the journal says of seals needs none.


def commitment(target: int, nonce: str) -> str:
    import hashlib

    return hashlib.sha256(f"cwx-seal-v1:{target}:{nonce}".encode()).hexdigest()


def well_formed(value: str, what: str) -> str:
    """A commitment or nonce as cwx writes them: 64 hexadecimal digits (case ignored)."""
    folded = value.strip().lower()
    if not re.match(_HEX64, folded):
        raise BadValue(f"{what} must be 64 hexadecimal digits, as cwx prints it; "
                       f"got {len(value)} characters")
    return folded


def verified(commitment_hex: str, target: int, nonce: str) -> bool:
    """Whether `target` and `nonce` are the ones the commitment was made from."""
    import hmac

    clockworx.check_position(target, "--target")
    expected = commitment(target, well_formed(nonce, "the nonce"))
    return hmac.compare_digest(expected, well_formed(commitment_hex, "the commitment"))


def reveals(result: Mapping[str, Any], commitment_hex: str) -> bool:
    """Whether a journaled reveal's number and nonce are the ones the commitment was made
    from (a line anyone could write says nothing unless it is)."""
    target, nonce = result.get("target"), result.get("nonce")
    try:
        return isinstance(target, int) and isinstance(nonce, str) and \
            verified(commitment_hex, target, nonce)
    except BadValue:
        return False


class Guess(Record):
    """A pending guess, as its journal line says."""

    id: str
    when: str
    who: str | None
    file: str | None  # as the journal names it
    player: str | None
    commitment: str
    guess: int
    trait: str | None
    score: int | None


class Board(Record):
    """What the journal says of guesses: those waiting, and those settled (by whom)."""

    pending: tuple[Guess, ...]  # in time order
    settled: Mapping[str, str]  # a guess's id -> the id of the reveal that settled it
    revealed: Mapping[str, str]  # a commitment a reveal showed -> when it first was
    void: tuple[Guess, ...] = ()  # guesses on a number the GM sealed anew over (--void)
    replaced: Mapping[str, str] = {}  # a commitment sealed over -> the seal that did
    sealed_over: Mapping[str, str] = {}  # a commitment sealed over -> when it first was

    def on(self, commitment: str) -> list[Guess]:
        """The guesses a reveal of `commitment` settles: those waiting on it while it is
        sealed. One that reaches the GM after the number was shown counts for nothing,
        whatever its stamp says: a stamp is a clone's word, and anyone could write one
        from before the reveal once the number is known."""
        if commitment in self.revealed:
            return []
        return [guess for guess in self.pending if guess.commitment == commitment]

    def late(self, by: Callable[[str], bool] | None = None) -> dict[str, str]:
        """Each guess still waiting whose number was shown (by id: when it first was): it
        reached the GM after the reveal, and counts for nothing (`on`). With `by`, late as
        of a moment: only a reveal stamped by then (`by` says which stamps are) showed it."""
        return {guess.id: shown for guess in self.pending
                if (shown := late(guess, self.revealed)) is not None and
                (by is None or by(shown))}

    def voided(self, by: Callable[[str], bool] | None = None) -> dict[str, str]:
        """Each guess void (by id: the seal that sealed over its number before it was
        shown). With `by`, void as of a moment: sealed over, and not shown, by then (`by`
        says which stamps are)."""
        if by is None:
            return {guess.id: self.replaced[guess.commitment] for guess in self.void}
        return {guess.id: self.replaced[guess.commitment]
                for guess in (*self.pending, *self.void)
                if (over := self.sealed_over.get(guess.commitment)) is not None and by(over) and
                not ((shown := self.revealed.get(guess.commitment)) is not None and by(shown))}


def late(guess: Guess, revealed: Mapping[str, str]) -> str | None:
    """When the number a waiting guess is made on was first shown, if it was: the guess
    reached the GM after the reveal and counts for nothing (Board.on)."""
    return revealed.get(guess.commitment)


def guess_of(event: journal.Event) -> Guess | None:
    """The guess an event of GUESSING holds; None for a line that holds no guess cwx made."""
    result = event.result
    commitment, guess = result.get("commitment"), result.get("guess")
    trait, score = result.get("trait"), result.get("score")
    if event.command != GUESSING or result.get("pending") is not True or \
            not isinstance(commitment, str) or len(commitment) != 64 or \
            not _whole(guess, 12) or not (trait is None or isinstance(trait, str)) or \
            not (score is None or _whole(score, 6)):
        return None
    assert isinstance(guess, int)
    return Guess(event.id, event.when, event.who, event.file, event.player, commitment, guess,
                 trait, score)


def _whole(value: object, most: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= most


class Counting:
    """A board made of events as they come: from a read of the journal's lines that can
    hold one (`counted`), or from a read another reader makes anyway (check's ledger),
    so the journal is read once."""

    def __init__(self) -> None:
        self.turns = journal.Turns()
        self.found: dict[str, Guess] = {}
        self.settled: dict[str, str] = {}
        self.revealed: dict[str, str] = {}
        self.shown_by: dict[str, str] = {}  # a commitment -> its first reveal line's id
        self.replaced: dict[str, str] = {}
        self.sealed_over: dict[str, str] = {}  # a commitment -> when it was first sealed over
        self.opened: list[tuple[str, int, str, str]] = []  # (guess, reveal line, id, commitment)
        # What each reveal (by `opened`'s place) says of the guess it settles: held to the
        # guess line itself once the journal is read (git puts lines anywhere).
        self.copies: list[tuple[object, ...]] = []
        # Each seal as the journal orders it: (line, id, commitment, replaces, player).
        self.seals: list[tuple[int, str, str, object, str | None]] = []

    def note(self, item: journal.Event) -> None:
        if item.undoes or "turns" in item.result:
            self.turns.note(item)
        if item.command == GUESSING and (guess := guess_of(item)) is not None:
            self.found.setdefault(guess.id, guess)  # git's union may copy a line
        over = item.result.get(REPLACES)
        if item.command == SEALING and isinstance(item.result.get("commitment"), str) and \
                len(self.seals) < MAX_REPLACED:
            self.seals.append((item.line, item.id, item.result["commitment"], over,
                               item.player))
        if item.command == SEALING and isinstance(over, str) and \
                len(self.replaced) < MAX_REPLACED:
            self.replaced.setdefault(over, item.id)
            self.sealed_over[over] = min(self.sealed_over.get(over, item.when), item.when)
        commitment = item.result.get("commitment")
        if isinstance(commitment, str) and "nonce" in item.result and \
                reveals(item.result, commitment):
            self.revealed[commitment] = min(self.revealed.get(commitment, item.when), item.when)
            self.shown_by.setdefault(commitment, item.id)
            for entry, copy in _entries(item.result.get(SETTLED)):
                self.settled.setdefault(entry, item.id)
                if len(self.opened) < MAX_REPLACED:
                    self.opened.append((entry, item.line, item.id, commitment))
                    self.copies.append(copy)

    def settled_on_another(self) -> list[tuple[int, str, Guess, str]]:
        """Each reveal (its line and id) that settles a guess made on another commitment
        than the one it shows: the number was swapped after the guess."""
        return [(line, reveal, self.found[guess], commitment)
                for guess, line, reveal, commitment in self.opened
                if guess in self.found and self.found[guess].commitment != commitment]

    def settled_in_vain(self, undone: set[str] | None = None) -> list[tuple[int, str, str, str]]:
        """Each reveal (its line and id) that settles a guess no guess line made, or one an
        earlier reveal settled (a reveal line copied with a new id): why, in words. A reveal
        `undone` (by default: as the undos heard say) settles nothing."""
        first: dict[str, str] = {}  # a guess -> the reveal that settled it first
        said = []
        undone = self.turns.undone() if undone is None else undone
        for (guess, line, reveal, _), copy in zip(self.opened, self.copies, strict=True):
            if reveal in undone:  # taken back: it settles nothing
                continue
            if guess not in self.found:
                said.append((line, reveal, guess, "no guess line in the journal made it"))
            elif first.setdefault(guess, reveal) != reveal:
                said.append((line, reveal, guess,
                             f"reveal {first[guess][:8]} settled it already"))
            elif (otherwise := _copied_otherwise(self.found[guess], copy)) is not None:
                said.append((line, reveal, guess, otherwise))
        return said

    def sealed_over_silently(self, board: Board) -> list[tuple[int, str, str, list[Guess]]]:
        """Each seal (its line and id) made over an unrevealed commitment, by the player
        who sealed that one, that says nothing of it (no `replaces`), while guesses wait on
        it: their number is gone from the GM's clone, and they would wait for ever. With
        it, the commitment sealed over."""
        waiting: dict[str, list[Guess]] = {}
        for guess in board.pending:
            if guess.commitment not in self.revealed:
                waiting.setdefault(guess.commitment, []).append(guess)
        found = []
        for commitment, guesses in waiting.items():
            first = next((seal for seal in self.seals if seal[2] == commitment), None)
            if first is None:
                continue
            # The sealer's next seal: another GM's clone keeps its own sealed number.
            after = next((seal for seal in self.seals if seal[0] > first[0] and
                          seal[4] == first[4] and seal[2] != commitment), None)
            if after is not None and after[3] != commitment:
                found.append((after[0], after[1], commitment, guesses))
        return sorted(found, key=lambda item: item[0])

    def board(self) -> Board:
        undone = self.turns.undone()
        left = sorted((guess for guess in self.found.values()
                       if guess.id not in self.settled and guess.id not in undone),
                      key=lambda guess: (guess.when, guess.id))
        # A guess on a number sealed over before its reveal waits for nothing: void.
        void = tuple(guess for guess in left if guess.commitment in self.replaced and
                     guess.commitment not in self.revealed)
        waiting = tuple(guess for guess in left if guess not in void)
        return Board(waiting, self.settled, self.revealed, void, self.replaced, self.sealed_over)


COPIED = ("guess", "trait", "score", "file")  # what a reveal copies of a guess line


def _entries(listed: object) -> Iterable[tuple[str, tuple[object, ...]]]:
    """Each guess a reveal settles: its id, and what the reveal copied of it (COPIED)."""
    if isinstance(listed, list):
        for entry in listed[:10_000]:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                yield entry["id"], tuple(entry.get(name) for name in COPIED)


def _copied_otherwise(guess: Guess, copy: tuple[object, ...]) -> str | None:
    """How a reveal's copy of a guess differs from its guess line, in words (None: it
    does not): the reveal settles the guess the line made, nothing else."""
    made = (guess.guess, guess.trait, guess.score, guess.file)
    differs = [(name, was, said) for name, was, said in zip(COPIED, made, copy, strict=True)
               if type(was) is not type(said) or was != said]
    if not differs:
        return None
    from cwx.base.errors import shown

    return (f"its guess line says {', '.join(f'{n} {shown(w)}' for n, w, _ in differs)}, "
            f"the reveal {', '.join(f'{n} {shown(s)}' for n, _, s in differs)}")


# ---------------------------------------------------------------- read from the journal


def counted(path: str | None, seals: bool = False) -> Counting:
    """The journal's guesses, seals over others, reveals and undos, heard once (only the
    lines that can hold one are parsed); with `seals`, every seal too."""
    counting = Counting()
    if path is not None:
        ids: set[str] = set()  # the first line of an id is its event (a copy, a twin: none)
        wanted = (*GUESSED, b'"' + SEALING.encode() + b'"') if seals else GUESSED
        for item in journal.holding(path, wanted):
            if item.id not in ids:
                ids.add(item.id)
                counting.note(item)
    return counting


def board(path: str | None) -> Board:
    """The journal's guesses, read once (`counted`)."""
    return counted(path).board()


def settlements(path: str) -> dict[str, Mapping[str, Any]]:
    """Each settled guess's entry in the reveal that settled it (its outcome), by id."""
    found: dict[str, Mapping[str, Any]] = {}
    for item in journal.holding(path, (b'"' + SETTLED.encode() + b'"',)):
        commitment = item.result.get("commitment")
        listed = item.result.get(SETTLED)
        if isinstance(commitment, str) and isinstance(listed, list) and \
                reveals(item.result, commitment):
            for entry in listed[:10_000]:
                if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                    found.setdefault(entry["id"], entry)
    return found


def latest_seal(path: str, but: Collection[str] = ()) -> journal.Event | None:
    """The journal's latest seal but those whose ids are in `but` (read from its end)."""
    return recent.latest(path, SEALING.encode(),
                         lambda event: event.command == SEALING and event.id not in but)


def published_by(path: str, commitment_hex: str) -> str | None:
    """The id of the latest seal in the journal that published this commitment, or None."""
    wanted = commitment_hex.encode()
    for raw in journal.lines_from_end(path):
        if journal.may_hold(raw, (wanted,)):
            event = journal.parse(raw)
            if isinstance(event, journal.Event) and event.command == SEALING and \
                    event.result.get("commitment") == commitment_hex:
                return event.id
    return None


def revealed(path: str, commitment_hex: str) -> bool:
    """Whether the journal revealed this commitment after sealing it, read from its end:
    only lines holding it are parsed, and the search stops at the sealing."""
    wanted = commitment_hex.encode()
    for raw in journal.lines_from_end(path):
        if not journal.may_hold(raw, (wanted,)):
            continue
        event = journal.parse(raw)
        if isinstance(event, journal.BadLine) or event.result.get("commitment") != commitment_hex:
            continue
        if "nonce" in event.result and reveals(event.result, commitment_hex):
            return True
        if event.command == SEALING:
            return False
    return False


def with_commitments(path: str) -> Iterator[journal.Event]:
    """The journal's events that name a commitment (seals, reveals, guesses), in its order."""
    return journal.holding(path, (b'"commitment"',))

