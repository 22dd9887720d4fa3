"""`log` and `recap` page on a terminal, as git's commands do, and never into a pipe."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.helpers import at_a_terminal, saga

CWX = [sys.executable, "-m", "cwx"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.helpers import cwx

    camp = saga(tmp_path_factory.mktemp("paged") / "saga", kris="kris.toml")
    assert cwx("clock", "resolve", "-c", "kris", "-t", "Repair", "-T", 4, "-g", 4,
               cwd=camp).status == 0
    return camp


def a_pager(folder: Path) -> tuple[str, Path]:
    """A pager that records what it was given (and LESS, as it found it) in a file."""
    record = folder / "paged.txt"
    script = folder / "pager.sh"
    script.write_text(f'printf "LESS=%s\\n" "$LESS" > {shlex.quote(str(record))}\n'
                      f"cat >> {shlex.quote(str(record))}\n")
    return f"sh {shlex.quote(str(script))}", record


@pytest.mark.parametrize("args", [["log"], ["recap"]])
def test_log_and_recap_on_a_terminal_go_through_the_pager(
        played: Path, tmp_path: Path, args: list[str]) -> None:
    pager, record = a_pager(tmp_path)
    status, shown = at_a_terminal([*CWX, *args], cwd=played, env={"CWX_PAGER": pager})
    assert status == 0, shown
    paged = record.read_text()
    assert paged.startswith("LESS=FRX\n")
    assert "Kris" in paged and "Kris" not in shown  # all of it went to the pager


def test_log_on_a_terminal_goes_through_the_pager(played: Path, tmp_path: Path) -> None:
    pager, record = a_pager(tmp_path)
    # CWX_PAGER before PAGER, and the player's own LESS kept
    status, _ = at_a_terminal([*CWX, "log"], cwd=played,
                              env={"CWX_PAGER": pager, "PAGER": "false", "LESS": "R"})
    assert status == 0 and record.read_text().startswith("LESS=R\nwhen ")
    record.unlink()
    status, _ = at_a_terminal([*CWX, "log"], cwd=played, env={"PAGER": pager})
    assert status == 0 and "clock resolve" in record.read_text()


@pytest.mark.parametrize(("args", "env"), [
    (["log", "--no-pager"], {}),
    (["recap", "--no-pager"], {}),
    (["log", "--json"], {}),
    (["recap", "--json"], {}),
    (["log"], {"CWX_PAGER": "cat"}),
    (["log"], {"CWX_PAGER": ""}),  # an empty CWX_PAGER is none, whatever PAGER says
])
def test_no_pager_when_asked_or_for_json(played: Path, tmp_path: Path, args: list[str],
                                         env: dict[str, str]) -> None:
    pager, record = a_pager(tmp_path)
    status, shown = at_a_terminal([*CWX, *args], cwd=played, env={"PAGER": pager, **env})
    assert status == 0 and "Kris" in shown
    assert not record.exists()


@pytest.mark.parametrize("args", [["log"], ["recap"]])
def test_nothing_pages_into_a_pipe(played: Path, tmp_path: Path, args: list[str]) -> None:
    pager, record = a_pager(tmp_path)
    status, _ = at_a_terminal([*CWX, *args], cwd=played, env={"CWX_PAGER": pager},
                              stdout=tmp_path / "out.txt")
    assert status == 0 and "Kris" in (tmp_path / "out.txt").read_text()
    assert not record.exists()


def test_a_pager_that_quits_early_ends_cwx_quietly(played: Path, tmp_path: Path) -> None:
    status, shown = at_a_terminal([*CWX, "log"], cwd=played, env={"CWX_PAGER": "true"})
    assert status == 0 and "error" not in shown and "Kris" not in shown
