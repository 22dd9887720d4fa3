"""A journal line is what JSON reads in it, however it is spelled: keys in another order,
spaces around a colon, a key or a text written with escapes. Every reader takes a line
spelled otherwise as the plain line (a byte search that picks lines to read lets through
every line that may hold what it looks for, lines.sought), and a line repeating an
earlier line's id is named as that however it spells the id (grows, seen)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwx.git import grows, seen
from cwx.journal import lines


def respelled(value: Any, rnd: random.Random) -> str:
    """`value` as JSON another writer could have spelled it: keys shuffled, spaces around
    colons and commas, characters of keys and texts escaped (`\\u0075`, `\\/`)."""
    def space() -> str:
        return rnd.choice(["", " ", "  "])

    if isinstance(value, dict):
        items = list(value.items())
        rnd.shuffle(items)
        return "{" + ",".join(f"{space()}{_text(str(k), rnd)}{space()}:{space()}"
                              f"{respelled(v, rnd)}" for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(space() + respelled(v, rnd) for v in value) + "]"
    if isinstance(value, str):
        return _text(value, rnd)
    return json.dumps(value)


def _text(text: str, rnd: random.Random) -> str:
    out = []
    for char in text:
        roll = rnd.random()
        if char == "/" and roll < 0.5:
            out.append("\\/")
        elif roll < 0.4 and ord(char) < 0x10000:
            out.append(f"\\u{ord(char):04{rnd.choice('xX')}}")
        else:
            out.append(json.dumps(char)[1:-1])
    return '"' + "".join(out) + '"'


SPELLINGS = {  # the three ways F-D's twin was written, as a function of a plain line
    "keys reordered": lambda line: json.dumps({"id": line["id"], **line},
                                              separators=(",", ":")),
    "a space": lambda line: json.dumps(line, separators=(",", ":")).replace(
        '"id":', '"id": ', 1),
    "escaped id": lambda line: json.dumps(line, separators=(",", ":")).replace(
        f'"id":"{line["id"]}"', '"id":"' + "".join(f"\\u{ord(c):04x}" for c in line["id"])
        + '"', 1),
}


def _line(id_: str, n: int) -> dict[str, Any]:
    return {"v": 2, "id": id_, "at": "2026-12-01T10:00:00.000Z", "command": "clock resolve",
            "result": {"n": n}, "changes": []}


def _journal(*made: dict[str, Any]) -> bytes:
    return b"".join(lines.dumps(line).encode() + b"\n" for line in made)


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_a_twin_spelled_otherwise_is_a_line_repeating_an_id(spelling: str) -> None:
    first, turn = _line("4a4a4a4a4a4a4a4a", 1), _line("9aecee0bea1d2fe2", 2)
    old = _journal(first, turn)
    twin = SPELLINGS[spelling]({**turn, "result": {"n": 0}}).encode() + b"\n"
    assert json.loads(twin)["id"] == turn["id"]
    # inserted before the line it stands for (the ledger would count it first), or after
    assert grows.extends(old, _journal(first) + twin + _journal(turn)) == grows.Break(2, "repeated")
    assert grows.extends(old, old + twin) == grows.Break(2, "repeated")
    # the clone's memory of what it proved reads the id alike
    assert seen.form(twin).startswith(b'{"v":0,"id":"9aecee0bea1d2fe2",')
    assert grows.extends(seen.form(old), seen.form(_journal(first) + twin + _journal(turn))) \
        == grows.Break(2, "repeated")


def test_a_key_repeated_reads_as_json_reads_it() -> None:
    """Two "id" keys: JSON takes the last, and so does every reader of ids."""
    plain = _journal(_line("aaaa", 1))
    doubled = plain.replace(b'"at"', b'"id":"bbbb","at"', 1)
    assert json.loads(doubled)["id"] == "bbbb"
    assert lines.id_of(doubled.rstrip(b"\n")) == b"bbbb"
    assert grows.extends(_journal(_line("bbbb", 1)), _journal(_line("bbbb", 1)) + doubled) \
        == grows.Break(1, "repeated")


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False))
def test_any_spelling_of_a_line_has_its_id(rnd: random.Random) -> None:
    line = {**_line("0f1e2d3c4b5a6978", 3), "who": "id", "result": {"id": "x", "n": 3}}
    spelled = respelled(line, rnd).encode()
    assert json.loads(spelled) == line
    assert lines.id_of(spelled) == b"0f1e2d3c4b5a6978"
