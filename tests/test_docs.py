"""Every command has help with an example and appears in the README."""

from __future__ import annotations

import re
from typing import Any

import pytest
import typer

from cwx.cli.app import COMMANDS, app
from tests.helpers import ROOT, cwx

README = (ROOT / "README.md").read_text()


def _commands() -> list[list[str]]:
    root = typer.main.get_command(app)
    found = []
    for name in COMMANDS:
        command: Any = root.get_command(None, name)  # type: ignore[attr-defined]
        if hasattr(command, "list_commands"):  # a group; its hidden commands are git's own
            found += [[name, sub] for sub in command.list_commands(None)
                      if not command.get_command(None, sub).hidden]
        else:
            found.append([name])
    return found


ALL = _commands()


def test_the_command_list_is_complete() -> None:
    assert ["bag", "draw"] in ALL and ["check"] in ALL and ["clock", "verify"] in ALL
    assert len(ALL) >= 19


@pytest.mark.parametrize("command", ALL, ids=" ".join)
def test_every_command_has_help_with_an_example(command: list[str]) -> None:
    ran = cwx(*command, "--help")
    assert ran.status == 0
    example = re.search(r"Example: (cwx [^\n]+)", ran.stdout)
    assert example and example.group(1).startswith("cwx " + " ".join(command))


@pytest.mark.parametrize("command", ALL, ids=" ".join)
def test_every_command_is_in_the_readme(command: list[str]) -> None:
    assert f"cwx {' '.join(command)}" in README


def test_the_readme_gives_the_two_commands_a_newcomer_runs() -> None:
    assert "make demo" in README and "make test" in README
