"""At the table: less typing (names, the campaign's bag, short options, the party view,
odds from the sheet) and what a new player tripped on, each as it was seen."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.helpers import EXAMPLES, SUE, cwx, saga


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A campaign (cwx init) with Sue, Kris in a subfolder, and the default bag."""
    return saga(tmp_path / "saga", kris="party/grizzled.toml")


# ---------------------------------------------------------------- less typing


def test_a_character_by_name_and_the_campaigns_bag(table: Path) -> None:
    ran = cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "red", "-j", cwd=table)
    assert ran.status == 0 and ran.json["success"] is True
    kris = cwx("clock", "resolve", "-T", 4, "-g", 4, "-t", "tough", "-c", "kris", "-j",
               cwd=table)  # the name in the file, not the file's
    assert kris.status == 0 and kris.json["xp_total"] == 10


def test_two_characters_answering_to_one_name_are_named_both(table: Path) -> None:
    shutil.copy(table / "sue.toml", table / "party" / "sue.toml")
    ran = cwx("char", "show", "sue", cwd=table / "party")
    assert ran.status == 2 and "two characters" in ran.error
    assert "sue.toml" in ran.error and "../sue.toml" in ran.error


def test_a_campaign_with_two_bags_and_no_default_asks_which(table: Path) -> None:
    settings = table / "campaign.toml"
    settings.write_text(settings.read_text().replace('bag = "bag.toml"', ""))
    assert cwx("bag", "new", table / "other.toml").status == 0
    ran = cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "red", cwd=table)
    assert ran.status == 2 and "2 bags" in ran.error and "--bag" in ran.error
    (table / "other.toml").unlink()
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "red", cwd=table).status == 0


def test_outside_a_campaign_the_bag_is_asked_for(campaign: Path) -> None:
    ran = cwx("bag", "draw", "-c", "sue.toml", "-C", "red", "--drawn", "red", cwd=campaign)
    assert ran.status == 2 and "--bag" in ran.error


@pytest.mark.parametrize(("command", "short"), [
    (["clock", "resolve"], ["-c", "-t", "-g", "-T", "-j"]),
    (["bag", "draw"], ["-c", "-b", "-t", "-C", "-j"]),
    (["luck", "spend"], ["-c", "-b", "-j"]),
    (["char", "new"], ["-t", "-j"]),
    (["clock", "pick"], ["-T", "-j"]),
    (["clock", "verify"], ["-T", "-j"]),
    (["xp", "spend"], ["-c", "-n", "-r", "-j"]),
    (["wheel", "buy"], ["-c", "-b", "-t", "-C", "-j"]),
    (["odds", "wheel"], ["-c", "-b", "-t", "-C", "-j"]),
])
def test_short_options_are_the_same_everywhere_and_shown_in_help(command: list[str],
                                                                 short: list[str]) -> None:
    text = cwx(*command, "--help", env={"TYPER_USE_RICH": "0"}).stdout
    for option in short:
        assert f"{option} " in text or f"{option}," in text, (command, option)


def test_the_party_at_a_glance(table: Path) -> None:
    ran = cwx("party", cwd=table)
    assert ran.status == 0
    assert "Sue · Color Wheel" in ran.stdout and "Kris · ClockWorx · 0 xp" in ran.stdout
    assert "bag · red 1" in ran.stdout
    both = cwx("party", "sue", "party/grizzled.toml", "-j", cwd=table).json
    assert [c["name"] for c in both["characters"]] == ["Sue", "Kris"] and both["bag"] is None
    # One shape whatever the count: one name is a party of one, never a sheet.
    one = cwx("party", "sue", "-j", cwd=table).json
    assert [c["name"] for c in one["characters"]] == ["Sue"] and one["bag"] is None
    assert cwx("char", "show", "sue", "kris", cwd=table).status == 2  # char show: one sheet


def test_odds_from_the_sheet(table: Path) -> None:
    clock = cwx("odds", "clock", "-c", "kris", "-t", "repair", "-j", cwd=table)
    assert clock.status == 0 and clock.json["p_success_exact"] == "7/12"
    sue = table / "sue.toml"
    sue.write_text(sue.read_text().replace("black = 0", "black = 1"))
    assert cwx("adopt", sue, "--supply").status == 0
    wheel = cwx("odds", "wheel", "-c", "sue", "-t", "strong", "-j", cwd=table)
    assert wheel.status == 0 and wheel.json["color"] == "red"
    assert wheel.json["p_success_exact"] == "1/5"  # the held black cancels the white
    ran = cwx("odds", "wheel", "-c", "sue", "-t", "strong", "--black", 0, cwd=table)
    assert ran.status == 2 and "leave out --white and --black" in ran.error


@pytest.mark.parametrize(("args", "hint"), [
    (["xp", "spend", "-c", "kris", "--raise", "Repiar"], "did you mean 'Repair'?"),
    (["bag", "draw", "-c", "sue", "-C", "purpel"], "did you mean 'purple'?"),
    (["bag", "draw", "-c", "sue", "-C", "red", "--drawn", "whtie"], "did you mean 'white'?"),
    (["char", "show", "seu.toml"], "did you mean 'sue.toml'?"),
    (["char", "show", "suee"], "did you mean 'Sue'"),
])
def test_a_mistyped_name_gets_a_suggestion(table: Path, args: list[str], hint: str) -> None:
    ran = cwx(*args, cwd=table)
    assert ran.status == 2 and hint in ran.error
    assert "leave out the trait" not in ran.error


# ---------------------------------------------------------------- what a new player hit


def test_a_trait_without_a_character_or_score_is_an_error(tmp_path: Path) -> None:
    ran = cwx("clock", "resolve", "--target", 4, "--guess", 4, "--trait", "Repair")
    assert ran.status == 2 and "--char" in ran.error and "--score" in ran.error
    assert cwx("clock", "resolve", "-T", 4, "-g", 4, "-t", "Repair", "--score", 3,
               "-j").json["critical"] is True


def test_the_creation_comment_says_when_it_was_true(table: Path) -> None:
    text = (table / "party" / "grizzled.toml").read_text()
    assert "at creation 11 of the 12 points were spent" in text


def test_a_bag_emptied_mid_action_says_so(tmp_path: Path) -> None:
    bag = tmp_path / "bag.toml"
    bag.write_text("[bag]\nwhite = 1\n[reserve]\nwhite = 0\nblack = 0\n")
    shutil.copy(EXAMPLES / "sue.toml", tmp_path / "sue.toml")
    ran = cwx("bag", "draw", "-c", tmp_path / "sue.toml", "-b", bag, "-C", "red",
              "--drawn", "white", "--keep-white")
    assert ran.status == 2 and "ran out in the middle of the action" in ran.error


def test_a_white_cancelled_by_a_black_does_not_blame_the_keep_flags(campaign: Path) -> None:
    sue = campaign / "sue.toml"
    sue.write_text(sue.read_text().replace("black = 0", "black = 1"))
    ran = cwx("bag", "draw", "-c", sue, "-b", campaign / "bag.toml", "-C", "red",
              "--drawn", "white", "--drawn", "red", "--keep-white")
    assert ran.status == 2 and "a held black cancelled the white" in ran.error
    assert "answer the keep choices" not in ran.error


def test_a_game_end_with_nothing_to_settle_changes_nothing_and_succeeds(table: Path) -> None:
    before = {path.name: path.read_bytes() for path in table.iterdir() if path.is_file()}
    fresh = cwx("game", "end", "-c", "sue", "--json", cwd=table)  # never played: nothing
    assert fresh.status == 0 and fresh.json["settled"] is False
    assert {path.name: path.read_bytes() for path in table.iterdir() if path.is_file()} == before
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "red", cwd=table).status == 0
    ended = cwx("game", "end", "-c", "sue", "--json", cwd=table)
    assert ended.status == 0 and ended.json["settled"] is True  # a game played ends
    journal = (table / "journal.jsonl").read_bytes()
    again = cwx("game", "end", "-c", "sue", cwd=table)
    assert again.status == 0 and "Nothing to settle for Sue" in again.stdout
    assert (table / "journal.jsonl").read_bytes() == journal
    spend = cwx("luck", "spend", "-c", "sue", cwd=table)  # the game's end still stands
    assert spend.status == 2 and "not a draw" in spend.error


def test_init_inside_a_file_says_which_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "c2").mkdir()
    (tmp_path / "c2" / "bag.toml").write_text("")
    ran = cwx("init", tmp_path / "c2" / "bag.toml")
    assert ran.status == 2 and "is a file, not a folder" in ran.error
    ran = cwx("init", tmp_path / "c2" / "bag.toml" / "sub")
    assert ran.status == 2 and "bag.toml is a file, not a folder" in ran.error


def test_the_makefile_tells_a_failed_climb_from_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "saga"
    assert cwx("init", folder).status == 0
    shutil.copy(EXAMPLES / "sue.toml", folder / "hero.toml")
    cwx_program = f"{sys.executable} -m cwx"
    for hero, status, said in (("hero.toml", 0, ("Over the wall.", "The guards heard that.")),
                               ("nobody.toml", 2, ("no such file",))):
        done = subprocess.run(["make", "--no-print-directory", "climb", f"HERO={hero}",
                               f"CWX={cwx_program}"], cwd=folder, capture_output=True,
                              text=True)
        assert (done.returncode == 0) == (status == 0), done
        assert any(word in done.stdout + done.stderr for word in said), done
    assert tomllib.loads((folder / "hero.toml").read_text())["name"] == "Sue"


def test_an_empty_file_name_asks_for_the_file_not_the_name(tmp_path: Path) -> None:
    ran = cwx("char", "new", "", "--system", "clockworx", "--trait", "A=1", "--trait", "B=1",
              "--trait", "C=1")
    assert ran.status == 2 and "file needs a name, like kris.toml" in ran.error
    assert "--name" not in ran.error


# ---------------------------------------------------------------- one campaign, one journal


def keep_then_fail(char: str, bag: str, cwd: Path) -> None:
    """A white kept, then a failed draw: the failure luck spend may turn."""
    assert cwx("bag", "draw", "-c", char, "-b", bag, "-C", "red", "--drawn", "white",
               "--drawn", "red", "--keep-white", cwd=cwd).status == 0
    assert cwx("bag", "draw", "-c", char, "-b", bag, "-C", "red", "--drawn", "blue",
               cwd=cwd).status == 0


def test_outside_a_campaign_luck_asks_for_a_bag_outside_the_journals_folder(
        tmp_path: Path) -> None:
    # A journal is input: outside a campaign it is followed only within its own folder,
    # so the player names the draw's bag, and a bag of the same name elsewhere is not it.
    (tmp_path / "chars").mkdir()
    (tmp_path / "bags").mkdir()
    assert cwx("bag", "new", tmp_path / "bags" / "b.toml").status == 0
    assert cwx("char", "new", tmp_path / "chars" / "sue.toml", "--system", "colorwheel",
               *SUE).status == 0
    keep_then_fail("chars/sue.toml", "bags/b.toml", tmp_path)
    (tmp_path / "chars" / "bags").mkdir()  # a bag of the same name where it must not go
    assert cwx("bag", "new", tmp_path / "chars" / "bags" / "b.toml").status == 0
    asked = cwx("luck", "spend", "-c", "chars/sue.toml", cwd=tmp_path)
    assert asked.status == 2 and asked.error.startswith("cwx: error: bags/b.toml: the bag the "
                                                        "last draw came from is outside")
    assert cwx("luck", "spend", "-c", "chars/sue.toml", "-b", "bags/b.toml",
               cwd=tmp_path).status == 0
    reserve = tomllib.loads((tmp_path / "bags" / "b.toml").read_text())["reserve"]
    assert reserve["white"] == 10  # kept one, then spent it back
    assert tomllib.loads((tmp_path / "chars" / "bags" / "b.toml").read_text()) \
        ["reserve"]["white"] == 10


def test_a_bag_of_another_campaign_is_refused(table: Path, tmp_path: Path) -> None:
    assert cwx("init", tmp_path / "other").status == 0
    ran = cwx("bag", "draw", "-c", "sue", "-b", "../other/bag.toml", "-C", "red", "--drawn",
              "white", "--drawn", "red", "--keep-white", cwd=table)
    assert ran.status == 2 and "stays inside one campaign" in ran.error
    assert cwx("check", tmp_path / "other").status == 0 and cwx("check", table).status == 0


def test_a_campaign_inside_another_is_its_own(table: Path) -> None:
    assert cwx("init", table / "side").status == 0  # journals its making in its own journal
    assert cwx("char", "new", table / "side" / "nina.toml", "--system", "clockworx",
               "--name", "Nina", "--trait", "A=4", "--trait", "B=4", "--trait", "C=4").status == 0
    assert cwx("check", cwd=table / "side").status == 0
    ran = cwx("check", cwd=table)
    assert ran.status == 0, ran.stdout
    party = cwx("party", "-j", cwd=table).json
    assert "Nina" not in [c["name"] for c in party["characters"]]
    assert cwx("char", "show", "nina", cwd=table).status == 2  # the nearest root wins
    assert cwx("char", "show", "nina", cwd=table / "side").status == 0


def test_the_party_view_shows_what_it_can(table: Path) -> None:
    (table / "bag.toml").unlink()
    (table / "tool.toml").write_text("[tool\n")
    ran = cwx("party", cwd=table)
    assert ran.status == 0 and "Sue · Color Wheel" in ran.stdout
    assert "tool.toml" in ran.stderr and "bag.toml: no such file" in ran.stderr
    assert str(table) not in ran.stderr  # named from here, as every other message


@pytest.mark.parametrize(("args", "said"), [
    (["bag", "draw", "-c", ".", "-C", "red"], "is a folder"),
    (["bag", "draw", "-c", "sue", "-b", "bg.toml", "-C", "red"], "did you mean 'bag.toml'"),
    (["clock", "verify", "--commitment", "ab", "--target", 3, "--nonce"],
     "see 'cwx clock verify --help'"),
])
def test_what_a_player_mistyped_is_said_plainly(table: Path, args: list[object],
                                                said: str) -> None:
    ran = cwx(*args, cwd=table)
    assert ran.status == 2 and said in ran.error


def test_a_name_typed_in_either_unicode_form_is_found(table: Path) -> None:
    import unicodedata

    composed = unicodedata.normalize("NFC", "Zoë Ærø")
    assert cwx("char", "new", table / "zoe.toml", "--system", "clockworx", "--name", composed,
               "-t", f"{composed}'s Knife=4", "-t", "B=4", "-t", "C=4").status == 0
    decomposed = unicodedata.normalize("NFD", composed)
    assert decomposed != composed
    ran = cwx("odds", "clock", "-c", decomposed, "-t", f"{decomposed}'s knife", "-j", cwd=table)
    assert ran.status == 0, ran.error


def test_bag_show_takes_the_campaigns_bag(table: Path) -> None:
    ran = cwx("bag", "show", "-j", cwd=table / "party")
    assert ran.status == 0 and ran.json["reserve"]["white"] == 10


def test_a_link_into_a_campaign_inside_this_one_is_refused(table: Path) -> None:
    assert cwx("init", table / "side").status == 0
    (table / "sidebag.toml").symlink_to(table / "side" / "bag.toml")
    ran = cwx("bag", "draw", "-c", "sue", "-b", "sidebag.toml", "-C", "red", "--drawn",
              "white", "--drawn", "red", "--keep-white", cwd=table)
    assert ran.status == 2 and "stays inside one campaign" in ran.error
    assert cwx("check", cwd=table).status == 0


def test_a_file_reached_through_a_link_is_one_file_to_the_ledger(table: Path) -> None:
    (table / "bags").mkdir()
    assert cwx("bag", "new", table / "bags" / "b2.toml").status == 0
    (table / "link.toml").symlink_to(Path("bags") / "b2.toml")
    assert cwx("bag", "draw", "-c", "sue", "-b", "link.toml", "-C", "red", "--drawn", "white",
               "--drawn", "red", "--keep-white", cwd=table).status == 0
    ran = cwx("check", cwd=table)
    assert ran.status == 0, ran.stdout
    assert journal_names(table)[-1] == "bags/b2.toml"


def journal_names(folder: Path) -> list[str]:
    from tests.helpers import journal

    return [event["bag"] for event in journal(folder) if event.get("bag")]


def test_bag_show_outside_a_campaign_asks_for_the_file(tmp_path: Path) -> None:
    ran = cwx("bag", "show", cwd=tmp_path)
    assert ran.status == 2 and "say which bag as FILE" in ran.error


def test_a_players_folder_named_like_the_character_still_finds_them(table: Path) -> None:
    (table / "zed").mkdir()
    assert cwx("char", "new", table / "zed" / "zed.toml", "--system", "clockworx",
               "-t", "A=4", "-t", "B=4", "-t", "C=4").status == 0
    ran = cwx("char", "show", "zed", "-j", cwd=table)
    assert ran.status == 0 and ran.json["name"] == "zed"
    ran = cwx("char", "show", "party", cwd=table)
    assert ran.status == 2 and "is a folder" in ran.error


# ---------------------------------------------------------------- the third review


def test_a_character_reached_through_a_link_answers_to_its_name_once(table: Path) -> None:
    (table / "sub").mkdir()
    (table / "sub" / "s.toml").symlink_to("../sue.toml")
    ran = cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "red", "-j", cwd=table)
    assert ran.status == 0, ran.error
    from_sub = cwx("char", "show", "sue", cwd=table / "sub")
    assert from_sub.status == 0 and "Sue" in from_sub.stdout


def test_a_number_sealed_from_a_subfolder_is_kept_at_the_campaigns_root(table: Path) -> None:
    gm = table / "gm"
    gm.mkdir()
    assert cwx("clock", "pick", "--seal", "-T", 4, cwd=gm).status == 0
    assert (table / ".cwx-sealed.json").exists() and not (gm / ".cwx-sealed.json").exists()
    ran = cwx("clock", "resolve", "--sealed", "-g", 4, "-t", "Repair", "-c", "kris", "-j",
              cwd=table)
    assert ran.status == 0 and ran.json["target"] == 4
    assert cwx("clock", "reveal", "-j", cwd=gm).json["target"] == 4


def test_outside_a_campaign_the_number_is_sealed_where_the_gm_is(tmp_path: Path) -> None:
    assert cwx("clock", "pick", "--seal", cwd=tmp_path).status == 0
    assert (tmp_path / ".cwx-sealed.json").exists()
    missing = cwx("clock", "reveal", cwd=tmp_path / "..")
    assert missing.status == 2 and "cwx: error: .cwx-sealed.json: no sealed number" in missing.error


def test_a_suggested_file_keeps_its_folder_and_its_kind(table: Path) -> None:
    (table / "bags").mkdir()
    assert cwx("bag", "new", table / "bags" / "b2.toml").status == 0
    ran = cwx("bag", "show", "bags/b.toml", cwd=table)
    assert ran.status == 2 and "did you mean 'bags/b2.toml'?" in ran.error
    not_a_character = cwx("char", "show", "bags/b2.tom", cwd=table)
    assert not_a_character.status == 2 and "did you mean" not in not_a_character.error
    not_a_bag = cwx("bag", "show", "seu.toml", cwd=table)
    assert not_a_bag.status == 2 and "did you mean" not in not_a_bag.error
    elsewhere = cwx("char", "show", "hero.toml", cwd=table)  # not 'grizzled', the other kind
    assert elsewhere.status == 2 and "did you mean" not in elsewhere.error


def test_outside_a_campaign_a_name_without_toml_is_offered_the_file(campaign: Path) -> None:
    ran = cwx("char", "show", "sue", cwd=campaign)
    assert ran.status == 2 and "did you mean 'sue.toml'?" in ran.error


def test_check_from_a_subfolder_says_commands_that_work_there(table: Path) -> None:
    sue = table / "sue.toml"
    sue.write_text(sue.read_text().replace("white = 0", "white = 1"))
    ran = cwx("check", "..", cwd=table / "party")
    assert ran.status == 1 and "`cwx adopt ../sue.toml` with the file the die came from (or " \
        "with --supply if the GM gave it)" in ran.stdout
    assert ran.stdout.startswith("../journal.jsonl: W9")
    assert cwx("adopt", "../sue.toml", "--supply", cwd=table / "party").status == 0


def test_luck_says_when_the_bag_of_the_draw_is_gone(table: Path) -> None:
    assert cwx("bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "red", cwd=table).status == 0
    (table / "bag.toml").rename(table / "sack.toml")
    ran = cwx("luck", "spend", "-c", "sue", cwd=table)
    assert ran.status == 2 and "the bag the last draw came from is gone" in ran.error
    assert "--bag" in ran.error
    assert "the bag the last draw came from" in cwx("luck", "spend", "--help").stdout


def test_the_start_of_a_longer_trait_name_is_offered(tmp_path: Path) -> None:
    assert cwx("char", "new", tmp_path / "k.toml", "--system", "clockworx",
               "-t", "Knife Fighting=4", "-t", "B=4", "-t", "C=4").status == 0
    ran = cwx("odds", "clock", "-c", "k.toml", "-t", "Knife", cwd=tmp_path)
    assert ran.status == 2 and "did you mean 'Knife Fighting'?" in ran.error


def test_one_character_named_twice_is_shown_once(table: Path) -> None:
    ran = cwx("party", "sue", "sue.toml", "-j", cwd=table)
    assert ran.status == 0 and [c["name"] for c in ran.json["characters"]] == ["Sue"]


def test_paint_after_the_command_says_where_it_goes() -> None:
    ran = cwx("clock", "resolve", "-T", 1, "-g", 1, "--paint", "always")
    assert ran.status == 2
    assert "goes before the command: cwx --paint always clock resolve" in ran.error


def test_a_name_with_a_control_character_is_refused(tmp_path: Path) -> None:
    ran = cwx("char", "new", tmp_path / "a.toml", "--system", "clockworx", "--name", "a\tb",
              "-t", "A=4", "-t", "B=4", "-t", "C=4")
    assert ran.status == 2 and "control characters (\\t)" in ran.error
    assert not (tmp_path / "a.toml").exists()


def test_the_party_view_leaves_out_a_sheet_the_rules_refuse(table: Path) -> None:
    kris = table / "party" / "grizzled.toml"
    kris.write_text(kris.read_text().replace("Tough = 5", "Tough = 9"))
    ran = cwx("party", "-j", cwd=table)
    assert ran.status == 0 and [c["name"] for c in ran.json["characters"]] == ["Sue"]
    assert "grizzled.toml" in ran.error and "left out" in ran.error


# ---------------------------------------------------------------- the sweep of the README


def test_init_says_to_set_up_git_and_a_broken_file_is_named_by_its_name(
        tmp_path: Path) -> None:
    ran = cwx("init", tmp_path / "c")
    assert ran.status == 0 and "git init && cwx git setup" in ran.stdout
    kris = saga(tmp_path / "s", kris="kris.toml") / "kris.toml"
    kris.write_text(kris.read_text() + "xp = = 3\n")
    broken = cwx("char", "show", "kris", cwd=kris.parent)
    assert broken.status == 2 and "kris.toml:" in broken.error and "not valid TOML" in \
        broken.error


def test_check_counts_a_file_with_a_problem_once(tmp_path: Path) -> None:
    folder = saga(tmp_path / "s")
    shutil.copy(EXAMPLES / "mara.toml", folder / "mara.toml")
    ran = cwx("check", "-j", cwd=folder)
    assert ran.status == 1 and "mara.toml" not in [v["file"] for v in ran.json["valid"]]
    assert ran.json["checked"] == len(ran.json["valid"]) + 1


def test_log_names_every_file_a_change_touched(table: Path) -> None:
    assert cwx("bag", "draw", "-c", "sue", "-C", "red", "--drawn", "white", "--drawn", "red",
               "--keep-white", cwd=table).status == 0
    ran = cwx("log", "--last", 1, cwd=table)
    assert "luck.white +1, bag.toml reserve.white -1" in ran.stdout
