from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from cwx.cli import output
from tests import helpers
from tests.helpers import EXAMPLES

# Deterministic in CI, so a failure is a failure of the code and reproduces.
settings.register_profile(
    "cwx", deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.load_profile("cwx")


# The suite makes its own environment, whatever the developer's shell holds: who plays and
# commits, colour, the pager, the language, the time zone (tests/test_environment.py runs
# some of the suite with each of these set). A test sets what it needs on top.
SHELLS_OWN = ("GIT_", "CWX_", "LC_", "EMAIL", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "PAGER",
              "LESS", "LV", "LANGUAGE", "EDITOR", "VISUAL", "TZ")
OWN = {"LANG": "C.UTF-8", "TZ": "UTC"}
# git's own upkeep, off for every git the suite starts and the gits those start (a hook's,
# cwx's): each commit, fetch and merge started `git maintenance run --auto` (238 in
# test_sealed.py alone), which finds nothing to do in a test's few objects. Given as
# configuration on the command line (git-config(1), GIT_CONFIG_COUNT), which the tests'
# GIT_CONFIG_GLOBAL=/dev/null leaves in force; cwx reads neither key, and asks git for no
# list of its settings. (git drops it for the receiving end of a push to a folder, which
# still starts `git gc --auto`.)
OWN |= {"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": "maintenance.auto",
        "GIT_CONFIG_VALUE_0": "false", "GIT_CONFIG_KEY_1": "gc.auto", "GIT_CONFIG_VALUE_1": "0"}


COSTS = Path(__file__).with_name("costs.txt")

# The tests' folders on a RAM disk, where the machine has one with room for them: the
# suite's git and cwx's durable writes sync files to disk thousands of times, and on a
# disk each sync waits while the cores idle (the git tests took four times their CPU).
RAM_DISK = "/dev/shm"
ROOM = 4 << 30  # bytes free on it, for the few hundred MB a run keeps (3 runs kept)


def _ram_disk() -> str | None:
    """RAM_DISK where it can hold the tests' folders and run programs from them (a
    container's is often a noexec 64 MB), else None: the system's temporary folder."""
    try:
        disk = os.statvfs(RAM_DISK)
    except OSError:
        return None
    refused = getattr(os, "ST_NOEXEC", 0) | os.ST_RDONLY
    if disk.f_flag & refused or disk.f_bavail * disk.f_frsize < ROOM or \
            not os.access(RAM_DISK, os.W_OK | os.X_OK):
        return None
    return RAM_DISK


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """pytest's folders (tmp_path) and every temporary file the tests' processes make go
    on the RAM disk, unless the developer chose a place (TMPDIR, --basetemp); workers
    inherit it."""
    if "TMPDIR" in os.environ or config.option.basetemp or hasattr(config, "workerinput"):
        return
    if disk := _ram_disk():
        os.environ["TMPDIR"] = tempfile.tempdir = disk


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first (tests/costs.txt), the rest in their files' order: with two
    workers, the run then ends on short tests on both, not on one long one."""
    seconds: dict[str, float] = {}
    for line in COSTS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            cost, name = line.split(maxsplit=1)
            seconds[name] = float(cost)
    items.sort(key=lambda item: -seconds.get(item.nodeid.partition("[")[0], 0.0))


@pytest.fixture(scope="session", autouse=True)
def _own_environment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The shell's variables above cleared, and cwx's key for its redo records kept in the
    tests' own state folder, never the developer's (processes the tests start inherit it)."""
    before = dict(os.environ)
    for name in list(os.environ):
        if name.startswith(SHELLS_OWN):
            del os.environ[name]
    os.environ.update(OWN, XDG_STATE_HOME=str(tmp_path_factory.mktemp("state")))
    time.tzset()
    yield
    os.environ.clear()
    os.environ.update(before)
    time.tzset()


@pytest.fixture(scope="session", autouse=True)
def _kept(tmp_path_factory: pytest.TempPathFactory) -> None:
    """helpers.once keeps the set-ups it builds (a table's origin and clones) here: with
    xdist, in the folder of the run its workers share (each has its own below it)."""
    base = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:
        helpers.KEPT = base.parent / "kept"
        helpers.KEPT.mkdir(exist_ok=True)
    else:
        helpers.KEPT = tmp_path_factory.mktemp("kept")


@pytest.fixture(autouse=True)
def _no_git_config(monkeypatch: pytest.MonkeyPatch) -> None:
    # The git cwx runs (the player's name, the hooks' work) reads no config of this
    # machine's; a player is who the test says (CWX_PLAYER), else the login name.
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("CWX_PLAYER", raising=False)
    from cwx.campaign import players

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
