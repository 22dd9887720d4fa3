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


XpSet = TypedDict("XpSet", {"from": Any, "to": Any})
XpSet.__doc__ = "What the line itself set the key from and to (a file written whole, an adopt)."

XpStep = TypedDict("XpStep", {
    "id": Id,
    "at": Stamp,
    "command": str,
    "who": str | None,
    "player": str | None,
    "told": Annotated[str, Shape(description="The event in words, as cwx log tells it.")],
    "from": Annotated[Any, Shape(description="The experience as the ledger counts it before "
                                             "the event (null: no key yet).")],
    "to": Annotated[Any, Shape(description="And after it.")],
    "set": XpSet | None,
    "correction": Annotated[bool, Shape(description="A reconcile's: the file brought to the "
                                                    "ledger, which stays as it was.")],
    "whole": Annotated[bool, Shape(description="The file written whole (made, adopted, "
                                               "retired).")],
    "counts": Annotated[bool, Shape(description="False: the event counts for nothing (a "
                                                "second undo of one change).")],
    "undone_by": Annotated[Id | None, Shape(description="The undo that took it back and "
                                                        "stands, if one did.")],
})
XpStep.__doc__ = "One change of the character's experience, in played order."


class XpHistory(TypedDict):
    """cwx xp history: every change to a character's experience in played order, those
    other events made (a reveal, an undo, an adopt, a reconcile) included."""

    file: str
    xp: Annotated[int | None, Shape(description="The experience after the last change (null: "
                                                 "none in the journal).")]
    changes: list[XpStep]
