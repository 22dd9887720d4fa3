"""--dry-run (#22): every command that can change more than the one action it records
says what it would do, in the same words, and changes nothing: no file, no journal line,
no git."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers import cwx, saga


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and ".git" not in p.parts}


@pytest.fixture
def table(tmp_path: Path) -> Path:
    folder = saga(tmp_path / "table", kris="kris.toml")
    subprocess.run(["git", "init", "--quiet", "-b", "main"], cwd=folder, check=True)
    subprocess.run(["git", "add", "-A"], cwd=folder, check=True)
    assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c", "kris",
               cwd=folder).status == 0
    kris = folder / "kris.toml"
    kris.write_text(kris.read_text().replace("Tough = 5", "Tough = 6"))  # a hand edit
    return folder


@pytest.mark.parametrize("args", [
    ["undo"], ["reconcile"], ["adopt", "kris.toml"], ["retire", "sue.toml"],
    ["init", ".", "--force"],
    ["char", "new", "sue.toml", "--force", "--system", "colorwheel", "--name", "Sue",
     "--trait", "red=Big", "--trait", "yellow=Y", "--trait", "blue=B", "--trait", "orange=O",
     "--trait", "green=G", "--trait", "purple=P"],
], ids=lambda args: " ".join(args[:2]))
def test_a_dry_run_says_what_would_change_and_changes_nothing(table: Path,
                                                               args: list[str]) -> None:
    before = snapshot(table)
    index = subprocess.run(["git", "ls-files", "-s"], cwd=table, capture_output=True).stdout
    ran = cwx(*args, "--dry-run", cwd=table)
    assert ran.status == 0, ran.stderr
    assert ran.stdout.startswith("Dry run (--dry-run): nothing was changed")
    as_json = cwx(*args, "--dry-run", "--json", cwd=table)
    assert as_json.status == 0 and as_json.json["dry_run"] is True
    assert snapshot(table) == before
    assert subprocess.run(["git", "ls-files", "-s"], cwd=table, capture_output=True).stdout \
        == index
    real = cwx(*args, "--json", cwd=table)  # the same keys, done for real
    assert real.status == 0 and set(real.json) | {"dry_run"} == set(as_json.json)


def test_a_dry_run_refused_is_refused_as_the_real_one(table: Path) -> None:
    ran = cwx("undo", "--redo", "--dry-run", cwd=table)
    assert ran.status == 2 and "no undo" in ran.error
