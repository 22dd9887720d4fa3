"""JSON Schemas of the campaign files, so TOML-aware editors check them while people type.

Editors such as Taplo (Even Better TOML) read a `#:schema ./character.schema.json`
first line; `cwx init` writes these beside the files and points the files at them.
"""

from __future__ import annotations

from typing import Any

from cwx import clockworx, colorwheel

DRAFT = "https://json-schema.org/draft/2020-12/schema"

_COUNT = {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}
_LUCK = {
    "type": "object",
    "properties": {"white": _COUNT, "black": _COUNT},
    "additionalProperties": False,
}
_NAME = {"type": "string", "minLength": 1, "pattern": r"\S"}


def character() -> dict[str, Any]:
    clock_traits = {
        "type": "object",
        "description": "Trait names and scores, 1 to 6.",
        "minProperties": clockworx.MIN_TRAITS,
        "propertyNames": _NAME,
        "additionalProperties": {"type": "integer", "minimum": 1,
                                 "maximum": clockworx.MAX_SCORE},
    }
    wheel_traits = {
        "type": "object",
        "description": "Trait names on each colour of the wheel.",
        "properties": {colour: {"type": "array", "items": _NAME, "minItems": 1}
                       for colour in colorwheel.COLOURS},
        "required": list(colorwheel.COLOURS),
        "additionalProperties": False,
    }
    return {
        "$schema": DRAFT,
        "$id": "https://cwx.invalid/schemas/character.schema.json",
        "title": "cwx character",
        "description": "A ClockWorx or Color Wheel character, one TOML file each.",
        "type": "object",
        "required": ["system", "traits"],
        "properties": {
            "name": _NAME,
            "system": {"enum": ["clockworx", "colorwheel"]},
        },
        "allOf": [
            {"if": {"properties": {"system": {"const": "clockworx"}}},
             "then": {"properties": {"xp": _COUNT, "traits": clock_traits}}},
            {"if": {"properties": {"system": {"const": "colorwheel"}}},
             "then": {"properties": {"traits": wheel_traits, "luck": _LUCK}}},
        ],
    }


def bag() -> dict[str, Any]:
    return {
        "$schema": DRAFT,
        "$id": "https://cwx.invalid/schemas/bag.schema.json",
        "title": "cwx bag",
        "description": "The Color Wheel's bag of dice and the spare dice beside it.",
        "type": "object",
        "required": ["bag"],
        "not": {"required": ["system"]},
        "properties": {
            "bag": {
                "type": "object",
                "properties": {die: _COUNT for die in colorwheel.DICE},
                "additionalProperties": False,
            },
            "reserve": _LUCK,
        },
    }


SCHEMAS = {"character": character, "bag": bag}
