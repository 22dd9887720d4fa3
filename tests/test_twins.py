"""F-D, with real git: an old line replaced without changing its bytes, by a copy of it
under its id, spelled otherwise (keys in another order, a space, escapes), inserted just
before it and pushed past any hook. The clone that had the line refuses the pull (its
files never follow), check names the commit, sync stops; and the number swapped after a
guess this way is named by the guessing clone's check, sync and `clock verify`."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from cwx.campaign import guesses
from tests.helpers import cwx
from tests.test_git import Table, value
from tests.test_grows import MALLORY, copied, prepared  # noqa: F401 (fixtures)
from tests.test_spelling import SPELLINGS


@pytest.fixture
def table(prepared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:  # noqa: F811
    return copied(prepared, tmp_path, monkeypatch)


def pushed_by_mallory(table: Table, message: str) -> str:
    """Mallory's work tree committed past every hook and pushed: the commit's id."""
    mallory = table.folder / "mallory"
    env = {**table.env, **MALLORY}
    for args in (("add", "-A"), ("commit", "--quiet", "--no-verify", "-m", message),
                 ("push", "--quiet")):
        done = subprocess.run(["git", *args], cwd=mallory, env=env, capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr
    return table.git(mallory, "rev-parse", "HEAD").stdout.strip()


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_a_twin_spelled_otherwise_before_a_synced_turn_is_refused(
        table: Table, spelling: str) -> None:
    camp, mallory = table.folder / "camp", table.folder / "mallory"
    assert value(camp, "kris.toml", "xp") == 2 and cwx("check", cwd=camp).status == 0
    table.git(mallory, "pull", "--quiet")
    path = mallory / "journal.jsonl"
    lines = path.read_text().splitlines()
    turn = json.loads(lines[-1])
    failed = {**turn, "result": {**turn["result"], "target": 10, "distance": 5,
                                 "success": False, "xp": 0, "xp_total": 0}, "changes": []}
    lines.insert(len(lines) - 1, SPELLINGS[spelling](failed))
    path.write_text("\n".join(lines) + "\n")
    bad = pushed_by_mallory(table, "tidy")
    synced = cwx("sync", cwd=camp, env={"CWX_PLAYER": "Camp"})
    assert synced.status == 2
    assert f"commit {bad[:12]} by Mallory <m@table> added a line repeating the id" in synced.error
    assert value(camp, "kris.toml", "xp") == 2  # the files never follow it
    checked = cwx("check", cwd=camp)
    assert checked.status == 1 and f"commit {bad[:12]} by Mallory" in checked.stdout
    assert cwx("sync", cwd=camp, env={"CWX_PLAYER": "Camp"}).status == 2  # again: stopped


def test_a_number_swapped_after_the_guess_stops_the_guessers_sync_and_verify(
        table: Table) -> None:
    """The issue's item 4, done by twins: the GM seals 3, the player guesses 3; the GM
    seals 9, writes a twin of the seal and of the guess naming 9's commitment before each,
    reveals 9 and pushes."""
    camp, mallory = table.folder / "camp", table.folder / "mallory"
    table.git(mallory, "pull", "--quiet")
    assert cwx("clock", "pick", "--seal", "-T", 3, cwd=mallory).status == 0
    pushed_by_mallory(table, "the GM seals a number")
    table.git(camp, "pull", "--quiet")
    assert cwx("clock", "resolve", "--sealed", "--guess", 3, "-t", "repair", "-c", "kris",
               cwd=camp).status == 0
    assert cwx("sync", cwd=camp, env={"CWX_PLAYER": "Camp"}).status == 0
    before = table.git(camp, "rev-parse", "HEAD").stdout.strip()
    table.git(mallory, "pull", "--quiet")
    assert cwx("clock", "pick", "--seal", "--force", "--void", "-T", 9, cwd=mallory).status == 0
    path = mallory / "journal.jsonl"
    lines = path.read_text().splitlines()
    other = json.loads(lines.pop())["result"]["commitment"]
    made = []
    for line in lines:
        event = json.loads(line)
        if event["command"] in ("clock pick --seal", "clock resolve --sealed"):
            made.append(SPELLINGS["keys reordered"](
                {**event, "result": {**event["result"], "commitment": other}}))
        made.append(line)
    path.write_text("\n".join(made) + "\n")
    assert cwx("clock", "reveal", cwd=mallory).status == 0
    pushed_by_mallory(table, "the GM reveals")
    xp = value(camp, "kris.toml", "xp")
    synced = cwx("sync", cwd=camp, env={"CWX_PLAYER": "Camp"})
    assert synced.status == 2 and "by Mallory <m@table>" in synced.error
    assert value(camp, "kris.toml", "xp") == xp
    checked = cwx("check", cwd=camp)
    assert checked.status == 1 and "this clone guessed for kris.toml" in checked.stdout
    verified = cwx("clock", "verify", cwd=camp)
    assert verified.status == 1 and "all verified" not in verified.stdout
    assert "NOT VERIFIED  this clone guessed for kris.toml" in verified.stdout
    # However the swapped journal came (a history this clone never proved), a pull that
    # brings it is refused on the guess alone, with the one step back.
    said = guesses.refusal(str(camp), "pull", before)
    assert said is not None and f"Next: `git reset --keep {before[:12]}`" in said
    assert guesses.refusal(str(camp), "pull", None) is None


def test_every_reader_counts_the_first_line_of_an_id_and_shows_a_twin_counting_for_nothing(
        tmp_path: Path) -> None:
    """One rule for twins (docs/rules.md): the first line of an id in the journal is its
    event. A later line carrying its id with other contents (a resolve worth 1,000 stamped
    far ahead, a failed draw stamped years back) counts for nothing in the ledger, recap,
    xp history, audit and log --json; log's table shows it where it stands, marked."""
    from tests.helpers import SUE, journal

    camp = tmp_path / "camp"
    assert cwx("init", camp).status == 0
    assert cwx("char", "new", camp / "kris.toml", "--system", "clockworx", "-t", "A=3",
               "-t", "Repair=3", "-t", "C=6").status == 0
    assert cwx("char", "new", camp / "sue.toml", "--system", "colorwheel", *SUE).status == 0
    assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c",
               camp / "kris.toml").status == 0
    assert cwx("bag", "draw", "-c", camp / "sue.toml", "-C", "blue", "--drawn", "blue",
               cwd=camp).status == 0
    resolve, draw = journal(camp)[-2:]
    twins = [{**resolve, "at": "2099-01-01T00:00:00.000Z",
              "result": {**resolve["result"], "xp": 1000, "xp_total": 1000},
              "changes": [{"file": "kris.toml", "key": "xp", "from": 0, "to": 1000}]},
             {**draw, "at": "2020-01-01T00:00:00.000Z",
              "result": {**draw["result"], "draws": ["red"], "success": False}}]
    before = len(journal(camp))
    with open(camp / "journal.jsonl", "a") as file:
        file.writelines(json.dumps(twin) + "\n" for twin in twins)
    checked = cwx("check", cwd=camp)
    assert checked.status == 1
    said = [line for line in checked.stdout.splitlines() if "journal.jsonl:" in line]
    assert [line.split(": ", 1)[0].rpartition(":")[2] for line in said] == \
        [str(before + 1), str(before + 2)] and all("with other contents" in line
                                                   for line in said), said  # nothing else
    table = cwx("log", "--no-pager", cwd=camp).stdout.splitlines()
    marked = [line for line in table if "counts for nothing: a twin of line" in line]
    assert len(marked) == 2 and "xp +1000" in marked[1] and "drew red" in marked[0], table
    events = cwx("log", "--json", cwd=camp).json["events"]
    assert [e for e in events if e["id"] in (resolve["id"], draw["id"])] == [resolve, draw]
    history = cwx("xp", "history", "kris.toml", cwd=camp).stdout
    # As a number of its own: an event's random hex id may hold the digits 1000.
    assert not re.search(r"\b1000\b", history) and "+2 xp" in history, history
    recap = cwx("recap", "--all", "--json", cwd=camp).stdout
    assert not re.search(r"\b100[02]\b", recap), recap
    audit = cwx("audit", "--all-draws", "--json", cwd=camp).json
    assert audit["draws"] == 1 and [c["observed"] for c in audit["cells"]][:3] == [0, 0, 1]
