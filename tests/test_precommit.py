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
    env = {**os.environ, "GIT_AUTHOR_NAME": "p", "GIT_AUTHOR_EMAIL": "p@x",
           "GIT_COMMITTER_NAME": "p", "GIT_COMMITTER_EMAIL": "p@x",
           "PIP_NO_COMPILE": "1"}  # the hook runs once: compiling every module buys nothing
    good, bad = tmp_path / "good", tmp_path / "bad"
    for campaign in (good, bad):
        subprocess.run(["git", "init", "--quiet", "-b", "main", str(campaign)], check=True,
                       env=env)
        assert cwx("init", campaign).status == 0
    shutil.copy(ROOT / "tests" / "data" / "bad" / "char-xp-negative.toml", bad / "bad.toml")
    for campaign in (good, bad):
        subprocess.run(["git", "add", "-A"], cwd=campaign, check=True, env=env)
    # Each try-repo installs cwx into a new environment of its own, mostly waiting on pip:
    # the two campaigns are tried at once.
    trying = {campaign: subprocess.Popen(
        [str(PRE_COMMIT), "try-repo", str(ROOT), "cwx-check"], cwd=campaign,
        env={**env, "HOME": str(campaign.with_name(f"home-{campaign.name}")),
             "PRE_COMMIT_HOME": str(campaign.with_name(f"cache-{campaign.name}"))},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for campaign in (good, bad)}
    said = {campaign: (process.communicate(timeout=900), process.returncode)
            for campaign, process in trying.items()}
    if any("Could not find a version" in out + err for (out, err), _ in said.values()):
        pytest.skip("pre-commit cannot install cwx's dependencies here")
    (out, err), status = said[good]
    assert status == 0, out + err
    assert "cwx check" in out and "Passed" in out
    (out, err), status = said[bad]
    assert status == 1 and "Failed" in out, out + err
    assert "bad.toml:" in out and "[xp]" in out
