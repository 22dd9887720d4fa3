"""The files layer: round trips, comments, validation, the write guard, safe writes."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

import pytest

from cwx.base.errors import BadFile, Conflict, WriteFailed
from cwx.campaign import files
from cwx.campaign.folder import Campaign
from tests.helpers import EXAMPLES, cwx, journal, valid_kind

EXAMPLE_FILES = sorted(p for p in EXAMPLES.glob("*.toml"))


# ---------------------------------------------------------------- round trips

@pytest.mark.parametrize("example", EXAMPLE_FILES, ids=lambda p: p.name)
def test_every_example_round_trips_byte_for_byte(example: Path) -> None:
    import tomlkit

    raw = example.read_bytes()
    assert tomlkit.dumps(tomlkit.parse(raw.decode())).encode() == raw


@pytest.mark.parametrize("example", EXAMPLE_FILES, ids=lambda p: p.name)
def test_every_example_is_valid(example: Path) -> None:
    assert valid_kind(example) in ("character", "bag")


def test_an_edit_keeps_every_comment_blank_line_and_unknown_key(campaign: Path) -> None:
    kris = campaign / "kris.toml"
    before = kris.read_text()
    assert cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
               "--char", kris).status == 0
    after = kris.read_text()
    assert after == before.replace("xp = 0    ", "xp = 2    ")
    assert tomllib.loads(after)["notes"]["background"].startswith("Kept")


def test_crlf_line_endings_survive_a_write_that_adds_a_line(tmp_path: Path) -> None:
    path = tmp_path / "kris.toml"
    path.write_bytes(b'name = "Kris" # hi\r\nsystem = "clockworx"\r\nxp = 30\r\n\r\n'
                     b"[traits]\r\nScrounge = 3\r\nRepair = 3\r\nTough = 5\r\n")
    assert cwx("xp", "spend", "--char", path, "--new", "Climb").status == 0
    raw = path.read_bytes()
    assert raw.count(b"\n") == raw.count(b"\r\n")
    assert b"Climb = 1\r\n" in raw and b"xp = 18\r\n" in raw and b"# hi\r\n" in raw


def test_a_file_without_xp_gains_the_key_at_the_top_level(tmp_path: Path) -> None:
    path = tmp_path / "kris.toml"
    path.write_text('name = "Kris"\nsystem = "clockworx"\n\n[traits]\nA = 3\nB = 3\nC = 3\n')
    assert cwx("clock", "resolve", "--target", 5, "--guess", 5, "--trait", "a",
               "--char", path).status == 0
    data = tomllib.loads(path.read_text())
    assert data["xp"] == 6 and data["traits"] == {"A": 3, "B": 3, "C": 3}


# ---------------------------------------------------------------- bad files

BAD_CLOCK_FILES = {
    "syntax": (b'name = "Kris\nsystem = "clockworx"\n', ":1", "not valid TOML"),
    "bool score": (b'name="K"\nsystem="clockworx"\n[traits]\nA = true\nB = 1\nC = 1\n',
                   ":4 [traits.A]", "whole number"),
    "float score": (b'name="K"\nsystem="clockworx"\n[traits]\nA = 2.0\nB = 1\nC = 1\n',
                    ":4 [traits.A]", "whole number"),
    "score 7": (b'name="K"\nsystem="clockworx"\n[traits]\nA = 7\nB = 1\nC = 1\n',
                ":4 [traits.A]", "1 to 6"),
    "score 0": (b'name="K"\nsystem="clockworx"\n[traits]\nA = 1\nB = 0\nC = 1\n',
                ":5 [traits.B]", "1 to 6"),
    "two traits": (b'name="K"\nsystem="clockworx"\n[traits]\nA = 1\nB = 1\n',
                   ":3 [traits]", "at least 3"),
    "duplicate names": (b'name="K"\nsystem="clockworx"\n[traits]\nA = 1\na = 1\nB = 1\n',
                        ":5 [traits.a]", "ignoring case"),
    "unknown system": (b'name="K"\nsystem="gurps"\n[traits]\nA = 1\nB = 1\nC = 1\n',
                       ":2 [system]", "unknown system"),
    "string xp": (b'name="K"\nsystem="clockworx"\nxp="lots"\n[traits]\nA=1\nB=1\nC=1\n',
                  ":3 [xp]", "whole number"),
    "negative xp": (b'name="K"\nsystem="clockworx"\nxp=-3\n[traits]\nA=1\nB=1\nC=1\n',
                    ":3 [xp]", "0 or more"),
    "bad utf-8": (b'name="K\xff"\nsystem="clockworx"\n', ":1", "not UTF-8"),
    "no traits": (b'name="K"\nsystem="clockworx"\n', " [traits]", "missing"),
    "traits not a table": (b'name="K"\nsystem="clockworx"\ntraits=3\n', ":3 [traits]", "table"),
    "duplicate key": (b'name="K"\nname="L"\nsystem="clockworx"\n', ":2", "not valid TOML"),
}


@pytest.mark.parametrize("kind", sorted(BAD_CLOCK_FILES))
@pytest.mark.parametrize("command", [
    ["char", "show", "{f}"],
    ["clock", "resolve", "--target", "4", "--guess", "3", "--trait", "A", "--char", "{f}"],
    ["xp", "spend", "--char", "{f}", "--new", "Climb"],
])
def test_a_bad_character_file_is_refused_naming_the_file_and_left_alone(
    tmp_path: Path, kind: str, command: list[str]
) -> None:
    raw, where, complaint = BAD_CLOCK_FILES[kind]
    path = tmp_path / "bad.toml"
    path.write_bytes(raw)
    ran = cwx(*[part.replace("{f}", str(path)) for part in command])
    assert ran.status == 2
    assert ran.stdout == ""
    error = ran.error
    assert error.startswith(f"cwx: error: {path}{where}"), error
    assert complaint in error
    assert path.read_bytes() == raw
    assert journal(tmp_path) == []


def test_a_missing_file_is_an_error_naming_it(tmp_path: Path) -> None:
    ran = cwx("char", "show", tmp_path / "nobody.toml")
    assert ran.status == 2 and "nobody.toml: no such file" in ran.error


def test_a_folder_where_a_file_should_be(tmp_path: Path) -> None:
    ran = cwx("char", "show", tmp_path)
    assert ran.status == 2 and "is a folder" in ran.error


# ---------------------------------------------------------------- the write guard

def test_an_edit_tomlkit_would_garble_is_refused_and_nothing_written(tmp_path: Path) -> None:
    # tomlkit #557: a sub-table added under a dotted key escapes its parent table.
    path = tmp_path / "odd.toml"
    raw = b'name = "K"\nsystem = "clockworx"\n[traits]\nA = 1\nB = 1\nC = 1\n[t]\na.b = 1\n'
    path.write_bytes(raw)
    with pytest.raises(BadFile, match="change more of this file"), \
            files.Change("test", [str(path)], camp=Campaign.around(str(path))) as change:
        change.character(str(path))
        change.set(str(path), ("t", "a", "c"), {})
    assert path.read_bytes() == raw
    assert not (tmp_path / "journal.jsonl").exists()
    assert sorted(os.listdir(tmp_path)) == ["odd.toml"]


# ---------------------------------------------------------------- safe writes

def test_a_symlinked_character_is_written_through_and_stays_a_link(campaign: Path) -> None:
    link = campaign / "me.toml"
    link.symlink_to("kris.toml")
    assert cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Tough",
               "--char", link).status == 0
    assert link.is_symlink()
    assert tomllib.loads((campaign / "kris.toml").read_text())["xp"] == 10


def test_the_file_mode_is_kept(campaign: Path) -> None:
    kris = campaign / "kris.toml"
    kris.chmod(0o640)
    assert cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Tough",
               "--char", kris).status == 0
    assert stat.S_IMODE(kris.stat().st_mode) == 0o640


def test_a_read_only_file_is_refused_and_left_alone(campaign: Path) -> None:
    kris = campaign / "kris.toml"
    before = kris.read_bytes()
    kris.chmod(0o444)
    ran = cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Tough", "--char", kris)
    assert ran.status == 2 and "read-only" in ran.error
    assert kris.read_bytes() == before


def test_an_edit_made_by_another_program_meanwhile_is_not_overwritten(campaign: Path) -> None:
    kris = str(campaign / "kris.toml")
    with pytest.raises(Conflict), files.Change("test", [kris], camp=Campaign.around(str(kris))) as change:
        change.character(kris)
        change.set(kris, ("xp",), 5)
        Path(kris).write_text(Path(kris).read_text().replace("Tough = 5", "Tough = 6"))
    assert "Tough = 6" in Path(kris).read_text()
    assert "xp = 0" in Path(kris).read_text()


def test_a_full_disk_leaves_the_original_and_no_temporary_file(
    campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from cwx.store import durable

    kris = campaign / "kris.toml"
    before = kris.read_bytes()
    listing = sorted(os.listdir(campaign))

    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(durable.os, "write", full)
    with pytest.raises(WriteFailed, match="No space left"), \
            files.Change("test", [str(kris)], camp=Campaign.around(str(kris))) as change:
        change.character(str(kris))
        change.set(str(kris), ("xp",), 5)
    assert kris.read_bytes() == before
    assert sorted(os.listdir(campaign)) == listing


def test_char_new_refuses_an_existing_file_unless_forced(campaign: Path) -> None:
    kris = campaign / "kris.toml"
    before = kris.read_bytes()
    args = ["char", "new", kris, "--system", "clockworx",
            "--trait", "A=4", "--trait", "B=4", "--trait", "C=4"]
    ran = cwx(*args)
    assert ran.status == 2 and "already exists" in ran.error and "--force" in ran.error
    assert kris.read_bytes() == before
    assert cwx(*args, "--force").status == 0
    assert tomllib.loads(kris.read_text())["traits"] == {"A": 4, "B": 4, "C": 4}


def test_each_change_appends_one_journal_line_and_nothing_else(campaign: Path) -> None:
    kris = campaign / "kris.toml"
    for guess in (3, 4, 9):
        cwx("clock", "resolve", "--target", 4, "--guess", guess, "--trait", "Repair",
            "--char", kris)
    events = journal(campaign)
    assert [e["result"]["xp"] for e in events] == [2, 6, 0]
    assert all(e["v"] == 2 and e["command"] == "clock resolve" and e["who"] == "Kris"
               for e in events)
    assert events[1]["changes"] == [{"file": "kris.toml", "key": "xp", "from": 2, "to": 8}]
    assert not [name for name in os.listdir(campaign) if "cwx" in name]


def test_the_same_file_under_two_names_is_refused(campaign: Path) -> None:
    (campaign / "other.toml").symlink_to("sue.toml")
    before = (campaign / "sue.toml").read_bytes()
    ran = cwx("bag", "draw", "--char", campaign / "sue.toml", "--bag", campaign / "other.toml",
              "--color", "red", "--drawn", "red")
    assert ran.status == 2 and "names the same file twice" in ran.error
    assert (campaign / "sue.toml").read_bytes() == before


def test_a_quoted_name_is_found_on_its_own_line(tmp_path: Path) -> None:
    path = tmp_path / "ana.toml"
    path.write_text('name = "Ana"\nsystem = "clockworx"\n[traits]\n"Knife Fighting" = 3\n'
                    '"Sword: Long" = 9\n"épée" = 1\n')
    ran = cwx("char", "show", path)
    assert ran.status == 2 and ran.error.startswith(f"cwx: error: {path}:5 [traits.Sword: Long]")
