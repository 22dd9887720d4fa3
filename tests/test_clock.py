"""The journal's clock (#30, "A clone's clock decides which draw a luck spend turns"): a
new event is stamped no earlier than the journal's latest, so the order of the journal's
stamps is the order of play, whatever a clone's clock says."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cwx.journal import clock
from tests.helpers import cwx, journal, skewed
from tests.test_git import Table

SLOW = "2026-12-03T10:00:00.000Z"


def _at(stamp: str) -> float:
    import calendar
    import time

    return calendar.timegm(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")) + \
        int(stamp[20:23]) / 1000


@pytest.mark.parametrize(("latest", "stamped"), [
    (None, SLOW),  # an empty journal: the wall clock
    ("2026-12-03T09:59:59.999Z", SLOW),  # the wall clock is ahead
    (SLOW, "2026-12-03T10:00:00.001Z"),  # a tie: a tick later
    ("2026-12-04T16:00:00.500Z", "2026-12-04T16:00:00.501Z"),  # a clock 30 hours fast
    ("2026-12-03T10:00:59.999Z", "2026-12-03T10:01:00.000Z"),  # the second turns over
    ("2026-12-31T23:59:59.999Z", "2027-01-01T00:00:00.000Z"),  # and the year
    ("9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"),  # no later stamp: a tie
])
def test_a_stamp_is_the_wall_clock_or_a_tick_after_the_journal(latest: str | None,
                                                                stamped: str) -> None:
    assert clock.stamp(_at(SLOW), latest) == stamped


def _line(at: str, n: int = 0) -> str:
    return json.dumps({"v": 2, "id": f"{n:016x}", "at": at, "command": "x", "result": {},
                       "changes": []}) + "\n"


def test_the_latest_stamp_is_read_once_then_only_what_was_appended(tmp_path: Path) -> None:
    path, kept = tmp_path / "journal.jsonl", tmp_path / "git" / "cwx" / "clock"
    path.write_text(_line("2026-12-05T00:00:00.000Z") + _line(SLOW, 1) +
                    '{"at":"2027-02-30T00:00:00.000Z"}\n' + "not json\n")
    assert clock.latest(str(path), str(kept)) == "2026-12-05T00:00:00.000Z"  # no Feb 30th
    assert kept.exists()
    # What was read is kept: a line it would find again is not read again...
    with open(path, "r+b") as file:
        file.write(_line("2026-12-01T00:00:00.000Z").encode())  # same length, same size
    os.utime(path)
    assert clock.latest(str(path), str(kept)) == "2026-12-05T00:00:00.000Z"
    # ...and a line appended is.
    with open(path, "a") as file:
        file.write(_line("2026-12-06T00:00:00.000Z", 2))
    assert clock.latest(str(path), str(kept)) == "2026-12-06T00:00:00.000Z"
    # A journal git wrote anew (a pull) is read again whole.
    text = path.read_text()
    path.unlink()
    path.write_text(text.replace("2026-12-06", "2026-12-02"))
    assert clock.latest(str(path), str(kept)) == "2026-12-03T10:00:00.000Z"
    kept.write_text("nonsense\twith\ttabs\tx\n\xff")  # a clock file spoiled: read again
    assert clock.latest(str(path), str(kept)) == "2026-12-03T10:00:00.000Z"
    assert clock.latest(str(tmp_path / "none.jsonl"), str(kept)) is None


def test_without_git_the_journals_last_stretch_is_read(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_text(_line("2026-12-09T00:00:00.000Z") + "x" * clock.WINDOW + "\n" +
                    _line(SLOW, 1))
    assert clock.latest(str(path), None) == SLOW  # one machine writes in order


@pytest.mark.parametrize("last", [False, True])
def test_a_fast_clones_draw_is_not_the_one_a_spend_turns(tmp_path: Path, last: bool) -> None:
    # The reproduction: Alice's clock runs 30 hours fast; Bob pulls her draw, draws for
    # the same character, and spends a white: his own draw turns. So too when her line is
    # stamped at the last moment a stamp says, where ties go by the journal's lines.
    table = Table(tmp_path)
    alice, bob = table.start()
    failing = ["bag", "draw", "-c", "rick", "--drawn", "white", "--drawn", "red",
               "--keep-white", "--color", "blue"]
    assert table.cwx(alice, *failing).status == 0
    if last:
        _stamped(alice, clock.LAST_STAMP)
    else:
        skewed(alice, 30 * 3600)
    fast = journal(alice)[-1]
    table.commit(alice, "Rick draws, by a fast clock")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    assert table.cwx(bob, *failing).status == 0
    own = journal(bob)[-1]
    assert own["at"] > fast["at"] or own["at"] == fast["at"] == clock.LAST_STAMP
    assert table.cwx(bob, "luck", "spend", "-c", "rick").status == 0
    spend = journal(bob)[-1]
    assert spend["result"]["turns"] == own["id"] and spend["at"] >= own["at"]
    logged = cwx("log", "--json", cwd=bob).json
    ids = [event["id"] for event in logged["events"]]
    assert ids[-3:] == [fast["id"], own["id"], spend["id"]]  # the order as played
    assert cwx("check", cwd=bob).status == 0


def test_check_tells_a_line_stamped_far_ahead_as_information(campaign: Path) -> None:
    assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c", "kris.toml",
               cwd=campaign).status == 0
    skewed(campaign, 30 * 3600)
    checked = cwx("check", cwd=campaign)
    assert checked.status == 0, checked.stdout  # not a finding
    assert "stamped 30 hours ahead of this clone's clock" in checked.stdout
    ahead = cwx("check", "--json", cwd=campaign).json["ahead"]
    assert [line["line"] for line in ahead] == [len(journal(campaign))]
    skewed(campaign, -30 * 3600)
    assert cwx("check", "--json", cwd=campaign).json["ahead"] == []


def test_a_tick_after_any_stamp_is_the_next_millisecond() -> None:
    import calendar
    import random
    import time

    rng = random.Random(3)
    for _ in range(2000):
        second = rng.choice([rng.randrange(0, 253402300799), 951868799, 4107542399])
        millis = rng.choice([999, rng.randrange(1000)])
        at = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)) + f".{millis:03d}Z"
        later = second + (millis + 1) // 1000
        expected = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(later)) + \
            f".{(millis + 1) % 1000:03d}Z"
        if at < clock.LAST_STAMP:
            assert clock.after(at) == expected, at
    assert calendar.timegm(time.strptime(clock.after("2024-02-28T23:59:59.999Z")[:19],
                                         "%Y-%m-%dT%H:%M:%S")) % 86400 == 0


def _stamped(clone: Path, at: str) -> None:
    """The clone's last journal line as a clock showing `at` would have stamped it."""
    path = clone / "journal.jsonl"
    lines = path.read_text().splitlines()
    line = json.loads(lines[-1])
    line["at"] = at
    path.write_text("\n".join([*lines[:-1], json.dumps(line)]) + "\n")


@pytest.mark.parametrize("far", ["2031-06-01T12:00:00.000Z", clock.LAST_STAMP])
def test_undo_takes_back_the_change_played_last_after_a_far_future_line(
        tmp_path: Path, far: str) -> None:
    # The adversary's F5: a clone's line stamped years ahead (or at the last moment a
    # stamp says) is followed by the journal's clock; the changes played after it are
    # still the ones undo takes back, last first, and the far line itself only when named.
    table = Table(tmp_path)
    alice, bob = table.start()
    resolve = ["clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c", "kris"]  # +2 xp
    assert table.cwx(alice, *resolve).status == 0
    _stamped(alice, far)
    leapt = journal(alice)[-1]
    table.commit(alice, "Kris resolves, by a clock years ahead")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    assert table.cwx(bob, *resolve).status == 0
    assert table.cwx(bob, *resolve).status == 0
    played = journal(bob)[-2:]
    assert all(event["at"] >= far for event in played)  # stamped after it: the order holds
    logged = [event["id"] for event in cwx("log", "--json", cwd=bob).json["events"]]
    assert logged[-3:] == [leapt["id"], *(event["id"] for event in played)]
    ahead = cwx("check", "--json", cwd=bob).json["ahead"]
    assert [line["line"] for line in ahead] == [len(journal(bob)) - 2]  # the leap alone
    noted = cwx("check", cwd=bob).stdout
    if far == clock.LAST_STAMP:  # stamped there too, never after it
        assert "Events made after it are stamped at the same last moment a stamp says, in " \
               "the journal's order, so the order of play holds." in noted, noted
    else:
        assert "Events made after it are stamped after it, so the order" in noted, noted
    for event in reversed(played):  # undo walks back from the change played last
        undone = table.cwx(bob, "undo", "--json")
        assert undone.status == 0 and undone.json["undid"]["id"] == event["id"]
    doubted = cwx("undo", cwd=bob)  # next is the leap itself: named, never guessed
    assert doubted.status == 2 and doubted.stderr.count("\n") == 1
    assert f"`cwx undo {leapt['id'][:12]}` takes it back" in doubted.stderr
    assert table.cwx(bob, "undo", leapt["id"][:12]).status == 0  # the advice, followed
    assert cwx("check", cwd=bob).status == 0


def test_a_stamp_counts_the_seconds_the_calendar_counts() -> None:
    import calendar
    import random
    import time

    rng = random.Random(5)
    for _ in range(2000):
        second, millis = rng.randrange(0, 253402300800), rng.randrange(1000)
        at = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)) + f".{millis:03d}Z"
        assert clock._seconds(at) == calendar.timegm(time.gmtime(second)) + millis / 1000
