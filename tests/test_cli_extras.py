"""Around the commands: shell completion and the clock face."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import cwx


def _complete(words: str, cwd: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "cwx"], capture_output=True, text=True, cwd=cwd,
        env={**os.environ, "_CWX_COMPLETE": "bash_complete",
             "COMP_WORDS": words.replace(" ", "\n"),  # as the script joins them
             "COMP_CWORD": str(len(words.split(" ")) - 1)})
    return done.stdout.split()


def test_completion_offers_the_characters_traits_and_the_colours(campaign: Path) -> None:
    assert _complete("cwx clock resolve --char kris.toml --trait ", campaign) == [
        "Scrounge", "Repair", "Tough"]
    assert _complete("cwx bag draw --char sue.toml --trait A", campaign) == ["Athletic"]
    assert _complete("cwx bag draw --color g", campaign) == ["green"]


def test_completion_offers_the_campaigns_characters_and_bags(tmp_path: Path) -> None:
    from tests.helpers import saga

    folder = saga(tmp_path / "camp", kris="pcs/kris.toml")
    assert cwx("bag", "new", folder / "bag2.toml").status == 0
    assert _complete("cwx log --char ", folder) == ["Kris", "pcs/kris.toml", "sue"]
    assert _complete("cwx bag draw --char ", folder) == ["sue"]  # the command's system's
    assert _complete("cwx clock resolve -c k", folder) == ["Kris"]
    for offered in ("Kris", "pcs/kris.toml", "sue"):  # what it offers works
        assert cwx("char", "show", offered, cwd=folder).status == 0
    assert _complete("cwx luck curse -c sue -b ", folder) == ["bag.toml", "bag2.toml"]
    assert _complete("cwx party K", folder) == ["Kris"]


def test_the_clock_face_reads_plain_when_piped_and_with_no_color() -> None:
    args = ["clock", "resolve", "--target", "1", "--guess", "11", "--score", "3"]
    plain = cwx(*args).stdout
    assert "(11)" in plain and "[1]" in plain and "·12·" in plain and "1 inside" in plain
    coloured = cwx(*args, env={"FORCE_COLOR": "1"}).stdout
    assert "\x1b[" in coloured
    assert "\x1b[" not in cwx(*args, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    piped = subprocess.run([sys.executable, "-m", "cwx", *args], capture_output=True, text=True)
    assert piped.stdout == plain
