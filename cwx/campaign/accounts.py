"""The campaign's accounts: making a file, and the commands that change the ledger rather
than play the game (reconcile, adopt, undo). Each opens its files under their locks,
decides by the ledger (ledger.py) and the rules, and journals one change, all or
nothing; each returns what it did, for the command to show.

The rules these keep are in docs/rules.md ("The campaign ledger"): whole numbers add
up, W9 holds campaign-wide, a ledger value the rules forbid is for the table to settle.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence

from cwx import systems
from cwx.base import times
from cwx.base.errors import BadFile, BadValue, Conflict, CwxError, RuleForbids
from cwx.base.ink import plural
from cwx.base.record import Record
from cwx.campaign.files import Change
from cwx.campaign.folder import Campaign
from cwx.journal import history, ledger, recent
from cwx.journal import lines as journal
from cwx.systems import sheets
from cwx.toml import tomledit

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

    from cwx.campaign.results import Correction, EventNamed, Started, Undid

Opened = Callable[[str, list[str], Campaign], Change]  # how a command opens its files


class Corrected(Record):
    """One key brought to its ledger value (or adopted from the file)."""

    file: str  # as the journal names it
    key: str | None  # None: a whole file
    before: Any
    after: Any

    def as_json(self) -> Correction:
        return {"file": self.file, "key": self.key, "from": self.before, "to": self.after}


# ---------------------------------------------------------------- a new campaign, a new file


def _campaign_name(folder: str) -> str:
    """A new campaign's name: at the top of a clone, the table's repository's (`our-game`
    for …/our-game.git), never the clone's own folder (`gm`, `alice`); else its folder's."""
    from cwx.git import repo

    clone = repo.of(folder) if os.path.isdir(folder) else None
    if clone is not None and clone.top == os.path.realpath(folder):
        remotes = repo.run(clone, "remote").stdout.decode("utf-8", "replace").split()
        if remotes:
            url = repo.run(clone, "remote", "get-url", "origin" if "origin" in remotes
                           else remotes[0]).stdout.decode("utf-8", "replace").strip()
            name = url.rstrip("/").rpartition("/")[2].rpartition(":")[2].removesuffix(".git")
            if name.isprintable() and name.strip(". "):
                return name
    return os.path.basename(os.path.abspath(folder))


def start(open_: Opened, folder: str, *, force: bool, dry_run: bool = False) -> Started:
    """Mark `folder` (made if missing) a campaign: its settings, a bag, and the files a
    table needs (templates.campaign_files); files already there are kept."""
    import contextlib

    from cwx.base.places import SETTINGS
    from cwx.systems import templates

    _may_start(folder, force)
    wanted = templates.campaign_files(_campaign_name(folder))
    made = not os.path.isdir(folder)
    if made and dry_run:  # nothing is there: everything would be made
        return {"folder": folder, "created": sorted(wanted), "kept": []}
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
            if SETTINGS in kept and any(sheets.kind_of(wanted[name][1] or {}) == "bag"
                                        for name in created):
                from cwx.campaign import seal  # a bag made anew brings its dice in

                seal.by_a_gm(Campaign(folder, folder), "adds dice to the campaign (`init` "
                             "makes its bag anew)")
            for name in created:
                text, meant = wanted[name]
                change.create(paths[name], text, force=False, meant=meant)
            result: Started = {"folder": folder, "created": created, "kept": kept}
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


class Made(Record):
    """A file made: its sheet, and the result journaled."""

    sheet: Any
    result: Mapping[str, Any]  # a record of systems/results.py


def make(open_: Opened, command: str, camp: Campaign, file: str, sheet: Any, *,
         force: bool, result: Mapping[str, Any], who: str | None = None) -> None:
    """Write a new campaign file for `sheet` (refusing an existing one unless forced),
    where no die would be destroyed or hidden (W9)."""
    from cwx.campaign import files
    from cwx.systems import templates

    camp.where_check_looks(file)
    from cwx.journal import events

    if events.kind(command).brings:  # its dice come into the campaign: the GM's word
        from cwx.campaign import seal

        seal.by_a_gm(camp, f"adds dice to the campaign (`{command}`: a bag brings its dice)")
    kind = sheets.kind_of(sheets.data_of(sheet)) or "character"
    text = templates.file_of(sheet, files.schema_beside(file, kind, camp))
    with open_(command, [file], camp) as change:
        # The ledger's word too: the file may be emptied, or gone.
        held = camp.held_by(change.name_of(file)) if change.journal else 0
        if force and os.path.lexists(file):
            _of_kind(change, file, kind, emptied=bool(held))
            _no_dice_lost(change, file)
            _nothing_earned_lost(change, file)
        result = {**result, **_saw(change, file)}
        if held:
            raise RuleForbids(
                f"the ledger says the file here holds {held} white and black dice, which a "
                "new file would hide (W9: dice are never created or destroyed); restore it "
                "(git checkout it), or put its dice where the table decides and cwx adopt it "
                "with those files", path=file)
        change.create(file, text, force=force, meant=sheets.data_of(sheet))
        change.record(result, who=who, file=file)


def _of_kind(change: Change, file: str, kind: str, *, emptied: bool) -> None:
    """--force replaces a cwx file of the kind being made, never any other file (a
    shell's start-up file a scene names, a bag where a character is made). A file the
    ledger says holds dice but that is no cwx file now was `emptied`: the ledger says why."""
    try:
        found = sheets.kind_of(change.data(file))
    except CwxError:
        found = None
    if found != kind and not (found is None and emptied):
        raise BadFile(f"is not a cwx {kind}; move it away yourself if you mean to replace it",
                      path=file)


def _saw(change: Change, file: str) -> dict[str, Any]:
    """The latest event of `file` this clone's journal holds, for a change that ends the
    file as it was (made anew, retired): a change of it the ledger meets between the two
    was made on another clone that never saw the end, and is a clash, never lost."""
    if change.journal is None:
        return {}
    latest = recent.latest_of(change.journal, change.name_of(file))
    return {"saw": {"at": latest.when, "id": latest.id}} if latest is not None else {}


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


def _nothing_earned_lost(change: Change, file: str) -> None:
    """A character made anew over one that earned experience, or bought traits with it,
    would wipe what the rules gave (and undo could not give it back)."""
    try:
        sheet = sheets.read(change.data(file), os.path.splitext(os.path.basename(file))[0])
    except CwxError:
        return  # a file cwx cannot read holds nothing it can count
    said = [systems.system(sheet.kind).earned(sheet)] if systems.entry(sheet.kind).CHARACTER \
        else []
    if change.journal:
        said.append(_bought(change.journal, change.name_of(file)))
    found = [text for text in said if text]
    if found:
        from cwx.base.hints import typed

        raise RuleForbids(f"the character has {' and '.join(found)}, which a new file would "
                          f"wipe; retire it first (cwx retire {typed(file)}), then make the "
                          "new one", path=file)


def _bought(path: str, name: str) -> str | None:
    """The latest purchase (`xp spend`, `wheel buy`) of the file `name` since it was last
    made, not undone."""
    from cwx.journal import events

    with history.opened(path) as read:
        passed = read.undone() | read.void()
    made: journal.Order | None = None
    bought: list[journal.Event] = []
    for item in history.naming(path, name):
        if any(c.key is None and c.file == name and c.text is not None for c in item.changes):
            made = max(made, item.order) if made else item.order
        if item.file == name and events.kind(item.command).buys:
            bought.append(item)
    live = [e for e in bought if e.id not in passed and (made is None or e.order > made)]
    if not live:
        return None
    latest = max(live, key=lambda e: e.order)
    return f"traits bought (`{latest.command}`, {times.shown(latest.when)})"


def sheet_problem(change: Change, path: str) -> BadFile | None:
    """The first problem of a file as it will be after the change's edits."""
    loaded = change.loaded[path]
    after = tomledit.with_edits(loaded.data, loaded.edits)
    problems = sheets.problems(after, os.path.splitext(os.path.basename(path))[0])
    return problems[0] if problems else None


# ---------------------------------------------------------------- reconcile


def reconcile(open_: Opened, camp: Campaign, *, numbers_only: bool = False,
              kept: list[str] | None = None) -> list[Corrected]:
    """Bring every file of the campaign to its ledger value, as one change the ledger
    does not count; with `numbers_only` (after a merge) other values are left and named in
    `kept`. Refused, nothing changed, where the files would not then hold the campaign's
    supply of dice (W9), or a value the ledger cannot settle alone, or where the journal
    holds a line the rules do not give (`cwx check` names it)."""
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
                    after = f" (after {', '.join(entry.recent)})" if entry.recent else ""
                    if f"{name}: {difference.refused}{after}" not in refused:
                        refused.append(f"{name}: {difference.refused}{after}")
                elif numbers_only and not (ledger.is_number(entry.value) or
                                           ledger.is_number(difference.file)):
                    kept.append(f"{name} [{key}]")
                else:
                    value = ledger.settled(entry.value, difference.file, rules(key))
                    change.set(path, journal.split(key), value, correction=True)
                    corrected.append(Corrected(name, key, difference.file, value))
        if any(c.key and systems.conserved(c.key) for c in corrected):
            refused += _supply_kept(camp, folded, change, paths, corrected)
        if refused:
            raise RuleForbids("the ledger cannot settle this alone, so cwx changed nothing: "
                              + "; ".join(refused) + ". Edit the files as the table decides, "
                              "then cwx adopt them together", path=change.journal)
        # A line the rules do not give is never followed, by the hooks after a merge nor
        # by hand: check names it, with the undo that settles it.
        if corrected and (forged := _unruled(camp)):
            raise RuleForbids(f"the journal holds a line the rules do not give, which no file "
                              f"is brought to, so cwx changed nothing: line {forged[0].line}: "
                              f"{forged[0].message}", path=change.journal)
        for path in paths:
            if change.loaded.get(path) and change.loaded[path].edits and \
                    (problem := sheet_problem(change, path)):
                raise RuleForbids(f"its ledger values make a sheet the rules refuse "
                                  f"({problem.message}); edit it as the table decides, then "
                                  "cwx adopt it", path=path, key=problem.key)
        if corrected:
            change.record({"corrected": len(corrected)})
    return corrected


def _unruled(camp: Campaign) -> list[CwxError]:
    """What `cwx check` names of the journal as the rules do not give (its re-play, read
    again: asked only where a reconcile would bring a file to the ledger)."""
    from cwx.campaign import ruled as ruling

    ruled = ruling.Ruled(lambda kept: given(camp.journal_file, kept))
    return ruled.found(camp.journal_file, camp.ledger(each=ruled.note))


def _supply_kept(camp: Campaign, folded: ledger.Ledger, change: Change, paths: list[str],
                 corrected: list[Corrected]) -> list[str]:
    """Why dice the corrections move would break W9: the ledger's dice in files that are
    gone, or files that would not hold the campaign's supply (the ledger drifted: a double
    spend, or a file made anew, or moved, on two clones at once)."""
    said = []
    if uncounted := camp.uncounted(folded, map(change.name_of, paths)):
        named = [f"{name}: {held}" for name, held in sorted(uncounted.items())[:3]]
        more = f", and {len(uncounted) - 3} more `cwx check` names" if len(uncounted) > 3 else ""
        said.append("the ledger's dice in files that are gone or no longer the campaign's ("
                    + ", ".join(named) + more + ") would be lost; restore them, or cwx adopt "
                    "each with the files that hold its dice now")
    after, supply = _dice_after(change, paths, corrected), folded.supply()
    if after != supply:
        said.append(f"the files would hold {after.said()}, and the campaign's supply is "
                    f"{supply.said()} (W9: a double spend, one die spent on two clones at "
                    "once; or a file made anew or moved on two clones at once; or play the "
                    "journal misses)")
    return said


def _dice_after(change: Change, paths: list[str], corrected: list[Corrected]) -> ledger.Dice:
    """The whites and blacks the campaign's files hold once `corrected`."""
    total = ledger.NO_DICE
    for path in paths:
        values = ledger.values_of(change.data(path))
        name = change.name_of(path)
        values.update({c.key: c.after for c in corrected if c.file == name and c.key})
        total = total.plus(ledger.dice_of(values))
    return total


# ---------------------------------------------------------------- adopt


class Adopted(Record):
    """What an adopt took into the ledger, and how it changed the campaign's supply."""

    corrected: list[Corrected]
    supply: ledger.Dice  # the change (NO_DICE: the dice only moved between files)
    total: ledger.Dice  # the supply after it
    player: str | None = None  # who adopted (the GM, where the supply changed and gm is set)


def adopt(open_: Opened, paths: Sequence[str], *, supply: bool = False) -> Adopted:
    """Journal each key whose file value differs from the ledger's (a file with no
    history: its whole text), so the table's word joins the ledger; a file gone leaves it.
    Dice move between files; only with `supply` (the GM's word) do they enter or leave."""
    from cwx.campaign import files

    camps = {Campaign.around(path).root for path in paths}
    if None in camps or len(camps) > 1:
        raise BadFile("adopt takes files of one campaign (cwx init marks one)",
                      path=" ".join(paths))
    camp = Campaign.around(paths[0])
    if supply:  # dice into the campaign or out of it: the GM's word, where gm names GMs
        from cwx.campaign import seal

        seal.by_a_gm(camp, "adds dice to the campaign or takes them away (adopt --supply)")
    paths = files.each_once(paths)  # a file named twice (or by a link too) adopted once
    # A file gone (moved by git, say) is not written, nor its folder locked: it may be gone.
    here = [path for path in paths if os.path.lexists(path)]
    adopted: list[Corrected] = []
    with open_("adopt", here, camp) as change:
        folded = camp.ledger()
        changes: list[journal.Edit] = []
        leaving: list[str] = []  # files gone: their keys leave the ledger
        brought = ledger.NO_DICE  # the dice the adopt adds to the ledger's (less, below 0)
        for path in paths:
            name, gone = change.name_of(path), path not in here
            if gone and name not in folded.known:
                raise BadFile("no such file, and the ledger knows none of that name", path=path)
            data = {} if gone else _adoptable(change, camp, path)
            if gone:
                leaving.append(path)
            if name not in folded.known or (not gone and _anew(folded, name, data)):
                text = change.bytes_of(path).decode("utf-8")
                changes.append(journal.Edit(name, None, None, None, text=text))
                adopted.append(Corrected(name, None, None, None))
                brought = brought.plus(ledger.dice_of(ledger.values_of(data))).minus(
                    folded.held_dice(name) if name in folded.known else ledger.NO_DICE)
                continue
            values, known = ledger.values_of(data), folded.values(name)
            for key in sorted(set(values) | set(known)):
                was = known[key].value if key in known else None
                if not ledger.same(key, was, values.get(key)):
                    changes.append(journal.Edit(name, key, was, values.get(key)))
                    adopted.append(Corrected(name, key, was, values.get(key)))
                    # Below 0 (two clones took it out at once) is no die to take.
                    before = {key: max(was, 0) if gone and type(was) is int else was or 0}
                    brought = brought.plus(ledger.dice_of({key: values.get(key) or 0})).minus(
                        ledger.dice_of(before))
        # The ledger's dice after it: the supply's, or (the GM's word) the new supply.
        after, before = folded.total().plus(brought), folded.supply()
        changed = after.minus(before) if supply and brought != ledger.NO_DICE else ledger.NO_DICE
        if brought != ledger.NO_DICE and after != before and not supply:
            _dice_kept(camp, folded, paths, leaving, brought)
        if changes:
            result: dict[str, Any] = {"adopted": len(adopted)}
            if changed != ledger.NO_DICE:  # journaled as the GM changing the campaign's dice
                result["supply"] = {"white": changed.white, "black": changed.black}
            change.record(result, changes=changes, file=paths[0] if len(paths) == 1 else None)
    from cwx.campaign import players

    return Adopted(adopted, changed, before.plus(changed),
                   players.current(camp.root) if camp.root is not None else None)


def _anew(folded: ledger.Ledger, name: str, data: Mapping[str, Any]) -> bool:
    """Whether the table's word on a file starts its history anew (its whole text
    journaled): it was made on two clones at once, or it is of another system than the
    ledger's, whose keys would otherwise stay beside the new ones."""
    was = folded.values(name).get("system")
    return name in folded.collisions or (was is not None and was.value != data.get("system"))


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
               leaving: list[str], brought: ledger.Dice) -> None:
    """An adopt moves dice between files, never makes or destroys them (W9): only the GM's
    word (--supply) changes the campaign's dice."""
    from cwx.base.hints import typed

    more = " ".join(map(typed, paths))
    change = ", ".join(f"{'+' if n > 0 else '-'}{plural(abs(n), colour)}" for n, colour in
                       ((brought.white, "white"), (brought.black, "black")) if n)
    missing = [name for name, held in camp.gone(folded).items() if held > 0]
    if not leaving and missing and brought.white + brought.black > 0:
        hint = (f"if they are the dice of {' and '.join(missing)}, gone, adopt it with them "
                f"(cwx adopt {typed(missing[0])} {more}), so they are counted once; ")
    elif leaving:
        hint = (f"{' and '.join(leaving)} {'is' if len(leaving) == 1 else 'are'} gone: "
                "restore it and cwx retire it (a character's dice go back to the reserve, a "
                "bag's leave with it), or put its dice where the table decides and name "
                "those files in the same adopt; ")
    elif apart := _dice_apart(camp, folded, paths, brought):
        together = " ".join(map(typed, [*paths, *apart]))
        hint = (f"{', '.join(apart)} differ{'s' if len(apart) == 1 else ''} from the ledger "
                f"the other way (the same die given back, or spent, on two clones?): edit "
                f"{'it' if len(apart) == 1 else 'them'} too as the table decides and adopt "
                f"them together (cwx adopt {together}); ")
    else:
        hint = "name the files the dice came from in the same adopt; "
    raise RuleForbids(
        f"this adopt would change the campaign's dice by {change} (its supply is "
        f"{folded.supply().said()}; W9: dice are never made or destroyed): {hint}or, if the "
        f"GM means the campaign to hold them, cwx adopt {more} --supply", path=paths[0])


def _dice_apart(camp: Campaign, folded: ledger.Ledger, paths: Sequence[str],
                brought: ledger.Dice) -> list[str]:
    """The campaign's other files whose dice differ from the ledger's the other way from
    what an adopt brings: where the dice it makes (or destroys) went, or came from."""
    named = {os.path.realpath(path) for path in paths}
    found = []
    for member in camp.members(lambda _: None):
        if os.path.realpath(member.path) in named:
            continue
        name = camp.name_of(member.path)
        if name not in folded.known:
            continue
        apart = ledger.dice_of(ledger.values_of(member.data)).minus(folded.held_dice(name))
        if apart.white * brought.white < 0 or apart.black * brought.black < 0:
            found.append(member.path)
    return found


# ---------------------------------------------------------------- retire


class Retired(Record):
    """A file retired: what it was, the dice it held and where they went."""

    file: str  # as the journal names it
    kind: str  # "character", or another kind's name ("bag")
    dice: ledger.Dice  # what it held: back to the reserve, or out of the campaign
    bag: str | None  # the bag whose reserve took a character's dice back
    supply: ledger.Dice  # the campaign's supply after it
    finished: bool = False  # only the file was left to remove (an interrupted retire)


class Retirement(Record):
    """A file retired, and what kept its file from being removed (None: removed)."""

    retired: Retired
    trouble: str | None


def retire(open_: Opened, camp: Campaign, file: str, bag: str | None) -> Retired:
    """Take a file out of the campaign: a character's dice back to the reserve of `bag`
    (or the campaign's), a bag's dice out with it (the supply lowered by them); its keys
    journaled to 0. Refused while the file and its ledger differ. `removed` removes it."""
    if os.path.islink(file):
        raise BadFile("is a link; retire the file it leads to", path=file)
    name = camp.name_of(file)
    peeked = _peek(file)
    holds = ledger.dice_of(ledger.values_of(peeked))
    if sheets.kind_of(peeked) == "character" and holds != ledger.NO_DICE:
        bag = camp.bag(bag)  # its dice go back to a reserve: which one
    elif holds != ledger.NO_DICE:  # a bag's dice leave the campaign with it
        from cwx.campaign import seal

        seal.by_a_gm(camp, "takes dice out of the campaign (a bag retired takes its dice)")
    paths = [file] + ([bag] if bag is not None and holds != ledger.NO_DICE else [])
    with open_("retire", paths, camp) as change:
        folded = camp.ledger()
        data = change.data(file)
        kind = sheets.kind_of(data)
        if kind is None:
            raise BadFile("is not a character or bag file; there is nothing to retire",
                          path=file)
        values = ledger.values_of(data)
        if folded.retired_since(name) and not any(v for v in values.values()
                                                  if ledger.is_number(v) and v):
            return Retired(name, kind, ledger.NO_DICE, None, folded.supply(), finished=True)
        _as_the_ledger_says(folded, name, values, file)
        dice = ledger.dice_of(values)
        if dice != holds:
            raise Conflict("the file changed while cwx read it; run cwx retire again", path=file)
        rules = folded.rules(name)
        for key, value in values.items():
            rule = rules(key)
            if ledger.is_number(value) and value and rule.whole and not rule.absent_at_zero:
                change.set(file, journal.split(key), 0)
        result: dict[str, Any] = {"retired": name, "kind": kind,
                                  "dice": {"white": dice.white, "black": dice.black},
                                  **_saw(change, file)}
        supply = folded.supply()
        if kind == "character" and dice != ledger.NO_DICE:
            assert bag is not None
            from cwx.systems import bag as bags

            held = change.bag(bag)
            change.save(bag, held, bags.taken_back(held, dice.white, dice.black))
        elif kind != "character":
            supply = supply.minus(dice)
            result["supply"] = {"white": -dice.white, "black": -dice.black}
        sheet_name = data.get("name") if kind == "character" else None
        change.record(result, changes=[journal.Edit(name, None, None, None, removed=True)],
                      who=sheet_name if isinstance(sheet_name, str) else None, file=file,
                      bag=bag if len(paths) > 1 else None)
    return Retired(name, kind, dice, bag if len(paths) > 1 else None, supply)


def _peek(file: str) -> dict[str, Any]:
    """A file's data before its lock is taken: only to know which files to lock."""
    from cwx.toml import tomlread

    return tomlread.parse(tomlread.read_bytes(file), file)


def _as_the_ledger_says(folded: ledger.Ledger, name: str, values: dict[str, Any],
                        file: str) -> None:
    """A file is retired as the ledger knows it: what it holds must be what it earned."""
    if name not in folded.known:
        raise RuleForbids("has no history in the ledger; cwx adopt it first (then retire it)",
                          path=file)
    for difference in folded.differences(name, values):
        if ledger.is_number(difference.file) or ledger.is_number(difference.ledger.value):
            raise RuleForbids(
                f"{difference.key} is {difference.file} in the file and "
                f"{difference.ledger.value} in the ledger: `cwx reconcile` or `cwx adopt` it "
                "first, so what leaves with it is what it holds", path=file,
                key=difference.key)


def removed(file: str) -> str | None:
    """Remove a retired file, and from git's index if git tracks it; what went wrong, or
    None."""
    from cwx.git import repo

    tracked = repo.tracks(file)
    try:
        os.unlink(file)
    except FileNotFoundError:
        pass
    except OSError as error:
        return f"cwx could not remove it ({error.strerror}): remove it by hand"
    clone = repo.of(os.path.dirname(os.path.abspath(file)))
    if tracked and clone is not None:
        relative = os.path.relpath(os.path.realpath(os.path.dirname(os.path.abspath(file))),
                                   clone.top)
        where = os.path.normpath(os.path.join(relative, os.path.basename(file)))
        done = repo.run(clone, "rm", "--cached", "--quiet", "--ignore-unmatch", "--",
                        f":(literal){where}")
        if done.returncode != 0:
            return "cwx removed it, but could not `git rm` it: run `git rm` yourself"
    return None


# ---------------------------------------------------------------- undo


class Undoing(Record):
    """What an undo takes back (`target`, whose inverse it applies), and the change of the
    game that makes it again or no more (`change`: the same, but for a redo's chain)."""

    target: journal.Event
    change: journal.Event
    redo: bool = False  # `change` is made again (else taken back)
    restored: tuple[Corrected, ...] = ()  # each key as the undo sets it
    ledger_only: tuple[Corrected, ...] = ()  # each key it takes back in the journal alone
    unruled: bool = False  # `target` holds a change the rules do not give (check names it)
    # The turns and game ends it had pre-empted, which count again, and those it makes
    # count no more (a redo pre-empts again), and each sheet key brought to what they give.
    freed: tuple[journal.Event, ...] = ()
    pre_empted: tuple[journal.Event, ...] = ()
    followed: tuple[Corrected, ...] = ()


class _Undos(Record):
    """The journal's undos, read once: which count, what each takes back."""

    void: set[str]
    undone: set[str]
    counting: dict[str, str]  # a change -> the undo that counts for it
    undoes: dict[str, str]  # a counting undo -> what it takes back


def _undos(read: history.Journal) -> _Undos:
    turns = read.turns()
    void, undone = turns.void(), turns.undone()
    counting = {target: min(undos)[1] for target, undos in turns.undos.items()
                if min(undos)[1] not in void}
    return _Undos(void, undone, counting, {undo: target for target, undo in counting.items()})


class _Asked(Record):
    """Whose change an undo looks for, and which."""

    name: str | None  # of this file only
    player: str | None  # by this player only
    redo: bool


def _why_not(event: journal.Event, asked: _Asked, undos: _Undos,
             read: history.Journal) -> str | None:
    """Why `event` is not one this undo may take back (None: it may)."""
    from cwx.journal import events

    if event.id in undos.void:
        return "counts for nothing (another undo, turn or game end of the same came first)"
    if event.id in undos.undone:
        return "is undone already"
    if asked.name is not None and event.file != asked.name and \
            all(c.file != asked.name for c in event.changes):
        return f"is no change of {asked.name}"
    if asked.player is not None and event.player is not None and \
            not journal.same_player(event.player, asked.player):  # None: before players
        return f"is {event.player}'s, not {asked.player}'s (--player NAME names another player)"
    if asked.redo:
        if event.undoes is None or _root(event, undos.undoes) not in undos.undone:
            return "is no undo standing, so there is nothing of it to redo"
        return None
    kind = events.kind(event.command)
    if event.undoes is not None or not kind.undoable or \
            not (kind.action or any(c.key is not None for c in event.changes)):
        return f"is a `{event.command}`, which undo never takes back"
    if kind.pending and event.id in read.guesses().settled:  # the reveal's now, which no undo takes back
        return "is a guess the reveal settled"
    return None


def _asked(name: str | None, player: str | None, redo: bool) -> _Asked:
    return _Asked(name, player, redo)


def latest_undoable(path: str, name: str | None, player: str | None,
                    redo: bool = False) -> Undoing:
    """`player`'s most recent change (of the file `name`, if given) not yet undone and
    counting in the ledger (an action that changed no file, a failed draw, is one too);
    with `redo`, their most recent undo still standing. A change undone and redone before
    is undone again by undoing its redo: each change has one chain of undos."""
    from cwx.journal import clock

    with history.opened(path, _witness(path)) as read:
        undos, asked = _undos(read), _asked(name, player, redo)
        # The last played, in log's order (`at`, ties in the journal's), and the one
        # before it; and the latest stamp before each in the journal's lines, to see a
        # leap ahead.
        best: journal.Event | None = None
        before: journal.Event | None = None
        stamped_before, latest = "", ""
        for event in history.every(path):
            if (before is None or (event.when, event.line) > (before.when, before.line)) \
                    and _why_not(event, asked, undos, read) is None:
                if best is None or (event.when, event.line) > (best.when, best.line):
                    best, before, stamped_before = event, best, latest
                else:
                    before = event
            latest = max(latest, event.when)
    if best is not None and clock.leaps(best.when, stamped_before or None, clock.DAY,
                                        time.time()):
        raise RuleForbids(_leapt(best, before, redo), path=path)
    if best is None:
        what, verb = ("undo", "redo") if redo else ("change", "undo")
        whose = f" of {name}" if name else ""
        by = f" (by {player}; --player NAME names another player)" if player else ""
        raise RuleForbids(f"there is no {what}{whose} left to {verb}{by}", path=path)
    return _undoing(path, best, undos)


def _leapt(best: journal.Event, before: journal.Event | None, redo: bool) -> str:
    """Why undo doubts the latest change is the one meant, and what to run instead."""
    flag = " --redo" if redo else ""
    then = f"; `cwx undo{flag} {before.id[:12]}` takes back the `{before.command}` before " \
        "it" if before is not None else ""
    return (f"the latest {'undo' if redo else 'change'} in the journal's order, "
            f"`{best.command}` {best.id[:12]}, is stamped {times.shown(best.when)}, more "
            "than a day ahead of this machine's clock and of every line before it (a clone's "
            "clock far wrong, or a line written to be undone), so cwx does not guess it is "
            f"the one you mean: `cwx undo{flag} {best.id[:12]}` takes it back{then}")


def named_undoable(path: str, wanted: str, name: str | None, player: str | None,
                   redo: bool = False) -> Undoing:
    """The event whose id is `wanted` (or starts so, as git takes a short hash), taken back
    by the same rules as the latest: a change that stands is undone; an undo that stands
    is undone, which makes its change again; with `redo`, a change undone (or the undo
    that took it back) is made again."""
    with history.opened(path, _witness(path)) as read:
        return _named(read, _by_id(path, wanted), name, player, redo)


def _named(read: history.Journal, event: journal.Event, name: str | None,
           player: str | None, redo: bool) -> Undoing:
    """named_undoable, the journal open: every question of it answered by one model."""
    path = read.path
    undos = _undos(read)
    if event.undoes is not None and event.id not in undos.undone | undos.void:
        root = _root(event, undos.undoes)
        if root in undos.undone:
            redo = True  # undoing an undo makes its change again
        elif not redo:  # undoing a redo takes its change back again
            event = history.event(path, root) or event
    elif event.undoes is None and redo:
        if event.id not in undos.undone:
            raise RuleForbids(f"{event.id[:12]} (`{event.command}`) is not undone, so there "
                              "is nothing to redo; cwx undo ID takes it back", path=path)
        event = history.event(path, _last_link(event.id, undos)) or event
    elif event.id in undos.undone:
        raise RuleForbids(f"{event.id[:12]} (`{event.command}`) is undone already; cwx undo "
                          f"--redo {event.id[:12]} makes it again", path=path)
    why = _why_not(event, _asked(name, player, redo), undos, read)
    # Asked even where this undo may take the event back anyway (a line naming no player,
    # or the player's own): a sheet that never took it is then kept. Whether a resolve
    # was played with the ledger's score (a fold of the journal) only where it decides.
    unruled = event.id not in undos.undone | undos.void and (
        _astray(read, event) or _misundone(read, event) or _for_good(read, event) or
        (not redo and (
            _forged(event) or _settles_in_vain(read, event) or _remade(read, event) or
            _started_astray(read, event) or (why is not None and _misplayed(read, event)) or
            _sealed_over(read, event, read.undone()) or _revealed_apart(read, event))))
    if unruled:
        why = None  # `cwx check` names it (a change no rule gives): anyone takes it back
    if why is not None:
        raise RuleForbids(f"cannot undo {event.id[:12]} (`{event.command}`): it {why}",
                          path=path)
    return _undoing(path, event, undos)._replace(unruled=unruled)


def _witness(path: str) -> Any:
    """What holds the journal's reveals beyond its lines, as check holds them (the GMs,
    git's order of two reveals of one number: guesses.witness)."""
    from cwx.campaign import guesses

    return guesses.witness(path)


def given(path: str, kept: Sequence[journal.Event]) -> set[str]:
    """The ids of `kept`, events of a kind undo never takes back (a reveal, a seal, a
    retirement, a making), that the rules give: `cwx check` would name none of them were
    it standing. An undo of one of those is one no rule gives (check names it)."""
    with history.opened(path, _witness(path)) as read:
        return {event.id for event in kept if not _given_by_no_rule(read, event)}


def reveals_not_given(path: str) -> list[str]:
    """Each reveal standing whose line the rules do not give, re-played as `cwx check`
    re-plays it (rederive), and each reveal the rules give that an undo takes back (no `cwx
    undo` does: check names the undo), in words, for `cwx clock verify`."""
    from cwx.journal import rederive, sealed

    counting = sealed.counted(path, witness=_witness(path))
    undone = counting.turns.undone()
    standing = {reveal for reveal, _ in counting.reveals if reveal not in undone}
    forged: list[rederive.Forged] = []
    for event in history.with_ids(path, standing) if standing else ():
        if event.id in standing and event.undoes is None and len(forged) < rederive.SHOWN:
            standing.discard(event.id)  # a copy of the line (git's union) is the same line
            forged += rederive.replayed(event)
    named = rederive.unique({item.event for item in forged},
                            history.alike(path, {item.event for item in forged})) \
        if forged else {}
    said = [rederive.told(item, named.get(item.event)) for item in forged]
    wanted = {reveal for reveal, _ in counting.reveals if reveal in undone}
    given_ = given(path, list(history.with_ids(path, wanted))[:100]) if wanted else set()
    return said + [
        f"reveal {reveal[:8]} is taken back by undo {min(counting.turns.undos[reveal])[1][:8]}"
        ", which no rule gives (`cwx check` names it, with the undo that settles it)"
        for reveal in sorted(given_) if counting.turns.undos.get(reveal)]


def _given_by_no_rule(read: history.Journal, event: journal.Event) -> bool:
    """Whether `cwx check` names `event` as a change the rules do not give, were it not
    undone (anyone's to take back)."""
    undone = read.undone() - {event.id}
    return _forged(event) or _settles_in_vain(read, event, undone) or \
        _remade(read, event, undone) or _started_astray(read, event) or \
        _misplayed(read, event) or _sealed_over(read, event, undone) or \
        _revealed_apart(read, event)


def _revealed_apart(read: history.Journal, event: journal.Event) -> bool:
    """Whether `event` is a reveal made on a history apart from another reveal of its
    number that git orders by nothing (`cwx check` names the pair): one is a copy, and
    anyone takes either back (the GM says which)."""
    from cwx.journal import sealed

    if event.command != sealed.REVEALING:
        return False
    return event.id in sealed.counted(read.path, witness=read.witness).tied()


def _sealed_over(read: history.Journal, event: journal.Event, undone: set[str]) -> bool:
    """Whether `event` is a seal over a number guesses wait on that says nothing of it
    (`cwx check` names it): anyone takes it back, and the guesses wait on their number."""
    from cwx.journal import sealed

    if event.command != sealed.SEALING:
        return False
    counting = sealed.counted(read.path, seals=True, witness=read.witness)
    return any(seal == event.id for _, seal, _, _ in
               counting.sealed_over_silently(counting.board(), undone))


def _for_good(read: history.Journal, event: journal.Event) -> bool:
    """Whether `event` is an undo of an event of a kind undo never takes back that the
    rules give (`cwx check` names it): anyone takes it back, which makes the event again."""
    from cwx.journal import events

    target = history.event(read.path, event.undoes) if event.undoes is not None else None
    return target is not None and target.undoes is None and \
        not events.kind(target.command).undoable and bool(given(read.path, [target]))


def _forged(event: journal.Event) -> bool:
    """Whether the rules do not give a change of `event` (docs/rules.md, "What check
    proves"): its kind, stamp or player then keep no one from taking it back."""
    from cwx.journal import rederive

    return bool(rederive.replayed(event)) if event.undoes is None else False


def _started_astray(read: history.Journal, event: journal.Event) -> bool:
    """Whether `event` starts a count of dice from what no clone held at its line (`cwx
    check` names it): anyone takes it back."""
    from cwx.journal import rederive

    return event.undoes is None and any(c.key is not None for c in event.changes) and \
        rederive.started_astray(read.path, event)


def _remade(read: history.Journal, event: journal.Event,
            undone: set[str] | None = None) -> bool:
    """Whether `event` makes a character anew over one that earned experience or bought
    traits (`cwx check` names it): anyone takes it back."""
    from cwx.journal import rederive

    if event.command != "char new":
        return False
    undone = read.undone() if undone is None else undone
    if not all(c.created for c in event.changes) and \
            rederive.remade_over_earned(read.path, event, undone):
        return True
    # One that says it never saw what was earned, where git shows its clone had it.
    earned = rederive.remade_unseen(read.path, event, undone)
    if not earned:
        return False
    from cwx.git import unsettled

    root = os.path.dirname(os.path.abspath(read.path))
    return bool(unsettled.held_before(root, dict.fromkeys(earned, event.id)))


def _misplayed(read: history.Journal, event: journal.Event) -> bool:
    """Whether `event` was played with a value the ledger did not hold at its place (a
    resolve's trait score; `cwx check` names it): anyone takes it back."""
    from cwx.journal import ledger, rederive

    return event.undoes is None and bool(rederive.reads(event)) and \
        bool(rederive.misread(event, ledger.read(read.path)))


def _astray(read: history.Journal, event: journal.Event) -> bool:
    """Whether `event` is an undo (or redo) of an event no line holds that changes a key
    (`cwx check` names it: the rules give no change): anyone takes it back."""
    return event.undoes is not None and any(
        c.key is not None and not c.correction and c.before != c.after
        for c in event.changes) and history.event(read.path, event.undoes) is None


def _misundone(read: history.Journal, event: journal.Event) -> bool:
    """Whether `event` is an undo (or redo) that changes other than the take-back of the
    event it names (`cwx check` names it): anyone takes it back."""
    from cwx.journal import rederive

    if event.undoes is None:
        return False
    target = history.event(read.path, event.undoes)
    return target is not None and not rederive.takes_back(event, target)


def _settles_in_vain(read: history.Journal, event: journal.Event,
                     undone: set[str] | None = None) -> bool:
    """Whether `event` is a reveal that settles a guess never made, or one settled already,
    or a game's end that settles a draw it cannot (`cwx check` names it): anyone takes it
    back."""
    from cwx.campaign import guesses
    from cwx.journal import events

    if events.kind(event.command).settles:
        return any(end.id == event.id for end, _, _ in read.ended_in_vain())
    if guesses.SETTLED not in event.result:  # a reveal, or a line settling with none
        return False
    return any(reveal == event.id for _, reveal, _, _ in read.settled_in_vain(undone))


MIN_PREFIX = 4  # as git: fewer digits name too many events to be meant


def _by_id(path: str, wanted: str) -> journal.Event:
    """The one event whose id is `wanted` or starts with it."""
    from cwx.base.hints import typed

    given = wanted.strip().casefold()
    if len(given) < MIN_PREFIX or len(given) > journal.MAX_ID:
        raise BadValue(f"{typed(wanted)}: give an event's id, or at least its first "
                       f"{MIN_PREFIX} characters (cwx log shows them)")
    found = history.starting(path, wanted.strip())
    if not found:
        raise BadValue(f"no event of the journal has an id starting {typed(wanted)}; cwx log "
                       "shows each event's", path=path)
    if len(found) > 1:
        named = ", ".join(sorted(f"{e.id} (`{e.command}`)" for e in found.values())[:5])
        raise BadValue(f"{typed(wanted)} starts the ids of {len(found)} events ({named}); "
                       "give more of it", path=path)
    return next(iter(found.values()))


def _last_link(id_: str, undos: _Undos) -> str:
    """The last undo of a change's chain (an undo, its redo, that redo's undo...): the
    one whose undoing turns the change over."""
    link, seen = id_, {id_}
    while link in undos.counting and undos.counting[link] not in seen:
        link = undos.counting[link]
        seen.add(link)
    return link


def _undoing(path: str, best: journal.Event, undos: _Undos) -> Undoing:
    """What taking back `best` does: a redo (an undo undone), or an undo of a change, whose
    chain's last link is what is taken back."""
    if best.undoes is not None:
        change = history.event(path, _root(best, undos.undoes)) or best
        return Undoing(best, change, redo=change.id in undos.undone)
    link = _last_link(best.id, undos)
    return Undoing(history.event(path, link) or best if link != best.id else best, best)


def _root(undo: journal.Event, undoes: dict[str, str]) -> str:
    """The change at the start of an undo's chain (an undo of an undo... of it), by what
    each counting undo `undoes`."""
    at, seen = undo.undoes or undo.id, {undo.id}
    while at in undoes and at not in seen:
        seen.add(at)
        at = undoes[at]
    return at


def named(event: journal.Event) -> EventNamed:
    """An event as an undo's result names it."""
    return {"id": event.id, "command": event.command, "at": event.at, "who": event.who,
            "player": event.player}


def undid(undoing: Undoing) -> Undid:
    """An undo: the journal's result, and --json's (`undid`: the event it takes back;
    `change`: the change of the game that is undone or redone by it; `redo`: which)."""
    return {"undid": named(undoing.target), "change": named(undoing.change),
            "redo": undoing.redo}


def undo(open_: Opened, camp: Campaign, char: str | None, player: str | None, *,
         redo: bool = False, named: str | None = None) -> Undoing:
    """Undo `player`'s most recent change not yet undone (of `char`, if given), or the one
    `named` by its id, by its inverse, journaled as an undo; with `redo`, undo their latest
    undo instead. Whole numbers go back by their delta, any other value only if it still
    holds what was written."""
    journal_path = camp.journal_file
    name = camp.name_of(char) if char else None

    def chosen() -> Undoing:
        if named is not None:
            return named_undoable(journal_path, named, name, player, redo)
        return latest_undoable(journal_path, name, player, redo)

    undoing = chosen()
    target = undoing.target
    from cwx.campaign import supplying

    supplying.refuse_undo(camp, target)  # dice in or out of the campaign: the GM's word
    touched = {camp.named(c.file): c.file for c in target.changes if c.key}
    if retired := _retired_after(journal_path, set(touched.values()), target):
        raise RuleForbids(f"cannot undo `{target.command}`: {retired} was retired since, "
                          "and a retirement is final (its dice are back where they belong); "
                          "make the character anew instead", path=os.path.relpath(journal_path))
    gone = [named for file, named in touched.items() if not os.path.lexists(file)]
    if gone:  # undo never walks past a change it cannot take back
        raise RuleForbids(f"cannot undo `{target.command}`: {', '.join(gone)}, which it "
                          "changed, is gone; restore it (git checkout it) to undo it",
                          path=os.path.relpath(journal_path))
    # Journaled where the undone change was: the journal read, whatever its line says.
    with open_("undo", sorted(touched), camp) as change:
        if chosen().target.id != target.id:
            raise Conflict("the journal changed while cwx read it; run cwx undo again",
                           path=journal_path)
        if undoing.redo:
            _turned_since(journal_path, undoing.change)
            _guess_still_open(journal_path, undoing.change)
        back = _take_back(change, camp, target, unruled=undoing.unruled)
        flips = _flips(change, camp, target)
        _refused(change, camp, target, flips.followed)
        change.record(undid(undoing), who=target.who,
                      file=camp.named(target.file) if target.file else None,
                      bag=camp.named(target.bag) if target.bag else None,
                      undoes=target.id,
                      changes=[journal.Edit(item.file, item.key, item.before, item.after)
                               for item in back.ledger_only])
    return undoing._replace(restored=tuple(back.restored),
                            ledger_only=tuple(back.ledger_only), freed=flips.freed,
                            pre_empted=flips.pre_empted, followed=flips.followed)


def _retired_after(path: str, names: set[str], target: journal.Event) -> str | None:
    """A file of `names` retired after the change `target` (which undo then never takes
    back: the retirement moved its dice as they were)."""
    for item in history.retiring(path):
        if item.order > target.order:
            for step in item.changes:
                if step.removed and step.file in names:
                    return step.file
    return None


def _turned_since(path: str, redone: journal.Event) -> None:
    """A turn (a luck spend, a curse) is redone only while no other turn of its draw
    stands: a draw is turned once."""
    from cwx.journal import events

    draw = redone.result.get("turns")
    if not events.kind(redone.command).turn or not isinstance(draw, str):
        return
    with history.opened(path, _witness(path)) as read:
        turned = read.turns().by(draw)
    if turned is not None:
        raise RuleForbids(f"cannot redo `{redone.command}`: its draw was turned again since "
                          "(a draw is turned once); undo that turn first", path=path)


def _guess_still_open(path: str, redone: journal.Event) -> None:
    """A guess on a sealed number is made again only while it could be made anew: its
    seal not revealed, the character guessing on it no more (else a player who undid a
    guess for every number would redo the right one once the number is shown)."""
    from cwx.campaign import guesses
    from cwx.journal import events

    if not events.kind(redone.command).pending:
        return
    guess = guesses.guess_of(redone)
    found = guesses.board(path)
    if guess is None or guess.commitment in found.revealed or \
            any(other.file == guess.file for other in found.on(guess.commitment)):
        raise RuleForbids(f"cannot redo `{redone.command}`: its sealed number was revealed "
                          "since, or the character guesses on it again; a guess is made "
                          "once, before the reveal", path=path)


class _Flips(Record):
    """The turns and ends an undo makes count again (`freed`) or no more, and each sheet
    key it brings to what they give (`followed`)."""

    freed: tuple[journal.Event, ...] = ()
    pre_empted: tuple[journal.Event, ...] = ()
    followed: tuple[Corrected, ...] = ()


def _flips(change: Change, camp: Campaign, target: journal.Event) -> _Flips:
    """Of a turn or game's end taken back, the one it pre-empted counts again (and of one
    made again, the one it pre-empts no more): the sheets follow it, by corrections (the
    ledger counts the event itself), each key by its delta, unless the sheet holds what
    the ledger will already (a hook that never followed a forged line left it there)."""
    path = camp.journal_file
    with history.opened(path, _witness(path)) as read:
        freed_ids, voided_ids = read.turns().taken_back(target.id)
    if not freed_ids and not voided_ids:
        return _Flips()
    flipped = list(history.with_ids(path, freed_ids | voided_ids))
    deltas: dict[tuple[str, str], int] = {}
    for event in flipped:
        sign = 1 if event.id in freed_ids else -1
        for file, key, delta in _deltas(event.changes):
            deltas[(file, key)] = deltas.get((file, key), 0) + sign * delta
    undone = {(file, key): delta for file, key, delta in _deltas(target.changes)}
    folded = ledger.read(path)
    followed = []
    for (file, key), delta in deltas.items():
        where = camp.named(file)
        if delta == 0 or not os.path.lexists(where):
            continue
        loaded = change.data(where)
        sheet = tomledit.value_at(tomledit.with_edits(loaded, change.loaded[where].edits),
                                  journal.split(key))
        then = (_ledger_value(folded, file, key) or 0) - undone.get((file, key), 0) + delta
        if not (sheet is None or ledger.is_number(sheet)) or ledger.same(key, then, sheet):
            continue
        value = ledger.settled((sheet or 0) + delta, sheet,
                               systems.rules(ledger.values_of(loaded))(key))
        change.set(where, journal.split(key), value, correction=True)
        followed.append(Corrected(file, key, sheet, value))
    return _Flips(tuple(e for e in flipped if e.id in freed_ids),
                  tuple(e for e in flipped if e.id in voided_ids), tuple(followed))


def _deltas(changes: Sequence[journal.Edit]) -> Iterator[tuple[str, str, int]]:
    """Each whole-number change the ledger counts, by its delta."""
    for step in changes:
        if step.key is not None and not step.correction and systems.follows(step.key) and \
                all(value is None or ledger.is_number(value)
                    for value in (step.before, step.after)):
            yield step.file, step.key, (step.after or 0) - (step.before or 0)


class _TakenBack(Record):
    """What an undo sets back: the keys of the sheets, and the take-backs it journals
    in the ledger alone (their sheets never took the change, or not all of it)."""

    restored: list[Corrected]
    ledger_only: list[Corrected]


def _take_back(change: Change, camp: Campaign, target: journal.Event, *,
               unruled: bool = False) -> _TakenBack:
    """Each key of `target` set back; what it was and what it is set to. Of a change the
    rules do not give (`unruled`: a forged line, which no hook makes a file follow), a
    key whose sheet parts from the ledger has its take-back journaled alone
    (`ledger_only`), and the sheet, unless it holds it already, brought to what the
    ledger then holds by a correction: the ledger adds up to the sheet either way."""
    from cwx import systems

    apart = _apart(change, camp, target) if unruled else {}
    restored, alone = [], []
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
        if (step.file, step.key) in apart:
            taken = apart[(step.file, step.key)]
            alone.append(taken)
            if not ledger.same(step.key, taken.after, current):
                back = ledger.settled(taken.after, current,
                                      systems.rules(ledger.values_of(data))(step.key))
                change.set(file, key, back, correction=True)
                restored.append(Corrected(step.file, step.key, current, back))
            continue
        try:
            back = ledger.undone(step.key, step.before, step.after, current,
                                 systems.rules(ledger.values_of(data))(step.key))
        except ValueError as error:
            raise RuleForbids(f"cannot undo `{target.command}`: {error}", path=file,
                              key=step.key) from None
        change.set(file, key, back)
        restored.append(Corrected(step.file, step.key, current, back))
    return _TakenBack(restored, alone)


def _refused(change: Change, camp: Campaign, target: journal.Event,
             followed: Sequence[Corrected]) -> None:
    """An undo that would leave a sheet the rules refuse is none: the sheets as it leaves
    them, the turns and ends it frees (or pre-empts again) followed."""
    files = {c.file for c in target.changes if c.key and not c.correction} | \
        {item.file for item in followed}
    for file in sorted(camp.named(name) for name in files):
        if problem := sheet_problem(change, file):
            raise RuleForbids(f"undoing `{target.command}` would leave a sheet the rules "
                              f"refuse ({problem.message})", path=file, key=problem.key)


def _apart(change: Change, camp: Campaign,
           target: journal.Event) -> dict[tuple[str, str], Corrected]:
    """The keys of `target` whose sheets part from the ledger (a forged line no hook
    followed, or followed in part), each with its take-back as the undo journals it:
    from the ledger's value to the ledger's without `target` (`cwx check` holds it to the
    change taken back: a whole number by its delta, any other value to what it was)."""
    from cwx import systems

    keyed = {(step.file, step.key): step for step in target.changes
             if step.key is not None and not step.correction and systems.follows(step.key)
             and os.path.lexists(camp.named(step.file))}
    if not keyed:
        return {}
    sheets = {where: tomledit.value_at(change.data(camp.named(where[0])),
                                       journal.split(where[1])) for where in keyed}
    folded = ledger.read(camp.journal_file)
    apart = [where for where in keyed
             if not ledger.same(where[1], _ledger_value(folded, *where), sheets[where])]
    if not apart:
        return {}  # every sheet took it: taken back from the sheets, as any undo
    without = ledger.read(camp.journal_file, void={target.id})
    found = {}
    for file, key in apart:
        step = keyed[(file, key)]
        was, then = _ledger_value(folded, file, key), _ledger_value(without, file, key)
        if all(value is None or ledger.is_number(value)
               for value in (was, then, step.before, step.after)):
            if (was or 0) - (then or 0) == (step.after or 0) - (step.before or 0):
                found[(file, key)] = Corrected(file, key, was, then)
        elif ledger.same(key, was, step.after) and ledger.same(key, then, step.before):
            found[(file, key)] = Corrected(file, key, step.after, step.before)
    return found


def _ledger_value(folded: ledger.Ledger, file: str, key: str) -> Any:
    found = folded.values(file).get(key)
    return None if found is None else found.value
