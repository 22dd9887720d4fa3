"""What the journal says of sealed numbers and the guesses on them (play by post,
cwx/campaign/guesses.py): the seals that publish a commitment, the reveals that open
one, the guesses waiting, settled, late or void. Heard an event at a time (Counting), so
a reader passing over the journal anyway counts them on its way, or read here from the
lines that can hold one."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence

from cwx.base.errors import BadValue
from cwx.base.record import Record
from cwx.journal import lines as journal
from cwx.journal import recent
from cwx.rules import clockworx
from cwx.systems.clockworx import GUESSING, trait_key

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any, Final

SEALING = "clock pick --seal"  # the journal's event that publishes a commitment
REVEALING = "clock reveal"  # the journal's event that shows a sealed number
SETTLED: Final = "guesses"  # the key of a reveal's result that lists the guesses it settled
REPLACES = "replaces"  # the key of a seal's result naming the commitment it seals over
MAX_REPLACED = 10_000  # seals sealed over that a board keeps: a table makes a few
_HEX64 = r"^[0-9a-f]{64}$"
# What a line must hold to be a guess, a reveal, a seal over another, an undo, or a line
# that lists guesses it settles.
GUESSED = (b'"pending"', b'"nonce"', b'"undoes"', b'"' + REPLACES.encode() + b'"',
           b'"' + SETTLED.encode() + b'"')


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
    line: int = 0  # where it stands in the journal: a reveal before it cannot settle it


class Board(Record):
    """What the journal says of guesses: those waiting, and those settled (by whom)."""

    pending: tuple[Guess, ...]  # in time order
    settled: Mapping[str, str]  # a guess's id -> the id of the reveal that settled it
    revealed: Mapping[str, str]  # a commitment a reveal showed -> when it first was
    void: tuple[Guess, ...] = ()  # guesses on a number the GM sealed anew over (--void)
    replaced: Mapping[str, str] = {}  # a commitment sealed over -> the seal that did
    sealed_over: Mapping[str, str] = {}  # a commitment sealed over -> when it first was
    # Guesses a reveal settled that was undone since (named by check, taken back): they
    # wait for the GM to reveal again, the only ones a reveal of a shown number settles.
    reopened: frozenset[str] = frozenset()

    def on(self, commitment: str) -> list[Guess]:
        """The guesses a reveal of `commitment` settles: those waiting on it while it is
        sealed. One that reaches the GM after the number was shown counts for nothing,
        whatever its stamp says: a stamp is a clone's word, and anyone could write one
        from before the reveal once the number is known. Once shown, only those a reveal
        taken back had settled wait for it (they reached the GM before the number)."""
        return [guess for guess in self.pending if guess.commitment == commitment and
                (commitment not in self.revealed or guess.id in self.reopened)]

    def late(self, by: Callable[[str], bool] | None = None) -> dict[str, str]:
        """Each guess still waiting whose number was shown (by id: when it first was): it
        reached the GM after the reveal, and counts for nothing (`on`). With `by`, late as
        of a moment: only a reveal stamped by then (`by` says which stamps are) showed it."""
        return {guess.id: shown for guess in self.pending
                if (shown := late(guess, self.revealed)) is not None and
                guess.id not in self.reopened and (by is None or by(shown))}

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
                 trait, score, event.line)


def _whole(value: object, most: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= most


# Git's word on the reveals of one number (git/unsettled.py): given each reveal (its id,
# the guesses it lists) and the guesses on the number, each reveal's place (lower first).
Order = Callable[[Sequence[tuple[str, frozenset[str]]], Sequence[str]],
                 Mapping[str, tuple[int, ...]]]


ASKED_THEN = 16  # reveals by no GM now whose arrival git is asked of (a search each)


class Witness(Record):
    """What the journal's lines alone cannot say of which reveal counts: who the GMs are
    (a reveal by another settles nothing), and which of two reveals of one number came
    first (git's order, never the order a merge gave their lines)."""

    gms: tuple[str, ...] | None = None  # campaign.toml's gm (None: anyone reveals)
    order: Order | None = None
    # Given a reveal's id, a guess it lists and its why (the file gone or unreadable in
    # the GM's clone), what of the repository disproves it, in words (None: nothing).
    disproves: Callable[[str, Guess, str], str | None] | None = None
    # Given a reveal's id and its player, no GM now, whether the player was a GM (or none
    # was named) when its line arrived (git's word).
    then: Callable[[str, str], bool] | None = None

    def by_gm(self, player: str | None) -> bool:
        """Whether `player` may reveal: a GM named, or anyone where none is (a line of an
        older cwx names no player, and is not held to it)."""
        return self.gms is None or player is None or \
            any(journal.same_player(player, gm) for gm in self.gms)


class Counting:
    """A board made of events as they come: from a read of the journal's lines that can
    hold one (`counted`), or from a read another reader makes anyway (check's ledger),
    so the journal is read once."""

    def __init__(self, witness: Witness | None = None) -> None:
        self.witness = witness or Witness()
        self.revealer: dict[str, tuple[str | None, str]] = {}  # a reveal -> (player, stamp)
        self._ordered: list[tuple[str, str]] | None = None  # `counting_reveals`, once
        self.first: dict[str, str] = {}  # a commitment -> the reveal of it that stands
        # Reveals of a number made on a history that never held another's (git's order):
        # a number is revealed once, from the GM's clone, so one of them is a copy.
        self.apart: set[str] = set()
        self._ranks: dict[str, tuple[Any, ...]] = {}  # a reveal -> its place (git's word)
        self._then: dict[str, bool] = {}  # a reveal by no GM now -> a GM's when it came
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
        # What each reveal (by `opened`'s place) says of whether the guess counts: (the
        # `counted` it says, its `why`), re-played from the guess lines once read.
        self.verdicts: list[tuple[object, object]] = []
        # Each seal as the journal orders it: (line, id, commitment, replaces, player).
        self.seals: list[tuple[int, str, str, object, str | None]] = []
        # Each reveal as the journal orders it, guesses listed or none: (its id, commitment).
        self.reveals: list[tuple[str, str]] = []
        self.settlers: dict[str, str] = {}  # a line settling guesses, no reveal: its command
        # Each line listing guesses it settles in no form cwx writes (not a list of
        # objects with ids): (line, id, command); its re-play names its changes.
        self.misformed: list[tuple[int, str, str]] = []

    def witnessed(self, witness: Witness) -> None:
        """Hold the reveals to `witness` (who the GMs are, git's order) from now on."""
        self.witness, self._ordered = witness, None

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
            first = self.shown_by.setdefault(commitment, item.id) == item.id
            if len(self.reveals) < MAX_REPLACED:
                self.reveals.append((item.id, commitment))
                self.revealer.setdefault(item.id, (item.player, item.when))
            self._listing(item, commitment, first)
        elif SETTLED in item.result:  # a line listing guesses with no number shown
            self._listing(item, "", False)

    def _listing(self, item: journal.Event, commitment: str, first: bool) -> None:
        """Each guess `item` lists as settled, kept to hold to its guess line and to the
        reveals before it once the journal is read (`first`: the first reveal of its
        number; "": a line that shows no number)."""
        listed = item.result.get(SETTLED, [])  # a reveal of an older cwx lists none
        if (not isinstance(listed, list) or not all(
                isinstance(entry, dict) and isinstance(entry.get("id"), str)
                for entry in listed[:10_000])) and len(self.misformed) < MAX_REPLACED:
            self.misformed.append((item.line, item.id, item.command[:40]))
        for entry, copy in _entries(listed):
            if first:
                self.settled.setdefault(entry, item.id)
            if len(self.opened) < MAX_REPLACED:
                self.opened.append((entry, item.line, item.id, commitment))
                self.copies.append(copy[:len(COPIED)])
                self.verdicts.append((copy[len(COPIED)], copy[len(COPIED) + 1]))
                if item.command != REVEALING:
                    self.settlers.setdefault(item.id, item.command[:40])

    def settling(self, undone: set[str]) -> tuple[dict[str, str], frozenset[str]]:
        """Which reveal settles each guess (by id), and the guesses a reveal taken back
        had settled, which wait for the GM to reveal again. A number is revealed once: its
        first reveal settles the guesses it lists (each once); once it is shown, a reveal
        settles only those a reveal taken back (`undone`) had settled, and after a reveal
        that stands, none. A line that shows no number settles none."""
        listed: dict[str, list[str]] = {}  # a reveal -> the guesses it lists
        for guess, line, reveal, commitment in self.opened:
            if commitment and not self._before(guess, line):
                listed.setdefault(reveal, []).append(guess)
        settled: dict[str, str] = {}
        reopened: set[str] = set()
        state: dict[str, bool | None] = {}  # a commitment -> all may settle, reopened, none
        self.first = {}
        for reveal, commitment in self.counting_reveals():
            allowed = state.get(commitment, True)
            if allowed is None:
                continue  # a reveal of it stands: a number is revealed once
            took = [guess for guess in dict.fromkeys(listed.get(reveal, ()))
                    if (allowed or guess in reopened) and guess not in settled]
            if reveal in undone:
                reopened.update(took)
                state[commitment] = False
            else:
                settled.update((guess, reveal) for guess in took)
                reopened.difference_update(took)
                state[commitment] = None
                self.first[commitment] = reveal
        return settled, frozenset(reopened)

    def gm_revealed(self, reveal: str) -> bool:
        """Whether the reveal `reveal` is by a GM (Witness.by_gm), now or when its line
        arrived (Witness.then, asked once a reveal)."""
        player = self.revealer.get(reveal, (None, ""))[0]
        if self.witness.by_gm(player):
            return True
        if self.witness.then is None or player is None:
            return False
        if reveal not in self._then and len(self._then) >= ASKED_THEN:
            return False  # a hostile journal's many: judged by today's GMs, named
        if reveal not in self._then:
            self._then[reveal] = self.witness.then(reveal, player)
        return self._then[reveal]

    def _tied(self, one: str, other: str) -> bool:
        """Whether two reveals of one number were made on histories apart that git orders
        by nothing (their stamps and ids did)."""
        return one != other and one in self.apart and other in self.apart and \
            self._ranks.get(one, ())[:2] == self._ranks.get(other, ())[:2] and \
            self.revealed_of(one) == self.revealed_of(other)

    def revealed_of(self, reveal: str) -> str | None:
        """The commitment the reveal `reveal` shows."""
        return next((shown for by, shown in self.reveals if by == reveal), None)

    def tied(self) -> set[str]:
        """Each reveal made on a history apart from another reveal's of its number, that
        git orders by nothing: one of them is a copy, and anyone's undo takes either back
        (the GM says which)."""
        self.counting_reveals()
        return {one for one in self.apart if any(self._tied(one, other) for other in self.apart)}

    def _apart(self, reveal: str, first: str) -> str:
        """Where two reveals of a number were made on histories apart that git orders by
        nothing (their stamps and ids did), in words with the undo of the first: the GM
        says which is the copy ("": git orders them)."""
        if not self._tied(reveal, first):
            return ""
        return (", on a history apart from this one's (neither commit held the other, and "
                "git tells them apart by nothing: one of the two is a copy, not from the GM's "
                f"clone; if that is {first[:8]}, `cwx undo {first}` takes it back and this one "
                "counts)")

    def counting_reveals(self) -> list[tuple[str, str]]:
        """The reveals that may settle guesses (id, commitment), in the order they came: a
        GM's alone, and the reveals of one number in git's order where the witness gives
        it (then by stamp and id), never in the order a merge gave their lines."""
        if self._ordered is not None:
            return self._ordered
        kept = [(reveal, commitment) for reveal, commitment in self.reveals
                if self.gm_revealed(reveal)]
        order = self.witness.order
        per: dict[str, list[str]] = {}
        for reveal, commitment in kept:
            per.setdefault(commitment, []).append(reveal)
        ranks = self._ranks = {}
        for commitment, ids in per.items():
            if order is None or len(set(ids)) < 2:
                continue
            lists: dict[str, set[str]] = {reveal: set() for reveal in ids}
            for guess, _, reveal, shown in self.opened:
                if shown == commitment and reveal in lists:
                    lists[reveal].add(guess)
            on = [guess.id for guess in self.found.values() if guess.commitment == commitment]
            placed = order([(reveal, frozenset(lists[reveal])) for reveal in dict.fromkeys(ids)],
                           on)
            ranks.update((reveal, (*placed[reveal][:2], *self.revealer[reveal][1:], reveal))
                         for reveal in ids if reveal in placed)
            self.apart.update(reveal for reveal in ids if placed.get(reveal, (0, 0, 0))[2:] > (0,))
        if ranks:
            kept.sort(key=lambda item: ranks.get(item[0], ()))
        self._ordered = kept
        return kept

    def _before(self, guess: str, line: int) -> bool:
        """Whether a reveal at `line` lists `guess` before its guess line: no clone wrote
        the reveal having the guess (git keeps each clone's lines in their order), so it
        cannot have settled it."""
        found = self.found.get(guess)
        return found is not None and found.line > line

    def settled_on_another(self) -> list[tuple[int, str, Guess, str]]:
        """Each reveal (its line and id) that settles a guess made on another commitment
        than the one it shows: the number was swapped after the guess."""
        return [(line, reveal, self.found[guess], commitment)
                for guess, line, reveal, commitment in self.opened
                if commitment and guess in self.found and
                self.found[guess].commitment != commitment]

    def settled_in_vain(self, undone: set[str] | None = None) -> list[tuple[int, str, str, str]]:
        """Each reveal (its line and id) that settles a guess no guess line made, one it
        lists twice, one an earlier reveal settled, or one on a number an earlier reveal
        showed (a reveal line copied with a new id: `settling`), and any guess of a line
        that shows no number (a resolve listing guesses): why, in words. A reveal `undone`
        (by default: as the undos heard say) settles nothing."""
        first: dict[str, str] = {}  # a guess -> the reveal that settled it first
        listed: set[tuple[str, str]] = set()  # (reveal, guess) met
        said = []
        undone = self.turns.undone() if undone is None else undone
        settled = self.settling(undone)[0]
        for (guess, line, reveal, commitment), copy in zip(self.opened, self.copies,
                                                           strict=True):
            if reveal in undone:  # taken back: it settles nothing
                continue
            if (reveal, guess) in listed:
                said.append((line, reveal, guess, "it lists that guess again, and the rules "
                             "settle a guess once"))
                continue
            listed.add((reveal, guess))
            if not self.gm_revealed(reveal):
                said.append((line, reveal, guess, f"it is by {self.revealer[reveal][0]}, no "
                             f"GM of the campaign (gm = {list(self.witness.gms or ())}): a "
                             "reveal by another player settles nothing"))
            elif guess not in self.found:
                said.append((line, reveal, guess, "no guess line in the journal made it"))
            elif self._before(guess, line):
                said.append((line, reveal, guess, f"its guess line ({self.found[guess].line}) "
                             "comes after it in the journal: a reveal cannot settle a guess "
                             "not yet made"))
            elif not commitment:
                said.append((line, reveal, guess, "it shows no sealed number (no commitment "
                             "and nonce of one): only the reveal of the number a guess was "
                             "made on settles it"))
            elif (by := settled.get(guess, first.setdefault(guess, reveal))) != reveal:
                said.append((line, reveal, guess,
                             f"reveal {by[:8]} settled it already{self._apart(reveal, by)}"))
            elif settled.get(guess) != reveal:
                shown = self.first.get(commitment, self.shown_by[commitment])
                said.append((line, reveal, guess, f"reveal {shown[:8]} showed that number "
                             f"already{self._apart(reveal, shown)}: a number is revealed "
                             "once, and a second reveal settles nothing (but the guesses a "
                             "reveal taken back had settled)"))
            elif (otherwise := _copied_otherwise(self.found[guess], copy)) is not None:
                said.append((line, reveal, guess, otherwise))
        return said

    def counted_otherwise(self, undone: set[str] | None = None,
                          held: Callable[[list[Guess]], Mapping[str, set[int | None] | None]]
                          | None = None) -> list[tuple[int, str, Guess, str]]:
        """Each reveal (its line and id) that says a guess counts where the rules say it
        counts for nothing, or the other way, or for another reason, re-played from the
        guess lines (guesses.settle): why, in words. `held` gives the scores each guess's
        character had by it (scores_held); a reveal `undone` settles nothing."""
        undone = self.turns.undone() if undone is None else undone
        listed: dict[str, list[tuple[int, Guess, tuple[object, ...]]]] = {}
        for (entry, line, reveal, _), verdict in zip(self.opened, self.verdicts, strict=True):
            if reveal not in undone and entry in self.found:
                listed.setdefault(reveal, []).append((line, self.found[entry], verdict))
        asked = [made for entries in listed.values() for _, made, (counted, why) in entries
                 if counted is False and why == said_unheld(made)]
        scores = held(asked) if held is not None and asked else {}
        said: list[tuple[int, str, Guess, str]] = []
        for reveal, entries in listed.items():
            done: set[str] = set()  # the files whose guess counted, as the rules give
            for line, guess, (counted, why) in entries:
                gives = _verdict(guess, done, why, scores.get(guess.id, None)
                                 if guess.id in scores else _UNASKED)
                # The GM's word (the file gone or unreadable there), unless git disproves it.
                disproved = self.witness.disproves(reveal, guess, why) \
                    if counted is False and gives is not None and gives == why and \
                    gives not in (AGAIN, said_unheld(guess)) and \
                    self.witness.disproves is not None else None
                if (gives is None or disproved is not None) and guess.file is not None:
                    done.add(guess.file)
                if disproved is not None:
                    said.append((line, reveal, guess, f"says it counts for nothing "
                                 f"({str(why)[:80]!r}), but {disproved}, and the rules "
                                 "count it"))
                elif counted is False and gives is None:
                    said.append((line, reveal, guess, f"says it counts for nothing "
                                 f"({str(why)[:80]!r}), where the rules count it"))
                elif counted is not False and gives is not None:
                    said.append((line, reveal, guess,
                                 f"counts it, where the rules give nothing: {gives}"))
                elif counted is False and why != gives:
                    said.append((line, reveal, guess, f"says it counts for nothing "
                                 f"({str(why)[:80]!r}), where the rules say: {gives}"))
        return said

    def sealed_over_silently(self, board: Board, undone: set[str] | None = None,
                             ) -> list[tuple[int, str, str, list[Guess]]]:
        """Each seal (its line and id) made over an unrevealed commitment, by the player
        who sealed that one (or one whose name looks like theirs), that says nothing of it
        (no `replaces`), while guesses wait on it: their number is gone from the GM's
        clone, or the seal is no GM's, and they would wait for ever. With it, the
        commitment sealed over. A seal taken back (`undone`: as the undos say) is none."""
        undone = self.turns.undone() if undone is None else undone
        seals = [seal for seal in self.seals if seal[1] not in undone]
        waiting: dict[str, list[Guess]] = {}
        for guess in board.pending:
            if guess.commitment not in self.revealed:
                waiting.setdefault(guess.commitment, []).append(guess)
        found = []
        for commitment, guesses in waiting.items():
            first = next((seal for seal in seals if seal[2] == commitment), None)
            if first is None:
                continue
            # The sealer's next seal: another GM's clone keeps its own sealed number.
            after = next((seal for seal in seals if seal[0] > first[0] and
                          _alike(seal[4], first[4]) and seal[2] != commitment), None)
            if after is not None and after[3] != commitment:
                found.append((after[0], after[1], commitment, guesses))
        return sorted(found, key=lambda item: item[0])

    def board(self) -> Board:
        undone = self.turns.undone()
        # A reveal taken back settles nothing: the guesses it listed wait to be settled
        # again by the GM's next reveal (the number stays shown: no other guess does).
        settled, reopened = self.settling(undone)
        if len(self.opened) >= MAX_REPLACED:  # past those kept, as their first reveal says
            for guess, reveal in self.settled.items():
                if guess not in reopened:
                    settled.setdefault(guess, reveal)
        left = sorted((guess for guess in self.found.values()
                       if guess.id not in settled and guess.id not in undone),
                      key=lambda guess: (guess.when, guess.id))
        # A guess on a number sealed over before its reveal waits for nothing: void.
        # A seal taken back voids nothing: its guesses wait on their number again.
        replaced = {commitment: seal for commitment, seal in self.replaced.items()
                    if seal not in undone}
        void = tuple(guess for guess in left if guess.commitment in replaced and
                     guess.commitment not in self.revealed)
        waiting = tuple(guess for guess in left if guess not in void)
        return Board(waiting, settled, self.revealed, void, replaced, self.sealed_over,
                     reopened)


def _alike(one: str | None, other: str | None) -> bool:
    """Whether two names are one player's, or read alike (a Cyrillic М, a zero-width
    space: base/lookalike.py), so a seal under a look-alike of the GM's name is held to
    what a seal of the GM's is."""
    if journal.same_player(one, other):
        return True
    from cwx.base import lookalike

    return one is not None and other is not None and \
        lookalike.skeleton(one) == lookalike.skeleton(other)


AGAIN = "its character had guessed on this number"  # a second guess of one character
_UNASKED = object()  # scores held not asked: the reveal says none of them


def said_gone(guess: Guess) -> str:
    """Why a guess counts for nothing where its file is gone from the GM's clone."""
    return f"{guess.file} is gone"


def said_unheld(guess: Guess) -> str:
    """Why a guess counts for nothing where its score is none its character had by it."""
    return (f"its score ({guess.score}) is no {guess.trait or 'untrained'} score "
            f"{guess.who or guess.file} had by the guess")


def _verdict(guess: Guess, done: set[str], why: object, held: object) -> str | None:
    """Why the rules give a settled guess nothing (None: it counts), re-played from its
    guess line and the reveal's earlier guesses (`done`: their files that counted). What
    the GM's clone alone knows is its word: the file gone or unreadable there, or the
    score its sheet held where the journal never made or changed it (`held` None)."""
    if guess.file is None:
        return None  # a score without a character: the outcome alone
    if guess.file in done:
        return AGAIN
    if isinstance(why, str) and (why == said_gone(guess) or why.startswith(f"{guess.file}: ")):
        return why
    if held is None or (isinstance(held, set) and guess.score not in held):
        return said_unheld(guess)
    return None


COPIED = ("guess", "trait", "score", "file")  # what a reveal copies of a guess line
VERDICT = ("counted", "why")  # what a reveal says of whether a guess counts


def _entries(listed: object) -> Iterable[tuple[str, tuple[object, ...]]]:
    """Each guess a reveal settles: its id, and what the reveal copied of it (COPIED)."""
    if isinstance(listed, list):
        for entry in listed[:10_000]:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                yield entry["id"], tuple(entry.get(name) for name in (*COPIED, *VERDICT))


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


def scores_held(journal_path: str, guesses: Sequence[Guess],
                ) -> dict[str, set[int | None] | None]:
    """For each guess (by id), every score of the guessed trait its character had by the
    guess, by the journal: made with, or changed from or to, in an event stamped before
    it. A score of any of them is honest, whatever the clones saw of each other (the GM's
    raise a player had not pulled); one it never had is not. None: the journal never made
    or changed the file (one made by hand and adopted: its own value stands). The journal
    is read once for them all."""
    from cwx.base.errors import CwxError
    from cwx.journal import ledger
    from cwx.toml import tomlread

    files = {guess.file for guess in guesses if guess.file is not None}
    steps: list[tuple[tuple[str, str], journal.Edit]] = []  # the guessed files' changes
    ids: set[str] = set()  # the first line of an id is its event (a copy, a twin: none)
    for event in journal.events_in(journal_path):
        if event.id not in ids:
            ids.add(event.id)
            steps += [((event.when, event.id), step) for step in event.changes
                      if step.file in files]
    found: dict[str, set[int | None] | None] = {}
    for guess in guesses:
        if guess.file is None:
            found[guess.id] = None
            continue
        key = trait_key(guess.trait) if guess.trait else None
        held: set[int | None] = set()
        known = False
        for order, step in steps:
            if order >= (guess.when, guess.id) or step.file != guess.file:
                continue
            known = True
            if step.key is None and step.text is not None:
                try:
                    values = ledger.values_of(tomlread.loads(step.text))
                except CwxError:
                    continue
                held.add(values.get(key) if key else None)
            elif key is not None and step.key == key:
                held.update(v for v in (step.before, step.after)
                            if v is None or isinstance(v, int))
        found[guess.id] = ({None} if known else None) if key is None else \
            (held if known and held else None)
    return found



def counted(path: str | None, seals: bool = False, witness: Witness | None = None) -> Counting:
    """The journal's guesses, seals over others, reveals and undos, heard once (only the
    lines that can hold one are parsed); with `seals`, every seal too; held to `witness`."""
    counting = Counting(witness)
    if path is not None:
        ids: set[str] = set()  # the first line of an id is its event (a copy, a twin: none)
        wanted = (*GUESSED, b'"' + SEALING.encode() + b'"') if seals else GUESSED
        for item in journal.holding(path, wanted):
            if item.id not in ids:
                ids.add(item.id)
                counting.note(item)
    return counting


def board(path: str | None, witness: Witness | None = None) -> Board:
    """The journal's guesses, read once (`counted`)."""
    return counted(path, witness=witness).board()


def settlements(path: str, witness: Witness | None = None) -> dict[str, Mapping[str, Any]]:
    """Each settled guess's entry in the reveal that settled it (its outcome), by id: as
    the board says which (Counting.settling: a second reveal of a number settles none)."""
    settled = board(path, witness).settled
    found: dict[str, Mapping[str, Any]] = {}
    for item in journal.holding(path, (b'"' + SETTLED.encode() + b'"',)):
        listed = item.result.get(SETTLED)
        if isinstance(listed, list):
            for entry in listed[:10_000]:
                if isinstance(entry, dict) and isinstance(entry.get("id"), str) and \
                        settled.get(entry["id"]) == item.id:
                    found.setdefault(entry["id"], entry)
    return found


def latest_seal(path: str, but: Collection[str] = ()) -> journal.Event | None:
    """The journal's latest seal but those whose ids are in `but` (read from its end)."""
    return recent.latest(path, SEALING.encode(),
                         lambda event: event.command == SEALING and event.id not in but)


def undone_naming(path: str, wanted: str) -> set[str]:
    """The events the journal's undos take back, read only where an undo names the event
    `wanted` (a seal is seldom taken back: most reads cost a search for its id)."""
    if not any(line.undoes == wanted for line in journal.holding(path, (wanted.encode(),))):
        return set()
    counting = counted(path)
    return counting.turns.undone()


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

