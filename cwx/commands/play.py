"""`cwx play`: a scene in one process: a prompt at a terminal, or a scene script."""

import os
import sys
from typing import Annotated

import typer

from cwx.base.errors import BadFile, BadValue
from cwx.cli import scene
from cwx.cli.common import command, here
from cwx.cli.output import JsonFlag

app = command("play")


@app.command("play")
def play(
    script: Annotated[str | None, typer.Argument(
        metavar="[FILE]", help="A scene script: one cwx command a line (without cwx), "
        "# comments and blank lines allowed; - reads it from standard input.",
        show_default="a prompt on a terminal")] = None,
    keep_going: Annotated[bool, typer.Option(
        "--keep-going", help="Play every line, even after one fails (the exit status is "
        "still 2).")] = False,
    start: Annotated[int, typer.Option(
        "--from", min=1, metavar="N", help="Resume a script at its line N: the lines before "
        "are skipped, not played again (a failed scene names the line).")] = 1,
    json: JsonFlag = False,
) -> None:
    """Play a scene of cwx commands in one process.

    Each line is a cwx command without `cwx` (`draw -c sue -t athletic`, `resolve -T 4 -g 3 -c
    kris -t repair`, `log --last 5`), journaled and locked as if run alone; a script's lines
    act only inside the campaign it is played in (a place outside it, or a link out, is
    refused). With no FILE on a terminal, a prompt (history kept per campaign, Tab completes
    as the shell does, Ctrl-C drops the line, Ctrl-D leaves).

    Example: cwx play scene.cwx    (after a failure at line 14: cwx play --from 14 scene.cwx)
    """
    if script is None and sys.stdin.isatty():
        if start != 1:
            raise BadValue("--from N resumes a scene script; name the script (FILE, or - "
                           "for standard input)")
        raise typer.Exit(scene.prompt(here().root))
    name = "-" if script in (None, "-") else script
    if name == "-":
        lines = sys.stdin.read().splitlines()
    else:
        try:
            with open(name, encoding="utf-8") as file:
                lines = file.read().splitlines()
        except (OSError, UnicodeDecodeError) as error:
            said = getattr(error, "strerror", None) or "is not UTF-8 text"
            raise BadFile(f"cannot be read ({said})", path=name) from None
    if start > len(lines):
        from cwx.base.ink import plural

        raise BadValue(f"--from {start}: the script has {plural(len(lines), 'line')}; name "
                       "one of them", path=name)
    status = scene.play(lines, os.path.basename(name) if name != "-" else "-",
                        keep_going=keep_going, as_json=json, start=start, resume=name,
                        script=name)
    raise typer.Exit(status)
