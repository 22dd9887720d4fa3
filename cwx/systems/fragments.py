"""The pieces of JSON Schema the entries build their files' schemas of (schemas.py puts
the whole together from the table)."""

from __future__ import annotations

from cwx.base import printable
from cwx.toml.tomledit import LARGEST

# A file that needs no condition (the bag) is written in draft 4, the last draft whose
# "integer" is a number written without a fraction: TOML's `blue = 1.0` reaches a schema
# as the JSON number 1.0, an integer to every later draft (schemas.py's DRAFT: why a
# character needs a later one).
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
