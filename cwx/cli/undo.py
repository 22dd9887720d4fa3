"""`cwx undo`: take back the campaign's (or one character's) most recent change."""

import os
from typing import Annotated

import typer

from cwx import campaign, files, journal, ledger, sheets, tomledit
from cwx.cli.common import changing, character_path
from cwx.cli.output import JsonFlag, emit
from cwx.errors import Conflict, RuleForbids
from cwx.printable import printable

app = typer.Typer(name="undo", add_completion=False)

ASIDE = ("reconcile", "undo")  # never undone; creations (whole files) neither


@app.command("undo")
def undo(
    char: Annotated[str | None, typer.Option(
        "--char", "-c", metavar="CHAR", help="Only this character's changes (a file, or a name "
        "in the campaign).")] = None,
    json: JsonFlag = False,
) -> None:
    """Undo the most recent change not yet undone (creations, reconciles and undos aside)
    by its inverse, journaled as an undo; repeated, it walks back. Whole numbers go back
    by their delta; any other value only if it still holds what the change wrote.

    Example: cwx undo --char sue.toml
    """
    char = character_path(char) if char else None
    folder = os.path.realpath(campaign.journal_folder(char or os.path.join(".", "-")))
    journal_path = journal.path_in(folder)
    name = journal.name_in(folder, char) if char else None
    target = latest_undoable(journal_path, name)

    def in_reach(named: str) -> str:  # a journal is input: followed only within its reach
        return campaign.named_by_journal(folder, named)

    touched = {in_reach(c.file): c.file for c in target.changes if c.key}
    gone = [named for file, named in touched.items() if not os.path.lexists(file)]
    if gone:  # undo never walks past a change it cannot take back
        raise RuleForbids(f"cannot undo `{target.command}`: {', '.join(gone)}, which it "
                          "changed, is gone; restore it (git checkout it) to undo it",
                          path=os.path.relpath(journal_path))
    # Journaled where the undone change was: the journal read, whatever its line says.
    with changing("undo", sorted(touched), journal_for=os.path.join(folder, "-")) as change:
        if latest_undoable(journal_path, name).id != target.id:
            raise Conflict("the journal changed while cwx read it; run cwx undo again",
                           path=journal_path)
        for change_of_key in target.changes:
            if change_of_key.key is None or change_of_key.correction:
                continue
            file = in_reach(change_of_key.file)
            key = ledger.split(change_of_key.key)
            current = tomledit.value_at(change.data(file), key)
            try:
                back = ledger.undone(change_of_key.key, change_of_key.before,
                                     change_of_key.after, current)
            except ValueError as error:
                raise RuleForbids(f"cannot undo `{target.command}`: {error}", path=file,
                                  key=change_of_key.key) from None
            change.set(file, key, back)
        for file in touched:
            after = tomledit.with_edits(change.data(file), change.loaded[file].edits)
            for problem in sheets.problems(after, files.stem(file))[:1]:
                raise RuleForbids(f"undoing `{target.command}` would leave a sheet the rules "
                                  f"refuse ({problem.message})", path=file, key=problem.key)
        result = {"undid": {"id": target.id, "command": target.command, "at": target.at,
                            "who": target.who}}
        change.record(result, who=target.who,
                      file=in_reach(target.file) if target.file else None,
                      bag=in_reach(target.bag) if target.bag else None,
                      undoes=target.id)
    emit(json, result, lambda: printable(f"Undid `{target.command}` by {target.who or 'the GM'}"
                                         f" ({target.when[:16].replace('T', ' ')})."))


def latest_undoable(path: str, name: str | None) -> journal.Event:
    """The most recent change (of the file `name`, if given) not yet undone and counting
    in the ledger; an action that changed no file (a failed draw) is one too: undone, it
    is no longer the character's last action."""
    turns = journal.Turns()
    for _, item in journal.read_raw(path, only=(b'"undoes"', b'"turns"')):
        if isinstance(item, journal.Event):
            turns.note(item)
    passed = turns.void() | turns.undone()
    best: journal.Event | None = None
    for event in journal.events(path):
        if event.command in ASIDE or event.id in passed or \
                not (event.command in journal.ACTIONS or
                     any(c.key is not None for c in event.changes)) or \
                (name is not None and event.file != name and
                 all(c.file != name for c in event.changes)):
            continue
        if best is None or (event.when, event.id) > (best.when, best.id):
            best = event
    if best is None:
        who = f" of {name}" if name else ""
        raise RuleForbids(f"there is no change{who} left to undo", path=path)
    return best
