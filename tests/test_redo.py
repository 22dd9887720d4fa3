"""cwx/store/redo.py: the redo record, written and read back, and every record cwx did not write refused."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cwx.store import redo
from cwx.store.redo import JournalLine, Pending, Redo

NAME = f"{redo.REDO_PREFIX}{'a' * 12}{redo.REDO_SUFFIX}"


@pytest.fixture(autouse=True)
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own user state folder: the key that marks records is made there."""
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return state


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder holding a bag, by its real path (records name real paths only)."""
    made = Path(os.path.realpath(tmp_path / "table"))
    made.mkdir()
    (made / "bag.toml").write_text("[bag]\nred = 1\n")
    return made


def a_change(folder: Path, name: str = NAME) -> Redo:
    """A change to the bag, its new text waiting in a temporary file beside it, journaled."""
    bag = folder / "bag.toml"
    temp = folder / f".bag.toml.0123abcd{redo.TEMP_SUFFIX}"
    temp.write_text("[bag]\nred = 0\n")
    line = JournalLine(str(folder / redo.JOURNAL), b'{"v":2}\n')
    return Redo("bag draw", (Pending(str(temp), str(bag), redo.fingerprint(bag.read_bytes())),),
                line, 0, name)


def fields_of(record: Redo) -> dict[str, Any]:
    fields: dict[str, Any] = json.loads(record.encode())
    return fields


def plant(folder: Path, fields: dict[str, Any], name: str = NAME) -> Path:
    path = folder / name
    path.write_text(json.dumps(fields))
    return path


# ---------------------------------------------------------------- written, then read back


def test_a_record_written_reads_back_as_it_was(folder: Path) -> None:
    record = a_change(folder)
    (folder / NAME).write_bytes(record.encode())
    [found] = redo.records(str(folder))
    assert found.problem is None and found.redo == record
    assert found.path == str(folder / NAME) and found.raw == (folder / NAME).read_bytes()


def test_a_record_in_every_folder_of_its_change_waits_to_be_finished(folder: Path) -> None:
    (folder / NAME).write_bytes(a_change(folder).encode())
    assert redo.inspect(str(folder)) == [(str(folder / NAME), (
        "an interrupted `cwx bag draw` waits to be finished; the next cwx command that "
        "changes files here does it"))]


def test_a_record_missing_from_a_folder_of_its_change_waits_to_be_undone(
        folder: Path, tmp_path: Path) -> None:
    party = Path(os.path.realpath(tmp_path / "party"))
    party.mkdir()  # the journal's folder: the record never reached it
    record = a_change(folder)._replace(journal=JournalLine(str(party / redo.JOURNAL), b"{}\n"))
    (folder / NAME).write_bytes(record.encode())
    [(path, said)] = redo.inspect(str(folder))
    assert path == str(folder / NAME) and "waits to be undone" in said
    (party / NAME).write_bytes(record.encode())
    assert "waits to be finished" in redo.inspect(str(folder))[0][1]
    assert "waits to be finished" in redo.inspect(str(party))[0][1]


def test_a_folder_without_records_has_nothing_to_say(folder: Path, tmp_path: Path) -> None:
    assert redo.records(str(folder)) == [] and redo.inspect(str(folder)) == []
    assert redo.inspect(str(tmp_path / "no such folder")) == []


def test_the_key_is_this_users_alone_and_made_once(folder: Path, machine: Path) -> None:
    first = a_change(folder).encode()
    key = machine / redo.KEY_FILE
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes()) == 32
    assert a_change(folder).encode() == first  # the same key, the same mark


# ---------------------------------------------------------------- a record cwx did not write


def refused_with(folder: Path, path: Path, said: str) -> None:
    """The record is not run, is left where it is, and `inspect` names it and says why."""
    before = path.read_bytes()
    [found] = redo.records(str(folder))
    assert found.redo is None or found.problem is not None
    [(named, message)] = redo.inspect(str(folder))
    assert named == str(path) and said in message and "cwx will not run it" in message
    assert path.read_bytes() == before


def test_a_record_without_a_mark_is_refused(folder: Path) -> None:
    fields = fields_of(a_change(folder))
    del fields["mark"]
    refused_with(folder, plant(folder, fields), "cannot prove it wrote")


def test_a_record_another_machine_marked_is_refused(folder: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    a_change(folder).encode()  # this machine has a key of its own: not the one that marked it
    with monkeypatch.context() as other:
        other.setenv("XDG_STATE_HOME", str(tmp_path / "another machine"))
        written = a_change(folder).encode()
    (folder / NAME).write_bytes(written)
    refused_with(folder, folder / NAME, "cannot prove it wrote")


def test_a_record_whose_fields_changed_after_marking_is_refused(folder: Path) -> None:
    fields = fields_of(a_change(folder))
    fields["command"] = "game end"
    refused_with(folder, plant(folder, fields), "cannot prove it wrote")


@pytest.mark.parametrize("version", [1, 2, redo.RECORD_VERSION + 1, "3", None])
def test_a_record_of_another_version_is_refused_even_with_this_machines_mark(
        folder: Path, version: object) -> None:
    fields = fields_of(a_change(folder))
    fields["redo"] = version
    fields["mark"] = redo.mark(fields)
    refused_with(folder, plant(folder, fields), "from an older cwx")


def test_a_record_git_tracks_is_refused_though_this_machine_marked_it(folder: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True)

    path = folder / NAME
    path.write_bytes(a_change(folder).encode())
    assert redo.inspect(str(folder))[0][1].startswith("an interrupted")  # cwx's own, until...
    git("init", "--quiet")
    git("add", "--", NAME)  # ... a clone's commit brings it
    refused_with(folder, path, "a redo record git tracks")


def test_a_record_naming_a_file_that_is_no_temporary_file_of_cwxs_is_refused(
        folder: Path) -> None:
    (folder / "notes.txt").write_text("mine\n")
    record = a_change(folder)
    elsewhere = record._replace(replace=(record.replace[0]._replace(
        temp=str(folder / "notes.txt")),))
    (folder / NAME).write_bytes(elsewhere.encode())  # marked by this machine, all the same
    refused_with(folder, folder / NAME, "not a temporary file of cwx's")


def test_a_record_naming_a_folder_by_a_link_is_refused(folder: Path, tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to(folder)
    record = a_change(folder)
    linked = record._replace(replace=tuple(
        Pending(p.temp.replace(str(folder), str(tmp_path / "link")),
                p.target.replace(str(folder), str(tmp_path / "link")), p.old)
        for p in record.replace), journal=None)
    (folder / NAME).write_bytes(linked.encode())
    refused_with(folder, folder / NAME, "naming no file in its own folder")


def test_a_record_appending_to_a_file_that_is_no_journal_is_refused(folder: Path) -> None:
    record = a_change(folder)._replace(
        journal=JournalLine(str(folder / "bag.toml"), b'{"v":2}\n'))
    (folder / NAME).write_bytes(record.encode())
    refused_with(folder, folder / NAME, "which is no journal")


def test_a_file_named_almost_like_a_record_is_refused(folder: Path) -> None:
    name = f"{redo.REDO_PREFIX}not-hex{redo.REDO_SUFFIX}"
    path = folder / name
    path.write_bytes(a_change(folder, name).encode())
    refused_with(folder, path, "cwx never names so")


def test_a_record_that_is_a_link_is_not_read_through(folder: Path, tmp_path: Path) -> None:
    (tmp_path / "real.json").write_bytes(a_change(folder).encode())
    (folder / NAME).symlink_to(tmp_path / "real.json")
    [(named, said)] = redo.inspect(str(folder))
    assert named == str(folder / NAME) and "cannot read" in said
    assert (folder / NAME).is_symlink()


# ---------------------------------------------------------------- temporary files


@pytest.mark.parametrize(("name", "target"), [
    (f".bag.toml.0123abcd{redo.TEMP_SUFFIX}", "bag.toml"),
    (f".a.b.toml.ffffffff{redo.TEMP_SUFFIX}", "a.b.toml"),
    (f".journal.jsonl.00000000{redo.TEMP_SUFFIX}", "journal.jsonl"),
    (f".bag.toml.0123ABCD{redo.TEMP_SUFFIX}", None),  # cwx writes lower-case hex
    (f".bag.toml.0123abc{redo.TEMP_SUFFIX}", None),  # seven digits
    (f"bag.toml.0123abcd{redo.TEMP_SUFFIX}", None),  # not hidden
    (f"..0123abcd{redo.TEMP_SUFFIX}", None),  # for no file
    (".bag.toml.0123abcd.tmp", None),
    ("bag.toml", None),
])
def test_a_temporary_files_target_is_read_from_its_name(name: str, target: str | None) -> None:
    assert redo.temp_target(name) == target


def test_a_fingerprint_tells_a_changed_file() -> None:
    assert redo.fingerprint(b"[bag]\nred = 1\n") == redo.fingerprint(b"[bag]\nred = 1\n")
    assert redo.fingerprint(b"[bag]\nred = 1\n") != redo.fingerprint(b"[bag]\nred = 2\n")
    assert redo.fingerprint(b"").startswith("0:")
