"""Every command has help with an example and appears in the README; help reads
right as rich draws it on a terminal and as plain text for programs (help2man)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cwx.cli import lazy, toolkit
from cwx.cli.app import COMMANDS, app
from tests.helpers import ROOT, cwx, on_a_terminal

README = (ROOT / "README.md").read_text()


def _commands() -> list[list[str]]:
    root = toolkit.build(app)
    found = []
    for name in lazy.commands(COMMANDS):
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


# ---------------------------------------------------------------- how help reads

ROOT_AND_ALL = [[], *ALL]
BOXES = re.compile("[\u2500-\u257f]")  # rich's box drawing
ANSI = re.compile("\x1b\\[[0-9;]*m")
COLOURS = ("red", "yellow", "blue", "orange", "green", "purple")


def _built(command: list[str]) -> Any:
    found: Any = toolkit.build(app)
    for name in command:
        found = found.get_command(None, name)
    return found


def _help(command: list[str], monkeypatch: pytest.MonkeyPatch, *, drawn: bool) -> str:
    """A command's help, as rich draws it for a terminal or as plain text, with the
    drawing taken away and its lines joined: what a reader reads."""
    monkeypatch.setattr(lazy, "help_markup", lambda: "rich" if drawn else None)
    ran = cwx(*command, "--help")
    assert ran.status == 0
    assert bool(BOXES.search(ran.stdout)) == drawn
    return " ".join(BOXES.sub(" ", ANSI.sub("", ran.stdout)).split())


@pytest.mark.parametrize("drawn", [False, True], ids=["plain", "rich"])
@pytest.mark.parametrize("command", ROOT_AND_ALL, ids=lambda c: " ".join(c) or "cwx")
def test_help_keeps_every_default_and_names_every_value(
        command: list[str], drawn: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _help(command, monkeypatch, drawn=drawn)
    # Rich reads "[default: …]" written into a help text as markup and drops it, leaving
    # "Draw from this bag ." behind.
    assert not re.search(r"\S \.( |$)", text), text
    for param in _built(command).params:
        assert "[default" not in (param.help or ""), f"{param.name}: say it with show_default"
        if isinstance(param.show_default, str):
            assert f"default: ({param.show_default})" in text, param.name
    # Values are named as the reader types them (FILE, DIR, N), never <str> or {file}.
    assert not re.search(r"<\w+( range)?>|\{\w", text), text


@pytest.mark.parametrize("command", ROOT_AND_ALL, ids=lambda c: " ".join(c) or "cwx")
def test_every_argument_and_value_has_a_metavar_in_capitals(command: list[str]) -> None:
    for param in _built(command).params:
        if isinstance(param, toolkit.TyperArgument):
            assert re.fullmatch(r"\[?[A-Z]+\]?(\.\.\.)?", param.metavar or ""), param.name
        elif not param.is_flag:
            assert re.fullmatch(r"[A-Z]+", param.metavar or ""), param.name


def test_every_color_option_names_the_colours() -> None:
    seen = 0
    for command in ALL:
        for param in _built(command).params:
            if "--color" in param.opts:
                seen += 1
                assert all(colour in param.help for colour in COLOURS), command
    assert seen >= 3  # bag draw, odds wheel, wheel buy


def test_help_on_a_terminal_is_drawn_with_its_defaults() -> None:
    text = on_a_terminal("odds", "wheel", "--help")
    assert BOXES.search(text)
    read = " ".join(BOXES.sub(" ", ANSI.sub("", text)).split())
    assert re.search(r"Draw from this bag\. \[default: \([^)]*10 spare whites and blacks\)\]",
                     read), read
    assert "Usage: cwx odds wheel [OPTIONS]" in read
    # Colour off is plain text, as Click writes it.
    assert not BOXES.search(on_a_terminal("--paint", "never", "odds", "wheel", "--help"))
    assert not BOXES.search(on_a_terminal("char", "new", "--help", env={"NO_COLOR": "1"}))


@pytest.mark.parametrize("command", [[], ["odds", "wheel"], ["char", "new"]], ids=" ".join)
def test_help_through_a_pipe_is_plain_text(command: list[str]) -> None:
    # `cwx --help | cat`: a program reads it, even where colour is forced.
    for env in ({}, {"FORCE_COLOR": "1"}):
        done = subprocess.run([sys.executable, "-m", "cwx", *command, "--help"],
                              capture_output=True, text=True, env={**os.environ, **env})
        assert done.returncode == 0 and done.stdout.startswith("Usage: cwx")
        assert not BOXES.search(done.stdout) and "\x1b" not in done.stdout


@pytest.mark.skipif(shutil.which("help2man") is None, reason="help2man is not installed")
def test_help2man_makes_a_manual_page_of_every_command(tmp_path: Path) -> None:
    wrapper = tmp_path / "cwx"
    wrapper.write_text(f"#!/bin/sh\nexec {sys.executable} -m cwx \"$@\"\n")
    wrapper.chmod(0o755)
    done = subprocess.run(["help2man", "--no-info", "./cwx"], capture_output=True, text=True,
                          cwd=tmp_path, check=True)
    page = done.stdout
    assert ".SH OPTIONS" in page and "\\-\\-paint" in page
    from cwx import __version__

    assert f'"cwx {__version__}"' in page
    for name in lazy.commands(COMMANDS):
        assert f"\n{name}\n" in page, name
    assert not BOXES.search(page) and "\x1b" not in page
