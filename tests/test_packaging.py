"""What the package index and pre-commit see: a free distribution name, the licence, and
one version everywhere (pyproject, `cwx --version`, the release tag the README names)."""

from __future__ import annotations

import os
import re
import tomllib
from typing import Any

from cwx import templates
from tests.helpers import ROOT, cwx


def _project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        project: dict[str, Any] = tomllib.load(file)["project"]
    return project


def test_the_version_in_pyproject_cwx_version_and_the_pre_commit_rev_agree() -> None:
    version = _project()["version"]
    assert cwx("--version").stdout == f"cwx {version}\n"
    # Releases are tagged vX.Y.Z: the `rev:` a pre-commit user copies names this one.
    for name in ("README.md", ".pre-commit-hooks.yaml"):
        revs = re.findall(r"\brev: (\S+)", (ROOT / name).read_text())
        assert revs and set(revs) == {f"v{version}"}, name


def test_the_distribution_has_its_own_name_and_the_command_stays_cwx() -> None:
    project = _project()
    name = project["name"]
    assert name != "cwx"  # an unrelated project holds it on the package index
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"][
        "targets"]["wheel"]["shared-scripts"]
    assert scripts == {"bin/cwx": "cwx"} and os.access(ROOT / "bin" / "cwx", os.X_OK)
    assert "from cwx.cli.main import main" in (ROOT / "bin" / "cwx").read_text()
    readme = templates.table_readme("table")
    assert f"https://pypi.org/project/{name}/" in readme and "/project/cwx/" not in readme
    assert f"pip install {name}" in (ROOT / "README.md").read_text()


def test_the_licence_ships_and_the_index_can_classify_it() -> None:
    project = _project()
    licence = (ROOT / "LICENSE").read_text()
    assert project["license"] == "MIT" and licence.startswith("MIT License")
    assert "Copyright (c) 2026 the cwx developers" in licence
    assert project["license-files"] == ["LICENSE"]
    assert "Environment :: Console" in project["classifiers"]
    assert "Topic :: Games/Entertainment :: Role-Playing" in project["classifiers"]
    assert project["urls"]


def test_the_installed_command_is_cwxs_own_launcher_which_imports_cwx_first() -> None:
    import subprocess
    import sys
    from pathlib import Path

    installed = Path(sys.executable).parent / "cwx"  # what make's venv installed
    program = installed.read_text()
    assert program.startswith("#!") and "python" in program.splitlines()[0]
    assert "from cwx.cli.main import main" in program and "import re" not in program
    done = subprocess.run([str(installed), "--version"], capture_output=True, text=True,
                          check=True)
    assert done.stdout.startswith("cwx ")
