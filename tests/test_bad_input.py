"""Bad input: a corpus of broken files through every command that reads them, fuzzed
files and arguments, and pathological files. Only cwx's own errors may come out."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import string
import time
from pathlib import Path

import pytest
import tomlkit
from hypothesis import given, settings
from hypothesis import strategies as st

from cwx import files
from cwx.errors import CwxError
from tests.helpers import EXAMPLES, cwx

CORPUS = Path(__file__).parent / "data" / "bad"
BAD_FILES = sorted(CORPUS.iterdir())


def test_the_corpus_has_forty_bad_files_or_more() -> None:
    assert len(BAD_FILES) >= 40


def commands_reading(bad: str, folder: Path) -> list[list[str]]:
    """Every command that reads a file of this kind, pointed at `bad`."""
    sue, bag = str(folder / "sue.toml"), str(folder / "bag.toml")
    if Path(bad).name.startswith("bag-"):
        return [
            ["bag", "show", bad],
            ["bag", "draw", "--char", sue, "--bag", bad, "--color", "red", "--drawn", "red"],
            ["luck", "curse", "--char", sue, "--bag", bad],
            ["game", "end", "--char", sue, "--bag", bad],
            ["wheel", "buy", "--char", sue, "--bag", bad, "--color", "red", "--trait", "New"],
            ["odds", "wheel", "--color", "red", "--bag", bad],
        ]
    return [
        ["char", "show", bad],
        ["clock", "resolve", "--target", "4", "--guess", "3", "--trait", "Repair", "--char", bad],
        ["clock", "resolve", "--target", "4", "--guess", "3", "--char", bad],
        ["xp", "spend", "--char", bad, "--new", "Climb"],
        ["xp", "spend", "--char", bad, "--raise", "Repair"],
        ["bag", "draw", "--char", bad, "--bag", bag, "--color", "red", "--drawn", "red"],
        ["luck", "curse", "--char", bad, "--bag", bag],
        ["game", "end", "--char", bad, "--bag", bag],
        ["wheel", "buy", "--char", bad, "--bag", bag, "--color", "red", "--trait", "New"],
    ]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("source", BAD_FILES, ids=lambda p: p.name)
def test_every_command_refuses_a_bad_file_cleanly(source: Path, campaign: Path) -> None:
    bad = campaign / source.name
    if source.is_dir():
        shutil.copytree(source, bad)
    else:
        shutil.copy(source, bad)
    before = snapshot(campaign)
    for command in commands_reading(str(bad), campaign):
        ran = cwx(*command)
        assert ran.status == 2, (command, ran)
        assert ran.stdout == ""
        line = ran.error  # exactly one stderr line, no traceback
        # It names the file, then the line or the key at fault (a folder has neither).
        place = re.match(rf"cwx: error: {re.escape(str(bad))}(:\d+)?( \[[^\]]+\])?: \S", line)
        assert place, line
        if not source.is_dir():
            assert place.group(1) or place.group(2), line
        assert snapshot(campaign) == before, command
    if not source.is_dir():
        checked = cwx("check", bad)
        assert checked.status == 2 and str(bad) in checked.stdout


# ---------------------------------------------------------------- pathological files

PATHOLOGICAL = {
    "5,000 nested brackets": "name = 'x'\nsystem = 'clockworx'\nx = " + "[" * 5000 + "]" * 5000,
    "5,000 nested inline tables": "name = 'x'\nsystem = 'clockworx'\nx = " + "{a = " * 5000
                                  + "1" + "}" * 5000,
    "a 5,000-digit integer": "name = 'x'\nsystem = 'clockworx'\nxp = " + "9" * 5000,
    "2,000 keys sharing a dotted prefix": "name = 'x'\nsystem = 'clockworx'\nxp = 20\n"
                                          + "\n".join(f"traits.t{i} = 1" for i in range(2000)),
    "a multi-megabyte file": "name = 'x'\nsystem = 'clockworx'\n" + "# padding\n" * 400_000,
    "a 5,000-digit string key": "name = 'x'\nsystem = 'clockworx'\n[traits]\n"
                                + "a" * 5000 + " = 1\nB = 1\nC = 1\n",
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_pathological_files_fail_cleanly_or_finish_within_a_second(
    name: str, tmp_path: Path
) -> None:
    path = tmp_path / "odd.toml"
    path.write_text(PATHOLOGICAL[name] + "\n")
    before = path.read_bytes()
    for command in (["char", "show", path],
                    ["clock", "resolve", "--target", 1, "--guess", 1, "--trait", "t7",
                     "--char", path],
                    ["xp", "spend", "--char", path, "--new", "Climb"]):  # through tomlkit
        start = time.perf_counter()
        ran = cwx(*command)
        took = time.perf_counter() - start
        assert took < 1.0, f"{name}: {took:.2f}s"
        assert ran.status in (0, 2), ran
        if ran.status == 2:
            assert str(path) in ran.error
            assert path.read_bytes() == before


def test_the_read_size_is_capped(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * (files.MAX_BYTES + 1))
    assert f"cwx reads files up to {files.MAX_BYTES}" in cwx("char", "show", path).error


# ---------------------------------------------------------------- fuzzing the loaders

def _load_everything(path: Path) -> None:
    """Read a file the way each command does; only CwxError may escape."""
    with contextlib.suppress(CwxError):
        files.check_file(str(path))
    for kind in (files.character_from, files.bag_from):
        with contextlib.suppress(CwxError):
            raw = files.read_bytes(str(path))
            kind(files.parse(raw, str(path)), raw, str(path))


@settings(max_examples=400)
@given(st.binary(max_size=600))
def test_random_bytes_give_only_cwx_errors(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz.toml"
    path.write_bytes(data)
    _load_everything(path)


TOML_KEYS = st.sampled_from(["name", "system", "xp", "traits", "luck", "bag", "reserve",
                             "red", "blue", "white", "black", "purple", "Repair", "A", "B", "C"])
TOML_SCALARS = st.one_of(
    st.integers(-10, 10), st.integers(min_value=-(2**70), max_value=2**70), st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
    st.sampled_from(["clockworx", "colorwheel", "gurps"]),
)
TOML_VALUES = st.recursive(
    TOML_SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(TOML_KEYS, inner, max_size=5)),
    max_leaves=20,
)


@settings(max_examples=400)
@given(st.dictionaries(TOML_KEYS, TOML_VALUES, max_size=6))
def test_random_toml_documents_give_only_cwx_errors(tmp_path: Path,
                                                    document: dict[str, object]) -> None:
    path = tmp_path / "fuzz.toml"
    try:
        text = tomlkit.dumps(document)
    except Exception:  # a document tomlkit cannot write is not a TOML file to test
        return
    path.write_text(text)
    _load_everything(path)


# ---------------------------------------------------------------- fuzzing the command line

WORDS = ["char", "new", "show", "clock", "pick", "resolve", "reveal", "verify", "xp", "spend",
         "bag", "draw", "luck", "curse", "game", "end", "wheel", "buy", "odds", "log", "check",
         "schema", "init", "--json", "--char", "--bag", "--target", "--guess", "--score",
         "--trait", "--color", "--drawn", "--seed", "--keep-white", "--keep-black",
         "--spend-white", "--exit-code", "--new", "--raise", "--system", "--force", "--all",
         "--white", "--black", "--last", "--seal", "--sealed", "--campaign", "--commitment",
         "--nonce", "--white-reserve", "--black-reserve", "kris.toml", "sue.toml",
         "bag.toml", "rick.toml", "mara.toml", "nobody.toml", "new.toml", "1", "4", "12",
         "13", "-1", "0", "red", "purple", "white", "black", "Repair", "Athletic",
         "clockworx", "colorwheel", "A=4", "red=Strong", "character", "--help", "."]
SAFE_TEXT = st.text(alphabet=string.ascii_letters + string.digits + "=._", max_size=8)


@settings(max_examples=300)
@given(st.lists(st.one_of(st.sampled_from(WORDS), SAFE_TEXT), max_size=10))
def test_random_command_lines_give_only_cwx_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    folder = tmp_path / "fuzz"
    if not folder.exists():
        shutil.copytree(EXAMPLES, folder)
    monkeypatch.chdir(folder)
    # CWX_DEBUG: any exception but cwx's own errors and usage errors propagates here.
    ran = cwx(*args)
    assert ran.status in (0, 1, 2), ran
    assert "Traceback" not in ran.stderr
    if ran.status == 2 and "--help" not in args:
        assert ran.stderr.startswith("cwx: error: ") and len(ran.stderr.splitlines()) == 1


def test_a_change_leaves_no_temporary_file_or_redo_record(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    shutil.copytree(EXAMPLES, folder)
    cwx("bag", "draw", "--char", folder / "sue.toml", "--bag", folder / "bag.toml",
        "--color", "red", "--drawn", "white", "--drawn", "red", "--keep-white")
    assert not [n for n in os.listdir(folder) if "cwx" in n]
