"""`cwx check`: every file, every journal line, named; a pre-commit hook."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cwx.toml import tomlread
from tests.helpers import EXAMPLES, cwx, saga


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



def _bits_hold() -> list[str] | None:
    """A command prefix under which permission bits stop cwx: none for a user; root loses
    the capabilities that pass them by (setpriv); None where neither can be had."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--"]
    # A container may not let root drop them (no CAP_SETPCAP): then the listing fails.
    tried = subprocess.run([*prefix, "true"], capture_output=True, timeout=60)
    return prefix if tried.returncode == 0 else None


def test_a_folder_check_may_not_list_is_named_and_exits_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    camp = saga(tmp_path / "camp", kris="pcs/kris.toml")
    (camp / "notes").mkdir()
    lines = (["check", str(camp)], ["check", "notes"], ["party"])
    prefix = _bits_hold()
    if prefix is None:  # root, with no way to drop its privilege here: the listing fails
        from cwx.campaign.folder import _entries as listing

        def denied(folder: str) -> tuple[list[str], list[str]]:
            if os.path.basename(folder) in ("pcs", "notes"):
                raise PermissionError(13, "Permission denied")
            return listing(folder)

        monkeypatch.setattr("cwx.campaign.folder._entries", denied)
        said = [cwx(*line, cwd=camp) for line in lines]
        ran = [(one.status, one.stdout, one.stderr) for one in said]
    else:
        (camp / "pcs").chmod(0o311)  # to its owner what 711 is to others: enter, not list
        (camp / "notes").chmod(0)
        try:
            done = [subprocess.run([*prefix, sys.executable, "-m", "cwx", *line], cwd=camp,
                                   capture_output=True, text=True, timeout=60)
                    for line in lines]
        finally:
            (camp / "pcs").chmod(0o755)
            (camp / "notes").chmod(0o755)
        ran = [(one.returncode, one.stdout, one.stderr) for one in done]
    (whole, said_whole, _), (notes, said_notes, _), (party, shown, noted) = ran
    assert (whole, notes) == (2, 2), ran  # no verdict, as for a missing path
    assert f"{camp}/pcs: cwx may not list this folder (permission denied)" in said_whole
    assert f"{camp}/notes: cwx may not list" in said_whole
    assert "Not checked: cwx may not read" in said_whole
    assert said_notes.startswith("notes: cwx may not list this folder (permission denied)")
    # Play goes on (the folder may be private), but what is left out is said.
    assert party == 0 and "Sue" in shown and "Kris" not in shown
    assert "cwx: note: pcs: cwx may not list this folder (permission denied)" in noted


def test_a_file_check_may_not_read_leaves_no_verdict(
        campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opening = tomlread.os.open

    def denied(path: str, flags: int, *args: int) -> int:
        if path.endswith("sue.toml"):
            raise PermissionError(13, "Permission denied")
        return opening(path, flags, *args)

    monkeypatch.setattr(tomlread.os, "open", denied)
    ran = cwx("check", campaign, "--json")
    assert ran.status == 2 and ran.json["ok"] is False
    assert [(p["file"], p["message"]) for p in ran.json["problems"]] == [
        (f"{campaign}/sue.toml", "cwx may not read this file (permission denied)")]
