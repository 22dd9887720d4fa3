"""`cwx adopt`: record hand edits in the ledger, so the file becomes what the ledger says."""

import os
from typing import Annotated, Any

import typer

from cwx import campaign, files, journal, ledger, sheets
from cwx.cli import views
from cwx.cli.common import changing
from cwx.cli.output import JsonFlag, emit
from cwx.errors import BadFile, RuleForbids
from cwx.printable import printable

app = typer.Typer(name="adopt", add_completion=False)


@app.command("adopt")
def adopt(
    paths: Annotated[list[str], typer.Argument(
        help="The character and bag files whose hand edits the table accepts.",
        metavar="FILE...", show_default=False)],
    json: JsonFlag = False,
) -> None:
    """Journal, for each key whose file value differs from its ledger value, a change from
    the one to the other (a file with no history: its whole text): the GM's hand-given
    reward, or the table's decision after two clones spent the same dice, joins the ledger.
    A file the ledger knows that is gone (moved, say) leaves it: adopt it together with the
    files that hold its dice now.

    Example: cwx adopt rick.toml bag.toml
    """
    roots = {campaign.root_above(os.path.dirname(path) or ".") for path in paths}
    if None in roots or len(roots) > 1:
        raise BadFile("adopt takes files of one campaign (cwx init marks one)",
                      path=" ".join(paths))
    paths = files.each_once(paths)  # a file named twice (or by a link too) adopted once
    adopted: list[dict[str, Any]] = []
    # A file gone (moved by git, say) is not written, nor its folder locked: it may be gone.
    here = [path for path in paths if os.path.lexists(path)]
    with changing("adopt", here, journal_for=paths[0]) as change:
        folded = ledger.fold_journal(change.journal or "")
        changes: list[journal.Change] = []
        leaving: list[str] = []  # files gone: their keys leave the ledger
        moved = taken = 0  # dice the other files bring into the ledger; those leaving take (W9)
        for path in paths:
            gone = path not in here
            if gone and change.name_of(path) not in folded.known:
                raise BadFile("no such file, and the ledger knows none of that name", path=path)
            data: dict[str, Any] = {}
            if gone:
                leaving.append(path)
            else:
                data = change.data(path)
                campaign.where_check_looks(path)
                if sheets.kind_of(data) is None:
                    raise BadFile("is not a character or bag file; cwx keeps no ledger of it",
                                  path=path)
                for problem in sheets.problems(data, files.stem(path))[:1]:
                    raise RuleForbids(f"the rules refuse it ({problem.message}); mend it "
                                      "first", path=path, key=problem.key)
            name = change.name_of(path)
            if name not in folded.known:
                text = change.bytes_of(path).decode("utf-8")
                changes.append(journal.Change(name, None, None, None, text=text))
                adopted.append({"file": name, "key": None, "from": None, "to": None})
                moved += ledger.dice(ledger.values_of(data))
                continue
            values, known = ledger.values_of(data), folded.values(name)
            for key in sorted(set(values) | set(known)):
                was = known[key].value if key in known else None
                if not ledger.same(key, was, values.get(key)):
                    changes.append(journal.Change(name, key, was, values.get(key)))
                    adopted.append({"file": name, "key": key, "from": was,
                                    "to": values.get(key)})
                    if gone:  # below 0 (two clones took it out at once) is no die to move
                        taken += max(ledger.dice({key: was or 0}), 0)
                    else:
                        moved += ledger.dice({key: values.get(key) or 0}) - \
                            ledger.dice({key: was or 0})
        if moved > 0 and not leaving:
            home = os.path.dirname(change.journal or "")
            missing = [name for name, held in ledger.uncounted(folded, (), home, set()).items()
                       if held > 0]
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
        if changes:
            change.record({"adopted": len(adopted)}, changes=changes,
                          file=paths[0] if len(paths) == 1 else None)
    emit(json, {"adopted": adopted}, lambda: _text(adopted))


def _text(adopted: list[dict[str, Any]]) -> str:
    if not adopted:
        return "Nothing to adopt: every file agrees with the ledger."
    lines = ["Adopted into the ledger:"]
    for item in adopted:
        if item["key"] is None:
            lines.append(f"  {item['file']}: the whole file, as its history's start")
        else:
            lines.append(f"  {item['file']} [{item['key']}] {views.value_text(item['from'])} → "
                         f"{views.value_text(item['to'])}")
    return "\n".join(map(printable, lines))  # names from files: shown, never obeyed
