"""The sealed number by post (issue 30, item 4): no reseal over a pending guess unless it
is made void for every clone; the GMs campaign.toml names alone seal and reveal; a reveal
names the seal it opens, and one that settles a guess made on another number is named.
Real git: a bare origin, the GM's clone and a player's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cwx, followed, journal, once
from tests.test_git import Table, value
from tests.test_post import _identity, play, sync, table_of_three

__all__ = ["_identity"]  # the fixture: git's author from no config, HOME in tmp_path


def _sealed_past_the_refusal(clone: Path, player: str, sealer: str = "GM") -> None:
    """A seal in `player`'s name, which the refusal would not let through (an older cwx's,
    or a hand's): sealed as a GM (`sealer`), the line's player rewritten."""
    play(clone, sealer, "clock", "pick", "--seal", "-T", 3)
    ledger = clone / "journal.jsonl"
    *kept, last = ledger.read_text().splitlines()
    sealed = json.loads(last)
    assert sealed["command"] == "clock pick --seal"
    ledger.write_text("\n".join([*kept, json.dumps({**sealed, "player": player})]) + "\n")


def _guess(gm: Path, alice: Path) -> str:
    """The GM seals a number, Alice guesses on it for Kris and pushes; the GM pulls (built
    once, then copied: tests/helpers.py's `once`). The seal's commitment."""

    def made() -> None:
        play(gm, "GM", "clock", "pick", "--seal", "--target", "3")
        sync(gm, "GM")
        sync(alice, "Alice")
        play(alice, "Alice", "clock", "resolve", "--sealed", "-g", 3, "-t", "repair", "-c",
             "kris")
        sync(alice, "Alice")
        sync(gm, "GM")

    once("a guess on a seal", gm.parent, ["origin.git", "gm", "alice", "bob"], made)
    commitment: str = next(event["result"]["commitment"] for event in journal(gm)
                           if event["command"] == "clock pick --seal")
    return commitment


def test_a_reseal_over_a_pending_guess_is_refused_or_voids_it_for_every_clone(
        tmp_path: Path) -> None:
    _, gm, alice, _ = table_of_three(tmp_path)
    commitment = _guess(gm, alice)
    refused = play(gm, "GM", "clock", "pick", "--seal", "--force", "-T", 9, status=2)
    assert f"1 guess (kris) waits on the sealed number {commitment[:12]}: reveal it first " \
           "(cwx clock reveal), or seal anew with --void" in refused
    play(gm, "GM", "clock", "pick", "--seal", "--force", "--void", "-T", 9)
    sync(gm, "GM")
    sync(alice, "Alice")
    for clone in (gm, alice):
        checked = play(clone, "x", "check")
        assert "Void: kris guesses 3" in checked and "waits for the reveal" not in checked
        assert "void: the GM sealed a new number" in play(clone, "x", "log")
        assert "void, the GM sealed a new number before revealing it" in \
            play(clone, "x", "recap")
    assert "1 guess void" in play(alice, "Alice", "sync")
    # The next reveal settles nothing of the void guess, and a new guess goes on.
    play(alice, "Alice", "clock", "resolve", "--sealed", "-g", 9, "-t", "repair", "-c", "kris")
    sync(alice, "Alice")
    sync(gm, "GM")
    revealed = json.loads(play(gm, "GM", "clock", "reveal", "--json"))
    assert [entry["guess"] for entry in revealed["guesses"]] == [9]


def test_only_the_gms_campaign_toml_names_seal_and_reveal(tmp_path: Path) -> None:
    table, gm, alice, _ = table_of_three(tmp_path)
    settings = gm / "campaign.toml"
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["gm"]\n'))
    table.git(gm, "commit", "-qam", "the GM seals")
    sync(gm, "GM")  # matched as --player is: in any case
    sync(alice, "Alice")
    refused = play(alice, "Alice", "clock", "pick", "--seal", status=2)
    assert "Alice is no GM of this campaign (gm = ['gm']): only a GM seals the number" in refused
    assert "no GM" in play(alice, "Alice", "clock", "reveal", status=2)
    # A seal written past the refusal (an older cwx, a hand) is named by check in any clone.
    line = {"v": 2, "id": "5e5e5e5e5e5e5e5e", "at": "2026-01-01T00:00:00.000Z",
            "command": "clock pick --seal", "who": None, "file": None, "bag": None,
            "result": {"commitment": "ab" * 32}, "changes": [], "player": "Alice"}
    with open(alice / "journal.jsonl", "a") as journal:
        journal.write(json.dumps(line) + "\n")
    table.git(alice, "commit", "-qam", "a seal", "--no-verify")
    table.git(alice, "push", "-q", "origin", "main")
    table.git(gm, "pull", "-q", "--no-rebase")
    checked = play(gm, "GM", "check", status=1)
    assert "clock pick --seal 5e5e5e5e is by Alice, no GM of the campaign" in checked


def test_a_reveal_names_its_seal_and_one_of_another_number_is_named(tmp_path: Path) -> None:
    _, gm, alice, _ = table_of_three(tmp_path)
    commitment = _guess(gm, alice)
    revealed = json.loads(play(gm, "GM", "clock", "reveal", "--json"))
    assert revealed["commitment"] == commitment
    lines = [json.loads(line) for line in (gm / "journal.jsonl").read_text().splitlines()]
    seal = next(e for e in lines if e["command"] == "clock pick --seal")
    assert lines[-1]["result"]["seal"] == seal["id"]
    # The GM's clone forges the reveal's line: its guess settled with another number.
    other = play(gm, "GM", "clock", "pick", "--seal", "-T", 3, "--json")
    swapped = json.loads(other.splitlines()[0])["commitment"]
    play(gm, "GM", "clock", "reveal")
    lines = [json.loads(line) for line in (gm / "journal.jsonl").read_text().splitlines()]
    first, last = [e for e in lines if e["command"] == "clock reveal"]
    last["result"]["guesses"] = first["result"]["guesses"]
    (gm / "journal.jsonl").write_text("".join(json.dumps(e) + "\n" for e in lines))
    checked = play(gm, "GM", "check", status=1)
    assert f"made on commitment {commitment[:12]}, with the number of {swapped[:12]}" in checked


def test_a_players_clone_holds_the_gm_to_the_number_it_guessed_on(tmp_path: Path) -> None:
    table, gm, alice, _ = table_of_three(tmp_path)
    commitment = _guess(gm, alice)
    assert "no such guess" not in play(alice, "Alice", "check")
    # The GM seals anew, and rewrites the journal so the guess reads as made on the new one.
    other = json.loads(play(gm, "GM", "clock", "pick", "--seal", "--force", "--void", "-T",
                            9, "--json").splitlines()[0])["commitment"]
    journal = gm / "journal.jsonl"
    lines = [line for line in journal.read_text().splitlines() if other not in line]
    journal.write_text("\n".join(lines).replace(commitment, other) + "\n")
    table.git(gm, "commit", "-qam", "tidy", "--no-verify")
    table.git(gm, "push", "-q", "--force", "origin", "main")
    table.git(alice, "fetch", "-q")
    table.git(alice, "reset", "-q", "--hard", "origin/main")
    checked = play(alice, "Alice", "check", status=1)
    assert f"this clone guessed for kris.toml on commitment {commitment[:12]}, but the " \
           "journal holds no such guess now" in checked


def test_a_reveal_that_settles_a_guess_twice_or_a_guess_never_made_is_named(
        tmp_path: Path) -> None:
    _, gm, alice, _ = table_of_three(tmp_path)
    _guess(gm, alice)
    play(gm, "GM", "clock", "reveal")
    path = gm / "journal.jsonl"
    reveal = json.loads(path.read_text().splitlines()[-1])
    copied = {**reveal, "id": "e" * 16}  # the same reveal again: the guess settled twice
    never = {**reveal, "id": "d" * 16, "result": {**reveal["result"], "guesses": [
        {**reveal["result"]["guesses"][0], "id": "deadbeefdeadbeef"}]}}
    with open(path, "a") as journal:
        for line in (copied, never):
            journal.write(json.dumps(line, separators=(",", ":")) + "\n")
    followed(gm)
    checked = play(gm, "GM", "check", status=1)
    assert f"reveal eeeeeeee settles guess {reveal['result']['guesses'][0]['id'][:8]}, but " \
           f"reveal {reveal['id'][:8]} settled it already" in checked
    assert "reveal dddddddd settles guess deadbeef, but no guess line in the journal made " \
           "it" in checked
    for forged in ("e" * 16, "d" * 16):  # the advice, followed
        play(gm, "GM", "undo", forged)
    assert "settles guess" not in play(gm, "GM", "check")


def _guessed_in_one_folder(folder: Path, guess: int) -> Path:
    """A campaign out of git: the GM seals 3, and Kris (Repair 3) guesses `guess` where the
    sealed number is not (it is moved aside while the player plays)."""
    assert cwx("init", folder).status == 0
    assert cwx("char", "new", folder / "kris.toml", "--system", "clockworx", "-t", "A=3",
               "-t", "Repair=3", "-t", "C=6").status == 0
    assert cwx("clock", "pick", "--seal", "-T", 3, cwd=folder).status == 0
    sealed = folder / ".cwx-sealed.json"
    aside = sealed.rename(folder.parent / "sealed.json")
    assert cwx("clock", "resolve", "--sealed", "-g", guess, "-t", "repair", "-c", "kris",
               cwd=folder).status == 0
    aside.rename(sealed)
    return folder


def _settled_in_one_folder(folder: Path, guess: int) -> Path:
    """The same, and the reveal settles the guess."""
    _guessed_in_one_folder(folder, guess)
    assert cwx("clock", "reveal", cwd=folder).status == 0
    return folder


@pytest.mark.parametrize(("guess", "copy", "said"), [
    (9, {"guess": 3, "distance": 0, "success": True, "critical": True, "xp": 6},
     "its guess line says guess 9, the reveal guess 3"),
    (5, {"score": 6, "xp": 4}, "its guess line says score 3, the reveal score 6")])
def test_a_reveal_is_held_to_the_guess_lines_not_its_own_copy(
        tmp_path: Path, guess: int, copy: dict[str, Any], said: str) -> None:
    """The GM's reveal settles a copy of the guess other than its line (a critical hit
    where the line missed, a score the line never recorded): check names it."""
    folder = _settled_in_one_folder(tmp_path / "camp", guess)
    path = folder / "journal.jsonl"
    lines = path.read_text().splitlines()
    reveal = json.loads(lines[-1])
    entry = reveal["result"]["guesses"][0]
    entry.update(copy, xp_total=copy["xp"])
    reveal["changes"] = [{"file": "kris.toml", "key": "xp", "from": 0, "to": copy["xp"]}]
    path.write_text("\n".join([*lines[:-1], json.dumps(reveal)]) + "\n")
    followed(folder)
    checked = cwx("check", folder)
    assert checked.status == 1
    assert f"journal.jsonl:{len(lines)}: reveal {reveal['id'][:8]} settles guess " \
           f"{entry['id'][:8]}, but {said}: its experience is none the rules give" in \
        checked.stdout, checked.stdout
    assert cwx("undo", reveal["id"], "--player", "Vic", cwd=folder).status == 0  # the advice
    assert "settles guess" not in cwx("check", folder).stdout


def test_a_seal_over_a_waiting_guess_that_says_nothing_of_it_is_named(tmp_path: Path) -> None:
    """The GM seals anew with --void, then cuts `replaces` and `void` out of his line: the
    guess would wait for ever. check and verify name the seal; the guess taken back (the
    advice, followed) settles it."""
    folder = _guessed_in_one_folder(tmp_path / "camp", 3)
    assert cwx("clock", "pick", "--seal", "--force", "--void", "-T", 9, cwd=folder).status == 0
    path = folder / "journal.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    guess, anew = lines[-2:]
    assert cwx("check", folder).status == 0  # the void, as cwx wrote it
    for key in ("replaces", "void"):
        del anew["result"][key]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    checked = cwx("check", folder)
    assert checked.status == 1
    assert f"journal.jsonl:{len(lines)}: clock pick --seal {anew['id'][:8]} seals a new number " \
           f"over commitment {guess['result']['commitment'][:12]}, on which kris's guess " \
           f"{guess['id'][:8]} waits, but says neither that it replaces it nor that the " \
           "guess is void" in checked.stdout, checked.stdout
    verified = cwx("clock", "verify", cwd=folder)
    assert verified.status == 1 and "NOT VERIFIED  clock pick --seal" in verified.stdout
    assert cwx("undo", guess["id"], "--player", guess["player"], cwd=folder).status == 0
    assert cwx("check", folder).status == 0
    assert cwx("clock", "verify", cwd=folder).status == 0


def test_a_late_guess_git_shows_shared_before_the_reveal_is_told_so(tmp_path: Path) -> None:
    """Alice's guess is pushed before the GM's reveal, which leaves it unsettled (the GM
    revealed before pulling, or cut it from the reveal: git cannot tell which): check says
    the reveal's commit held it, by whom. Bob's guess, pushed after the reveal, is late."""
    _, gm, alice, bob = table_of_three(tmp_path)
    play(gm, "GM", "clock", "pick", "--seal", "--target", "3")
    sync(gm, "GM")
    for clone in (alice, bob):
        sync(clone, "GM")
    play(alice, "Alice", "clock", "resolve", "--sealed", "-g", 3, "-t", "repair", "-c", "kris")
    sync(alice, "Alice")
    play(bob, "Bob", "clock", "resolve", "--sealed", "-g", 3, "-t", "fight", "-c", "mara")
    play(gm, "GM", "clock", "reveal")  # not pulled: Alice's guess comes with the sync
    sync(gm, "GM")
    sync(bob, "Bob")  # his guess rebased after the reveal: it reached the GM after it
    checked = play(bob, "Bob", "check")
    kris = next(line for line in checked.splitlines() if line.startswith("Pending: kris"))
    mara = next(line for line in checked.splitlines() if line.startswith("Pending: mara"))
    assert "unsettled by the reveal" in kris and "though the journal it was committed with " \
        "(commit " in kris and "holds the guess before it" in kris, kris
    assert "reached the GM after the reveal" in mara, mara


@pytest.mark.parametrize(("author", "by"), [
    ("Alice", "Alice"),
    ("G\u041c", "G\u041c (its \u041c is U+041C)"),  # a Cyrillic М: a look-alike of the GM
])
def test_a_change_of_the_gms_no_gm_made_counts_for_nothing_and_is_named(
        tmp_path: Path, author: str, by: str) -> None:
    table, gm, alice, _ = table_of_three(tmp_path)
    settings = gm / "campaign.toml"
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["GM"]\n'))
    table.git(gm, "commit", "-qam", "the GM seals")  # the first gm: taken as written
    sync(gm, "GM")
    sync(alice, "Alice")
    # Alice makes herself a GM and seals; her commit is past the hooks.
    mine = alice / "campaign.toml"
    mine.write_text(mine.read_text().replace('gm = ["GM"]', 'gm = ["GM", "Alice"]'))
    _sealed_past_the_refusal(alice, "Alice")
    table.git(alice, "add", "-A")
    table.git(alice, "commit", "-qm", "tidy", "--no-verify", "--author", f"{author} <a@t>")
    changed = table.git(alice, "rev-parse", "HEAD").stdout.strip()
    table.git(alice, "push", "-q", "origin", "main")
    table.git(gm, "pull", "-q", "--no-rebase")
    checked = play(gm, "GM", "check", status=1)
    assert "is by Alice, no GM of the campaign (the GMs in force: gm = ['GM']; " \
           "campaign.toml's gm = ['GM', 'Alice'] holds a change no GM made)" in checked
    # Its advice, followed below: adding Alice, whom campaign.toml names already, changes
    # nothing.
    assert "If the table accepts it, a GM writes gm = ['GM'] back into campaign.toml and " \
           "commits it, then adds Alice in a commit of their own" in checked
    assert f"Note: campaign.toml: commit {changed[:12]} by {by} changed the GMs (gm) in " \
           "campaign.toml from [GM] to [GM, Alice], but no GM in force before it" in checked
    assert json.loads(play(gm, "GM", "check", "--json", status=1))["keys"]
    # The GM's commit that carries it (a comment) counts nothing; the GM writes the GMs
    # in force back, then makes the change in a commit of their own: it counts.
    settings.write_text(settings.read_text() + "# Alice seals too\n")
    table.git(gm, "commit", "-qam", "a note", "--author", "GM <gm@t>", "--no-verify")
    assert "no GM of the campaign" in play(gm, "GM", "check", status=1)
    settings.write_text(settings.read_text().replace('gm = ["GM", "Alice"]', 'gm = ["GM"]'))
    table.git(gm, "commit", "-qam", "back", "--author", "GM <gm@t>", "--no-verify")
    settings.write_text(settings.read_text().replace('gm = ["GM"]', 'gm = ["GM", "Alice"]'))
    table.git(gm, "commit", "-qam", "Alice seals too", "--author", "GM <gm@t>")
    assert "no GM of the campaign" not in play(gm, "GM", "check")


def _denied(path: Path, **said: object) -> dict[str, Any]:
    """The journal's last line, a reveal, rewritten to count every guess it settles for
    nothing (`said`: why, and what else each guess's entry says), changing no sheet: the
    reveal as rewritten."""
    lines = path.read_text().splitlines()
    reveal = json.loads(lines[-1])
    for entry in reveal["result"]["guesses"]:
        entry.update(counted=False, **said)
        entry.pop("xp_total", None)
    reveal["changes"] = []
    path.write_text("\n".join([*lines[:-1], json.dumps(reveal, separators=(",", ":"))]) + "\n")
    return reveal


def _alice_writes_herself_gm(tmp_path: Path) -> tuple[Table, Path, Path, Path]:
    """A table of three whose GM named the GMs (gm = ["GM"]), shared; then Alice writes
    herself in the GM's place and commits it, past the hook: (the table, the GM's and
    Alice's clones, the GM's campaign.toml)."""
    table, gm, alice, _ = table_of_three(tmp_path)
    settings = gm / "campaign.toml"
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["GM"]\n'))
    table.git(gm, "commit", "-qam", "the GM seals")
    sync(gm, "GM")
    sync(alice, "Alice")
    mine = alice / "campaign.toml"
    mine.write_text(mine.read_text().replace('gm = ["GM"]', 'gm = ["Alice"]'))
    table.git(alice, "commit", "-qam", "tidy", "--no-verify", "--author", "Alice <a@t>")
    return table, gm, alice, settings


@pytest.mark.parametrize("pull", ["sync", "rebase"])
def test_a_gms_commit_made_anew_by_a_rebase_on_a_change_no_gm_made_counts_nothing(
        tmp_path: Path, pull: str) -> None:
    """Alice's change of gm to herself counts for nothing; the GM, not yet pulled, commits
    a comment in campaign.toml, and `cwx sync` or `git pull --rebase` makes it anew on
    hers: a GM's commit carrying her list, which it did not change. The GM stays in
    force, her change stays named, and her seal too."""
    table, gm, alice, settings = _alice_writes_herself_gm(tmp_path)
    changed = table.git(alice, "rev-parse", "HEAD").stdout.strip()
    table.git(alice, "push", "-q", "origin", "main")
    settings.write_text("# our table, Tuesdays\n" + settings.read_text())
    table.git(gm, "commit", "-qam", "a note", "--author", "GM <gm@t>")
    if pull == "sync":
        synced = cwx("sync", cwd=gm, env={"CWX_PLAYER": "GM", "GIT_AUTHOR_NAME": "GM"})
        assert synced.status == 0, synced.stderr
    else:
        table.git(gm, "pull", "-q", "--rebase")
    made = table.git(gm, "log", "--format=%an %P", "-1").stdout.split()
    assert made[0] == "GM" and made[1] == changed  # the GM's commit, made anew on hers
    assert 'gm = ["Alice"]' in settings.read_text()
    sync(alice, "Alice")
    _sealed_past_the_refusal(alice, "Alice")
    table.git(alice, "commit", "-qam", "Alice seals", "--no-verify", "--author", "Alice <a@t>")
    table.git(alice, "push", "-q", "origin", "main")
    table.git(gm, "pull", "-q", "--rebase")
    checked = play(gm, "GM", "check", status=1)
    assert "is by Alice, no GM of the campaign (the GMs in force: gm = ['GM']; " \
           "campaign.toml's gm = ['Alice'] holds a change no GM made)" in checked, checked
    assert f"commit {changed[:12]} by Alice changed the GMs (gm) in campaign.toml from [GM] " \
           "to [Alice], but no GM in force before it" in checked, checked
    play(gm, "GM", "clock", "pick", "--seal", "--force", "-T", 5)
    # The GM's edit of the list it carries counts the GM's names alone.
    settings.write_text(settings.read_text().replace('gm = ["Alice"]', 'gm = ["Alice", "Bob"]'))
    table.git(gm, "commit", "-qam", "Bob seals too", "--author", "GM <gm@t>", "--no-verify")
    assert "the GMs in force: gm = ['GM', 'Bob']" in play(gm, "GM", "check", status=1)


def test_the_refusal_holds_a_player_to_the_gms_in_force_not_the_written_list(
        tmp_path: Path) -> None:
    """Alice's change of gm to herself, which no GM made, counts for nothing: her own
    seal is refused, saying which list holds her and why; the GM, whom the written list
    no longer names, seals and reveals after the pull."""
    table, gm, alice, settings = _alice_writes_herself_gm(tmp_path)
    refused = play(alice, "Alice", "clock", "pick", "--seal", "-T", 3, status=2)
    assert "Alice is no GM of this campaign (the GMs in force: gm = ['GM']; campaign.toml's " \
        "gm = ['Alice'] holds a change no GM made): only a GM seals the number. A GM " \
        "writes the GMs in force back into gm and commits, then makes the change in a " \
        "commit of their own" in refused, refused
    table.git(alice, "push", "-q", "origin", "main")
    table.git(gm, "pull", "-q", "--no-rebase")
    assert 'gm = ["Alice"]' in settings.read_text()
    play(gm, "GM", "clock", "pick", "--seal", "-T", 3)
    assert "The sealed number is 3" in play(gm, "GM", "clock", "reveal")


def test_a_seal_and_a_reveal_from_before_the_table_named_gms_are_anyones(
        tmp_path: Path) -> None:
    """Alice seals and reveals before the table names any GM; the GM's commit naming the
    GMs passes the hooks, and check names neither line. A seal of hers after it is named."""
    table, gm, alice, _ = table_of_three(tmp_path)
    play(alice, "Alice", "clock", "pick", "--seal", "-T", 3)
    play(alice, "Alice", "clock", "reveal")
    sync(alice, "Alice")
    sync(gm, "GM")
    settings = gm / "campaign.toml"
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["GM"]\n'))
    table.git(gm, "commit", "-qam", "the GM seals")  # the hooks let it through
    assert "no GM of the campaign" not in play(gm, "GM", "check")
    sync(gm, "GM")
    sync(alice, "Alice")
    _sealed_past_the_refusal(alice, "Alice")
    table.git(alice, "commit", "-qam", "a seal", "--no-verify")
    checked = play(alice, "Alice", "check", status=1)
    assert checked.count("no GM of the campaign") == 1, checked


def test_a_seal_and_reveal_by_a_gm_then_stand_after_the_gm_hands_the_table_over(
        tmp_path: Path) -> None:
    """Each seal and reveal is judged by the GMs in force when its line arrived: the GM
    seals, Alice guesses, the table names the GM, who reveals, then hands the table to
    Bob (the GM's own change of gm: it counts). Nothing of the GM's is named, the guess
    stays settled; a seal of the GM's after the handover is named."""
    table, gm, alice, bob = table_of_three(tmp_path)
    _guess(gm, alice)  # sealed before the table named GMs: anyone's
    settings = gm / "campaign.toml"
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["GM"]\n'))
    table.git(gm, "commit", "-qam", "the GM seals")
    play(gm, "GM", "clock", "reveal")
    settled = value(gm, "kris.toml", "xp")
    assert settled > 0
    sync(gm, "GM")
    settings.write_text(settings.read_text().replace('gm = ["GM"]', 'gm = ["Bob"]'))
    table.env["GIT_AUTHOR_NAME"] = "GM"
    table.git(gm, "commit", "-qam", "Bob is the GM now")
    sync(gm, "GM")
    sync(bob, "Bob")
    checked = play(bob, "Bob", "check")
    assert "no GM of the campaign" not in checked and "Pending" not in checked, checked
    assert value(bob, "kris.toml", "xp") == settled
    _sealed_past_the_refusal(gm, "GM", sealer="Bob")
    table.git(gm, "commit", "-qam", "a seal", "--no-verify")
    checked = play(gm, "GM", "check", status=1)
    assert checked.count("is by GM, no GM of the campaign") == 1, checked


def test_a_pull_that_merges_counts_what_counted_on_its_branch_and_nothing_else(
        tmp_path: Path) -> None:
    """A merge that takes a parent's campaign.toml as it is edits nothing: the GM's pull
    (a merge) of Alice's change of gm, which no GM made, does not count it; Bob's pull of
    the GM's own change of gm counts it, though Bob is no GM."""
    table, gm, alice, bob = table_of_three(tmp_path)
    settings = gm / "campaign.toml"
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["GM"]\n'))
    table.git(gm, "commit", "-qam", "the GM seals")
    sync(gm, "GM")
    for clone in (alice, bob):
        sync(clone, "Alice")
    mine = alice / "campaign.toml"
    mine.write_text(mine.read_text().replace('gm = ["GM"]', 'gm = ["Alice"]'))
    _sealed_past_the_refusal(alice, "Alice")
    table.git(alice, "add", "-A")
    table.git(alice, "commit", "-qm", "tidy", "--no-verify", "--author", "Alice <a@t>")
    table.git(alice, "push", "-q", "origin", "main")
    for clone, player in ((gm, "GM"), (bob, "Bob")):  # a turn of each, then a pull
        play(clone, player, "clock", "resolve", "-T", 4, "-g", 3, "-t", "repair", "-c", "kris")
        table.git(clone, "commit", "-qam", "a turn")
    # The GM's notes in campaign.toml: git merges Alice's gm line beside them.
    settings.write_text(settings.read_text() + "# the GM's notes\n")
    table.git(gm, "commit", "-qam", "notes")
    table.env["GIT_AUTHOR_NAME"] = "GM"
    table.git(gm, "pull", "-q", "--no-rebase", "--no-edit", "--no-verify")
    assert 'gm = ["Alice"]' in settings.read_text() and "notes" in settings.read_text()
    checked = play(gm, "GM", "check", status=1)
    assert "is by Alice, no GM of the campaign (the GMs in force: gm = ['GM']" in checked
    # The GM writes gm anew (his own edit: it counts), and Bob pulls it into his turn.
    settings.write_text(settings.read_text().replace('gm = ["Alice"]', 'gm = ["GM", "Bob"]'))
    table.git(gm, "commit", "-qam", "Bob seals too", "--no-verify")
    table.git(gm, "push", "-q", "origin", "main")
    table.env["GIT_AUTHOR_NAME"] = "Bob"
    table.git(bob, "pull", "-q", "--no-rebase", "--no-edit", "--no-verify")
    assert table.git(bob, "log", "--merges", "--author=Bob", "--format=%h").stdout.strip()
    play(bob, "Bob", "clock", "pick", "--seal", "--force", "-T", 3)
    checked = play(bob, "Bob", "check", status=1)
    assert "is by Alice, no GM" in checked and "is by Bob" not in checked, checked


@pytest.mark.parametrize("hers_first", [False, True], ids=["table-first", "hers-first"])
def test_a_gm_written_on_a_branch_cut_before_the_first_gm_counts_for_nothing_merged(
        tmp_path: Path, hers_first: bool) -> None:
    """On a branch cut before the table had a gm, Alice's own list was the first there;
    merged into a history whose GMs are in force, it is a change no GM made, whichever
    parent of the merge comes first (her branch first: she merged the table's into it)."""
    table, gm, alice, _ = table_of_three(tmp_path)
    before = table.git(alice, "rev-parse", "HEAD").stdout.strip()
    settings = gm / "campaign.toml"
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["GM"]\n'))
    table.git(gm, "commit", "-qam", "the GM seals")
    sync(gm, "GM")
    table.git(alice, "checkout", "-q", "-b", "side", before)
    mine = alice / "campaign.toml"
    mine.write_text(mine.read_text().replace("[campaign]\n", '[campaign]\ngm = ["Alice"]\n'))
    table.git(alice, "commit", "-qam", "tidy", "--no-verify", "--author", "Alice <a@t>")
    if hers_first:
        table.git(alice, "fetch", "-q")
        into, other, side = "side", "origin/main", "--ours"
    else:
        table.git(alice, "checkout", "-q", "main")
        table.git(alice, "pull", "-q", "--no-rebase")
        into, other, side = "main", "side", "--theirs"
    merged = table.git(alice, "merge", "-q", "--no-verify", "--no-edit", other, check=False)
    if merged.returncode != 0:  # the clash on gm: Alice takes her branch's side
        table.git(alice, "checkout", side, "campaign.toml")
        table.git(alice, "commit", "-qam", "merge", "--no-verify")
    assert 'gm = ["Alice"]' in mine.read_text()
    parents = table.git(alice, "rev-parse", "HEAD^1", "HEAD^2").stdout.split()
    hers = table.git(alice, "rev-parse", "side" if into == "main" else "side^1").stdout.strip()
    assert (parents[0] == hers) == hers_first
    _sealed_past_the_refusal(alice, "Alice")
    table.git(alice, "add", "-A")
    table.git(alice, "commit", "-qm", "Alice seals", "--no-verify")
    table.git(alice, "push", "-q", "origin", f"{into}:main")
    table.git(gm, "pull", "-q", "--no-rebase")
    checked = play(gm, "GM", "check", status=1)
    assert "is by Alice, no GM of the campaign (the GMs in force: gm = ['GM']" in checked
    assert "changed the GMs (gm) in campaign.toml from [GM] to [Alice], but no GM in " \
        "force before it" in checked, checked


def test_her_first_gm_and_bag_merged_in_as_the_second_parent_count_for_nothing(
        tmp_path: Path) -> None:
    """Mallory's branch, cut at the campaign's start, names gm = ["Mallory"] and makes a
    bag of hers; she merges it into main as the second parent and pushes. The GM's list
    stays in force, her merge is the change named (not the GM's), her bag is named, and
    the GM seals though campaign.toml now names her."""
    table, gm, mallory, _ = table_of_three(tmp_path)
    before = table.git(mallory, "rev-parse", "HEAD").stdout.strip()
    settings = gm / "campaign.toml"
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["GM"]\n'))
    table.git(gm, "commit", "-qam", "the GM seals")
    ours = table.git(gm, "rev-parse", "HEAD").stdout.strip()
    sync(gm, "GM")
    table.git(mallory, "checkout", "-q", "-b", "side", before)
    mine = mallory / "campaign.toml"
    mine.write_text(mine.read_text().replace("[campaign]\n", '[campaign]\ngm = ["Mallory"]\n'))
    table.env["GIT_AUTHOR_NAME"] = "Mallory"
    table.git(mallory, "commit", "-qam", "tidy", "--no-verify")
    play(mallory, "Mallory", "bag", "new", "hers.toml")
    table.git(mallory, "add", "-A")
    table.git(mallory, "commit", "-qm", "her bag", "--no-verify")
    table.git(mallory, "checkout", "-q", "main")
    table.git(mallory, "pull", "-q", "--no-rebase")
    if table.git(mallory, "merge", "-q", "--no-verify", "--no-edit", "side",
                 check=False).returncode != 0:  # the clash on gm: she takes her side
        table.git(mallory, "checkout", "--theirs", "campaign.toml")
        table.git(mallory, "commit", "-qam", "merge", "--no-verify")
    assert table.git(mallory, "rev-parse", "HEAD^2").stdout.strip() == \
        table.git(mallory, "rev-parse", "side").stdout.strip()
    merge = table.git(mallory, "rev-parse", "HEAD").stdout.strip()
    table.git(mallory, "push", "-q", "origin", "main")
    table.git(gm, "pull", "-q", "--no-rebase")
    assert 'gm = ["Mallory"]' in settings.read_text()
    checked = play(gm, "GM", "check", status=1)
    assert f"commit {merge[:12]} by Mallory changed the GMs (gm) in campaign.toml from " \
        "[GM] to [Mallory]" in checked and ours[:12] not in checked, checked
    assert "changes the campaign's dice, by Mallory, no GM of the campaign" in checked
    play(gm, "GM", "clock", "pick", "--seal", "-T", 3)


def test_a_seal_naming_no_player_where_the_campaign_names_gms_is_named(
        tmp_path: Path) -> None:
    table, gm, _, _ = table_of_three(tmp_path)
    settings = gm / "campaign.toml"
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["GM"]\n'))
    table.git(gm, "commit", "-qam", "the GM seals")
    play(gm, "GM", "clock", "pick", "--seal", "-T", 3)
    lines = (gm / "journal.jsonl").read_text().splitlines()
    sealed = json.loads(lines[-1])
    del sealed["player"]  # as if from before players: but lines before it name theirs
    (gm / "journal.jsonl").write_text("\n".join([*lines[:-1], json.dumps(sealed)]) + "\n")
    checked = play(gm, "GM", "check", status=1)
    assert f"clock pick --seal {sealed['id'][:8]} names no player, after lines that name " \
           "theirs" in checked


def _copied_reveal_merged_first(table: Any, gm: Path, bob: Path, player: str,
                                everything: bool) -> str:
    """The GM reveals (Kris's exact guess, +8 xp); Bob cuts a branch at the commit before
    the reveal, adds a guess for Mara and a copy of the reveal (its number and nonce, by
    `player`) settling it (with `everything`, Kris's guess too, stamped before the GM's
    and of a lower id), and merges the table's main into his branch, so git's union puts
    his lines first; he pushes past the hooks. The copy's id."""
    play(gm, "GM", "clock", "reveal")
    sync(gm, "GM")
    table.git(bob, "pull", "-q", "--no-rebase")
    honest = [event for event in journal(bob) if event["command"] == "clock reveal"][-1]
    guessed = next(event for event in journal(bob) if event["command"] == "clock resolve --sealed")
    before = table.git(bob, "rev-parse", "HEAD~1").stdout.strip()
    table.git(bob, "checkout", "-q", "-b", "side", before)
    guess = {**guessed, "id": "abcd000000000001", "who": "mara", "file": "mara.toml",
             "player": "Bob", "result": {**guessed["result"], "trait": "Fight", "score": 6}}
    entry = {**honest["result"]["guesses"][0], "id": guess["id"], "who": "mara",
             "file": "mara.toml", "trait": "Fight", "score": 6, "xp": 12, "xp_total": 12}
    copy = {**honest, "id": "abcd000000000002", "player": player,
            "result": {**honest["result"], "guesses": [entry]},
            "changes": [{"file": "mara.toml", "key": "xp", "from": 0, "to": 12}]}
    if everything:
        copy.update(id="0" * 16, at=guessed["at"], changes=[*honest["changes"],
                                                            *copy["changes"]])
        copy["result"]["guesses"] = [*honest["result"]["guesses"], entry]
        table.git(bob, "checkout", "-q", "main", "--", "kris.toml")
    with open(bob / "journal.jsonl", "a") as lines:
        for line in (guess, copy):
            lines.write(json.dumps(line, separators=(",", ":")) + "\n")
    sheet = bob / "mara.toml"
    sheet.write_text(sheet.read_text().replace("xp = 0", "xp = 12", 1))
    table.git(bob, "commit", "-qam", "mara guesses", "--no-verify")
    table.git(bob, "merge", "-q", "--no-edit", "--no-verify", "main")
    merged = (bob / "journal.jsonl").read_text()
    assert merged.index(copy["id"]) < merged.index(honest["id"])  # the copy's line first
    table.git(bob, "push", "-q", "--no-verify", "origin", "side:main")
    return str(copy["id"])


@pytest.mark.parametrize(("player", "everything"), [("GM", False), ("Bob", False),
                                                    ("GM", True)])
def test_a_copied_reveal_merged_in_before_the_gms_counts_for_nothing(
        tmp_path: Path, player: str, everything: bool) -> None:
    """Which reveal of a number counts is not the line order a merge chose: a copy in the
    GM's name, made on a branch cut before the reveal, comes after it as git proves it
    (the copy's commit left out the guess it held); one by a player no GM counts for
    nothing. check names the copy, never the GM's reveal alone, and its advice, followed,
    leaves Kris the experience of his exact guess. A copy that settles every guess the
    GM's did, stamped first, git cannot tell from the GM's: check names the two as made
    apart, and the undo of either settles it."""
    table, gm, alice, bob = table_of_three(tmp_path)
    _guess(gm, alice)
    settings = gm / "campaign.toml"
    settings.write_text(settings.read_text().replace("[campaign]\n", '[campaign]\ngm = ["GM"]\n'))
    table.git(gm, "commit", "-qam", "the GM seals")
    copy = _copied_reveal_merged_first(table, gm, bob, player, everything)
    earned = value(gm, "kris.toml", "xp")
    assert earned > 0
    play(alice, "Alice", "sync", status=1)  # pulled: the hooks named it, nothing followed
    assert value(alice, "kris.toml", "xp") == earned
    checked = play(alice, "Alice", "check", status=1)
    advised = re.findall(r"`cwx undo ([0-9a-f]+)`", checked)
    assert advised and advised[0] == copy and (everything or set(advised) == {copy}), checked
    assert "on a history apart from this one's" in checked if everything else \
        f"reveal {copy[:8]} settles guess abcd0000, but " in checked
    play(alice, "Alice", "undo", copy)  # the advice, followed
    sync(alice, "Alice")
    assert play(alice, "Alice", "check").endswith("0 problems.\n")
    assert (value(alice, "kris.toml", "xp"), value(alice, "mara.toml", "xp")) == (earned, 0)
    assert "all verified" in play(alice, "Alice", "clock", "verify")


@pytest.mark.parametrize("why", ["kris.toml is gone", "kris.toml: the GM did not like it"])
def test_a_reveal_denying_a_guess_for_a_file_git_shows_it_had_is_named(
        tmp_path: Path, why: str) -> None:
    """The GM's reveal says Kris's exact guess counts for nothing, its file gone or
    unreadable in the GM's clone, though the commit that brings the reveal holds kris.toml,
    a character that reads: check and verify name it; the advice followed (the reveal
    taken back, the GM's reveal again), Kris has his experience."""
    table, gm, alice, _ = table_of_three(tmp_path)
    _guess(gm, alice)
    play(gm, "GM", "clock", "reveal")
    earned = value(gm, "kris.toml", "xp")
    path = gm / "journal.jsonl"
    reveal = _denied(path, why=why)
    table.git(gm, "checkout", "-q", "kris.toml")
    table.git(gm, "commit", "-qam", "the GM reveals", "--no-verify")
    table.git(gm, "push", "-q", "--no-verify", "origin", "main")
    play(alice, "Alice", "sync", status=1)  # pulled: the hooks named it
    checked = play(alice, "Alice", "check", status=1)
    assert f"says it counts for nothing ({why!r}), but the commit that brought the reveal " \
           "(commit " in checked and "holds kris.toml, a ClockWorx character that reads as " \
           "such, and the rules count it" in checked and f"`cwx undo {reveal['id']}`" in checked
    assert "1 settlement of guesses the rules do not give" in \
        play(alice, "Alice", "clock", "verify", status=1)
    play(alice, "Alice", "undo", reveal["id"])  # the advice, followed
    sync(alice, "Alice")
    sync(gm, "GM")
    play(gm, "GM", "clock", "reveal")
    sync(gm, "GM")
    sync(alice, "Alice")
    assert value(alice, "kris.toml", "xp") == earned
    assert play(alice, "Alice", "check").endswith("0 problems.\n")


def test_a_reveal_settling_a_guess_as_the_rules_do_not_is_named_by_verify_as_by_check(
        tmp_path: Path) -> None:
    """The GM's reveal denies Kris's exact guess as "kris.toml is gone", with no experience,
    and its commit alone deletes kris.toml (the next puts it back): git cannot disprove the
    GM's word, but the guess's figures are none the rules give. Verify names it in check's
    words, and says so by its exit."""
    table, gm, alice, _ = table_of_three(tmp_path)
    _guess(gm, alice)
    play(gm, "GM", "clock", "reveal")
    path = gm / "journal.jsonl"
    reveal = _denied(path, why="kris.toml is gone", xp=0)
    table.git(gm, "rm", "-qf", "kris.toml")
    table.git(gm, "commit", "-qam", "the GM reveals", "--no-verify")
    table.git(gm, "checkout", "-q", "HEAD~1", "--", "kris.toml")
    table.git(gm, "commit", "-qm", "kris back", "--no-verify")
    table.git(gm, "push", "-q", "--no-verify", "origin", "main")
    table.git(alice, "pull", "-q", "--no-rebase", "--no-verify", check=False)
    checked = play(alice, "Alice", "check", status=1)
    named = next(line.split(": ", 1)[1] for line in checked.splitlines()
                 if f"clock reveal {reveal['id'][:8]} settles guess" in line)
    assert "xp 0; the rules give" in named and f"`cwx undo {reveal['id'][:8]}`" in named
    verified = play(alice, "Alice", "clock", "verify", status=1)
    assert f"NOT VERIFIED  {named}" in verified and "all verified" not in verified, verified


def test_a_reveal_listing_its_guesses_in_no_form_cwx_writes_is_named_by_verify(
        tmp_path: Path) -> None:
    """A reveal whose `guesses` is an object of copies, not a list, gives xp the rules do
    not: check names it, and so does `cwx clock verify`, never "all verified"; its undo,
    as both advise, settles it."""
    folder = _settled_in_one_folder(tmp_path / "camp", 3)
    path = folder / "journal.jsonl"
    lines = path.read_text().splitlines()
    for step in (("pick", "--seal", "-T", 5), ("reveal",)):  # a reveal settling none
        assert cwx("clock", *step, cwd=folder).status == 0
    assert "guesses" not in path.read_text().splitlines()[-1]  # cwx lists none then
    assert cwx("clock", "verify", cwd=folder).status == 0
    reveal = json.loads(lines[-1])
    entry = reveal["result"]["guesses"][0]
    reveal["result"]["guesses"] = {str(copy): entry for copy in range(5)}
    reveal["changes"] = [{"file": "kris.toml", "key": "xp", "from": 0, "to": 30}]
    path.write_text("\n".join([*lines[:-1], json.dumps(reveal)]) + "\n")
    followed(folder)
    assert cwx("check", folder).status == 1
    verified = cwx("clock", "verify", cwd=folder)
    assert verified.status == 1 and f"clock reveal {reveal['id'][:8]} lists its settled " \
        f"guesses in no form cwx writes" in verified.stdout and \
        f"`cwx undo {reveal['id']}`" in verified.stdout, verified.stdout
    assert cwx("undo", reveal["id"], "--player", "Vic", cwd=folder).status == 0
    assert cwx("clock", "verify", cwd=folder).status == 0
    assert cwx("check", folder).status == 0


@pytest.mark.parametrize("alike", ["GM\u200b", "G\u041c"])
def test_a_silent_seal_under_a_name_that_reads_as_the_sealers_is_named(
        tmp_path: Path, alike: str) -> None:
    """The GM seals anew with --void, cuts `replaces` and `void` out of his line and signs
    it with a name that prints as his own but is not (a zero-width space, a Cyrillic М):
    check and verify name it, as for his own name."""
    folder = _guessed_in_one_folder(tmp_path / "camp", 3)
    assert cwx("clock", "pick", "--seal", "--force", "--void", "-T", 9, cwd=folder).status == 0
    path = folder / "journal.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    first = next(line for line in lines if line["command"] == "clock pick --seal")
    anew = lines[-1]
    for key in ("replaces", "void"):
        del anew["result"][key]
    first["player"], anew["player"] = "GM", alike
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    checked = cwx("check", folder)
    assert checked.status == 1 and f"clock pick --seal {anew['id'][:8]} seals a new number " \
        "over commitment" in checked.stdout, checked.stdout
    assert "NOT VERIFIED  clock pick --seal" in cwx("clock", "verify", cwd=folder).stdout
