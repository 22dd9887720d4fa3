"""A journal line is what JSON reads in it, however it is spelled: keys in another order,
spaces around a colon, a key or a text written with escapes. Every reader takes a line
spelled otherwise as the plain line (a byte search that picks lines to read lets through
every line that may hold what it looks for, lines.sought), and a line repeating an
earlier line's id is named as that however it spells the id (grows, seen)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwx.git import grows, seen
from cwx.journal import ledger, lines
from tests.helpers import Ran, cwx, saga
from tests.test_git import value


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
@given(st.integers(0, 2 ** 32))
def test_any_spelling_of_a_line_has_its_id(seed: int) -> None:
    rnd = random.Random(seed)
    line = {**_line("0f1e2d3c4b5a6978", 3), "who": "id", "result": {"id": "x", "n": 3}}
    spelled = respelled(line, rnd).encode()
    assert json.loads(spelled) == line
    assert lines.id_of(spelled) == b"0f1e2d3c4b5a6978"


# ---------------------------------------------------------------- every reader, every key


PLAY = [  # a campaign whose lines hold each key a byte search looks for
    ("clock", "resolve", "-T", 4, "-g", 3, "-t", "repair", "-c", "kris"),
    ("undo",),  # "undoes"
    ("undo", "--redo"),  # an undo's undo
    ("bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "red"),
    ("game", "end", "-c", "sue"),  # "game"
    ("clock", "pick", "--seal", "-T", 5),  # "commitment"
    ("clock", "resolve", "--sealed", "-g", 5, "-t", "tough", "-c", "kris"),  # "nonce"
    ("bag", "draw", "-c", "sue", "-C", "blue", "--drawn", "white", "--drawn", "red",
     "--keep-white"),
    ("luck", "spend", "-c", "sue"),  # "turns"
    ("game", "end", "-c", "sue"),
]
READERS = [("check", "--json"), ("log",), ("log", "--char", "kris", "--last", 3),
           ("recap", "--all"), ("audit",), ("clock", "verify")]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[tuple[object, ...], Ran]]:
    """The campaign played, and what each reader says of it."""
    folder = saga(tmp_path_factory.mktemp("spelling") / "camp", "kris.toml")
    for args in PLAY:
        assert cwx(*args, cwd=folder).status == 0, args
    return folder, {args: cwx(*args, cwd=folder) for args in READERS}


def _said(folder: Path) -> dict[tuple[object, ...], Ran]:
    return {args: cwx(*args, cwd=folder) for args in READERS}


def _respell(folder: Path, spell: Any) -> None:
    path = folder / "journal.jsonl"
    path.write_text("".join(spell(json.loads(line)) + "\n"
                            for line in path.read_text().splitlines()))


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_every_reader_reads_a_journal_spelled_otherwise_as_the_plain_one(
        played: tuple[Path, dict[tuple[object, ...], Ran]], tmp_path_factory: pytest.TempPathFactory,
        seed: int) -> None:
    folder, plain = played
    rnd = random.Random(seed)
    copy = tmp_path_factory.mktemp("respelled") / "camp"
    shutil.copytree(folder, copy)
    _respell(copy, lambda line: respelled(line, rnd))
    said = _said(copy)
    for args, ran in plain.items():
        assert (said[args].status, said[args].stdout) == (ran.status, ran.stdout), args
    mine, theirs = (ledger.read(str(camp / "journal.jsonl")) for camp in (copy, folder))
    for name in ("kris.toml", "sue.toml", "bag.toml"):
        assert mine.values(name) == theirs.values(name)
    assert mine.supply() == theirs.supply()


def test_redos_of_one_undo_count_once_however_the_key_is_spelled(
        played: tuple[Path, dict[tuple[object, ...], Ran]], tmp_path: Path) -> None:
    """F-C: five redos of one undo, `"undoes"` written `"\\u0075ndoes"`: one counts."""
    folder, _ = played
    camp = tmp_path / "camp"
    shutil.copytree(folder, camp)
    assert cwx("clock", "resolve", "-T", 4, "-g", 3, "-t", "scrounge", "-c", "kris",
               cwd=camp).status == 0
    assert cwx("undo", cwd=camp).status == 0
    path = camp / "journal.jsonl"
    undo = json.loads(path.read_text().splitlines()[-1])
    xp = value(camp, "kris.toml", "xp")
    with open(path, "a") as file:
        for n in range(5):
            redo = {**undo, "id": f"{0xabc0 + n:016x}", "undoes": undo["id"],
                    "result": {**undo["result"], "redo": True},
                    "changes": [{"file": "kris.toml", "key": "xp", "from": xp, "to": xp + 2}]}
            file.write(lines.dumps(redo).replace('"undoes"', '"\\u0075ndoes"') + "\n")
    assert cwx("reconcile", cwd=camp).status == 0
    assert value(camp, "kris.toml", "xp") == xp + 2  # not xp + 10
    assert cwx("check", cwd=camp).status == 0


def test_check_names_a_twin_of_other_contents_and_never_a_copy_alike(
        played: tuple[Path, dict[tuple[object, ...], Ran]], tmp_path: Path) -> None:
    """Without git (or in a history made anew), the journal itself: a line carrying an
    earlier line's id with other contents is named at its line; a copy (git's union makes
    them), however spelled, is none."""
    folder, _ = played
    camp = tmp_path / "camp"
    shutil.copytree(folder, camp)
    path = camp / "journal.jsonl"
    lines_ = path.read_text().splitlines()
    turn = next(json.loads(line) for line in lines_ if '"clock resolve"' in line)
    copies = [lines_[3], SPELLINGS["escaped id"](json.loads(lines_[3]))]
    path.write_text("\n".join([*lines_, *copies]) + "\n")
    assert cwx("check", cwd=camp).stdout == cwx("check", cwd=folder).stdout
    twin = SPELLINGS["keys reordered"]({**turn, "result": {**turn["result"], "xp": 0}})
    path.write_text("\n".join([twin, *lines_]) + "\n")
    checked = cwx("check", "--json", cwd=camp)
    assert checked.status == 1
    named = [p for p in checked.json["problems"] if "with other contents" in p["message"]]
    assert [(p["line"], turn["id"][:8] in p["message"]) for p in named] == \
        [(1 + next(n for n, line in enumerate(lines_, 1) if turn["id"] in line), True)]
