"""cwx's hook as the pre-commit framework runs it (#22): a campaign whose
`.pre-commit-config.yaml` names this checkout and a commit of it, as the README says,
refuses a broken sheet naming the file and passes a good campaign. Real pre-commit,
installing cwx from this checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT, cwx

PRE_COMMIT = Path(sys.executable).parent / "pre-commit"


def _checkout_committed(into: Path, env: dict[str, str]) -> str:
    """This checkout's files as git sees them (tracked or not ignored, changes not yet
    committed included, as `pre-commit try-repo` takes them), committed in a repository
    of their own: its commit id."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, check=True, env=env,
                            capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():  # a file deleted but not yet committed is left out
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, into / name, follow_symlinks=False)
    subprocess.run(["git", "init", "--quiet", "-b", "main", str(into)], check=True, env=env)
    subprocess.run(["git", "add", "-A"], cwd=into, check=True, env=env)
    subprocess.run(["git", "commit", "--quiet", "--no-verify", "-m", "cwx"], cwd=into,
                   check=True, env=env)
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=into, check=True, env=env,
                          capture_output=True, text=True).stdout.strip()


@pytest.mark.skipif(not PRE_COMMIT.exists(), reason="pre-commit is not installed (make test "
                    "installs it with the dev extras)")
def test_pre_commit_installs_cwx_and_runs_cwx_check_on_the_campaign(tmp_path: Path) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "p", "GIT_AUTHOR_EMAIL": "p@x",
           "GIT_COMMITTER_NAME": "p", "GIT_COMMITTER_EMAIL": "p@x",
           "HOME": str(tmp_path / "home"), "PRE_COMMIT_HOME": str(tmp_path / "cache"),
           "PIP_NO_COMPILE": "1"}  # the hook runs twice: compiling every module buys nothing
    rev = _checkout_committed(tmp_path / "cwx", env)
    config = (f"repos:\n  - repo: {tmp_path / 'cwx'}\n    rev: {rev}\n"
              "    hooks:\n      - id: cwx-check\n")
    good, bad = tmp_path / "good", tmp_path / "bad"
    for campaign in (good, bad):
        subprocess.run(["git", "init", "--quiet", "-b", "main", str(campaign)], check=True,
                       env=env)
        assert cwx("init", campaign).status == 0
        (campaign / ".pre-commit-config.yaml").write_text(config)
    shutil.copy(ROOT / "tests" / "data" / "bad" / "char-xp-negative.toml", bad / "bad.toml")
    said = {}
    # One cache: the first run installs cwx into an environment of its own (mostly pip's
    # work), the second finds it there, as a player's second campaign would.
    for campaign in (good, bad):
        subprocess.run(["git", "add", "-A"], cwd=campaign, check=True, env=env)
        ran = subprocess.run([str(PRE_COMMIT), "run"], cwd=campaign, env=env, timeout=900,
                             capture_output=True, text=True)
        said[campaign] = ran.stdout + ran.stderr, ran.returncode
        if "Could not find a version" in said[campaign][0]:
            pytest.skip("pre-commit cannot install cwx's dependencies here")
    out, status = said[good]
    assert status == 0, out
    assert "cwx check" in out and "Passed" in out
    out, status = said[bad]
    assert status == 1 and "Failed" in out, out
    assert "bad.toml:" in out and "[xp]" in out
