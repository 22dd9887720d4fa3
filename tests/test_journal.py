"""The journal: one event a change, read as a stream in time order by `cwx log`."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import cwx, journal


def test_log_json_is_the_journal_oldest_first(campaign: Path) -> None:
    kris, sue = campaign / "kris.toml", campaign / "sue.toml"
    cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair", "--char", kris)
    cwx("bag", "draw", "--char", sue, "--bag", campaign / "bag.toml", "--color", "red",
        "--drawn", "red")
    cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Repair", "--char", kris)
    ran = cwx("log", "--char", kris, "--json")
    events = ran.json["events"]
    assert [e["result"]["xp"] for e in events] == [2, 6]
    assert all(e["v"] == 2 and e["file"] == "kris.toml" for e in events)
    assert cwx("log", "--char", kris, "--last", 1, "--json").json["events"] == events[-1:]
    os.chdir(campaign)
    everything = cwx("log", "--json").json["events"]
    assert [e["command"] for e in everything] == ["clock resolve", "bag draw", "clock resolve"]


def test_events_carry_enough_to_replay_the_change(campaign: Path) -> None:
    sue = campaign / "sue.toml"
    cwx("bag", "draw", "--char", sue, "--bag", campaign / "bag.toml", "--color", "red",
        "--drawn", "white", "--drawn", "red", "--keep-white")
    (event,) = journal(campaign)
    replay = {(c["file"], c["key"]): c["to"] for c in event["changes"]}
    assert replay == {("sue.toml", "luck.white"): 1, ("bag.toml", "reserve.white"): 9}
    assert {c["from"] for c in event["changes"]} == {0, 10}


def test_log_for_people_is_a_table_naming_the_player(campaign: Path) -> None:
    cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
        "--char", campaign / "kris.toml", env={"CWX_PLAYER": "Ann Lee"})
    text = cwx("log", "--char", campaign / "kris.toml").stdout
    assert text.splitlines()[0].split() == ["when", "id", "player", "who", "what",
                                            "outcome", "change"]
    row = text.splitlines()[1]
    (event,) = journal(campaign)
    assert f" {event['id'][:8]}  Ann Lee" in row
    assert "Ann Lee  Kris" in row and "clock resolve (Repair, 3 vs 4)" in row
    assert "xp +2" in row
    (event,) = journal(campaign)
    assert event["player"] == "Ann Lee"


@pytest.mark.parametrize("blank", ["\u2800", "\u3164", "\ufe0f"])
def test_log_and_recap_tell_a_name_holding_a_letter_that_prints_nothing_apart(
        campaign: Path, blank: str) -> None:
    kris = campaign / "kris.toml"
    for player in ("Vic", f"Vic{blank}"):
        cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
            "--char", kris, env={"CWX_PLAYER": player})
    escaped = blank.encode("unicode_escape").decode("ascii")
    rows = cwx("log", "--char", kris).stdout.splitlines()[1:]
    assert [row.split()[4] for row in rows] == ["Vic", f"Vic{escaped}"], rows
    told = cwx("recap", cwd=campaign).stdout
    assert f"Vic{escaped.replace(chr(92), chr(92) * 2)}" in told and blank not in told, told
    logged = cwx("log", "--char", kris, "--json").json["events"]
    assert [event["player"] for event in logged] == ["Vic", f"Vic{blank}"]


def test_log_shows_the_dice_each_draw_drew(campaign: Path) -> None:
    cwx("bag", "draw", "--char", campaign / "sue.toml", "--bag", campaign / "bag.toml",
        "--color", "blue", "--drawn", "white", "--drawn", "red", "--keep-white")
    cwx("bag", "draw", "--char", campaign / "rick.toml", "--bag", campaign / "bag.toml",
        "--trait", "Friendly", "--drawn", "blue")
    rows = cwx("log", cwd=campaign).stdout.splitlines()[1:]
    assert re.search(r"  bag draw \(blue; drew white, red\) +failure  ", rows[0])
    assert "bag draw (purple; drew blue)" in rows[1] and "success" in rows[1]


def test_log_columns_stay_aligned_with_wide_and_combining_names(campaign: Path) -> None:
    for file, name in (("yuu.toml", "勇者ユウ"), ("zoe.toml", "Zoe\u0308 Ｘ")):
        cwx("char", "new", campaign / file, "--system", "clockworx", "--name", name,
            "--trait", "剣=3", "--trait", "Tough=3", "--trait", "Climb=1")
    cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
        "--char", campaign / "kris.toml")
    lines = cwx("log", cwd=campaign).stdout.splitlines()
    assert len(lines) == 4
    starts = [_start(line) for line in lines]
    assert len(set(starts)) == 1, "\n".join(lines)


def _start(line: str) -> int:
    """The screen column at which the line's third cell (what) begins."""
    import unicodedata

    what = next(line.index(word) for word in ("what", "char new", "clock resolve")
                if word in line)
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
               for c in line[:what])


def test_log_jsonl_is_one_event_a_line_and_nothing_else(campaign: Path) -> None:
    assert cwx("log", "--jsonl", cwd=campaign).stdout == ""  # no journal yet: no lines
    kris = campaign / "kris.toml"
    for guess in (3, 4, 5):
        cwx("clock", "resolve", "--target", 4, "--guess", guess, "--trait", "Repair",
            "--char", kris)
    whole = cwx("log", "--json", cwd=campaign).json
    lines = cwx("log", "--jsonl", cwd=campaign).stdout.splitlines()
    assert [json.loads(line) for line in lines] == whole["events"]
    assert len(lines) == 3 and set(whole) == {"events"}
    last = cwx("log", "--jsonl", "--last", 1, "--char", kris, cwd=campaign).stdout
    assert [json.loads(last)] == whole["events"][-1:]
    both = cwx("log", "--json", "--jsonl", cwd=campaign)
    assert both.status == 2 and "choose one" in both.error
    assert "--jsonl" in cwx("log", "--help").stdout


def test_a_damaged_journal_line_is_left_out_by_log_and_named_by_check(campaign: Path) -> None:
    cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
        "--char", campaign / "kris.toml")
    with (campaign / "journal.jsonl").open("a") as file:
        file.write('{"v": 1}\n<<<<<<< HEAD\n')
    ran = cwx("log", "--char", campaign / "kris.toml", "--json")
    assert ran.status == 0 and len(ran.json["events"]) == 1
    assert "2 line(s) are not journal events" in ran.error
    checked = cwx("check", campaign)
    assert checked.status == 1
    assert "journal.jsonl:2: is not a journal event (unknown version" not in checked.stdout
    assert "journal.jsonl:2: is not a journal event (id must be text)" in checked.stdout
    assert "journal.jsonl:3: is a git conflict marker" in checked.stdout


def test_a_journal_is_read_in_blocks_and_a_line_too_long_is_never_held(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from cwx.journal import lines as module

    monkeypatch.setattr(module, "MAX_LINE", 10)
    text = b"short\n" + b"x" * 25 + b"\nok\n" + b"y" * 40 + b"\nlast"
    lines = list(module.lines_of(io.BytesIO(text), block=4))
    assert lines == [b"short\n", 26, b"ok\n", 41, b"last"]
    assert sum(len(x) if isinstance(x, bytes) else x for x in lines) == len(text)


@given(pieces=st.lists(st.tuples(st.sampled_from([b"a", b"x", b" "]), st.integers(0, 30)),
                      max_size=12),
       block=st.integers(1, 16), back=st.integers(1, 16))
@settings(max_examples=300, deadline=None)
def test_reading_forwards_and_backwards_agree_on_every_line_too_long(
        pieces: list[tuple[bytes, int]], block: int, back: int) -> None:
    import io
    import tempfile

    from cwx.journal import lines as module

    text = b"\n".join(letter * count for letter, count in pieces)
    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as folder:
        patch.setattr(module, "MAX_LINE", 10)
        forwards = list(module.lines_of(io.BytesIO(text), block=block))
        path = os.path.join(folder, "journal.jsonl")
        with open(path, "wb") as file:
            file.write(text)
        backwards = list(module.lines_from_end(path, block=back))
    assert sum(len(x) if isinstance(x, bytes) else x for x in forwards) == len(text)
    held = [x.rstrip(b"\n") for x in forwards if isinstance(x, bytes)]
    assert backwards == [x for x in reversed(held) if x.strip()]
    assert all(len(x) <= 10 for x in held)


def _event_line(n: int, tagged: bool) -> bytes:
    return json.dumps({"v": 2, "id": f"{n:016x}", "at": "2026-12-02T23:02:56.204Z",
                       "command": "clock resolve" if tagged else "bag draw",
                       "file": "kris.toml", "result": {"xp": n} if tagged else {},
                       "changes": []}, separators=(",", ":")).encode()


@given(kinds=st.lists(st.sampled_from(["tagged", "plain", "blank", "long", "junk"]),
                      max_size=30),
       block=st.integers(1, 300), ends=st.booleans())
@settings(max_examples=200, deadline=None)
def test_the_lines_holding_some_bytes_are_those_reading_every_line_finds(
        kinds: list[str], block: int, ends: bool) -> None:
    # holding() searches a block at a time: its events and their line numbers must be
    # those of every line read in turn, whatever the block edges and lines too long.
    import tempfile

    from cwx.journal import lines as module

    lines = [_event_line(n, True) if kind == "tagged" else _event_line(n, False)
             if kind == "plain" else b"" if kind == "blank" else b"x" * 400 + b"xp"
             if kind == "long" else b'{"xp": ' for n, kind in enumerate(kinds)]
    text = b"\n".join(lines) + (b"\n" if ends and lines else b"")
    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as folder:
        patch.setattr(module, "MAX_LINE", 250)
        path = os.path.join(folder, "journal.jsonl")
        with open(path, "wb") as file:
            file.write(text)
        found = [(event.line, event.id) for event in module.holding(path, (b'"xp"',), block)]
        every = [(item.line, item.id) for _, item in module.read_raw(path)
                 if isinstance(item, module.Event) and b'"xp"' in lines[item.line - 1]]
    assert found == every


def test_log_reads_the_journal_it_opened_even_when_git_replaces_it(
        campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cwx.journal import lines as module

    kris = campaign / "kris.toml"
    for guess in (3, 4):
        cwx("clock", "resolve", "--target", 4, "--guess", guess, "--trait", "Repair",
            "--char", kris)
    path = campaign / "journal.jsonl"
    reading = module.lines_of

    def then_replaced(file: Any, block: int = 1 << 20) -> Any:
        yield from reading(file, block)
        other = campaign / "other.jsonl"  # a pull writes a new file over the old name
        other.write_bytes(b'{"v":2}\n' + path.read_bytes())
        other.replace(path)

    monkeypatch.setattr(module, "lines_of", then_replaced)
    ran = cwx("log", "--json", cwd=campaign)
    assert ran.status == 0 and [e["result"]["xp"] for e in ran.json["events"]] == [2, 6]


def test_a_key_a_later_version_adds_is_kept_and_written_back(campaign: Path) -> None:
    line = {"v": 2, "id": "a" * 16, "at": "2099-01-01T00:00:00.000Z", "command": "note",
            "who": None, "file": None, "bag": None, "result": {}, "changes": [],
            "scene": "the docks", "player": "ann"}
    (campaign / "journal.jsonl").write_text(json.dumps(line) + "\n")
    (event,) = cwx("log", "--json", cwd=campaign).json["events"]
    assert event == line


def test_a_version_1_line_is_read_as_the_current_version(campaign: Path) -> None:
    from cwx.journal import lines as journal

    event = journal.parse(b'{"v":1,"id":"x","at":"2026-01-01T00:00:01Z","command":"note"}', 3)
    assert isinstance(event, journal.Event)
    assert event.to_json()["at"] == "2026-01-01T00:00:01.000Z"
    assert event.to_json()["v"] == journal.VERSION and event.order[2] == 3


def test_a_line_of_more_lists_and_tables_than_any_event_is_no_event() -> None:
    from cwx.journal import lines as journal_module

    line = {"v": 2, "id": "ab" * 8, "at": "2026-12-01T10:00:00.000Z", "command": "bag draw",
            "who": "Sue", "file": "sue.toml", "bag": None, "changes": []}
    many = json.dumps({**line, "result": {"x": [{}] * (journal_module.MAX_VALUES + 1)}})
    parsed = journal_module.parse(many.encode(), 7)
    assert isinstance(parsed, journal_module.BadLine) and "lists and tables" in parsed.reason
    few = json.dumps({**line, "result": {"x": [{}] * 100}})
    assert isinstance(journal_module.parse(few.encode(), 7), journal_module.Event)


def test_a_player_named_longer_than_cwx_lets_one_be_is_no_event() -> None:
    # A recap lists every player: a clone's 25,000 players of 4 KB names once cost 722 MB.
    from cwx.campaign import players
    from cwx.journal import lines as journal_module

    line = {"v": 2, "id": "ab" * 8, "at": "2026-12-01T10:00:00.000Z", "command": "bag draw",
            "who": "Sue", "file": "sue.toml", "bag": None, "result": {}, "changes": []}
    most = "p" * players.MAX_PLAYER
    assert isinstance(journal_module.parse(json.dumps({**line, "player": most}).encode(), 7),
                      journal_module.Event)
    parsed = journal_module.parse(json.dumps({**line, "player": most + "p"}).encode(), 7)
    assert isinstance(parsed, journal_module.BadLine) and "player of more than" in parsed.reason
    with pytest.raises(Exception, match="1 to 100 characters"):
        players.checked(most + "p", "CWX_PLAYER")


# ---------------------------------------------------------------- the encoder

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12)


@given(_JSON, st.booleans())
@settings(max_examples=60)
def test_a_line_is_written_as_json_dumps_writes_it(value: Any, ascii: bool) -> None:
    from cwx.journal import lines as journal_module

    assert journal_module.dumps(value, ascii=ascii) == json.dumps(
        value, separators=(",", ":"), allow_nan=False, ensure_ascii=ascii)


@pytest.mark.parametrize("ascii", [False, True])
def test_a_line_refuses_what_json_cannot_hold(ascii: bool) -> None:
    from cwx.journal import lines as journal_module

    with pytest.raises(ValueError):
        journal_module.dumps({"xp": float("nan")}, ascii=ascii)
    with pytest.raises(TypeError):
        journal_module.dumps({"at": object()}, ascii=ascii)
