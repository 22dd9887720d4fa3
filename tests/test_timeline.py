"""cwx/journal/timeline.py: a journal's events in time order, however git merged its lines."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwx.journal import lines as journal
from cwx.journal import timeline
from cwx.journal.timeline import Timeline


def at(second: int) -> str:
    """A time of the campaign's first day, `second` seconds in."""
    return f"2026-11-30T{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}.000Z"


def line(id_: str, second: int, file: str | None = "sue.toml", command: str = "bag draw") -> str:
    return json.dumps({"v": 2, "id": id_, "at": at(second), "command": command, "who": "Sue",
                       "file": file, "bag": None, "result": {}, "changes": []})


def write(path: Path, lines: Iterable[str]) -> Path:
    path.write_text("".join(f"{text}\n" for text in lines))
    return path


def ordered(path: Path, name: str | None = None, last: int | None = None) -> list[str]:
    """The ids of the journal's events, as the timeline gives them."""
    file = journal.opened(str(path))
    assert file is not None
    with file:
        return [event.id for event in Timeline(file, name, last).events()]


# ---------------------------------------------------------------- in time order


def test_two_clones_lines_merged_out_of_order_come_in_time_order(tmp_path: Path) -> None:
    # Alice's stretch, then Bob's, as git's union merge leaves them: each in order.
    alice = [line(f"a{n}", second) for n, second in enumerate((10, 30, 50, 70))]
    bob = [line(f"b{n}", second) for n, second in enumerate((20, 40, 60))]
    path = write(tmp_path / "journal.jsonl", [*alice, *bob, line("c0", 80)])
    assert ordered(path) == ["a0", "b0", "a1", "b1", "a2", "b2", "a3", "c0"]


def test_events_of_one_moment_keep_the_journals_order(tmp_path: Path) -> None:
    path = write(tmp_path / "journal.jsonl",
                 [line("late", 9), line("z", 5), line("a", 5), line("m", 5)])
    assert ordered(path) == ["z", "a", "m", "late"]


def test_a_line_git_copied_is_one_event(tmp_path: Path) -> None:
    path = write(tmp_path / "journal.jsonl",
                 [line("a", 1), line("b", 2), line("a", 1), line("c", 3)])
    assert ordered(path) == ["a", "b", "c"]


def test_a_version_1_line_stamped_to_the_second_sorts_among_the_others(tmp_path: Path) -> None:
    old = json.dumps({"v": 1, "id": "old", "at": "2026-11-30T00:00:02Z", "command": "xp spend"})
    path = write(tmp_path / "journal.jsonl", [line("a", 1), line("c", 3), old])
    assert ordered(path) == ["a", "old", "c"]


def test_only_the_events_of_the_file_asked_for(tmp_path: Path) -> None:
    path = write(tmp_path / "journal.jsonl",
                 [line("s1", 1), line("k1", 2, "kris.toml"), line("g", 3, None),
                  line("k2", 0, "kris.toml"), line("s2", 4)])
    assert ordered(path, "kris.toml") == ["k2", "k1"]
    assert ordered(path, "sue.toml") == ["s1", "s2"]


@pytest.mark.parametrize("last", [1, 3, 6, 100])
def test_the_last_n_are_the_latest_in_time_order(tmp_path: Path, last: int) -> None:
    alice = [line(f"a{n}", second) for n, second in enumerate((10, 30, 50))]
    bob = [line(f"b{n}", second) for n, second in enumerate((20, 40, 60))]
    path = write(tmp_path / "journal.jsonl", [*alice, *bob])
    assert ordered(path, last=last) == ["a0", "b0", "a1", "b1", "a2", "b2"][-last:]


def test_the_last_n_of_one_file(tmp_path: Path) -> None:
    path = write(tmp_path / "journal.jsonl",
                 [line("s1", 1), line("k1", 5, "kris.toml"), line("s3", 9), line("s2", 3),
                  line("k2", 7, "kris.toml")])
    assert ordered(path, "sue.toml", last=2) == ["s2", "s3"]


@pytest.mark.parametrize("count", [timeline.MAX_RUNS, timeline.MAX_RUNS + 1,
                                   3 * timeline.MAX_RUNS])
def test_a_journal_of_more_stretches_than_are_merged_is_still_in_order(tmp_path: Path,
                                                                      count: int) -> None:
    # Every line earlier than the one before: each is a stretch of its own.
    path = write(tmp_path / "journal.jsonl", [line(f"e{n}", count - n) for n in range(count)])
    assert ordered(path) == [f"e{n}" for n in reversed(range(count))]


@settings(max_examples=30)
@given(seconds=st.lists(st.integers(0, 40), min_size=0, max_size=3 * timeline.MAX_RUNS))
def test_any_journal_comes_in_time_order_ties_in_the_journals(tmp_path: Path,
                                                              seconds: list[int]) -> None:
    path = write(tmp_path / "journal.jsonl",
                 [line(f"e{n}", second) for n, second in enumerate(seconds)])
    expected = [f"e{n}" for n, _ in sorted(enumerate(seconds), key=lambda pair: pair[1])]
    assert ordered(path) == expected
    assert ordered(path, last=5) == expected[-5:]


# ---------------------------------------------------------------- lines that are not events


def test_bad_lines_are_skipped_and_counted(tmp_path: Path) -> None:
    path = write(tmp_path / "journal.jsonl", [
        line("a", 3),
        "<<<<<<< ours",  # line 2
        "",  # blank: nothing at all
        "{not json",  # line 4
        json.dumps({"v": 9, "id": "x", "at": at(1), "command": "x"}),  # line 5: no version
        line("b", 1),
        "x" * (journal.MAX_LINE + 10),  # line 7: too long to read
        line("c", 2),
    ])
    file = journal.opened(str(path))
    assert file is not None
    with file:
        order = Timeline(file)
        assert [event.id for event in order.events()] == ["b", "c", "a"]
    assert order.skipped.count == 4 and order.skipped.first == [2, 4, 5, 7]


def test_only_the_first_few_bad_lines_are_named(tmp_path: Path) -> None:
    path = write(tmp_path / "journal.jsonl", [line("a", 1), *["junk"] * 9, line("b", 2)])
    file = journal.opened(str(path))
    assert file is not None
    with file:
        order = Timeline(file)
        assert [event.id for event in order.events()] == ["a", "b"]
    assert order.skipped.count == 9
    assert order.skipped.first == list(range(2, 2 + timeline.Skipped.SHOWN))


def test_an_empty_journal_has_no_events(tmp_path: Path) -> None:
    assert ordered(write(tmp_path / "journal.jsonl", [])) == []
    assert ordered(tmp_path / "journal.jsonl", last=3) == []


def test_undos_and_turns_are_noted_as_the_journal_is_read(tmp_path: Path) -> None:
    undo = json.dumps({"v": 2, "id": "u", "at": at(5), "command": "undo", "who": None,
                       "file": "sue.toml", "bag": None, "result": {}, "changes": [],
                       "undoes": "a"})
    path = write(tmp_path / "journal.jsonl", [line("a", 1), undo])
    file = journal.opened(str(path))
    assert file is not None
    with file:
        order = Timeline(file)
        assert [event.id for event in order.events()] == ["a", "u"]
    assert order.turns.undone() == {"a"}


def test_stretches_merged_hold_their_places_not_their_lines(tmp_path: Path) -> None:
    # Each stretch opens with a long line: the merge waits on all of them at once, and
    # holds none of those lines meanwhile (each is read again when its turn comes).
    import tracemalloc

    count, size = 16, 512 << 10
    long = json.loads(line("x", 0))
    long["result"] = {"note": "a" * size}
    path = write(tmp_path / "journal.jsonl", [
        text for n in range(count)
        for text in (json.dumps({**long, "id": f"l{n}", "at": at(2 * (count - n))}),
                     line(f"s{n}", 2 * (count - n) + 1))])
    tracemalloc.start()
    try:
        ids = ordered(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert ids == [i for n in reversed(range(count)) for i in (f"l{n}", f"s{n}")]
    # Holding every stretch's line (twice, as once) came to 18 MB here; now under 5 MB.
    assert peak < count * size, f"{peak:,} bytes held at once"
