"""Windows players (simulated: the POSIX-only names hidden before cwx imports): the
stateless commands work, a campaign command says in one line that it needs POSIX."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# What Python on Windows lacks of what cwx's file layer uses, hidden before cwx imports.
WINDOWS = """\
import os, signal, sys
for module in ("fcntl", "pwd", "grp", "termios"):
    sys.modules[module] = None  # its import fails, as on Windows
for name in ("O_NONBLOCK", "O_NOFOLLOW", "O_CLOEXEC", "O_DIRECTORY", "O_NOCTTY", "getuid",
             "geteuid", "getgid", "fchmod", "fchown"):
    if hasattr(os, name):
        delattr(os, name)
del signal.pthread_sigmask
sys.argv = ["cwx", *sys.argv[1:]]
from cwx.cli.main import main
main()
"""

NEEDS_POSIX = "cwx: error: campaign files need a POSIX system: Linux, macOS, or WSL on Windows"


def on_windows(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", WINDOWS, *args], cwd=folder,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("args", "said"), [
    (["--version"], "cwx "),
    (["odds", "wheel", "--color", "red"], "red"),
    (["odds", "clock", "--score", "3"], "critical"),
    (["clock", "resolve", "--score", "3", "--target", "4", "--guess", "4"], "+6 xp"),
    (["clock", "pick", "--seed", "1"], "The GM's number is"),
])
def test_the_stateless_commands_work_without_posix(campaign: Path, args: list[str],
                                                   said: str) -> None:
    ran = on_windows(campaign, *args)
    assert ran.returncode == 0 and said in ran.stdout and not ran.stderr, ran.stderr


@pytest.mark.parametrize("args", [
    ["check"],
    ["log"],
    ["init", "new-campaign"],
    ["clock", "resolve", "-c", "kris", "-t", "Repair", "--target", "4", "--guess", "4"],
    ["undo"],
    ["party"],
])
def test_a_campaign_command_without_posix_says_so_in_one_line(
        campaign: Path, args: list[str]) -> None:
    before = {path.name: path.read_bytes() for path in campaign.iterdir()}
    ran = on_windows(campaign, *args)
    assert ran.returncode == 2 and ran.stderr.startswith(NEEDS_POSIX), ran.stderr
    assert ran.stderr.count("\n") == 1 and not ran.stdout
    assert {path.name: path.read_bytes() for path in campaign.iterdir()} == before


def test_cwx_itself_has_what_campaign_files_need_here() -> None:
    from cwx.base import posix

    assert posix.SUPPORTED and posix.needed() is None
