"""`cwx init` and the schemas it writes: a campaign folder ready for git and for editors."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

import jsonschema
import pytest

from tests.helpers import EXAMPLES, cwx, journal


def test_init_makes_a_campaign_ready_for_git(tmp_path: Path) -> None:
    folder = tmp_path / "saga"
    ran = cwx("init", folder, "--json")
    assert ran.status == 0
    assert set(ran.json["created"]) == {"campaign.toml", "bag.toml", "README.md", "Makefile",
                                        ".gitattributes",
                                        ".gitignore", "character.schema.json",
                                        "bag.schema.json"}
    assert "journal.jsonl merge=union" in (folder / ".gitattributes").read_text()
    assert (folder / "bag.toml").read_text().startswith("#:schema ./bag.schema.json\n")
    assert cwx("check", folder).status == 0
    new = cwx("char", "new", folder / "hero.toml", "--system", "clockworx",
              "--trait", "A=4", "--trait", "B=4", "--trait", "C=4")
    assert new.status == 0
    assert (folder / "hero.toml").read_text().startswith("#:schema ./character.schema.json\n")


def test_init_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    ran = cwx("init", tmp_path)
    assert ran.status == 2 and "is not empty" in ran.error
    assert os.listdir(tmp_path) == ["notes.txt"]
    (tmp_path / "Makefile").write_text("all:\n\techo mine\n")
    forced = cwx("init", tmp_path, "--force", "--json")
    assert forced.status == 0 and forced.json["kept"] == ["Makefile"]
    assert (tmp_path / "Makefile").read_text() == "all:\n\techo mine\n"


def test_init_merges_two_players_journals_without_conflict(tmp_path: Path) -> None:
    folder = tmp_path / "saga"
    cwx("init", folder)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(folder)]
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "start"], check=True)
    subprocess.run([*git, "checkout", "-qb", "gm"], check=True)
    cwx("clock", "pick", "--seal", "--campaign", folder)
    subprocess.run([*git, "commit", "-qam", "gm"], check=True)
    subprocess.run([*git, "checkout", "-q", "-"], check=True)
    cwx("bag", "new", folder / "bag2.toml")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "player"], check=True)
    merged = subprocess.run([*git, "merge", "-q", "gm", "-m", "merge"], capture_output=True)
    assert merged.returncode == 0, merged.stderr
    commands = [e["command"] for e in journal(folder)]
    assert commands.count("init") == 1 and "clock pick --seal" in commands
    assert "bag new" in commands


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_the_schemas_accept_every_example(example: Path) -> None:
    kind = "bag" if example.name == "bag.toml" else "character"
    schema = cwx("schema", kind).json
    jsonschema.validate(tomllib.loads(example.read_text()), schema)


@pytest.mark.parametrize(("kind", "data"), [
    ("character", {"system": "clockworx", "traits": {"A": 9, "B": 1, "C": 1}}),
    ("character", {"system": "clockworx", "traits": {"A": 1, "B": 1}}),
    ("character", {"system": "gurps", "traits": {}}),
    ("character", {"system": "colorwheel", "traits": {"red": ["x"]}}),
    ("bag", {"bag": {"green": 1}}),
    ("bag", {"bag": {"red": -1}}),
])
def test_the_schemas_reject_what_cwx_rejects(kind: str, data: dict[str, object]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, cwx("schema", kind).json)


def test_schema_of_an_unknown_kind() -> None:
    assert "not a kind of file" in cwx("schema", "dragon").error
