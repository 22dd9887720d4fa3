"""JSON Schemas of the campaign files, so TOML-aware editors check them while people type.

Editors such as Taplo (Even Better TOML) read a `#:schema ./character.schema.json`
first line; `cwx init` writes these beside the files and points the files at them.
They say what `cwx check` says of a file, except for rules JSON Schema cannot state
(tests/test_schemas.py keeps the list): trait names unique ignoring case, and, in a
character, a whole number written as a float (`xp = 1.0`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cwx import systems
from cwx.base import printable
from cwx.toml.tomledit import LARGEST

# The character's rules depend on its system, which only `if`/`then` (draft 7 on) can
# say with errors at the key at fault. The bag needs no condition, so it is written in
# draft 4, the last draft whose "integer" is a number written without a fraction: TOML's
# `blue = 1.0` reaches a schema as the JSON number 1.0, an integer to every later draft.
DRAFT = "https://json-schema.org/draft/2020-12/schema"
DRAFT_4 = "http://json-schema.org/draft-04/schema#"

COUNT = {"type": "integer", "minimum": 0, "maximum": LARGEST}
LUCK = {
    "type": "object",
    "properties": {"white": COUNT, "black": COUNT},
    "additionalProperties": False,
}
A_NAME = {"type": "string", "pattern": r"\S",
        "not": {"pattern": printable.pattern()},
        "description": "A name: not empty, not only spaces, no control characters."}


def any_case(word: str) -> str:
    """A pattern matching `word` in any case: what casefold() matches for these ASCII
    words (no other character folds into their letters; tests/test_schemas.py checks)."""
    return "".join(f"[{letter}{letter.upper()}]" for letter in word)


def _when(system: str, then: dict[str, Any]) -> dict[str, Any]:
    # `required` in the condition: without a system no branch applies, and the one error
    # is the missing system (not one for every rule of every system).
    return {"if": {"required": ["system"], "properties": {"system": {"const": system}}},
            "then": then}


def character() -> dict[str, Any]:
    """Every system's characters: the keys all share, and each system's branch."""
    kinds = systems.systems()
    return {
        "$schema": DRAFT,
        "$id": "https://cwx.invalid/schemas/character.schema.json",
        "title": "cwx character",
        "description": f"A {' or '.join(kind.TITLE for kind in kinds)} character, one TOML "
                       "file each.",
        "type": "object",
        "required": ["system"],
        "properties": {"name": A_NAME, "system": {"enum": [kind.NAME for kind in kinds]}},
        "allOf": [_when(kind.NAME, kind.schema()) for kind in kinds],
    }


def schemas() -> dict[str, Callable[[], dict[str, Any]]]:
    """The schema of each kind of file, by kind: "character", and the other kinds'."""
    return {"character": character,
            **{kind.NAME: kind.schema for kind in systems.kinds() if not kind.CHARACTER}}
