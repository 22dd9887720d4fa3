"""The campaign's accounts: making a file, and the commands that change the ledger rather
than play the game (reconcile, adopt, undo). Each opens its files under their locks,
decides by the ledger (ledger.py) and the rules, and journals one change, all or
nothing; each returns what it did, for the command to show.

The rules these keep are in docs/rules.md ("The campaign ledger"): whole numbers add
up, W9 holds campaign-wide, a ledger value the rules forbid is for the table to settle.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from cwx import journal, ledger, sheets, systems, tomledit
from cwx.campaign import Campaign
from cwx.errors import BadFile, Conflict, CwxError, RuleForbids
from cwx.files import Change
from cwx.record import Record

Opened = Callable[[str, list[str], Campaign], Change]  # how a command opens its files


class Corrected(Record):
    """One key brought to its ledger value (or adopted from the file)."""

    file: str  # as the journal names it
    key: str | None  # None: a whole file
    before: Any
    after: Any

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "key": self.key, "from": self.before, "to": self.after}


# ---------------------------------------------------------------- a new campaign, a new file


def start(open_: Opened, folder: str, *, force: bool) -> dict[str, Any]:
    """Mark `folder` (made if missing) a campaign: its settings, a bag, and the files a
    table needs (templates.campaign_files); files already there are kept."""
    import contextlib

    from cwx import templates

    _may_start(folder, force)
    wanted = templates.campaign_files(os.path.basename(os.path.abspath(folder)))
    made = not os.path.isdir(folder)
    if made:
        try:
            os.makedirs(folder)
        except OSError as error:
            raise BadFile(f"cannot be made ({error.strerror})", path=folder) from None
    paths = {name: os.path.join(folder, name) for name in wanted}
    try:  # the campaign being made journals its own making
        with open_("init", list(paths.values()), Campaign(folder, folder)) as change:
            # Decided under the lock, after any interrupted init here was finished.
            kept = sorted(n for n, p in paths.items() if os.path.lexists(p))
            created = sorted(set(wanted) - set(kept))
            for name in created:
                text, meant = wanted[name]
                change.create(paths[name], text, force=False, meant=meant)
            result: dict[str, Any] = {"folder": folder, "created": created, "kept": kept}
            change.record(result)
    except BaseException:
        if made:
            with contextlib.suppress(OSError):
                os.rmdir(folder)
        raise
    return result


def _may_start(folder: str, force: bool) -> None:
    existing = [n for n in os.listdir(folder) if n != ".git"] if os.path.isdir(folder) else []
    if existing and not force:
        raise BadFile("is not empty; pass --force to add a campaign to it (files already "
                      "there are kept)", path=folder)
    if os.path.lexists(folder) and not os.path.isdir(folder):
        raise BadFile("is a file, not a folder; name a new folder for the campaign",
                      path=folder)
    above = os.path.dirname(os.path.abspath(folder))
    while not os.path.lexists(above):
        above = os.path.dirname(above)
    if not os.path.isdir(above):
        raise BadFile(f"cannot be made: {above} is a file, not a folder", path=folder)



def make(open_: Opened, command: str, camp: Campaign, file: str, sheet: Any, *,
         force: bool, result: dict[str, Any], who: str | None = None) -> None:
    """Write a new campaign file for `sheet` (refusing an existing one unless forced),
    where no die would be destroyed or hidden (W9)."""
    from cwx import files, templates

    camp.where_check_looks(file)
    kind = sheets.kind_of(sheets.data_of(sheet)) or "character"
    text = templates.file_of(sheet, files.schema_beside(file, kind, camp))
    with open_(command, [file], camp) as change:
        if force and os.path.lexists(file):
            _no_dice_lost(change, file)
        if change.journal:  # the ledger's word too: the file may be emptied, or gone
            held = camp.held_by(change.name_of(file))
            if held:
                raise RuleForbids(
                    f"the ledger says the file here holds {held} white and black dice, which "
                    "a new file would hide (W9: dice are never created or destroyed); restore "
                    "it (git checkout it), or put its dice where the table decides and cwx "
                    "adopt it with those files", path=file)
        change.create(file, text, force=force, meant=sheets.data_of(sheet))
        change.record(result, who=who, file=file)


def _no_dice_lost(change: Change, file: str) -> None:
    """A file made anew over one that holds whites or blacks would destroy them (W9)."""
    try:
        held = ledger.dice(ledger.values_of(change.data(file)))
    except CwxError:
        return  # a file cwx cannot read holds nothing it can count: --force may replace it
    if held:
        raise RuleForbids(f"holds {held} white and black dice, which a new file would destroy "
                          "(W9: dice are never created or destroyed); end the game first (cwx "
                          "game end), or move the dice by hand and cwx adopt the files",
                          path=file)


def sheet_problem(change: Change, path: str) -> BadFile | None:
    """The first problem of a file as it will be after the change's edits."""
    loaded = change.loaded[path]
    after = tomledit.with_edits(loaded.data, loaded.edits)
    problems = sheets.problems(after, os.path.splitext(os.path.basename(path))[0])
    return problems[0] if problems else None


# ---------------------------------------------------------------- reconcile


def reconcile(open_: Opened, camp: Campaign, *, numbers_only: bool = False,
              kept: list[str] | None = None,
              dice_before: Callable[[], int | None] | None = None) -> list[Corrected]:
    """Bring every file of the campaign to its ledger value, as one change the ledger
    does not count; with `numbers_only` (after a merge) other values are left and named in
    `kept`, and the files must then hold `dice_before` dice (W9), else nothing changes."""
    paths = [member.path for member in camp.members()]
    corrected: list[Corrected] = []
    refused: list[str] = []
    kept = [] if kept is None else kept
    with open_("reconcile", paths, camp) as change:
        folded = camp.ledger()
        for path in paths:
            name = change.name_of(path)
            if name not in folded.known:
                continue
            rules = folded.rules(name)
            for difference in folded.differences(name, ledger.values_of(change.data(path))):
                key, entry = difference.key, difference.ledger
                if difference.refused is not None:
                    refused.append(f"{name}: {difference.refused} (after "
                                   f"{', '.join(entry.recent)})")
                elif numbers_only and not (ledger.is_number(entry.value) or
                                           ledger.is_number(difference.file)):
                    kept.append(f"{name} [{key}]")
                else:
                    value = ledger.settled(entry.value, difference.file, rules(key))
                    change.set(path, journal.split(key), value, correction=True)
                    corrected.append(Corrected(name, key, difference.file, value))
        if any(c.key and systems.conserved(c.key) for c in corrected) and \
                (uncounted := camp.uncounted(folded, map(change.name_of, paths))):
            refused.append("the ledger's dice in files that are gone or no longer the "
                           "campaign's (" + ", ".join(f"{name}: {held}" for name, held in
                                                       uncounted.items()) + ") would be lost; "
                           "restore them, or cwx adopt each with the files that hold its dice "
                           "now")
        expected = dice_before() if dice_before is not None and corrected else None
        if expected is not None and (after := _dice_after(change, paths, corrected)) != expected:
            refused.append(f"the files would hold {after} white and black dice, and the "
                           f"campaign should hold {expected} after the merge (W9): the "
                           "journal misses something a clone did (a file made anew, or "
                           "moved, on two clones at once)")
        if refused:
            raise RuleForbids("the ledger cannot settle this alone, so cwx changed nothing: "
                              + "; ".join(refused) + ". Edit the files as the table decides, "
                              "then cwx adopt them together", path=change.journal)
        for path in paths:
            if change.loaded.get(path) and change.loaded[path].edits and \
                    (problem := sheet_problem(change, path)):
                raise RuleForbids(f"its ledger values make a sheet the rules refuse "
                                  f"({problem.message}); edit it as the table decides, then "
                                  "cwx adopt it", path=path, key=problem.key)
        if corrected:
            change.record({"corrected": len(corrected)})
    return corrected


def _dice_after(change: Change, paths: list[str], corrected: list[Corrected]) -> int:
    """The white and black dice the campaign's files hold once `corrected`."""
    total = 0
    for path in paths:
        values = ledger.values_of(change.data(path))
        name = change.name_of(path)
        values.update({c.key: c.after for c in corrected if c.file == name and c.key})
        total += ledger.dice(values)
    return total


# ---------------------------------------------------------------- adopt


def adopt(open_: Opened, paths: Sequence[str]) -> list[Corrected]:
    """Journal each key whose file value differs from the ledger's (a file with no
    history: its whole text), so the table's word joins the ledger; a file gone leaves it,
    adopted with the files that hold its dice now (W9)."""
    from cwx import files

    camps = {Campaign.around(path).root for path in paths}
    if None in camps or len(camps) > 1:
        raise BadFile("adopt takes files of one campaign (cwx init marks one)",
                      path=" ".join(paths))
    camp = Campaign.around(paths[0])
    paths = files.each_once(paths)  # a file named twice (or by a link too) adopted once
    # A file gone (moved by git, say) is not written, nor its folder locked: it may be gone.
    here = [path for path in paths if os.path.lexists(path)]
    adopted: list[Corrected] = []
    with open_("adopt", here, camp) as change:
        folded = camp.ledger()
        changes: list[journal.Edit] = []
        leaving: list[str] = []  # files gone: their keys leave the ledger
        moved = taken = 0  # dice the other files bring into the ledger; those leaving take
        for path in paths:
            name, gone = change.name_of(path), path not in here
            if gone and name not in folded.known:
                raise BadFile("no such file, and the ledger knows none of that name", path=path)
            data = {} if gone else _adoptable(change, camp, path)
            if gone:
                leaving.append(path)
            if name not in folded.known:
                text = change.bytes_of(path).decode("utf-8")
                changes.append(journal.Edit(name, None, None, None, text=text))
                adopted.append(Corrected(name, None, None, None))
                moved += ledger.dice(ledger.values_of(data))
                continue
            values, known = ledger.values_of(data), folded.values(name)
            for key in sorted(set(values) | set(known)):
                was = known[key].value if key in known else None
                if not ledger.same(key, was, values.get(key)):
                    changes.append(journal.Edit(name, key, was, values.get(key)))
                    adopted.append(Corrected(name, key, was, values.get(key)))
                    if gone:  # below 0 (two clones took it out at once) is no die to move
                        taken += max(ledger.dice({key: was or 0}), 0)
                    else:
                        moved += ledger.dice({key: values.get(key) or 0}) - \
                            ledger.dice({key: was or 0})
        _dice_kept(camp, folded, paths, leaving, moved, taken)
        if changes:
            change.record({"adopted": len(adopted)}, changes=changes,
                          file=paths[0] if len(paths) == 1 else None)
    return adopted


def _adoptable(change: Change, camp: Campaign, path: str) -> dict[str, Any]:
    """A file's data, if it is a campaign file the rules accept."""
    data = change.data(path)
    camp.where_check_looks(path)
    if sheets.kind_of(data) is None:
        raise BadFile("is not a character or bag file; cwx keeps no ledger of it", path=path)
    for problem in sheets.problems(data, os.path.splitext(os.path.basename(path))[0])[:1]:
        raise RuleForbids(f"the rules refuse it ({problem.message}); mend it first",
                          path=path, key=problem.key)
    return data


def _dice_kept(camp: Campaign, folded: ledger.Ledger, paths: Sequence[str],
               leaving: list[str], moved: int, taken: int) -> None:
    """An adopt moves dice between files, never makes or destroys them (W9)."""
    if moved > 0 and not leaving:
        missing = [name for name, held in camp.gone(folded).items() if held > 0]
        if missing:  # the dice may be the gone file's, which git carried here
            raise RuleForbids(
                f"the files bring {moved} white and black dice into the ledger while "
                f"{' and '.join(missing)}, gone, still holds some there; if they are its, "
                f"adopt it with them (cwx adopt {missing[0]} {' '.join(paths)}), so they "
                "are counted once; if not, settle it first (restore it, or adopt it with "
                "the files that hold its dice)", path=paths[0])
    if leaving and moved != taken:
        raise RuleForbids(
            f"{' and '.join(leaving)} {'is' if len(leaving) == 1 else 'are'} gone with "
            f"{taken} white and black dice, and the other files named bring {moved} into "
            "the ledger (W9: dice are never made or destroyed): put its dice where the "
            "table decides and name those files in the same adopt", path=leaving[0])


# ---------------------------------------------------------------- undo


class Undoing(Record):
    """What an undo takes back (`target`, whose inverse it applies), and the change of the
    game that makes it again or no more (`change`: the same, but for a redo's chain)."""

    target: journal.Event
    change: journal.Event


def latest_undoable(path: str, name: str | None, player: str | None,
                    redo: bool = False) -> Undoing:
    """`player`'s most recent change (of the file `name`, if given) not yet undone and
    counting in the ledger (an action that changed no file, a failed draw, is one too);
    with `redo`, their most recent undo still standing. A change undone and redone before
    is undone again by undoing its redo: each change has one chain of undos."""
    from cwx import events

    turns = journal.Turns()
    for _, item in journal.read_raw(path, only=(b'"undoes"', b'"turns"')):
        if isinstance(item, journal.Event):
            turns.note(item)
    void, undone = turns.void(), turns.undone()
    counting = {target: min(undos)[1] for target, undos in turns.undos.items()
                if min(undos)[1] not in void}
    undoes = {undo: target for target, undo in counting.items()}
    best: journal.Event | None = None
    for event in journal.events_in(path):
        if event.id in void or event.id in undone or \
                (name is not None and event.file != name and
                 all(c.file != name for c in event.changes)) or \
                (player is not None and event.player not in (player, None)):
            continue  # a line from before players (None) is anyone's
        if redo:
            wanted = event.undoes is not None and _root(event, undoes) in undone
        else:
            kind = events.kind(event.command)
            wanted = event.undoes is None and kind.undoable and \
                (kind.action or any(c.key is not None for c in event.changes))
        if wanted and (best is None or (event.when, event.id) > (best.when, best.id)):
            best = event
    if best is None:
        what, verb = ("undo", "redo") if redo else ("change", "undo")
        whose = f" of {name}" if name else ""
        by = f" (by {player}; --player NAME names another player)" if player else ""
        raise RuleForbids(f"there is no {what}{whose} left to {verb}{by}", path=path)
    if redo:
        return Undoing(best, _event(path, _root(best, undoes)) or best)
    link, seen = best.id, {best.id}
    while link in counting and counting[link] not in seen:
        link = counting[link]
        seen.add(link)
    return Undoing(_event(path, link) or best if link != best.id else best, best)


def _event(path: str, id_: str) -> journal.Event | None:
    wanted = id_.encode()
    for _, item in journal.read_raw(path, only=(wanted,)):
        if isinstance(item, journal.Event) and item.id == id_:
            return item
    return None


def _root(undo: journal.Event, undoes: dict[str, str]) -> str:
    """The change at the start of an undo's chain (an undo of an undo... of it), by what
    each counting undo `undoes`."""
    at, seen = undo.undoes or undo.id, {undo.id}
    while at in undoes and at not in seen:
        seen.add(at)
        at = undoes[at]
    return at


def undid(undoing: Undoing) -> dict[str, Any]:
    """An undo: the journal's result, and --json's (`undid`: the event it takes back;
    `change`: the change of the game that is undone or redone by it)."""
    def said(event: journal.Event) -> dict[str, Any]:
        return {"id": event.id, "command": event.command, "at": event.at, "who": event.who,
                "player": event.player}

    return {"undid": said(undoing.target), "change": said(undoing.change)}


def undo(open_: Opened, camp: Campaign, char: str | None, player: str | None, *,
         redo: bool = False) -> Undoing:
    """Undo `player`'s most recent change not yet undone (of `char`, if given) by its
    inverse, journaled as an undo; with `redo`, undo their latest undo instead. Whole
    numbers go back by their delta, any other value only if it still holds what was written."""
    journal_path = camp.journal_file
    name = camp.name_of(char) if char else None
    undoing = latest_undoable(journal_path, name, player, redo)
    target = undoing.target
    touched = {camp.named(c.file): c.file for c in target.changes if c.key}
    gone = [named for file, named in touched.items() if not os.path.lexists(file)]
    if gone:  # undo never walks past a change it cannot take back
        raise RuleForbids(f"cannot undo `{target.command}`: {', '.join(gone)}, which it "
                          "changed, is gone; restore it (git checkout it) to undo it",
                          path=os.path.relpath(journal_path))
    # Journaled where the undone change was: the journal read, whatever its line says.
    with open_("undo", sorted(touched), camp) as change:
        if latest_undoable(journal_path, name, player, redo).target.id != target.id:
            raise Conflict("the journal changed while cwx read it; run cwx undo again",
                           path=journal_path)
        if redo:
            _turned_since(journal_path, undoing.change)
        _take_back(change, camp, target)
        change.record(undid(undoing), who=target.who,
                      file=camp.named(target.file) if target.file else None,
                      bag=camp.named(target.bag) if target.bag else None,
                      undoes=target.id)
    return undoing


def _turned_since(path: str, redone: journal.Event) -> None:
    """A turn (a luck spend, a curse) is redone only while no other turn of its draw
    stands: a draw is turned once."""
    from cwx import events

    draw = redone.result.get("turns")
    if not events.kind(redone.command).turn or not isinstance(draw, str):
        return
    turns = journal.Turns()
    for event in journal.events_in(path):
        turns.note(event)
    if turns.by(draw) is not None:
        raise RuleForbids(f"cannot redo `{redone.command}`: its draw was turned again since "
                          "(a draw is turned once); undo that turn first", path=path)


def _take_back(change: Change, camp: Campaign, target: journal.Event) -> None:
    from cwx import systems

    for step in target.changes:
        if step.key is None or step.correction:
            continue
        if not systems.follows(step.key):
            raise RuleForbids(f"cannot undo `{target.command}`: its journal line names "
                              f"{step.key}, which no file of cwx's holds (mend the line)",
                              path=camp.journal_file)
        file = camp.named(step.file)
        key = journal.split(step.key)
        data = change.data(file)
        current = tomledit.value_at(data, key)
        try:
            back = ledger.undone(step.key, step.before, step.after, current,
                                 systems.rules(ledger.values_of(data))(step.key))
        except ValueError as error:
            raise RuleForbids(f"cannot undo `{target.command}`: {error}", path=file,
                              key=step.key) from None
        change.set(file, key, back)
    for file in {camp.named(c.file) for c in target.changes if c.key}:
        if problem := sheet_problem(change, file):
            raise RuleForbids(f"undoing `{target.command}` would leave a sheet the rules "
                              f"refuse ({problem.message})", path=file, key=problem.key)
