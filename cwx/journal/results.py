"""The journal's lines as `cwx log --json` prints them, as types: `make schemas` writes
docs/json/log.schema.json from them (tests/test_json_schemas.py ties Logged to the
journal's envelope). Imported by no command: the types cost nothing at start-up.

A value read back from the journal is any clone's word: its type says what the journal's
reader lets through (an id of up to 64 characters, a stamp of a day that exists), not what
this cwx writes (16 hexadecimal digits)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from cwx.base.shapes import Shape
from cwx.journal import lines as journal

Id = Annotated[str, Shape(maxLength=journal.MAX_ID,
                          description="An event's id (cwx writes 16 hexadecimal digits).")]
Stamp = Annotated[str, Shape(pattern=f"^{journal._AT}$", description="A UTC time.")]


Change = TypedDict("Change", {
    "file": str,
    "key": NotRequired[str | None],
    "from": NotRequired[Any],
    "to": NotRequired[Any],
    "created": NotRequired[bool],
    "text": NotRequired[str | None],
    "correction": NotRequired[Literal[True]],
    "removed": NotRequired[Literal[True]],
})
Change.__doc__ = ("A change an event made: a key from one value to another (correction: a "
                  "reconcile's), or a whole file made (its text, null for a secret one) or "
                  "removed.")


class Logged(TypedDict):
    """An event as this cwx's journal writes it (keys a later version added are kept)."""

    v: Annotated[int, Shape(const=journal.VERSION)]
    id: Id
    at: Stamp
    command: str
    who: str | None
    file: str | None
    bag: str | None
    result: Annotated[dict[str, Any], Shape(
        description="What the command reported (its --json keys).")]
    changes: list[Change]
    undoes: NotRequired[Annotated[str, Shape(description="The id of the event it undoes.")]]
    player: NotRequired[Annotated[str, Shape(
        description="Who made it (no key: a line from before players were named).")]]


class Log(TypedDict):
    """The journal's events, oldest first, each as this cwx's journal writes it."""

    events: list[Annotated[Logged, Shape(additionalProperties=True)]]
