"""JSON Schemas made from the types of results: each command's --json is a TypedDict, and
`make schemas` writes docs/json/ from them (tests/test_json_schemas.py keeps both in step).

A TypedDict is a plain dict at run time, so a command builds and prints its result as
before; the types cost nothing at start-up, as the modules that hold them are imported
for type checking only (and by this module's callers, never by a command).

What a type cannot say (a count's least value, an id's shape, a colour of the wheel) it
carries in `Annotated[int, Shape(minimum=0)]`: the keywords go to the schema as written.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

DRAFT = "https://json-schema.org/draft/2020-12/schema"


class Shape:
    """JSON Schema keywords a type adds to what its Python type says."""

    __slots__ = ("keywords",)

    def __init__(self, **keywords: Any) -> None:
        self.keywords = keywords


def schema_of(kind: Any) -> dict[str, Any]:
    """The JSON Schema of values of the type `kind`: a TypedDict is an object of exactly
    its keys (every key required unless NotRequired), `X | None` is nullable, Literal an
    enum, and every Shape's keywords are added where they stand."""
    origin = typing.get_origin(kind)
    if origin is typing.Annotated:
        inner, *marks = typing.get_args(kind)
        found = schema_of(inner)
        for mark in marks:
            if isinstance(mark, Shape):
                found = {**found, **mark.keywords}
        return found
    if typing.is_typeddict(kind):
        return _object(kind)
    if origin in (types.UnionType, typing.Union):
        return _union(typing.get_args(kind))
    if origin is typing.Literal:
        values = list(typing.get_args(kind))
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    if origin in (list, tuple, Sequence):
        args = typing.get_args(kind)
        return {"type": "array", "items": schema_of(args[0])}
    if origin in (dict, Mapping):
        key, value = typing.get_args(kind)
        names = schema_of(key)
        return {"type": "object", **({"propertyNames": names} if names != _PLAIN[str] else {}),
                "additionalProperties": schema_of(value)}
    if kind is Any or kind is object:
        return {}
    if kind in _PLAIN:
        return dict(_PLAIN[kind])
    raise TypeError(f"{kind!r} has no JSON Schema here: give it one in cwx/base/shapes.py")


_PLAIN: dict[Any, dict[str, Any]] = {
    str: {"type": "string"}, int: {"type": "integer"}, float: {"type": "number"},
    bool: {"type": "boolean"}, type(None): {"type": "null"},
}


def _object(kind: Any) -> dict[str, Any]:
    # Read from the hints, not __required_keys__: under `from __future__ import
    # annotations` Python 3.11 counts a NotRequired key as required there.
    hints = typing.get_type_hints(kind, include_extras=True)
    properties, required = {}, []
    for key, hint in hints.items():
        if typing.get_origin(hint) is not typing.NotRequired:
            required.append(key)
        while typing.get_origin(hint) in (typing.NotRequired, typing.Required):
            hint = typing.get_args(hint)[0]
        properties[key] = schema_of(hint)
    said = (kind.__doc__ or "").strip()
    return {"type": "object", **({"description": " ".join(said.split())} if said else {}),
            "properties": properties, "required": required, "additionalProperties": False}


def _union(kinds: tuple[Any, ...]) -> dict[str, Any]:
    nullable = type(None) in kinds
    rest = [schema_of(kind) for kind in kinds if kind is not type(None)]
    if len(rest) > 1:
        return {"anyOf": rest + ([{"type": "null"}] if nullable else [])}
    found = rest[0]
    if not nullable:
        return found
    if isinstance(found.get("type"), str):  # its other keywords ask nothing of a null
        found = {**found, "type": [found["type"], "null"]}
        if "enum" in found:
            found["enum"] = [*found["enum"], None]
        return found
    if "enum" in found:
        return {**found, "enum": [*found["enum"], None]}
    if "const" in found:
        return {"enum": [found["const"], None]}
    return {"anyOf": [found, {"type": "null"}]}


def document(kind: Any, title: str) -> dict[str, Any]:
    """A published schema: `kind`'s, with the draft and a title (and its description first)."""
    found = schema_of(kind)
    said = {"description": found.pop("description")} if "description" in found else {}
    return {"$schema": DRAFT, "title": title, **said, **found}
