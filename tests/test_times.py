"""Times for people in local time with the offset, as git log shows them; --utc for UTC;
the journal and JSON keep the UTC stamp."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cwx.base import times
from tests.helpers import cwx, saga

# POSIX rules, not names: they need no time-zone database on the machine.
NEW_YORK = "EST5EDT,M3.2.0,M11.1.0"
KOLKATA = "IST-5:30"


@pytest.fixture
def zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", NEW_YORK)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(("stamp", "tz", "said"), [
    ("2026-12-03T06:26:00.123Z", NEW_YORK, "2026-12-03 01:26 -0500"),
    ("2026-07-03T06:26:59.999Z", NEW_YORK, "2026-07-03 02:26 -0400"),  # summer time
    ("2026-12-03T06:26:00Z", KOLKATA, "2026-12-03 11:56 +0530"),
    ("2027-01-01T02:00:00.000Z", NEW_YORK, "2026-12-31 21:00 -0500"),  # the day before
])
def test_a_stamp_shows_in_local_time_with_its_offset(
        monkeypatch: pytest.MonkeyPatch, stamp: str, tz: str, said: str) -> None:
    monkeypatch.setenv("TZ", tz)
    time.tzset()
    try:
        assert times.shown(stamp) == said
        monkeypatch.setattr(times, "utc", True)
        assert times.shown(stamp) == f"{stamp[:10]} {stamp[11:16]} +0000"
    finally:
        monkeypatch.undo()
        time.tzset()


@pytest.mark.parametrize("stamp", ["not a time", "2026-13-45T99:00:00Z", ""])
def test_a_stamp_that_is_no_time_is_shown_as_written(stamp: str) -> None:
    assert times.shown(stamp) == stamp[:16].replace("T", " ")


def _played(tmp_path: Path) -> tuple[Path, str]:
    camp = saga(tmp_path / "saga", kris="kris.toml")
    assert cwx("clock", "resolve", "-c", "kris", "-t", "Repair", "-T", 4, "-g", 4,
               cwd=camp).status == 0
    at = json.loads((camp / "journal.jsonl").read_text().splitlines()[-1])["at"]
    return camp, at


def test_log_recap_and_undo_say_local_time_and_utc_when_asked(
        tmp_path: Path, zone: None) -> None:
    camp, at = _played(tmp_path)
    local = times.shown(at)
    assert local.endswith((" -0500", " -0400"))
    utc = f"{at[:10]} {at[11:16]} +0000"
    assert local in cwx("log", "--last", 1, cwd=camp).stdout
    assert utc in cwx("log", "--last", 1, "--utc", cwd=camp).stdout
    assert local in cwx("recap", cwd=camp).stdout
    assert utc in cwx("recap", "--utc", cwd=camp).stdout
    assert f"({local}, " in cwx("undo", "--dry-run", cwd=camp).stdout
    assert f"({utc}, " in cwx("undo", "--dry-run", "--utc", cwd=camp).stdout


def test_json_keeps_the_journals_utc_stamp(tmp_path: Path, zone: None) -> None:
    camp, at = _played(tmp_path)
    assert json.loads(cwx("log", "--json", "--last", 1, cwd=camp).stdout)["events"][0]["at"] == at
    told = json.loads(cwx("recap", "--json", cwd=camp).stdout)["events"]
    assert told[-1]["at"] == at


def test_a_process_shows_the_time_zone_it_is_given(tmp_path: Path) -> None:
    from tests.helpers import cwx_process

    camp, at = _played(tmp_path)
    hour = int(at[11:13])
    ran = cwx_process("log", "--last", 1, cwd=camp, env={"TZ": "UTC+3"})
    assert f"{(hour - 3) % 24:02d}:{at[14:16]} -0300" in ran.stdout, ran.stdout
    assert os.environ["TZ"] == "UTC"  # the suite's own, whatever the shell's (conftest.py)
