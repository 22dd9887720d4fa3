"""`cwx help [COMMAND]...`: a command's help, as `git help` and `ruff help` give it."""

from typing import Annotated

import typer

from cwx.cli.common import command

app = command("help")


def _commands(ctx: typer.Context) -> list[str]:
    """The commands a word may name: cwx's own, or, after a group, the group's."""
    import importlib

    from cwx.cli import toolkit
    from cwx.cli.app import COMMANDS
    from cwx.cli.lazy import commands, single

    words = (ctx.params.get("words") or []) if ctx is not None else []
    if not words:
        return commands(COMMANDS)
    if len(words) > 1 or words[0] not in commands(COMMANDS):
        return []
    group = importlib.import_module(f"{COMMANDS}.{words[0]}").app
    return [] if single(group, words[0]) else toolkit.shown_command_names(group)


@app.command("help")
def help_(
    words: Annotated[list[str] | None, typer.Argument(
        metavar="[COMMAND]...", autocompletion=_commands, show_default="cwx's own help",
        help="A command, or a group and one of its commands.")] = None,
) -> None:
    """Show a command's help, as its --help does.

    Example: cwx help bag draw
    """
    from cwx.cli.app import app as cwx
    from cwx.cli.lazy import invoke

    raise typer.Exit(invoke(cwx, [*(words or []), "--help"]))
