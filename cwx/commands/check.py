"""`cwx check`: validate a campaign, its journal and its ledger (and serve as a git
pre-commit hook): exit 1 naming each problem (a linter's finding), 2 when it cannot run."""

import os
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cwx.base.errors import BadFile
from cwx.campaign import checks, guesses
from cwx.cli import progress
from cwx.cli.common import command
from cwx.cli.output import JsonFlag, Utc, emit, quiet_stdout
from cwx.cli.report import lines, unseen

if TYPE_CHECKING:
    from collections.abc import Iterator

    from cwx.campaign.results import Checked

FINDINGS = 1  # the exit status of a check that found problems (SPEC section 5)
CANNOT_RUN = 2  # a path missing, or a file or folder cwx may not read: no verdict

app = command("check")


@app.command("check")
def check(
    paths: Annotated[list[str] | None, typer.Argument(
        help="Folders (searched below) or files.", show_default="the current folder",
        metavar="PATH...")] = None,
    signed: Annotated[bool, typer.Option(
        "--signed", help="Also prove each journal line arrived in a commit signed by the "
        "key campaign.toml lists for the player it names ([keys]).")] = False,
    json: JsonFlag = False,
    utc: Utc = False,
) -> None:
    """Validate the campaign's files, journal, ledger and history.

    Every character and bag file, every journal line, what an interrupted command left, and,
    inside a campaign, every file against the ledger; in git, that no commit changed,
    removed or moved a committed journal line. With --signed, that each line arrived in a
    commit signed by its player's SSH key.

    Example: cwx check campaign/

    Example: cwx check --signed
    """
    for path in paths or []:  # nothing there to check: check cannot run (2), no finding
        if not os.path.lexists(path):
            raise BadFile("no such file or folder; nothing to check", path=path)
    proven = _signed(paths or ["."]) if signed else None  # cannot run: before any finding
    with progress.shown("Checking the journal", not json) as meter:
        report = checks.check(paths or ["."], meter)
    if proven is not None:  # a file --signed names is checked once, and valid no more
        named = {os.path.normpath(e.path) for e in proven[2] if e.path}
        # A change of the keys that does not count: plain check's note, --signed's finding.
        report = report._replace(problems=[*report.problems, *proven[2]], keys=(), valid={
            path: kind for path, kind in report.valid.items()
            if os.path.normpath(path) not in named})
    result: Checked = {
        "ok": not report.problems,
        "checked": report.checked,
        "campaign": report.campaign,
        "valid": [{"file": path, "kind": kind} for path, kind in report.valid.items()],
        "skipped": report.skipped,
        "problems": [{"file": e.path, "line": e.line, "key": e.key, "message": e.message}
                     for e in report.problems],
        # Null outside a campaign (no supply to count): one shape wherever it runs.
        "supply": None if report.supply is None else
        {"white": report.supply.white, "black": report.supply.black},
        "pending": [guesses.as_waiting(guess) for guess in report.pending],
        "ahead": [{"file": line.path, "line": line.line, "at": line.at}
                  for line in report.ahead],
        "keys": [{"file": e.path, "line": e.line, "key": e.key, "message": e.message}
                 for e in (*report.keys, *report.gms)],
        # Null without --signed: one shape either way.
        "signed": None if proven is None else {"lines": proven[0], "unsigned": proven[1]},
    }
    if json:
        emit(json, result, str)
    else:
        _said(lines(report))
    if unseen(report):  # what check cannot read it cannot call valid: as for a missing path
        raise typer.Exit(CANNOT_RUN)
    if report.problems:  # a finding, as a linter's (ruff, mypy, taplo): 2 is for errors
        raise typer.Exit(FINDINGS)


def _said(report: "Iterator[str]") -> None:
    """The report for people, a line at a time, as emit writes a text."""
    try:
        for line in report:
            sys.stdout.write(line + "\n")
    except BrokenPipeError:
        quiet_stdout()


def _signed(paths: list[str]) -> tuple[int, int, list[Any]]:
    """--signed: the campaign's journal lines, how many are not signed by their player's
    key, and each named (with each change of the keys that does not count)."""
    from cwx.campaign.folder import Campaign
    from cwx.git import keyring

    root = Campaign.around(paths[0]).needed()
    # The journal named as check names it: as the paths were given (absolute, or from here).
    return keyring.verify(root if os.path.isabs(paths[0]) else os.path.relpath(root))
