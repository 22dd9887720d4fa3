"""`cwx reconcile`: bring every file of the campaign to its ledger value."""

import os
from collections.abc import Callable
from typing import Any

import typer

from cwx import campaign, ledger, tomledit
from cwx.cli import views
from cwx.cli.common import CampaignFolder, changing, in_campaign
from cwx.cli.output import JsonFlag, emit
from cwx.errors import RuleForbids
from cwx.printable import printable

app = typer.Typer(name="reconcile", add_completion=False)


@app.command("reconcile")
def reconcile(
    folder: CampaignFolder = ".",
    json: JsonFlag = False,
) -> None:
    """Set every key that differs from the ledger to its ledger value, as one change the
    ledger does not count (after a git merge, say). Nothing to do changes nothing.

    Example: cwx reconcile
    """
    corrected = run(folder)
    emit(json, {"corrected": corrected}, lambda: _text(corrected))


def run(folder: str, *, numbers_only: bool = False, kept: list[str] | None = None,
        dice_before: Callable[[], int | None] | None = None) -> list[dict[str, Any]]:
    """Reconcile the campaign `folder` is in: the keys corrected (file, key, from, to).
    With `numbers_only` (after a merge, no one asked), only whole numbers are set: any
    other value the ledger disagrees with is left as a person chose it, and named in
    `kept`. `dice_before`: the white and black dice the campaign should hold after a
    merge (W9; asked only if there is something to correct): the corrected files must
    hold as many, else nothing is changed."""
    root, paths = in_campaign(folder)
    corrected: list[dict[str, Any]] = []
    refused: list[str] = []
    kept = [] if kept is None else kept
    with changing("reconcile", paths, journal_for=os.path.join(root, campaign.SETTINGS)) \
            as change:
        folded = ledger.fold_journal(change.journal or "")
        for path in paths:
            name = change.name_of(path)
            if name not in folded.known:
                continue
            values = ledger.values_of(change.data(path))
            for difference in ledger.differences(values, folded.values(name)):
                key, entry = difference.key, difference.ledger
                if difference.refused is not None:
                    refused.append(f"{name}: {difference.refused} (after "
                                   f"{', '.join(entry.recent)})")
                elif numbers_only and not (ledger.is_number(entry.value) or
                                           ledger.is_number(difference.file)):
                    kept.append(f"{name} [{key}]")
                else:
                    value = ledger.settled(key, entry.value, difference.file)
                    change.set(path, ledger.split(key), value, correction=True)
                    corrected.append({"file": name, "key": key, "from": difference.file,
                                      "to": value})
        if any(ledger.is_die(c["key"]) for c in corrected) and \
                (uncounted := _uncounted(root, paths, folded, change)):
            refused.append("the ledger's dice in files that are gone or no longer the "
                           "campaign's (" + ", ".join(f"{name}: {held}" for name, held in
                                                       uncounted.items()) + ") would be lost; "
                           "restore them, or cwx adopt each with the files that hold its dice "
                           "now")
        expected = dice_before() if dice_before is not None and corrected else None
        if expected is not None:
            after = _dice_after(change, paths, corrected)
            if after != expected:
                refused.append(f"the files would hold {after} white and black dice, and the "
                               f"campaign should hold {expected} after the merge (W9): the "
                               "journal misses something a clone did (a file made anew, or "
                               "moved, on two clones at once)")
        if refused:
            raise RuleForbids("the ledger cannot settle this alone, so cwx changed nothing: "
                              + "; ".join(refused) + ". Edit the files as the table decides, "
                              "then cwx adopt them together", path=change.journal)
        for path in paths:
            if change.loaded.get(path) and change.loaded[path].edits:
                _still_valid(change, path)
        if corrected:
            change.record({"corrected": len(corrected)})
    return corrected


def _uncounted(root: str, paths: list[str], folded: ledger.Ledger,
               change: Any) -> dict[str, int]:
    """The ledger's dice in files the campaign no longer counts (walked only when a die
    is to be corrected)."""
    real_root = os.path.realpath(root)
    looked = ledger.looked_at(real_root, campaign.files_under([root], nested=False).tomls)
    return ledger.uncounted(folded, map(change.name_of, paths), real_root, looked)


def _dice_after(change: Any, paths: list[str], corrected: list[dict[str, Any]]) -> int:
    """The white and black dice the campaign's files hold once `corrected`."""
    total = 0
    for path in paths:
        values = ledger.values_of(change.data(path))
        name = change.name_of(path)
        values.update({c["key"]: c["to"] for c in corrected if c["file"] == name})
        total += ledger.dice(values)
    return total


def _still_valid(change: Any, path: str) -> None:
    """The corrected file must still be a sheet the rules accept."""
    from cwx import files, sheets

    loaded = change.loaded[path]
    after = tomledit.with_edits(loaded.data, loaded.edits)
    for problem in sheets.problems(after, files.stem(path))[:1]:
        raise RuleForbids(f"its ledger values make a sheet the rules refuse ({problem.message});"
                          " edit it as the table decides, then cwx adopt it", path=path,
                          key=problem.key)


def _text(corrected: list[dict[str, Any]]) -> str:
    if not corrected:
        return "Nothing to reconcile: every file agrees with the ledger."
    lines = [f"Reconciled {len(corrected)} key{'s' if len(corrected) != 1 else ''} with the "
             "ledger:"]
    lines += [f"  {c['file']} [{c['key']}] {views.value_text(c['from'])} → {views.value_text(c['to'])}"
              for c in corrected]
    return "\n".join(map(printable, lines))  # names from files: shown, never obeyed
