"""The suite passes in anyone's shell: tests/conftest.py makes its own environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What a developer's shell may hold that cwx, git or the pager read.
A_SHELL = {
    "GIT_AUTHOR_NAME": "Tester", "GIT_AUTHOR_EMAIL": "tester@example.org",
    "GIT_COMMITTER_NAME": "Tester", "GIT_COMMITTER_EMAIL": "tester@example.org",
    "GIT_AUTHOR_DATE": "2001-01-01T00:00:00", "GIT_COMMITTER_DATE": "2001-01-01T00:00:00",
    "CWX_PLAYER": "Tester", "NO_COLOR": "1", "PAGER": "false", "CWX_PAGER": "false",
    "LANG": "C", "LC_ALL": "C", "TZ": "Pacific/Chatham",
}

# A few tests that read each of those: the player, colour, local times, the pager.
SAMPLE = [
    "tests/test_players.py::test_the_player_is_the_clones_git_author_unless_cwx_player_says",
    "tests/test_output.py::test_colour_follows_the_terminal_no_color_and_clicolor",
    "tests/test_times.py",
    "tests/test_pager.py::test_log_on_a_terminal_goes_through_the_pager",
]


def test_a_sample_of_the_suite_passes_with_the_shells_variables_set(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
         "-n", "0", "--basetemp", str(tmp_path / "base"), *SAMPLE],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, **A_SHELL})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
