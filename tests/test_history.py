"""The journal's one query layer (cwx/journal/history.py) and what it answers: `cwx xp history`,
every change to a character's experience, those other events made included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cwx.base.errors import RuleForbids
from cwx.journal import history, story
from cwx.journal import lines as journal
from cwx.rules import clockworx
from tests.helpers import cwx
from tests.test_git import Table, value
from tests.test_post import _identity, play, sync

__all__ = ["_identity"]  # the fixture: git's author from no config, HOME in tmp_path


def test_xp_history_tells_a_reveal_and_an_undo_as_changes_to_it(tmp_path: Path) -> None:
    # A player guesses on the GM's sealed number in their own clone; the GM's reveal
    # gives the experience (a change of the reveal's, not of the guess); the player then
    # earns some by a draw of their own, and undoes it.
    table = Table(tmp_path)
    gm = table.clone("gm")
    play(gm, "GM", "init", ".")
    play(gm, "GM", "char", "new", "kris.toml", "--system", "clockworx", "--trait", "Repair=4",
         "--trait", "Run=3", "--trait", "Lie=5")
    play(gm, "GM", "clock", "pick", "--seal", "--target", "9")
    sync(gm, "GM")
    alice = table.clone("alice")
    play(alice, "GM", "git", "setup")
    play(alice, "Alice", "clock", "resolve", "--sealed", "-g", 7, "-t", "repair", "-c", "kris")
    sync(alice, "Alice")
    sync(gm, "GM")
    play(gm, "GM", "clock", "reveal")
    gained = clockworx.resolve(9, 7, 4, "Repair").xp
    play(gm, "Alice", "clock", "resolve", "-T", 2, "-g", 2, "-t", "Run", "-c", "kris")
    earned = clockworx.resolve(2, 2, 3, "Run").xp
    play(gm, "Alice", "undo", "--char", "kris")
    assert gained and earned and value(gm, "kris.toml", "xp") == gained

    ran = cwx("xp", "history", "kris", "--json", cwd=gm)
    assert ran.status == 0, ran.stderr
    steps = ran.json["changes"]
    assert [(s["command"], s["from"], s["to"]) for s in steps] == [
        ("char new", None, 0), ("clock reveal", 0, gained),
        ("clock resolve", gained, gained + earned), ("undo", gained + earned, gained)]
    assert ran.json["xp"] == gained == value(gm, "kris.toml", "xp")
    undo = steps[3]["id"]
    assert steps[2]["undone_by"] == undo and steps[1]["undone_by"] is None
    assert steps[1]["who"] is None and steps[2]["player"] == "Alice"
    assert all(s["counts"] for s in steps) and steps[0]["whole"]

    text = cwx("xp", "history", "kris", "--utc", cwd=gm)
    assert text.status == 0, text.stderr
    assert text.stdout.startswith(f"kris.toml: {gained} xp, as the journal counts it")
    assert f"0 → {gained}" in text.stdout and f"undone by {undo[:8]}" in text.stdout
    assert "reveals the number" in text.stdout


def test_the_state_at_an_event_is_the_ledger_folded_to_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    made = journal.new("char new", [journal.Edit("k.toml", None, None, None, created=True,
                                                 text='name = "K"\nsystem = "clockworx"\n'
                                                      'xp = 2\n[traits]\nA = 4\n')])
    moves = [journal.new("clock resolve", [journal.Edit("k.toml", "xp", 2 + n, 3 + n)],
                         file="k.toml")._replace(at=f"2099-01-01T00:00:0{n + 1}.000Z")
             for n in range(3)]
    made = made._replace(at="2099-01-01T00:00:00.000Z")
    path.write_bytes(b"".join(journal.encode(e) for e in (made, *moves)))
    with history.opened(str(path)) as read:
        assert read.state("k.toml", moves[0])["xp"].value == 3
        assert read.state("k.toml")["xp"].value == 5
        assert [step.after for step in read.steps("k.toml", "xp")] == [2, 3, 4, 5]
        assert [e.id for e in read.touching("k.toml")] == [made.id] + [m.id for m in moves]


def _sealed_journal(path: Path) -> dict[str, journal.Event]:
    """A guess settled, one late (after its reveal), one void (its number sealed over),
    and the reveal copied with a new id (settling the first guess again)."""
    from cwx.campaign import seal
    from cwx.systems.clockworx import GUESSING

    shown, over = seal.new(5), seal.new(7)

    def at(second: int) -> str:
        return f"2026-01-01T00:00:{second:02d}.000Z"

    def guess(second: int, commitment: str) -> journal.Event:
        return journal.new(GUESSING, [], result={"pending": True, "commitment": commitment,
                                                 "guess": 3, "trait": None, "score": 2},
                           at=at(second))

    made = {"seal": journal.new("clock pick --seal", [], result={
        "commitment": shown.commitment}, at=at(0)), "settled": guess(1, shown.commitment)}
    entry = {"id": made["settled"].id, "who": None, "file": None, "player": None,
             **clockworx.resolve(5, 3, 2, None)._asdict()}
    made["reveal"] = journal.new("clock reveal", [], at=at(2), result={
        "commitment": shown.commitment, "target": 5, "nonce": shown.nonce, "guesses": [entry]})
    made["late"] = guess(3, shown.commitment)
    made["over"] = journal.new("clock pick --seal", [], result={"commitment": over.commitment},
                               at=at(4))
    made["void"] = guess(5, over.commitment)
    made["anew"] = journal.new("clock pick --seal", [], at=at(6), result={
        "commitment": seal.new(9).commitment, "replaces": over.commitment})
    made["copied"] = made["reveal"]._replace(id="e" * 16, at=at(7))
    path.write_bytes(b"".join(journal.encode(event) for event in made.values()))
    return made


def test_late_void_and_a_reveal_in_vain_are_asked_of_the_one_model(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    made = _sealed_journal(path)
    with history.opened(str(path)) as read:
        assert read.late() == {made["late"].id: made["reveal"].at}
        board = read.guesses()
        assert [guess.id for guess in board.void] == [made["void"].id]
        assert read.voided() == {made["void"].id: made["anew"].id}
        assert read.voided(lambda when: when < made["anew"].at) == {}  # not sealed over yet
        assert board.settled == {made["settled"].id: made["reveal"].id}
        assert read.settled_in_vain() == [(8, "e" * 16, made["settled"].id,
                                           f"reveal {made['reveal'].id[:8]} settled it already")]


def test_undo_of_a_reveal_in_vain_reads_the_journal_once(tmp_path: Path,
                                                          monkeypatch: Any) -> None:
    # Only the lines that can say what undo asks are parsed, the guesses' once: no whole
    # read of the journal, for the reveal or anything else.
    from cwx.campaign import accounts
    from cwx.journal import sealed

    path = tmp_path / "journal.jsonl"
    made = _sealed_journal(path)
    counted = []
    real = sealed.counted
    monkeypatch.setattr(sealed, "counted",
                        lambda *a, **k: counted.append(a) or real(*a, **k))

    def whole(*_: object) -> None:
        raise AssertionError("the whole journal read")

    monkeypatch.setattr(journal, "read", whole)
    monkeypatch.setattr(journal, "events_in", whole)
    undoing = accounts.named_undoable(str(path), "eeeeeeee", None, None)
    assert undoing.target == undoing.change == made["copied"]._replace(line=8)
    assert len(counted) == 1
    with pytest.raises(RuleForbids) as refused:
        accounts.named_undoable(str(path), made["reveal"].id, None, None)
    assert "which undo never takes back" in refused.value.message  # the first one stands


def test_lines_read_elsewhere_are_parsed_by_the_journal_package() -> None:
    # A diff's added lines, a commit's journal, a redo record's line: a line that is no
    # event gives none, and claims no player unless it names one.
    made = journal.new("clock resolve", [journal.Edit("k.toml", "xp", 1, 2),
                                         journal.Edit("b.toml", "dice", 3, 2)],
                       file="k.toml", player="Ann")
    line = journal.encode(made)
    assert [e.id for e in history.events_among([b"<<<<<<< HEAD", line.rstrip(), b"{}"])] == \
        [made.id]
    assert [c.key for c in history.changes_to(line, "k.toml")] == ["xp"]
    assert history.changes_to(b'{"v": 2}', "k.toml") == ()
    assert history.player_of(line) == "Ann"
    assert history.player_of(b'{"player": "Bob", "v": "no event"}\n') == "Bob"
    assert history.player_of(b'{"player": 7}') is None
    assert history.player_of(b"<<<<<<< HEAD") is None
    # check --signed reads every line HEAD's journal holds, events or not: one nested deeper
    # than Python's stack names no player (json.loads raises RecursionError on it).
    assert history.player_of(b"[" * 200_000) is None


def test_since_a_commit_is_each_event_it_lacks_once_in_time_order(tmp_path: Path) -> None:
    # What a sync's commit message tells: a line git's union copied counts once, a line
    # that is no event is left out, and merged lines are told in time order.
    path = tmp_path / "journal.jsonl"
    said = [journal.new("clock resolve", [journal.Edit("k.toml", "xp", n, n + 1)],
                        file="k.toml")._replace(at=f"2099-01-01T00:00:0{n}.000Z")
            for n in range(4)]
    lines = [journal.encode(e) for e in said]
    path.write_bytes(lines[0] + lines[3] + b"not an event\n" + lines[2] + lines[1] + lines[3])
    with history.opened(str(path)) as read:
        assert [e.id for e in read.since([lines[0].rstrip(), b"{}"])] == \
            [e.id for e in said[1:]]
        assert read.since(line.rstrip() for line in lines) == []
        # a commit message keeps only the first it tells, and counts the rest
        first, count = read.first_since([], 2)
        assert [e.id for e in first] == [e.id for e in said[:2]] and count == 4
        told = story.summary(first, 500, total=count)
        assert told.endswith("; and 2 more") and told.count(";") == 2, told
    with history.opened(str(tmp_path / "none.jsonl")) as read:
        assert read.since([]) == []


def test_recap_asks_the_model_which_guess_is_late_as_of_its_last_moment(
        tmp_path: Path) -> None:
    # A reveal whose nonce is not its commitment's shows no number (check names it): the
    # guess on it still waits, in the recap as in the log. The GM's true reveal a day on
    # makes it late, but a recap --until the day before tells it waiting, as then.
    from cwx.campaign import seal
    from cwx.systems.clockworx import GUESSING
    from tests.helpers import saga

    folder = saga(tmp_path / "saga")
    shown = seal.new(5)

    def at(day: int) -> str:
        return f"2026-01-0{day}T12:00:00.000Z"

    made = [
        journal.new("clock pick --seal", [], result={"commitment": shown.commitment}, at=at(1)),
        journal.new(GUESSING, [], at=at(1), result={
            "pending": True, "commitment": shown.commitment, "guess": 3, "trait": None,
            "score": 2}),
        journal.new("clock reveal", [], at=at(2), result={
            "commitment": shown.commitment, "target": 5, "nonce": "0" * 64}),
        journal.new("clock reveal", [], at=at(4), result={
            "commitment": shown.commitment, "target": 5, "nonce": shown.nonce})]
    path = folder / "journal.jsonl"
    with open(path, "ab") as file:
        file.write(b"".join(journal.encode(event) for event in made[:3]))
    checked = cwx("check", cwd=folder)
    assert checked.status == 1 and "its number and nonce do not match" in checked.stdout

    def guessed(*args: str) -> tuple[bool, bool]:
        told = cwx("recap", "--json", *args, cwd=folder).json["events"]
        return next((e["pending"], e["late"]) for e in told if e["command"] == GUESSING)

    assert guessed("--all") == (True, False)  # waiting, as the log says: never late
    assert "pending on" in cwx("log", "--no-pager", cwd=folder).stdout
    with open(path, "ab") as file:
        file.write(journal.encode(made[3]))
    assert guessed("--all") == (False, True)
    # As of the recap's last moment, the true reveal came later: the guess waited.
    assert guessed("--until", at(3)[:10]) == guessed("--session", "1") == (True, False)
    assert "late: reached the GM after the reveal" in cwx("log", "--no-pager", cwd=folder).stdout



def test_recap_log_and_check_ask_the_model_which_guess_a_reseal_made_void(
        tmp_path: Path) -> None:
    # Kris and Mara guess on the GM's sealed number where it is not (a player's clone);
    # Mara's is undone. The GM seals anew with --void: Kris's guess is void, Mara's only
    # undone, alike in the recap's Markdown and JSON, the log and check; a recap --until
    # before the reseal tells Kris's guess waiting, as it was then.
    import re

    from cwx.campaign import seal
    from cwx.systems.clockworx import GUESSING
    from tests.helpers import saga

    folder = saga(tmp_path / "saga", "kris.toml")
    assert cwx("char", "new", folder / "mara.toml", "--system", "clockworx", "--name", "Mara",
               "--trait", "Pilot=3", "--trait", "Sneak=2", "--trait", "Knife=3").status == 0
    assert cwx("clock", "pick", "--seal", "--target", 3, cwd=folder).status == 0
    number = folder / seal.FILE  # outside git, the GM's number is kept in the folder
    kept = number.rename(tmp_path / "kept.json")  # a clone without it: guesses wait
    for char, guess in (("kris", 3), ("mara", 5)):
        ran = cwx("clock", "resolve", "--sealed", "-g", guess, "-c", char, cwd=folder)
        assert ran.status == 0, ran.stderr
    assert cwx("undo", "--char", "mara", cwd=folder).status == 0
    kept.rename(number)
    assert "--void" in cwx("clock", "pick", "--seal", "--force", "-T", 9, cwd=folder).stderr
    assert cwx("clock", "pick", "--seal", "--force", "--void", "-T", 9, cwd=folder).status == 0
    path = folder / "journal.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    kris, mara = (e["id"] for e in lines if e["command"] == GUESSING)
    reseal = lines[-1]["id"]
    assert lines[-1]["result"]["void"] == [kris]

    log = cwx("log", "--no-pager", cwd=folder).stdout
    logged = {row.split()[3]: row for row in log.splitlines()[1:]}
    assert f"void: the GM sealed a new number (seal {reseal[:8]})" in logged[kris[:8]]
    assert "void" not in logged[mara[:8]] and "undone by" in logged[mara[:8]]
    checked = cwx("check", cwd=folder).stdout
    assert re.findall(r"^Void: (\w+) guesses", checked, re.M) == ["Kris"]
    assert f"seal {reseal[:8]}" in checked and "waits for the reveal" not in checked

    def told(*args: str) -> dict[str, dict[str, Any]]:
        return {e["id"]: e for e in cwx("recap", "--json", *args, cwd=folder).json["events"]}

    recapped = told("--all")
    void = {id_ for id_, e in recapped.items() if e["told"].endswith(
        ": void, the GM sealed a new number before revealing it")}
    assert void == {kris} == {id_ for id_ in (kris, mara) if "void:" in logged[id_[:8]]}
    assert not recapped[kris]["pending"] and not recapped[kris]["undone"]
    assert recapped[mara]["undone"] and not recapped[mara]["pending"]
    text = cwx("recap", "--all", "--no-pager", cwd=folder).stdout
    assert text.count("void, the GM sealed a new number") == 1
    assert "~~guesses untrained, 5 vs sealed~~ (undone)" in text
    # The reseal a day later: as of the day before, Kris's guess waited.
    lines[-1]["at"] = "2099-01-01T00:00:00.000Z"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    before = told("--until", lines[0]["at"][:10])[kris]
    assert before["pending"] and before["told"].startswith("guesses untrained, 3 vs sealed: "
                                                           "pending on ")
    assert told("--all")[kris]["told"] == recapped[kris]["told"]


def test_undo_of_a_game_end_in_vain_reads_the_journal_once(tmp_path: Path,
                                                           monkeypatch: Any) -> None:
    # Whether an end settles a draw it cannot is asked of the one model: the lines that
    # may hold an end or an undo parsed once, the draws it names by their ids, and no
    # whole read of the journal.
    import json

    from cwx.campaign import accounts
    from tests.helpers import saga
    from tests.test_ends import BLACK

    folder = saga(tmp_path / "saga")
    bob = {"CWX_PLAYER": "Bob"}
    assert cwx(*BLACK, cwd=folder, env=bob).status == 0
    assert cwx("game", "end", "-c", "sue", cwd=folder, env=bob).status == 0
    path = folder / "journal.jsonl"
    lines = path.read_text().splitlines()
    forged = {**json.loads(lines[-1]), "id": "00000000feedface"}
    forged["result"]["game"] = ["00000000deadbeef"]  # a draw no line made
    path.write_text("\n".join([*lines, json.dumps(forged)]) + "\n")
    fair = json.loads(lines[-1])["id"]
    parsed = []
    real = journal.holding
    monkeypatch.setattr(journal, "holding", lambda path, only, *a: parsed.append(only) or
                        real(path, only, *a))

    def whole(*_: object) -> None:
        raise AssertionError("the whole journal read")

    monkeypatch.setattr(journal, "read", whole)
    monkeypatch.setattr(journal, "events_in", whole)
    # Bob's, not Ann's: only an end that settles in vain is anyone's to take back.
    undoing = accounts.named_undoable(str(path), forged["id"], None, "Ann")
    assert undoing.target.id == undoing.change.id == forged["id"]
    assert parsed.count(journal.UNDOING) == 1
    with pytest.raises(RuleForbids) as refused:
        accounts.named_undoable(str(path), fair, None, "Ann")
    assert "is Bob's, not Ann's" in refused.value.message
