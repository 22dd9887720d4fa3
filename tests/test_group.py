"""The group (#17): what a table does by the book never makes, loses or takes back a die
or an xp point without a word. Real git: a bare origin, two clones set up as the README
says, each player named (CWX_PLAYER)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import SUE, cwx
from tests.test_git import KEEP_WHITE, Table, value

MARA_A = ["--trait", "Sing=4", "--trait", "Dance=4", "--trait", "Fight=4"]
MARA_B = ["--trait", "Sing=2", "--trait", "Lie=5", "--trait", "Run=5"]


def play(where: Path, player: str, *args: object) -> str:
    ran = cwx(*args, cwd=where, env={"CWX_PLAYER": player})
    assert ran.status == 0, (args, ran.stderr)
    return ran.stdout


def campaign_dice(clone: Path) -> tuple[int, int]:
    """Every white and black in the clone's bags, reserves and characters, valid or not."""
    import tomllib

    white = black = 0
    for path in clone.glob("*.toml"):
        try:
            data = tomllib.loads(path.read_text())
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            continue
        for table in ("luck", "bag", "reserve"):
            white += data.get(table, {}).get("white", 0)
            black += data.get(table, {}).get("black", 0)
    return white, black


def test_two_players_making_one_file_is_a_clash_never_a_sum(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    play(alice, "Alice", "char", "new", "mara.toml", "--system", "clockworx", *MARA_A)
    play(alice, "Alice", "clock", "resolve", "-T", 4, "-g", 4, "-t", "Sing", "-c", "mara")
    table.commit(alice, "Alice's Mara")
    table.git(alice, "push", "--quiet", "origin", "main")
    play(bob, "Bob", "char", "new", "mara.toml", "--system", "clockworx", *MARA_B)
    play(bob, "Bob", "clock", "resolve", "-T", 4, "-g", 3, "-t", "Lie", "-c", "mara")
    xp = value(bob, "mara.toml", "xp")
    table.commit(bob, "Bob's Mara")
    pulled = table.pull(bob, rebase=False)
    said = " ".join(pulled.stderr.split())
    assert pulled.returncode != 0 and "mara.toml: was made on both sides" in said
    assert "a clockworx character named 'mara' on one" in said
    assert "git checkout --ours mara.toml" in said and "cwx adopt" in said
    assert "reconciled" not in said  # no hook settled it
    # As the message says: keep ours, save theirs under a new name, adopt it.
    theirs = table.git(bob, "show", ":3:mara.toml").stdout
    (bob / "mara-alice.toml").write_text(theirs.replace('name = "mara"', 'name = "Mara A"'))
    table.git(bob, "checkout", "--ours", "mara.toml")
    play(bob, "Bob", "adopt", "mara.toml", "mara-alice.toml")
    assert value(bob, "mara.toml", "traits") == {"Sing": 2, "Lie": 5, "Run": 5}
    assert value(bob, "mara-alice.toml", "xp") == 8 and value(bob, "mara.toml", "xp") == xp
    assert cwx("check", bob, cwd=bob).status == 0


def test_check_never_advises_the_reconcile_that_would_destroy_a_die(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    before = campaign_dice(alice)
    play(alice, "Alice", "bag", "draw", "-c", "sue", "-C", "red", "--drawn", "black",
         "--drawn", "red", "--keep-black")
    table.commit(alice, "Sue keeps a black")
    play(bob, "Bob", "char", "new", "sue.toml", "--force", "--system", "colorwheel",
         "--name", "Sue", *SUE)
    table.commit(bob, "Sue made anew")
    table.git(bob, "push", "--quiet", "origin", "main")
    assert table.pull(alice, rebase=False).returncode == 0
    assert campaign_dice(alice) == before
    checked = cwx("check", alice, cwd=alice)
    assert checked.status == 2 and "`cwx reconcile` brings" not in checked.stdout
    assert "the campaign's supply is 11 whites and 11 blacks" in checked.stdout
    refused = cwx("reconcile", cwd=alice)
    assert refused.status == 2 and "supply" in refused.error
    assert campaign_dice(alice) == before
    # What check advises instead keeps every die: the ledger comes back to the files.
    assert cwx("adopt", "sue.toml", cwd=alice).status == 0
    assert cwx("check", alice, cwd=alice).status == 0 and campaign_dice(alice) == before


def test_a_die_gone_with_a_deleted_file_is_never_adopted_away(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    play(alice, "Alice", "bag", "draw", "-c", "sue", *KEEP_WHITE)
    table.commit(alice, "Sue keeps a white")
    table.git(alice, "push", "--quiet", "origin", "main")
    table.git(bob, "rm", "--quiet", "sue.toml")
    table.commit(bob, "Sue is gone")
    pulled = table.pull(bob, rebase=False)
    assert pulled.returncode != 0  # modify/delete: git asks a person
    table.git(bob, "rm", "--quiet", "sue.toml")  # Bob keeps the deletion
    checked = cwx("check", bob, cwd=bob)
    assert checked.status == 2 and "sue.toml: is gone, with 1 die" in checked.stdout
    assert "`cwx retire` it" in checked.stdout
    alone = cwx("adopt", "sue.toml", cwd=bob)  # the white would leave the campaign
    assert alone.status == 2 and "by -1 white" in alone.error and "--supply" in alone.error
    table.git(bob, "checkout", "MERGE_HEAD", "--", "sue.toml")  # as check says: restore,
    play(bob, "Bob", "retire", "sue")  # and retire
    assert value(bob, "bag.toml", "reserve", "white") == 10
    assert cwx("check", bob, cwd=bob).status == 0


def test_a_character_who_leaves_gives_back_her_dice_and_every_clone_accepts_it(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    play(alice, "Alice", "bag", "draw", "-c", "sue", *KEEP_WHITE)
    said = play(alice, "Alice", "retire", "sue", "--json")
    assert json.loads(said)["dice"] == {"white": 1, "black": 0}
    assert not (alice / "sue.toml").exists()
    assert "D  sue.toml" in table.git(alice, "status", "--porcelain").stdout  # git rm'd
    assert value(alice, "bag.toml", "reserve", "white") == 10
    assert "Dice: 11 whites, 11 blacks (the supply)" in cwx("check", alice, cwd=alice).stdout
    table.commit(alice, "Sue leaves")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    assert not (bob / "sue.toml").exists()
    assert cwx("check", bob, cwd=bob).status == 0
    log = cwx("log", cwd=bob).stdout
    assert "retire (sue.toml)" in log and "removed sue.toml" in log


def test_a_bag_retired_takes_its_dice_out_of_the_supply(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, _ = table.start()
    play(alice, "GM", "bag", "new", "bga.toml")
    assert "Dice: 22 whites, 22 blacks" in cwx("check", alice, cwd=alice).stdout
    said = play(alice, "GM", "retire", "bga.toml")
    assert "11 whites and 11 blacks left the campaign" in said
    checked = cwx("check", "--json", alice, cwd=alice)
    assert checked.status == 0 and checked.json["supply"] == {"white": 11, "black": 11}
    table.commit(alice, "the bag made by mistake is gone")  # the pre-commit hook agrees


def test_a_file_retired_on_one_clone_and_played_on_another_is_a_named_clash(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    play(alice, "Alice", "retire", "kris")
    table.commit(alice, "Kris leaves")
    table.git(alice, "push", "--quiet", "origin", "main")
    play(bob, "Bob", "clock", "resolve", "-T", 4, "-g", 4, "-t", "Tough", "-c", "kris")
    table.commit(bob, "Kris earns 10 xp")
    pulled = table.pull(bob, rebase=False)
    assert pulled.returncode != 0  # modify/delete
    table.git(bob, "rm", "--quiet", "kris.toml")
    checked = cwx("check", bob, cwd=bob)
    assert checked.status == 2 and "kris.toml: was retired" in checked.stdout
    assert "played on another clone" in checked.stdout and "xp 10" in checked.stdout


def test_a_hand_edit_pushed_past_the_hooks_is_taken_back_saying_how_to_keep_it(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    kris = alice / "kris.toml"
    kris.write_text(kris.read_text().replace("xp = 0", "xp = 50"))
    table.git(alice, "add", "-A")
    table.git(alice, "commit", "--quiet", "--no-verify", "-m", "a gift")
    table.git(alice, "push", "--quiet", "origin", "main")
    play(bob, "Bob", "clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c", "kris")
    table.commit(bob, "Kris repairs")
    pulled = table.pull(bob, rebase=False)
    said = pulled.stderr
    assert pulled.returncode == 0 and "kris.toml [xp] 52 -> 2" in said
    assert "by Player, an edit no journal line records" in said
    assert "git revert" in said and "cwx adopt kris.toml" in said


def test_making_a_character_anew_over_what_she_earned_is_refused(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, _ = table.start()
    anew = ["char", "new", "kris.toml", "--force", "--system", "clockworx", "--trait", "A=4",
            "--trait", "B=4", "--trait", "C=4"]
    play(alice, "Alice", "clock", "resolve", "-T", 4, "-g", 4, "-t", "Repair", "-c", "kris")
    earned = value(alice, "kris.toml", "xp")
    ran = cwx(*anew, cwd=alice)
    assert ran.status == 2 and f"{earned} xp earned" in ran.error
    assert "retire it first (cwx retire kris.toml)" in ran.error
    kris = alice / "kris.toml"
    kris.write_text(kris.read_text().replace(f"xp = {earned}", "xp = 12"))
    play(alice, "GM", "adopt", "kris.toml")
    play(alice, "Alice", "xp", "spend", "-c", "kris", "--new", "Climb")  # all 12 spent
    assert value(alice, "kris.toml", "xp") == 0
    bought = cwx(*anew, cwd=alice)
    assert bought.status == 2 and "traits bought (`xp spend`" in bought.error


def test_the_log_row_of_an_adopt_names_its_file(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, _ = table.start()
    kris = alice / "kris.toml"
    kris.write_text(kris.read_text().replace("xp = 0", "xp = 5"))
    play(alice, "GM", "adopt", "kris.toml")
    assert "adopt (kris.toml)" in cwx("log", cwd=alice).stdout
