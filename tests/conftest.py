from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from cwx.cli import output
from tests.helpers import EXAMPLES

# Deterministic in CI, so a failure is a failure of the code and reproduces.
settings.register_profile(
    "cwx", deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.load_profile("cwx")


@pytest.fixture(scope="session", autouse=True)
def _state_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """cwx keeps this user's key for its redo records in the state folder: the tests' own,
    never the developer's (processes the tests start inherit it)."""
    before = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.mktemp("state"))
    yield
    if before is None:
        del os.environ["XDG_STATE_HOME"]
    else:
        os.environ["XDG_STATE_HOME"] = before


@pytest.fixture(autouse=True)
def _no_git_config(monkeypatch: pytest.MonkeyPatch) -> None:
    # The git cwx runs (the player's name, the hooks' work) reads no config of this
    # machine's; a player is who the test says (CWX_PLAYER), else the login name.
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("CWX_PLAYER", raising=False)
    from cwx import players

    monkeypatch.setattr(players, "_found", {})


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    """A fresh copy of the shipped example campaign folder."""
    folder = tmp_path / "campaign"
    shutil.copytree(EXAMPLES, folder)
    return folder


@pytest.fixture(autouse=True)
def _no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    # Whatever the developer's shell asks of colour, a test starts from auto, and each
    # in-process run from the --paint of its own command line.
    for name in ("FORCE_COLOR", "CLICOLOR_FORCE", "CLICOLOR", "CWX_PAINT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(output, "painting", "auto")
