"""cwx's hook as the pre-commit framework runs it (#22): `pre-commit try-repo` on this
checkout, inside a campaign repository, refuses a broken sheet naming the file and
passes a good campaign. Real pre-commit, installing cwx from this checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT, cwx

PRE_COMMIT = Path(sys.executable).parent / "pre-commit"


@pytest.mark.skipif(not PRE_COMMIT.exists(), reason="pre-commit is not installed (make test "
                    "installs it with the dev extras)")
def test_pre_commit_try_repo_runs_cwx_check_on_the_campaign(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "PRE_COMMIT_HOME": str(tmp_path / "cache"),
           "GIT_AUTHOR_NAME": "p", "GIT_AUTHOR_EMAIL": "p@x", "GIT_COMMITTER_NAME": "p",
           "GIT_COMMITTER_EMAIL": "p@x"}
    campaign = tmp_path / "campaign"
    subprocess.run(["git", "init", "--quiet", "-b", "main", str(campaign)], check=True, env=env)
    assert cwx("init", campaign).status == 0
    subprocess.run(["git", "add", "-A"], cwd=campaign, check=True, env=env)

    def try_repo() -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(PRE_COMMIT), "try-repo", str(ROOT), "cwx-check"],
                              cwd=campaign, env=env, capture_output=True, text=True)

    good = try_repo()
    if good.returncode != 0 and "Could not find a version" in good.stdout + good.stderr:
        pytest.skip("pre-commit cannot install cwx's dependencies here")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "cwx check" in good.stdout and "Passed" in good.stdout
    shutil.copy(ROOT / "tests" / "data" / "bad" / "char-xp-negative.toml", campaign / "bad.toml")
    subprocess.run(["git", "add", "bad.toml"], cwd=campaign, check=True, env=env)
    bad = try_repo()
    assert bad.returncode == 1 and "Failed" in bad.stdout
    assert "bad.toml:" in bad.stdout and "[xp]" in bad.stdout
