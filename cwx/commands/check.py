"""`cwx check`: validate a campaign, its journal and its ledger (and serve as a git
pre-commit hook): exit 1 naming each problem (a linter's finding), 2 when it cannot run."""

import os
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cwx.base import times
from cwx.base.errors import BadFile, Unreadable
from cwx.base.ink import plural
from cwx.base.printable import printable
from cwx.campaign import checks, guesses
from cwx.cli import progress
from cwx.cli.common import command
from cwx.cli.output import JsonFlag, Utc, emit
from cwx.journal.clock import LAST_STAMP
from cwx.systems.clockworx import trait_said

if TYPE_CHECKING:
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
    if proven is not None:
        report = report._replace(problems=[*report.problems, *proven[2]])
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
        # Null without --signed: one shape either way.
        "signed": None if proven is None else {"lines": proven[0], "unsigned": proven[1]},
    }
    emit(json, result, lambda: text(report))
    if _unseen(report):  # what check cannot read it cannot call valid: as for a missing path
        raise typer.Exit(CANNOT_RUN)
    if report.problems:  # a finding, as a linter's (ruff, mypy, taplo): 2 is for errors
        raise typer.Exit(FINDINGS)


def _signed(paths: list[str]) -> tuple[int, int, list[Any]]:
    """--signed: the campaign's journal lines, how many are not signed by their player's
    key, and each named (with each change of the keys that does not count)."""
    from cwx.campaign.folder import Campaign
    from cwx.git import keyring

    root = Campaign.around(paths[0]).needed()
    # The journal named as check names it: as the paths were given (absolute, or from here).
    return keyring.verify(root if os.path.isabs(paths[0]) else os.path.relpath(root))


def _unseen(report: checks.Report) -> list[str]:
    """The files and folders cwx may not read: their problems are unknown."""
    return [error.path or "" for error in report.problems if isinstance(error, Unreadable)]


def _after(at: str) -> str:
    """How the events made after a line stamped ahead are stamped."""
    if at == LAST_STAMP:  # no stamp says later: they share it, in the journal's order
        return ("Events made after it are stamped at the same last moment a stamp says, "
                "in the journal's order")
    return "Events made after it are stamped after it"


def text(report: checks.Report) -> str:
    lines = [printable(str(error)) for error in report.problems]  # names from files: shown
    if report.supply is not None and report.supplied:
        lines.append(f"Dice: {plural(report.supply.white, 'white')}, "
                     f"{plural(report.supply.black, 'black')} (the supply)")
    lines += _waiting(report)
    lines += [f"Note: {line.path}:{line.line}: stamped {_span(line.seconds)} ahead of this "
              f"clone's clock ({times.shown(line.at)}): the clock of the clone that made it "
              f"may be wrong. {_after(line.at)}, so the order of play holds."
              for line in report.ahead]
    if not report.checked and not report.skipped:
        lines.append("No character, bag or journal files found.")
    else:
        summary = (f"Checked {plural(report.checked, 'file')}: {len(report.valid)} valid, "
                   f"{plural(len(report.problems), 'problem')}.")
        if report.skipped:
            summary += (f" {plural(len(report.skipped), 'other TOML file')} skipped (not "
                        "cwx's).")
        lines.append(summary)
    if unseen := _unseen(report):
        lines.append(f"Not checked: cwx may not read {', '.join(unseen)}; give it read access "
                     "(or run cwx check as their owner) for a verdict.")
    return "\n".join(lines)


def _span(seconds: float) -> str:
    """How far ahead, in the largest unit that says it in more than one: '30 hours'."""
    if seconds >= 2 * 86400:
        return plural(round(seconds / 86400), "day")
    if seconds >= 2 * 3600:
        return plural(round(seconds / 3600), "hour")
    return plural(round(seconds / 60), "minute")


def _waiting(report: checks.Report) -> list[str]:
    """The guesses waiting for the GM's reveal, and those made void: information, not
    problems."""
    lines = [printable(f"Void: {guess.who or 'a guess'} guesses {guess.guess} on "
                       f"{guess.commitment[:12]}…, by {guess.player or 'a player'}; "
                       f"{guesses.said_void(report.replaced[guess.commitment])}")
             for guess in report.void]
    for guess in report.pending:
        trait = trait_said(guess.trait, guess.score)
        shown = guesses.late(guess, report.revealed)
        waits = "waits for the reveal" if shown is None else guesses.said_late(shown)
        lines.append(printable(f"Pending: {guess.who or 'a guess'} guesses {guess.guess} "
                               f"({trait}) on {guess.commitment[:12]}…, by "
                               f"{guess.player or 'a player'} {times.shown(guess.when)}"
                               f"; {waits}"))
    return lines
