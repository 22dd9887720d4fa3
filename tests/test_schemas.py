"""The JSON Schemas (cwx/systems/schemas.py) against `cwx check`: the same verdict on every file
of the bad-input corpus and every example, except rules JSON Schema cannot state; and
the `#:schema` line that points a new file at them."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from cwx.rules import colorwheel
from cwx.systems.schemas import schemas
from tests.helpers import EXAMPLES, cwx

CORPUS = Path(__file__).parent / "data" / "bad"
FILES = [p for p in sorted(CORPUS.iterdir()) if p.is_file()]  # a folder is no file to judge
FILES += sorted(EXAMPLES.glob("*.toml"))

# The corpus files whose rule JSON Schema cannot state, and why. The test below asserts
# these are exactly the files on which the schema and `cwx check` disagree.
CANNOT_SAY = {
    # A schema checks each property name against patterns, never against the other
    # names, so "unique ignoring case" is beyond it (C1, D3).
    "char-duplicate-trait-ignoring-case.toml": "trait names unique ignoring case",
    "wheel-duplicate-name.toml": "trait names unique ignoring case, across colours",
    # TOML's 3.0 reaches a schema as the JSON number 3.0, which every draft since 6 calls
    # an integer. The bag's schema is draft 4 and refuses it (bag-float-count.toml); the
    # character's needs the later drafts' if/then to say its system's rules at the key.
    "char-score-whole-float.toml": "a whole number written as a float, in a character",
    # Limits on the work of reading a file: a schema describes values, not the parser.
    "char-nested-101-deep.toml": "tables and arrays nested more than 64 deep",
    "char-many-three-part-keys.toml": "more than 64 dotted keys of three parts",
}


def kind_of(path: Path) -> str:
    """Which schema a file is meant for: the corpus names say, and the example bag."""
    return "bag" if path.name.startswith("bag") else "character"


def validator(kind: str) -> Any:
    schema = schemas()[kind]()
    return jsonschema.validators.validator_for(schema)(schema)


@contextmanager
def long_numbers() -> Iterator[None]:
    # The corpus has 5,000-digit numbers: tomllib reads them, and jsonschema writes them
    # into its messages, only past Python's limit on converting long numbers.
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(limit)


def schema_errors(path: Path) -> list[str] | None:
    """The schema's errors on a file as `tomllib` reads it; None for a file that is not
    TOML at all (an editor reports that before any schema)."""
    with long_numbers():
        try:
            data = tomllib.loads(path.read_bytes().decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
            return None
        return [error.message for error in validator(kind_of(path)).iter_errors(data)]


def check_verdict(path: Path, folder: Path) -> str:
    """What `cwx check FILE` says of a copy of the file: valid, invalid or skipped."""
    copy = folder / path.name
    shutil.copy(path, copy)
    ran = cwx("check", copy, "--json")
    assert ran.status in (0, 1), ran.stderr
    result = ran.json
    if result["skipped"]:
        return "skipped"
    return "valid" if result["ok"] else "invalid"


def agree(verdict: str, errors: list[str] | None, kind: str) -> bool:
    if verdict == "valid":
        return errors == []
    if verdict == "invalid":
        return errors is None or errors != []
    # Skipped: TOML that is not cwx's. The schema, which a file names only when it means
    # to be cwx's, says the one key it lacks.
    return errors == [f"'{'system' if kind == 'character' else 'bag'}' is a required property"]


def test_the_schemas_and_check_agree_on_the_corpus_and_the_examples(tmp_path: Path) -> None:
    verdicts = {path.name: (check_verdict(path, tmp_path), schema_errors(path)) for path in FILES}
    disagree = {name for name, (verdict, errors) in verdicts.items()
                if not agree(verdict, errors, kind_of(CORPUS / name))}
    assert disagree == set(CANNOT_SAY), {n: verdicts[n] for n in disagree ^ set(CANNOT_SAY)}
    # Every verdict is there: the examples are valid, and the corpus has files cwx
    # skips, files that are not TOML, and files only the schema's rules refuse.
    seen = {verdict for verdict, _ in verdicts.values()}
    assert seen == {"valid", "invalid", "skipped"}
    assert any(errors is None for _, errors in verdicts.values())
    assert all(verdicts[path.name][0] == "valid" for path in EXAMPLES.glob("*.toml"))


def test_a_file_without_a_system_gets_one_error_for_it() -> None:
    check = validator("character")
    for traits in ({"A": 3, "B": 3, "C": 3}, {"red": 1}, {}, "junk"):
        errors = [e.message for e in check.iter_errors({"name": "Kris", "traits": traits})]
        assert errors == ["'system' is a required property"]
    assert [e.message for e in check.iter_errors({"system": "dnd", "traits": {}})] == [
        "'dnd' is not one of ['clockworx', 'colorwheel']"]


WHEEL = {"system": "colorwheel", "traits": {c: [c.title()] for c in colorwheel.COLOURS}}


@pytest.mark.parametrize("colours", [
    {"red": "Red"}, {"red": "RED", "purple": "Purple", "green": "gReEn"},
], ids=str)
def test_a_colour_in_any_case_is_valid_to_both(colours: dict[str, str],
                                               tmp_path: Path) -> None:
    traits = {colours.get(c, c): names for c, names in WHEEL["traits"].items()}
    lines = ['system = "colorwheel"', "[traits]"]
    lines += [f'{key} = ["{names[0]}"]' for key, names in traits.items()]
    sue = tmp_path / "made" / "sue.toml"
    sue.parent.mkdir()
    sue.write_text("\n".join(lines) + "\n")
    assert check_verdict(sue, tmp_path) == "valid"
    assert schema_errors(sue) == []


@pytest.mark.parametrize("traits", [
    {**WHEEL["traits"], "RED": ["Mighty"]},  # a colour twice
    {k: v for k, v in WHEEL["traits"].items() if k != "blue"},  # one missing
    {**WHEEL["traits"], "teal": ["Calm"]},  # not a colour
    {**{k: v for k, v in WHEEL["traits"].items() if k != "red"}, "Red ": ["Strong"]},
], ids=["twice", "missing", "teal", "space"])
def test_the_colours_are_each_there_once(traits: dict[str, list[str]]) -> None:
    assert list(validator("character").iter_errors({**WHEEL, "traits": traits}))


def test_no_other_character_folds_into_part_of_a_colour() -> None:
    # Why an ASCII pattern like [rR][eE][dD] matches what cwx's casefold() matches: no
    # character beyond ASCII folds into any piece of a colour's name (ﬂ folds to fl,
    # ẘ to w and a ring: none is a piece).
    pieces = {colour[i:j] for colour in colorwheel.COLOURS
              for i in range(len(colour)) for j in range(i + 1, len(colour) + 1)}
    assert not [chr(c) for c in range(128, sys.maxunicode + 1) if chr(c).casefold() in pieces]


# ---------------------------------------------------------------- the #:schema line


def test_a_file_made_in_a_campaigns_subfolder_points_at_the_schemas_at_its_root(
        tmp_path: Path) -> None:
    root = tmp_path / "saga"
    assert cwx("init", root).status == 0
    (root / "party" / "old").mkdir(parents=True)
    made = {
        root / "party" / "old" / "ana.toml": ["char", "new", "--system", "clockworx",
                                              "--trait", "A=3", "--trait", "B=3", "--trait",
                                              "C=3"],
        root / "party" / "bag2.toml": ["bag", "new"],
    }
    for path, (group, command, *options) in made.items():
        assert cwx(group, command, path, *options).status == 0
    ana = (root / "party" / "old" / "ana.toml").read_text().splitlines()[0]
    bag = (root / "party" / "bag2.toml").read_text().splitlines()[0]
    assert ana == "#:schema ../../character.schema.json"
    assert bag == "#:schema ../bag.schema.json"
    target = root / "party" / "old" / ana.removeprefix("#:schema ")
    assert target.resolve() == (root / "character.schema.json").resolve()


def test_a_file_outside_any_campaign_gets_no_schema_line(tmp_path: Path) -> None:
    assert cwx("bag", "new", tmp_path / "bag.toml").status == 0
    assert not (tmp_path / "bag.toml").read_text().startswith("#:schema")


def test_a_schema_in_the_files_own_folder_comes_first(tmp_path: Path) -> None:
    root = tmp_path / "saga"
    cwx("init", root)
    (root / "party").mkdir()
    shutil.copy(root / "bag.schema.json", root / "party" / "bag.schema.json")
    cwx("bag", "new", root / "party" / "bag2.toml")
    assert (root / "party" / "bag2.toml").read_text().startswith("#:schema ./bag.schema.json\n")


# ---------------------------------------------------------------- taplo, where installed


@pytest.mark.skipif(shutil.which("taplo") is None, reason="taplo is not installed")
def test_taplo_gives_the_same_verdicts_as_jsonschema(tmp_path: Path) -> None:
    # Taplo (Even Better TOML) is what players' editors run. It reads TOML itself, and
    # reads an integer beyond 64 bits (which TOML forbids) as 0, a count schemas accept.
    taplo_reads_otherwise = {"bag-count-past-64-bits.toml", "char-xp-5000-digits.toml",
                             "wheel-luck-hex-huge.toml"}
    for kind in schemas():
        (tmp_path / f"{kind}.schema.json").write_text(cwx("schema", kind).stdout)
    differ = set()
    for path in FILES:
        errors = schema_errors(path)
        if errors is None:
            continue  # not TOML: taplo says so, as cwx does
        copy = tmp_path / path.name
        copy.write_bytes(f"#:schema ./{kind_of(path)}.schema.json\n".encode() + path.read_bytes())
        done = subprocess.run(["taplo", "check", copy.name], cwd=tmp_path, capture_output=True)
        if (done.returncode == 0) != (errors == []):
            differ.add(path.name)
    assert differ == taplo_reads_otherwise
