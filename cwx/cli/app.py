"""The `cwx` app, built lazily: a command imports only its own module and builds only
itself, so start-up stays close to Python's own (issue 5 budgets it at 6x `python -c pass`).

The command modules keep real annotations (no `from __future__ import annotations`):
Typer reads a command's signature twice as it builds it, and string annotations would
be compiled and evaluated each time (measured: 10 ms for the clock group, against 2)."""

import importlib
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

# Each name on the command line is a module under cwx.cli with a Typer `app`: a group of
# commands, or (log, check, schema, init) a single command.
COMMANDS = ("char", "clock", "xp", "bag", "luck", "game", "wheel", "odds", "log", "check",
            "schema", "init")


def _build(one: Any, name: str) -> Any:
    """A click command from one Typer command (`one` registers just that command)."""
    command = typer.main.get_command(one)
    command.name = name
    return command


class Section(TyperGroup):
    """A command group whose commands are built only when one is called."""

    def __init__(self, name: str, app: typer.Typer) -> None:
        super().__init__(name=name, help=app.info.help, no_args_is_help=True)
        self.app = app
        self.infos = {info.name or "": info for info in app.registered_commands}

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.infos)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        info = self.infos.get(cmd_name)
        if info is None:
            return None
        one = typer.Typer(add_completion=False)
        one.registered_commands.append(info)
        return _build(one, cmd_name)


class Campaign(TyperGroup):
    """The root group, importing a command's module only when it is asked for."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in COMMANDS:
            return None
        module = importlib.import_module(f"cwx.cli.{cmd_name}")
        if len(module.app.registered_commands) == 1 and not module.app.info.help:
            return _build(module.app, cmd_name)  # log, check, schema, init
        return Section(cmd_name, module.app)


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
