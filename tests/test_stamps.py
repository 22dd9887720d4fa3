"""A journal line is what journal.parse says it is, for every reader alike (#27): a stamp
of a day or an hour that does not exist is a bad line `cwx check` names and the others
pass by, never an internal error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwx.journal import lines as journal
from cwx.journal import story
from tests.helpers import cwx, saga

IMPOSSIBLE = ["2026-02-30T00:00:00.000Z", "2026-13-45T99:99:99.999Z", "2026-01-01T24:00:00Z",
              "2025-02-29T12:00:00.000Z", "0000-01-01T00:00:00.000Z", "2026-04-31T00:00:00.000Z",
              "2026-01-01T00:60:00.000Z", "2026-01-01T00:00:60.000Z",
              "2026-01-01T00:00:00.000Z\n", "２０２６-01-01T00:00:00.000Z"]
# Every command that reads the journal, as a player runs it.
READERS = [["check"], ["log"], ["log", "--json"], ["recap"], ["recap", "--all"],
           ["audit"], ["audit", "--session", "1"], ["undo", "--dry-run"],
           ["clock", "reveal"], ["luck", "spend", "-c", "sue"]]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """A campaign with a draw and a resolve in its journal, and that journal."""
    folder = saga(tmp_path_factory.mktemp("stamps") / "camp", kris="kris.toml")
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "white", "--drawn", "red",
               "--keep-white", cwd=folder).status == 0
    assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-c", "kris", "-t", "Repair",
               cwd=folder).status == 0
    return folder, (folder / "journal.jsonl").read_bytes()


def _line(at: str, command: str = "clock resolve", **more: Any) -> str:
    return json.dumps({"v": 2, "id": "1111111111111111", "at": at, "command": command,
                       "who": "Kris", "file": "kris.toml", "result": {"xp": 2},
                       "changes": [], **more})


def test_a_stamp_that_names_no_time_is_a_bad_line_for_every_reader(
        table: tuple[Path, bytes]) -> None:
    folder, kept = table
    lines = "".join(_line(at).replace("1" * 16, f"{n:016}") + "\n"
                    for n, at in enumerate(IMPOSSIBLE))
    (folder / "journal.jsonl").write_bytes(kept + lines.encode())
    for at in IMPOSSIBLE:
        assert isinstance(journal.parse(_line(at).encode(), 7), journal.BadLine), at
    checked = cwx("check", cwd=folder)
    said = [line for line in (checked.stdout + checked.stderr).splitlines()
            if "at must be a UTC time, of a day and an hour that exist" in line]
    assert checked.status == 1 and len(said) == len(IMPOSSIBLE), checked.stdout
    for words in READERS[1:]:
        ran = cwx(*words, cwd=folder)
        assert ran.status in (0, 1, 2) and "Traceback" not in ran.stderr, (words, ran.stderr)


def test_a_stamp_of_a_day_that_exists_is_an_event() -> None:
    for at in ("2024-02-29T23:59:59.999Z", "2026-12-31T00:00:00Z", "0001-01-01T00:00:00.000Z"):
        assert isinstance(journal.parse(_line(at).encode(), 1), journal.Event), at


_TEXT = st.text(max_size=12)
_VALUE = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**30) | _TEXT,
                      lambda inner: st.lists(inner, max_size=3) |
                      st.dictionaries(_TEXT, inner, max_size=3), max_leaves=8)
_STAMP = st.one_of(
    st.sampled_from(IMPOSSIBLE),
    st.from_regex(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{3})?Z",
                  fullmatch=True),
    st.datetimes().map(lambda when: when.strftime("%Y-%m-%dT%H:%M:%S.000Z")), _TEXT)
_COMMANDS = st.sampled_from(["bag draw", "clock resolve", "char new", "luck spend",
                             "luck curse", "clock pick", "clock reveal", "undo", "xp spend",
                             "wheel buy", "game end", "adopt", "retire", "init", "x"])
_NAMES = st.sampled_from(["sue.toml", "kris.toml", "bag.toml", "gone.toml", "../out.toml"])
_CHANGE = st.fixed_dictionaries(
    {"file": _NAMES}, optional={"key": st.sampled_from(["xp", "luck.white", "reserve.white",
                                                        "bag.white", "traits.Repair", "x"]),
                                "from": _VALUE, "to": _VALUE, "created": st.booleans(),
                                "text": _TEXT, "removed": st.booleans()})
_EVENT = st.fixed_dictionaries(
    {"v": st.sampled_from([1, 2, 2, 3]), "id": st.sampled_from(["1" * 16, "2" * 16, "ab"]),
     "at": _STAMP, "command": _COMMANDS},
    optional={"who": st.none() | _TEXT, "file": st.none() | _NAMES, "bag": st.none() | _NAMES,
              "result": st.dictionaries(st.sampled_from(
                  ["xp", "drawn", "success", "target", "guess", "dice", "colour", "white",
                   "black", "sealed", "commitment", "number", "saw", "trait"]), _VALUE,
                  max_size=5),
              "changes": st.lists(_CHANGE, max_size=3), "undoes": st.none() | _TEXT,
              "player": st.none() | _TEXT})


@settings(max_examples=30, deadline=None)
@given(events=st.lists(_EVENT, min_size=1, max_size=3), reader=st.sampled_from(READERS))
def test_no_journal_line_makes_a_reader_fail_inside(table: tuple[Path, bytes],
                                                    events: list[dict[str, Any]],
                                                    reader: list[str]) -> None:
    folder, kept = table
    lines = "".join(json.dumps(event) + "\n" for event in events)
    (folder / "journal.jsonl").write_bytes(kept + lines.encode())
    ran = cwx(*reader, cwd=folder)
    assert ran.status in (0, 1, 2) and "Traceback" not in ran.stderr, (reader, ran.stderr)
    # What sync's commit message tells of the same events.
    found = list(journal.events_in(str(folder / "journal.jsonl")))
    story.summary(found, 67)
    for event in found:
        story.told(event)
