"""The plain-TOML reader against tomllib: whatever it reads, it reads as tomllib does,
and whatever tomllib refuses, it leaves to tomllib (None)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwx.systems import templates
from cwx.toml import plaintoml, tomlread
from tests.helpers import EXAMPLES

DATA = Path(__file__).parent / "data"


def _tomllib(text: str) -> dict[str, object] | None:
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return None


def _agree(text: str) -> None:
    plain = plaintoml.loads(text)
    if plain is not None:
        assert plain == _tomllib(text), text


@pytest.mark.parametrize("path", sorted(p for p in [*DATA.rglob("*.toml"), *EXAMPLES.glob("*.toml")]
                                        if p.is_file()), ids=lambda p: p.name)
def test_every_file_of_the_corpus_is_read_as_tomllib_reads_it(path: Path) -> None:
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return
    _agree(text)


def test_the_files_cwx_writes_are_plain() -> None:
    for path in EXAMPLES.glob("*.toml"):
        assert plaintoml.loads(path.read_text()) == tomllib.loads(path.read_text()), path


@pytest.mark.parametrize("text", [
    "x = 1\r", "x = 1\ry = 2\n", "a.b = 1\n", "[a.b]\n", "[[a]]\n", 'x = "a\\"b"\n',
    "x = 1.0\n", "x = 01\n", "x = 1__0\n", "x = _1\n", "x = 1_\n", "x = 0x1\n",
    "x = 1979-05-27\n", "x = inf\n", "x = {a = 1}\n", "x = [1]\n", 'x = ["a",\n"b"]\n',
    "x = 1\nx = 2\n", "[t]\n[t]\n", "t = 1\n[t]\n", '"" = 1\n', "x = \n", "x = truex\n",
    "x = 1 2\n", "x = 'a\x01'\n", "# a\x7f\n", "x = '''a'''\n", 'x = """a"""\n',
    "x = [,]\n", '["a" "b"]\n', "= 1\n", "x = 1234567890123456789\n",
])
def test_what_is_not_plain_is_left_to_tomllib(text: str) -> None:
    assert plaintoml.loads(text) is None


_KEYS = st.sampled_from(["name", "xp", "Repair", "a-b", "1", '"two words"', '"é"', "a.b",
                         '"a\\"b"', "", "x y", "_", "traits"])
_VALUES = st.sampled_from([
    "0", "3", "-0", "+12", "1_000", "01", "1__0", "1.5", "123456789012345678",
    "1234567890123456789", "true", "false", "truex", '"Kris"', "'lit\\eral'", '"a\\tb"',
    '""', "''", '["Strong"]', '["a", "b",]', "[]", "[ 'x' , \"y\" ]", "[1]", '["a" "b"]',
    "1979-05-27", "inf", "{a = 1}", '"""x"""', "nan", "0x1f", '"é ü"', "'", '"',
])
_SPACE = st.sampled_from(["", " ", "\t", "  "])
_TAIL = st.sampled_from(["", " # note", "#x", " #\x01", " # é", "\r", " junk"])


@st.composite
def _line(draw: st.DrawFn) -> str:
    shape = draw(st.sampled_from(["pair", "pair", "pair", "header", "comment", "blank"]))
    space = draw(_SPACE)
    if shape == "pair":
        return f"{space}{draw(_KEYS)}{draw(_SPACE)}={draw(_SPACE)}{draw(_VALUES)}{draw(_TAIL)}"
    if shape == "header":
        return f"{space}[{draw(_SPACE)}{draw(_KEYS)}{draw(_SPACE)}]{draw(_TAIL)}"
    if shape == "comment":
        return space + "#" + draw(st.sampled_from(["", " a note", " é", "\x7f", " [x]"]))
    return space


@settings(max_examples=600)
@given(st.lists(_line(), max_size=8), st.sampled_from(["\n", "\r\n", ""]))
def test_generated_texts_are_read_as_tomllib_reads_them(lines: list[str], end: str) -> None:
    _agree("\n".join(lines) + end)
    _agree("\r\n".join(lines) + end)


def _refused(text: str) -> None:
    """tomlread's words for a text it refuses without tomllib are tomllib's own."""
    said = tomlread.refused_at_once(text)
    if said is not None:
        with pytest.raises(tomllib.TOMLDecodeError) as refused:
            tomllib.loads(text)
        assert said == str(refused.value), text


_JUNK = st.sampled_from(["A campaign folder", "journal.jsonl merge=union", "*.toml merge=cwx",
                         ".cwx-sealed.json", "check:", "{", '  "$schema": 1', "a.b c",
                         "a . b", "a.", 'a."b" c', "x #", "\r", "é = 1", "a\x01", ""])


@settings(max_examples=400)
@given(st.lists(st.one_of(_line(), _JUNK), max_size=6), st.sampled_from(["\n", "\r\n", ""]))
def test_a_text_refused_without_tomllib_is_refused_in_tomllibs_words(lines: list[str],
                                                                     end: str) -> None:
    _refused("\n".join(lines) + end)
    _refused("\r\n".join(lines) + end)


def test_the_texts_init_makes_that_are_not_toml_are_refused_without_tomllib() -> None:
    # The journal holds them, and every reader of the ledger reads each as TOML.
    for name, (text, _) in templates.campaign_files("c").items():
        if not name.endswith(".toml"):
            assert tomlread.refused_at_once(text) is not None, name
            _refused(text)
