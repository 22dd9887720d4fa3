"""What settles a guess on a sealed number (issue 30, item 4): only the first reveal of the
number it was made on, once. A line listing guesses it settles with no number shown, a
guess listed twice, a second reveal of a number shown already: each is named by `cwx
check` and `cwx clock verify`, and `cwx undo ID` (the advice, followed) settles it. Lines
forged in a folder, as the hooks' reconcile would take them from a pull."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cwx, followed, journal
from tests.test_sealed import _settled_in_one_folder


@pytest.fixture(scope="module")
def revealed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The GM sealed 3; Kris (Repair 3) guessed 3 from another clone; the reveal settled it
    (a critical success: 6 xp)."""
    folder = _settled_in_one_folder(tmp_path_factory.mktemp("revealed") / "camp", 3)
    assert "xp = 6" in (folder / "kris.toml").read_text()
    assert cwx("check", folder).status == 0
    return folder


def _copy(revealed: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "camp"
    shutil.copytree(revealed, folder)
    return folder


def _append(folder: Path, *lines: dict[str, Any]) -> int:
    """The lines appended to the journal (as a pull brings them); the last one's number."""
    with open(folder / "journal.jsonl", "a") as file:
        for line in lines:
            file.write(json.dumps(line, separators=(",", ":")) + "\n")
    return len(journal(folder))


def _later(at: str, ms: int) -> str:
    return f"{at[:-4]}{int(at[-4:-1]) + ms:03d}Z" if int(at[-4:-1]) + ms < 1000 else at


def _said(folder: Path) -> list[str]:
    ran = cwx("check", folder)
    return [line.partition(": ")[2] for line in ran.stdout.splitlines()
            if "settles guess" in line or "the rules give" in line]


def _followed(folder: Path, said: list[str]) -> None:
    """Each `cwx undo ID` check advises, run by a player whose line it is not; then check
    passes."""
    done: list[str] = []  # an event named by its id and by a start of it is undone once
    for named in sorted({line.rpartition("`cwx undo ")[2].partition("`")[0] for line in said},
                        key=len, reverse=True):
        if not any(other.startswith(named) for other in done):
            ran = cwx("undo", named, "--player", "Vic", cwd=folder)
            assert ran.status == 0, (named, ran.stderr)
            done.append(named)
    after = cwx("check", folder)
    assert after.status == 0, after.stdout


def test_a_resolve_listing_guesses_no_line_made_is_named(revealed: Path,
                                                         tmp_path: Path) -> None:
    """GX: a plain resolve (Kris misses) whose result lists an invented guess three times,
    each a critical hit (+2 to Kris): no seal, no guess line."""
    folder = _copy(revealed, tmp_path)
    last = journal(folder)[-1]
    entry = {"id": "feedfacefeedface", "who": "Kris", "file": "kris.toml", "guess": 3,
             "trait": "Repair", "score": 1, "distance": 0, "success": True, "critical": True,
             "xp": 2, "xp_total": 2}
    _append(folder, {
        "v": 2, "id": "f00d00000000000a", "at": _later(last["at"], 1), "command": "clock resolve",
        "who": "Kris", "file": "kris.toml", "bag": None, "player": "Mallory",
        "result": {"target": 3, "guess": 9, "distance": 6, "trait": "Repair", "score": 3,
                   "success": False, "critical": False, "xp": 0, "xp_total": 0,
                   "guesses": [entry] * 3},
        "changes": [{"file": "kris.toml", "key": "xp", "from": 6, "to": 12}]})
    followed(folder)
    said = _said(folder)
    assert any("clock resolve f00d0000 settles guess feedface, but no guess line in the "
               "journal made it: its experience is none the rules give" in text
               for text in said), said
    assert said.count("clock resolve f00d0000 settles guess feedface, but it lists that guess "
                      "again, and the rules settle a guess once: its experience is none the "
                      "rules give (a reveal line written or copied by hand); `cwx undo "
                      "f00d00000000000a` takes it back") == 2, said
    assert any("changes kris.toml xp 6 → 12; the rules give 6 → 8" in text for text in said)
    _followed(folder, said)
    assert "xp = 6" in (folder / "kris.toml").read_text()


def test_a_resolve_settling_a_real_guess_without_its_number_is_named(
        revealed: Path, tmp_path: Path) -> None:
    """The same with the guess's own line copied: a guess is settled by the reveal of its
    number alone."""
    folder = _copy(revealed, tmp_path)
    reveal = journal(folder)[-1]
    _append(folder, {
        "v": 2, "id": "f00d00000000000b", "at": _later(reveal["at"], 1),
        "command": "clock resolve", "who": None, "file": None, "bag": None,
        "player": "Mallory", "result": {"target": 3, "guess": 9, "distance": 6,
                                        "trait": None, "score": None, "success": False,
                                        "critical": False, "xp": 0,
                                        "guesses": reveal["result"]["guesses"]},
        "changes": [{"file": "kris.toml", "key": "xp", "from": 6, "to": 12}]})
    followed(folder)
    said = _said(folder)
    guess = reveal["result"]["guesses"][0]["id"]
    assert any(f"clock resolve f00d0000 settles guess {guess[:8]}, but it shows no sealed "
               "number" in text for text in said), said
    _followed(folder, said)


def test_a_guess_listed_twice_in_one_reveal_counts_once(revealed: Path,
                                                       tmp_path: Path) -> None:
    """GI3: the GM's reveal lists its one guess five times, and gives Kris 5 x 6 xp."""
    folder = _copy(revealed, tmp_path)
    path = folder / "journal.jsonl"
    lines = path.read_text().splitlines()
    reveal = json.loads(lines[-1])
    reveal["result"]["guesses"] *= 5
    reveal["changes"] = [{"file": "kris.toml", "key": "xp", "from": 0, "to": 30}]
    path.write_text("\n".join([*lines[:-1], json.dumps(reveal)]) + "\n")
    followed(folder)
    said = _said(folder)
    guess = reveal["result"]["guesses"][0]["id"]
    assert said.count(f"reveal {reveal['id'][:8]} settles guess {guess[:8]}, but it lists "
                      "that guess again, and the rules settle a guess once: its experience "
                      "is none the rules give (a reveal line written or copied by hand); "
                      f"`cwx undo {reveal['id']}` takes it back") == 4, said
    assert any("changes kris.toml xp 0 → 30; the rules give 0 → 6" in text for text in said)
    verified = cwx("clock", "verify", cwd=folder)
    assert verified.status == 1 and "all verified" not in verified.stdout
    assert f"NOT VERIFIED  reveal {reveal['id'][:8]} settles guess {guess[:8]}, but it " \
           "lists that guess again" in verified.stdout, verified.stdout
    _followed(folder, said)


def _late(folder: Path, player: str) -> dict[str, Any]:
    """R5: once the number is out, a guess of 3 for Kris stamped before the reveal, and a
    copy of the reveal (a new id, the same number and nonce) that settles it (+6)."""
    lines = journal(folder)
    reveal = next(line for line in lines if line["command"] == "clock reveal")
    guess = copy.deepcopy(next(line for line in lines
                               if line["command"] == "clock resolve --sealed"))
    guess.update(id="abcd000000000001", at=_later(reveal["at"], -1), player=player)
    guess["result"]["guess"] = 3
    again = copy.deepcopy(reveal)
    again.update(id="beef000000000002", at=_later(reveal["at"], 1), player=player)
    entry = {**again["result"]["guesses"][0], "id": guess["id"], "xp_total": 12}
    again["result"]["guesses"] = [entry]
    again["changes"] = [{"file": "kris.toml", "key": "xp", "from": 6, "to": 12}]
    _append(folder, guess, again)
    return reveal


@pytest.mark.parametrize("player", ["GM", "Mallory"])
def test_a_second_reveal_of_a_number_settles_nothing_and_a_late_guess_stays_late(
        revealed: Path, tmp_path: Path, player: str) -> None:
    folder = _copy(revealed, tmp_path)
    reveal = _late(folder, player)
    followed(folder)
    said = _said(folder)
    assert said == [f"reveal beef0000 settles guess abcd0000, but reveal {reveal['id'][:8]} "
                    "showed that number already: a number is revealed once, and a second "
                    "reveal settles nothing (but the guesses a reveal taken back had "
                    "settled): its experience is none the rules give (a reveal "
                    "line written or copied by hand); `cwx undo beef000000000002` takes it "
                    "back"], said
    assert "1 reveal checked" not in cwx("clock", "verify", cwd=folder).stdout
    logged = [text for text in cwx("log", cwd=folder, env={"COLUMNS": "400"}).stdout
              .splitlines() if "abcd0000  " in text]
    assert len(logged) == 1 and "late: reached the GM after the reveal" in logged[0], logged
    revealing = [text for text in cwx("log", cwd=folder, env={"COLUMNS": "400"}).stdout
                 .splitlines() if "clock reveal" in text]
    assert "revealed 3, settled 1 guess " in revealing[0], revealing
    assert f"revealed 3; settles nothing of guess abcd0000: reveal {reveal['id'][:8]} showed " \
        "that number already: a number is revealed once" in revealing[1], revealing
    told = [text for text in cwx("recap", cwd=folder).stdout.splitlines() if "guesses" in text]
    assert len(told) == 2 and "late, counts for nothing" in told[1], told
    _followed(folder, said)
    assert "xp = 6" in (folder / "kris.toml").read_text()
    checked = cwx("check", folder).stdout
    assert "Pending: kris guesses 3 (Repair 3)" in checked and \
        "reached the GM after the reveal" in checked, checked


@pytest.mark.parametrize("forged", ["reveal", "seal"])
def test_an_undo_of_a_reveal_or_seal_the_rules_give_is_named(
        revealed: Path, tmp_path: Path, forged: str) -> None:
    """R1g: a player appends an undo of the GM's reveal (which `cwx undo` refuses him),
    taking back Kris's 6 xp; or of the GM's seal. Check names it, no reconcile after a
    merge brings a file to it, and its advice, followed, makes the reveal stand again."""
    from cwx.base.errors import RuleForbids
    from cwx.campaign import accounts
    from cwx.campaign.files import Change
    from cwx.campaign.folder import Campaign

    folder = _copy(revealed, tmp_path)
    lines = journal(folder)
    target = next(line for line in lines if line["command"] == (
        "clock reveal" if forged == "reveal" else "clock pick --seal"))
    assert "cannot undo" in cwx("undo", target["id"], "--player", "Mallory", cwd=folder).error
    changes = [{"file": "kris.toml", "key": "xp", "from": 6, "to": 0}] if forged == "reveal" \
        else []
    _append(folder, {"v": 2, "id": "0dd0000000000001", "at": _later(lines[-1]["at"], 1),
                     "command": "undo", "who": None, "file": None, "bag": None,
                     "player": "Mallory", "undoes": target["id"], "changes": changes,
                     "result": {"undid": {"id": target["id"], "command": target["command"]},
                                "change": {"id": target["id"], "command": target["command"]},
                                "redo": False}})
    if forged == "reveal":  # the hooks' reconcile after the pull follows no such line
        with pytest.raises(RuleForbids, match="a line the rules do not give"):
            accounts.reconcile(lambda command, paths, camp: Change(command, paths, camp),
                               Campaign.around(str(folder)), numbers_only=True)
        assert "xp = 6" in (folder / "kris.toml").read_text()
    said = _said(folder)
    assert said == [f"undo 0dd00000 takes back {target['id'][:8]}, a `{target['command']}`, "
                    "which no undo takes back (`cwx undo` refuses it) and the rules give: a "
                    "change the rules do not give (a line no cwx wrote?); `cwx undo 0dd00000` "
                    "takes it back"], said
    assert cwx("clock", "verify", cwd=folder).status == (1 if forged == "reveal" else 0)
    _followed(folder, said)
    assert "xp = 6" in (folder / "kris.toml").read_text()
    assert "late" not in cwx("log", cwd=folder).stdout


def test_a_silent_seal_over_a_waiting_guess_is_named_whatever_the_case_of_its_sealer(
        tmp_path: Path) -> None:
    """GN2: the GM's seals are by "GM" and "gm" (one player, as --player matches names):
    the second, over a waiting guess, cut of `replaces` and `void`, is named."""
    from tests.test_sealed import _guessed_in_one_folder

    folder = _guessed_in_one_folder(tmp_path / "camp", 3)
    assert cwx("clock", "pick", "--seal", "--force", "--void", "-T", 9, cwd=folder).status == 0
    path = folder / "journal.jsonl"
    lines = journal(folder)
    first, anew = (line for line in lines if line["command"] == "clock pick --seal")
    first["player"], anew["player"] = "GM", " gm"
    for key in ("replaces", "void"):
        del anew["result"][key]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    checked = cwx("check", folder)
    assert checked.status == 1
    assert f"clock pick --seal {anew['id'][:8]} seals a new number over commitment " \
           f"{first['result']['commitment'][:12]}" in checked.stdout, checked.stdout
    assert cwx("clock", "verify", cwd=folder).status == 1


# ---------------------------------------------------------------- the GM's word on dice


def test_dice_added_to_the_campaign_are_a_gms_where_campaign_toml_names_gms(
        tmp_path: Path) -> None:
    """A1: with gm = ["GM"], Mallory's `adopt --supply` is refused in one line naming who
    may; one that arrives by git is named by check, and its advice, followed by the GM,
    takes it back. Without a gm list, the adopt says who changed the dice."""
    from tests.helpers import saga

    folder = saga(tmp_path / "camp")
    sue, settings = folder / "sue.toml", folder / "campaign.toml"
    clean = sue.read_text()
    sue.write_text(clean.replace("white = 0", "white = 5"))
    said = cwx("adopt", "--supply", sue, env={"CWX_PLAYER": "Mallory"}).stdout
    assert "Mallory changed the campaign's dice (+5 white): its supply is now" in said, said
    assert cwx("undo", env={"CWX_PLAYER": "Mallory"}, cwd=folder).status == 0
    assert cwx("reconcile", folder).status == 0
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["GM"]\n'))
    before = (folder / "journal.jsonl").read_bytes(), sue.read_bytes()
    sue.write_text(clean.replace("white = 0", "white = 5"))
    refused = cwx("adopt", "--supply", sue, env={"CWX_PLAYER": "Mallory"})
    assert refused.status == 2 and "\n" not in refused.error.strip(), refused.error
    assert "Mallory is no GM of this campaign (gm = ['GM']): only a GM adds dice to the " \
           "campaign or takes them away (adopt --supply)" in refused.error
    assert (folder / "journal.jsonl").read_bytes() == before[0]
    # As it arrives by git: the GM's adopt, its line rewritten in Mallory's name.
    assert cwx("adopt", "--supply", sue, env={"CWX_PLAYER": "gm"}).status == 0
    lines = journal(folder)
    lines[-1]["player"] = "Mallory"
    (folder / "journal.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    checked = cwx("check", folder)
    assert checked.status == 1
    told = [line for line in checked.stdout.splitlines() if "the campaign's dice" in line]
    assert len(told) == 1 and f"adopt {lines[-1]['id'][:8]} changes the campaign's dice, " \
        "by Mallory, no GM of the campaign" in told[0], checked.stdout
    advice = told[0].rpartition("a GM's `")[2].partition("`")[0].split()
    assert advice[:2] == ["cwx", "undo"]
    assert cwx(*advice[1:], cwd=folder, env={"CWX_PLAYER": "GM"}).status == 0  # followed
    assert cwx("check", folder).status == 0
    assert sue.read_bytes() == before[1]


def test_a_reveal_listing_a_guess_whose_line_comes_after_it_settles_nothing_of_it(
        revealed: Path, tmp_path: Path) -> None:
    """A reveal cannot settle a guess not yet made: one that lists a guess whose line only
    comes after the reveal's (no clone wrote the reveal having it) is named, and the guess
    counts nothing from it: it reached the GM after the reveal."""
    folder = _copy(revealed, tmp_path)
    path = folder / "journal.jsonl"
    lines = path.read_text().splitlines()
    at = next(n for n, line in enumerate(lines) if '"clock resolve --sealed"' in line)
    guess = json.loads(lines[at])
    reveal = json.loads(lines[-1])
    path.write_text("\n".join([*lines[:at], *lines[at + 1:], lines[at]]) + "\n")
    said = _said(folder)
    assert said == [f"reveal {reveal['id'][:8]} settles guess {guess['id'][:8]}, but its "
                    f"guess line ({len(lines)}) comes after it in the journal: a reveal "
                    "cannot settle a guess not yet made: its experience is none the rules "
                    "give (a reveal line written or copied by hand); `cwx undo "
                    f"{reveal['id']}` takes it back"], said
    logged = [text for text in cwx("log", cwd=folder, env={"COLUMNS": "400"}).stdout
              .splitlines() if guess["id"][:8] in text]
    assert "late: reached the GM after the reveal" in logged[0], logged
    verified = cwx("clock", "verify", cwd=folder)
    assert verified.status == 1 and "comes after it in the journal" in verified.stdout
    _followed(folder, said)
    assert "xp = 0" in (folder / "kris.toml").read_text()
