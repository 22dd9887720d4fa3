"""What the package index and pre-commit see: a free distribution name, the licence, and
one version everywhere (pyproject, `cwx --version`, the release tag the README names)."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cwx.systems import templates
from tests.helpers import ROOT, cwx


def _project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        project: dict[str, Any] = tomllib.load(file)["project"]
    return project


def test_the_version_agrees_and_the_pre_commit_rev_is_one_that_exists() -> None:
    version = _project()["version"]
    assert cwx("--version").stdout == f"cwx {version}\n"
    # The `rev:` a pre-commit user copies: a commit, with the command that prints it, or a
    # release tag this repository has (`pre-commit try-repo` fails on one it has not).
    tags = subprocess.run(["git", "-C", str(ROOT), "tag", "--list"], capture_output=True,
                          text=True).stdout.split()
    for name in ("README.md", ".pre-commit-hooks.yaml"):
        text = (ROOT / name).read_text()
        revs = re.findall(r"\brev: (\S+)", text)
        assert revs, name
        for rev in revs:
            assert (rev == "COMMIT-ID" and "rev-parse HEAD" in text) or \
                (rev == f"v{version}" and rev in tags), (name, rev)


def test_the_distribution_has_its_own_name_and_the_command_stays_cwx() -> None:
    project = _project()
    name = project["name"]
    assert name != "cwx"  # an unrelated project holds it on the package index
    assert project["scripts"] == {"cwx": "cwx.cli.main:main"}
    readme = (ROOT / "README.md").read_text()
    # Not on the package index yet: the README says how to install from a clone, and
    # names no index page or placeholder address that looks real.
    assert "pipx install ." in readme and f"pip install {name}" not in readme
    assert "pypi.org" not in readme + templates.table_readme("table")
    assert "example.invalid" not in readme and "urls" not in project
    # The versions the tests run on: the oldest claimed (make test's own venv), and the
    # newest (make pytest-next, where the machine has it).
    found = re.search(r"^NEXT := (\S+)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert found is not None and project["requires-python"] == ">=3.11"
    assert [c for c in project["classifiers"] if c.startswith("Programming Language :: Python :: 3.")] \
        == ["Programming Language :: Python :: 3.11", f"Programming Language :: Python :: {found[1]}"]


def test_the_licence_ships_and_the_index_can_classify_it() -> None:
    project = _project()
    licence = (ROOT / "LICENSE").read_text()
    assert project["license"] == "MIT" and licence.startswith("MIT License")
    assert "Copyright (c) 2026 the cwx developers" in licence
    assert project["license-files"] == ["LICENSE"]
    assert "Environment :: Console" in project["classifiers"]
    assert "Topic :: Games/Entertainment :: Role-Playing" in project["classifiers"]


def test_the_wheel_declares_the_console_script_and_ships_the_man_pages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What pipx, uv tool and importlib.metadata read: the wheel's entry points; and the
    # man pages where pip and pipx install a wheel's data (share/man/man1: `man cwx`).
    # Built by the backend pyproject.toml names, called as pip calls it (PEP 517), here:
    # pip's own build, in an environment of its own, is tests/test_precommit.py's.
    import zipfile

    with (ROOT / "pyproject.toml").open("rb") as file:
        backend = tomllib.load(file)["build-system"]["build-backend"]
    builder = pytest.importorskip(backend, reason="the build backend is installed with "
                                  "the dev extras (make test installs them)")
    monkeypatch.chdir(ROOT)  # a PEP 517 backend builds the project it is run in
    built = builder.build_wheel(str(tmp_path))
    assert [wheel.name for wheel in tmp_path.iterdir()] == [built]
    wheel = tmp_path / built
    with zipfile.ZipFile(wheel) as archive:
        [points] = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
        text = archive.read(points).decode()
        assert "cwx/py.typed" in archive.namelist()
        pages = {name.rsplit("/", 1)[1]: archive.read(name).decode()
                 for name in archive.namelist() if "/share/man/man1/" in name}
        data = {name.split("/share/")[0] for name in archive.namelist() if "/share/" in name}
    assert "[console_scripts]\ncwx = cwx.cli.main:main" in text
    shipped = {path.name: path.read_text() for path in (ROOT / "docs" / "man").glob("*.1")}
    assert pages == shipped and "cwx.1" in pages and "cwx-bag-draw.1" in pages
    assert data == {f"cwx_rpg-{_project()['version']}.data/data"}  # the wheel's data scheme


def test_the_installed_command_runs_cwx() -> None:
    import subprocess
    import sys

    installed = Path(sys.executable).parent / "cwx"  # what make's venv installed
    done = subprocess.run([str(installed), "--version"], capture_output=True, text=True,
                          check=True)
    assert done.stdout.startswith("cwx ")
