"""`cwx check`: every file, every journal line, named; a pre-commit hook."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import EXAMPLES, cwx


def test_check_passes_the_examples() -> None:
    ran = cwx("check", EXAMPLES, "--json")
    assert ran.status == 0 and ran.json["ok"] is True and ran.json["problems"] == []
    assert ran.json["checked"] == len(list(EXAMPLES.glob("*.toml")))


def test_check_names_each_bad_file_and_exits_1(campaign: Path) -> None:
    (campaign / "broken.toml").write_text(
        'name = "x"\nsystem = "clockworx"\n[traits]\nA = 9\nB = 1\nC = 1\n')
    nested = campaign / "npcs"
    nested.mkdir()
    (nested / "guard.toml").write_text("[bag]\nred = -2\n")
    ran = cwx("check", campaign)
    assert ran.status == 1
    assert f"{campaign}/broken.toml:4 [traits.A]:" in ran.stdout
    assert f"{nested}/guard.toml:2 [bag.red]:" in ran.stdout
    assert "Checked 7 files: 5 valid, 2 problems." in ran.stdout
    data = cwx("check", campaign, "--json").json
    assert {p["file"] for p in data["problems"]} == {f"{campaign}/broken.toml",
                                                      f"{nested}/guard.toml"}


def test_check_takes_files_as_a_pre_commit_hook_passes_them(campaign: Path) -> None:
    assert cwx("check", campaign / "kris.toml", campaign / "bag.toml").status == 0
    hooks = (Path(__file__).parent.parent / ".pre-commit-hooks.yaml").read_text()
    assert "id: cwx-check" in hooks and "entry: cwx check" in hooks


def test_check_of_nothing_there_cannot_run(tmp_path: Path) -> None:
    from tests.helpers import cwx

    ran = cwx("check", tmp_path / "nowhere")
    assert ran.status == 2 and "no such file or folder" in ran.error
