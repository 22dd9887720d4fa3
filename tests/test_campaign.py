"""cwx/campaign/folder.py: the campaign found from a folder, its settings, its files, and names in it."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from types import FrameType

import pytest

from cwx.base.errors import BadFile, BadValue, CwxError
from cwx.campaign.folder import SETTINGS, Campaign, Member, files_under, root_above

SETTINGS_TEXT = '# the root\n[campaign]\nname = "Saga"\nbag = "bag.toml"\n'
BAG = "[bag]\nred = 1\nwhite = 1\n\n[reserve]\nwhite = 10\n"


def clock(name: str) -> str:
    return f'name = "{name}"\nsystem = "clockworx"\n[traits]\nA = 1\nB = 1\nC = 1\n'


def wheel(name: str) -> str:
    return (f'name = "{name}"\nsystem = "colorwheel"\n[traits]\nred = ["a"]\nyellow = ["b"]\n'
            'blue = ["c"]\norange = ["d"]\ngreen = ["e"]\npurple = ["f"]\n')


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.fixture
def saga(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A campaign of two characters and a bag, the current folder at its root."""
    root = write(tmp_path / "saga", {SETTINGS: SETTINGS_TEXT, "bag.toml": BAG,
                                     "sue.toml": wheel("Sue"), "pcs/kris.toml": clock("Kris")})
    monkeypatch.chdir(root)
    return root


# ---------------------------------------------------------------- finding it


def test_around_a_file_or_a_folder_finds_the_root_above(saga: Path) -> None:
    for path, folder in [("pcs/kris.toml", "pcs"), ("pcs", "pcs"), ("sue.toml", "."),
                         (".", ".")]:
        camp = Campaign.around(path)
        assert (camp.folder, camp.root) == (folder, str(saga))
        assert camp.journal_file == str(saga / "journal.jsonl")


def test_outside_any_campaign_there_is_no_root_and_the_files_folder_journals(
        tmp_path: Path) -> None:
    write(tmp_path, {"loose/kris.toml": clock("Kris")})
    camp = Campaign.around(str(tmp_path / "loose" / "kris.toml"))
    assert camp.root is None and camp.real is None
    assert camp.journal_file == str(tmp_path / "loose" / "journal.jsonl")
    with pytest.raises(BadFile, match="is not inside a campaign") as refused:
        camp.settings()
    assert refused.value.path == str(tmp_path / "loose")


def test_the_nearest_root_wins(saga: Path) -> None:
    write(saga, {"side/campaign.toml": "[campaign]\n", "side/deep/x.toml": clock("X")})
    assert root_above(str(saga / "side" / "deep")) == str(saga / "side")
    assert root_above(str(saga / "pcs")) == str(saga)


def test_of_a_file_is_the_same_campaign_or_the_one_it_is_in(saga: Path,
                                                            tmp_path: Path) -> None:
    write(saga, {"side/campaign.toml": "[campaign]\n", "side/x.toml": clock("X")})
    write(tmp_path, {"elsewhere/y.toml": clock("Y")})
    camp = Campaign.around(".")
    assert camp.of("pcs/kris.toml") is camp
    nested = camp.of("side/x.toml")
    assert nested is not camp and nested.root == str(saga / "side")
    outside = camp.of(str(tmp_path / "elsewhere" / "y.toml"))
    assert outside.root is None and outside.folder == str(tmp_path / "elsewhere")


def test_a_folders_root_is_asked_once(saga: Path) -> None:
    camp = Campaign.around(".")
    (saga / "later").mkdir()
    assert camp.root_of("later") == str(saga)
    (saga / "later" / SETTINGS).write_text("[campaign]\n")
    assert camp.root_of("later") == str(saga)  # as found the first time
    assert Campaign.around(".").root_of("later") == str(saga / "later")


# ---------------------------------------------------------------- settings


def test_settings_name_the_default_bag(saga: Path) -> None:
    assert Campaign.around("pcs").settings() == (str(saga), "bag.toml", False, None, None)


@pytest.mark.parametrize("text", ["", "# nothing\n", "[campaign]\nname = 'x'\n"])
def test_settings_without_a_bag_name_none(saga: Path, text: str) -> None:
    (saga / SETTINGS).write_text(text)
    assert Campaign.around(".").settings().bag is None


@pytest.mark.parametrize(("text", "line", "key", "said"), [
    ("# a comment\ncampaign = 5\n", 2, "campaign", "campaign must be a table"),
    ('[campaign]\nname = "x"\n\nbag = ""\n', 4, "campaign.bag", "bag must name"),
    ("[campaign]\nbag = 3\n", 2, "campaign.bag", "bag must name"),
    ('[campaign]\nbag = "a\\u0000b"\n', 2, "campaign.bag", "bag must name"),
    ("[campaign\n", 1, None, "is not valid TOML"),
])
def test_bad_settings_are_named_at_their_file_and_line(saga: Path, text: str, line: int,
                                                       key: str | None, said: str) -> None:
    (saga / SETTINGS).write_text(text)
    with pytest.raises(BadFile) as refused:
        Campaign.around("pcs").settings()
    error = refused.value
    assert (error.path, error.line, error.key) == (str(saga / SETTINGS), line, key)
    assert str(error).startswith(f"{saga / SETTINGS}:{line}") and said in error.message


# ---------------------------------------------------------------- its files


def test_members_are_its_character_and_bag_files_named_from_here(saga: Path) -> None:
    members = Campaign.around(".").members()
    assert [(m.path, m.kind) for m in members] == [
        ("bag.toml", "bag"), ("sue.toml", "character"), ("pcs/kris.toml", "character")]
    assert members[1].data["name"] == "Sue"


def test_members_leave_out_what_is_not_the_campaigns(saga: Path, tmp_path: Path) -> None:
    write(saga, {"pyproject.toml": "[tool.x]\ny = 1\n",  # TOML, but not cwx's
                 ".hidden/ghost.toml": clock("Ghost"), "pcs/.secret.toml": clock("Secret"),
                 "side/campaign.toml": "[campaign]\n", "side/npc.toml": clock("Npc")})
    (saga / "sue-again.toml").symlink_to(saga / "sue.toml")
    members = Campaign.around(".").members()
    assert sorted(os.path.realpath(m.path) for m in members) == sorted(
        str(saga / name) for name in ("bag.toml", "pcs/kris.toml", "sue.toml"))
    # A link out of the campaign is no member, and never passed by unsaid: as check does,
    # the campaign's files name it (an error, or told).
    write(tmp_path, {"away/far.toml": clock("Far")})
    (saga / "far.toml").symlink_to(tmp_path / "away" / "far.toml")
    with pytest.raises(BadFile, match=r"leads to .* outside"):
        Campaign.around(".").members()
    told: list[CwxError] = []
    assert len(Campaign.around(".").members(told.append)) == 3
    assert [error.path for error in told] == ["far.toml"]


def test_a_member_that_cannot_be_read_is_an_error_or_told(saga: Path) -> None:
    (saga / "broken.toml").write_text("name = \n")
    with pytest.raises(BadFile, match="is not valid TOML") as refused:
        Campaign.around(".").members()
    assert refused.value.path == "broken.toml"
    told: list[CwxError] = []
    members = Campaign.around(".").members(told.append)
    assert [error.path for error in told] == ["broken.toml"]
    assert [m.path for m in members] == ["bag.toml", "sue.toml", "pcs/kris.toml"]


def test_members_are_read_once(saga: Path) -> None:
    camp = Campaign.around(".")
    first = camp.members()
    (saga / "mara.toml").write_text(clock("Mara"))
    assert camp.members() is first and len(first) == 3


# ---------------------------------------------------------------- a character by its name


def test_an_existing_path_is_the_character(saga: Path) -> None:
    assert Campaign.around(".").character("pcs/kris.toml") == "pcs/kris.toml"


@pytest.mark.parametrize(("value", "path"), [
    ("sue", "sue.toml"), ("SUE", "sue.toml"), ("Sue.TOML", "sue.toml"), ("kris", "pcs/kris.toml")])
def test_a_name_is_a_file_of_that_name_anywhere_in_the_campaign(saga: Path, value: str,
                                                                 path: str) -> None:
    assert Campaign.around(".").character(value) == path


def test_a_file_name_wins_over_a_name_key(saga: Path) -> None:
    write(saga, {"ann.toml": clock("Bea"), "bea.toml": clock("Ann"), "pc1.toml": clock("Zed")})
    camp = Campaign.around(".")
    assert camp.character("ann") == "ann.toml"
    assert camp.character("bea") == "bea.toml"
    assert camp.character("zed") == "pc1.toml"  # no file of that name: the `name` key


def test_two_files_of_one_name_are_an_error_naming_both(saga: Path) -> None:
    write(saga, {"npcs/kris.toml": clock("Other Kris")})
    with pytest.raises(BadValue) as refused:
        Campaign.around(".").character("kris")
    assert refused.value.message == ("kris: two characters answer to that name, npcs/kris.toml "
                                     "and pcs/kris.toml; give the file")


def test_two_characters_of_one_name_are_an_error_naming_both(saga: Path) -> None:
    write(saga, {"x.toml": clock("Zed"), "y.toml": wheel("zed")})
    with pytest.raises(BadValue, match=re.escape(
            "two characters answer to that name, x.toml and y.toml")):
        Campaign.around(".").character("Zed")


def test_a_file_and_a_link_to_it_are_one_character(saga: Path) -> None:
    (saga / "pcs" / "alias").mkdir()
    (saga / "pcs" / "alias" / "sue.toml").symlink_to(saga / "sue.toml")
    assert Campaign.around(".").character("sue") == "sue.toml"


def test_a_name_no_character_answers_to_is_an_error_with_a_suggestion(saga: Path) -> None:
    with pytest.raises(BadValue, match="no character of that name") as refused:
        Campaign.around(".").character("kriss")
    assert "Kris" in refused.value.message  # the near name suggested


def test_outside_a_campaign_a_name_is_only_a_path(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, {"kris.toml": clock("Kris")})
    monkeypatch.chdir(tmp_path)
    assert Campaign.around(".").character("kris.toml") == "kris.toml"
    with pytest.raises(BadFile, match="no such file") as refused:
        Campaign.around(".").character("Kris")
    assert refused.value.path == "Kris"


def test_a_folder_is_no_character(saga: Path) -> None:
    with pytest.raises(BadFile, match="is a folder; give a character's file"):
        Campaign.around(".").character("pcs/")
    with pytest.raises(BadFile, match="is a folder, and no character of the campaign has"):
        Campaign.around(".").character("pcs")


def test_a_folders_name_is_a_characters_when_one_answers_to_it(saga: Path) -> None:
    write(saga, {"npcs/pcs.toml": clock("Pcs")})
    assert Campaign.around(".").character("pcs") == "npcs/pcs.toml"


# ---------------------------------------------------------------- the bag


def test_the_bag_left_out_is_the_settings_default_named_from_here(saga: Path,
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   ) -> None:
    write(saga, {"other-bag.toml": BAG})
    monkeypatch.chdir(saga / "pcs")
    assert Campaign.around(".").bag(None) == "../bag.toml"


def test_without_a_default_the_only_bag_is_the_bag(saga: Path) -> None:
    (saga / SETTINGS).write_text("[campaign]\n")
    os.rename(saga / "bag.toml", saga / "pcs" / "sack.toml")
    assert Campaign.around(".").bag(None) == "pcs/sack.toml"


@pytest.mark.parametrize(("bags", "said"), [
    ([], "the campaign has no bags; say which with --bag"),
    (["a.toml", "b.toml"], "the campaign has 2 bags: a.toml, b.toml; say which with --bag")])
def test_without_a_default_no_bag_or_two_are_an_error(saga: Path, bags: list[str],
                                                      said: str) -> None:
    (saga / SETTINGS).write_text("[campaign]\n")
    (saga / "bag.toml").unlink()
    write(saga, dict.fromkeys(bags, BAG))
    with pytest.raises(BadValue) as refused:
        Campaign.around(".").bag(None)
    assert refused.value.message.startswith(said)


def test_a_bag_given_is_taken_as_it_is_named(saga: Path) -> None:
    camp = Campaign.around(".")
    assert camp.bag("./bag.toml") == "./bag.toml"
    with pytest.raises(BadFile, match="is a folder"):
        camp.bag("pcs")
    with pytest.raises(BadFile, match="no such file") as refused:
        camp.bag("bga.toml")
    assert "bag.toml" in refused.value.message and refused.value.path == "bga.toml"


def test_outside_a_campaign_a_bag_must_be_given(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, {"bag.toml": BAG})
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BadValue, match="say which bag with --bag"):
        Campaign.around(".").bag(None)


# ---------------------------------------------------------------- files under a folder


def test_files_under_skip_hidden_files_and_folders_and_find_journals(saga: Path) -> None:
    write(saga, {".git/x.toml": "", ".hidden/journal.jsonl": "", "pcs/.cwx-tmp.toml": "",
                 "journal.jsonl": "", "pcs/notes.txt": ""})
    found = files_under(["."])
    assert found.tomls == ["bag.toml", SETTINGS, "sue.toml", "pcs/kris.toml"]
    assert found.journals == ["journal.jsonl"]
    assert found.folders == [".", "./pcs"]


def test_files_under_a_file_are_that_file(saga: Path) -> None:
    found = files_under(["sue.toml", "pcs/journal.jsonl"])
    assert (found.tomls, found.journals, found.folders) == (["sue.toml"],
                                                            ["pcs/journal.jsonl"], [])


def test_a_nested_campaign_is_left_out_only_when_asked(saga: Path) -> None:
    write(saga, {"side/campaign.toml": "[campaign]\n", "side/npc.toml": clock("Npc")})
    assert "side/npc.toml" in files_under(["."]).tomls
    assert not any(p.startswith("side") for p in files_under(["."], nested=False).tomls)


def test_a_link_to_a_folder_is_not_followed(saga: Path) -> None:
    (saga / "loop").symlink_to(saga)
    assert files_under(["."]).tomls == ["bag.toml", SETTINGS, "sue.toml", "pcs/kris.toml"]


def test_a_folder_deeper_than_pythons_recursion_limit_is_read(tmp_path: Path) -> None:
    # Deeper than the limit in force, lowered to keep the tree small: a tree deeper than
    # the default limit is one pytest's own clean-up (shutil.rmtree, recursive) cannot remove.
    depth = 300
    deep = tmp_path.joinpath(*["d"] * depth)
    deep.mkdir(parents=True)
    (deep / "deep.toml").write_text(clock("Deep"))
    used = 0
    up: FrameType | None = sys._getframe()  # count the frames this test runs on
    while up is not None:
        used, up = used + 1, up.f_back
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(used + depth // 2)
    try:
        found = files_under([str(tmp_path)], nested=False)
    finally:
        sys.setrecursionlimit(limit)
    assert found.tomls == [str(deep / "deep.toml")]
    assert len(found.folders) == depth + 1


def test_a_member_record_holds_what_was_read(saga: Path) -> None:
    member = Campaign.around(".").members()[0]
    assert member == Member("bag.toml", "bag", {"bag": {"red": 1, "white": 1},
                                                "reserve": {"white": 10}})
