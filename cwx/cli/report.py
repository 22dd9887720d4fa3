"""`cwx check`'s report in words: what the command prints, and what the pre-commit hook
prints when it stops a commit (cli/hooks.py, without Typer)."""

from collections.abc import Iterator

from cwx.base import times
from cwx.base.errors import Unreadable
from cwx.base.ink import plural
from cwx.base.printable import printable
from cwx.campaign import checks, guesses
from cwx.journal.clock import LAST_STAMP
from cwx.systems.clockworx import trait_said


def unseen(report: checks.Report) -> list[str]:
    """The files and folders cwx may not read: their problems are unknown."""
    return [error.path or "" for error in report.problems if isinstance(error, Unreadable)]


def _after(at: str) -> str:
    """How the events made after a line stamped ahead are stamped."""
    if at == LAST_STAMP:  # no stamp says later: they share it, in the journal's order
        return ("Events made after it are stamped at the same last moment a stamp says, "
                "in the journal's order")
    return "Events made after it are stamped after it"


def text(report: checks.Report) -> str:
    return "\n".join(lines(report))


def lines(report: checks.Report) -> Iterator[str]:
    """The report a line at a time: a journal naming 10,000 files of long names may bring
    as many findings, 50 MB as one text."""
    for error in report.problems:
        yield printable(str(error))  # names from files: shown
    lines: list[str] = []
    if report.supply is not None and report.supplied:
        lines.append(f"Dice: {plural(report.supply.white, 'white')}, "
                     f"{plural(report.supply.black, 'black')} (the supply)")
    lines += _waiting(report)
    lines += [f"Note: {line.path}:{line.line}: stamped {_span(line.seconds)} ahead of this "
              f"clone's clock ({times.shown(line.at)}): the clock of the clone that made it "
              f"may be wrong. {_after(line.at)}, so the order of play holds."
              if not line.crept else
              f"Note: {line.path}:{line.line}: the journal's latest line is stamped "
              f"{_span(line.seconds)} ahead of this clone's clock ({times.shown(line.at)}), "
              "though no line leapt there: a clock running fast crept its stamps ahead a "
              "little at a time, or this clone's clock is behind. Events made after it are "
              "stamped after it, so the order of play holds." for line in report.ahead]
    lines += [f"Note: {printable(str(change))}; `cwx check --signed` verifies each turn "
              "against the keys in force" for change in report.keys]
    lines += [f"Note: {printable(str(change))}" for change in report.gms]
    if not report.checked and not report.skipped:
        lines.append("No character, bag or journal files found.")
    else:
        summary = (f"Checked {plural(report.checked, 'file')}: {len(report.valid)} valid, "
                   f"{plural(len(report.problems), 'problem')}.")
        if report.skipped:
            summary += (f" {plural(len(report.skipped), 'other TOML file')} skipped (not "
                        "cwx's).")
        lines.append(summary)
    if hidden := unseen(report):
        lines.append(f"Not checked: cwx may not read {', '.join(hidden)}; give it read access "
                     "(or run cwx check as their owner) for a verdict.")
    yield from lines


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
        held = report.held.get(guess.id)
        waits = "waits for the reveal" if shown is None else guesses.said_late(shown) \
            if held is None else guesses.said_held(shown, held.commit, held.author)
        lines.append(printable(f"Pending: {guess.who or 'a guess'} guesses {guess.guess} "
                               f"({trait}) on {guess.commitment[:12]}…, by "
                               f"{guess.player or 'a player'} {times.shown(guess.when)}"
                               f"; {waits}"))
    return lines
