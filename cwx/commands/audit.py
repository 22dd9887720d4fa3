"""`cwx audit`: is the table's physical bag fair? Pearson's chi-square over the dice the
table drew by hand and recorded (bag draw --drawn)."""

from typing import Annotated

import typer

from cwx.campaign import audit as audits
from cwx.cli.common import BagFile, command, here
from cwx.cli.output import JsonFlag, emit

app = command("audit")


@app.command("audit")
def audit(
    bag: BagFile = None,
    session: Annotated[int | None, typer.Option(
        "--session", "-s", metavar="N", help="Only the Nth session's draws (cwx recap's "
        "sessions: 1 is the first).", show_default="every session")] = None,
    all_draws: Annotated[bool, typer.Option(
        "--all-draws", help="Include cwx's own random draws, not only those the table drew "
        "by hand (--drawn).")] = False,
    json: JsonFlag = False,
) -> None:
    """Test whether the bag is fair, from the draws recorded.

    Is the bag fair? For each recorded draw, the exact chance of each colour from the bag as
    the journal says it stood then; observed against expected counts, Pearson's chi-square,
    its degrees of freedom and p-value, and a verdict in plain words.

    Example: cwx audit --bag bag.toml
    """
    camp = here()
    path = camp.journal_file
    gap = camp.settings().recap_gap if session is not None and camp.root is not None else None
    start, end = _span(path, session, gap)
    name = camp.name_of(_a_bag(camp.bag(bag))) if bag is not None else None
    found = audits.from_journal(path, name, start=start, end=end, every=all_draws)
    done = audits.tested(found.tally, found.draws, found.skipped)
    emit(json, done.as_json(), lambda: _text(done))


def _a_bag(path: str) -> str:
    """`path`, if it is a bag file (a character's draws name their bag, never themselves)."""
    from cwx.base.errors import BadFile
    from cwx.systems import sheets
    from cwx.toml import tomlread

    if sheets.kind_of(tomlread.parse(tomlread.read_bytes(path), path)) != "bag":
        raise BadFile("is not a bag file; --bag names the bag the dice were drawn from",
                      path=path)
    return path


def _span(path: str, session: int | None, gap: int | None) -> tuple[str, str]:
    """A session's first and last stamps, as cwx recap counts sessions (the campaign's
    recap_gap, else 4 hours)."""
    if session is None:
        return "", "\uffff"

    from cwx.campaign import recap
    from cwx.journal import history

    with history.opened(path) as read:
        picked = recap.chosen(recap.sessions(read.played(), gap or recap.SESSION_GAP), session,
                              False, None)
    return (picked[0].start, picked[0].end) if picked else ("", "")


def _text(done: audits.Audit) -> str:
    if not done.draws and done.skipped:
        from cwx.base.ink import plural

        return (f"{plural(done.skipped, 'recorded draw')} and none that can be replayed: the "
                "journal never saw the bag or character made (a campaign begun by hand); "
                "`cwx adopt` the files, and the draws after it count.")
    if not done.draws:
        return "No recorded draws to audit (record the dice drawn by hand with bag draw " \
               "--drawn; --all-draws audits cwx's own random draws too)."
    lines = [f"{done.draws} draws, {done.dice} dice drawn:",
             "  outcome   observed  expected"]
    lines += [f"  {cell.outcome:<9} {cell.observed:>8}  {cell.expected:>8.2f}"
              for cell in done.cells]
    if done.chi_square is not None and done.p_value is not None:
        merged = [c.outcome for c in done.tested if "+" in c.outcome]
        lines.append(f"chi-square {done.chi_square:.3f}, {done.df} degrees of freedom, "
                     f"p = {audits.p_shown(done.p_value)}" +
                     (f" (merged, each expected under {audits.MIN_EXPECTED}: "
                      f"{', '.join(merged)})" if merged else ""))
    if done.skipped:
        lines.append(f"({done.skipped} recorded draws the journal cannot replay were left out)")
    lines.append(f"Verdict: {done.verdict}.")
    return "\n".join(lines)
