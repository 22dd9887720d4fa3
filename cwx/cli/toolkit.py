"""Typer and the Click beneath it, behind one door: every class cwx extends, every
attribute it reads of them and every behaviour it relies on is here, and pinned by
tests/test_toolkit.py. The rest of cwx uses Typer's documented API (typer.Typer,
typer.Option, typer.Exit…) and this module; nothing else imports Click or typer.core.

Typer below 0.26 runs on Click itself; from 0.26 on it carries its own trimmed copy
(typer._click), which is found here instead. docs/design.md says the plan."""

from __future__ import annotations

import errno
import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import typer
import typer.core
import typer.main

if TYPE_CHECKING:
    import click
    from click import exceptions, shell_completion
else:
    import importlib

    # One attribute read: Typer that carries Click has imported it already, and older
    # Typer has imported Click itself.
    click = getattr(typer, "_click", None) or importlib.import_module("click")
    exceptions = importlib.import_module(f"{click.__name__}.exceptions")
    shell_completion = importlib.import_module(f"{click.__name__}.shell_completion")

Command = click.Command
Context = click.Context
HelpFormatter = click.HelpFormatter
ClickException = exceptions.ClickException
UsageError = exceptions.UsageError
NoArgsIsHelpError = exceptions.NoArgsIsHelpError  # a UsageError: catch it first
CompletionItem = shell_completion.CompletionItem
TyperGroup = typer.core.TyperGroup
TyperArgument = typer.core.TyperArgument
TyperOption = typer.core.TyperOption
MarkupMode = typer.core.MarkupMode


# ---------------------------------------------------------------- an app's commands


def build(app: typer.Typer) -> Any:
    """The Click command of a Typer app: a group, or its one command alone."""
    return typer.main.get_command(app)


def command_names(app: typer.Typer) -> list[str]:
    """The names of the commands an app has registered, in order (hidden ones too)."""
    return [info.name or "" for info in app.registered_commands]


def shown_command_names(app: typer.Typer) -> list[str]:
    """The names of the commands an app offers a player (not hidden)."""
    return [info.name for info in app.registered_commands if info.name and not info.hidden]


def has_groups(app: typer.Typer) -> bool:
    """Whether an app has Typer apps added under it (cwx's command modules have none)."""
    return bool(app.registered_groups)


def help_of(app: typer.Typer) -> str | None:
    """The help an app was made with (`typer.Typer(help=…)`)."""
    help = app.info.help
    return help if isinstance(help, str) else None


def build_one(app: typer.Typer, name: str) -> Any:
    """The command `name` of `app` built alone, without building its neighbours."""
    (info,) = [info for info in app.registered_commands if info.name == name]
    one = typer.Typer(add_completion=False)
    one.registered_commands.append(info)
    return typer.main.get_command(one)


# ---------------------------------------------------------------- parameters

Offer = Callable[[Any, list[Any], str], list[Any]]  # (param, all candidates, word) -> kept


def takes_file(param: Any) -> bool:
    """Whether a parameter's type is Click's file or path (Typer that carries Click has
    neither: its metavar says it there)."""
    kinds = tuple(kind for kind in (getattr(click, "File", None), getattr(click, "Path", None))
                  if isinstance(kind, type))
    return bool(kinds) and isinstance(param.type, kinds)


def complete_through(command: Any, offered: Offer) -> None:
    """Every argument and option of `command` (but one of a file type, which Click
    completes itself) offers what `offered` keeps of all its candidates: Typer keeps only
    those that begin with the word exactly, and lets every one through a word of ""."""
    for param in command.params:
        if isinstance(param, TyperArgument):
            param.__class__ = _Argument
        elif isinstance(param, TyperOption) and not takes_file(param):
            param.__class__ = _Option
        else:
            continue
        param.offered = offered


class _Option(TyperOption):
    offered: Offer

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        return self.offered(self, super().shell_complete(ctx, ""), incomplete)


class _Argument(TyperArgument):
    offered: Offer

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        return self.offered(self, super().shell_complete(ctx, ""), incomplete)


class ShellComplete(shell_completion.ShellComplete):
    """A shell's completion: its script and its answers (cli/completion.py)."""

    def source_vars(self) -> Any:  # a TypedDict of Click's own, private
        # Click's own; Typer's copy of Click leaves it to each shell's class.
        return {"complete_func": self.func_name, "complete_var": self.complete_var,
                "prog_name": self.prog_name}


def add_flag(command: Any, name: str, envvar: str, help: str) -> None:
    """A flag added to a built command (`--no-sync`): its callback is given it as a
    keyword (no_sync), True when given or when `envvar` is set to 1."""
    command.params.append(_flag(name, envvar, help))


@functools.cache
def _flag(name: str, envvar: str, help: str) -> Any:
    # Made by Typer itself, from a command of its own, as every Typer makes an option
    # (a TyperOption's constructor is not the same from one Typer to the next).
    app = typer.Typer(add_completion=False)

    def flag(value: bool = typer.Option(False, name, envvar=envvar, help=help)) -> None:
        """The flag alone."""

    app.command()(flag)
    (param,) = build(app).params
    param.name = name.lstrip("-").replace("-", "_")  # the keyword its callback is given
    return param


def wrap_callback(command: Any, wrap: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    """A built command's callback (which takes its parameters as keywords) replaced by
    `wrap` of it."""
    command.callback = wrap(command.callback)


# ---------------------------------------------------------------- running a command line


def run(command: Any, args: Sequence[str] | None, prog_name: str) -> Any:
    """Run a command line, errors raised rather than printed: what the command returned
    (a status, or None). A reader that went away is a BrokenPipeError."""
    try:
        return command.main(args=args, prog_name=prog_name, standalone_mode=False)
    except SystemExit as exit:
        # Typer answers a reader that went away (`cwx --help | head -1`) with exit 1, from
        # inside its handler of the broken pipe: the pipe is what happened.
        if isinstance(exit.__context__, OSError) and exit.__context__.errno == errno.EPIPE:
            raise BrokenPipeError(errno.EPIPE, "the reader went away") from None
        raise


def given(group: Any, args: Sequence[str], prog_name: str) -> tuple[str, list[tuple[str, Any]]]:
    """What a command line (below the group's own options) gives the command it names,
    read as Click reads it but resiliently, nothing run: the command's path from the group
    ("bag draw"), and each parameter's metavar (or name) and value; ("", []) for a line
    naming no command, which fails when it runs."""
    command, words = group, list(args)
    ctx = Context(command, info_name=prog_name, resilient_parsing=True)
    while isinstance(command, click.Group):  # a group's only option is --help
        inner = command.get_command(ctx, words[0]) if words else None
        if inner is None:
            return "", []
        ctx = Context(inner, info_name=words[0], parent=ctx, resilient_parsing=True)
        command, words = inner, words[1:]
    with command.make_context(ctx.info_name, words, parent=ctx.parent,
                              resilient_parsing=True) as found:
        return found.command_path.removeprefix(f"{prog_name} "), [
            (param.metavar or param.name or "", found.params.get(param.name or ""))
            for param in command.params]
