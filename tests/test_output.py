"""Colour: when cwx paints (--paint, NO_COLOR, CLICOLOR, CLICOLOR_FORCE) and with which
escapes (256 colours only where the terminal takes them)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cwx.cli import output
from cwx.cli.output import colour_on, paint
from tests.helpers import cwx, on_a_terminal

RESOLVE = ["clock", "resolve", "--target", 4, "--guess", 3, "--score", 3]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _piped(*args: object, **env: str) -> str:
    """stdout of a real cwx process writing into a pipe, with `env` added."""
    done = subprocess.run([sys.executable, "-m", "cwx", *map(str, args)], capture_output=True,
                          text=True, env={**os.environ, **env}, check=True)
    return done.stdout


def test_colour_follows_the_terminal_no_color_and_clicolor(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert colour_on(_Terminal()) and not colour_on(io.StringIO())
    for name, value in (("NO_COLOR", "1"), ("CLICOLOR", "0"), ("TERM", "dumb")):
        with monkeypatch.context() as changed:
            changed.setenv(name, value)
            assert not colour_on(_Terminal()), name
    monkeypatch.setenv("CLICOLOR", "1")
    assert colour_on(_Terminal())


def test_clicolor_force_colours_a_pipe_and_no_color_still_wins() -> None:
    plain = _piped(*RESOLVE)
    assert "\x1b[" not in plain
    assert "\x1b[32mSuccess.\x1b[0m" in _piped(*RESOLVE, CLICOLOR_FORCE="1")
    assert _piped(*RESOLVE, CLICOLOR_FORCE="0") == plain
    assert _piped(*RESOLVE, CLICOLOR_FORCE="1", NO_COLOR="1") == plain


def test_paint_always_or_never_overrides_the_terminal_and_the_environment() -> None:
    plain = _piped(*RESOLVE)
    assert "\x1b[" in _piped("--paint", "always", *RESOLVE)
    assert "\x1b[" in _piped("--paint", "always", *RESOLVE, NO_COLOR="1")
    assert "\x1b[" in _piped(*RESOLVE, CWX_PAINT="always")
    assert _piped("--paint", "never", *RESOLVE, CLICOLOR_FORCE="1") == plain
    assert _piped("--paint", "auto", *RESOLVE, CWX_PAINT="always") == plain  # the option wins
    on_screen = on_a_terminal("--paint", "never", *RESOLVE)
    assert "\x1b[" not in on_screen and "Success." in on_screen
    assert "\x1b[32mSuccess." in on_a_terminal(*RESOLVE)


def test_paint_takes_auto_always_or_never_only() -> None:
    ran = cwx("--paint", "sometimes", *RESOLVE)
    assert ran.status == 2
    assert "'sometimes' is not one of 'auto', 'always', 'never'" in ran.error
    assert cwx("--paint", "always", *RESOLVE).stdout.count("\x1b[") > 0


def test_each_command_line_starts_from_its_own_paint() -> None:
    # In one process (the tests' own), a later command line does not inherit --paint.
    assert "\x1b[" in cwx("--paint", "always", *RESOLVE).stdout
    assert output.painting == "always"
    assert "\x1b[" not in cwx(*RESOLVE).stdout


@pytest.mark.parametrize("term, colorterm, escape", [
    ("xterm", "", "\x1b[91m"), ("linux", "", "\x1b[91m"), ("vt100", "", "\x1b[91m"),
    ("", "", "\x1b[91m"), ("xterm-256color", "", "\x1b[38;5;208m"),
    ("screen-256color", "", "\x1b[38;5;208m"), ("xterm", "truecolor", "\x1b[38;5;208m"),
    ("xterm", "24bit", "\x1b[38;5;208m"),
])
def test_orange_is_256_colour_only_where_the_terminal_takes_256_colours(
        term: str, colorterm: str, escape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", term)
    monkeypatch.setenv("COLORTERM", colorterm)
    assert paint("orange", "orange", True) == f"{escape}orange\x1b[0m"
    assert paint("red", "red", True) == "\x1b[31mred\x1b[0m"  # the basic colours stay


def test_a_draw_for_orange_on_a_basic_terminal_has_no_256_colour_escape(
        campaign: Path) -> None:
    args = ["bag", "draw", "--char", campaign / "sue.toml", "--bag", campaign / "bag.toml",
            "--color", "orange", "--drawn", "red"]
    basic = on_a_terminal(*args, env={"TERM": "xterm", "COLORTERM": ""})
    assert "\x1b[91morange\x1b[0m" in basic and "38;5" not in basic
    rich = on_a_terminal(*args, env={"TERM": "xterm-256color", "COLORTERM": ""})
    assert "\x1b[38;5;208morange\x1b[0m" in rich
