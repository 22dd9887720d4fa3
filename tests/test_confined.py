"""A campaign from a clone is hostile input (#27): a scene acts only inside the campaign it
is played in, --force replaces only a cwx file of its kind, and nothing is read through
a link that leaves the campaign."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import cwx, cwx_process, journal, saga

CLOCKWORX = ["--system", "clockworx", "-t", "A=4", "-t", "B=4", "-t", "C=4"]


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A campaign beside a home folder with its shell's start-up file, and another
    campaign's folder."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("echo mine\n")
    return saga(tmp_path / "camp")


def _refused(folder: Path, line: str) -> str:
    """The error a scene of the one line gives, having written nothing."""
    before = sorted(os.listdir(folder)), (folder / "journal.jsonl").read_bytes()
    script = folder / "scene.cwx"
    script.write_text(f"# a scene from a clone\n{line}\n")
    ran = cwx("play", script, cwd=folder)
    script.unlink()
    assert ran.status == 2, (line, ran.stdout, ran.stderr)
    assert (sorted(os.listdir(folder)), (folder / "journal.jsonl").read_bytes()) == before
    return ran.error


def test_a_scene_writes_nothing_outside_its_campaign(table: Path, tmp_path: Path) -> None:
    bashrc = tmp_path / "home" / ".bashrc"
    (table / "out").symlink_to(tmp_path / "home")
    (table / "rc.toml").symlink_to(bashrc)
    for line in (f'char new {bashrc} --system clockworx -t "$(touch {tmp_path}/PWNED)=3" '
                 "-t B=3 -t C=3 --force",
                 f"char new ../home/x.toml {' '.join(CLOCKWORX)}",
                 f"--paint never char new -- ../x.toml {' '.join(CLOCKWORX)}",
                 f"char new out/.bashrc {' '.join(CLOCKWORX)} --force",
                 "bag new out/bag.toml", "init ../other", "init --force ../home",
                 "adopt sue.toml ../home/.bashrc", "check ..",
                 "draw -c ../home/.bashrc -C red --drawn red", "draw -c sue -b out/b.toml -C red",
                 "char show rc", "party sue rc", "clock pick --campaign ..", "reconcile ../home"):
        said = _refused(table, line)
        assert said.startswith("cwx: scene.cwx:2: ") and "outside the campaign at" in said, said
    assert bashrc.read_text() == "echo mine\n" and not (tmp_path / "PWNED").exists()
    assert not (tmp_path / "other").exists() and not (tmp_path / "home" / "x.toml").exists()
    assert "a home folder (~)" in _refused(table, f"char new ~/x.toml {' '.join(CLOCKWORX)}")
    assert "git's to run" in _refused(table, f"git merge a b c {bashrc}")
    assert "git's to run" in _refused(table, "git hook post-merge")
    assert "never a scene's" in _refused(table, "git setup .")  # hooks above the campaign


def test_a_scene_outside_any_campaign_acts_only_in_its_own_folder(tmp_path: Path) -> None:
    folder = tmp_path / "table"
    folder.mkdir()
    (folder / "scene.cwx").write_text(f"init camp\nchar new camp/kris.toml {' '.join(CLOCKWORX)}\n"
                                      f"char new ../kris.toml {' '.join(CLOCKWORX)}\n")
    ran = cwx("play", "scene.cwx", cwd=folder)
    assert ran.status == 2 and ran.error.startswith("cwx: scene.cwx:3: ../kris.toml is ")
    assert (folder / "camp" / "kris.toml").exists() and not (tmp_path / "kris.toml").exists()


def test_a_scene_plays_on_inside_its_campaign(table: Path) -> None:
    (table / "pcs").mkdir()
    script = table / "scene.cwx"
    script.write_text(f"char new kris.toml {' '.join(CLOCKWORX)}\n"  # played from pcs/
                      "resolve -T 4 -g 3 -c kris -t A\nchar show ../sue.toml\ncheck ..\n")
    ran = cwx("play", script, cwd=table / "pcs")
    assert ran.status == 0, ran.stderr
    assert [e["command"] for e in journal(table)][-2:] == ["char new", "clock resolve"]


def test_init_in_a_scene_sets_up_no_repository_above_the_campaign(tmp_path: Path) -> None:
    import subprocess

    outer = tmp_path / "yours"
    outer.mkdir()
    subprocess.run(["git", "init", "--quiet", "-b", "main"], cwd=outer, check=True)
    config = (outer / ".git" / "config").read_text()
    (outer / "scene.cwx").write_text("init camp\n")
    ran = cwx("play", "scene.cwx", cwd=outer)
    assert ran.status == 0 and (outer / "camp" / "campaign.toml").is_file()
    assert "cwx git setup (in a shell: a scene sets up no git)" in ran.stdout
    assert (outer / ".git" / "config").read_text() == config
    assert not [name for name in os.listdir(outer / ".git" / "hooks")
                if not name.endswith(".sample")]
    # From a shell, init in git sets the clone up, as ever.
    assert cwx("init", "other", cwd=outer).status == 0
    assert '[merge "cwx"]' in (outer / ".git" / "config").read_text()


def test_force_replaces_only_a_cwx_file_of_its_kind(table: Path, tmp_path: Path) -> None:
    bashrc = tmp_path / "home" / ".bashrc"
    (table / "notes.toml").write_text('title = "Session one"\n')
    for args, path, kind in (
            (("char", "new", bashrc, *CLOCKWORX), bashrc, "character"),
            (("char", "new", bashrc, *CLOCKWORX, "--dry-run"), bashrc, "character"),
            (("char", "new", "notes.toml", *CLOCKWORX), "notes.toml", "character"),
            (("char", "new", "bag.toml", *CLOCKWORX), "bag.toml", "character"),
            (("bag", "new", "sue.toml"), "sue.toml", "bag"),
            (("bag", "new", bashrc), bashrc, "bag")):
        ran = cwx(*args, "--force", cwd=table)
        assert ran.status == 2 and ran.error == f"cwx: error: {path}: is not a cwx {kind}; move " \
            "it away yourself if you mean to replace it", ran.stderr
    assert bashrc.read_text() == "echo mine\n"
    assert (table / "notes.toml").read_text() == 'title = "Session one"\n'
    assert cwx("char", "new", "kris.toml", *CLOCKWORX, cwd=table).status == 0
    assert cwx("char", "new", "kris.toml", *CLOCKWORX, "--force", cwd=table).status == 0


def test_init_force_keeps_every_file_already_there(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "README.md").write_text("mine\n")
    (home / "Makefile").write_text("all:\n")
    assert cwx("init", home, "--force").status == 0
    assert (home / "README.md").read_text() == "mine\n"
    assert (home / "Makefile").read_text() == "all:\n"


@pytest.fixture
def beside(tmp_path: Path) -> Path:
    """Another folder beside the campaign, with files a link may lead to."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (other / "environ").write_text('SECRET = "hunter2"\n')
    (other / "hostname").write_text("[bag]\nred = 1\n")
    return other


def test_check_names_a_link_out_and_never_parses_it(table: Path, beside: Path) -> None:
    (table / "x.toml").symlink_to(beside / "passwd")
    (table / "y.toml").symlink_to(beside / "environ")
    ran = cwx("check", cwd=table)
    said = ran.stdout + ran.stderr
    assert ran.status == 1 and "hunter2" not in said and "column" not in said
    for name, target in (("x.toml", "passwd"), ("y.toml", "environ")):
        assert f"{name}: leads to {beside / target}, outside {table}; cwx reads and writes " \
            "no file through a link that leaves the campaign" in said, said


def test_no_command_reads_through_a_link_out(table: Path, beside: Path) -> None:
    (table / "spy.toml").symlink_to(beside / "hostname")
    (table / "pcs").symlink_to(beside, target_is_directory=True)
    for args in (["bag", "show", "spy.toml"], ["bag", "show", "pcs/hostname"],
                 ["char", "show", "spy.toml"], ["audit", "--bag", "spy.toml"],
                 ["odds", "wheel", "-C", "red", "--bag", "spy.toml"]):
        ran = cwx(*args, cwd=table)
        assert ran.status == 2 and "leads to" in ran.error and "red" not in ran.stdout, args
    settings = table / "campaign.toml"
    settings.write_text(settings.read_text().replace('bag = "bag.toml"',
                                                     f'bag = "{beside / "hostname"}"'))
    ran = cwx("bag", "show", cwd=table)
    assert ran.status == 2 and "campaign.toml:5 [campaign.bag]: bag names " in ran.error
    assert "outside the campaign" in ran.error and not ran.stdout


def test_reconcile_says_of_a_link_out_what_check_says(table: Path, beside: Path) -> None:
    (table / "bag.toml").rename(beside / "bag.toml")
    (table / "bag.toml").symlink_to(beside / "bag.toml")
    said = f"bag.toml: leads to {beside / 'bag.toml'}, outside {table}"
    checked = cwx("check", cwd=table)
    assert checked.status == 1 and said in checked.stdout
    for args in (["reconcile", "--dry-run"], ["reconcile", "--dry-run", "--json"]):
        ran = cwx(*args, cwd=table)
        assert ran.status == 2 and said in ran.error and "Nothing to reconcile" not in \
            ran.stdout, args


def test_a_journal_that_leads_out_is_not_read(table: Path, tmp_path: Path) -> None:
    other = saga(tmp_path / "other")
    (table / "journal.jsonl").unlink()
    (table / "journal.jsonl").symlink_to(Path("..") / "other" / "journal.jsonl")
    for args in (["log"], ["recap"], ["audit"], ["check"], ["undo", "--dry-run"],
                 ["bag", "draw", "-c", "sue", "-C", "red", "--drawn", "red"]):
        ran = cwx(*args, cwd=table)
        assert ran.status == 2 and "Sue" not in ran.stdout, args
        # A change never writes the journal through any link; the others never read it.
        assert "journal.jsonl: leads to" in ran.error or "journal.jsonl: is a symbolic " \
            "link; cwx never writes the journal through a link" in ran.error, ran.error
    assert cwx("log", cwd=other).status == 0


def test_a_folder_link_into_another_campaign_leaves_this_one(table: Path,
                                                           tmp_path: Path) -> None:
    # A clone commits `oc -> ../other`, the player's own other campaign: a path through
    # it is in this campaign, as named, and leads out of it (not into a campaign of its own).
    other = saga(tmp_path / "other")
    (table / "oc").symlink_to(Path("..") / "other", target_is_directory=True)
    (table / "d").mkdir()
    (table / "d" / "up").symlink_to(Path("..") / ".." / "other", target_is_directory=True)
    before = {path.name: path.read_bytes() for path in other.iterdir() if path.is_file()}
    for folder in ("oc", "d/up"):
        for args in (["char", "show", f"{folder}/sue.toml"], ["retire", f"{folder}/sue.toml"],
                     ["char", "new", f"{folder}/x.toml", *CLOCKWORX], ["check", folder],
                     ["xp", "history", f"{folder}/sue.toml"], ["log", "-c", f"{folder}/sue.toml"]):
            ran = cwx(*args, cwd=table)
            said = ran.stdout + ran.stderr
            assert ran.status in (1, 2) and f"{folder}/" in said, (args, said)
            assert f"leads to {other}" in said and f"outside {table}" in said, (args, said)
            assert "Sue" not in ran.stdout, args
    assert {path.name: path.read_bytes() for path in other.iterdir() if path.is_file()} == \
        before
    assert cwx("char", "show", "sue.toml", cwd=other).status == 0  # there, its own campaign


def test_links_inside_the_campaign_are_followed(table: Path) -> None:
    (table / "pcs").mkdir()
    (table / "pcs" / "sue.toml").symlink_to(table / "sue.toml")
    (table / "logs").mkdir()
    (table / "journal.jsonl").rename(table / "logs" / "journal.jsonl")
    (table / "journal.jsonl").symlink_to(Path("logs") / "journal.jsonl")
    assert cwx("char", "show", "pcs/sue.toml", cwd=table).status == 0
    assert cwx("log", cwd=table).status == 0
    assert cwx("check", cwd=table).status == 0


def test_a_file_named_in_other_bytes_than_utf8_is_said_so_with_what_to_do(table: Path) -> None:
    from cwx.base.hints import NOT_UTF8

    folder = table / "d\udcff"  # the byte 0xff, as the system gives it to Python
    folder.mkdir()
    assert cwx("char", "new", "k.toml", *CLOCKWORX, cwd=table).status == 0
    (table / "k.toml").rename(folder / "k.toml")
    checked = cwx_process("check", cwd=table)  # its output as the program writes it
    assert checked.status == 1 and f"k.toml: {NOT_UTF8}" in checked.stdout
    assert "cwx adopt" not in checked.stdout + checked.stderr
    for args in (["clock", "resolve", "-T", 4, "-g", 3, "-t", "A", "-c", "k"], ["retire", "k"]):
        ran = cwx(*args, cwd=table)
        assert ran.status == 2 and ran.error.endswith(f"k.toml: {NOT_UTF8}"), ran.error
        assert "nan, inf" not in ran.error
    journal = (table / "journal.jsonl").read_bytes()
    assert b"\xff" not in journal and b"\\udcff" not in journal


def test_a_scene_played_from_outside_its_campaign_acts_inside_it(tmp_path: Path) -> None:
    # "cwx play camp/scene.cwx" from a home folder that is no campaign: the scene is
    # bound by the campaign that holds it, not by the home folder it is played from.
    home = tmp_path / "home"
    camp = saga(home / "camp")
    script = camp / "scene.cwx"
    for line in (f"char new .bash_profile {' '.join(CLOCKWORX)}",
                 f"char new camp/../.zshenv {' '.join(CLOCKWORX)}",
                 f"char new x.toml {' '.join(CLOCKWORX)}"):
        script.write_text(line + "\n")
        ran = cwx("play", "camp/scene.cwx", cwd=home)
        assert ran.status == 2 and "outside the campaign at" in ran.error, (line, ran.error)
    assert sorted(os.listdir(home)) == ["camp"]


def test_a_scene_names_no_hidden_file_nor_installs_completion(table: Path) -> None:
    for line in (f"char new .bash_profile.toml {' '.join(CLOCKWORX)}",
                 f"char new sub/.hidden/x.toml {' '.join(CLOCKWORX)}"):
        assert "no hidden file or folder" in _refused(table, line)
    for line in ("--install-completion=zsh", "--show-completion=bash", "--install-completion"):
        assert "completion is installed from the shell" in _refused(table, line)
