"""The durable layer: redo records are untrusted input, links never lead a write out of the
campaign, a killed or refused change loses nothing, and a hand edit is never overwritten."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cwx.base.errors import WriteFailed
from cwx.campaign.files import Change
from cwx.campaign.folder import Campaign
from cwx.store import durable, redo
from tests.helpers import cwx, cwx_process, journal, killed_at, litter, settle, two_folders

KEEP_WHITE = ["--color", "blue", "--drawn", "white", "--drawn", "blue", "--keep-white"]


def whites(bag: Path, *characters: Path) -> int:
    data = tomllib.loads(bag.read_text())
    held = sum(tomllib.loads(c.read_text())["luck"]["white"] for c in characters)
    return int(data["bag"]["white"] + data["reserve"]["white"] + held)


def plant(folder: Path, record: dict[str, object], name: str = "0" * 12) -> Path:
    """A record as this machine would mark it: refused, where it is, for what it says."""
    path = folder / f"{redo.REDO_PREFIX}{name}.json"
    path.write_text(json.dumps({**record, "mark": redo.mark(record)}))
    return path


def hostile_record(campaign: Path, outside: Path) -> dict[str, object]:
    """The record of the attack: move notes.txt over a file outside the campaign, and
    append to another, as if they were cwx's own change."""
    (campaign / "notes.txt").write_text("export PWNED=1\n")
    return {"redo": redo.RECORD_VERSION, "command": "bag draw",
            "replace": [[str(campaign / "notes.txt"), str(outside / ".bashrc"), None]],
            "journal": [str(outside / "authorized_keys"), "ssh-ed25519 AAAA attacker\n"],
            "journal_size": 0}


# ---------------------------------------------------------------- records are untrusted


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    (folder / ".bashrc").write_text("# my shell\n")
    (folder / "authorized_keys").write_text("ssh-ed25519 AAAA me\n")
    return folder


def snapshot(*folders: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for folder in folders for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_a_planted_record_is_never_run_by_a_reading_command(campaign: Path,
                                                             outside: Path) -> None:
    record = plant(campaign, hostile_record(campaign, outside))
    before = snapshot(campaign, outside)
    ran = cwx("char", "show", campaign / "kris.toml")
    assert ran.status == 0 and "cwx will not run it" in ran.stderr
    assert snapshot(campaign, outside) == before and record.exists()


def test_a_planted_record_stops_a_changing_command_and_is_left_for_a_person(
        campaign: Path, outside: Path) -> None:
    record = plant(campaign, hostile_record(campaign, outside))
    before = snapshot(campaign, outside)
    for _ in range(2):  # and not run on the second command either
        ran = cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
                  "--char", campaign / "kris.toml")
        assert ran.status == 2
        assert ran.error.startswith(f"cwx: error: {record}: a redo record")
        assert "cwx will not run it" in ran.error
        assert snapshot(campaign, outside) == before


def test_check_names_a_planted_record(campaign: Path, outside: Path) -> None:
    record = plant(campaign, hostile_record(campaign, outside))
    ran = cwx("check", campaign)
    assert ran.status == 1 and f"{record}: a redo record" in ran.stdout


@pytest.mark.parametrize("shape", [
    "not json", "[1, 2]", "{}", '{"redo": 1, "replace": [], "journal": null, "journal_size": 0}',
    "[" * 100_000, '{"redo": 3, "command": "x", "replace": "x", "journal": null, '
                   '"journal_size": 0}',
    '{"redo": 2, "command": "x", "replace": [], "journal": null, "journal_size": 0}',
])
def test_a_record_of_any_other_shape_is_refused(campaign: Path, shape: str) -> None:
    path = campaign / f"{redo.REDO_PREFIX}{'1' * 12}.json"
    path.write_text(shape)
    ran = cwx("xp", "spend", "--char", campaign / "mara.toml", "--new", "Climb")
    assert ran.status == 2 and "cwx will not run it" in ran.error
    assert path.exists()


def test_a_record_naming_a_file_that_is_not_a_temporary_file_of_cwx_is_refused(
        campaign: Path) -> None:
    kris = campaign / "kris.toml"
    (campaign / "notes.txt").write_text("not a sheet\n")
    record = {"redo": redo.RECORD_VERSION, "command": "bag draw", "replace": [
        [str(campaign / "notes.txt"), str(kris), None]], "journal": None, "journal_size": 0}
    plant(campaign, record)
    plant(campaign, record, "2" * 12)
    before = kris.read_bytes()
    ran = cwx("clock", "resolve", "--target", 1, "--guess", 1, "--char", kris)
    assert ran.status == 2 and "not a temporary file of cwx's" in ran.error
    assert kris.read_bytes() == before


def test_a_record_that_is_only_in_some_of_its_folders_is_undone_not_finished(
        campaign: Path, tmp_path: Path) -> None:
    # A record cwx could have written, in one folder only: it was never decided.
    other = tmp_path / "party"
    other.mkdir()
    bag, sue = campaign / "bag.toml", other / "sue.toml"
    shutil.move(campaign / "sue.toml", sue)
    temp = campaign / f".bag.toml.{'a' * 8}{redo.TEMP_SUFFIX}"
    temp.write_text("[bag]\nwhite = 99\n")
    plant(campaign, {"redo": redo.RECORD_VERSION, "command": "bag draw",
                     "replace": [[str(temp), str(bag), redo.fingerprint(bag.read_bytes())]],
                     "journal": [str(other / "journal.jsonl"), '{"v": 2}\n'],
                     "journal_size": 0})
    before = bag.read_bytes()
    assert cwx("bag", "new", campaign / "other-bag.toml").status == 0
    assert bag.read_bytes() == before and litter(campaign) == []
    assert not (other / "journal.jsonl").exists()


def test_a_record_that_is_a_link_is_refused(campaign: Path, tmp_path: Path) -> None:
    (tmp_path / "real.json").write_text("{}")
    (campaign / f"{redo.REDO_PREFIX}{'3' * 12}.json").symlink_to(tmp_path / "real.json")
    ran = cwx("xp", "spend", "--char", campaign / "mara.toml", "--new", "Climb")
    assert ran.status == 2 and "cannot read" in ran.error


# ---------------------------------------------------------------- links


def test_a_journal_that_is_a_link_is_never_written_through(campaign: Path,
                                                            outside: Path) -> None:
    (campaign / "journal.jsonl").symlink_to(outside / ".bashrc")
    before = snapshot(outside)
    kris = campaign / "kris.toml"
    kris_before = kris.read_bytes()
    ran = cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
              "--char", kris)
    # Refused as every link out of the campaign is, before the journal is read for its
    # latest stamp (the writer refuses a link inside it too: tests/test_sync_refused.py).
    assert ran.status == 2 and "journal.jsonl: leads to" in ran.error
    assert "outside" in ran.error
    assert snapshot(outside) == before and kris.read_bytes() == kris_before


def test_char_new_force_never_replaces_a_file_outside_through_a_link(tmp_path: Path) -> None:
    system = tmp_path / "etc"
    system.mkdir()
    (system / "passwd").write_text("root:x:0:0::/root:/bin/sh\n")
    table = tmp_path / "table"
    table.mkdir()
    (table / "passwd.toml").symlink_to(system / "passwd")
    ran = cwx("char", "new", table / "passwd.toml", "--force", "--system", "clockworx",
              "--trait", "A=1", "--trait", "B=1", "--trait", "C=1")
    assert ran.status == 2 and "outside" in ran.error
    assert (system / "passwd").read_text() == "root:x:0:0::/root:/bin/sh\n"
    assert (table / "passwd.toml").is_symlink()


def test_a_link_of_the_players_own_inside_the_campaign_is_written_through(
        campaign: Path) -> None:
    (campaign / "campaign.toml").write_text("")
    chars = campaign / "characters"
    chars.mkdir()
    shutil.move(campaign / "kris.toml", chars / "kris.toml")
    party = campaign / "party"
    party.mkdir()
    (party / "kris.toml").symlink_to(chars / "kris.toml")
    assert cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
               "--char", party / "kris.toml").status == 0
    assert (party / "kris.toml").is_symlink()
    assert tomllib.loads((chars / "kris.toml").read_text())["xp"] == 2


def test_a_link_out_of_the_campaign_is_not_written_through(campaign: Path,
                                                           tmp_path: Path) -> None:
    (campaign / "campaign.toml").write_text("")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.move(campaign / "kris.toml", elsewhere / "kris.toml")
    (campaign / "kris.toml").symlink_to(elsewhere / "kris.toml")
    before = (elsewhere / "kris.toml").read_bytes()
    ran = cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
              "--char", campaign / "kris.toml")
    assert ran.status == 2 and "outside" in ran.error
    assert (elsewhere / "kris.toml").read_bytes() == before
    shown = cwx("char", "show", campaign / "kris.toml")  # nor read through (#27)
    assert shown.status == 2 and "leads to" in shown.error and not shown.stdout


# ---------------------------------------------------------------- killed changes


def test_a_kill_between_the_records_of_two_folders_loses_no_die_nor_journal_line(
        campaign: Path, tmp_path: Path) -> None:
    bag, sue, kris, z = two_folders(campaign)
    total = whites(bag, sue)
    killed_at("record#1", tmp_path / "flag", "bag", "draw", "--char", sue, "--bag", bag,
              *KEEP_WHITE)
    # A command in z/ only, then one in a/: neither may finish half a change.
    assert cwx_process("clock", "resolve", "--target", 2, "--guess", 2, "--trait", "Repair",
                       "--char", kris).status == 0
    assert cwx_process("bag", "new", bag.parent / "spare.toml").status == 0
    assert whites(bag, sue) == total
    assert tomllib.loads(sue.read_text())["luck"]["white"] == 0
    assert [e["command"] for e in journal(z)] == ["clock resolve"]
    assert litter(bag.parent) == [] and litter(z) == []


def test_a_kill_between_the_replaces_is_finished_by_the_next_changing_command_in_any_folder(
        campaign: Path, tmp_path: Path) -> None:
    bag, sue, kris, z = two_folders(campaign)
    total = whites(bag, sue)
    killed_at("replace#1", tmp_path / "flag", "bag", "draw", "--char", sue, "--bag", bag,
              *KEEP_WHITE)
    # Sue's file was replaced first; the bag has not yet given up its white.
    assert tomllib.loads(sue.read_text())["luck"]["white"] == 1
    assert whites(bag, sue) == total + 1
    assert cwx_process("clock", "resolve", "--target", 2, "--guess", 2, "--trait", "Repair",
                       "--char", kris).status == 0
    assert whites(bag, sue) == total
    assert tomllib.loads(sue.read_text())["luck"]["white"] == 1
    assert [e["command"] for e in journal(z)] == ["bag draw", "clock resolve"]


def test_a_reading_command_never_finishes_an_interrupted_change(campaign: Path,
                                                                  tmp_path: Path) -> None:
    bag, sue = campaign / "bag.toml", campaign / "sue.toml"
    killed_at("replace#1", tmp_path / "flag", "bag", "draw", "--char", sue, "--bag", bag,
              *KEEP_WHITE)
    before = snapshot(campaign)
    for args in (["bag", "show", bag], ["char", "show", sue], ["log"], ["check", campaign]):
        ran = cwx_process(*args, cwd=campaign)
        assert "waits to be finished" in ran.stderr + ran.stdout, args
        assert snapshot(campaign) == before, args
    settle(campaign)
    assert tomllib.loads(sue.read_text())["luck"]["white"] == 1


def test_a_hand_edit_after_a_kill_is_kept_and_the_change_made_on_top_of_it(
        campaign: Path, tmp_path: Path) -> None:
    bag, sue = campaign / "bag.toml", campaign / "sue.toml"
    killed_at("replace#1", tmp_path / "flag", "bag", "draw", "--char", sue, "--bag", bag,
              *KEEP_WHITE)
    # Sue's file was replaced first; the bag's waits. The GM edits the bag meanwhile.
    bag.write_text(bag.read_text() + "# a note written while the change waited\n")
    assert cwx("clock", "resolve", "--target", 2, "--guess", 2, "--trait", "Repair",
               "--char", campaign / "kris.toml").status == 0
    text = bag.read_text()
    assert text.endswith("# a note written while the change waited\n")
    assert tomllib.loads(text)["reserve"]["white"] == 9
    assert whites(bag, sue) == 11 and litter(campaign) == []
    assert [e["command"] for e in journal(campaign)] == ["bag draw", "clock resolve"]


def test_a_hand_edit_of_the_same_value_after_a_kill_is_never_overwritten(
        campaign: Path, tmp_path: Path) -> None:
    bag, sue = campaign / "bag.toml", campaign / "sue.toml"
    killed_at("replace#1", tmp_path / "flag", "bag", "draw", "--char", sue, "--bag", bag,
              *KEEP_WHITE)
    edited = bag.read_text().replace("white = 10", "white = 12")  # the reserve, by hand
    bag.write_text(edited)
    ran = cwx("clock", "resolve", "--target", 2, "--guess", 2, "--trait", "Repair",
              "--char", campaign / "kris.toml")
    assert ran.status == 2 and f"{bag}: was edited after an interrupted `cwx bag draw`" in ran.error
    assert "Put that value back as it was and run cwx again" in ran.error
    assert bag.read_text() == edited
    # The table puts it back: the change is finished, nothing lost.
    bag.write_text(edited.replace("white = 12", "white = 10"))
    assert cwx("clock", "resolve", "--target", 2, "--guess", 2, "--trait", "Repair",
               "--char", campaign / "kris.toml").status == 0
    assert whites(bag, sue) == 11 and litter(campaign) == []


def test_a_file_made_read_only_after_a_kill_is_not_replaced(campaign: Path,
                                                            tmp_path: Path) -> None:
    bag, sue = campaign / "bag.toml", campaign / "sue.toml"
    killed_at("replace#1", tmp_path / "flag", "bag", "draw", "--char", sue, "--bag", bag,
              *KEEP_WHITE)
    bag.chmod(0o444)
    ran = cwx("clock", "resolve", "--target", 3, "--guess", 3, "--char", campaign / "kris.toml")
    assert ran.status == 2 and "made read-only" in ran.error
    assert stat.S_IMODE(bag.stat().st_mode) == 0o444


def test_a_half_made_change_whose_other_folder_moved_is_not_rolled_back(
        campaign: Path, tmp_path: Path) -> None:
    bag, sue, _, z = two_folders(campaign)
    killed_at("replace#1", tmp_path / "flag", "bag", "draw", "--char", sue, "--bag", bag,
              *KEEP_WHITE)
    z.rename(campaign / "party")  # Sue's file was changed; the bag's change waits in a/
    before = bag.read_bytes()
    ran = cwx("bag", "new", bag.parent / "spare.toml")
    assert ran.status == 2 and "half made" in ran.error and "moved or renamed" in ran.error
    assert bag.read_bytes() == before
    (campaign / "party").rename(z)
    assert cwx("bag", "new", bag.parent / "spare.toml").status == 0
    assert whites(bag, z / "sue.toml") == 11


def test_check_finds_an_interrupted_change_wherever_it_is_asked_from(
        campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bag, sue = campaign / "bag.toml", campaign / "sue.toml"
    killed_at("replace#1", tmp_path / "flag", "bag", "draw", "--char", sue, "--bag", bag,
              *KEEP_WHITE)
    monkeypatch.chdir(campaign)
    for where in (".", str(campaign)):
        out = cwx("check", where).stdout
        assert "waits to be finished" in out and "cwx will not run it" not in out, where


def test_init_force_after_a_killed_init_succeeds_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "table"
    killed_at("replace#2", tmp_path / "flag", "init", folder)
    ran = cwx("init", folder, "--force")
    assert ran.status == 0, ran.stderr
    assert (folder / "bag.toml").exists() and (folder / "Makefile").exists()


# ---------------------------------------------------------------- the journal's tail


def test_a_torn_journal_tail_never_swallows_the_next_event(campaign: Path) -> None:
    kris = campaign / "kris.toml"
    (campaign / "journal.jsonl").write_bytes(b'{"v":2,"id":"ab","at":"2026-')  # an editor's cut
    assert cwx("clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
               "--char", kris).status == 0
    lines = (campaign / "journal.jsonl").read_bytes().split(b"\n")
    assert lines[0] == b'{"v":2,"id":"ab","at":"2026-' and json.loads(lines[1])["who"] == "Kris"
    ran = cwx("log", "--json", "--char", kris)
    assert [e["result"]["xp"] for e in ran.json["events"]] == [2]
    assert "1 line(s) are not journal events" in ran.stderr
    assert "journal.jsonl:1: is not one JSON object" in cwx("check", campaign).stdout


def test_a_full_disk_during_a_journal_only_change_leaves_the_journal_as_it_was(
        campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kris = campaign / "kris.toml"
    path = campaign / "journal.jsonl"
    path.write_bytes(b'{"v":1}\n')
    before = snapshot(campaign)
    writing = os.write

    def half_then_full(fd: int, data: bytes) -> int:
        if os.fstat(fd).st_ino == path.stat().st_ino:
            writing(fd, bytes(data)[:10])
            raise OSError(errno.ENOSPC, "No space left on device")
        return writing(fd, data)

    monkeypatch.setattr(durable.os, "write", half_then_full)
    ran = cwx("clock", "resolve", "--target", 4, "--guess", 10, "--char", kris)  # a failure
    assert ran.status == 2 and ran.error.endswith("the files are unchanged")
    assert snapshot(campaign) == before


# ---------------------------------------------------------------- folders and their owners


def test_a_folder_reached_through_a_link_is_locked_once(campaign: Path, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(campaign)
    commands = [
        ["clock", "resolve", "--target", 4, "--guess", 3, "--trait", "Repair",
         "--char", link / "kris.toml"],
        ["bag", "draw", "--char", link / "sue.toml", "--bag", campaign / "bag.toml",
         "--color", "red", "--drawn", "red"],
        ["clock", "pick", "--seal", "--campaign", link],
        ["bag", "new", link / "x.toml"],
        ["init", link / "sub"],
    ]
    for args in commands:
        ran = cwx_process(*args, timeout=30)
        assert ran.status == 0, (args, ran.stderr)


def test_a_sticky_folder_refuses_before_deciding_what_only_the_owner_may_replace(
        campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    campaign.chmod(campaign.stat().st_mode | stat.S_ISVTX)
    monkeypatch.setattr(durable.os, "geteuid", lambda: 4242)  # not the files' owner
    before = snapshot(campaign)
    ran = cwx("bag", "draw", "--char", campaign / "sue.toml", "--bag", campaign / "bag.toml",
              *KEEP_WHITE)
    assert ran.status == 2 and "belongs to another user" in ran.error
    assert "nothing was changed" in ran.error
    assert snapshot(campaign) == before and litter(campaign) == []


def test_a_replace_refused_after_the_change_was_decided_is_undone_at_once(
        campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    replacing = os.replace

    def refused(source: str, target: str) -> None:
        if not os.path.basename(target).startswith(redo.REDO_PREFIX):
            raise OSError(errno.EPERM, "Operation not permitted", target)
        replacing(source, target)

    before = snapshot(campaign)
    monkeypatch.setattr(durable.os, "replace", refused)
    with pytest.raises(WriteFailed, match="the files are unchanged"), \
            Change("test", [str(campaign / "kris.toml")],
                   camp=Campaign.around(str(campaign / "kris.toml"))) as change:
        change.character(str(campaign / "kris.toml"))
        change.set(str(campaign / "kris.toml"), ("xp",), 5)
    assert snapshot(campaign) == before and litter(campaign) == []


# ---------------------------------------------------------------- Ctrl-C


def test_ctrl_c_during_start_up_prints_no_traceback(campaign: Path) -> None:
    import signal
    import time

    show = [sys.executable, "-m", "cwx", "char", "show", str(campaign / "kris.toml")]
    # The moments are fractions of a whole run's time now: a loaded machine stretches
    # start-up past any fixed delay, and no signal would land in cwx at all.
    began = time.monotonic()
    subprocess.run(show, capture_output=True, check=True)
    whole = time.monotonic() - began
    caught = 0
    for delay in [whole * n / 16 for n in range(2, 16)]:
        process = subprocess.Popen(show, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        frames = [line for line in err.splitlines() if line.strip().startswith('File "')]
        # Python's own start-up, before any of cwx runs, is out of cwx's reach; from the
        # first line of cwx on, Ctrl-C is one line and exit 130.
        assert not any("/cwx/" in line for line in frames), err
        if process.returncode == 130:
            assert err == "cwx: interrupted; nothing was changed\n"
            caught += 1
        elif not frames:
            # Done before the signal came, or stopped by it on the way out.
            assert process.returncode in (0, -signal.SIGINT), err
    print(f"{caught} of 14 interrupts caught in cwx")
    assert caught >= 3


def test_a_folder_mounted_twice_is_one_folder_even_after_a_kill(campaign: Path,
                                                                 tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting needs root")
    one, two = campaign / "m1", campaign / "m2"
    one.mkdir()
    two.mkdir()
    for name in ("sue.toml", "bag.toml"):
        shutil.move(campaign / name, one / name)
    if subprocess.run(["mount", "--bind", str(one), str(two)], capture_output=True).returncode:
        pytest.skip("this machine does not allow a bind mount")
    try:
        killed_at("replace#1", tmp_path / "flag", "bag", "draw", "--char", one / "sue.toml",
                  "--bag", two / "bag.toml", *KEEP_WHITE)
        ran = cwx_process("bag", "draw", "--char", one / "sue.toml", "--bag", one / "bag.toml",
                          "--color", "red", "--drawn", "red", timeout=30)
        assert ran.status == 0, ran.stderr
        assert whites(one / "bag.toml", one / "sue.toml") == 11
    finally:
        subprocess.run(["umount", str(two)], check=False)


def test_a_journal_that_is_a_device_or_a_fifo_is_an_error_never_a_hang(campaign: Path) -> None:
    path = campaign / "journal.jsonl"
    path.symlink_to("/dev/zero")  # git can carry this link in a cloned campaign
    for args in (["log"], ["check", campaign], ["log", "--json"]):
        ran = cwx_process(*args, cwd=campaign, timeout=20)
        # A link out of the campaign is not even opened (#27).
        assert ran.status == 2 and "leads to /dev/zero" in ran.stdout + ran.stderr
    path.unlink()
    os.mkfifo(path)
    ran = cwx_process("log", cwd=campaign, timeout=20)
    assert ran.status == 2 and "is not a regular file" in ran.stderr


def test_a_write_refused_for_leaving_the_campaign_touches_nothing_outside(
        campaign: Path, tmp_path: Path) -> None:
    (campaign / "campaign.toml").write_text("")
    home = tmp_path / "home"
    home.mkdir()
    stray = home / f".notes.{'d' * 8}{redo.TEMP_SUFFIX}"
    stray.write_text("data")
    (campaign / "party").symlink_to(home)
    ran = cwx("char", "new", campaign / "party" / "hero.toml", "--system", "clockworx",
              "--trait", "A=3", "--trait", "B=3", "--trait", "C=3")
    assert ran.status == 2 and "outside" in ran.error
    assert stray.exists() and sorted(os.listdir(home)) == [stray.name]
