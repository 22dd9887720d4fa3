"""Signed turns (SPEC 9.2): campaign.toml lists the players' SSH public keys, `cwx sync`
signs with git's own SSH signing, and `cwx check --signed` names each journal line that
did not arrive in a commit signed by its player's key. Real keys made with ssh-keygen,
real git: a bare origin and the players' clones; one prepared table copied for each test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import cwx, once
from tests.test_git import Table

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None,
                                reason="ssh-keygen (OpenSSH) is not installed")
PLAYERS = ("alice", "bob", "mallory")


def _env(folder: Path) -> dict[str, str]:
    return {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(folder),
            "GIT_AUTHOR_NAME": "Player", "GIT_AUTHOR_EMAIL": "p@table",
            "GIT_COMMITTER_NAME": "Player", "GIT_COMMITTER_EMAIL": "p@table"}


def as_player(folder: Path, name: str) -> dict[str, str]:
    """Who plays at a clone: the player's name, and the private key of theirs to sign with."""
    return {"CWX_PLAYER": name.capitalize(), "CWX_SIGNING_KEY": str(folder / "keys" / name)}


def public(folder: Path, name: str) -> str:
    return (folder / "keys" / f"{name}.pub").read_text().strip()


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Alice starts a campaign that lists her key and Bob's, and syncs; Bob clones it,
    plays a turn and syncs. Mallory's clone is plain."""
    folder = tmp_path_factory.mktemp("signed")
    with pytest.MonkeyPatch.context() as patch:
        for variable, value in _env(folder).items():
            patch.setenv(variable, value)
        once("a signed table", folder, ["keys", "origin.git", *PLAYERS], lambda: _prepare(folder))
    yield folder


def _prepare(folder: Path) -> None:
    """The table `prepared` copies (built once a run: tests/helpers.py's `once`)."""
    (folder / "keys").mkdir()
    for name in PLAYERS:
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f",
                        str(folder / "keys" / name)], check=True)
    table = Table(folder)
    alice = table.clone("alice")
    assert cwx("init", ".", cwd=alice, env=as_player(folder, "alice")).status == 0
    settings_file = alice / "campaign.toml"  # Alice is the GM
    settings_file.write_text(settings_file.read_text().replace(
        "[campaign]\n", '[campaign]\ngm = ["Alice"]\n'))
    with open(alice / "campaign.toml", "a") as settings:
        settings.write(f'\n[keys]\nAlice = "{public(folder, "alice")}"\n'
                       f'Bob = "{public(folder, "bob")}"\n')
    assert cwx("char", "new", "kris.toml", "--system", "clockworx", "--name", "Kris",
               "--trait", "Repair=3", "--trait", "Tough=5", "--trait", "Run=2",
               cwd=alice, env=as_player(folder, "alice")).status == 0
    synced = cwx("sync", cwd=alice, env=as_player(folder, "alice"))
    assert synced.status == 0, synced.stderr
    bob = table.clone("bob")
    assert cwx("git", "setup", cwd=bob).status == 0
    assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "repair", "-c", "kris",
               cwd=bob, env=as_player(folder, "bob")).status == 0
    synced = cwx("sync", cwd=bob, env=as_player(folder, "bob"))
    assert synced.status == 0, synced.stderr
    assert cwx("sync", cwd=alice, env=as_player(folder, "alice")).status == 0
    table.clone("mallory")


@pytest.fixture
def table(prepared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    folder = tmp_path / "t"
    shutil.copytree(prepared, folder, symlinks=True)
    for variable, value in _env(folder).items():
        monkeypatch.setenv(variable, value)
    made = Table.__new__(Table)
    made.folder = folder
    made.env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    for name in PLAYERS:
        made.git(folder / name, "remote", "set-url", "origin", str(folder / "origin.git"))
    return made


def test_turns_synced_with_keys_are_signed_and_proven(table: Table) -> None:
    for name in ("alice", "bob"):
        checked = cwx("check", "--signed", "--json", cwd=table.folder / name)
        assert checked.status == 0, checked.stdout
        lines = len((table.folder / name / "journal.jsonl").read_text().splitlines())
        assert checked.json["signed"] == {"lines": lines, "unsigned": 0}
    # Two turns at once: Alice's sync makes her commit anew on top of Bob's, signed.
    alice, bob = table.folder / "alice", table.folder / "bob"
    for clone in (bob, alice):
        name = clone.name
        assert cwx("clock", "resolve", "-T", 6, "-g", 5, "-t", "run", "-c", "kris", cwd=clone,
                   env=as_player(table.folder, name)).status == 0
    assert cwx("sync", cwd=bob, env=as_player(table.folder, "bob")).status == 0
    synced = cwx("sync", "--json", cwd=alice, env=as_player(table.folder, "alice"))
    assert synced.status == 0 and synced.json["pulled"] == 1, synced.stderr
    assert cwx("check", "--signed", cwd=alice).status == 0


def _signing(table: Table, sign_as: str | None) -> list[str]:
    return ["-c", "gpg.format=ssh", "-c", f"user.signingkey={table.folder / 'keys' / sign_as}",
            "-c", "commit.gpgsign=true"] if sign_as else []


def _forge(table: Table, *, sign_as: str | None, player: str = "Alice", who: str = "Mallory",
           mark: str = "f") -> None:
    """`who` (Mallory) appends a turn in `player`'s name (a copy of a line, its id `mark`
    repeated), commits it, signed with `sign_as`'s key or not at all, and pushes."""
    mallory = table.folder / who.lower()
    table.git(mallory, "pull", "--quiet")
    path = mallory / "journal.jsonl"
    line = json.loads(path.read_text().splitlines()[-1])
    line.update(id=mark * 16, player=player, changes=[])  # a turn that moves nothing:
    if line["command"] == "clock resolve":  # a guess the rules give nothing for (C4)
        line["result"].update(guess=10, distance=6, success=False, critical=False, xp=0)
    with open(path, "a") as journal:
        journal.write(json.dumps(line, separators=(",", ":")) + "\n")
    env = {**table.env, "GIT_AUTHOR_NAME": who, "GIT_AUTHOR_EMAIL": f"{who[0].lower()}@table"}
    for args in ((*_signing(table, sign_as), "commit", "--quiet", "--no-verify", "-am", "a turn"),
                 ("push", "--quiet")):
        subprocess.run(["git", *args], cwd=mallory, env=env, check=True)


@pytest.mark.parametrize(("sign_as", "why"), [
    (None, "unsigned (by Mallory <m@table>)"),
    ("mallory", "with a key campaign.toml does not list"),
    ("bob", "signed by Bob's key"),
])
def test_a_line_in_a_players_name_not_signed_by_their_key_is_named(
        table: Table, sign_as: str | None, why: str) -> None:
    _forge(table, sign_as=sign_as)
    alice = table.folder / "alice"
    table.git(alice, "pull", "--quiet", "--no-rebase")
    plain = cwx("check", cwd=alice)
    assert plain.status == 0  # without --signed, names are trusted
    checked = cwx("check", "--signed", cwd=alice)
    assert checked.status == 1
    # The same files, counted once each: the journal is valid no more, and one problem.
    files = plain.stdout.splitlines()[-1].partition(":")[0]
    assert checked.stdout.splitlines()[-1].startswith(files), (plain.stdout, checked.stdout)
    assert files.startswith("Checked ") and f"{files}: {int(files.split()[1]) - 1} valid, " \
        "1 problem." in checked.stdout, checked.stdout
    last = len((alice / "journal.jsonl").read_text().splitlines())
    assert f"journal.jsonl:{last}: names Alice, but arrived in commit" in checked.stdout
    assert why in checked.stdout
    assert checked.stdout.count("names ") == 1  # every other line is proven


def test_keys_are_checked_and_sync_signs_only_as_a_listed_player(table: Table) -> None:
    alice = table.folder / "alice"
    # A player with no key listed: the turn would not count as theirs; nothing committed.
    assert cwx("clock", "resolve", "-T", 4, "-g", 4, "-t", "tough", "-c", "kris",
               cwd=alice, env=as_player(table.folder, "mallory")).status == 0
    head = table.git(alice, "rev-parse", "HEAD").stdout
    refused = cwx("sync", cwd=alice, env=as_player(table.folder, "mallory"))
    assert refused.status == 2 and "none for Mallory" in refused.error
    assert table.git(alice, "rev-parse", "HEAD").stdout == head
    # No private key of the listed one: said how to give it.
    lost = cwx("sync", cwd=alice, env={"CWX_PLAYER": "Alice"})
    assert lost.status == 2 and "CWX_SIGNING_KEY" in lost.error
    # A key that is no SSH public key is a finding of check, at its line.
    settings = alice / "campaign.toml"
    settings.write_text(settings.read_text().replace('Bob = "ssh-ed25519 AAAA',
                                                     'Bob = "ssh-ed25519 BAAA'))
    checked = cwx("check", cwd=alice)
    assert checked.status == 1 and "campaign.toml:" in checked.stdout
    assert "[keys.Bob]" in checked.stdout and "is not a whole ssh-ed25519 key" in checked.stdout


def test_check_signed_cannot_run_without_keys(tmp_path: Path) -> None:
    table = Table(tmp_path)
    clone = table.clone("plain")
    assert cwx("init", ".", cwd=clone).status == 0
    ran = cwx("check", "--signed", cwd=clone)
    assert ran.status == 2 and "lists no players' keys" in ran.error


def _keys_changed(table: Table, clone: Path, name: str, key: str, *,
                  sign_as: str | None, who: str = "Mallory") -> str:
    """`name`'s key in campaign.toml set to the public key `key` (a file in keys/), in a
    commit of `who`'s signed with `sign_as`'s key (or not signed), pushed: its id."""
    table.git(clone, "pull", "--quiet", "--no-rebase")
    settings = clone / "campaign.toml"
    lines = [line for line in settings.read_text().splitlines()
             if not line.startswith(f"{name} = ")]
    settings.write_text("\n".join([*lines, f'{name} = "{public(table.folder, key)}"']) + "\n")
    env = {**table.env, "GIT_AUTHOR_NAME": who, "GIT_AUTHOR_EMAIL": f"{who[0].lower()}@table",
           "GIT_COMMITTER_NAME": who, "GIT_COMMITTER_EMAIL": f"{who[0].lower()}@table"}
    for args in ((*_signing(table, sign_as), "commit", "--quiet", "--no-verify", "-am",
                  f"{name}'s key"), ("push", "--quiet")):
        subprocess.run(["git", *args], cwd=clone, env=env, check=True, capture_output=True)
    return table.git(clone, "rev-parse", "HEAD").stdout.strip()


@pytest.mark.parametrize("sign_as", [None, "mallory", "bob"])
def test_a_players_key_taken_over_is_named_and_the_lines_forged_before_it_stay_named(
        table: Table, sign_as: str | None) -> None:
    # Mallory forges a turn in Alice's name, signed with his own key, then lists his key
    # as Alice's: both are named, whoever signed the change that is not Alice's or a GM's.
    _forge(table, sign_as="mallory")
    mallory, alice = table.folder / "mallory", table.folder / "alice"
    taken = _keys_changed(table, mallory, "Alice", "mallory", sign_as=sign_as)
    table.git(alice, "pull", "--quiet", "--no-rebase")
    assert public(table.folder, "mallory") in (alice / "campaign.toml").read_text()
    checked = cwx("check", "--signed", "--json", cwd=alice)
    assert checked.status == 1
    said = [p["message"] for p in checked.json["problems"]]
    signer = {None: "unsigned", "mallory": "signed with a key not in force before it",
              "bob": "signed by Bob's key"}[sign_as]
    assert (f"commit {taken[:12]} by Mallory <m@table> changed Alice's key in campaign.toml, "
            f"{signer}, not by Alice's own (the key before it) nor a GM's key: the change "
            "does not count") in said[0]
    assert checked.json["problems"][0]["file"].endswith("campaign.toml")
    assert "names Alice, but arrived in commit" in said[1]
    assert "with a key not in force for Alice when it arrived" in said[1]
    assert len(said) == 2 and checked.json["signed"]["unsigned"] == 1
    # Plain check names the change too, as a note (it does not count; nothing to settle):
    # the keys stay as they were, and a commit is never held up by history.
    plain = cwx("check", "--json", cwd=alice)
    assert plain.status == 0 and checked.json["keys"] == []
    assert [(k["file"].endswith("campaign.toml"), k["message"]) for k in plain.json["keys"]] \
        == [(True, said[0])]
    assert f"Note: {checked.json['problems'][0]['file']}: {said[0]}; `cwx check --signed`" \
        in cwx("check", cwd=alice).stdout
    # A turn Mallory signs as Alice after the change is named as well.
    _forge(table, sign_as="mallory")
    table.git(alice, "pull", "--quiet", "--no-rebase")
    again = cwx("check", "--signed", "--json", cwd=alice)
    assert again.json["signed"]["unsigned"] == 2


def test_a_key_replaced_by_its_player_or_lost_and_replaced_by_the_gm_counts(
        table: Table) -> None:
    for name in ("alice2", "bob2", "carol"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f",
                        str(table.folder / "keys" / name)], check=True)
    alice, bob = table.folder / "alice", table.folder / "bob"
    # Alice replaces her key in a commit her old key signs, and plays with the new one.
    _keys_changed(table, alice, "Alice", "alice2", sign_as="alice", who="Alice")
    new_alice = {"CWX_PLAYER": "Alice", "CWX_SIGNING_KEY": str(table.folder / "keys/alice2")}
    assert cwx("clock", "resolve", "-T", 6, "-g", 5, "-t", "run", "-c", "kris", cwd=alice,
               env=new_alice).status == 0
    assert cwx("sync", cwd=alice, env=new_alice).status == 0
    # Bob lost his: the GM (Alice) lists his new one, signed with her key.
    _keys_changed(table, alice, "Bob", "bob2", sign_as="alice2", who="Alice")
    # Carol, new to the table, lists her own first key, in a commit nobody signs.
    carol = table.clone("carol")
    _keys_changed(table, carol, "Carol", "carol", sign_as=None, who="Carol")
    for clone, name, key in ((bob, "Bob", "bob2"), (carol, "Carol", "carol")):
        player = {"CWX_PLAYER": name, "CWX_SIGNING_KEY": str(table.folder / "keys" / key)}
        table.git(clone, "pull", "--quiet", "--no-rebase")
        assert cwx("clock", "resolve", "-T", 4, "-g", 4, "-t", "tough", "-c", "kris",
                   cwd=clone, env=player).status == 0
        synced = cwx("sync", cwd=clone, env=player)
        assert synced.status == 0, synced.stderr
    table.git(alice, "pull", "--quiet", "--no-rebase")
    checked = cwx("check", "--signed", "--json", cwd=alice)
    assert checked.status == 0, checked.stdout
    assert checked.json["signed"]["lines"] == len((alice / "journal.jsonl").read_text()
                                                  .splitlines())
    assert cwx("check", "--json", cwd=alice).json["keys"] == []  # each change counts
    # Bob's old key signs nothing now: a turn signed with it is named.
    _forge(table, sign_as="bob", player="Bob")
    table.git(alice, "pull", "--quiet", "--no-rebase")
    assert cwx("check", "--signed", "--json", cwd=alice).json["signed"]["unsigned"] == 1


@pytest.mark.parametrize("first", ["main", "side"])
def test_first_keys_of_a_history_of_its_own_merged_in_do_not_count(
        table: Table, first: str) -> None:
    # Mallory starts a history of his own listing his key as Alice's, with a turn in her
    # name signed by it, and merges it into the table's (or the table's into it: his
    # history is then the merge's first parent).
    mallory, alice = table.folder / "mallory", table.folder / "alice"
    table.git(mallory, "pull", "--quiet")
    journal = (mallory / "journal.jsonl").read_text()
    line = json.loads(journal.splitlines()[-1])
    line.update(id="e" * 16, player="Alice", changes=[])
    forged = json.dumps(line, separators=(",", ":")) + "\n"
    env = {**table.env, "GIT_AUTHOR_NAME": "Mallory", "GIT_AUTHOR_EMAIL": "m@table",
           "GIT_COMMITTER_NAME": "Mallory", "GIT_COMMITTER_EMAIL": "m@table"}

    def git(*args: str) -> None:
        subprocess.run(["git", *_signing(table, "mallory"), *args], cwd=mallory, env=env,
                       check=True, capture_output=True)

    settings = (mallory / "campaign.toml").read_text()
    git("checkout", "--quiet", "--orphan", "side")
    git("rm", "-rfq", "--cached", ".")
    (mallory / "campaign.toml").write_text(
        f'[campaign]\nname = "x"\n\n[keys]\nAlice = "{public(table.folder, "mallory")}"\n')
    (mallory / "journal.jsonl").write_text(forged)
    git("add", "campaign.toml", "journal.jsonl")
    git("commit", "--quiet", "--no-verify", "-m", "a table")
    git("clean", "-fdq")
    git("checkout", "--quiet", "-f", first)
    subprocess.run(["git", "merge", "--quiet", "--no-commit", "--allow-unrelated-histories",
                    "side" if first == "main" else "main"], cwd=mallory, env=env,
                   capture_output=True)
    (mallory / "campaign.toml").write_text(settings.replace(public(table.folder, "alice"),
                                                            public(table.folder, "mallory")))
    (mallory / "journal.jsonl").write_text(journal + forged)
    git("add", "-A")
    git("commit", "--quiet", "--no-verify", "-m", "merged")
    git("push", "--quiet", "origin", f"{first}:main")
    table.git(alice, "pull", "--quiet", "--no-rebase")
    checked = cwx("check", "--signed", "--json", cwd=alice)
    assert checked.status == 1
    said = [p["message"] for p in checked.json["problems"]]
    assert any("as a table's first keys, beside the table's own" in m for m in said), said
    assert any("by Mallory <m@table> changed Alice's key" in m for m in said), said
    assert checked.json["signed"]["unsigned"] == 1  # the forged turn; every other proven


def test_a_first_key_for_a_name_that_played_needs_a_gm(table: Table) -> None:
    # Dave played without a key; Mallory lists his own key as Dave's: named, and Dave's
    # turns stay unproven. Carol, who never played, lists hers as she likes.
    _forge(table, sign_as=None, player="Dave")
    mallory, alice = table.folder / "mallory", table.folder / "alice"
    taken = _keys_changed(table, mallory, "Dave", "mallory", sign_as="mallory")
    _keys_changed(table, mallory, "Carol", "bob", sign_as=None)
    table.git(alice, "pull", "--quiet", "--no-rebase")
    checked = cwx("check", "--signed", "--json", cwd=alice)
    said = [p["message"] for p in checked.json["problems"]]
    assert said[0].startswith(
        f"commit {taken[:12]} by Mallory <m@table> added Dave's key in campaign.toml, signed "
        "with a key not in force before it, not by a GM's key (Dave played before it, with "
        "no key): the change does not count"), said
    assert "names Dave, but arrived in commit" in said[1]
    assert "has no key in campaign.toml in force when it arrived" in said[1]
    assert len(said) == 2


def test_keys_taken_out_of_campaign_toml_leave_the_history_signed(table: Table) -> None:
    # Mallory takes [keys] out and plays as Alice: --signed still runs, on the keys the
    # history had in force, and names both.
    mallory, alice = table.folder / "mallory", table.folder / "alice"
    table.git(mallory, "pull", "--quiet")
    settings = mallory / "campaign.toml"
    settings.write_text(settings.read_text().split("\n[keys]\n")[0] + "\n")
    table.git(mallory, "commit", "--quiet", "--no-verify", "-am", "no keys")
    table.git(mallory, "push", "--quiet")
    _forge(table, sign_as=None)
    table.git(alice, "pull", "--quiet", "--no-rebase")
    checked = cwx("check", "--signed", "--json", cwd=alice)
    assert checked.status == 1, checked.stdout
    said = [p["message"] for p in checked.json["problems"]]
    assert sum("removed" in m and "key in campaign.toml, unsigned" in m for m in said) == 2
    assert checked.json["signed"]["unsigned"] == 1


def test_a_seal_by_a_gm_a_change_no_gms_key_signed_added_is_named(table: Table) -> None:
    # Bob lists himself as a GM in a commit he signs with his own key (no GM's), and seals.
    bob, alice = table.folder / "bob", table.folder / "alice"
    table.git(bob, "pull", "--quiet", "--no-rebase")
    settings = bob / "campaign.toml"
    settings.write_text(settings.read_text().replace('gm = ["Alice"]', 'gm = ["Alice", "Bob"]'))
    line = {"v": 2, "id": "5e5e5e5e5e5e5e5e", "at": "2026-01-01T00:00:00.000Z",
            "command": "clock pick --seal", "who": None, "file": None, "bag": None,
            "result": {"commitment": "ab" * 32}, "changes": [], "player": "Bob"}
    with open(bob / "journal.jsonl", "a") as journal:
        journal.write(json.dumps(line) + "\n")
    for args in ((*_signing(table, "bob"), "commit", "--quiet", "--no-verify", "-am", "gm"),
                 ("push", "--quiet")):
        table.git(bob, *args)
    table.git(alice, "pull", "--quiet", "--no-rebase")
    checked = cwx("check", cwd=alice)
    assert checked.status == 1
    assert "clock pick --seal 5e5e5e5e is by Bob, no GM of the campaign (the GMs in force: " \
           "gm = ['Alice']" in checked.stdout, checked.stdout


def _merged(table: Table, side: str, settings: str, *, first: str = "main",
            unrelated: bool = False) -> None:
    """Mallory merges the branch `side` into main (the merge's first parent `first`),
    campaign.toml as `settings` says, the journal as main's, and pushes main."""
    mallory = table.folder / "mallory"
    env = {**table.env, "GIT_AUTHOR_NAME": "Mallory", "GIT_AUTHOR_EMAIL": "m@table",
           "GIT_COMMITTER_NAME": "Mallory", "GIT_COMMITTER_EMAIL": "m@table"}

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=mallory, env=env, check=True, capture_output=True)

    journal = table.git(mallory, "show", "main:journal.jsonl").stdout
    git("checkout", "--quiet", "-f", first)
    subprocess.run(["git", "merge", "--quiet", "--no-commit", "--no-ff",
                    *(["--allow-unrelated-histories"] if unrelated else []),
                    side if first == "main" else "main"], cwd=mallory, env=env,
                   capture_output=True)
    (mallory / "campaign.toml").write_text(settings)
    (mallory / "journal.jsonl").write_text(journal)
    git("add", "campaign.toml", "journal.jsonl")
    git("commit", "--quiet", "--no-verify", "-m", "merged")
    if first != "main":
        git("checkout", "--quiet", "-B", "main")
    git("push", "--quiet", "--force", "origin", "main")
    git("branch", "--quiet", "-D", side)


def _carol_joins(table: Table) -> tuple[str, str]:
    """Carol, new to the table, lists her first key (as written) and plays a turn signed by
    it: the commit before she joined, and her key's line in campaign.toml."""
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "carol", "-f",
                    str(table.folder / "keys" / "carol")], check=True)
    before = table.git(table.folder / "alice", "rev-parse", "HEAD").stdout.strip()
    carol = table.clone("carol")
    _keys_changed(table, carol, "Carol", "carol", sign_as=None, who="Carol")
    _forge(table, sign_as="carol", player="Carol", who="Carol", mark="c")
    return before, f'Carol = "{public(table.folder, "carol")}"'


@pytest.mark.parametrize("first", ["main", "side"])
def test_a_key_merged_from_a_branch_cut_before_its_player_joined_does_not_count(
        table: Table, first: str) -> None:
    # Finding K1: Mallory cuts a branch from before Carol joined, lists his own key as
    # Carol's there (a newcomer's, on that branch), merges it (whichever parent is first)
    # and plays as Carol, signed with his key.
    before, carols = _carol_joins(table)
    mallory, alice = table.folder / "mallory", table.folder / "alice"
    table.git(mallory, "pull", "--quiet")
    table.git(mallory, "checkout", "--quiet", "-b", "side", before)
    with open(mallory / "campaign.toml", "a") as settings_file:
        settings_file.write(f'Carol = "{public(table.folder, "mallory")}"\n')
    table.git(mallory, "commit", "--quiet", "--no-verify", "-am", "side")
    settings = table.git(mallory, "show", "main:campaign.toml").stdout
    merged = settings.replace(carols, f'Carol = "{public(table.folder, "mallory")}"')
    _merged(table, "side", merged, first=first)
    merge = table.git(mallory, "rev-parse", "main").stdout.strip()
    _forge(table, sign_as="mallory", player="Carol", mark="d")
    table.git(alice, "pull", "--quiet", "--no-rebase")
    checked = cwx("check", "--signed", "--json", cwd=alice)
    assert checked.status == 1
    said = [p["message"] for p in checked.json["problems"]]
    assert said[0].startswith(
        f"commit {merge[:12]} by Mallory <m@table> changed Carol's key in campaign.toml (a "
        "merge: against what is in force on its parent "), said
    assert "the change does not count, and turns after it are verified against Carol's key " \
        "before it. Write Carol's key in force back into campaign.toml" in said[0]
    assert "names Carol, but arrived in commit" in said[1]
    assert f"with the key commit {merge[:12]} listed for Carol, a change that did not count" \
        in said[1]
    assert len(said) == 2 and checked.json["signed"]["unsigned"] == 1
    # Carol's own next turn, signed by her key, is proven.
    _forge(table, sign_as="carol", player="Carol", who="Carol", mark="e")
    table.git(alice, "pull", "--quiet", "--no-rebase")
    again = cwx("check", "--signed", "--json", cwd=alice)
    assert again.json["signed"]["unsigned"] == 1, again.stdout


def test_a_gm_list_merged_from_a_history_without_keys_does_not_count(table: Table) -> None:
    # Finding K2: Mallory merges a history without keys that says gm = ["Mallory"] (as
    # written there), then, as that GM, lists his own key as Bob's and plays as Bob.
    mallory, alice = table.folder / "mallory", table.folder / "alice"
    table.git(mallory, "pull", "--quiet")
    settings = table.git(mallory, "show", "main:campaign.toml").stdout
    table.git(mallory, "checkout", "--quiet", "--orphan", "side")
    table.git(mallory, "rm", "-rfq", "--cached", ".")
    (mallory / "campaign.toml").write_text('[campaign]\nname = "x"\ngm = ["Mallory"]\n')
    table.git(mallory, "add", "campaign.toml")
    table.git(mallory, "commit", "--quiet", "--no-verify", "-m", "a table")
    table.git(mallory, "clean", "-fdq")
    _merged(table, "side", settings.replace('gm = ["Alice"]', 'gm = ["Mallory"]'),
            unrelated=True)
    merge = table.git(mallory, "rev-parse", "main").stdout.strip()
    taken = _keys_changed(table, mallory, "Bob", "mallory", sign_as="mallory")
    _forge(table, sign_as="mallory", player="Bob")
    table.git(alice, "pull", "--quiet", "--no-rebase")
    checked = cwx("check", "--signed", "--json", cwd=alice)
    assert checked.status == 1
    said = [p["message"] for p in checked.json["problems"]]
    assert said[0].startswith(
        f"commit {merge[:12]} by Mallory <m@table> changed the GMs (gm) in campaign.toml (a "
        "merge: against what is in force on its parent "), said
    assert said[1].startswith(
        f"commit {taken[:12]} by Mallory <m@table> changed Bob's key in campaign.toml, "
        "signed with a key not in force before it, not by Bob's own"), said
    assert "names Bob, but arrived in commit" in said[2] and "a change that did not count" \
        in said[2]
    assert len(said) == 3 and checked.json["signed"]["unsigned"] == 1
    # Bob's own next turn is proven; the GM in force is still Alice.
    _forge(table, sign_as="bob", player="Bob", who="Bob", mark="b")
    table.git(alice, "pull", "--quiet", "--no-rebase")
    again = cwx("check", "--signed", "--json", cwd=alice)
    assert again.json["signed"]["unsigned"] == 1, again.stdout


def test_sync_refuses_to_sign_when_campaign_toml_lists_another_key_for_the_player(
        table: Table) -> None:
    # Finding K2's last step: Mallory lists his key as Alice's while she plays. Her sync,
    # whose pull brings it, pushes nothing and says so; so does the next, before it signs.
    mallory, alice = table.folder / "mallory", table.folder / "alice"
    assert cwx("clock", "resolve", "-T", 6, "-g", 5, "-t", "run", "-c", "kris", cwd=alice,
               env=as_player(table.folder, "alice")).status == 0
    _keys_changed(table, mallory, "Alice", "mallory", sign_as="mallory")
    theirs = table.git(mallory, "rev-parse", "HEAD").stdout
    said = "lists another key for Alice than the one you sign with (CWX_SIGNING_KEY): if " \
        "you did not change it, someone did (`git log -p campaign.toml` says who"
    for _ in range(2):  # after the pull that brings it, then before committing anything
        refused = cwx("sync", cwd=alice, env=as_player(table.folder, "alice"))
        assert refused.status == 2 and said in refused.error, refused.stderr
        assert len(refused.error.strip().splitlines()) == 1
        assert table.git(table.folder / "origin.git", "rev-parse", "main").stdout == theirs
    head = table.git(alice, "rev-parse", "HEAD").stdout
    settings = alice / "campaign.toml"
    settings.write_text(settings.read_text().replace(public(table.folder, "mallory"),
                                                     public(table.folder, "alice")))
    synced = cwx("sync", cwd=alice, env=as_player(table.folder, "alice"))
    assert synced.status == 0, synced.stderr
    assert table.git(alice, "rev-list", "--count", f"{head.strip()}..HEAD").stdout.strip() \
        == "1"  # her key written back, in a commit of its own
    checked = cwx("check", "--signed", "--json", cwd=alice)  # Mallory's change stays named
    assert checked.json["signed"]["unsigned"] == 0 and len(checked.json["problems"]) == 1
    # With nothing to push, a sync that pulls such a change warns.
    _keys_changed(table, mallory, "Alice", "mallory", sign_as=None)
    warned = cwx("sync", cwd=alice, env=as_player(table.folder, "alice"))
    assert warned.status == 0 and f"cwx: warning: {settings}: {said}" in warned.stderr, \
        warned.stderr


@pytest.mark.parametrize(("alike", "sign_as"), [
    ("B\u043eb", None), ("B\u043eb", "alice"),
    ("Bob\u2800", None),  # K5: a braille blank after it, which prints nothing
    ("Bob\u3164", None),  # K5: a Hangul filler, a letter that prints nothing
])
def test_a_first_key_for_a_look_alike_of_a_name_at_the_table_needs_a_gm(
        table: Table, alike: str, sign_as: str | None) -> None:
    # Finding K4: Mallory lists his key as "Bоb" (a Cyrillic о), a name no line has played,
    # and plays as him: no newcomer's, named, unless the GM (Alice) signs it.
    odd = next(char for char in alike if not char.isascii())
    mallory, alice = table.folder / "mallory", table.folder / "alice"
    taken = _keys_changed(table, mallory, f'"{alike}"', "mallory", sign_as=sign_as,
                          who="Alice" if sign_as else "Mallory")
    _forge(table, sign_as="mallory", player=alike)
    table.git(alice, "pull", "--quiet", "--no-rebase")
    checked = cwx("check", "--signed", "--json", cwd=alice)
    said = [p["message"] for p in checked.json["problems"]]
    if sign_as == "alice":
        assert checked.status == 0 and said == [], said
        return
    assert checked.status == 1
    assert said[0].startswith(
        f"commit {taken[:12]} by Mallory <m@table> added {alike}'s key in campaign.toml, "
        f"unsigned, not by a GM's key ({alike} (its {odd} is U+{ord(odd):04X}) looks like "
        "Bob, a name at the table: a look-alike's first key is no newcomer's): the change "
        "does not count"), said
    assert f"names {alike}, but arrived in commit" in said[1]
    assert f"{alike} has no key in campaign.toml in force when it arrived (commit " \
        f"{taken[:12]} added it, a change that did not count" in said[1]
    assert len(said) == 2


@pytest.mark.parametrize("first", ["table", "his"])
def test_first_keys_on_a_branch_cut_before_the_tables_are_judged_at_the_merge(
        table: Table, first: str) -> None:
    # Finding K7: a campaign begun without keys. Mallory's branch, cut before the table's
    # first keys, lists his key as Alice's (and gm Mallory); the table lists its first
    # keys with Alice's turn; Mallory merges (his branch first: he merged the table's into
    # it), keeps his campaign.toml and plays as Alice, signed by his key.
    origin, keys = table.folder / "plain.git", table.folder / "keys"
    table.git(table.folder, "init", "--quiet", "--bare", "--initial-branch=main", origin.name)
    alice, mallory = table.folder / "a2", table.folder / "m2"
    table.git(table.folder, "clone", "--quiet", origin.name, alice.name)
    as_alice = {"CWX_PLAYER": "Alice"}
    assert cwx("init", ".", cwd=alice, env=as_alice).status == 0
    assert cwx("char", "new", "kris.toml", "--system", "clockworx", "--trait", "Repair=3",
               "--trait", "Tough=5", "--trait", "Run=2", cwd=alice, env=as_alice).status == 0
    table.git(alice, "add", "-A")
    table.git(alice, "commit", "--quiet", "--no-verify", "-m", "the campaign begins")
    table.git(alice, "push", "--quiet", "origin", "main")
    table.git(table.folder, "clone", "--quiet", origin.name, mallory.name)

    def listing(folder: Path, gm: str, **named: str) -> None:
        settings = folder / "campaign.toml"
        text = settings.read_text().replace("[campaign]\n", f'[campaign]\ngm = ["{gm}"]\n')
        listed = "".join(f'{name} = "{public(table.folder, key)}"\n'
                         for name, key in named.items())
        settings.write_text(f"{text}\n[keys]\n{listed}")

    env = {**table.env, "GIT_AUTHOR_NAME": "Mallory", "GIT_AUTHOR_EMAIL": "m@table",
           "GIT_COMMITTER_NAME": "Mallory", "GIT_COMMITTER_EMAIL": "m@table"}

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=mallory, env=env, check=True, capture_output=True)

    git("checkout", "--quiet", "-b", "x")
    listing(mallory, "Mallory", Alice="mallory", Mallory="mallory")
    git("commit", "--quiet", "--no-verify", "-am", "keys")
    listing(alice, "Alice", Alice="alice")
    signed = {**as_alice, "CWX_SIGNING_KEY": str(keys / "alice")}
    assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "repair", "-c", "kris",
               cwd=alice, env=signed).status == 0
    synced = cwx("sync", cwd=alice, env=signed)
    assert synced.status == 0, synced.stderr
    git("fetch", "--quiet")
    git("checkout", "--quiet", "x" if first == "his" else "main")
    if first == "table":
        git("reset", "--quiet", "--hard", "origin/main")
    subprocess.run(["git", "merge", "--quiet", "--no-commit", "--no-ff",
                    "origin/main" if first == "his" else "x"], cwd=mallory, env=env,
                   capture_output=True)
    git("checkout", "x", "--", "campaign.toml")
    git("checkout", "origin/main", "--", "journal.jsonl", "kris.toml")
    git("commit", "--quiet", "--no-verify", "-am", "merged")
    git("push", "--quiet", "origin", "HEAD:main")
    honest = len((mallory / "journal.jsonl").read_text().splitlines())
    path = mallory / "journal.jsonl"
    line = json.loads(path.read_text().splitlines()[-1])
    line.update(id="f" * 16, changes=[])  # Alice's turn copied, moving nothing
    line["result"].update(guess=10, distance=6, success=False, critical=False, xp=0)
    with open(path, "a") as journal:
        journal.write(json.dumps(line, separators=(",", ":")) + "\n")
    git(*_signing(table, "mallory"), "commit", "--quiet", "--no-verify", "-am", "a turn")
    git("push", "--quiet", "origin", "HEAD:main")
    table.git(alice, "pull", "--quiet", "--no-rebase")
    checked = cwx("check", "--signed", "--json", cwd=alice)
    assert checked.status == 1
    named = {p.get("line"): p["message"] for p in checked.json["problems"]
             if p.get("file", "").endswith("journal.jsonl")}
    assert honest not in named, named  # Alice's turn, signed by her key, is proven
    assert "names Alice, but arrived in commit" in named[honest + 1], named
    said = [p["message"] for p in checked.json["problems"]]
    assert any("lists players' keys in campaign.toml as a table's first keys, beside the "
               "table's own" in m for m in said), said
    assert any("changed the GMs (gm) in campaign.toml (a merge" in m for m in said), said
