"""The ledger: the journal's fold (in any order), and the commands that keep files and
ledger together (check, reconcile, adopt, undo), in a campaign made by `cwx init`."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwx.journal import ledger
from cwx.journal import lines as journal
from tests.helpers import SUE, cwx, saga
from tests.helpers import journal as read_journal


def event(at: str, *changes: journal.Edit, id: str = "0", command: str = "x") -> journal.Event:
    return journal.Event(2, id, at, command, None, None, None, {}, tuple(changes))


def change(key: str, before: Any, after: Any, file: str = "a.toml", **more: Any) -> journal.Edit:
    return journal.Edit(file, key, before, after, **more)


# ---------------------------------------------------------------- the fold


def test_whole_numbers_add_up_in_any_order() -> None:
    events = [event("2026-01-01T00:00:01.000Z", change("reserve.white", 7, 6), id="a"),
              event("2026-01-01T00:00:02.000Z", change("reserve.white", 7, 6), id="b"),
              event("2026-01-01T00:00:03.000Z", change("reserve.white", 6, 9), id="c")]
    for order in (events, events[::-1], [events[1], events[2], events[0]]):
        assert ledger.fold(order).values("a.toml")["reserve.white"].value == 7 - 1 - 1 + 3


def test_a_creation_is_the_baseline_and_a_later_one_starts_again() -> None:
    made = journal.Edit("a.toml", None, None, None, created=True,
                          text='name = "A"\nsystem = "clockworx"\nxp = 5\n')
    remade = journal.Edit("a.toml", None, None, None, created=False,
                            text='name = "A"\nsystem = "clockworx"\nxp = 100\n')
    events = [event("2026-01-01T00:00:01.000Z", made, id="a"),
              event("2026-01-01T00:00:02.000Z", change("xp", 5, 7), id="b"),
              event("2026-01-01T00:00:03.000Z", remade, id="c"),
              event("2026-01-01T00:00:04.000Z", change("xp", 100, 101), id="d")]
    assert ledger.fold(events[:2]).values("a.toml")["xp"].value == 7
    assert ledger.fold(events[::-1]).values("a.toml")["xp"].value == 101


def test_lists_add_and_remove_items_and_other_values_take_the_latest() -> None:
    events = [event("2026-01-01T00:00:01.000Z", change("traits.red", ["A"], ["A", "B"]), id="1"),
              event("2026-01-01T00:00:02.000Z", change("traits.red", ["A"], ["A", "C"]), id="2"),
              event("2026-01-01T00:00:03.000Z", change("traits.red", ["A", "B"], ["B"]), id="3"),
              event("2026-01-01T00:00:04.000Z", change("name", "Sue", "Susan"), id="4"),
              event("2026-01-01T00:00:05.000Z", change("name", "Sue", "Suzy"), id="5")]
    values = ledger.fold(events[::-1]).values("a.toml")
    assert set(values["traits.red"].value) == {"B", "C"}
    assert values["name"].value == "Suzy"


def test_corrections_do_not_count_and_missing_counts_as_zero() -> None:
    events = [event("2026-01-01T00:00:01.000Z", change("xp", None, 4), id="a"),
              event("2026-01-01T00:00:02.000Z", change("xp", 4, 9, correction=True), id="b")]
    assert ledger.fold(events).values("a.toml")["xp"].value == 4
    assert ledger.same("traits.Climb", 0, None) and not ledger.same("xp", 0, 1)


@settings(max_examples=200)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(-5, 5)), min_size=1, max_size=12),
       st.randoms())
def test_the_fold_of_deltas_is_their_sum_whatever_the_order(
        moves: list[tuple[int, int]], rng: Any) -> None:
    events, value = [], 10
    # One clone's events come in time order; the journal holds them in any order.
    for number, (second, delta) in enumerate(sorted(moves, key=lambda move: move[0])):
        events.append(event(f"2026-01-01T00:00:{second:02d}.000Z",
                            change("luck.white", value, value + delta), id=f"{number:04d}"))
        value += delta
    rng.shuffle(events)
    assert ledger.fold(events).values("a.toml")["luck.white"].value == value


# ---------------------------------------------------------------- in a campaign


@pytest.fixture
def table(tmp_path: Path) -> Path:
    return saga(tmp_path / "saga", kris="party/kris.toml")


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def data_of(folder: Path) -> dict[str, Any]:
    return {str(p.relative_to(folder)): tomllib.loads(p.read_text())
            for p in sorted(folder.rglob("*.toml"))}


def test_a_character_in_a_subfolder_journals_at_the_root(table: Path) -> None:
    assert cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Tough",
               "--char", table / "party" / "kris.toml").status == 0
    assert not (table / "party" / "journal.jsonl").exists()
    assert read_journal(table)[-1]["file"] == "party/kris.toml"
    ran = cwx("log", "--last", 1, "--json", cwd=table)
    assert ran.json["events"][0]["who"] == "Kris"


def test_log_is_in_time_order_however_git_merged_the_lines(table: Path) -> None:
    path = table / "journal.jsonl"
    lines = path.read_text().splitlines()
    late = json.loads(lines[-1])
    late["at"], late["id"] = "2099-01-01T00:00:00.000Z", "f" * 16
    path.write_text("\n".join([json.dumps(late), *lines]) + "\n")  # the latest line first
    events = cwx("log", "--json", cwd=table).json["events"]
    assert [e["at"] for e in events] == sorted(e["at"] for e in events)
    assert events[-1]["id"] == "f" * 16


def test_a_hand_edit_fails_check_until_adopted(table: Path) -> None:
    sue = table / "sue.toml"
    assert cwx("check", table).status == 0
    sue.write_text(sue.read_text().replace("white = 0", "white = 2"))
    ran = cwx("check", table)
    assert ran.status == 1
    assert "sue.toml:" in ran.stdout and "[luck.white]: the file says 2, the ledger 0" in ran.stdout
    assert f"cwx adopt {sue}" in ran.stdout and "W9" in ran.stdout  # as check was given it
    refused = cwx("adopt", sue)  # two whites from nowhere: only the GM's word makes them
    assert refused.status == 2 and "would change the campaign's dice by +2 whites" in \
        refused.error and "--supply" in refused.error
    assert cwx("adopt", sue, "--supply").status == 0
    assert cwx("check", table).status == 0
    assert read_journal(table)[-1]["changes"] == [
        {"file": "sue.toml", "key": "luck.white", "from": 0, "to": 2}]
    assert read_journal(table)[-1]["result"]["supply"] == {"white": 2, "black": 0}
    assert cwx("check", "--json", table).json["supply"] == {"white": 13, "black": 11}


def test_a_file_without_history_is_named_and_adopted_whole(table: Path) -> None:
    (table / "npc.toml").write_text('name = "Guard"\nsystem = "clockworx"\nxp = 3\n'
                                    "[traits]\nA = 1\nB = 1\nC = 1\n")
    ran = cwx("check", table)
    assert ran.status == 1 and "npc.toml: has no history in the ledger" in ran.stdout
    assert cwx("adopt", table / "npc.toml").status == 0
    assert cwx("check", table).status == 0


def test_reconcile_with_nothing_to_do_changes_no_byte(table: Path) -> None:
    before = files_of(table)
    ran = cwx("reconcile", table, "--json")
    assert ran.status == 0 and ran.json == {"corrected": []}
    assert files_of(table) == before


def test_reconcile_sets_the_ledger_values_and_does_not_count_them(table: Path) -> None:
    sue = table / "sue.toml"
    sue.write_text(sue.read_text().replace("white = 0", "white = 5"))
    ran = cwx("reconcile", cwd=table)
    assert ran.status == 0 and "sue.toml [luck.white] 5 → 0" in ran.stdout
    assert tomllib.loads(sue.read_text())["luck"]["white"] == 0
    assert read_journal(table)[-1]["changes"][0]["correction"] is True
    assert cwx("check", table).status == 0
    before = files_of(table)
    assert cwx("reconcile", cwd=table).status == 0
    assert files_of(table) == before


def test_reconcile_refuses_what_the_rules_forbid_naming_the_events(table: Path) -> None:
    # Two clones both spent the reserve's last white: the ledger says -1.
    path = table / "journal.jsonl"
    for n in range(11):
        line = journal.encode(journal.new("bag draw", [journal.Edit(
            "bag.toml", "reserve.white", 10 - n, 9 - n)], who="Sue", file="sue.toml"))
        path.write_bytes(path.read_bytes() + line)
    before = files_of(table)
    ran = cwx("reconcile", cwd=table)
    assert ran.status == 2 and "reserve.white would be -1, below 0" in ran.error
    assert "bag draw (Sue," in ran.error
    assert files_of(table) == before
    assert "reserve.white would be -1" in cwx("check", table).stdout


UNDOABLE = {
    "resolve": ["clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Tough",
                "--char", "party/kris.toml"],
    "new trait": ["xp", "spend", "--char", "party/kris.toml", "--new", "Climb"],
    "raise": ["xp", "spend", "--char", "party/kris.toml", "--raise", "Scrounge"],
    "keep white": ["bag", "draw", "--char", "sue.toml", "--bag", "bag.toml", "--color", "red",
                   "--drawn", "white", "--drawn", "red", "--keep-white"],
    "keep black": ["bag", "draw", "--char", "sue.toml", "--bag", "bag.toml", "--color", "red",
                   "--drawn", "black", "--drawn", "red", "--keep-black"],
    "spend": ["bag", "draw", "--char", "sue.toml", "--bag", "bag.toml", "--color", "red",
              "--drawn", "blue", "--spend-white"],
    "curse": ["luck", "curse", "--char", "sue.toml", "--bag", "bag.toml"],
    "game end": ["game", "end", "--char", "sue.toml", "--bag", "bag.toml"],
    "buy": ["wheel", "buy", "--char", "sue.toml", "--bag", "bag.toml", "--color", "red",
            "--trait", "Climber"],
    "adopt": ["adopt", "sue.toml", "--supply"],  # the GM gives Sue whites: undone, gone
}


def ready_for(table: Path, kind: str) -> None:
    """Give the characters what the action needs: experience, luck, a hand edit."""
    kris, sue = table / "party" / "kris.toml", table / "sue.toml"
    kris.write_text(kris.read_text().replace("xp = 0 ", "xp = 90 "))
    luck = {"spend": (1, 0), "curse": (0, 1), "game end": (3, 1), "buy": (3, 0),
            "adopt": (0, 0)}.get(kind, (0, 0))
    sue.write_text(sue.read_text().replace("white = 0", f"white = {luck[0]}")
                   .replace("black = 0", f"black = {luck[1]}"))
    assert cwx("adopt", kris, sue, "--supply").status == 0
    if kind == "adopt":
        sue.write_text(sue.read_text().replace("white = 0", "white = 4"))
    if kind == "curse":  # the GM's curse spoils a success: one to spoil
        assert cwx("bag", "draw", "--char", sue, "--bag", table / "bag.toml", "--color", "red",
                   "--drawn", "red").status == 0


@pytest.mark.parametrize("kind", sorted(UNDOABLE))
def test_undo_of_every_action_kind_restores_the_files_and_keeps_the_ledger_true(
        table: Path, kind: str) -> None:
    ready_for(table, kind)
    before = data_of(table)
    assert cwx(*UNDOABLE[kind], cwd=table).status == 0, kind
    assert data_of(table) != before or kind == "adopt"
    ran = cwx("undo", cwd=table)
    assert ran.status == 0, ran.stderr
    after = data_of(table)
    if kind == "adopt":  # the hand edit is taken back: the file returns to the ledger
        before["sue.toml"]["luck"]["white"] = 0
    assert after == before
    assert cwx("check", table).status == 0
    assert read_journal(table)[-1]["command"] == "undo"


def test_undo_walks_back_and_stops_at_the_start(table: Path) -> None:
    kris = table / "party" / "kris.toml"
    for guess in (4, 3):
        cwx("clock", "resolve", "--target", 4, "--guess", guess, "--trait", "Repair",
            "--char", kris)
    assert tomllib.loads(kris.read_text())["xp"] == 8
    assert cwx("undo", "--char", kris).status == 0
    assert tomllib.loads(kris.read_text())["xp"] == 6
    assert cwx("undo", "--char", kris).status == 0
    assert tomllib.loads(kris.read_text())["xp"] == 0
    ran = cwx("undo", "--char", kris)
    assert ran.status == 2 and "no change of party/kris.toml left to undo" in ran.error
    assert cwx("check", table).status == 0


def test_undo_refuses_a_value_changed_since_naming_the_key(table: Path) -> None:
    sue = table / "sue.toml"
    sue.write_text(sue.read_text().replace("white = 0", "white = 3"))
    assert cwx("adopt", sue, "--supply").status == 0
    assert cwx("wheel", "buy", "--char", sue, "--bag", table / "bag.toml", "--color", "red",
               "--trait", "Climber").status == 0
    sue.write_text(sue.read_text().replace('"Climber"', '"Climbing"'))
    assert cwx("adopt", sue).status == 0
    assert cwx("undo", "--char", sue).status == 0  # the adoption: back to Climber
    assert "Climber" in sue.read_text()
    sue.write_text(sue.read_text().replace('"Climber"', '"Climbing"'))  # not adopted
    before = sue.read_bytes()
    ran = cwx("undo", "--char", sue)  # the buy: its trait is not there to take back
    assert ran.status == 2 and "[traits.red]" in ran.error
    assert "no longer holds what the change wrote" in ran.error
    assert sue.read_bytes() == before


# ---------------------------------------------------------------- what the adversary found


def test_a_line_git_copied_twice_counts_once(table: Path) -> None:
    kris = table / "party" / "kris.toml"
    assert cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Tough",
               "--char", kris).status == 0
    path = table / "journal.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines, lines[-1]]) + "\n")  # what a union merge can make
    assert cwx("check", table).status == 0
    events = cwx("log", "--json", cwd=table).json["events"]
    assert len(events) == len(lines)


def test_two_undos_of_one_change_take_it_back_once() -> None:
    made = journal.Edit("a.toml", None, None, None, created=True,
                          text='name = "A"\nsystem = "clockworx"\nxp = 0\n')
    plus = event("2026-01-01T00:00:02.000Z", change("xp", 0, 10), id="p")
    undos = [journal.Event(2, f"u{n}", f"2026-01-01T00:00:0{3 + n}.000Z", "undo", None,
                           "a.toml", None, {}, (change("xp", 10, 0),), "p")
             for n in range(2)]
    folded = ledger.fold([event("2026-01-01T00:00:01.000Z", made, id="m"), plus, *undos])
    assert folded.values("a.toml")["xp"].value == 0  # not -10


def spend(at: str, id: str, draw: str, before: int) -> journal.Event:
    result = {"turns": draw}
    return journal.Event(2, id, at, "luck spend", None, "a.toml", None, result,
                         (change("luck.white", before, before - 1),))


def undo_of(at: str, id: str, target: str, back: tuple[int, int]) -> journal.Event:
    return journal.Event(2, id, at, "undo", None, "a.toml", None, {},
                         (change("luck.white", *back),), target)


@pytest.mark.parametrize(("later", "white"), [
    ([], 1),  # two clones spent on one failure: the first counts
    # the first undone: the second, pre-empted by it, counts again
    ([undo_of("2026-01-01T00:00:05.000Z", "u1", "s1", (1, 2))], 1),
    ([undo_of("2026-01-01T00:00:05.000Z", "u1", "s1", (1, 2)),  # both undone
      undo_of("2026-01-01T00:00:06.000Z", "u2", "s2", (1, 2))], 2),
    ([undo_of("2026-01-01T00:00:05.000Z", "u2", "s2", (1, 2))], 1),  # undoing the void: void
    ([undo_of("2026-01-01T00:00:05.000Z", "u1", "s1", (1, 2)),  # undone, then spent anew
      spend("2026-01-01T00:00:06.000Z", "s3", "d", 2)], 1),
], ids=["both", "first-undone", "both-undone", "void-undone", "undone-then-again"])
def test_two_turns_of_one_draw_count_once_and_an_undone_one_pre_empts_none(
        later: list[journal.Event], white: int) -> None:
    made = journal.Edit("a.toml", None, None, None, created=True,
                          text='name = "A"\nsystem = "colorwheel"\n[luck]\nwhite = 2\n')
    draw = journal.Event(2, "d", "2026-01-01T00:00:02.000Z", "bag draw", None, "a.toml", None,
                         {"success": False}, ())
    events = [event("2026-01-01T00:00:01.000Z", made, id="m"), draw,
              spend("2026-01-01T00:00:03.000Z", "s1", "d", 2),
              spend("2026-01-01T00:00:04.000Z", "s2", "d", 2), *later]
    for order in (events, events[::-1]):
        assert ledger.fold(order).values("a.toml")["luck.white"].value == white


def test_a_turn_made_after_its_clone_undid_the_last_counts_whatever_its_clock() -> None:
    made = journal.Edit("a.toml", None, None, None, created=True,
                          text='name = "A"\nsystem = "colorwheel"\n[luck]\nwhite = 2\n')
    events = [event("2026-01-01T00:00:01.000Z", made, id="m"),
              spend("2026-01-01T00:00:03.000Z", "s1", "d", 2),
              undo_of("2026-01-01T00:00:09.000Z", "u1", "s1", (1, 2)),
              # the clock was set back between the undo and the next spend
              spend("2026-01-01T00:00:05.000Z", "s3", "d", 2)]
    assert ledger.fold(events).values("a.toml")["luck.white"].value == 1
    redone = [*events, undo_of("2026-01-01T00:00:10.000Z", "r1", "u1", (2, 1))]
    # its redo pre-empts the later turn again: the draw is turned once
    assert ledger.fold(redone).values("a.toml")["luck.white"].value == 1


def test_two_clones_raising_one_trait_from_the_same_score_is_a_clash(table: Path) -> None:
    kris = table / "party" / "kris.toml"
    kris.write_text(kris.read_text().replace("xp = 0 ", "xp = 100 "))
    assert cwx("adopt", kris).status == 0
    raise_ = journal.encode(journal.new("xp spend", [
        journal.Edit("party/kris.toml", "traits.Repair", 3, 4),
        journal.Edit("party/kris.toml", "xp", 100, 52)], who="Kris", file="party/kris.toml"))
    path = table / "journal.jsonl"
    path.write_bytes(path.read_bytes() + raise_ + raise_.replace(b'"id":"', b'"id":"f'))
    ran = cwx("check", table)
    assert ran.status == 1 and "[traits.Repair]: the ledger cannot settle it" in ran.stdout
    assert "two clones spent experience on it at once" in ran.stdout
    assert cwx("reconcile", cwd=table).status == 2


def test_a_change_stamped_before_its_files_creation_still_counts() -> None:
    # A clone whose clock runs behind: its change looks older than the file it changes.
    made = journal.Edit("a.toml", None, None, None, created=True,
                          text='name = "A"\nsystem = "colorwheel"\n[luck]\nwhite = 0\n')
    events = [event("2026-01-01T00:05:00.000Z", made, id="m"),
              event("2026-01-01T00:01:00.000Z", change("luck.white", 0, 1), id="k")]
    assert ledger.fold(events).values("a.toml")["luck.white"].value == 1


def test_version_1_events_of_one_second_keep_the_journals_order() -> None:
    made = journal.Edit("a.toml", None, None, None, created=True,
                          text='name = "A"\nsystem = "clockworx"\nxp = 0\n')
    first = journal.parse(json.dumps({"v": 1, "id": "ffff", "at": "2026-01-01T00:00:01Z",
                                      "command": "char new", "changes": [
                                          {"file": "a.toml", "created": True,
                                           "text": made.text}]}).encode(), 1)
    then = journal.parse(json.dumps({"v": 1, "id": "0000", "at": "2026-01-01T00:00:01Z",
                                     "command": "clock resolve", "changes": [
                                         {"file": "a.toml", "key": "xp", "from": 0,
                                          "to": 10}]}).encode(), 2)
    remade = journal.parse(json.dumps({"v": 1, "id": "aaaa", "at": "2026-01-01T00:00:00Z",
                                       "command": "char new", "changes": [
                                           {"file": "a.toml", "created": True,
                                            "text": made.text}]}).encode(), 0)
    assert isinstance(first, journal.Event) and isinstance(then, journal.Event)
    assert isinstance(remade, journal.Event)
    assert ledger.fold([remade, first, then]).values("a.toml")["xp"].value == 10


def test_a_key_the_file_has_and_the_ledger_has_not_is_named(table: Path) -> None:
    kris = table / "party" / "kris.toml"
    kris.write_text(kris.read_text().replace("Tough = 5", "Tough = 5\nClimb = 6"))
    ran = cwx("check", table)
    assert ran.status == 1 and "[traits.Climb]: the file says 6, the ledger nothing" in ran.stdout
    assert cwx("reconcile", cwd=table).status == 0
    assert "Climb" not in kris.read_text()


def test_a_file_gone_with_its_dice_fails_w9(table: Path) -> None:
    sue = table / "sue.toml"
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "white", "--drawn", "red",
               "--keep-white", cwd=table).status == 0
    ran = cwx("char", "new", sue, "--force", "--system", "colorwheel", "--name", "Sue", *SUE)
    assert ran.status == 2 and "holds 1 white and black dice" in ran.error
    sue.unlink()
    ran = cwx("check", table)
    assert ran.status == 1 and "sue.toml: is gone, with 1 die (a white or a black)" in ran.stdout


def test_reconcile_settles_a_duplicated_list_item(table: Path) -> None:
    sue = table / "sue.toml"
    sue.write_text(sue.read_text().replace('red = ["Strong"]', 'red = ["Strong", "Strong"]'))
    assert cwx("reconcile", cwd=table).status == 0
    assert tomllib.loads(sue.read_text())["traits"]["red"] == ["Strong"]


def test_log_json_gives_events_as_the_journal_writes_them_now(table: Path) -> None:
    # An older line comes upgraded (#18: log --json emits events, not raw lines).
    line = '{"v":1,"id":"v1","at":"2099-01-01T00:00:00Z","command":"note","changes":[]}'
    path = table / "journal.jsonl"
    path.write_text(path.read_text() + line + "\n")
    assert cwx("log", "--json", "--last", 1, cwd=table).json["events"] == [{
        "v": 2, "id": "v1", "at": "2099-01-01T00:00:00.000Z", "command": "note", "who": None,
        "file": None, "bag": None, "result": {}, "changes": []}]


def test_log_merges_many_stretches_into_time_order(table: Path) -> None:
    path = table / "journal.jsonl"
    blocks = []
    for block in range(3):  # three clones' stretches, each in order, interleaved in time
        blocks += [json.dumps({"v": 2, "id": f"{block}{n:03d}", "command": "note",
                               "at": f"2099-01-01T00:{n:02d}:0{block}.000Z", "changes": []})
                   for n in range(20)]
    path.write_text(path.read_text() + "\n".join(blocks) + "\n")
    events = cwx("log", "--json", cwd=table).json["events"]
    assert [e["at"] for e in events] == sorted(e["at"] for e in events)
    assert len([e for e in events if e["command"] == "note"]) == 60


# ---------------------------------------------------------------- a journal is input


def hostile(folder: Path, **line: Any) -> None:
    """A line another player wrote into the journal by hand, pushed through git."""
    import time

    now = time.strftime("%Y-%m-%dT%H:%M:%S.999Z", time.gmtime())  # undo passes the future by
    event = {"v": 2, "id": "evil", "at": now, "command": "xp spend",
             "who": "x", "file": None, "bag": None, "result": {}, "changes": [], **line}
    with (folder / "journal.jsonl").open("a") as file:
        file.write(json.dumps(event) + "\n")


def test_undo_never_follows_the_journal_into_another_campaign(tmp_path: Path) -> None:
    home, other = saga(tmp_path / "home"), saga(tmp_path / "other", kris="kris.toml")
    kris = other / "kris.toml"
    before = kris.read_bytes()
    hostile(home, file="../other/kris.toml",
            changes=[{"file": "../other/kris.toml", "key": "xp", "from": 500, "to": 0}])
    ran = cwx("undo", cwd=home)
    assert ran.status == 2 and "names ../other/kris.toml, outside its campaign" in ran.error
    assert kris.read_bytes() == before and cwx("check", other).status == 0
    named = cwx("check", home)
    assert named.status == 1 and "names ../other/kris.toml, outside the campaign" in named.stdout


def test_undo_of_a_line_naming_a_file_elsewhere_writes_no_journal_there(tmp_path: Path) -> None:
    home = saga(tmp_path / "home")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    hostile(home, command="bag draw", file=str(elsewhere / ".bashrc"))
    ran = cwx("undo", cwd=home)
    assert ran.status == 2 and "outside its campaign" in ran.error
    assert list(elsewhere.iterdir()) == []


def test_outside_a_campaign_undo_stays_in_the_journals_folder(tmp_path: Path) -> None:
    clone, mine = tmp_path / "clone", tmp_path / "mine"
    clone.mkdir()
    mine.mkdir()
    assert cwx("char", "new", mine / "kris.toml", "--system", "clockworx", "-t", "A=4",
               "-t", "B=4", "-t", "C=4").status == 0
    before = (mine / "kris.toml").read_bytes()
    hostile(clone, file=str(mine / "kris.toml"),
            changes=[{"file": str(mine / "kris.toml"), "key": "xp", "from": 1000, "to": 0}])
    ran = cwx("undo", cwd=clone)
    assert ran.status == 2 and "outside its own folder" in ran.error
    assert (mine / "kris.toml").read_bytes() == before


def test_luck_never_follows_the_journal_to_a_bag_outside_the_campaign(tmp_path: Path) -> None:
    home = saga(tmp_path / "home")
    elsewhere = tmp_path / "mybag.toml"
    assert cwx("bag", "new", elsewhere).status == 0
    before = elsewhere.read_bytes()
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "white", "--drawn", "red",
               "--keep-white", cwd=home).status == 0
    hostile(home, command="bag draw", who="Sue", file="sue.toml", bag=str(elsewhere),
            result={"success": False})
    ran = cwx("luck", "spend", "-c", "sue", cwd=home)
    assert ran.status == 2 and "outside the campaign; say which bag with --bag" in ran.error
    assert elsewhere.read_bytes() == before


def test_log_shows_control_characters_a_line_holds_never_sends_them(table: Path) -> None:
    hostile(table, who="Sue\x1b[31mRED\r\nFAKE LINE", command="bag draw\x1b]0;PWNED\x07")
    ran = cwx("log", cwd=table)
    assert ran.status == 0 and "\x1b" not in ran.stdout and "\x07" not in ran.stdout
    assert "Sue\\x1b[31mRED\\r\\nFAKE LINE" in ran.stdout


@pytest.mark.parametrize("how", ["emptied", "not cwx's", "a folder", "a link to sue.toml"])
def test_a_bag_no_longer_counted_fails_check_and_is_not_reconciled_away(
        table: Path, how: str) -> None:
    bag = table / "bag.toml"
    bag.unlink()
    if how == "emptied":
        bag.write_text("")
    elif how == "not cwx's":
        bag.write_text("x = 1\n")
    elif how == "a folder":
        bag.mkdir()
    else:
        bag.symlink_to("sue.toml")
    ran = cwx("check", cwd=table)
    assert ran.status == 1 and "W9" in ran.stdout
    assert "bag.toml: is" in ran.stdout and "22 white and black dice" in ran.stdout
    assert cwx("reconcile", cwd=table).status in (0, 2)
    assert cwx("check", cwd=table).status == 1


def test_adopting_a_gone_bag_alone_is_refused(table: Path) -> None:
    (table / "bag.toml").unlink()
    ran = cwx("adopt", "bag.toml", cwd=table)
    assert ran.status == 2 and "by -11 whites, -11 blacks" in ran.error
    assert "bag.toml is gone: restore it and cwx retire it" in ran.error
    assert cwx("check", cwd=table).status == 1


def test_check_names_a_bag_a_line_leads_out_to_and_agrees_with_undo(table: Path) -> None:
    hostile(table, command="bag draw", who="Sue", file="sue.toml", bag="../victim.toml")
    ran = cwx("check", cwd=table)
    assert ran.status == 1 and "names ../victim.toml, outside the campaign" in ran.stdout
    (table / "journal.jsonl").write_text(
        "\n".join((table / "journal.jsonl").read_text().splitlines()[:-1]) + "\n")
    back_in = f"../{table.name}/sue.toml"  # leaves the folder and comes back: inside
    hostile(table, file=back_in, changes=[{"file": back_in, "key": "luck.white", "from": 0,
                                           "to": 0}])
    assert "outside the campaign" not in cwx("check", cwd=table).stdout


def test_check_advises_for_a_file_made_outside_what_works_when_followed(table: Path) -> None:
    # A forged `bag new` of ../out/a.toml: check once advised "restore it and `cwx
    # retire` it", which retire refuses (no command follows a journal out).
    text = "[bag]\nred = 1\nyellow = 1\nblue = 1\nwhite = 3\nblack = 3\n"
    journal = (table / "journal.jsonl").read_text()
    hostile(table, command="bag new", file="../out/a.toml", changes=[
        {"file": "../out/a.toml", "created": True, "text": text}])
    ran = cwx("check", cwd=table)
    line = len(journal.splitlines()) + 1
    assert ran.status == 1 and f"names ../out/a.toml, outside the campaign (line {line}): " \
        "no cwx writes such a line" in ran.stdout and "take the line out" in ran.stdout
    assert "retire" not in ran.stdout.replace("undo, retire and adopt refuse it", "")
    assert cwx("retire", "../out/a.toml", cwd=table).status == 2  # as check says
    lines = (table / "journal.jsonl").read_text().splitlines()
    del lines[line - 1]  # the advice followed
    (table / "journal.jsonl").write_text("".join(f"{kept}\n" for kept in lines))
    assert cwx("check", cwd=table).status == 0


def test_check_shows_a_key_with_a_control_character_as_an_escape(table: Path) -> None:
    sue = table / "sue.toml"
    sue.write_text(sue.read_text().replace('red = ["Strong"]', 'red = ["Str\\u001b[31mong"]'))
    ran = cwx("check", cwd=table)
    assert ran.status == 1 and "\x1b" not in ran.stdout and "\\x1b" in ran.stdout


def test_a_new_trait_with_a_control_character_is_refused(table: Path) -> None:
    kris = saga(table.parent / "k", kris="kris.toml") / "kris.toml"
    kris.write_text(kris.read_text().replace("xp = 0", "xp = 50"))
    before = kris.read_bytes()
    ran = cwx("xp", "spend", "-c", kris, "--new", "Cl\x1b[2Jimb")
    assert ran.status == 2 and "control characters" in ran.error and "\x1b" not in ran.error
    assert kris.read_bytes() == before
    sue = table / "sue.toml"
    sue.write_text(sue.read_text().replace("white = 0", "white = 5"))
    assert cwx("adopt", sue, "--supply").status == 0
    ran = cwx("wheel", "buy", "-c", sue, "-C", "blue", "-t", "Sw\x1b[2Jimmer")
    assert ran.status == 2 and "control characters" in ran.error


def test_a_character_in_a_hidden_folder_is_refused_as_check_never_looks_there(
        table: Path) -> None:
    (table / ".npcs").mkdir()
    ran = cwx("char", "new", table / ".npcs" / "goon.toml", "--system", "colorwheel",
              "--name", "Goon", *SUE)
    assert ran.status == 2 and "where cwx check never looks" in ran.error
    (table / ".npcs" / "goon.toml").write_text((table / "sue.toml").read_text())  # by hand
    assert cwx("bag", "draw", "-c", ".npcs/goon.toml", "-C", "red", "--drawn", "white",
               "--drawn", "red", "--keep-white", cwd=table).status == 2
    (table / "sue.toml").rename(table / ".npcs" / "sue.toml")
    assert cwx("adopt", "sue.toml", ".npcs/sue.toml", cwd=table).status == 2


def test_a_file_made_where_a_gone_one_held_dice_is_refused(table: Path) -> None:
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "white", "--drawn", "red",
               "--keep-white", cwd=table).status == 0
    (table / "sue.toml").unlink()
    ran = cwx("char", "new", table / "sue.toml", "--system", "colorwheel", "--name", "Sue",
              *SUE)
    assert ran.status == 2 and "holds 1 white and black dice, which a new file would hide" in \
        ran.error
    assert not (table / "sue.toml").exists()
    (table / "bag.toml").unlink()
    assert cwx("bag", "new", table / "bag.toml").status == 2


def test_two_clones_recording_one_file_leaving_are_set_right_by_adopt(table: Path) -> None:
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "white", "--drawn", "red",
               "--keep-white", cwd=table).status == 0
    (table / "pcs").mkdir()
    (table / "sue.toml").rename(table / "pcs" / "sue.toml")
    assert cwx("adopt", "sue.toml", "pcs/sue.toml", cwd=table).status == 0
    lines = (table / "journal.jsonl").read_text().splitlines()
    moved = json.loads(lines[-1])
    moved["id"] = "second-clone"
    moved["changes"] = [c for c in moved["changes"] if c["file"] == "sue.toml"]
    with (table / "journal.jsonl").open("a") as file:  # the other clone's record, by git
        file.write(json.dumps(moved) + "\n")
    ran = cwx("check", cwd=table)
    assert ran.status == 1 and "took 1 die (a white or a black) more out of it" in ran.stdout
    assert cwx("adopt", "sue.toml", cwd=table).status == 0
    assert cwx("check", cwd=table).status == 0


def test_check_suggests_adopting_a_moved_file_with_its_old_name(table: Path) -> None:
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "white", "--drawn", "red",
               "--keep-white", cwd=table).status == 0
    (table / "pcs").mkdir()
    (table / "sue.toml").rename(table / "pcs" / "sue.toml")
    ran = cwx("check", cwd=table)
    assert ran.status == 1 and "`cwx adopt sue.toml pcs/sue.toml` moves its history" in ran.stdout
    (table / "pcs" / "sue.toml").rename(table / "sue2.toml")
    (table / "pcs").rmdir()  # git removes a folder a merge leaves empty
    assert cwx("adopt", "pcs/sue.toml", "sue2.toml", "sue.toml", cwd=table).status == 2
    assert cwx("adopt", "sue.toml", "sue2.toml", cwd=table).status == 0
    assert cwx("check", cwd=table).status == 0


def test_undo_of_a_move_whose_old_file_is_gone_says_to_restore_it(table: Path) -> None:
    (table / "pcs").mkdir()
    (table / "sue.toml").rename(table / "pcs" / "sue.toml")
    assert cwx("adopt", "sue.toml", "pcs/sue.toml", cwd=table).status == 0
    ran = cwx("undo", cwd=table)
    assert ran.status == 2 and "sue.toml, which it changed, is gone; restore it" in ran.error


def test_force_over_an_emptied_file_the_ledger_says_holds_dice_is_refused(table: Path) -> None:
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "white", "--drawn", "red",
               "--keep-white", cwd=table).status == 0
    (table / "sue.toml").write_text("")
    ran = cwx("char", "new", table / "sue.toml", "--force", "--system", "colorwheel",
              "--name", "Sue", *SUE)
    assert ran.status == 2 and "which a new file would hide" in ran.error
    (table / "bag.toml").write_text("garbage [[[\n")
    assert cwx("bag", "new", table / "bag.toml", "--force").status == 2


def test_a_bag_whose_name_check_never_reads_is_refused(table: Path) -> None:
    ran = cwx("bag", "new", table / "npcbag")
    assert ran.status == 2 and "where cwx check never looks" in ran.error
    assert cwx("bag", "new", table / "b2.TOML").status == 2


def test_adopting_a_moved_file_alone_while_its_old_name_holds_dice_is_refused(
        table: Path) -> None:
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "white", "--drawn", "red",
               "--keep-white", cwd=table).status == 0
    (table / "pcs").mkdir()
    (table / "sue.toml").rename(table / "pcs" / "sue.toml")
    ran = cwx("adopt", "pcs/sue.toml", cwd=table)
    assert ran.status == 2 and "adopt it with them (cwx adopt sue.toml pcs/sue.toml)" in \
        ran.error
    assert cwx("adopt", "sue.toml", "pcs/sue.toml", cwd=table).status == 0
    assert cwx("check", cwd=table).status == 0
