"""Real processes at once on one campaign folder: no update is lost, nothing deadlocks."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from tests.helpers import journal


def start(*args: object) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "cwx", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(processes: list[subprocess.Popen[str]], timeout: float = 120) -> None:
    for process in processes:
        _out, err = process.communicate(timeout=timeout)
        assert process.returncode == 0, err


def test_twenty_concurrent_resolves_on_one_character_lose_no_experience(campaign: Path) -> None:
    kris = campaign / "kris.toml"
    # A critical success with Tough 5 earns 10 each time.
    finish([start("clock", "resolve", "--target", 7, "--guess", 7, "--trait", "Tough",
                  "--char", kris, "--json") for _ in range(20)])
    assert tomllib.loads(kris.read_text())["xp"] == 200
    events = journal(campaign)
    assert len(events) == 20
    assert sorted(e["result"]["xp_total"] for e in events) == list(range(10, 201, 10))
