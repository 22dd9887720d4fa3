"""The `cwx` app. Command groups load on demand: a command imports only its own module,
so start-up stays close to Python's own (SPEC: fast to start; issue 5 budgets it)."""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

# Each entry: the name on the command line -> the module under cwx.cli that builds it.
COMMANDS = {
    "char": "char",
    "clock": "clock",
    "xp": "xp",
    "bag": "bag",
    "luck": "luck",
    "game": "game",
    "wheel": "wheel",
    "odds": "odds",
    "log": "log",
    "check": "check",
    "schema": "schema",
    "init": "init",
}


class Campaign(TyperGroup):
    """The root group, building a command group only when it is asked for."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return None
        command = typer.main.get_command(importlib.import_module(f"cwx.cli.{module}").app)
        command.name = cmd_name
        return command


app = typer.Typer(
    name="cwx",
    cls=Campaign,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


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
