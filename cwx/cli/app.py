"""The `cwx` app, built lazily: a command imports only its own module and builds only
itself, so start-up stays close to Python's own (`make bench` budgets a stateless command
at 6x `python -c pass`).

The command modules keep real annotations (no `from __future__ import annotations`):
Typer reads a command's signature twice as it builds it, and string annotations would
be compiled and evaluated each time (measured: 10 ms for the clock group, against 2)."""

from typing import Annotated, Literal

import typer

from cwx.cli import output
from cwx.cli.lazy import lazy_root

COMMANDS = "cwx.commands"  # one module a command or group, found when it is called

app = typer.Typer(
    name="cwx",
    cls=lazy_root(COMMANDS),
    no_args_is_help=True,
    # cwx's own --show-completion and --install-completion name the shell (Typer's would
    # guess it), and each shell gets its own script (cli/completion.py).
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from cwx import __version__

        print(f"cwx {__version__}")
        raise typer.Exit()


Paint = Literal["auto", "always", "never"]
Shell = Literal["bash", "zsh", "fish", "powershell", "pwsh"]


def _show_completion(shell: Shell | None) -> None:
    if shell:
        from cwx.cli.completion import script

        print(script(shell))
        raise typer.Exit()


def _install_completion(shell: Shell | None) -> None:
    if shell:
        from cwx.cli.completion import install

        print(f"{shell} completion installed in {install(shell)}; it takes "
              "effect in a new shell")
        raise typer.Exit()


def _paint(value: Paint) -> None:
    # Read as the root's options are (before any command is built): help honours it too.
    output.painting = value


@app.callback()
def cwx(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version.")] = False,
    paint: Annotated[Paint, typer.Option(
        "--paint", metavar="WHEN", envvar="CWX_PAINT", callback=_paint, is_eager=True,
        help="When to colour the output: auto (on a terminal, as NO_COLOR and "
             "CLICOLOR_FORCE say), always or never. (--color is an action's colour.)",
    )] = "auto",
    show_completion: Annotated[Shell | None, typer.Option(
        "--show-completion", metavar="SHELL", callback=_show_completion, is_eager=True,
        help="Print the completion script for SHELL: bash, zsh, fish or powershell.",
        show_default=False)] = None,
    install_completion: Annotated[Shell | None, typer.Option(
        "--install-completion", metavar="SHELL", callback=_install_completion, is_eager=True,
        help="Install completion for SHELL: bash, zsh, fish or powershell.",
        show_default=False)] = None,
) -> None:
    """A command-line companion for the ClockWorx and Color Wheel diceless mechanics."""
