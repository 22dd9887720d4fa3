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
from cwx.systems.fragments import A_NAME

# A character's rules depend on its system, which only `if`/`then` (draft 7 on) can say
# with errors at the key at fault.
DRAFT = "https://json-schema.org/draft/2020-12/schema"


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
            **{kind.NAME: _not_a_character(kind) for kind in systems.kinds()
               if not kind.CHARACTER}}


def _not_a_character(kind: systems.Kind) -> Callable[[], dict[str, Any]]:
    """A kind's schema, refusing the keys that would make its file a character's (cwx
    reads a file with one as a character: systems.kind_of)."""
    def build() -> dict[str, Any]:
        schema = kind.schema()
        characters = {"not": {},
                      "description": f"A character's key: a {kind.NAME} file has none."}
        tables = {table for system in systems.systems() for table in system.TABLES}
        schema["properties"].update(dict.fromkeys(("system", *sorted(tables)), characters))
        return schema

    return build
