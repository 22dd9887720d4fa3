"""Start-up is part of the product: what a command loads is checked, so the budget
(`make bench`: a stateless command within 6x `python -c pass`) cannot quietly regress."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = {"tomlkit", "rich", "pydantic"}

STATELESS = [
    ["clock", "resolve", "--target", "4", "--guess", "3", "--score", "3"],
    ["clock", "resolve", "--target", "4", "--guess", "3", "--score", "3", "--json"],
    ["clock", "pick"],
    ["odds", "clock", "--all"],
    ["odds", "wheel", "--color", "purple", "--keep-white", "--keep-black"],
]


def loaded_by(args: list[str], cwd: Path | None = None) -> set[str]:
    """The top-level packages a real cwx process has imported once the command is done."""
    script = ("import json, sys\nfrom cwx.cli.main import run\n"
              f"status = run({args!r})\n"
              "sys.stdout.flush()\n"
              "print('\\n' + json.dumps(sorted({m.split('.')[0] for m in sys.modules})), "
              "file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=cwd, check=True)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("args", STATELESS, ids=" ".join)
def test_a_stateless_command_loads_neither_tomlkit_rich_nor_pydantic(args: list[str]) -> None:
    assert not loaded_by(args) & HEAVY


def test_experience_is_written_without_loading_tomlkit(campaign: Path) -> None:
    # Setting a number already in the file is done on the text; tomlkit is for the rest.
    loaded = loaded_by(["clock", "resolve", "--target", "4", "--guess", "3", "--trait",
                        "Repair", "--char", "kris.toml"], cwd=campaign)
    assert "tomlkit" not in loaded
    assert "xp = 2 " in (campaign / "kris.toml").read_text()


def test_a_new_trait_does_load_tomlkit(campaign: Path) -> None:
    # The control: adding a key needs tomlkit's round trip, so the check above can fail.
    assert "tomlkit" in loaded_by(["xp", "spend", "--char", "mara.toml", "--new", "Climb"],
                                  cwd=campaign)


HELLO = """\
import json, sys
import typer
app = typer.Typer()
@app.command()
def hello(name: str = "world") -> None:
    print(name)
try:
    app(["x"])
except SystemExit:
    pass
print("\\n" + json.dumps(sorted(sys.modules)), file=sys.stderr)
"""

# What a stateful resolve may load beyond a Typer hello-world (`make bench` counts what
# they cost: 1.08x its instructions). A module added here is a start-up cost agreed to.
STATEFUL_RESOLVE = {
    "cwx", "cwx.cli", "cwx.cli.app", "cwx.cli.common", "cwx.cli.face", "cwx.cli.lazy",
    "cwx.cli.main", "cwx.cli.plain", "cwx.cli.output", "cwx.cli.toolkit", "cwx.commands",
    "cwx.commands.clock",
    "cwx.base", "cwx.base.errors", "cwx.base.hints", "cwx.base.ink", "cwx.base.record",
    "cwx.base.traitnames", "cwx.toml", "cwx.toml.plaintoml", "cwx.toml.tomledit",
    "cwx.toml.tomlread", "cwx.rules", "cwx.rules.clockworx", "cwx.systems",
    "cwx.systems.clockworx", "cwx.systems.parts", "cwx.systems.sheets", "cwx.journal",
    "cwx.journal.lines", "cwx.store", "cwx.store.durable", "cwx.store.locks", "cwx.store.redo",
    "cwx.campaign", "cwx.campaign.folder", "cwx.campaign.files", "cwx.campaign.players", "cwx.git",
    "cwx.git.repo",  # the clone whose git author is the player (players.py)
    "cwx.base.posix",  # whether the system has what campaign files need
    "cwx.base.places",  # the rule of links: nothing read or written outside the campaign
    "cwx.journal.clock",  # a new event stamped no earlier than the journal's latest
    "cwx.campaign.operations", "cwx.campaign.clockplay",  # the campaign's operations, a resolve
    "pwd",  # the login name, where no LOGNAME or USER says it
    "cwx.base.digests", "_blake2",  # the redo record's mark, without OpenSSL
    "gc",  # collection paused while a command starts (cli/main.py)
}


def test_a_stateful_resolve_loads_only_what_its_budget_allows(campaign: Path) -> None:
    done = subprocess.run([sys.executable, "-c", HELLO], capture_output=True, text=True,
                          check=True)
    hello = set(json.loads(done.stderr.strip().splitlines()[-1]))
    script = ("import json, sys\nfrom cwx.cli.main import run\n"
              "run(['clock', 'resolve', '--target', '4', '--guess', '3', '--trait', 'Repair', "
              "'--char', 'kris.toml'])\n"
              "print('\\n' + json.dumps(sorted(sys.modules)), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=campaign, check=True)
    loaded = set(json.loads(done.stderr.strip().splitlines()[-1]))
    assert "xp = 2" in (campaign / "kris.toml").read_text()  # it did resolve, and save
    assert loaded - hello - STATEFUL_RESOLVE == set()


def test_a_git_hook_reads_the_texts_init_journaled_without_loading_tomllib(
        tmp_path: Path) -> None:
    # The journal holds the README, .gitignore and schemas `cwx init` made, and the ledger
    # reads every text it holds as TOML: tomllib's load was an eighth of a hook's cost.
    from tests.helpers import cwx

    subprocess.run(["git", "init", "--quiet", str(tmp_path)], check=True)
    assert cwx("init", tmp_path).status == 0
    assert "tomllib" not in loaded_by(["git", "hook", "pre-commit"], cwd=tmp_path)
    assert "tomllib" not in loaded_by(["git", "hook", "post-merge", "0"], cwd=tmp_path)


@pytest.mark.parametrize("hook", ["pre-commit", "post-commit", "post-merge"])
def test_a_git_hook_runs_without_the_command_lines_parser(campaign: Path, hook: str) -> None:
    # git starts cwx for every hook of every commit and pull, and for every file it merges:
    # Typer's import alone was half of each.
    subprocess.run(["git", "init", "--quiet"], cwd=campaign, check=True)
    loaded = loaded_by(["git", "hook", hook, *(["0"] if hook == "post-merge" else [])],
                       cwd=campaign)
    assert "cwx" in loaded and not loaded & {"typer", "click", "tomlkit"}
    # Asked for its help, or given an option, the same command goes through the parser.
    assert {"typer", "click"} <= loaded_by(["git", "hook", hook, "--help"], cwd=campaign)


# What a commit's two hooks may load of cwx: each is a process of its own, on every commit
# of every player (the suite's 1,358 hook processes were a third of its CPU). The
# post-commit hook proves the journal just committed (grows, seen, held, versions) and
# asks whether the table lists players' keys (keyring, signing, campaign.toml read);
# the pre-commit hook checks the campaign, which reads it all. A module added here is a
# cost to every commit, agreed to.
POST_COMMIT = {
    "cwx", "cwx.cli", "cwx.cli.main", "cwx.cli.hooks", "cwx.cli.plain",
    "cwx.base", "cwx.base.errors", "cwx.base.record", "cwx.base.digests", "cwx.base.places",
    "cwx.campaign", "cwx.campaign.gitsetup",
    "cwx.git", "cwx.git.repo", "cwx.git.grows", "cwx.git.seen", "cwx.git.held",
    "cwx.git.versions", "cwx.git.keyring", "cwx.git.signing",
    "cwx.journal", "cwx.journal.lines",
    "cwx.toml", "cwx.toml.tomlread", "cwx.toml.plaintoml",
}
PRE_COMMIT = POST_COMMIT | {
    "cwx.cli.report", "cwx.base.ink", "cwx.base.posix", "cwx.base.printable", "cwx.base.times",
    "cwx.base.traitnames", "cwx.campaign.checks", "cwx.campaign.folder", "cwx.campaign.gms",
    "cwx.campaign.guesses", "cwx.campaign.ruled", "cwx.campaign.seal",
    "cwx.campaign.supplying", "cwx.git.attributes", "cwx.git.gmlist", "cwx.git.unsettled",
    "cwx.journal.clock", "cwx.journal.ends", "cwx.journal.events", "cwx.journal.history",
    "cwx.journal.ledger", "cwx.journal.recent", "cwx.journal.rederive", "cwx.journal.sealed",
    "cwx.journal.story", "cwx.journal.timeline", "cwx.journal.turned", "cwx.rules",
    "cwx.rules.clockworx", "cwx.rules.colorwheel", "cwx.store", "cwx.store.redo",
    "cwx.systems", "cwx.systems.bag", "cwx.systems.clockworx", "cwx.systems.colorwheel",
    "cwx.systems.parts", "cwx.systems.sheets", "cwx.toml.tomledit",
}
# Never in a hook: the command line's parser, the TOML round trip, and typing and
# hashlib (OpenSSL), each a tenth of a hook or more (docs/design.md).
NEVER_IN_A_HOOK = {"typer", "click", "rich", "pydantic", "tomlkit", "tomllib", "typing",
                   "hashlib", "_hashlib"}


def _hook_loads(clone: Path, hook: str) -> set[str]:
    """Every module a git hook's process has imported once it is done, started as the
    hooks `cwx git setup` writes start it (python -I, cwx's own folder on the path)."""
    from tests.helpers import ROOT

    script = ("import sys\nsys.path.append(sys.argv.pop(1))\nfrom cwx.cli.main import run\n"
              f"status = run(['git', 'hook', {hook!r}])\nloaded = sorted(sys.modules)\n"
              "import json\nprint('\\n' + json.dumps([status, loaded]), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-I", "-c", script, str(ROOT)], cwd=clone,
                          capture_output=True, text=True, check=True)
    status, loaded = json.loads(done.stderr.strip().splitlines()[-1])
    assert status == 0, done.stderr
    return set(loaded)


def test_a_commits_hooks_load_only_what_they_use(tmp_path: Path) -> None:
    from tests.test_git import Table

    table = Table(tmp_path)
    _, bob = table.start()
    table.cwx(bob, "clock", "resolve", "--target", "4", "--guess", "3", "--trait", "Repair",
              "--char", "kris.toml")
    table.git(bob, "add", "-A")
    before = _hook_loads(bob, "pre-commit")
    # Committed past git's hooks, so the post-commit hook run here is the first to prove it.
    table.git(bob, "-c", f"core.hooksPath={os.devnull}", "commit", "--quiet", "-m", "a turn")
    after = _hook_loads(bob, "post-commit")
    assert any(name.startswith("journal-proven-") for name in os.listdir(bob / ".git" / "cwx"))
    for loaded, allowed in ((before, PRE_COMMIT), (after, POST_COMMIT)):
        assert loaded & NEVER_IN_A_HOOK == set()
        assert {name for name in loaded if name.split(".")[0] == "cwx"} - allowed == set()
    # The control: the check the pre-commit hook runs is what brings the rest in.
    assert "cwx.campaign.checks" in before and "cwx.campaign.checks" not in after
