"""The `cwx` process: how it ends when its reader goes away (`cwx … | head -1`)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import EXAMPLES, cwx

# Every way cwx writes: a result, JSON, a table, a stream, help (Typer's own, rich or
# Click's, and the help of a group without a command), the version.
WRITERS = [
    ["schema", "bag"], ["--help"], ["clock", "--help"], ["odds", "wheel", "--help"], ["help"],
    ["clock"], ["--version"], ["clock", "pick"], ["char", "show", "kris.toml"],
    ["odds", "wheel", "--all"], ["odds", "clock", "--all", "--json"], ["log"],
    ["log", "--jsonl"], ["check"],
]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example campaign after a session of play (the tests here only read it)."""
    campaign = tmp_path_factory.mktemp("played") / "campaign"
    shutil.copytree(EXAMPLES, campaign)
    for _ in range(40):
        cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
            "--char", campaign / "kris.toml")
    return campaign


@pytest.mark.parametrize("args", WRITERS, ids=lambda a: " ".join(a) or "cwx")
def test_head_1_in_a_pipefail_script_sees_cwx_end_with_0(args: list[str], played: Path) -> None:
    command = shlex.join([sys.executable, "-m", "cwx", *args])
    done = subprocess.run(["bash", "-c", f"set -o pipefail; {command} | head -1 >/dev/null"],
                          capture_output=True, text=True, cwd=played, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


def _into_a_closed_pipe(args: list[str], cwd: Path, *, buffered: bool = True,
                        ) -> subprocess.CompletedProcess[str]:
    """Run cwx writing into a pipe whose reader has already gone: every write fails, in
    the command (unbuffered) or as Python flushes what it holds (buffered)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run([sys.executable, "-m", "cwx", *args], stdout=writer,
                              stderr=subprocess.PIPE, text=True, cwd=cwd, env=env, timeout=60)
    finally:
        os.close(writer)


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("args", WRITERS, ids=lambda a: " ".join(a) or "cwx")
def test_a_reader_gone_before_cwx_writes_ends_it_quietly_with_0(
        args: list[str], buffered: bool, played: Path) -> None:
    done = _into_a_closed_pipe(args, played, buffered=buffered)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_a_broken_pipe_does_not_turn_a_failed_action_into_a_success(
        buffered: bool, campaign: Path) -> None:
    # The draw is made and saved; what the script branches on (exit 1) still holds.
    done = _into_a_closed_pipe(["bag", "draw", "--char", "sue.toml", "--bag", "bag.toml",
                                "--color", "blue", "--drawn", "red", "--exit-code"], campaign,
                               buffered=buffered)
    assert (done.returncode, done.stderr) == (1, "")
    assert "bag draw" in (campaign / "journal.jsonl").read_text()


def test_an_error_still_says_so_when_the_reader_has_gone(campaign: Path) -> None:
    done = _into_a_closed_pipe(["char", "show", "nobody.toml"], campaign)
    assert done.returncode == 2 and done.stderr.startswith("cwx: error: nobody.toml")


# ---------------------------------------------------------------- output that cannot be written

FULL = ["log", "check", "char show kris.toml", "bag show bag.toml", "odds clock --all",
        "clock pick", "log --jsonl", "--help"]


def _run_shell(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = shlex.join([sys.executable, "-m", "cwx"])
    return subprocess.run(["sh", "-c", f"{command} {line}"], capture_output=True, text=True,
                          cwd=cwd, timeout=60)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", FULL)
def test_output_to_a_full_disk_is_one_line_and_exit_2(args: str, played: Path) -> None:
    done = _run_shell(f"{args} >/dev/full", played)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "cwx: error: could not write the output (No space left on device); nothing was "
        "changed"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("json", [False, True], ids=["text", "json"])
def test_a_draw_whose_output_is_lost_says_it_was_saved(json: bool, campaign: Path) -> None:
    flag = " --json" if json else ""
    done = _run_shell("bag draw -c sue.toml -b bag.toml -C blue --drawn red" + flag +
                      " >/dev/full", campaign)
    assert (done.returncode, done.stderr.splitlines()) == (2, [
        "cwx: error: could not write the output (No space left on device); the change was "
        "saved"])
    assert "bag draw" in (campaign / "journal.jsonl").read_text()


@pytest.mark.parametrize("args", ["log", "bag draw -c sue.toml -b bag.toml -C blue --drawn red"])
def test_a_closed_standard_output_does_nothing_and_says_so(args: str, campaign: Path) -> None:
    done = _run_shell(f"{args} >&-", campaign)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("cwx: error: standard output is closed")
    assert not (campaign / "journal.jsonl").exists()


def test_closed_input_and_error_streams_take_no_file_of_cwx(campaign: Path) -> None:
    # With fd 0 and 2 closed, the next file cwx opens would take their number.
    done = _run_shell("bag draw -c sue.toml -b bag.toml -C blue --drawn red --json <&- 2>&-",
                      campaign)
    assert done.returncode == 0 and '"success": false' in done.stdout
    assert (campaign / "journal.jsonl").read_text().count("\n") == 1
