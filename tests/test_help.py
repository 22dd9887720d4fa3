"""Help as the CLIs players know give it: a whole short sentence a command in the list,
`cwx help COMMAND` as git's and ruff's, and `cwx` alone a usage error (2) that shows help."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cwx.cli import lazy
from cwx.cli.app import COMMANDS, app
from tests.helpers import cwx, cwx_process

LONGEST = 60  # fits the list of `cwx --help` at 80 columns, where Click cuts at 63


def _summaries() -> dict[str, str]:
    """Each command's and group's summary, by its words: its help's first paragraph."""
    found = {}
    for name in lazy.commands(COMMANDS):
        module = importlib.import_module(f"{COMMANDS}.{name}").app
        if lazy.single(module, name):
            docs = {name: module.registered_commands[0].callback.__doc__ or ""}
        else:
            docs = {name: module.info.help}
            docs |= {f"{name} {info.name}": info.callback.__doc__ or ""
                     for info in module.registered_commands if not info.hidden}
        for words, doc in docs.items():
            found[words] = " ".join(str(doc).strip().split("\n\n")[0].split())
    return found


def test_every_summary_is_one_whole_short_sentence() -> None:
    summaries = _summaries()
    assert "bag draw" in summaries and "help" in summaries
    for words, summary in summaries.items():
        assert len(summary) <= LONGEST, (words, summary)
        # One sentence: Typer's rich help shows the whole first paragraph, Click's the
        # first sentence; the two agree only when the paragraph is that sentence.
        assert summary.endswith(".") and not re.search(r"[.?!] ", summary), (words, summary)


@pytest.mark.parametrize("words", [[], *[[group] for group in
                                         ("bag", "char", "clock", "luck", "odds", "wheel")]])
def test_no_summary_in_a_list_of_commands_is_cut_short(words: list[str]) -> None:
    for columns in ("80", "100"):
        said = CliRunner().invoke(app, [*words, "--help"], prog_name="cwx",
                                  env={"COLUMNS": columns, "NO_COLOR": "1"}).output
        listed = said.split("Commands:")[1]
        assert "..." not in listed and "…" not in listed, listed


def test_help_shows_a_commands_help_as_its_option_does() -> None:
    for words in (["bag", "draw"], ["check"], ["clock"], []):
        asked, shown = cwx("help", *words), cwx(*words, "--help")
        assert asked.status == 0 and asked.stdout == shown.stdout
        assert asked.stdout.startswith(f"Usage: {' '.join(['cwx', *words])} ")
    wrong = cwx("help", "chek")
    assert wrong.status == 2 and "No such command 'chek' (did you mean 'check'" in wrong.error


def test_cwx_alone_shows_its_help_and_exits_2() -> None:
    ran = cwx_process()
    assert ran.status == 2 and ran.stdout.startswith("Usage: cwx [OPTIONS] COMMAND")
    assert "Commands:" in ran.stdout  # and the usage error in cwx's one line:
    assert ran.stderr == ("cwx: error: no command given: the commands are listed above, and "
                          "`cwx help COMMAND` shows one's help\n")
    group = cwx("char")  # a group alone lists its commands, as before
    assert group.status == 0 and "Commands:" in group.stdout


def test_help_completes_the_commands(tmp_path: Path) -> None:
    def offered(*words: str) -> list[str]:
        done = subprocess.run([sys.executable, "-m", "cwx"], capture_output=True, text=True,
                              cwd=tmp_path, env={**os.environ, "_CWX_COMPLETE": "bash_complete",
                                                 "COMP_WORDS": "\n".join(["cwx", *words]),
                                                 "COMP_CWORD": str(len(words))})
        return done.stdout.split()

    assert offered("help", "c") == ["char", "check", "clock"]
    assert offered("help", "clock", "") == ["pick", "reveal", "verify", "resolve"]
    assert offered("help", "check", "") == []
