"""Long work shows its progress on a terminal's standard error, as git's does: a count
and a rate, erased when done; nothing into a pipe or with --json."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cwx.cli import progress
from tests.helpers import EXAMPLES, at_a_terminal

# cwx with progress shown at once (the seam: progress.AFTER), as for work over a second.
AT_ONCE = ("import sys\nfrom cwx.cli import progress\nprogress.AFTER = 0\n"
           "sys.argv = ['cwx', *sys.argv[1:]]\nfrom cwx.cli.main import main\nmain()\n")
CWX_AT_ONCE = [sys.executable, "-c", AT_ONCE]
SHOWN = re.compile(r"(Checking|Reading) the journal: [\d,]+ events \([\d,]+/s\)")


@pytest.fixture(scope="module")
def long_campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example campaign with a journal of 3,000 draws."""
    folder = tmp_path_factory.mktemp("long") / "campaign"
    shutil.copytree(EXAMPLES, folder)
    (folder / "campaign.toml").write_text('[campaign]\nbag = "bag.toml"\n')
    with open(folder / "journal.jsonl", "w") as file:
        for n in range(3000):
            file.write(json.dumps({
                "v": 2, "id": f"{n:016x}", "at": f"2026-01-01T{n // 3600:02d}:"
                f"{n // 60 % 60:02d}:{n % 60:02d}.000Z", "command": "bag draw", "who": "Sue",
                "file": "sue.toml", "bag": "bag.toml", "result": {"color": "red", "draws": [
                    "red"], "success": True}, "changes": []}, separators=(",", ":")) + "\n")
    return folder


def screen(text: str) -> list[str]:
    """The lines a terminal shows at the end: each carriage return writes over its line."""
    lines = []
    for line in text.split("\n"):
        shown = ""
        for piece in line.split("\r"):
            shown = piece + shown[len(piece):]
        lines.append(shown.rstrip())
    return lines


@pytest.mark.parametrize("args", [["check"], ["log", "--last", "3", "--no-pager"], ["recap", "--no-pager"]])
def test_progress_shows_on_a_terminal_and_is_erased(long_campaign: Path,
                                                    args: list[str]) -> None:
    _, seen = at_a_terminal([*CWX_AT_ONCE, *args], cwd=long_campaign)
    assert SHOWN.search(seen), seen[:500]
    assert not any(SHOWN.search(line) for line in screen(seen)), seen[-500:]


@pytest.mark.parametrize("args", [["check", "--json"], ["log", "--last", "3", "--json"], ["recap", "--json"]])
def test_no_progress_with_json(long_campaign: Path, args: list[str]) -> None:
    _, seen = at_a_terminal([*CWX_AT_ONCE, *args], cwd=long_campaign)
    assert not SHOWN.search(seen) and seen.startswith("{")


@pytest.mark.parametrize("args", [["check"], ["log", "--last", "3"]])
def test_no_progress_into_a_pipe(long_campaign: Path, args: list[str]) -> None:
    done = subprocess.run([*CWX_AT_ONCE, *args], cwd=long_campaign, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout and not SHOWN.search(done.stderr), done.stderr


def test_progress_waits_a_second_then_says_count_and_rate(
        monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    meter = progress.Meter("Reading the journal")
    now[0] = 100.9
    meter(90_000)
    assert sys.stderr.getvalue() == ""  # under a second: silence
    now[0] = 103.0
    meter(182_000)
    said = sys.stderr.getvalue()
    assert said == "\rReading the journal: 182,000 events (60,667/s)"
    now[0] = 103.05
    meter(185_000)
    assert sys.stderr.getvalue() == said  # a tenth of a second between showings
    meter.erase()
    assert screen(sys.stderr.getvalue()) == [""]


def test_a_second_pass_counts_its_rate_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [0.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    meter = progress.Meter("Reading the journal")
    for second in range(1, 6):  # 100,000 lines a second for 5 seconds
        now[0] = second
        meter(second * 100_000)
    now[0] = 6.0  # then 10,000 events in the next pass's first second
    meter(10_000)
    assert screen(sys.stderr.getvalue()) == ["Reading the journal: 10,000 events (10,000/s)"]
