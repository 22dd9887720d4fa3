"""`cwx recap`: a session of the campaign, told from its journal."""

from typing import Annotated

import typer

from cwx.base import times
from cwx.base.errors import BadValue
from cwx.campaign import recap as recaps
from cwx.cli import progress
from cwx.cli.common import here
from cwx.cli.output import JsonFlag, NoPager, Utc, emit_parts
from cwx.cli.pager import paged
from cwx.journal import history

app = typer.Typer(name="recap", add_completion=False)


@app.command("recap")
def recap(
    session: Annotated[str | None, typer.Option(
        "--session", "-s", metavar="SESSION", help="The Nth session (1 is the first), or the "
        "session under way on DATE (YYYY-MM-DD, UTC).", show_default="the latest")] = None,
    every: Annotated[bool, typer.Option("--all", help="Every session.")] = False,
    since: Annotated[str | None, typer.Option(
        metavar="DATE", help="The sessions since DATE (YYYY-MM-DD, UTC).")] = None,
    until: Annotated[str | None, typer.Option(
        metavar="DATE", help="The sessions until DATE (YYYY-MM-DD, UTC, that day included); "
        "with --since, those between.")] = None,
    gap: Annotated[str | None, typer.Option(
        metavar="DURATION", help="The time without events that ends a session: 90m, 4h, 2d "
        "(by post, a day or more).", show_default="recap_gap in campaign.toml, else 4h")
    ] = None,
    json: JsonFlag = False,
    utc: Utc = False,
    no_pager: NoPager = False,
) -> None:
    """Tell a session from the journal, in Markdown.

    A session is a run of events with no gap of 4 hours, or of --gap (by post, a day or
    more): per character what they did, in time order, what each holds at the end, and the
    campaign's dice; corrections and adopts last. Undone events are struck through.

    Example: cwx recap --gap 2d --since 2026-11-01 --until 2026-11-07 > week-1.md
    """
    if sum((session is not None, every, since is not None or until is not None)) > 1:
        raise BadValue("give one of --session, --all and --since/--until")
    camp = here()
    wanted = recaps.session_given(session) if session is not None else None
    seconds = times.gap_given(gap) if gap is not None else \
        camp.settings().recap_gap if camp.root is not None else None
    # One open journal for both passes: its events are read again, by where they stand
    # in it, as they are told.
    from cwx.campaign import guesses

    with history.opened(camp.journal_file,
                        guesses.witness(camp.journal_file) if camp.root else None) as read:
        with progress.shown("Reading the journal", not json) as meter:
            done = recaps.recap(read, wanted, every,
                                recaps.date_given(since) if since is not None else None,
                                recaps.date_given(until, "--until") if until is not None
                                else None, seconds or recaps.SESSION_GAP, meter)
        with paged(not json and not no_pager):
            emit_parts(json, recaps.json_parts(done) if json else recaps.markdown_lines(done))
