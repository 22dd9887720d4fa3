"""Luck after the fact (W5, W6): a white spent on the last failed draw, the GM's curse on
the last successful one; each action turned once; the journal says what was turned."""

from __future__ import annotations

import json
import os
import pty
import select
import shlex
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from tests.helpers import cwx, journal, later, saga


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A campaign with Sue holding a white and a black, and the bag by default."""
    folder = saga(tmp_path / "saga")
    sue = folder / "sue.toml"
    sue.write_text(sue.read_text().replace("white = 0", "white = 1")
                   .replace("black = 0", "black = 1"))
    assert cwx("adopt", sue, "--supply").status == 0
    return folder


def held(folder: Path) -> tuple[int, int]:
    luck = tomllib.loads((folder / "sue.toml").read_text())["luck"]
    return luck["white"], luck["black"]


def draw(folder: Path, *dice: str, colour: str = "red") -> None:
    drawn = [part for die in dice for part in ("--drawn", die)]
    assert cwx("bag", "draw", "-c", "sue", "-C", colour, *drawn, cwd=folder).status == 0


def test_a_white_spent_after_the_failure_turns_it_into_a_success(table: Path) -> None:
    draw(table, "blue")  # red action, blue die: a failure
    ran = cwx("luck", "spend", "--char", "sue", "--json", cwd=table)
    assert ran.status == 0 and ran.json["success"] is True
    assert held(table) == (0, 1)
    spent = journal(table)[-1]
    failed = journal(table)[-2]
    assert spent["command"] == "luck spend" and spent["result"]["turns"] == failed["id"]
    assert spent["bag"] == "bag.toml"  # the bag that draw came from
    assert cwx("check", table).status == 0
    log = cwx("log", "--last", 2, cwd=table).stdout
    assert "failure, turned to success" in log


@pytest.mark.parametrize(("setup", "turn", "complaint"), [
    ([], "spend", "no draw in the journal"),
    ([["red"]], "spend", "last draw succeeded"),
    ([["blue"], "spend"], "spend", "already turned"),
    ([["blue"]], "curse", "last draw failed"),
    ([["red"], "curse"], "curse", "already turned"),
    ([["red"], "end"], "curse", "last action was `game end`, not a draw"),
    ([["red"], "curse"], "spend", "already turned"),
])
def test_luck_turns_only_the_last_draw_and_only_once(table: Path, setup: list[object],
                                                      turn: str, complaint: str) -> None:
    for step in setup:
        if isinstance(step, list):
            draw(table, *step)
        elif step == "end":
            assert cwx("game", "end", "-c", "sue", cwd=table).status == 0
        else:
            assert cwx("luck", step, "-c", "sue", cwd=table).status == 0
    before = (table / "sue.toml").read_bytes(), (table / "bag.toml").read_bytes()
    ran = cwx("luck", turn, "-c", "sue", cwd=table)
    assert ran.status == 2 and complaint in ran.error
    assert ((table / "sue.toml").read_bytes(), (table / "bag.toml").read_bytes()) == before


def test_a_draw_that_spent_a_white_is_already_turned(table: Path) -> None:
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "blue", "--spend-white",
               cwd=table).status == 0
    ran = cwx("luck", "curse", "-c", "sue", cwd=table)
    assert ran.status == 2 and "already turned" in ran.error


def test_an_undone_spend_frees_the_draw_to_be_turned_again(table: Path) -> None:
    draw(table, "blue")
    assert cwx("luck", "spend", "-c", "sue", cwd=table).status == 0
    first = journal(table)[-1]["id"]
    assert cwx("undo", "-c", "sue", cwd=table).status == 0
    assert held(table) == (1, 1)
    assert cwx("luck", "spend", "-c", "sue", cwd=table).status == 0
    assert held(table) == (0, 1)
    # the new turn names the undone one: no clock set back can make it count for nothing
    assert journal(table)[-1]["result"]["after_undone"] == [first]


def test_undo_takes_back_a_draw_that_changed_nothing_so_it_is_no_longer_the_last(
        table: Path) -> None:
    draw(table, "red")  # a success: no file changes
    draw(table, "blue")  # a failure: none either
    failed = journal(table)[-1]
    undone = cwx("undo", "-c", "sue", "--json", cwd=table)
    assert undone.status == 0 and undone.json["undid"]["id"] == failed["id"]
    assert held(table) == (1, 1)  # nothing older was taken back
    ran = cwx("luck", "spend", "-c", "sue", cwd=table)  # the success is the last action now
    assert ran.status == 2 and "succeeded" in ran.error
    assert cwx("check", table).status == 0


def test_a_curse_with_no_draw_says_to_record_it(table: Path) -> None:
    ran = cwx("luck", "curse", "-c", "sue", cwd=table)
    assert ran.status == 2 and "record the draw first" in ran.error and "--drawn" in ran.error


# ---------------------------------------------------------------- the prompt, on a real pty


def on_a_terminal(folder: Path, args: list[str], answers: list[bytes],
                  interrupt_at: int | None = None) -> tuple[int, str]:
    """Run cwx with a pty as its stdin and stderr, answering each question as it comes."""
    main, side = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "cwx", *args], cwd=folder, stdin=side,
                               stdout=subprocess.PIPE, stderr=side, close_fds=True)
    os.close(side)
    said = b""
    asked = 0
    deadline = time.monotonic() + 30
    while process.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.1)
        if not ready:
            continue
        try:
            chunk = os.read(main, 1024)
        except OSError:
            break
        said += chunk
        if said.count(b"[y/N]") > asked:
            if interrupt_at == asked:
                process.send_signal(signal.SIGINT)
            else:
                os.write(main, answers[asked] + b"\n")
            asked += 1
    process.wait(timeout=30)
    with_rest = said
    try:
        while select.select([main], [], [], 0.1)[0]:
            with_rest += os.read(main, 1024)
    except OSError:
        pass
    os.close(main)
    return process.returncode, with_rest.decode(errors="replace")


def test_a_failed_draw_on_a_terminal_offers_the_white_at_once(table: Path) -> None:
    sue = table / "sue.toml"
    sue.write_text(sue.read_text().replace("black = 1", "black = 0"))
    assert cwx("adopt", sue, "--supply").status == 0
    status, said = on_a_terminal(table, ["bag", "draw", "-c", "sue", "-C", "red", "--drawn",
                                         "blue"], [b"y"])
    assert status == 0 and "Spend the white held" in said
    assert held(table) == (0, 0)
    assert journal(table)[-1]["result"]["white_spent"] is True


def test_keep_and_spend_on_a_terminal_then_ctrl_c_changes_nothing(table: Path) -> None:
    sue = table / "sue.toml"
    sue.write_text(sue.read_text().replace("black = 1", "black = 0"))
    assert cwx("adopt", sue, "--supply").status == 0
    status, said = on_a_terminal(table, ["bag", "draw", "-c", "sue", "-C", "red", "--drawn",
                                         "white", "--drawn", "blue"], [b"y", b"n"])
    assert status == 0 and "Keep it and draw again" in said and "Spend one of the 2" in said
    assert held(table) == (2, 0)  # kept the white, declined to spend
    before = sue.read_bytes(), len(journal(table))
    status, said = on_a_terminal(table, ["bag", "draw", "-c", "sue", "-C", "red", "--drawn",
                                         "blue"], [], interrupt_at=0)
    assert status == 130 and "interrupted; nothing was changed" in said
    assert (sue.read_bytes(), len(journal(table))) == before


def test_no_spend_is_offered_for_a_record_that_is_refused(table: Path) -> None:
    # Sue holds a white and a black: the black cancels a drawn white, the action ends, and
    # the red recorded after it makes the record wrong. Nothing to ask about.
    before = (table / "sue.toml").read_bytes()
    status, said = on_a_terminal(table, ["bag", "draw", "-c", "sue", "-C", "blue", "--drawn",
                                         "white", "--drawn", "red"], [b"y"])
    assert status == 2 and "[y/N]" not in said and "a held black cancelled the white" in said
    assert (table / "sue.toml").read_bytes() == before


@pytest.mark.parametrize("ascii_journal", [False, True], ids=["utf-8", "escaped"])
def test_luck_finds_the_last_draw_of_a_character_named_beyond_ascii(
        tmp_path: Path, ascii_journal: bool) -> None:
    from tests.helpers import SUE

    folder = tmp_path / "saga"
    assert cwx("init", folder).status == 0
    assert cwx("char", "new", folder / "zoé.toml", "--system", "colorwheel", *SUE).status == 0
    assert cwx("bag", "draw", "-c", "zoé.toml", "-C", "red", "--drawn", "white", "--drawn",
               "blue", "--keep-white", cwd=folder).status == 0
    if ascii_journal:  # as another JSON writer (ensure_ascii) would have written it
        import json

        lines = (folder / "journal.jsonl").read_text().splitlines()
        (folder / "journal.jsonl").write_text(
            "".join(json.dumps(json.loads(line)) + "\n" for line in lines))
        assert "zo\\u00e9" in (folder / "journal.jsonl").read_text()
    assert cwx("bag", "draw", "-c", "zoé.toml", "-C", "red", "--drawn", "blue",
               cwd=folder).status == 0
    spent = cwx("luck", "spend", "-c", "zoé.toml", cwd=folder)
    assert spent.status == 0, spent.stderr


def test_only_a_gm_campaign_toml_names_curses(table: Path) -> None:
    """W6: the curse is the GM's; a player's is refused, and one written past the refusal
    (by hand, or an older cwx) is named by check."""
    settings = table / "campaign.toml"
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["GM"]\n'))
    draw(table, "red")
    ran = cwx("luck", "curse", "-c", "sue", cwd=table, env={"CWX_PLAYER": "Vic"})
    assert ran.status == 2 and held(table) == (1, 1)
    assert "Vic is no GM of this campaign (gm = ['GM']): only the GM curses (W6)" in ran.error
    assert cwx("luck", "curse", "-c", "sue", cwd=table, env={"CWX_PLAYER": "gm"}).status == 0
    cursed = journal(table)[-1]
    # A second curse of it, stamped after it (events of one moment go by their ids), turns
    # nothing.
    copy = {**cursed, "id": "c0c0c0c0c0c0c0c0", "player": "Vic", "at": later(cursed["at"], 1)}
    with open(table / "journal.jsonl", "a") as lines:
        lines.write(json.dumps(copy) + "\n")
    assert "only the GM curses" not in cwx("check", table).stdout
    draw(table, "red")
    drawn = journal(table)[-1]
    with open(table / "journal.jsonl", "a") as lines:
        lines.write(json.dumps({**copy, "id": "c0c0c0c0c0c0c0c1", "at": later(drawn["at"], 1),
                                "result": {**cursed["result"], "turns": drawn["id"]}}) + "\n")
    checked = cwx("check", table)
    assert checked.status == 1
    assert "luck curse c0c0c0c0 is by Vic, no GM of the campaign (campaign.toml: gm = " \
        "['GM']): only the GM curses (W6)" in checked.stdout
    assert f"luck curse {cursed['id'][:8]} is by" not in checked.stdout


def test_a_players_curse_check_names_is_taken_back_by_its_advice_as_the_gm(
        table: Path) -> None:
    """A curse by a player gm does not name, written past the refusal: check's advice,
    followed by the GM (whose change it is not), takes it back; then check passes."""
    settings = table / "campaign.toml"
    supplied = journal(table)[-1]["player"]  # the table's adopt --supply: a GM's
    settings.write_text(settings.read_text().replace(
        "[campaign]\n", f'[campaign]\ngm = ["GM", {json.dumps(supplied)}]\n'))
    draw(table, "red")
    assert cwx("luck", "curse", "-c", "sue", cwd=table, env={"CWX_PLAYER": "GM"}).status == 0
    path = table / "journal.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines[:-1], json.dumps(
        {**json.loads(lines[-1]), "player": "Vic O'Neil"})]) + "\n")
    checked = cwx("check", table)
    assert checked.status == 1
    advice = next(line for line in checked.stdout.splitlines() if "only the GM curses" in line)
    followed = shlex.split(advice.rpartition("`cwx ")[2].partition("`")[0])
    undone = cwx(*followed, cwd=table, env={"CWX_PLAYER": "GM"})
    assert undone.status == 0, undone.stderr
    assert cwx("check", table).status == 0 and held(table) == (1, 1)
