"""Work that grows with what a clone brings grows no faster than it (SPEC §8.1): each
reader is run at a size n and at 4n, and the lines of cwx's own code it runs are counted
(a count, unlike a time, a loaded machine does not change). Linear work gives about 4
times the count; work per pair of events, 16. The full sizes are bench/hostile.py's."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import cwx
from cwx.campaign import audit, recap

ROOT = str(Path(cwx.__file__).parent)
LINEAR = 5  # at most this many times the work for four times the input


def steps(run: Callable[[], object]) -> int:
    """The lines of cwx's own code `run` runs."""
    count = 0

    def line(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        count += 1
        return line

    def call(frame: FrameType, event: str, arg: Any) -> Any:
        return line if frame.f_code.co_filename.startswith(ROOT) else None

    sys.settrace(call)
    try:
        run()
    finally:
        sys.settrace(None)
    return count


def grows(work: Callable[[int], int], n: int) -> float:
    """How many times the work of size n the work of size 4n is."""
    return work(4 * n) / work(n)


def _event(n: int, command: str, file: str, **fields: Any) -> str:
    at = f"2099-01-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}.000Z"
    return json.dumps({"v": 2, "id": f"{n:016x}", "at": at, "command": command, "who": "Kris",
                       "file": file, **{"bag": None, "result": {}, "changes": [], **fields}})


def test_a_recap_reads_a_journal_of_a_file_an_event_once(tmp_path: Path) -> None:
    text = "[bag]\nred = 1\nyellow = 1\nblue = 1\nwhite = 3\nblack = 3\n"

    def work(events: int) -> int:
        path = tmp_path / f"{events}.jsonl"
        path.write_text("".join(_event(n, "bag new", f"bag{n}.toml", changes=[
            {"file": f"bag{n}.toml", "created": True, "text": text}]) + "\n"
            for n in range(events)))

        def run() -> None:
            done = recap.recap(str(path), every=True)
            assert len(done.told) == events
            "".join(recap.markdown_lines(done))
            "".join(recap.json_parts(done))

        return steps(run)

    assert grows(work, 200) < LINEAR


def test_an_audit_sums_a_run_of_kept_dice_without_a_step_a_die(tmp_path: Path) -> None:
    text = "[bag]\nred = 1\nyellow = 1\nblue = 1\nwhite = 100000000\nblack = 1\n"

    def work(whites: int) -> int:
        path = tmp_path / f"{whites}.jsonl"
        path.write_text("".join(line + "\n" for line in [
            _event(0, "bag new", "big.toml",
                   changes=[{"file": "big.toml", "created": True, "text": text}]),
            *(_event(n, "bag draw", "sue.toml", bag="big.toml",
                     result={"color": "red", "draws": ["white"] * whites + ["red"],
                             "recorded": True}) for n in range(1, 4))]))
        found = audit.from_journal(str(path), "big.toml")
        assert found.draws == 3 and found.tally.observed["white"] == 3 * whites
        return steps(lambda: audit.from_journal(str(path), "big.toml"))

    # A die more costs a term of a sum cwx adds in C, not a step of its own: no line.
    assert (work(20_000) - work(5_000)) / (3 * 15_000) < 0.1


def test_check_looks_at_each_folder_of_a_deep_clone_a_few_times(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cwx.campaign import checks

    looks = 0

    def counted(call: Callable[..., Any]) -> Callable[..., Any]:
        def look(*args: Any, **kwargs: Any) -> Any:
            nonlocal looks
            looks += 1
            return call(*args, **kwargs)
        return look

    def work(depth: int) -> int:
        nonlocal looks
        top = tmp_path / str(depth)
        (top / "a" / "a").mkdir(parents=True)
        (top / "campaign.toml").write_text("[campaign]\n")
        monkeypatch.chdir(top)
        folder = Path("a" + "/a" * (depth - 1))
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "x.toml").write_text("[bag]\nwhite = 1\n")
        looks = 0
        with monkeypatch.context() as patched:
            for name in ("stat", "lstat", "scandir", "listdir"):
                patched.setattr(os, name, counted(getattr(os, name)))
            checks.check(["."])
        return looks

    # Each folder's real path looked up anew took a look at every folder above it.
    assert grows(work, 50) < LINEAR


def test_wheel_odds_keeping_both_from_the_bag_alone_take_a_step_a_die() -> None:
    from cwx.rules import colorwheel, odds

    def work(n: int) -> int:
        table = colorwheel.Table(colorwheel.Bag(1, 0, 0, n, n), colorwheel.Luck(0, 0),
                                 colorwheel.Luck(0, 0))
        return steps(lambda: odds.wheel(table, "red", odds.Policy(True, True)))

    # Each white kept summed every black after it again: work as the square of the bag.
    assert grows(work, 50) < LINEAR


def test_wheel_odds_past_the_bag_they_are_computed_for_are_refused_naming_it(
        tmp_path: Path) -> None:
    from cwx.rules import odds
    from tests.helpers import cwx as run

    bag = tmp_path / "bag.toml"
    bag.write_text("[bag]\nred = 1\nyellow = 0\nblue = 0\nwhite = 2500\nblack = 2500\n\n"
                   "[reserve]\nwhite = 0\nblack = 0\n")
    ran = run("odds", "wheel", "--bag", bag, "--all", "--keep-white", "--keep-black")
    assert ran.status == 2 and f"up to {odds.MOST_GIVEN_UP:,} whites in the bag" in ran.error
