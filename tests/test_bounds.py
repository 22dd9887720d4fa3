"""Work that grows with what a clone brings grows no faster than it (SPEC §8.1): each
reader is run at a size n and at 4n, and the lines of cwx's own code it runs are counted
(a count, unlike a time, a loaded machine does not change). Linear work gives about 4
times the count; work per pair of events, 16. The full sizes are bench/hostile.py's."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import cwx
from cwx.campaign import audit, recap
from cwx.journal import history

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
            with history.opened(str(path)) as read:
                done = recap.recap(read, every=True)
                assert len(done.told) == events
                "".join(recap.markdown_lines(done))
                "".join(recap.json_parts(done))

        return steps(run)

    assert grows(work, 200) < LINEAR


def test_a_recap_names_a_few_players_and_counts_the_rest(tmp_path: Path) -> None:
    # A clone's journal may name 100,000 players: the line once held them all, 10 MB.
    count = recap.MAX_PLAYERS_NAMED + 5
    path = tmp_path / "journal.jsonl"
    path.write_text("".join(_event(n, "clock resolve", "kris.toml", player=f"P{n:03d}") + "\n"
                            for n in range(count)))
    with history.opened(str(path)) as read:
        head = "".join(recap.markdown_lines(recap.recap(read)))
    named = ", ".join(f"P{n:03d}" for n in range(recap.MAX_PLAYERS_NAMED))
    assert f"players: {named} and 5 more" in head and f"P{count - 1:03d}" not in head


def test_a_recap_tells_a_files_character_once_whatever_each_event_called_it(
        tmp_path: Path) -> None:
    # One actor a file: a clone's journal naming each event's character anew in 4 KB once
    # made the recap build each of those names into an actor of its own.
    import tracemalloc

    from cwx.journal import lines

    count, size = 1000, lines.MAX_NAME
    path = tmp_path / "journal.jsonl"
    path.write_text("".join(_event(n, "clock resolve", "kris.toml", who=f"{n:K>{size}}") + "\n"
                            for n in range(count)))
    with history.opened(str(path)) as read:
        done = recap.recap(read)
        tracemalloc.start()
        try:  # the lines heard one by one, as they are written: what the recap holds, alone
            heads = [line for line in recap.markdown_lines(done) if line.startswith("## ")]
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert len(heads) == 2 and f"## {count - 1:K>{size}} (kris.toml)" in heads
    assert peak < count * size // 4, f"{peak:,} bytes held to tell {count} events"


def test_a_name_past_its_bound_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    # A name of 5,000 characters once made a journal line that every reader, cwx's own
    # check too, called bad; and 25,000 of 4 KB cost a recap 134 MB.
    from cwx.base import traitnames
    from cwx.journal import lines
    from tests.helpers import cwx as run

    folder = tmp_path / "camp"
    assert run("init", folder).status == 0
    journal = (folder / "journal.jsonl").read_bytes()
    long = "n" * (traitnames.MOST + 1)
    for last in (["C=4", "--name", long], [f"{long}=4"]):
        made = run("char", "new", folder / "k.toml", "--system", "clockworx", "-t", "A=4",
                   "-t", "B=4", "-t", *last)
        assert made.status == 2 and "k.toml" in made.error, made.stderr
        assert f"more than the {traitnames.MOST} a name may hold" in made.error
    assert not (folder / "k.toml").exists() and (folder / "journal.jsonl").read_bytes() == journal
    deep = folder / ("d" * (lines.MAX_NAME - len("/k.toml") + 1))
    deep.mkdir()
    made = run("char", "new", deep / "k.toml", "--system", "clockworx", "-t", "A=4", "-t",
               "B=4", "-t", "C=4")
    assert made.status == 2 and f"at most {lines.MAX_NAME}: nothing was written" in made.error
    assert not (deep / "k.toml").exists() and (folder / "journal.jsonl").read_bytes() == journal
    (folder / "k.toml").write_text(f'name = "{long}"\nsystem = "clockworx"\nxp = 0\n\n'
                                   "[traits]\nA = 4\nB = 4\nC = 4\n")
    checked = run("check", cwd=folder)
    assert checked.status == 1 and "k.toml:1 [name]: the character's name holds" in checked.stdout


def test_the_ledger_keeps_one_copy_of_each_files_name(tmp_path: Path) -> None:
    # A journal naming 10,000 files in 1,000 letters of 4 bytes each cost check 219 MB:
    # the ledger, its sets and check's findings each kept a copy of every name.
    from cwx.journal import ledger

    path = tmp_path / "journal.jsonl"
    path.write_text("".join(_event(n, "bag draw", f"{n % 30:😀>200}.toml", changes=[
        {"file": f"{n % 30:😀>200}.toml", "key": "luck.white", "from": 0, "to": 1}]) + "\n"
        for n in range(60)))
    folded = ledger.read(str(path))
    names = {id(name): name for name in folded.known}
    assert len(names) == 30
    assert all(id(name) in names for name in [*folded.named - {None}, *folded.keys,
                                              *folded._rules])


def test_a_sheet_made_again_as_it_was_is_read_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `char new --force` of one sheet of 990 traits 2,000 times: each text read again
    # made recap 6 times check's time and `xp history` 9 times.
    from cwx.toml import tomlread

    text = 'name = "Kris"\nsystem = "clockworx"\nxp = 0\n\n[traits]\nA = 4\nB = 4\nC = 4\n'
    path = tmp_path / "journal.jsonl"
    path.write_text("".join(_event(n, "char new", "kris.toml", changes=[
        {"file": "kris.toml", "created": n == 0, "text": text}]) + "\n" for n in range(40)))
    loads, read = tomlread.loads, []
    monkeypatch.setattr(tomlread, "loads", lambda *args: read.append(1) or loads(*args))
    with history.opened(str(path)) as journal:
        recap.recap(journal, every=True)
        assert len(list(journal.steps("kris.toml", "xp"))) == 40
    # The ledger's prelude reads each, once a command; what the two follow, once in all.
    assert len(read) <= 2 * 40 + 2, len(read)


def test_luck_holds_no_long_note_of_the_draws_it_reads(tmp_path: Path) -> None:
    # 64 draws, each with a note of 1 MB, once cost `luck spend` 87 MB: each draw read
    # from the journal's end was kept with its note.
    import tracemalloc

    from cwx.journal import recent

    size, count = 200_000, 24
    path = tmp_path / "journal.jsonl"
    path.write_text("".join(_event(n, "bag draw", "sue.toml", result={
        "color": "red", "draws": ["red"], "success": True, "note": "a" * size}) + "\n"
        for n in range(count)))
    tracemalloc.start()
    try:
        found = recent.last_action(str(path), "sue.toml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found is not None and found.event.result["success"] is True
    assert peak < count // 2 * size, f"{peak:,} bytes held to read {count} draws of {size:,}"


def test_every_line_cwx_writes_is_one_it_reads_whatever_its_names_length() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from cwx.base.errors import BadFile
    from cwx.journal import lines

    around = st.integers(lines.MAX_NAME - 2, lines.MAX_NAME + 2)

    @settings(max_examples=40, deadline=None)
    @given(st.sampled_from(["who", "file", "bag", "change", "key"]), around,
           st.sampled_from("aé😀"))
    def written_is_read(field: str, size: int, letter: str) -> None:
        name = letter * size
        change = lines.Edit(name if field == "change" else "k.toml",
                            name if field == "key" else "xp", 0, 1)
        event = lines.new("clock resolve", [change], who=name if field == "who" else "K",
                          file=name if field == "file" else "k.toml",
                          bag=name if field == "bag" else None)
        try:
            line = lines.encode(event)
        except BadFile as refused:
            assert size > lines.MAX_NAME and "nothing was written" in refused.message
            return
        assert isinstance(lines.parse(line), lines.Event), (field, size)

    written_is_read()


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


def test_files_new_to_the_ledger_where_many_are_gone_are_each_named_in_one_short_line(
        tmp_path: Path) -> None:
    from tests.helpers import cwx as run

    text = "[bag]\nred = 1\nyellow = 1\nblue = 1\nwhite = 3\nblack = 3\n"
    folder = tmp_path / "camp"
    assert run("init", folder).status == 0
    with open(folder / "journal.jsonl", "a") as journal:  # 200 bags made, none left
        journal.writelines(_event(n, "bag new", f"gone/g{n}.toml", changes=[
            {"file": f"gone/g{n}.toml", "created": True, "text": text}]) + "\n"
            for n in range(1, 201))
    for n in range(50):  # and 50 the ledger never saw
        (folder / f"u{n}.toml").write_text(text)
    (folder / "u7.toml").rename(folder / "g7.toml")  # as a `git mv gone/g7.toml .` leaves it

    checked = run("check", cwd=folder)
    # Each new file's advice once named every gone file: the output grew as their product.
    assert checked.status == 1 and len(checked.stdout) < 250 * 600
    new = [line for line in checked.stdout.splitlines() if "has no history" in line]
    assert len(new) == 50 and all(len(line) < 600 for line in new)
    moved = next(line for line in new if line.startswith("g7.toml"))
    assert "moved from gone/g7.toml or " in moved and "or one of 197 other gone files" in moved
    # The advice, followed, moves the history: the gone file and the new one both settle.
    assert run("adopt", "gone/g7.toml", "g7.toml", cwd=folder).status == 0
    after = run("check", cwd=folder).stdout
    assert "g7.toml" not in after and after.count("has no history") == 49


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


def test_wheel_odds_whose_fractions_would_run_long_are_refused_naming_the_digits(
        tmp_path: Path) -> None:
    from cwx.rules import odds
    from tests.helpers import cwx as run

    bag = tmp_path / "bag.toml"
    # Within every other bound: 600 whites given up, each step's fraction as long as the reds.
    bag.write_text(f"[bag]\nred = {2**62}\nyellow = 0\nblue = 0\nwhite = 600\nblack = 900\n\n"
                   "[reserve]\nwhite = 380\nblack = 1\n")
    ran = run("odds", "wheel", "--bag", bag, "--all", "--keep-white", "--keep-black",
              "--spend-white", "--white", "1")
    assert ran.status == 2 and f"up to {odds.MOST_STEP_DIGITS:,} for the whites" in ran.error


# ---------------------------------------------------------------- files past the bounds
#
# A file or a campaign past a stated bound (docs/rules.md, "Limits") is refused before its
# work begins: `check` names it as a finding (exit 1), a command refuses it (exit 2), each
# in one line naming the file. The full sizes (a 1 MB sheet, 20,000 files) are
# bench/hostile.py's.


def _traits(count: int) -> str:
    return 'name = "Big"\nsystem = "clockworx"\nxp = 0\n\n[traits]\n' + "".join(
        f"t{n} = 3\n" for n in range(count))


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """A campaign whose ledger knows big.toml as a sheet of three traits."""
    from tests.helpers import cwx as run

    folder = tmp_path / "camp"
    assert run("init", folder).status == 0
    assert run("char", "new", folder / "big.toml", "--system", "clockworx", "-t", "A=3",
               "-t", "B=3", "-t", "C=3").status == 0
    return folder


def test_a_sheet_past_the_values_a_file_holds_is_named_by_check_and_refused(
        played: Path) -> None:
    from cwx.toml import tomlread
    from tests.helpers import cwx as run

    big = played / "big.toml"
    big.write_text(_traits(tomlread.MAX_VALUES))  # its keys and traits: past the bound
    said = f"holds more than {tomlread.MAX_VALUES:,} keys and list items"
    checked = run("check", cwd=played)
    assert checked.status == 1 and f"big.toml: {said}" in checked.stdout
    for command in (["reconcile"], ["reconcile", "--dry-run"], ["adopt", "big.toml"],
                    ["char", "show", "big.toml"]):
        ran = run(*command, cwd=played)
        assert ran.status == 2 and said in ran.error, command
    # Within it, the sheet is read, and its differences named one by one.
    big.write_text(_traits(tomlread.MAX_VALUES - 10))
    checked = run("check", cwd=played)
    assert checked.status == 1 and said not in checked.stdout and "[traits.t989]" in checked.stdout


@pytest.mark.parametrize("name", ["big.toml", "bag.toml", "campaign.toml"])
def test_a_file_past_the_bytes_a_file_holds_is_refused_unread(played: Path, name: str) -> None:
    from cwx.toml import tomlread
    from tests.helpers import cwx as run

    path = played / name
    path.write_text(path.read_text() + "#" * tomlread.MAX_BYTES)
    said = f"cwx reads a file of up to {tomlread.MAX_BYTES:,}"
    checked = run("check", cwd=played)
    assert checked.status == 1 and f"{name}: is " in checked.stdout and said in checked.stdout
    ran = run("reconcile", cwd=played)
    assert ran.status == 2 and name in ran.error and said in ran.error


def test_a_text_in_the_journal_is_held_to_a_files_bounds() -> None:
    from cwx.base.errors import BadFile
    from cwx.toml import tomlread

    with pytest.raises(BadFile, match="cwx reads a file of up to"):
        tomlread.loads("# " + "x" * tomlread.MAX_BYTES + "\n")
    with pytest.raises(BadFile, match="keys and list items"):
        tomlread.loads('[bag]\nwhite = 1\n[notes]\nlist = [' + "1, " * 1000 + "]\n")
    assert len(tomlread.loads(_traits(100))["traits"]) == 100


def test_a_campaign_of_more_files_than_cwx_reads_is_named_before_any_is_read(
        played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cwx.campaign import folder as campaign
    from cwx.toml import tomlread
    from tests.helpers import cwx as run

    monkeypatch.setattr(campaign, "MAX_FILES", 20)  # the same walk as at 1,000, cheaper
    party = played / "party"
    party.mkdir()
    for n in range(campaign.MAX_FILES):
        (party / f"c{n}.toml").write_text(_traits(3))
    read: list[str] = []
    monkeypatch.setattr(tomlread, "read_bytes", lambda path, **_: read.append(path) or b"")
    said = f"holds more than {campaign.MAX_FILES:,} TOML files below it"
    checked = run("check", cwd=played)
    assert checked.status == 1 and f".: {said}" in checked.stdout
    for command in (["reconcile"], ["reconcile", "--dry-run"]):
        ran = run(*command, cwd=party)
        assert ran.status == 2 and f"..: {said}" in ran.error
    assert all(path.endswith("campaign.toml") for path in read)  # its settings only


def test_a_campaign_whose_files_hold_too_much_together_is_read_no_further(
        played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cwx.campaign import folder as campaign
    from tests.helpers import cwx as run

    monkeypatch.setattr(campaign, "MAX_HELD", 120)  # the same count as at 20,000, cheaper
    for n in range(4):  # each well within a file's bound; together past the campaign's
        (played / f"c{n}.toml").write_text(_traits(30))
    said = "its files hold more than 120 keys and list items together"
    checked = run("check", cwd=played)
    assert checked.status == 1 and f".: {said}" in checked.stdout
    assert "no history" not in checked.stdout  # read no further
    ran = run("reconcile", "--dry-run", cwd=played)
    assert ran.status == 2 and f".: {said}" in ran.error
    for n in (2, 3):
        (played / f"c{n}.toml").unlink()
    assert run("reconcile", "--dry-run", cwd=played).status == 0


def test_a_campaign_whose_files_hold_too_many_bytes_together_is_read_no_further(
        played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cwx.campaign import folder as campaign
    from tests.helpers import cwx as run

    monkeypatch.setattr(campaign, "MAX_HELD_BYTES", 1 << 20)  # the same sum as at 8 MiB, cheaper
    notes = "\n[notes]\n" + "".join(f'n{i} = "{"x" * 6000}"\n' for i in range(10))
    party = [played / f"c{n}.toml" for n in range(25)]  # each within a file's bounds
    for path in party:
        path.write_text(_traits(3) + notes)
    said = ".: its files hold more than 1 MiB together, and cwx reads a campaign of up to that much"
    checked = run("check", cwd=played)
    assert checked.status == 1 and said in checked.stdout
    assert checked.stdout.count("\n") == 2  # the one finding, and the count
    for command in (["party"], ["reconcile", "--dry-run"], ["adopt", *map(str, party)]):
        ran = run(*command, cwd=played)
        assert ran.status == 2 and said in ran.error, command  # the one line
    for path in party[12:]:
        path.unlink()
    assert run("party", cwd=played).status == 0


def _crowding(events: int, draws: bool) -> str:
    """Lines that each name files no other line names: eight changes' files, or a draw's bag."""
    return "".join((_event(n, "bag draw", "sue.toml", bag=f"bag{n}.toml",
                           result={"color": "red", "draws": ["red"], "recorded": True})
                    if draws else
                    _event(n, "clock resolve", f"c{n}.toml", changes=[
                        {"file": f"c{n}_{i}.toml", "key": "bag.white", "from": 0, "to": 1}
                        for i in range(8)])) + "\n"
                   for n in range(1, events + 1))


@pytest.mark.parametrize("draws", [False, True], ids=["a file a change", "a bag a draw"])
def test_a_journal_naming_more_files_than_cwx_reads_is_refused_at_its_line(
        played: Path, monkeypatch: pytest.MonkeyPatch, draws: bool) -> None:
    from cwx.journal import lines
    from tests.helpers import cwx as run

    monkeypatch.setattr(lines, "MAX_NAMED", 40)  # the same count as at 10,000, cheaper
    journal = played / "journal.jsonl"
    made = journal.read_text()
    journal.write_text(made + _crowding(20 if draws else 3, draws))  # within: 20 or 27 more
    checked = run("check", cwd=played)
    assert "names more than" not in checked.stdout and "not one JSON" not in checked.stdout
    assert run("log", cwd=played).status == 0
    journal.write_text(made + _crowding(60, draws))
    checked = run("check", cwd=played)
    found = re.search(r"journal\.jsonl:(\d+): names more than 40 files from the journal's "
                      "start to here, and cwx reads a journal of up to that many", checked.stdout)
    assert checked.status == 1 and found, checked.stdout
    named: set[str] = set()  # the line that names the 41st file, every name counted
    line = 0
    while len(named) <= 40:
        line += 1
        event = json.loads(journal.read_text().splitlines()[line - 1])
        named |= {event["file"], event["bag"], *(c["file"] for c in event["changes"])} - {None}
    assert found.group(1) == str(line)
    for command in (["log"], ["log", "--last", "3"], ["recap", "--all"], ["audit"],
                    ["reconcile", "--dry-run"]):
        ran = run(*command, cwd=played)
        assert ran.status == 2 and f"journal.jsonl:{line}: names more than 40 files" in ran.error, \
            command


def test_the_players_offered_are_the_latest_of_a_journal_naming_many(
        played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cwx.cli import common

    monkeypatch.setattr(common, "MOST_PLAYERS", 5)  # the same as at 1,000, cheaper
    with open(played / "journal.jsonl", "a") as journal:
        journal.writelines(_event(n, "clock resolve", "big.toml", player=f"P{n % 12}") + "\n"
                           for n in range(1, 40))
    monkeypatch.chdir(played)
    assert common.complete_players() == ["P3", "P2", "P1", "P0", "P11"]


def test_the_bounds_are_stated_as_the_code_holds_them() -> None:
    from cwx.base import traitnames
    from cwx.campaign import folder as campaign
    from cwx.journal import lines
    from cwx.toml import tomlread
    from tests.helpers import ROOT

    for doc in ("docs/rules.md", "README.md"):
        text = " ".join((ROOT / doc).read_text().split())
        assert f"at most {tomlread.MAX_BYTES >> 10} KiB" in text, doc
        assert f"{tomlread.MAX_VALUES:,} keys and list items" in text, doc
        assert f"at most {campaign.MAX_FILES:,} TOML files" in text, doc
        assert f"{campaign.MAX_HELD:,} keys and list items together" in text, doc
        assert f"at most {campaign.MAX_HELD_BYTES >> 20} MiB together" in text, doc
        assert f"journal names at most {lines.MAX_NAMED:,} files from its start" in text, doc
        assert f"name holds at most {traitnames.MOST} characters" in text, doc
        assert f"or a character in at most {lines.MAX_NAME}" in text, doc


def test_a_history_and_a_log_keep_a_long_text_value_as_a_summary(tmp_path: Path) -> None:
    # 50 xp changes from a megabyte of text each once cost `xp history` 224 MB and `log`
    # 237 MB: each step and each row kept its value whole (a letter of 4 bytes, 4 MB).
    import tracemalloc

    from cwx.commands import log

    count, size = 12, 200_000
    path = tmp_path / "journal.jsonl"
    path.write_text("".join(_event(n, "xp spend", "kris.toml", changes=[
        {"file": "kris.toml", "key": "xp", "from": "a" * size + "\U0001F600", "to": 3}]) + "\n"
        for n in range(count)), encoding="utf-8")
    tracemalloc.start()
    try:
        with history.opened(str(path)) as read:
            # as `xp history` holds them: each step, its event's changes let go
            held = [step._replace(event=step.event._replace(changes=()))
                    for step in read.steps("kris.toml", "xp")]
            kept = tracemalloc.get_traced_memory()[0]
            cell = log._change(next(read.touching("kris.toml")), None)
    finally:
        tracemalloc.stop()
    assert len(held) == count and held[0].said is not None
    assert held[0].said[0] == f"{'a' * 40}… ({size + 1:,} characters)"
    assert kept < count * size // 2, f"{kept:,} bytes held for {count} steps"
    assert cell.startswith("xp aaaa") and len(cell) < 100, cell


def test_a_log_measures_a_cell_of_wide_letters_in_few_steps() -> None:
    # 100,000 names of 255 emoji once cost `log` 3.3 times `check`: each letter of each
    # cell was looked up in a step of its own.
    from cwx.commands import log

    name = "\U0001F600" * 254 + "勇e\u0308"
    assert log._width(name) == 2 * 254 + 2 + 1
    assert steps(lambda: log._width(name)) < 40


def _recap_held(path: Path, count: int, pad: str) -> tuple[int, int, Any]:
    """A recap --all of `count` draws whose names are padded with `pad`: the bytes it holds
    once read, the most it holds while it is written, and what it told."""
    import itertools
    import tracemalloc

    path.write_text("".join(_event(
        n, "xp spend", "kris.toml" if n % 3 else None, who=f"{n % 300:{pad}>255}",
        player=f"{n:{pad}>100}", changes=[{"file": "kris.toml", "key": f"traits.{n % 9:{pad}>200}",
                                           "from": None, "to": 1}]) + "\n" for n in range(count)),
        encoding="utf-8")
    with history.opened(str(path)) as read:
        recap.recap(read, every=True)  # what it loads, once
        tracemalloc.start()
        try:
            done = recap.recap(read, every=True)
            held = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()  # the pass reads the journal a megabyte at a time
            for _ in itertools.chain(recap.json_parts(done), recap.markdown_lines(done)):
                pass
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        told = json.loads("".join(recap.json_parts(done)))["events"]
        heads = [line for line in recap.markdown_lines(done) if line.startswith("## ")]
    return held, peak, (told, heads)


def test_a_recap_holds_no_name_of_the_events_it_tells(tmp_path: Path) -> None:
    # 100,000 draws each naming a character, a player and a key of its own in letters of
    # 4 bytes (within every bound) once cost recap --all 132-207 MB: each event kept its
    # names and words until the end. Its place is kept; it is read again as it is told.
    # Measured against the same journal with names of one-byte letters, in the same
    # process: what a recap holds for an event varies with the interpreter and what ran
    # before, what it holds of names must not.
    count = 600
    held, peak, (told, heads) = _recap_held(tmp_path / "journal.jsonl", count, "\U0001F600")
    plain, _, _ = _recap_held(tmp_path / "plain.jsonl", count, "K")
    # The names alone are some 2.3 MB (1.3 MB in one-byte letters), and the words told of
    # them more: an event may hold 50 bytes more of them, a tenth of its player's name.
    assert held < plain + count * 50, f"{held:,} bytes held by the recap of {count} events " \
        f"({plain:,} with names of one-byte letters)"
    assert peak < held + count * 400, f"{peak:,} bytes at most while it is written"
    assert [(e["who"], e["player"]) for e in told] == [
        (f"{n % 300:😀>255}", f"{n:😀>100}") for n in range(count)]
    assert all(f"+1 {n % 9:😀>200}" in e["told"] for n, e in enumerate(told) if n % 3)
    # A character of no file is one by its name: one for kris.toml, one each other name.
    assert len(heads) == 1 + 100 + 1 and heads[0] == f"## {0:😀>255}"
    assert heads[1] == f"## {299:😀>255} (kris.toml)" and heads[-1] == "## At the end"


def test_an_xp_history_is_written_as_it_is_read(tmp_path: Path) -> None:
    # A character buying 1,000 traits named in 248 letters of 4 bytes each once cost
    # `xp history` 110 MB: every step's words were kept, then a table and a text of them.
    import tracemalloc

    from cwx.cli.output import json_parts
    from cwx.commands import xp

    count = 1500
    path = tmp_path / "journal.jsonl"
    path.write_text("".join(_event(n, "xp spend", "kris.toml", result={"trait": f"{n:😀>248}"},
                                   changes=[{"file": "kris.toml", "key": "xp", "from": 12,
                                             "to": 0}]) + "\n" for n in range(count)),
                    encoding="utf-8")
    with history.opened(str(path)) as read:
        def steps(told: bool = True) -> Any:
            return ((step, read.told(step.event) if told else "")
                    for step in read.steps("kris.toml", "xp"))

        lines, last = 0, ""
        tracemalloc.start()
        try:
            for part in json_parts(xp._history_json("kris.toml", steps)):
                del part
            for part in xp._history_text("kris.toml", steps):
                lines, last = lines + 1, part  # only the last line kept
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < path.stat().st_size, f"{peak:,} bytes to tell a journal of " \
        f"{path.stat().st_size:,}"
    assert lines == 2 + 1 + count and f"on {count - 1:😀>248}: -12 xp" in last
