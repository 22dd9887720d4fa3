"""The group (#17): what a table does by the book never makes, loses or takes back a die
or an xp point without a word. Real git: a bare origin, two clones set up as the README
says, each player named (CWX_PLAYER)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from tests.helpers import FULL, SUE, cwx, skewed
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
    assert checked.status == 1 and "`cwx reconcile` brings" not in checked.stdout
    assert "the campaign's supply is 11 whites and 11 blacks" in checked.stdout
    refused = cwx("reconcile", cwd=alice)
    assert refused.status == 2 and "made anew by char new" in refused.error
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
    assert checked.status == 1 and "sue.toml: is gone, with 1 die" in checked.stdout
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
    assert checked.status == 1 and "kris.toml: was retired" in checked.stdout
    assert "played on another clone" in checked.stdout and "xp 10" in checked.stdout


def test_a_hand_edit_pushed_past_the_hooks_is_taken_back_saying_how_to_keep_it(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    kris = alice / "kris.toml"
    kris.write_text(kris.read_text().replace("xp = 0", "xp = 50"))
    table.git(alice, "add", "-A")
    env = {**table.env, "GIT_AUTHOR_NAME": "Alice"}
    subprocess.run(["git", "commit", "--quiet", "--no-verify", "-m", "a gift"], cwd=alice,
                   env=env, check=True)
    table.git(alice, "push", "--quiet", "origin", "main")
    play(bob, "Bob", "clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c", "kris")
    table.commit(bob, "Kris repairs")
    pulled = table.pull(bob, rebase=False)
    said = pulled.stderr
    assert pulled.returncode == 0 and "kris.toml [xp] 52 -> 2" in said
    gift = table.git(alice, "log", "-1", "--format=%h").stdout.strip()
    # Named by the commit that made the edit and its author, not the merge that brought it.
    assert f"{gift} by Alice, an edit no journal line records" in said
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


def test_a_character_made_anew_while_another_clone_earns_is_a_clash(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    play(alice, "Alice", "clock", "resolve", "-T", 4, "-g", 4, "-t", "Tough", "-c", "kris")
    earned = value(alice, "kris.toml", "xp")
    table.commit(alice, "Kris earns")
    table.git(alice, "push", "--quiet", "origin", "main")
    play(bob, "Bob", "char", "new", "kris.toml", "--force", "--system", "clockworx",
         "--name", "Kris", "--trait", "Scrounge=4", "--trait", "Repair=4", "--trait", "Tough=4")
    table.commit(bob, "Kris made anew")
    said = " ".join(table.pull(bob, rebase=False).stderr.split())
    assert "needs a person" in said and "was made anew by char new" in said
    assert "reconciled" not in said and value(bob, "kris.toml", "xp") == earned  # kept
    checked = cwx("check", cwd=bob)
    assert checked.status == 1 and "while another clone played it (clock resolve" in \
        checked.stdout
    play(bob, "Bob", "adopt", "kris.toml")  # the table keeps the new Kris with the xp
    assert cwx("check", cwd=bob).status == 0


def test_retired_and_made_anew_while_played_elsewhere_is_a_clash(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    play(bob, "Bob", "clock", "resolve", "-T", 4, "-g", 4, "-t", "Tough", "-c", "kris")
    earned = value(bob, "kris.toml", "xp")
    table.commit(bob, "Kris earns")
    play(alice, "Alice", "retire", "kris.toml")
    play(alice, "Alice", "char", "new", "kris.toml", "--system", "clockworx", "--name",
         "Kris", "--trait", "Sing=4", "--trait", "Dance=4", "--trait", "Fight=4")
    table.commit(alice, "Kris retired, and a new Kris")
    table.git(alice, "push", "--quiet", "origin", "main")
    said = " ".join(table.pull(bob, rebase=False).stderr.split())
    assert "needs a person" in said and "was retired by retire" in said, said
    assert value(bob, "kris.toml", "xp") == earned  # nothing reconciled away
    assert "never saw" in cwx("check", cwd=bob).stdout


def test_a_file_made_on_two_clones_is_settled_by_an_adopt_never_a_reconcile(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    play(bob, "Bob", "char", "new", "mara.toml", "--system", "clockworx", *MARA_B)
    play(alice, "Alice", "char", "new", "mara.toml", "--system", "clockworx", *MARA_A)
    play(bob, "Bob", "clock", "resolve", "-T", 4, "-g", 5, "-t", "Lie", "-c", "mara")
    play(alice, "Alice", "clock", "resolve", "-T", 4, "-g", 4, "-t", "Sing", "-c", "mara")
    told = value(bob, "mara.toml", "xp") + value(alice, "mara.toml", "xp")
    table.commit(alice, "Alice's Mara")
    table.git(alice, "push", "--quiet", "origin", "main")
    table.commit(bob, "Bob's Mara")
    assert table.pull(bob, rebase=False).returncode != 0  # add/add
    theirs = table.git(bob, "show", ":3:mara.toml").stdout
    (bob / "mara-two.toml").write_text(theirs.replace('name = "mara"', 'name = "Mara Two"'))
    table.git(bob, "checkout", "--ours", "mara.toml")
    play(bob, "Bob", "adopt", "mara-two.toml")
    checked = cwx("check", cwd=bob)
    assert checked.status == 1 and "made on two clones at once" in checked.stdout
    assert "cwx reconcile" not in checked.stdout
    assert cwx("reconcile", cwd=bob).status == 2  # would mint experience: refused
    play(bob, "Bob", "adopt", "mara.toml")
    assert cwx("check", cwd=bob).status == 0
    assert value(bob, "mara.toml", "xp") + value(bob, "mara-two.toml", "xp") == told


def test_one_bag_made_alike_on_two_clones_brings_its_dice_once(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    for clone in (alice, bob):
        play(clone, clone.name, "bag", "new", "bag2.toml")
        table.commit(clone, "a second bag")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0  # git merges identical files
    checked = cwx("check", "--json", cwd=bob)
    assert checked.status == 0 and checked.json["supply"] == dict(
        zip(("white", "black"), campaign_dice(bob), strict=True))
    table.commit(bob, "later")  # the pre-commit hook lets the table go on


def test_a_file_retired_on_two_clones_at_once_leaves_the_campaign_once(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    play(alice, "Alice", "bag", "new", "bga.toml")
    table.commit(alice, "a bag")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    supply = campaign_dice(bob)
    for clone in (alice, bob):
        play(clone, clone.name, "retire", "bga.toml")
        table.commit(clone, "the bag retired")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    checked = cwx("check", "--json", cwd=bob)
    assert checked.status == 0, checked.stdout
    white, black = campaign_dice(bob)
    assert (white, black) == (supply[0] - 11, supply[1] - 11)
    assert checked.json["supply"] == {"white": white, "black": black}


def test_one_character_made_alike_on_two_clones_keeps_both_sides_experience(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    kris = ["--system", "clockworx", "--trait", "Sing=4", "--trait", "Run=4", "--trait", "Lie=4"]
    play(alice, "Alice", "char", "new", "hero.toml", *kris)
    play(alice, "Alice", "clock", "resolve", "-T", 4, "-g", 3, "-t", "Run", "-c", "hero")
    earned = value(alice, "hero.toml", "xp")
    table.commit(alice, "a hero")
    table.git(alice, "push", "--quiet", "origin", "main")
    play(bob, "Bob", "char", "new", "hero.toml", *kris)
    table.commit(bob, "the same hero")
    pulled = table.pull(bob, rebase=False)
    assert pulled.returncode != 0  # add/add: the files differ
    said = " ".join(pulled.stderr.split())
    assert "was made alike on both sides" in said and "`cwx reconcile`" in said
    table.git(bob, "checkout", "--ours", "hero.toml")
    checked = cwx("check", cwd=bob)  # made alike, the making counts once: xp is the ledger's
    assert checked.status == 1 and "the file says 0, the ledger " + str(earned) in checked.stdout
    play(bob, "Bob", "reconcile")
    assert value(bob, "hero.toml", "xp") == earned


def test_what_a_making_saw_is_the_old_files_whatever_the_clocks(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    play(bob, "Bob", "bag", "draw", "-c", "sue", *KEEP_WHITE)
    skewed(bob, 300)  # Bob's clock runs five minutes fast
    table.commit(bob, "Sue keeps a white")
    table.git(bob, "push", "--quiet", "origin", "main")
    assert table.pull(alice, rebase=False).returncode == 0
    play(alice, "Alice", "retire", "sue.toml")
    play(alice, "Alice", "char", "new", "sue.toml", "--system", "colorwheel", "--name", "Sue",
         *SUE)
    assert cwx("check", cwd=alice).status == 0  # the draw was the old Sue's
    table.commit(alice, "Sue anew")  # the pre-commit hook agrees


def test_a_making_after_a_retirement_it_saw_is_no_twin_whatever_the_clocks(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    play(alice, "Alice", "retire", "kris.toml")
    table.commit(alice, "Kris leaves")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    play(bob, "Bob", "char", "new", "kris.toml", "--system", "clockworx", "--name", "Kris",
         "--trait", "Sing=4", "--trait", "Lie=4", "--trait", "Run=4")
    skewed(bob, -300)  # Bob's clock runs five minutes slow
    assert cwx("check", cwd=bob).status == 0
    table.commit(bob, "a new Kris")


def test_undo_never_walks_back_past_a_retirement(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, _ = table.start()
    play(alice, "Alice", "bag", "draw", "-c", "sue", *KEEP_WHITE)
    play(alice, "Alice", "retire", "sue.toml")
    ran = cwx("undo", cwd=alice, env={"CWX_PLAYER": "Alice"})
    assert ran.status == 2 and "sue.toml was retired since" in ran.error
    assert cwx("check", cwd=alice).status == 0


def test_the_log_row_of_an_adopt_names_its_file(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, _ = table.start()
    kris = alice / "kris.toml"
    kris.write_text(kris.read_text().replace("xp = 0", "xp = 5"))
    play(alice, "GM", "adopt", "kris.toml")
    assert "adopt (kris.toml)" in cwx("log", cwd=alice).stdout


# ---------------------------------------------------------------- random play by the book

MOVES = ["draw", "xp", "undo", "redo", "retire", "refill", "gift", "sneak", "guest"]


class Player:
    """One player at one clone, with the character they play, and what they were told."""

    def __init__(self, table: Table, clone: Path, name: str, char: str) -> None:
        self.table, self.clone, self.name, self.char = table, clone, name, char
        self.made = 0

    def cwx(self, *args: object) -> Any:
        ran = cwx(*args, cwd=self.clone, env={"CWX_PLAYER": self.name})
        assert ran.status in (0, 2) and "Traceback" not in ran.stderr, (args, ran.stderr)
        return ran

    def move(self, move: str, told: Told) -> None:
        if move == "draw":
            self.cwx("bag", "draw", "-c", self.char, *KEEP_WHITE)
        elif move == "xp":
            ran = self.cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "Tough", "-c", "kris",
                           "--json")
            told.xp_by(self, ran.json["xp"])
        elif move in ("undo", "redo"):
            ran = self.cwx("undo", *(["--redo"] if move == "redo" else []), "--json")
            if ran.status == 0:
                told.undone(ran.json["change"]["id"], redo=move == "redo")
        elif move == "retire":
            if self.cwx("retire", self.char).status == 0:
                self.made += 1
                self.char = f"{self.name.lower()}{self.made}.toml"
                self.cwx("char", "new", self.char, "--system", "colorwheel", *SUE)
        elif move == "refill":  # the GM's word: one more white beside the bag
            bag = self.clone / "bag.toml"
            text = bag.read_text()
            white = value(self.clone, "bag.toml", "reserve", "white")
            bag.write_text(_with_reserve(text, white + 1))
            if self.cwx("adopt", "bag.toml", "--supply").status == 0:
                told.supply += 1
        elif move == "gift":  # the GM's hand-given experience, adopted
            xp = value(self.clone, "kris.toml", "xp")
            kris = self.clone / "kris.toml"
            kris.write_text(kris.read_text().replace(f"xp = {xp}", f"xp = {xp + 5}", 1))
            ran = self.cwx("adopt", "kris.toml", "--json")
            assert ran.status == 0, ran.stderr
            told.xp_by(self, 5)
        elif move == "sneak":  # a die from nowhere, committed past the hooks
            path = self.clone / self.char
            held = value(self.clone, self.char, "luck", "white")
            path.write_text(path.read_text().replace(f"white = {held}", f"white = {held + 1}"))
            self.table.git(self.clone, "add", "-A")
            self.table.git(self.clone, "commit", "--quiet", "--no-verify", "-m", "sneak")
        elif move == "guest":
            self.cwx("char", "new", "guest.toml", "--system", "clockworx", *MARA_A)


def _with_reserve(text: str, white: int) -> str:
    head, _, rest = text.partition("[reserve]")
    lines = rest.split("\n")
    lines = [f"white = {white}" if line.startswith("white =") else line for line in lines]
    return head + "[reserve]" + "\n".join(lines)


class Told:
    """What commands reported: the xp each event gave, undone or redone, and the supply."""

    def __init__(self) -> None:
        self.xp: dict[str, int] = {}  # event id -> xp it gave
        self.standing: dict[str, bool] = {}
        self.supply = 22
        self.pending: list[tuple[Player, int]] = []

    def xp_by(self, player: Player, xp: int) -> None:
        latest = cwx("log", "--last", 1, "--json", cwd=player.clone).json["events"][-1]
        self.xp[latest["id"]] = xp
        self.standing[latest["id"]] = True

    def undone(self, change: str, *, redo: bool) -> None:
        if change in self.standing:
            self.standing[change] = redo

    def total_xp(self) -> int:
        return sum(xp for event, xp in self.xp.items() if self.standing[event])


def sync(table: Table, players: list[Player]) -> None:
    """Each player commits, pulls (settling a clash as cwx says) and pushes, in turn."""
    for player in players:
        table.git(player.clone, "add", "-A")
        done = table.git(player.clone, "commit", "--quiet", "--allow-empty", "-m", "play",
                         check=False)
        if done.returncode != 0:  # the hook's check refused a hand edit: as it says
            player.cwx("reconcile")
            table.commit(player.clone, "reconciled")
        pulled = table.pull(player.clone, rebase=False)
        if pulled.returncode != 0:
            assert "guest.toml: was made on both sides" in pulled.stderr, pulled.stderr
            theirs = table.git(player.clone, "show", ":3:guest.toml").stdout
            (player.clone / f"guest-{player.made}{player.name}.toml").write_text(theirs)
            table.git(player.clone, "checkout", "--ours", "guest.toml")
            player.cwx("adopt", "guest.toml", f"guest-{player.made}{player.name}.toml")
            table.commit(player.clone, "two guests")
        table.git(player.clone, "push", "--quiet", "origin", "main")


# Two plays chosen to make every move on both clones: a player retired who plays on, an
# undo redone, a guest made alike on both, the GM's refill and gift, a sneak on each (its
# commit refused at the next sync, and reconciled). Hypothesis runs derandomized, so the
# six random plays make test ran were six fixed ones, and made fewer of these moves (no
# gift): make test plays these two, make bench (CWX_TEST_FULL=1) them and forty random.
@settings(max_examples=40, phases=tuple(Phase) if FULL else [Phase.explicit])
@example(rounds=[(["xp", "undo", "refill"], ["gift", "draw", "redo"]),
                 (["guest", "retire", "draw"], ["guest", "xp", "undo"])])
@example(rounds=[(["draw", "retire", "xp"], ["undo", "redo", "refill"]),
                 (["gift", "undo", "sneak"], ["retire", "draw", "sneak"])])
@given(rounds=st.lists(st.tuples(st.lists(st.sampled_from(MOVES), max_size=3),
                                 st.lists(st.sampled_from(MOVES), max_size=3)),
                       min_size=1, max_size=2))
def test_random_play_by_the_book_keeps_the_supply_and_every_xp_point_told(
        tmp_path_factory: pytest.TempPathFactory,
        rounds: list[tuple[list[str], list[str]]]) -> None:
    table = Table(tmp_path_factory.mktemp("group"))
    alice, bob = table.start()
    players = [Player(table, alice, "Alice", "sue.toml"), Player(table, bob, "Bob", "rick.toml")]
    told = Told()
    for moves in rounds:
        for player, chosen in zip(players, moves, strict=True):
            for move in chosen:
                player.move(move, told)
        sync(table, players)
        sync(table, players)  # the first to push hears the others' moves too
        for player in players:
            checked = cwx("check", "--json", player.clone, cwd=player.clone)
            if checked.status == 0:  # a clone that check passes holds just the supply
                assert campaign_dice(player.clone) == \
                    (checked.json["supply"]["white"], checked.json["supply"]["black"])
                assert sum(checked.json["supply"].values()) == told.supply
                assert value(player.clone, "kris.toml", "xp") == told.total_xp()


def test_play_after_a_making_on_its_clone_is_the_new_files_whatever_the_clock(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = table.start()
    play(alice, "Alice", "retire", "kris.toml")
    table.commit(alice, "Kris leaves")
    table.git(alice, "push", "--quiet", "origin", "main")
    assert table.pull(bob, rebase=False).returncode == 0
    play(bob, "Bob", "char", "new", "kris.toml", "--system", "clockworx", "--name", "Kris",
         "--trait", "Sing=4", "--trait", "Run=4", "--trait", "Lie=4")
    play(bob, "Bob", "clock", "resolve", "-T", 4, "-g", 3, "-t", "Run", "-c", "kris")
    count = len((bob / "journal.jsonl").read_text().splitlines())
    for index in (count - 2, count - 1):  # both of Bob's lines, by a clock two minutes slow
        skewed(bob, -120, index)
    assert cwx("check", cwd=bob).status == 0
    table.commit(bob, "a new Kris, and her first repair")  # the pre-commit hook agrees
