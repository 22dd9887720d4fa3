"""cwx/base/shapes.py: a result's type to its JSON Schema (docs/json/ is made with it)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

import pytest

from cwx.base.shapes import Shape, document, schema_of


class Inner(TypedDict):
    """A die."""

    colour: Literal["red", "blue"]


class Other(TypedDict):
    count: int


class Outer(TypedDict):
    count: Annotated[int, Shape(minimum=0)]
    name: str | None
    kind: Literal["red"] | None
    inner: Inner | None
    dice: list[Inner]
    scores: dict[Annotated[str, Shape(pattern="^x")], int]
    either: Inner | Other
    anything: Any
    later: NotRequired[bool]


def test_a_typeddict_is_an_object_of_exactly_its_keys() -> None:
    found = schema_of(Outer)
    assert found["type"] == "object" and found["additionalProperties"] is False
    assert found["required"] == ["count", "name", "kind", "inner", "dice", "scores", "either",
                                 "anything"]  # NotRequired: not required
    assert schema_of(Inner) == {"type": "object", "description": "A die.",
                                "properties": {"colour": {"enum": ["red", "blue"]}},
                                "required": ["colour"], "additionalProperties": False}


def test_each_kind_of_value() -> None:
    properties = schema_of(Outer)["properties"]
    assert properties["count"] == {"type": "integer", "minimum": 0}
    assert properties["name"] == {"type": ["string", "null"]}
    assert properties["kind"] == {"enum": ["red", None]}
    assert properties["inner"]["type"] == ["object", "null"]
    assert properties["dice"] == {"type": "array", "items": schema_of(Inner)}
    assert properties["scores"] == {"type": "object",
                                    "propertyNames": {"type": "string", "pattern": "^x"},
                                    "additionalProperties": {"type": "integer"}}
    assert [branch["required"][0] for branch in properties["either"]["anyOf"]] == \
        ["colour", "count"]
    assert properties["anything"] == {}
    assert properties["later"] == {"type": "boolean"}


def test_a_published_schema_has_its_draft_title_and_description_first() -> None:
    found = document(Annotated[Inner, Shape(description="Said.")], "cwx x --json")
    assert list(found)[:3] == ["$schema", "title", "description"]
    assert found["description"] == "Said."


def test_a_type_with_no_schema_says_so() -> None:
    with pytest.raises(TypeError, match="no JSON Schema"):
        schema_of(bytes)
