"""What `cwx check` finds: every campaign file valid, every journal line an event, no
change left half made, and, inside a campaign, every file as its ledger says, with W9
counted campaign-wide (docs/rules.md, "The campaign ledger"). Findings are CwxErrors
placed at a file, line and key; the command prints them."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Mapping

from cwx import systems
from cwx.base import places, times
from cwx.base.errors import BadFile, Conflict, CwxError, Unlisted, shown
from cwx.base.record import Record
from cwx.campaign import folder as campaign
from cwx.campaign import gms, guesses, seal, supplying
from cwx.campaign.folder import Campaign
from cwx.campaign.ruled import Ruled
from cwx.journal import clock, events, history, ledger, rederive
from cwx.journal import lines as journal
from cwx.store import redo
from cwx.systems import sheets
from cwx.toml import tomlread

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

    from cwx.git import gmlist
    from cwx.git.repo import Repository
    from cwx.git.unsettled import Held


class Report(Record):
    campaign: str | None  # the campaign of the first path, as named
    valid: dict[str, str]  # file -> its kind ("character", "bag", "journal", "settings")
    skipped: list[str]  # TOML files that are not cwx's
    problems: list[CwxError]
    supply: ledger.Dice | None = None  # the first campaign's dice, when it was checked whole
    supplied: bool = False  # and its files hold just that (else a problem says the difference)
    pending: tuple[guesses.Guess, ...] = ()  # the first campaign's guesses waiting for a reveal (guesses.py)
    revealed: Mapping[str, str] = {}  # its commitments revealed (a guess on one waits in vain)
    void: tuple[guesses.Guess, ...] = ()  # its guesses on a number sealed over (--void)
    replaced: Mapping[str, str] = {}  # a commitment sealed over -> the seal that did
    ahead: tuple[clock.Ahead, ...] = ()  # lines stamped far ahead of this clone's clock
    keys: tuple[CwxError, ...] = ()  # changes of [keys] that do not count (keyring.py)
    # A late guess whose reveal's commit held it before the reveal (unsettled.py), by id.
    held: Mapping[str, Held] = {}
    gms: tuple[CwxError, ...] = ()  # changes of gm no GM made, without keys (gmlist.py)

    @property
    def checked(self) -> int:
        """The files checked: each valid, or with a problem, once however spelled
        ("./journal.jsonl", as `--signed` may name it, is "journal.jsonl")."""
        return len({os.path.normpath(path) for path in self.valid} |
                   {os.path.normpath(e.path) if e.path else e.path for e in self.problems
                    if not isinstance(e, Unlisted)})  # a folder, no file


class _Read(Record):
    raw: bytes
    data: dict[str, Any]


def check(given: list[str], tick: Callable[[int], None] | None = None) -> Report:
    """Check the files and folders `given` (folders searched below); `tick` hears how many
    journal events were read, now and then (a terminal's progress)."""
    first = Campaign.around(given[0])
    named = _namer(given)
    try:
        found = campaign.files_under(given)
    except BadFile as crowded:  # none of them read: the one finding
        return Report(named(first.root) if first.root else None, {}, [], [crowded])
    held = campaign.Held(named(first.root) if first.root else given[0])
    homes: dict[str, Campaign] = {}  # each campaign met, by its real root, named as given
    if first.root is not None:
        homes[first.real or ""] = Campaign(named(first.root), named(first.root))
    problems: list[CwxError] = list(found.unlisted)  # named: what they hold goes unseen
    valid: dict[str, str] = {}
    skipped: list[str] = []
    read: dict[str, dict[str, _Read]] = {}  # each campaign's files, by its real root
    for path in found.tomls:
        kind, file, said = _check_toml(path, first)
        try:
            held.add(file.data, len(file.raw))
        except BadFile as crowded:  # read no further: the one finding
            return Report(named(first.root) if first.root else None, {}, [], [crowded])
        problems += said
        if kind == "unreadable" and isinstance(said[0], places.LeadsOut):
            continue  # named: where it leads is no campaign this check was given
        home = first.of(os.path.realpath(path))  # where the file really is
        if home.root is not None:
            homes.setdefault(home.real or "", Campaign(named(home.root), named(home.root)))
        if kind is None:
            skipped.append(path)
        elif kind not in ("settings", "unreadable"):
            read.setdefault(home.real or "", {})[path] = file
        if kind is not None and not said:
            valid[path] = kind
    supplies: dict[str, tuple[ledger.Dice, bool]] = {}
    counted: dict[str, guesses.Counting] = {}  # each ledger's journal's guesses, on the way
    ahead = clock.Ahead.hearer()
    standing = _GMs()
    problems += _journals(found, homes, read, given, problems, valid, supplies, counted,
                          (*_ticking(tick), ahead.note), ahead, standing)
    for folder in found.redone:
        problems += [CwxError(text, path=path) for path, text in redo.inspect(folder)]
    ahead.close()
    problems += _carried(homes)
    problems += _recoded(homes)
    problems += _keys(homes)
    if rewritten := _history(homes):  # the ledger reads a rewritten journal: not to follow
        problems = [_settled_first(problem, "the journal's history holds a rewrite")
                    for problem in problems] + rewritten
    problems.sort(key=lambda e: (e.path or "", e.line or 0))
    # A file with a problem is not valid, however well it reads: each file counted once.
    with_problems = {e.path for e in problems}
    valid = {path: kind for path, kind in valid.items() if path not in with_problems}
    supply, supplied = supplies.get(first.real or "", (None, False))
    counting = counted.get(os.path.realpath(first.journal_file)) if first.root else None
    board = counting.board() if counting is not None else \
        guesses.board(first.journal_file if first.root is not None else None)
    return Report(named(first.root) if first.root else None, valid, skipped, problems, supply,
                  supplied, board.pending, board.revealed, board.void, board.replaced,
                  tuple(ahead.found), _keys_changed(homes),
                  _held(first.root, counting, board) if first.root and counting else {},
                  standing.changed(homes))


def _held(root: str, counting: guesses.Counting, board: guesses.Board) -> dict[str, Held]:
    """Each guess that reached the GM after the reveal, as its stamp-free rule says, whose
    reveal git shows committed with the guess before it (its commit, and who made it)."""
    late = board.late()
    if not late:
        return {}
    from cwx.git import unsettled

    return unsettled.held_before(root, {guess.id: counting.first.get(
        guess.commitment, counting.shown_by[guess.commitment])
        for guess in board.pending if guess.id in late and guess.commitment in counting.shown_by})


def before_commit(clone: Repository, say: Callable[[str], None]) -> Report | None:
    """The pre-commit hook's check (cli/hooks.py; cwx sync's own where the hooks step
    aside): the first report that finds a problem of a campaign the clone's hooks look
    after (the commit waits then), or None."""
    from cwx.campaign import gitsetup

    for folder in gitsetup.live_campaigns(clone, say):
        report = check([os.path.join(clone.top, folder)])
        if report.problems:
            return report
    return None


def _in_clones(homes: dict[str, Campaign],
               ) -> Iterator[tuple[Campaign, str, Repository, str]]:
    """Each campaign that git holds, with its root, its clone and its folder from the
    clone's top."""
    from cwx.git import repo

    for home in homes.values():
        assert home.root is not None
        if (clone := repo.of(home.root)) is not None:
            yield home, home.root, clone, os.path.relpath(os.path.realpath(home.root),
                                                          clone.top)


def _carried(homes: dict[str, Campaign]) -> list[CwxError]:
    """Files git tracks or has staged in a campaign that cwx keeps on one machine only (a
    sealed number, a redo record, a temporary file): the hooks refuse them, but a clone
    that commits past them (--no-verify, another tool's hooks) is told here."""
    from cwx.campaign import gitsetup

    found: list[CwxError] = []
    for _, root, clone, folder in _in_clones(homes):
        try:
            carried = gitsetup.tracked_litter(clone, "" if folder == "." else folder)
        except CwxError:
            continue  # git cannot answer (not installed): nothing to say about it
        found += [CwxError("is in git (tracked or staged), which carries it to every clone; "
                           "cwx keeps it on one machine only. `git rm --cached` it and commit",
                           path=os.path.join(root, os.path.relpath(
                               os.path.join(clone.top, path), os.path.realpath(root))))
                  for path in carried]
    return found


def _recoded(homes: dict[str, Campaign]) -> list[CwxError]:
    """Each git attribute in effect for a campaign's journal or TOML files that is not
    cwx's (attributes.py): a merge of git's own, a filter, `ident`, CRLF, another
    encoding. Named at the attributes' line, with the one fix."""
    from cwx.git import attributes

    found: list[CwxError] = []
    for home, root, clone, folder in _in_clones(homes):
        try:
            said = attributes.findings(clone, folder)
        except CwxError:
            continue  # git cannot answer (not installed): nothing to say about it
        found += [CwxError(error.message, line=error.line, path=_in(home, os.path.relpath(
            error.path, os.path.realpath(root))) if error.path else None) for error in said]
    return found


def recoded(camp: Campaign) -> list[CwxError]:
    """`_recoded` of one campaign (sync and the hooks ask it before anything is done)."""
    return _recoded({"": camp}) if camp.root is not None else []


def _history(homes: dict[str, Campaign]) -> list[CwxError]:
    """Each campaign's journal as git's history holds it: a line once committed never
    changed, removed or moved (grows.py)."""
    from cwx.git import grows

    return [found for home in homes.values() if home.root is not None
            for found in grows.findings(home.root, journal.path_in(home.root))]


def _keys(homes: dict[str, Campaign]) -> list[CwxError]:
    """Each campaign.toml's `[keys]`: players' SSH public keys, for signed turns."""
    from cwx.git import signing

    return [found for home in homes.values() if home.root is not None
            for found in signing.problems_of(home.root)]


def _keys_changed(homes: dict[str, Campaign]) -> tuple[CwxError, ...]:
    """Each change of a campaign's `[keys]` or GMs that does not count (signed by neither
    the key before it nor a GM's), where signed turns are on: a note, not a finding (it
    stays in the history; the keys stay as they were; `--signed` holds turns to them)."""
    from cwx.git import keyring

    return tuple(found for home in homes.values() if home.root is not None
                 for found in keyring.changes_of(home.root))


def _settled_first(problem: CwxError, held: str) -> CwxError:
    """A finding whose advice would bring files to a ledger read from a rewritten journal,
    or one holding a line the rules do not give: the fact kept, the advice replaced (that
    is settled first)."""
    at = problem.message.find("`cwx reconcile`")
    if at < 0:
        return problem
    cut = max(problem.message.rfind(": ", 0, at), problem.message.rfind("; ", 0, at))
    fact = problem.message[:cut] if cut > 0 else problem.message
    return type(problem)(f"{fact}; but {held} (named at journal.jsonl): settle that first, "
                         "never the files by it",
                         path=problem.path, line=problem.line, key=problem.key)


def _namer(given: list[str]) -> Any:
    """A campaign's folder, named as the paths were given (absolute, or from here)."""
    return lambda folder: folder if os.path.isabs(given[0]) else os.path.relpath(folder)


def _check_toml(path: str, camp: Campaign) -> tuple[str | None, _Read, list[CwxError]]:
    """(its kind, or None for TOML that is not cwx's; what was read; its problems)."""
    try:
        raw = tomlread.read_bytes(path)
        data = tomlread.parse(raw, path)
        if os.path.basename(path) == campaign.SETTINGS:
            Campaign(os.path.dirname(path) or ".", os.path.dirname(path) or ".").settings()
            return "settings", _Read(raw, data), []
    except CwxError as error:
        return "unreadable", _Read(b"", {}), [error]  # named once: no ledger comparison
    kind = sheets.kind_of(data)
    if kind is None:
        return None, _Read(raw, data), []
    return kind, _Read(raw, data), [
        problem.located(path, tomlread.line_of(raw, problem.key))
        for problem in sheets.problems(data, campaign.stem(path))]


def _journals(found: campaign.Found, homes: dict[str, Campaign],
              read: dict[str, dict[str, _Read]], given: list[str],
              problems: list[CwxError], valid: dict[str, str],
              supplies: dict[str, tuple[ledger.Dice, bool]],
              counted: dict[str, guesses.Counting],
              ticking: tuple[Callable[[journal.Event], None], ...],
              ahead: clock.Hearer, standing: _GMs) -> list[CwxError]:
    """Each journal's lines, and each campaign's own journal against its files (read
    once, for its lines and its ledger)."""
    ledgers = {os.path.realpath(home.journal_file): home for home in homes.values()}
    others = [path for path in found.journals if os.path.realpath(path) not in ledgers]
    said: list[CwxError] = []
    for path in sorted(others) + sorted(journal.path_in(home.root or ".")
                                        for home in ledgers.values()):
        lines = BadLines(path)
        ahead.path = path
        home = ledgers.get(os.path.realpath(path))
        heard = seal.Reveals(standing.gms(home))  # on the pass that reads every line
        written = _written(home, heard.gms)
        cursing, supplied = _Cursing(heard.gms), supplying.Heard(heard.gms, written)
        hearers = (*ticking, cursing.note, supplied.note)
        if home is not None:
            ruled = Ruled(functools.partial(_given, path))
            counting = counted[os.path.realpath(path)] = ruled.counting
            counting.witnessed(guesses.witness(path, heard.gms, read=False))
            try:
                folded = home.ledger(lines.add, _hearing(ruled.note, heard.note, *hearers))
            except journal.Crowded as crowded:  # read no further: its one finding
                said.append(crowded)
                continue
            forged = _twins(path, folded.repeated) + ruled.found(path, folded) + \
                _sealed_over_silently(path, counting) + _not_as_guessed(path, home, counting)
            against = _against_the_ledger(home, read.get(home.real or "", {}), folded,
                                          [os.path.realpath(p) for p in given],
                                          {os.path.realpath(e.path) for e in problems
                                           if e.path}, supplies)
        else:
            for item in history.lines(path):
                if isinstance(item, journal.BadLine):
                    lines.add(item)
                else:
                    heard.note(item)
                    for tick in hearers:
                        tick(item)
        unpublished = [
            CwxError(f"reveals a number against commitment {seal.short(commitment)} that no "
                     "seal in the journal published, or that its number and nonce do not "
                     "match (a sealed file swapped? a line written by hand?)", path=path,
                     line=line)
            for line, commitment in heard.unpublished()]
        if home is not None:
            # A reconcile would bring the files to a ledger that counts a forged line.
            said += forged + ([_settled_first(
                problem, "the journal holds a line the rules do not give")
                for problem in against] if forged or unpublished else against)
        bad = lines.said() + unpublished
        taken = (counted[os.path.realpath(path)].turns.undone() if home is not None
                 else set()) | _before_the_gms(path, heard, cursing)
        bad += [CwxError(f"{event.command} {event.id[:8]} is by {event.player}, no GM of "
                         f"the campaign ({gms.said(heard.gms, written)}): only a GM seals "
                         "and reveals. If the table accepts it, "
                         f"{gms.accepted(event.player, heard.gms, written)}"
                         f"{_or_undone(event)}", path=path, line=event.line)
                for event in heard.not_gm if event.id not in taken]
        bad += [CwxError(f"{event.command} {event.id[:8]} names no player, after lines that "
                         f"name theirs ({_gms_said(home, heard.gms)}): no line from before "
                         "players, so no GM's: only a GM seals and reveals. `git log -S "
                         f"{event.id}` names the commit that brought it, for the table",
                         path=path, line=event.line) for event in heard.unnamed()
                if event.id not in taken]
        bad += _cursed_by_a_player(path, cursing, heard.gms, written,
                                   counted[os.path.realpath(path)].turns
                                   if home is not None else None, taken)
        turns = counted[os.path.realpath(path)].turns if home is not None else None
        bad += supplied.said(path, turns.undone() | turns.void() if turns is not None
                             else set(), heard.played)
        said += bad
        if not bad and os.path.exists(path):
            valid[path] = "journal"
    return said


def _before_the_gms(path: str, heard: seal.Reveals, cursing: _Cursing) -> set[str]:
    """The ids of the seals, reveals and curses check would name that were anyone's, or
    their player's, when their lines arrived (gms.anyones)."""

    return gms.anyones(os.path.dirname(os.path.abspath(path)), [
        (event.id, event.player) for event in (*heard.not_gm, *heard.unnamed(),
                                               *cursing.found)])


def _or_undone(event: journal.Event) -> str:
    """The undo that takes back a reveal by a player no GM, as advice."""
    return f"; else `cwx undo {event.id}` takes it back" \
        if event.command == guesses.REVEALING else ""


def _given(path: str, kept: list[journal.Event]) -> set[str]:
    """The ids of `kept` (events undone of a kind undo never takes back) the rules give,
    as `cwx undo` asks (accounts.given)."""
    from cwx.campaign import accounts

    return accounts.given(path, kept)


class _Cursing:
    """The GM's moves (the curse, W6) by a player campaign.toml's gm does not name."""

    def __init__(self, gms: tuple[str, ...] | None) -> None:
        self.gms = gms
        self.found: list[journal.Event] = []

    def note(self, event: journal.Event) -> None:
        if self.gms is not None and event.player is not None and \
                events.kind(event.command).gm and not seal.is_gm(event.player, self.gms) and \
                len(self.found) < rederive.SHOWN:
            self.found.append(event._replace(result={}, changes=()))


def _cursed_by_a_player(path: str, cursing: _Cursing, in_force: tuple[str, ...] | None,
                        written: tuple[str, ...] | None, turns: journal.Turns | None,
                        anyones: set[str]) -> list[CwxError]:
    """Each curse by a player gm does not name that counts (one undone, or another curse
    of its draw came first of, turns nothing), with the undo that takes it back: the
    player's change, so named with --player, which the GM who follows it needs."""
    import shlex  # for a curse no GM made: a pre-commit hook checking none loads it

    passed = (turns.undone() | turns.void() if turns is not None else set()) | anyones
    return [CwxError(f"{event.command[:40]} {event.id[:8]} is by {event.player[:40]}, no GM of "
                     f"the campaign (campaign.toml: gm = {list(in_force or ())}): only the "
                     "GM curses (W6). If the table accepts it, "
                     f"{gms.accepted(event.player, in_force, written)}; else `cwx "
                     f"undo {event.id} {shlex.quote('--player=' + event.player)}` takes it back",
                     path=path, line=event.line)
            for event in cursing.found if event.player is not None and event.id not in passed]


class _GMs:
    """The GMs in force of each campaign a check meets (gmlist.py, keyring.py), asked of
    its history once: for its seals and reveals, and for the changes of gm said at the
    end."""

    def __init__(self) -> None:
        self.found: dict[str, gmlist.Standing | None] = {}

    def of(self, home: Campaign) -> gmlist.Standing | None:
        """None: no campaign, or a campaign.toml that cannot be read (named on its own)."""
        if home.root is None:
            return None
        if home.root not in self.found:
            try:
                written = home.settings().gm
            except CwxError:
                self.found[home.root] = None
            else:
                self.found[home.root] = _gm_standing(home, written)
        return self.found[home.root]

    def gms(self, home: Campaign | None) -> tuple[str, ...] | None:
        """The campaign's GMs in force (campaign.toml's gm, as far as a GM changed it), or
        None: anyone seals."""
        found = self.of(home) if home is not None else None
        return None if found is None else found.gms

    def changed(self, homes: dict[str, Campaign]) -> tuple[CwxError, ...]:
        """Each change of a campaign's gm that no GM in force made: a note, as a change of
        [keys] is (it stays in the history, counting for nothing; a seal by a player it
        named is the finding)."""
        from cwx.git import gmlist

        return tuple(CwxError(gmlist.said(change), path=_in(home, "campaign.toml"))
                     for home in homes.values() if (found := self.of(home)) is not None
                     for change in found.changed)


def _gm_standing(home: Campaign, written: tuple[str, ...] | None) -> gmlist.Standing:
    """The GMs in force (gms.py), as the refusals hold a player to them."""

    assert home.root is not None
    return gms.standing(home.root, written)


def _written(home: Campaign | None, in_force: tuple[str, ...] | None
             ) -> tuple[str, ...] | None:
    """campaign.toml's gm as written (the GMs in force outside a campaign, or where it
    cannot be read)."""
    try:
        return home.settings().gm if home is not None else in_force
    except CwxError:
        return in_force


def _gms_said(home: Campaign | None, in_force: tuple[str, ...] | None) -> str:
    """The GMs a seal is held to, and where campaign.toml names others, why."""
    return gms.said(in_force, _written(home, in_force))


def _twins(path: str, repeated: list[str]) -> list[CwxError]:
    """Each line that carries an earlier line's id (as JSON reads it, however spelled) with
    other contents: the ledger counts the first, so a twin inserted before a line changes
    what it counted for. A copy alike (git's union merge makes them) is no finding."""
    if not repeated:
        return []
    first: dict[str, journal.Event] = {}
    said = []
    wanted = set(repeated)
    # A few ids are searched for in the journal's bytes (a scan each); many, read whole.
    for event in history.with_ids(path, wanted, few=32):
        was = first.setdefault(event.id, event)
        if was is not event and was._replace(line=0) != event._replace(line=0):
            said.append(CwxError(
                f"carries the id {event.id[:8]} of line {was.line} too, with other contents: "
                "one of the two is a line rewritten under its id (`git log -p journal.jsonl` "
                f"shows who added which); the ledger counts line {was.line}'s, until the "
                "table takes the rewritten one out of its history",
                path=path, line=event.line))
    return said


def _sealed_over_silently(path: str, counting: guesses.Counting) -> list[CwxError]:
    """Each seal over an unrevealed number with guesses waiting that says nothing of it
    (neither `replaces` nor `void`): the guesses would wait for ever."""
    return [CwxError(guesses.said_sealed_over(seal, commitment, waiting), path=path,
                     line=line)
            for line, seal, commitment, waiting in
            counting.sealed_over_silently(counting.board())]


def _not_as_guessed(path: str, home: Campaign, counting: guesses.Counting) -> list[CwxError]:
    """Each guess this clone made that the journal no longer holds on the number it was
    made on (the clone keeps the commitment it guessed on, where no pull reaches)."""
    return [CwxError(f"{guesses.said_lost(file, commitment)}; the table settles it", path=path)
            for file, commitment in guesses.not_as_guessed(home.root or ".", counting)]


def _ticking(tick: Callable[[int], None] | None) -> tuple[Callable[[journal.Event], None], ...]:
    """A hearer of every event that tells `tick` the count now and then (of every journal
    checked, one after another); none without a `tick`, so nothing is counted."""
    if tick is None:
        return ()
    count = 0

    def each(event: journal.Event) -> None:
        nonlocal count
        count += 1
        if not count % 1000:
            tick(count)
    return (each,)


def _hearing(*hearers: Callable[[journal.Event], None]) -> Callable[[journal.Event], None]:
    """One reader's event told to each of `hearers`: the journal is read once for all."""
    def each(event: journal.Event) -> None:
        for hear in hearers:
            hear(event)
    return each


class BadLines:
    """A journal's bad lines, each named up to a hundred; past that, counted (a journal
    of a hundred thousand bad lines is said in a hundred and one)."""

    SHOWN = 100

    def __init__(self, path: str) -> None:
        self.path = path
        self.shown: list[CwxError] = []
        self.more = 0

    def add(self, line: journal.BadLine) -> None:
        if len(self.shown) < self.SHOWN:
            self.shown.append(CwxError(line.reason, path=self.path, line=line.line))
        else:
            self.more += 1

    def said(self) -> list[CwxError]:
        if not self.more:
            return self.shown
        return [*self.shown, CwxError(f"and {self.more} more lines that are no journal events "
                                      "of cwx's", path=self.path)]


# ---------------------------------------------------------------- against the ledger


class _Tally:
    """The dice the files hold and the ledger says they hold (W9), by colour."""

    def __init__(self) -> None:
        self.in_files = self.in_ledger = ledger.NO_DICE


def _against_the_ledger(home: Campaign, read: dict[str, _Read], folded: ledger.Ledger,
                        scopes: list[str], reported: set[str],
                        supplies: dict[str, tuple[ledger.Dice, bool]]) -> list[CwxError]:
    """Every key whose file value differs from its ledger value, every ledger value the
    rules forbid, and W9 over what `scopes` reach (the campaign's supply, when they reach
    all of it); `reported`: real paths already said."""
    tally = _Tally()
    problems: list[CwxError] = []
    present: set[str] = set()
    unknown: list[str] = []
    found: list[tuple[str, _Read, list[ledger.Difference]]] = []  # each file's, said below
    for path, file in read.items():
        name = home.name_of(path)
        if name.startswith("..") or name in present:
            continue  # outside the campaign: no ledger; or a link to a file checked already
        present.add(name)
        if folded.retired_since(name):
            problems.append(_back(home, folded, name, path))
        if name not in folded.known:
            unknown.append(path)  # said below, once it is known what is gone
            continue
        found.append((path, file, _differences(file, folded, name, tally)))
    beyond = _beyond(home, folded)
    problems += _outside(home, beyond)
    problems += _retired_and_played(home, folded, present)
    uncounted = {name: held for name, held in home.uncounted(folded, present).items()
                 if any(campaign.inside(os.path.join(home.real or "", name), scope)
                        for scope in scopes) and not folded.retired_since(name)}
    problems += _said(found, folded, bool(uncounted))
    # A file outside is said once, as such: no restore and retire reaches it.
    problems += _uncounted(home, uncounted, reported | {
        os.path.realpath(_in(home, name)) for name in beyond}, tally, folded)
    problems += _unknown(home, unknown, uncounted)
    whole = any(campaign.inside(home.real or "", scope) for scope in scopes)
    # A clash, like a file gone with dice, is settled first: no reconcile would mend it.
    clashing = any(d.refused is not None for _, _, differences in found for d in differences)
    problems += _w9(home, tally, folded.supply() if whole else None,
                    bool(uncounted) or clashing)
    if whole:
        supplies[home.real or ""] = (folded.supply(), tally.in_files == folded.supply() and
                                     tally.in_ledger == folded.supply())
    return problems


def _w9(home: Campaign, tally: _Tally, supply: ledger.Dice | None,
        uncounted: bool) -> list[CwxError]:
    """W9 over the files checked: they hold what the ledger says, and, checked whole, the
    campaign's supply. The advice never names a command that would break it."""
    files, kept = tally.in_files, tally.in_ledger
    if files == kept and (supply is None or kept == supply):
        return []
    said = f"W9: the files hold {files.said()}, the ledger {kept.said()}"
    if supply is not None:
        said += f", and the campaign's supply is {supply.said()}"
    if uncounted:
        advice = "the files named above must be settled first"
    elif supply is None or kept == supply:
        advice = "`cwx reconcile` brings the files to the ledger"
    elif files == supply:
        advice = "the ledger drifted from the supply: `cwx adopt` the files that differ " \
                 "brings it to them"
    else:
        advice = ("reconcile would not mend it: put the dice where the table decides and "
                  "`cwx adopt` those files (with --supply if the GM means the campaign to "
                  "hold other dice than its supply)")
    return [CwxError(f"{said}; {advice}", path=journal.path_in(home.root or "."))]


def _back(home: Campaign, folded: ledger.Ledger, name: str, path: str) -> CwxError:
    return CwxError(f"was retired ({_when(folded.retired[name])}) but is here: `cwx retire "
                    f"{_arg(path)}` finishes the retirement; if a merge brought it back, it "
                    "was played on another clone meanwhile, and the table decides which stands",
                    path=path)


def _retired_and_played(home: Campaign, folded: ledger.Ledger,
                        present: set[str]) -> list[CwxError]:
    """A file retired on one clone and played on another: what the other clone gave it
    (dice, experience) is still in the ledger, never silently lost."""
    problems = []
    for name in sorted(set(folded.retired) - present):
        if not folded.retired_since(name):
            continue
        rules = folded.rules(name)  # what a retirement sets to 0: counts, not scores
        left = {key: value for key, value in folded.values(name).items()
                if ledger.is_number(value.value) and value.value != 0 and
                rules(key).whole and not rules(key).absent_at_zero}
        if left:
            keys = ", ".join(f"{key} {shown(value.value)}" for key, value in sorted(left.items()))
            recent = sorted({said for value in left.values() for said in value.recent})
            after = f" ({', '.join(recent[-3:])})" if recent else ""
            problems.append(CwxError(
                f"was retired ({_when(folded.retired[name])}) and played on another clone"
                f"{after}: the ledger says it still holds {keys}. Restore it (git checkout "
                "it), settle it as the table decides and cwx retire it again",
                path=_in(home, name)))
    return problems


def _when(order: journal.Order) -> str:
    return times.shown(order[0])


def _differences(file: _Read, folded: ledger.Ledger, name: str,
                 tally: _Tally) -> list[ledger.Difference]:
    values = ledger.values_of(file.data)
    tally.in_files = tally.in_files.plus(ledger.dice_of(values))
    tally.in_ledger = tally.in_ledger.plus(folded.held_dice(name))
    return folded.differences(name, values)


def _said(found: list[tuple[str, _Read, list[ledger.Difference]]],
          folded: ledger.Ledger, uncounted: bool) -> list[CwxError]:
    """Each difference of the campaign's files and its ledger, with the advice that is
    right when followed: reconcile only when it would settle (no clash, no file gone with
    dice, and the ledger's dice the supply); a clash of dice names the other files whose dice differ, to adopt
    together (the same die given back twice, or spent twice)."""
    clashing = any(d.refused is not None for _, _, differences in found for d in differences)
    reconciles = not clashing and not uncounted and folded.total() == folded.supply()
    dice = [(path, d) for path, _, differences in found for d in differences
            if systems.conserved(d.key)]
    problems: list[CwxError] = []
    for path, file, differences in found:
        for difference in differences:
            line = tomlread.line_of(file.raw, difference.key)
            after = f" (after {', '.join(difference.ledger.recent)})" \
                if difference.ledger.recent else ""
            if difference.refused is not None:
                problems.append(Conflict(
                    f"the ledger cannot settle it: {difference.refused}{after}. "
                    f"{_together(path, difference, dice)}", path=path, line=line,
                    key=difference.key))
                continue
            adopt = f"`cwx adopt {_arg(path)}`"
            if systems.conserved(difference.key):  # a die adopted alone comes from nowhere
                adopt += " with the file the die came from (or with --supply if the GM gave it)"
            said = f"the file says {_shown(difference.file)}, the ledger " \
                f"{_shown(difference.ledger.value)}: "
            said += f"`cwx reconcile` if the ledger is right; if the file is, {adopt}" \
                if reconciles else ("no reconcile settles the campaign now (see the other "
                                    "problems): if this file is right, name it in the adopt "
                                    "that settles them")
            problems.append(CwxError(said, path=path, line=line, key=difference.key))
    return problems


def _together(path: str, difference: ledger.Difference,
              dice: list[tuple[str, ledger.Difference]]) -> str:
    """What settles a clash: the files edited as the table decides, adopted together;
    for a die, the other files whose dice differ from the ledger with it."""
    others = sorted({other for other, d in dice if other != path}) \
        if systems.conserved(difference.key) else []
    if not others:
        return "Edit the files as the table decides, then cwx adopt them together"
    named = " ".join(_arg(other) for other in others)
    return (f"Edit it as the table decides, and {', '.join(others)} too (where the die went, "
            f"or came from: its dice differ from the ledger as well), then `cwx adopt "
            f"{_arg(path)} {named}` together")


def _beyond(home: Campaign, folded: ledger.Ledger) -> list[str]:
    """The files the journal names outside the campaign (cwx never follows it there)."""
    beyond = []
    for name in sorted(folded.known | {name for name in folded.named if name is not None}):
        try:
            home.named(name)
        except CwxError:
            beyond.append(name)
    return beyond


def _outside(home: Campaign, beyond: list[str], most: int = 3) -> list[CwxError]:
    """Each file named outside the campaign, with the first lines naming it: no cwx writes
    such a line, and no command (undo, retire, adopt) follows it there; the line taken
    out, check passes."""
    if not beyond:
        return []
    path = journal.path_in(home.root or ".")
    lines: dict[str, list[int]] = {name: [] for name in beyond}
    for event in history.naming_any(path, beyond[:MAX_SOUGHT]):
        for name in {event.file, event.bag, *(change.file for change in event.changes)}:
            if name in lines and len(lines[name]) < most:
                lines[name].append(event.line)
    problems = []
    for name in beyond:
        named = ", ".join(map(str, lines[name])) + (", …" if len(lines[name]) == most else "")
        where = f" (line {named})" if named else ""
        problems.append(CwxError(
            f"names {name}, outside the campaign{where}: no cwx writes such a line, and none "
            "follows it there (undo, retire and adopt refuse it); take the line out of the "
            "journal before it is committed (once a commit holds it, take that commit out of "
            "the table's history: `git reset --keep` to the commit before it, once the table "
            "agrees)", path=path))
    return problems


MAX_SOUGHT = 100  # files outside whose lines are looked up (a clone may name thousands)


def _uncounted(home: Campaign, uncounted: dict[str, int], reported: set[str],
               tally: _Tally, folded: ledger.Ledger) -> list[CwxError]:
    problems = []
    for name, held in uncounted.items():
        path = _in(home, name)
        tally.in_ledger = tally.in_ledger.plus(folded.held_dice(name))
        if os.path.realpath(path) in reported:
            continue  # unreadable, and said so: its dice are still counted
        if held < 0:
            said = (f"the ledger took {_dice(-held)} more out of it than it held (two clones "
                    f"recorded it leaving at once): `cwx adopt {_arg(path)}` sets that right")
        elif not os.path.lexists(path):
            said = (f"is gone, with {_dice(held)} the ledger says it held (W9: dice are never "
                    "destroyed): restore it and `cwx retire` it (its dice go back to the "
                    "reserve), or put its dice where the table decides and `cwx adopt` it "
                    "with the files that hold them now")
        else:
            said = (f"is no longer a character or bag file of this campaign, but the ledger "
                    f"says it holds {_dice(held)} (W9: dice are never destroyed): restore it, "
                    "or move it out of the way, put its dice where the table decides and `cwx "
                    "adopt` it with the files that hold them now")
        problems.append(CwxError(said, path=path))
    return problems


def _unknown(home: Campaign, unknown: list[str], uncounted: dict[str, int]) -> list[CwxError]:
    """Files new to the ledger. A file moved (git mv) is new where its old name is gone:
    the two are adopted together, so its dice are not counted twice."""
    if not unknown:
        return []
    gone = sorted(_in(home, name) for name in uncounted
                  if not os.path.lexists(os.path.join(home.real or "", name)))
    from cwx.base.hints import NOT_UTF8, utf8_named

    likeliest = _likeliest(gone)
    problems = []
    for path in unknown:
        if not utf8_named(path):
            problems.append(CwxError(NOT_UTF8, path=path))
            continue
        alone = f"`cwx adopt {_arg(path)}` records it as it is"
        moved = likeliest(path)
        others = (f" (or one of {len(gone) - len(moved)} other gone files `cwx check` names)"
                  if len(gone) > len(moved) else "")
        which = " (with the name it was moved from)" if len(gone) > 1 else ""
        said = (f"if it was moved from {' or '.join(moved)}{others}, `cwx adopt "
                f"{_arg(moved[0])} {_arg(path)}`{which} moves its history (adopting it alone "
                f"would count its dice twice); if it is new, {alone}") if gone else alone
        problems.append(CwxError(f"has no history in the ledger; {said}", path=path))
    return problems


def _in(home: Campaign, name: str) -> str:
    """A file the journal names, as a path from here: the name itself (one copy of it, the
    ledger's) when the campaign is here."""
    return name if home.root in (None, "", ".") else os.path.normpath(os.path.join(
        home.root, name))


LIKELIEST = 3  # gone files a message names as where a new one may have come from


def _likeliest(gone: list[str]) -> Callable[[str], list[str]]:
    """The few gone files (sorted) a new file was likeliest moved from: those of its name
    (moved to another folder), then those of its folder (renamed), then the first. Indexed
    once, so each message costs a few names however many files are gone."""
    by_name: dict[str, list[str]] = {}
    by_folder: dict[str, list[str]] = {}
    for name in gone:
        by_name.setdefault(os.path.basename(name), []).append(name)
        by_folder.setdefault(os.path.dirname(name), []).append(name)

    def likeliest(path: str) -> list[str]:
        chosen: list[str] = []
        for names in (by_name.get(os.path.basename(path), []),
                      by_folder.get(os.path.dirname(path), []), gone):
            chosen += [name for name in names[:LIKELIEST] if name not in chosen]
        return chosen[:LIKELIEST]
    return likeliest


def _arg(path: str) -> str:
    from cwx.base.hints import typed

    return typed(path)


def _dice(count: int) -> str:
    return f"{count} white and black dice" if count != 1 else "1 die (a white or a black)"


def _shown(value: object) -> str:
    """A value for a message: never a number of thousands of digits nor a list of
    thousands of items in full."""
    if value is None:
        return "nothing"
    if isinstance(value, list):
        items = ", ".join(shown(item) if not isinstance(item, str) else item
                          for item in value[:10])
        return f"[{items}{f', and {len(value) - 10} more' if len(value) > 10 else ''}]"
    return shown(value)
