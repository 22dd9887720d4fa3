"""JSON Schemas of the campaign files, so TOML-aware editors check them while people type.

Editors such as Taplo (Even Better TOML) read a `#:schema ./character.schema.json`
first line; `cwx init` writes these beside the files and points the files at them.
They say what `cwx check` says of a file, except for rules JSON Schema cannot state
(tests/test_schemas.py keeps the list): trait names unique ignoring case, and, in a
character, a whole number written as a float (`xp = 1.0`).
"""

from __future__ import annotations

from typing import Any

from cwx import clockworx, colorwheel, printable, sheets
from cwx.tomledit import LARGEST

# The character's rules depend on its system, which only `if`/`then` (draft 7 on) can
# say with errors at the key at fault. The bag needs no condition, so it is written in
# draft 4, the last draft whose "integer" is a number written without a fraction: TOML's
# `blue = 1.0` reaches a schema as the JSON number 1.0, an integer to every later draft.
DRAFT = "https://json-schema.org/draft/2020-12/schema"
DRAFT_4 = "http://json-schema.org/draft-04/schema#"

_COUNT = {"type": "integer", "minimum": 0, "maximum": LARGEST}
_LUCK = {
    "type": "object",
    "properties": {"white": _COUNT, "black": _COUNT},
    "additionalProperties": False,
}
_NAME = {"type": "string", "pattern": r"\S",
         "not": {"pattern": printable.pattern()},
         "description": "A name: not empty, not only spaces, no control characters."}


def _any_case(colour: str) -> str:
    """A pattern matching `colour` in any case: what casefold() matches for these ASCII
    words (no other character folds into their letters; tests/test_schemas.py checks)."""
    return "".join(f"[{letter}{letter.upper()}]" for letter in colour)


def _when(system: str, then: dict[str, Any]) -> dict[str, Any]:
    # `required` in the condition: without a system no branch applies, and the one error
    # is the missing system (not one for every rule of both systems).
    return {"if": {"required": ["system"], "properties": {"system": {"const": system}}},
            "then": then}


def character() -> dict[str, Any]:
    clock_traits = {
        "type": "object",
        "description": "Trait names and scores, 1 to 6.",
        "minProperties": clockworx.MIN_TRAITS,
        "propertyNames": _NAME,
        "additionalProperties": {"type": "integer", "minimum": 1,
                                 "maximum": clockworx.MAX_SCORE},
    }
    colours = colorwheel.COLOURS
    any_colour = f"^(?:{'|'.join(map(_any_case, colours))})$"
    wheel_traits = {
        "type": "object",
        "description": "Trait names on each colour of the wheel: every colour once, "
                       "named in any case.",
        "patternProperties": {f"^{_any_case(colour)}$": {
            "type": "array", "items": _NAME, "minItems": 1} for colour in colours},
        "additionalProperties": False,
        # Every colour once: a colour no key names in any case is required (by its own
        # name), and keys that are all colours are no more than the colours.
        "allOf": [
            *({"if": {"propertyNames": {"not": {"pattern": f"^{_any_case(colour)}$"}}},
               "then": {"required": [colour]}} for colour in colours),
            {"if": {"propertyNames": {"pattern": any_colour}},
             "then": {"maxProperties": len(colours)}},
        ],
    }
    return {
        "$schema": DRAFT,
        "$id": "https://cwx.invalid/schemas/character.schema.json",
        "title": "cwx character",
        "description": "A ClockWorx or Color Wheel character, one TOML file each.",
        "type": "object",
        "required": ["system"],
        "properties": {
            "name": _NAME,
            "system": {"enum": list(sheets.SYSTEMS)},
        },
        "allOf": [
            _when("clockworx", {"required": ["traits"],
                                "properties": {"xp": _COUNT, "traits": clock_traits}}),
            _when("colorwheel", {"required": ["traits"],
                                 "properties": {"traits": wheel_traits, "luck": _LUCK}}),
        ],
    }


# A key a bag file may not have: cwx reads a file with one as a character.
_A_CHARACTERS = {"not": {}, "description": "A character's key: a bag file has none."}


def bag() -> dict[str, Any]:
    return {
        "$schema": DRAFT_4,
        "id": "https://cwx.invalid/schemas/bag.schema.json",
        "title": "cwx bag",
        "description": "The Color Wheel's bag of dice and the spare dice beside it.",
        "type": "object",
        "required": ["bag"],
        "properties": {
            "bag": {
                "type": "object",
                "properties": {die: _COUNT for die in colorwheel.DICE},
                "additionalProperties": False,
            },
            "reserve": _LUCK,
            **{key: _A_CHARACTERS for key in ("system", "traits", "luck")},
        },
    }


SCHEMAS = {"character": character, "bag": bag}
