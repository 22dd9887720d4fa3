"""`cwx recap`: a session of the campaign, told from its journal."""

import sys
from collections.abc import Iterator
from typing import Annotated

import typer

from cwx import recap as recaps
from cwx.cli.common import here
from cwx.cli.output import JsonFlag, quiet_stdout
from cwx.errors import BadValue

app = typer.Typer(name="recap", add_completion=False)


@app.command("recap")
def recap(
    session: Annotated[int | None, typer.Option(
        "--session", "-s", metavar="N", help="The Nth session (1 is the first).",
        show_default="the latest")] = None,
    every: Annotated[bool, typer.Option("--all", help="Every session.")] = False,
    since: Annotated[str | None, typer.Option(
        metavar="DATE", help="The sessions since DATE (YYYY-MM-DD, UTC).")] = None,
    json: JsonFlag = False,
) -> None:
    """Tell a session from the journal, in Markdown.

    A session is a run of events with no gap of 4 hours: per character what they did, in
    time order, what each holds at the end, and the campaign's dice; corrections and adopts
    last. Undone events are struck through.

    Example: cwx recap --session 2 > session-2.md
    """
    if sum((session is not None, every, since is not None)) > 1:
        raise BadValue("give one of --session, --all and --since")
    camp = here()
    done = recaps.recap(camp.journal_file, session, every,
                        recaps.date_given(since) if since is not None else None)
    write(recaps.json_parts(done) if json else recaps.markdown_lines(done), json)


def write(parts: Iterator[str], json: bool) -> None:
    """The recap a piece at a time (a recap of every session is never held whole), as
    emit writes: JSON on one line, Markdown without blank lines at the end."""
    blank = 0  # blank lines not yet written: none ends the text
    try:
        for part in parts:
            if json:
                sys.stdout.write(part)
            elif not part:
                blank += 1
            else:
                sys.stdout.write("\n" * blank + part + "\n")
                blank = 0
        if json:
            sys.stdout.write("\n")
    except BrokenPipeError:
        quiet_stdout()
