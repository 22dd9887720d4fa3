"""The GM's sealed number, for remote play: a hash commitment a player can check later.

The commitment is SHA-256 over the number and a 256-bit random nonce. With only
twelve possible numbers an unsalted hash would be guessed at once; the nonce
makes the commitment reveal nothing, and binding it to the number means the GM
cannot change their mind after the guess.

A seal has two states, sealed and revealed, and goes one way: a number still sealed is
replaced only on purpose (--force), and a revealed one is never resolved against
again. The file's own flag could be edited back, so the journal is the witness: a
reveal journaled for this commitment outranks the file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from cwx.base.errors import BadFile, BadValue, RuleForbids
from cwx.base.record import Record
from cwx.campaign.gms import is_gm as is_gm  # re-exported: GM moves ask seal.is_gm
from cwx.journal import lines as journal
from cwx.journal import sealed as journaled
from cwx.rules import clockworx

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

    from cwx.campaign.results import Proof, RevealSeen

FILE = ".cwx-sealed.json"  # outside git, in the campaign's folder


def path_for(folder: str) -> str:
    """Where the sealed number kept for `folder` lives: in git, in the clone's own git
    folder, which no commit or pull reaches; outside git, in the folder itself."""
    import os

    from cwx.git import repo

    clone = repo.of(folder)
    if clone is None:
        return os.path.normpath(os.path.join(folder, FILE))
    place = os.path.relpath(os.path.realpath(folder), clone.top)
    return os.path.join(repo.git_folder(clone), "cwx", "" if place == "." else place,
                        "sealed.json")


def not_left_behind(path: str, old: str) -> None:
    """A number sealed by an older cwx, kept in the campaign's folder, is moved by the GM,
    never lost: until then nothing is sealed in its place. One git tracks came from
    another clone, and is no number of this GM's."""
    import os
    import shlex

    from cwx.git import repo

    if not os.path.lexists(path) and os.path.lexists(old) and not repo.tracks(old):
        raise BadFile(f"this sealed number is kept where git could overwrite it; move it "
                      f"into the clone's git folder, where cwx keeps it now: "
                      f"mv {shlex.quote(old)} {shlex.quote(path)}",
                      path=old)


NONCE_BYTES = 32  # 256 bits
_HEX64 = r"^[0-9a-f]{64}$"


class Seal(Record):
    target: int
    nonce: str  # hex
    commitment: str  # hex SHA-256
    revealed: bool = False

    def proof(self) -> Proof:
        """What a player needs to check the number against the commitment."""
        return {"target": self.target, "nonce": self.nonce, "commitment": self.commitment,
                "verified": True}


# How a number is bound to its commitment: the journal's model checks each reveal by it.
commitment = journaled.commitment
well_formed = journaled.well_formed
verified = journaled.verified
reveals = journaled.reveals


def new(target: int) -> Seal:
    """Seal `target` under a fresh random nonce."""
    import secrets

    clockworx.check_position(target, "the sealed number")
    nonce = secrets.token_hex(NONCE_BYTES)
    return Seal(target, nonce, commitment(target, nonce))


def encode(sealed: Seal) -> str:
    return json.dumps({"target": sealed.target, "nonce": sealed.nonce,
                       "commitment": sealed.commitment, "revealed": sealed.revealed},
                      indent=2) + "\n"


def decode(raw: bytes | None, path: str) -> Seal:
    """A sealed file, checked: a missing file, or one altered since it was sealed, is an error."""
    if raw is None:
        raise BadFile("no sealed number here; the GM seals one with cwx clock pick --seal",
                      path=path)
    try:
        data = journal.decoded(raw)
        sealed = Seal(data["target"], data["nonce"], data["commitment"], data["revealed"])
        intact = isinstance(sealed.revealed, bool) and isinstance(sealed.target, int) and \
            verified(sealed.commitment, sealed.target, sealed.nonce)
    except (ValueError, KeyError, TypeError, RecursionError, AttributeError):
        raise BadFile("is not a sealed number cwx wrote; seal a new one with "
                      "cwx clock pick --seal --force", path=path) from None
    except BadValue:
        intact = False
    if not intact:
        raise BadFile("has been altered: its number does not match its commitment",
                      path=path)
    return sealed


def replacing(current: Seal, *, path: str) -> None:
    """A number still sealed is replaced only on purpose (--force)."""
    if not current.revealed:
        raise RuleForbids("a sealed number is waiting to be revealed (cwx clock reveal); "
                          "pass --force to seal a new one instead", path=path)


SEALING = journaled.SEALING  # the journal's event that publishes a commitment
OPENS = "seal"  # the key of a reveal's result naming the seal (its id) it opens
MAX_HEARD = 100_000  # seals and reveals a reader keeps: a table makes a few hundred


def by_a_gm(camp: Any, does: str) -> None:
    """A GM's move (a seal, a reveal, dice added to the campaign): refused for a player
    who is none of the GMs in force (gms.py: campaign.toml's gm as far as git proves a GM
    changed it); `does` says the move ("seals the number")."""
    from cwx.campaign import gms

    in_force, written = gms.in_force(camp)
    from cwx.campaign import players

    player = players.current(camp.root) if camp.root is not None else None
    if camp.root is not None and not is_gm(player, in_force):
        refuse(camp.root, f"{player} is no GM of this campaign ({gms.told(in_force, written)})"
                          f": only a GM {does}", player, in_force, written)


def refuse(root: str, said: str, player: str | None, in_force: tuple[str, ...] | None,
           written: tuple[str, ...] | None) -> None:
    """The refusal of a GM's move by `player`, with what makes it a GM's: where only a
    change no GM made names the player, a GM's commit of campaign.toml."""
    import os

    from cwx.base.places import SETTINGS

    if is_gm(player, written):
        how = ("a GM writes the GMs in force back into gm and commits, then makes the change "
               "in a commit of their own (a commit counts what it changes in gm, never the "
               "list it carries; `cwx check` names the change till then), or play as a GM in "
               "force (CWX_PLAYER=NAME, or git's user.name)")
    else:
        how = "play as one (CWX_PLAYER=NAME, or git's user.name), or the table adds you to gm"
    raise RuleForbids(f"{said}. {how[0].upper()}{how[1:]}", path=os.path.join(root, SETTINGS))


def published(journal_path: str | None) -> str | None:
    """The commitment the journal published last: its latest seal's, or None. A seal that
    leapt more than a day ahead of this clock and of the journal before it is a line no
    GM's clock wrote, set aside; one the journal's clock stamped after such a line (the
    GM sealed after pulling it) is the GM's. A seal taken back (check names one, forged
    over a waiting guess) published nothing."""
    if journal_path is None:
        return None
    import time

    from cwx.journal import clock

    now, passed = time.time(), set[str]()
    undone: set[str] | None = None  # read once, where a seal may be taken back
    while True:
        event = journaled.latest_seal(journal_path, passed)
        if event is None or len(passed) >= 16:
            break
        if not clock.leapt(journal_path, event, clock.DAY, now):
            undone = journaled.undone_naming(journal_path, event.id) if undone is None \
                else undone
            if event.id not in undone:
                break
        passed.add(event.id)
    commitment = event.result.get("commitment") if event else None
    return commitment if isinstance(commitment, str) else None


def was_published(journal_path: str | None, commitment_hex: str) -> bool:
    """Whether the journal published this commitment (a seal of it), whenever."""
    return published_by(journal_path, commitment_hex) is not None


def published_by(journal_path: str | None, commitment_hex: str) -> str | None:
    """The id of the latest seal in the journal that published this commitment, or None."""
    if journal_path is None:
        return None
    return journaled.published_by(journal_path, commitment_hex)


def short(commitment_hex: str) -> str:
    """A commitment as people compare it: its first 12 hexadecimal digits."""
    return commitment_hex[:12]


def as_published(sealed: Seal, journal_path: str | None, path: str) -> Seal:
    """The seal, if the journal published its commitment: a file swapped for another
    number (with a nonce and commitment of its own) is refused, whatever it says."""
    if was_published(journal_path, sealed.commitment):
        return sealed
    latest = published(journal_path)
    if latest is None:
        raise RuleForbids(f"the journal never published this seal's commitment "
                          f"({short(sealed.commitment)}), so no player can hold the GM to it; "
                          "the GM seals anew with cwx clock pick --seal --force", path=path)
    raise RuleForbids(f"this file's commitment ({short(sealed.commitment)}) is not one the "
                      f"journal published (the latest is {short(latest)}): the sealed file "
                      "was replaced, and nothing is revealed. The GM seals anew with cwx "
                      "clock pick --seal --force", path=path)


class Shown(Record):
    """A reveal the journal holds: the number and nonce it showed for a commitment."""

    line: int
    when: str
    commitment: str
    target: object  # as the line says (a hand may have written anything)
    nonce: object
    matches: bool  # the number and nonce are the ones the commitment was made from
    published: bool  # a seal in the journal published the commitment

    @property
    def verified(self) -> bool:
        return self.matches and self.published

    def as_json(self) -> RevealSeen:
        return {"commitment": self.commitment, "target": self.target, "nonce": self.nonce,
                "at": self.when, "line": self.line, "published": self.published,
                "verified": self.verified}


class Reveals:
    """A journal's reveals and the seals they answer, heard an event at a time, so that
    a reader already passing over the journal (check's ledger) checks them on its way."""

    def __init__(self, gms: tuple[str, ...] | None = None) -> None:
        self.sealed: set[str] = set()
        self.seals: dict[str, str] = {}  # a seal's id -> the commitment it published
        self.found: list[tuple[journal.Event, str]] = []
        self.gms = gms
        self.not_gm: list[journal.Event] = []  # seals and reveals by a player no GM
        self.nameless: list[journal.Event] = []  # seals and reveals naming no player
        self.played: int | None = None  # the first line that names a player

    def note(self, item: journal.Event) -> None:
        if item.player is not None and (self.played is None or item.line < self.played):
            self.played = item.line
        commitment = item.result.get("commitment")
        if not isinstance(commitment, str):
            return
        if item.command == SEALING:
            self.sealed.add(commitment)
            if len(self.seals) < MAX_HEARD:
                self.seals.setdefault(item.id, commitment)
        elif "nonce" in item.result:
            self.found.append((item, commitment))
        else:
            return
        if item.player is not None and not is_gm(item.player, self.gms) and \
                len(self.not_gm) < MAX_HEARD:
            self.not_gm.append(item._replace(result={}, changes=()))
        elif item.player is None and self.gms is not None and len(self.nameless) < MAX_HEARD:
            self.nameless.append(item._replace(result={}, changes=()))

    def unnamed(self) -> list[journal.Event]:
        """Each seal or reveal naming no player after a line that names one, where the
        campaign names GMs: no line from before players (an older cwx named none), so
        nobody's, and no GM's."""
        return [item for item in self.nameless
                if self.played is not None and item.line > self.played]

    def shown(self) -> list[Shown]:
        """Every reveal heard, in its order, checked from the journal alone: its number
        and nonce against its commitment, and the commitment against the seals."""
        return [Shown(event.line, event.when, commitment, event.result.get("target"),
                      event.result.get("nonce"), reveals(event.result, commitment),
                      self._opens(event.result.get(OPENS), commitment))
                for event, commitment in self.found]

    def _opens(self, named: object, commitment: str) -> bool:
        """Whether a reveal of `commitment` opens a seal the journal published: the one it
        names (`seal`), or, for a reveal of an older cwx that names none, any of it."""
        if named is None:
            return commitment in self.sealed
        return isinstance(named, str) and self.seals.get(named) == commitment

    def unpublished(self) -> list[tuple[int, str]]:
        """Each reveal (line, commitment) whose commitment no seal published, or whose
        number and nonce are not the commitment's: a number shown against a commitment
        the players never had, or one it never held."""
        return [(item.line, item.commitment) for item in self.shown() if not item.verified]


def shown(journal_path: str) -> list[Shown]:
    """Every reveal in the journal, in its order (Reveals.shown), its lines alone read."""
    heard = Reveals()
    for item in journaled.with_commitments(journal_path):
        heard.note(item)
    return heard.shown()


def here(path: str, journal_path: str | None) -> bool:
    """Whether this clone holds the GM's sealed number for the latest seal: a file at
    `path`, unless it is an old seal, revealed, that a later one replaced (a player who
    was GM once). Without it, a guess waits for the GM's reveal (guesses.py)."""
    import os

    if not os.path.lexists(path):
        return False
    from cwx.toml.tomlread import read_bytes

    try:
        sealed = decode(read_bytes(path, through_links=False), path)
    except BadFile:
        return True  # a file that is no seal is said so where it is resolved against
    return not sealed.revealed or sealed.commitment == published(journal_path)


def kept_private(path: str) -> None:
    """cwx keeps a sealed number readable by the GM alone (0600) and out of git: one others
    can read, another user's, or one git tracks was not sealed by cwx here (a copy, or a
    file another clone pushed), and someone else may know its number."""
    import os

    from cwx.git import repo

    info = os.stat(path)
    if info.st_mode & 0o077 or info.st_uid != os.getuid():
        said = f"can be read by others (mode {info.st_mode & 0o777:o}) or is another user's"
    elif repo.tracks(path):
        said = "is in git, where every clone has it (git rm --cached it first)"
    else:
        return
    raise RuleForbids(f"{said}, so it is no number cwx sealed here: someone else may know it. "
                      "The GM seals a new one with cwx clock pick --seal --force", path=path)


def to_reveal(raw: bytes | None, path: str, journal_path: str | None) -> Seal:
    """The sealed number in a file cwx may reveal: intact, private, and the one the
    journal published."""
    sealed = decode(raw, path)
    kept_private(path)
    return as_published(sealed, journal_path, path)


def to_resolve(sealed: Seal, witnesses: Iterable[str], path: str) -> Seal:
    """The seal a guess is resolved against: never one already revealed, whatever its file
    says now (the journals at `witnesses` are the witness)."""
    if sealed.revealed:
        raise RuleForbids("the sealed number was already revealed; the GM seals a new one "
                          "with cwx clock pick --seal", path=path)
    if any(journaled.revealed(witness, sealed.commitment) for witness in witnesses):
        raise RuleForbids("the journal shows this sealed number was revealed, though its "
                          "file was edited to say it was not; the GM seals a new one with "
                          "cwx clock pick --seal --force", path=path)
    return sealed
