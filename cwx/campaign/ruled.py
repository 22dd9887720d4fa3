"""What `cwx check` names of a campaign's journal as the rules do not give, heard on the
one pass that folds its ledger (docs/rules.md, "What check proves"): each change no re-play
gives, a reveal that settles a guess otherwise than its guess line, a game's end or a
turn of a draw it cannot settle or turn. The reconcile after a merge asks it too: no file
is brought to a ledger that counts such a line."""

from __future__ import annotations

import os
from collections.abc import Callable

from cwx.base.errors import CwxError
from cwx.base.printable import printable
from cwx.campaign import guesses
from cwx.journal import ends, history, ledger, rederive, turned
from cwx.journal import lines as journal
from cwx.journal.rederive import SHOWN

# Which of some events undone, of a kind undo never takes back, the rules give (no finding
# names them, were they standing): an undo of one is none the rules give (accounts.given).
Given = Callable[[list[journal.Event]], set[str]]


class Ruled:
    """Check's re-play of one campaign's journal, heard as its ledger is folded (the journal
    read once): each event the rules do not give, named once the ledger is read."""

    def __init__(self, given: Given | None = None) -> None:
        self.given = given  # which undone events of a kind undo never takes back it gives
        self.counting = guesses.Counting()
        self.replaying, self.ended, self.turning = rederive.Replaying(), ends.Ends(), \
            turned.Turned()

    def note(self, event: journal.Event) -> None:
        for hear in (self.counting.note, self.replaying.note, self.ended.note,
                     self.turning.note):
            hear(event)

    def found(self, path: str, folded: ledger.Ledger) -> list[CwxError]:
        """Each change, settlement or turn of the journal at `path` the rules do not give."""
        return _forged(path, self.replaying, self.counting, folded, self.given) + \
            _unseen(path, self.replaying, folded) + _swapped(path, self.counting) + \
            _in_vain(path, self.counting) + \
            _counted_otherwise(path, self.counting) + _ended_in_vain(path, self.ended) + \
            _turned_in_vain(path, self.turning, self.counting)


def _forged(path: str, replaying: rederive.Replaying, counting: guesses.Counting,
            folded: ledger.Ledger, given: Given | None) -> list[CwxError]:
    """Each change of the journal the rules do not give (docs/rules.md, "What check
    proves"), an event taken back by an undo aside."""
    shown, more = replaying.forged(counting.turns.undone(),
                                   lambda wanted: history.with_ids(path, wanted), folded,
                                   given)
    forged = {item.event for item in shown}
    named = rederive.unique(forged, history.alike(path, forged)) if shown else {}
    said = [CwxError(rederive.told(item, named.get(item.event)), path=path, line=item.line)
            for item in shown]
    if more:
        said.append(CwxError(f"and {more} more events whose changes the rules do not give",
                             path=path))
    return said


def _unseen(path: str, replaying: rederive.Replaying,
            folded: ledger.Ledger) -> list[CwxError]:
    """Each making anew over what its character earned that says it never saw it, where
    git shows its clone had it: the commit that brought its line held an earning line
    before it. Asked only of a clash the file hides (it holds the making's values as if
    nothing clashed, no adopt or later making having settled it): a clone that made it
    anew while another played, its commit then rebased onto the other's, holds both
    sides' changes (the merge driver's sums) until the table settles them."""
    from cwx.git import unsettled

    said = []
    root = os.path.dirname(os.path.abspath(path))
    for item, earned in replaying.unseen[:SHOWN]:
        if item.file is None or folded.clash(item.file) is None or not earned or \
                not _hidden(root, folded, item.file):
            continue
        held = unsettled.held_before(root, dict.fromkeys(earned, item.event))
        proof = next(((id_, held[id_]) for id_ in earned if id_ in held), None)
        if proof is not None:
            said.append(CwxError(
                f"{item.command} {item.event[:8]} {item.why}, but commit {proof[1].commit[:12]} "
                f"by {printable(proof[1].author)} that brought it held {proof[0][:8]}, which "
                "earned it, before it: `char new --force` refuses a making anew over what a "
                f"character earned; `cwx undo {item.event}` takes it back", path=path,
                line=item.line))
    return said


def _hidden(root: str, folded: ledger.Ledger, file: str) -> bool:
    """Whether `file` holds what the ledger does, though the ledger says it clashes."""
    from cwx.toml import tomlread

    try:
        data = tomlread.parse(tomlread.read_bytes(os.path.join(root, file)), file)
    except CwxError:
        return False
    return not folded.differences(file, ledger.values_of(data))


def _swapped(path: str, counting: guesses.Counting) -> list[CwxError]:
    """Each reveal that settles a guess made on another number than the one it shows."""
    return [CwxError(guesses.said_swapped(reveal, guess, commitment), path=path, line=line)
            for line, reveal, guess, commitment in counting.settled_on_another()]


def _in_vain(path: str, counting: guesses.Counting) -> list[CwxError]:
    """Each reveal that settles a guess never made, or one settled already, or twice, or on
    a number shown already, and each line settling a guess with no number shown:
    experience the rules never gave."""
    return [CwxError(guesses.said_in_vain(counting, reveal, guess, why), path=path, line=line)
            for line, reveal, guess, why in counting.settled_in_vain()]


def _counted_otherwise(path: str, counting: guesses.Counting) -> list[CwxError]:
    """Each reveal that says a guess counts where the rules, re-played from its guess line,
    say it counts for nothing, or the other way (a guess the GM had, denied)."""
    return [CwxError(guesses.said_counted_otherwise(reveal, guess, why), path=path, line=line)
            for line, reveal, guess, why in counting.counted_otherwise(
                held=lambda asked: guesses.scores_held(path, asked))]


def _ended_in_vain(path: str, ended: ends.Ends) -> list[CwxError]:
    """Each game's end that names a draw it cannot settle: a draw no line of its character
    made, or one played after it."""
    return [CwxError(f"game end {end.id[:8]} settles draw {draw[:8]}, but {why}: an end "
                     "settles the draws played before it in its own game (a line written "
                     f"by hand?); `cwx undo {end.id}` takes it back", path=path, line=end.line)
            for end, draw, why in ended.settled_in_vain(lambda wanted: history.with_ids(path, wanted))]


def _turned_in_vain(path: str, turning: turned.Turned,
                    counting: guesses.Counting) -> list[CwxError]:
    """Each luck spend or curse that turns a draw the rules do not let it turn (W5, W6)."""
    return [CwxError(f"{turn.command} {turn.id[:8]} turns draw {turn.draw[:8]}, but {why}: "
                     "a spend or curse turns its character's last action (a line written by "
                     f"hand?); `cwx undo {turn.id}` takes it back", path=path, line=turn.line)
            for turn, why in turning.in_vain(counting.turns,
                                             lambda wanted: history.with_ids(path, wanted))]
