"""What the campaign's operations give scripts (--json), as types: the code that builds a
result is annotated with its type here, and `make schemas` writes docs/json/ from them
(the systems' own are in systems/results.py, the journal's in journal/results.py).

Imported for type checking only by the code that builds them (a TypedDict costs a
command start-up time), for real by scripts/schemas.py and the tests. What the journal
says is any clone's word, and typed so (journal/results.py)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from cwx import systems
from cwx.base.shapes import Shape
from cwx.journal.results import Id, Stamp
from cwx.rules import colorwheel
from cwx.systems.results import (
    Commitment,
    Count,
    Luck,
    Outcome,
    Position,
    Score,
)

Chance = Annotated[float, Shape(minimum=0, maximum=1)]
KINDS = ["character", *(kind.NAME for kind in systems.kinds() if not kind.CHARACTER)]
Kind = Annotated[str, Shape(enum=KINDS, description="A kind of campaign file.")]
Rules = Annotated[str, Shape(enum=[kind.TITLE for kind in systems.kinds() if kind.CHARACTER],
                             description="A system, as people read it.")]
Commit = Annotated[str, Shape(pattern="^[0-9a-f]{4,64}$", description="A commit's short id.")]
# The seal file's (the GM's machine's word): 64 hexadecimal digits, as cwx checks them.
Hex64 = Annotated[str, Shape(pattern=r"^\s*[0-9a-fA-F]{64}\s*$")]
# A commitment a seal in the journal published: a clone's word (cwx writes 64 digits).
Published = Annotated[str, Shape(description="A commitment the journal published.")]
DIE = "|".join(colorwheel.DICE)  # a die's colour, in a pattern


class DryRun(TypedDict):
    """With --dry-run, dry_run: true (nothing was written); else no such key."""

    dry_run: NotRequired[Literal[True]]


class Problem(TypedDict):
    """A finding: the file, line and key it is at (each may be null), and what is wrong."""

    file: str | None
    line: Annotated[int, Shape(minimum=1)] | None
    key: str | None
    message: str


# ---------------------------------------------------------------- the ledger's corrections

Correction = TypedDict("Correction", {
    "file": str,
    "key": str | None,  # None: a whole file
    "from": Any,
    "to": Any,
})
Correction.__doc__ = "One key of a file, from one value to another (key null: the whole file)."


class Adopted(DryRun):
    """The keys adopted from the files into the ledger, and the campaign's supply after."""

    adopted: list[Correction]
    supply: Luck


class Reconciled(DryRun):
    """The keys brought back to the ledger's values."""

    corrected: list[Correction]


class EventNamed(TypedDict):
    """An event, as the undo names it."""

    id: Id
    command: str
    at: Stamp
    who: str | None
    player: str | None


class Undid(TypedDict):
    """An undo: the journal's result (undid: the event it takes back; change: the change
    of the game undone or redone by it; redo: which)."""

    undid: EventNamed
    change: EventNamed
    redo: bool


class Undone(Undid, DryRun):
    """An undo, and what it sets back: in the sheets (`restores`), and in the journal
    alone where a sheet never took the change (`ledger_only`: the ledger's value to the
    sheet's, which stays); the turns or game ends it had pre-empted, which count again
    (`counts_again`), and each sheet key brought to what they give (`follows`)."""

    restores: list[Correction]
    ledger_only: list[Correction]
    counts_again: list[EventNamed]
    follows: list[Correction]


class Retirement(DryRun):
    """A file retired: what it was, the dice it held, the bag whose reserve took them
    (null: none), the campaign's supply after, and whether the file is gone."""

    retired: str
    kind: Kind
    dice: Luck
    bag: str | None
    supply: Luck
    removed: bool


# ---------------------------------------------------------------- a campaign, a clone


class GitSetup(TypedDict):
    """The clone prepared: the hooks written and those kept (not cwx's), the merge driver."""

    campaign: str
    written: list[str]
    kept: list[str]
    driver: Literal["merge.cwx"]


class Started(TypedDict):
    """A new campaign's folder and the files made in it (or kept, already there)."""

    folder: str
    created: list[str]
    kept: list[str]


class Initialised(Started, DryRun):
    """A new campaign, and its clone's git setup (null outside git)."""

    git: GitSetup | None


class SyncReport(TypedDict):
    """A sync: the commit made, pulled and pushed (null: none), and what check found."""

    committed: Commit | None
    message: str | None
    pulled: Count
    pushed: str | None
    ok: bool
    problems: list[Problem]


class SyncSteps(SyncReport):
    """A sync, and each step it took, as a line."""

    steps: list[str]


class Checked(TypedDict):
    """cwx check: exit 0 when ok, 1 with problems (each one here), 2 when it cannot run, or
    when a problem here is a file it may not read or a folder it may not list."""

    ok: bool
    checked: Count
    campaign: str | None
    valid: list[Valid]
    skipped: list[str]
    problems: list[Problem]
    supply: Luck | None
    pending: list[Waiting]
    ahead: Annotated[list[Ahead], Shape(
        description="Journal lines whose stamp leapt more than ten minutes ahead of this "
                    "clone's clock and of every line before them: information, not a "
                    "finding (the clock of the clone that made them may be wrong).")]
    keys: Annotated[list[Problem], Shape(
        description="Where campaign.toml lists players' keys: each change of the keys or "
                    "GMs in git's history signed by neither the key before it nor a GM's, "
                    "which does not count (the keys stay as they were). Information, not a "
                    "finding; --signed names each as a problem instead. Where it lists no "
                    "keys: each change of the GMs (gm) no GM in force before it made (its "
                    "commit's author), which does not count either; --signed leaves it here.")]
    signed: Annotated[Signed | None, Shape(
        description="With --signed: the journal's lines, and how many did not arrive in a "
                    "commit signed by the key campaign.toml had in force then for the player "
                    "they name (each is a problem, as is each change of the keys that does "
                    "not count). Null without --signed.")]


class Signed(TypedDict):
    """What `check --signed` proved: the journal's lines, and those not signed."""

    lines: Count
    unsigned: Count


class Ahead(TypedDict):
    """A journal line stamped ahead of this clone's clock: where, and its stamp."""

    file: str
    line: Annotated[int, Shape(minimum=1)]
    at: Stamp


class Valid(TypedDict):
    """A file found valid, and its kind."""

    file: str
    kind: Annotated[str, Shape(enum=[*KINDS, "journal", "settings"])]




# ---------------------------------------------------------------- the sealed number


class Picked(TypedDict):
    """The GM's number, picked in the open: no commitment."""

    target: Position
    commitment: None


class Sealed(TypedDict):
    """The GM's number, sealed: it stays secret (null), the commitment is shared."""

    target: None
    commitment: Commitment


class Proof(TypedDict):
    """What a player needs to check the number against the commitment."""

    target: Position
    nonce: Hex64
    commitment: Hex64
    verified: Literal[True]


class Pending(TypedDict):
    """A guess on a sealed number, waiting for the GM's reveal (no number, no outcome)."""

    pending: Literal[True]
    commitment: Published
    guess: Position
    trait: str | None
    score: Score | None


class Waiting(TypedDict):
    """A sealed guess waiting for the GM's reveal, as the journal says it."""

    id: Id
    at: Stamp
    who: str | None
    file: str | None
    player: str | None
    commitment: Annotated[Published, Shape(minLength=64, maxLength=64)]
    guess: Position
    trait: str | None
    score: Score | None


class Counted(TypedDict):
    """A settled guess's experience: the character's after it (xp_total), or why it
    counted for nothing (counted: false, why), or neither (a score without a character)."""

    counted: NotRequired[Literal[False]]
    why: NotRequired[str]
    xp_total: NotRequired[Count]


class Whose(TypedDict):
    """An event's id, and whose it is: the character, its file, the player."""

    id: Id
    who: str | None
    file: str | None
    player: str | None


class SettledGuess(Whose, Outcome, Counted):
    """A guess settled by the reveal: whose, its outcome, and the experience it brought."""


class Listed(TypedDict):
    """The guesses a reveal settled (none: no key)."""

    guesses: NotRequired[Annotated[list[SettledGuess], Shape(minItems=1)]]


class Revealed(Proof, Listed):
    """The sealed number revealed, with its proof, and the guesses it settled (none: no key)."""


class Resolving(Listed):
    """What a resolve adds to the outcome: against the sealed number, its proof (nonce,
    commitment, verified) and the guesses the reveal settled; with --char, xp_total."""

    nonce: NotRequired[Hex64]
    commitment: NotRequired[Hex64]
    verified: NotRequired[Literal[True]]
    xp_total: NotRequired[Count]


class Resolved(Outcome, Resolving):
    """A resolved guess; xp_total with --char; against the sealed number, its proof
    (nonce, commitment, verified) and the guesses the reveal settled."""


class Verified(TypedDict):
    """A number checked against the commitment given with it."""

    target: Position
    nonce: str
    commitment: str
    verified: bool


class RevealSeen(TypedDict):
    """A reveal the journal holds, checked: the number and nonce as its line says them."""

    commitment: str
    target: Any
    nonce: Any
    at: Stamp
    line: Annotated[int, Shape(minimum=1)]
    published: bool
    verified: bool


class VerifiedAll(TypedDict):
    """Every reveal in the journal, each checked, and whether all are verified."""

    seals: list[RevealSeen]
    verified: bool


# ---------------------------------------------------------------- the journal, read


class Cell(TypedDict):
    """A colour's dice (or colours merged, joined by +): observed and expected counts."""

    outcome: Annotated[str, Shape(pattern=f"^(?:{DIE})(?:[+](?:{DIE}))*$")]
    observed: Count
    expected: Annotated[float, Shape(minimum=0)]


class Audited(TypedDict):
    """Pearson's chi-square over the dice the table drew by hand: observed against expected
    counts per colour (cells), the cells the test used (tested, small ones merged),
    chi_square, df, p_value (null with too few dice), and a verdict in plain words."""

    draws: Count
    dice: Count
    cells: list[Cell]
    tested: list[Cell]
    chi_square: Annotated[float, Shape(minimum=0)] | None
    df: Annotated[int, Shape(minimum=1)] | None
    p_value: Chance | None
    verdict: str
    needed: Annotated[int, Shape(minimum=0, description="More dice the test needs.")] | None
    skipped: Count


Session = TypedDict("Session", {  # "from" is Python's word: no class can name it
    "number": Annotated[int, Shape(minimum=1)],
    "from": Stamp,
    "to": Stamp,
    "events": Annotated[int, Shape(minimum=1)],
})
Session.__doc__ = "A session: its number, its events' first and last times, and how many."


class Standing(TypedDict):
    """A character at the end: its file, name, the counts it holds, its actions' ids."""

    file: str
    name: str
    holds: dict[str, int]
    actions: list[Id]


class Recounted(TypedDict):
    """An event as the recap tells it."""

    id: Id
    at: Stamp
    command: str
    who: str | None
    file: str | None
    player: str | None
    told: str
    undone: bool
    pending: bool
    correction: bool
    late: bool
    voided_by: Id | None
    system: Rules | None
    counts_for_nothing: Annotated[str | None, Shape(
        description="Why it counts for nothing, as cwx log says (another turn of its draw, "
        "or end of its game, came first); null: it counts, or it is undone.")]


class Recapped(TypedDict):
    """The campaign's sessions, its characters at the end, its events told, its supply."""

    sessions: list[Session]
    total_sessions: Count
    characters: list[Standing]
    events: list[Recounted]
    supply: Luck | None
