"""Typer's internals that cwx leans on, in one place: the lazy command groups and the
way a command line is run. Typer says its vendored Click is not a public API, so
tests/test_lazy.py pins everything this module assumes of it."""

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import typer
from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

from cwx.errors import Usage

# A name on the command line is a module under cwx.cli with a Typer `app`: a group of
# commands (cwx char new, cwx char show), or one command of that name (cwx log).
Shape = Literal["group", "command"]


def lazy_root(modules: Mapping[str, Shape]) -> type[TyperGroup]:
    """The root group's class: a command's module is imported, and only its own command
    built, when that command is called."""

    class Root(TyperGroup):
        def list_commands(self, ctx: Any) -> list[str]:
            return list(modules)

        def get_command(self, ctx: Any, cmd_name: str) -> Any:
            if cmd_name not in modules:
                return None
            import importlib

            app = importlib.import_module(f"cwx.cli.{cmd_name}").app
            if modules[cmd_name] == "command":
                return _built(app, cmd_name)
            return _Section(cmd_name, app)

    return Root


class _Section(TyperGroup):
    """A command group whose commands are built only when one is called."""

    def __init__(self, name: str, app: typer.Typer) -> None:
        super().__init__(name=name, help=app.info.help, no_args_is_help=True)
        self.infos = {info.name or "": info for info in app.registered_commands}

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.infos)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        info = self.infos.get(cmd_name)
        if info is None:
            return None
        one = typer.Typer(add_completion=False)
        one.registered_commands.append(info)  # just this command is built
        return _built(one, cmd_name)


def _built(app: typer.Typer, name: str) -> Any:
    command = typer.main.get_command(app)
    command.name = name
    return command


def invoke(app: typer.Typer, args: Sequence[str] | None) -> int:
    """Run a command line: its exit status; usage errors become cwx's own `Usage`."""
    command = typer.main.get_command(app)
    try:
        status = command.main(args=args, prog_name="cwx", standalone_mode=False)
    except NoArgsIsHelpError as error:
        # `cwx` or `cwx char` alone asks for the manual. With rich, Typer has printed it
        # already while making the error; without, it is the error's message.
        if text := error.format_message().strip():
            print(text)
        return 0
    except UsageError as error:
        where = error.ctx.command_path if error.ctx is not None else "cwx"
        raise Usage(f"{error.format_message().rstrip('.')}; see '{where} --help'") from None
    except ClickException as error:
        raise Usage(error.format_message()) from None
    return status if isinstance(status, int) else 0
