"""One JSON shape per command (#22), published: docs/json/<command words>.schema.json
describes each command's --json output, and every command's real output, in every shape
a session gives it, is valid against its schema.

The schemas are made from the types of the results (`make schemas`, scripts/schemas.py):
a file that differs from what its type makes fails here, as does a shape no command
gives (extra keys, a key missing, a value out of its range)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.helpers import ROOT, SUE, cwx

FOLDER = ROOT / "docs" / "json"


def _made() -> dict[str, dict[str, Any]]:
    """The schemas scripts/schemas.py makes from the result types, by file name."""
    spec = importlib.util.spec_from_file_location("schemas", ROOT / "scripts" / "schemas.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    made: dict[str, dict[str, Any]] = script.schemas()
    return made


MADE = _made()


def _play(folder: Path) -> dict[str, list[Any]]:
    """A session touching every command with --json: each command's outputs, by name."""
    outputs: dict[str, list[Any]] = {}
    here = folder / "camp"

    def run(name: str, *args: object, cwd: Path = here, ok: tuple[int, ...] = (0,)) -> None:
        ran = cwx(*args, "--json", cwd=cwd, env={"CWX_PLAYER": "Pat"})
        assert ran.status in ok, (args, ran.stderr)
        outputs.setdefault(name, []).append(json.loads(ran.stdout))

    subprocess.run(["git", "init", "--quiet", "--bare", "-b", "main", str(folder / "o.git")],
                   check=True)
    subprocess.run(["git", "clone", "--quiet", str(folder / "o.git"), str(here)], check=True,
                   capture_output=True)
    run("init", "init", here, cwd=folder)
    run("char-new", "char", "new", "sue.toml", "--system", "colorwheel", "--name", "Sue", *SUE)
    run("char-new", "char", "new", "kris.toml", "--system", "clockworx", "--trait", "Repair=4",
        "--trait", "Run=4", "--trait", "Lie=4")
    run("char-new", "char", "new", "zed.toml", "--system", "clockworx", "--trait", "Swim=1",
        "--trait", "Run=1", "--trait", "Lie=1", "--dry-run")
    run("char-show", "char", "show", "kris")
    run("char-show", "char", "show", "sue")
    run("party", "party")
    run("party", "party", "kris")
    run("bag-new", "bag", "new", "bag2.toml")
    run("bag-show", "bag", "show", "bag.toml")
    for _ in range(3):
        run("bag-draw", "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white",
            "--drawn", "blue", "--keep-white")
    run("wheel-buy", "wheel", "buy", "-c", "sue", "-C", "red", "-t", "Mighty")
    run("bag-draw", "bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white", "--drawn",
        "blue", "--keep-white")
    run("bag-draw", "bag", "draw", "-c", "sue", "-C", "red", "--drawn", "yellow")
    run("luck-spend", "luck", "spend", "-c", "sue")
    run("bag-draw", "bag", "draw", "-c", "sue", "-C", "red", "--drawn", "black", "--drawn",
        "red", "--keep-black")
    run("luck-curse", "luck", "curse", "-c", "sue")
    run("game-end", "game", "end", "-c", "sue")
    run("game-end", "game", "end", "-c", "sue")  # nothing to settle
    run("clock-pick", "clock", "pick", "--seed", 3)
    run("clock-pick", "clock", "pick", "--seal", "--target", 4)
    run("clock-resolve", "clock", "resolve", "-T", 4, "-g", 3, "-t", "Repair", "-c", "kris")
    run("clock-resolve", "clock", "resolve", "-T", 4, "-g", 3, "--score", 2)
    run("clock-resolve", "clock", "resolve", "-T", 4, "-g", 9)  # untrained
    run("clock-reveal", "clock", "reveal")
    run("clock-verify", "clock", "verify")
    proof = outputs["clock-reveal"][0]
    run("clock-verify", "clock", "verify", "--commitment", proof["commitment"], "-T",
        proof["target"], "--nonce", proof["nonce"])
    for _ in range(3):
        run("clock-resolve", "clock", "resolve", "-T", 4, "-g", 4, "-t", "Repair", "-c", "kris")
    run("xp-spend", "xp", "spend", "-c", "kris", "--new", "Climb")
    run("odds-clock", "odds", "clock", "--score", 3)
    run("odds-clock", "odds", "clock", "--all")
    run("odds-wheel", "odds", "wheel", "-C", "red")
    run("odds-wheel", "odds", "wheel", "--all", "--keep-white")
    run("audit", "audit")
    run("audit", "audit", "--all-draws")
    run("log", "log", "--last", 3)
    run("check", "check")
    (here / "kris.toml").write_text((here / "kris.toml").read_text().replace("Lie = 4",
                                                                            "Lie = 5"))
    run("check", "check", ok=(1,))
    run("reconcile", "reconcile", "--dry-run")
    run("adopt", "adopt", "kris.toml", "--dry-run")
    run("adopt", "adopt", "kris.toml")
    run("reconcile", "reconcile")
    run("undo", "undo", "--dry-run")
    run("undo", "undo")
    run("undo", "undo", "--redo")
    run("retire", "retire", "bag2.toml", "--dry-run")
    run("retire", "retire", "bag2.toml")
    run("recap", "recap")
    run("git-setup", "git", "setup")
    run("sync", "sync")
    run("clock-pick", "clock", "pick", "--seal", "--target", 9)
    run("sync", "sync")
    other = folder / "other"
    subprocess.run(["git", "clone", "--quiet", str(folder / "o.git"), str(other)], check=True,
                   capture_output=True)
    run("clock-resolve", "clock", "resolve", "--sealed", "-g", 9, "-t", "Run", "-c", "kris",
        cwd=other)
    run("sync", "sync", cwd=other)
    run("sync", "sync")
    run("clock-reveal", "clock", "reveal")
    run("xp-history", "xp", "history", "kris")
    run("xp-history", "xp", "history", "sue")  # no experience: no change
    return outputs


def _outside_git(folder: Path) -> dict[str, list[Any]]:
    """Out of git, from nothing: each listing command with 0, 1 and 2 items."""
    outputs: dict[str, list[Any]] = {}
    here = folder / "camp"

    def run(name: str, *args: object, cwd: Path = here) -> None:
        ran = cwx(*args, "--json", cwd=cwd, env={"CWX_PLAYER": "Pat"})
        assert ran.status == 0, (args, ran.stderr)
        outputs.setdefault(name, []).append(json.loads(ran.stdout))

    for name in ("log", "recap", "check", "audit", "clock-verify"):  # no campaign, nothing
        run(name, *name.split("-"), cwd=folder)
    run("init", "init", folder / "dry", "--dry-run", cwd=folder)
    run("init", "init", here, cwd=folder)
    for name in ("party", "check", "recap", "reconcile"):  # a campaign of no one yet
        run(name, name)
    run("clock-pick", "clock", "pick", "--seal")  # the seal's own file, outside git
    run("clock-pick", "clock", "pick")
    run("char-new", "char", "new", "sue.toml", "--system", "colorwheel", "--name", "Sue", *SUE)
    run("party", "party")
    run("log", "log", "--last", 1)
    run("log", "log", "--last", 2)
    run("char-new", "char", "new", "kris.toml", "--system", "clockworx", "--trait", "Repair=4",
        "--trait", "Run=4", "--trait", "Lie=4")
    for name in ("party", "check", "recap", "log"):
        run(name, name)
    run("party", "party", "kris")
    return outputs


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Any]]:
    folder = tmp_path_factory.mktemp("json")
    old = {name: os.environ.get(name) for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL",
                                                   "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
                                                   "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")}
    os.environ.update({"GIT_AUTHOR_NAME": "Pat", "GIT_AUTHOR_EMAIL": "p@x",
                       "GIT_COMMITTER_NAME": "Pat", "GIT_COMMITTER_EMAIL": "p@x",
                       "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"})
    try:
        found = _play(folder)
        for name, samples in _outside_git(tmp_path_factory.mktemp("nogit")).items():
            found.setdefault(name, []).extend(samples)
    finally:
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return found


def test_every_command_with_json_has_a_schema(outputs: dict[str, list[Any]]) -> None:
    published = {path.name.removesuffix(".schema.json") for path in FOLDER.glob("*.json")}
    assert set(outputs) == published == set(MADE), sorted(published ^ set(outputs))
    dry = {name for name, samples in outputs.items() for out in samples if "dry_run" in out}
    assert dry == {"adopt", "char-new", "init", "reconcile", "retire", "undo"}
    assert {"bag-draw", "party", "check", "sync", "recap", "clock-resolve"} <= published


def test_every_output_is_valid_against_its_schema(outputs: dict[str, list[Any]]) -> None:
    for name, samples in outputs.items():
        schema = json.loads((FOLDER / f"{name}.schema.json").read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)  # the schema checked once
        for sample in samples:
            validator.validate(sample)


def test_one_shape_in_and_out_of_git_with_none_one_or_two(
        outputs: dict[str, list[Any]]) -> None:
    # The same keys wherever a command runs: what is not there is null, or an empty list.
    assert [init["git"] is None for init in outputs["init"]] == [False, True, True]
    assert {len(party["characters"]) for party in outputs["party"]} == {0, 1, 2}
    assert {len(log["events"]) for log in outputs["log"]} >= {0, 1, 2}
    assert {check["supply"] is None for check in outputs["check"]} == {False, True}
    picks = outputs["clock-pick"]
    assert {(pick["target"] is None, pick["commitment"] is None) for pick in picks} == \
        {(True, False), (False, True)}
    for name in ("init", "party", "check", "clock-pick", "log"):
        shapes = {tuple(sorted(out)) for out in outputs[name] if "dry_run" not in out}
        assert len(shapes) == 1, name


def test_a_schema_catches_a_shape_that_is_not_its_commands() -> None:
    schema = json.loads((FOLDER / "bag-draw.schema.json").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"color": "red"}, schema)  # the keys scripts rely on, missing


def test_every_schema_is_made_from_its_result_type() -> None:
    published = {path.name.removesuffix(".schema.json"): json.loads(path.read_text())
                 for path in FOLDER.glob("*.schema.json")}
    stale = sorted(name for name, schema in MADE.items() if published.get(name) != schema)
    assert stale == [], f"run `make schemas`: docs/json/ differs from the result types: {stale}"


def _valid(name: str, sample: object) -> bool:
    return bool(jsonschema.Draft202012Validator(MADE[name]).is_valid(sample))


@pytest.mark.parametrize(("name", "sample"), [
    # An empty name, no system, a trait of no score, negative experience, a key too many.
    ("char-show", {"name": "", "system": "chess", "traits": {"Swim": "banana"}, "xp": -5,
                   "extra": 1}),
    ("char-show", {"name": "Kris", "system": "clockworx", "traits": {"Swim": 7}, "xp": 0}),
    ("char-show", {"name": "Kris", "system": "clockworx", "traits": {"Swim": 3}}),
    ("char-show", {"name": "Sue", "system": "colorwheel", "traits": {"pink": ["Swim"]},
                   "luck": {"white": 0, "black": 0}}),
    ("bag-draw", {"color": "blue", "draws": ["white", "pink"], "success": True,
                  "cancelled": False, "white_spent": False, "luck": {"white": 1, "black": 0},
                  "bag": {"red": 1, "yellow": 1, "blue": 1, "white": 1, "black": 1}}),
    ("xp-spend", {"trait": "Climb", "score": 1, "cost": 12, "xp_total": -3}),
    # No outcome and no pending guess: a guess off the clock, and nothing else.
    ("clock-resolve", {"guess": 99, "score": None, "trait": None}),
    ("clock-resolve", {"pending": True, "commitment": "ab", "guess": 13, "trait": None,
                       "score": None}),
    ("clock-resolve", {"pending": False, "commitment": "ab", "guess": 3, "trait": None,
                       "score": None}),
    ("clock-pick", {"target": None, "commitment": None}),
    ("check", {"ok": True, "checked": -1, "campaign": None, "valid": [], "skipped": [],
               "problems": [], "supply": None, "pending": []}),
    ("odds-wheel", {"odds": [{"color": "pink"}]}),
])
def test_a_shape_no_command_gives_is_invalid(name: str, sample: object) -> None:
    assert not _valid(name, sample)


def test_a_sheet_schema_names_no_trait_of_any_character() -> None:
    # Trait names are the player's: the schema gives their values' type, never their names.
    text = json.dumps(MADE["char-show"])
    assert "Swim" not in text and "Repair" not in text and '"properties": {}' not in text
    assert _valid("char-show", {"name": "Kris", "system": "clockworx",
                                "traits": {"Swim": 3, "Any name": 6}, "xp": 0})


def test_every_command_that_prints_json_is_published() -> None:
    # From the command line itself: a new command with --json has a result type to publish.
    from cwx.cli import lazy, toolkit
    from cwx.cli.app import COMMANDS, app

    root: Any = toolkit.build(app)
    taking = set()
    for name in lazy.commands(COMMANDS):
        command = root.get_command(None, name)
        subs = command.list_commands(None) if hasattr(command, "list_commands") else [None]
        for sub in subs:
            one = command.get_command(None, sub) if sub else command
            if any("--json" in getattr(param, "opts", ()) for param in one.params):
                taking.add(f"{name}-{sub}" if sub else name)
    taking.discard("play")  # a scene prints its lines' own results
    assert taking == set(MADE), sorted(taking ^ set(MADE))


def test_what_a_hostile_journal_says_is_still_valid(tmp_path: Path) -> None:
    # A clone's lines are its word: an id of one letter, a stamp without milliseconds, a
    # seal of no hexadecimal commitment, a reveal of anything, a key of a later version.
    here = tmp_path / "camp"
    assert cwx("init", here).status == 0
    lines = [{"v": 2, "id": "x", "at": "2026-01-01T00:00:00Z", "command": "clock pick --seal",
              "who": None, "file": None, "bag": None, "result": {"commitment": "zz"},
              "changes": []}]
    outputs: list[tuple[str, Any]] = []

    def run(name: str, *args: object) -> None:
        ran = cwx(*args, "--json", cwd=here, env={"CWX_PLAYER": "Pat"})
        assert ran.status in (0, 1), (args, ran.stderr)
        outputs.append((name, json.loads(ran.stdout)))

    def say(*more: dict[str, Any]) -> None:
        with (here / "journal.jsonl").open("a") as journal:
            journal.writelines(json.dumps(line) + "\n" for line in more)

    say(*lines)
    run("clock-resolve", "clock", "resolve", "--sealed", "-g", 3)
    say({"v": 2, "id": "", "at": "2026-01-01T00:00:01Z", "command": "clock reveal",
         "who": None, "file": None, "bag": None, "changes": [], "later": "kept",
         "result": {"target": "seven", "nonce": 5, "commitment": "zz"}})
    for name in ("log", "recap", "check", "clock-verify"):
        run(name, *name.split("-"))
    assert outputs[0][1]["commitment"] == "zz"
    assert {event.get("later") for event in outputs[1][1]["events"]} == {None, "kept"}
    for name, sample in outputs:
        assert _valid(name, sample), (name, sample)


def test_a_logged_event_has_the_journal_envelope_keys() -> None:
    # log --json prints events as journal/lines.py writes them (Event.to_json): a field
    # added to the journal is added to the Logged type, and so to log's schema.
    from cwx.journal import lines as journal
    from cwx.journal.results import Change, Logged

    assert set(Logged.__annotations__) == journal._ENVELOPE
    edit = journal.Edit("a.toml", "xp", 1, 2, correction=True)
    made = journal.Edit("b.toml", None, None, None, created=True, text="x = 1\n")
    event = journal.new("xp spend", [edit, made], who="Kris", file="a.toml",
                        result={"cost": 1}, player="Pat")
    assert _valid("log", {"events": [event.to_json()]})
    assert set(Change.__annotations__) >= {key for change in event.to_json()["changes"]
                                           for key in change}
