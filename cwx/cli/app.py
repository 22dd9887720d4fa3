"""The `cwx` app: every command group joined into one Typer app."""

from __future__ import annotations

from typing import Annotated

import typer

from cwx.cli import char, clock, xp

app = typer.Typer(
    name="cwx",
    help="A command-line companion for the ClockWorx and Color Wheel diceless mechanics.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(char.app, name="char")
app.add_typer(clock.app, name="clock")
app.add_typer(xp.app, name="xp")


def _version(value: bool) -> None:
    if value:
        from cwx import __version__

        print(f"cwx {__version__}")
        raise typer.Exit()


@app.callback()
def cwx(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version.")] = False,
) -> None:
    """A command-line companion for the ClockWorx and Color Wheel diceless mechanics."""
