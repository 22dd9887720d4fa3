"""The Color Wheel's bag (docs/rules.md W3): the dice in it and the spare whites and
blacks beside it, a file of its own that characters draw from."""

from __future__ import annotations

from collections.abc import Mapping

from cwx.base.errors import BadFile
from cwx.base.ink import paint, plural
from cwx.base.record import Record
from cwx.rules import colorwheel
from cwx.rules.colorwheel import DICE, Bag, Luck
from cwx.systems.colorwheel import bag_json, dice, luck_json
from cwx.systems.parts import (
    PLAIN,
    EventKind,
    Replay,
    Rule,
    count,
    count_set_aside,
    known,
    optional_table,
    table,
)

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

    from cwx.systems.results import BagShown

NAME = "bag"
TITLE = "bag"
CHARACTER = False
TABLES: tuple[str, ...] = ("bag", "reserve")
LEDGER: tuple[tuple[str, ...], tuple[str, ...]] = ((), ("bag", "reserve"))
EVENTS: Mapping[str, EventKind] = {"bag new": EventKind(
    undoable=False, brings=True, verb="makes a bag",
    # A bag made brings the dice its text holds: the supply counts them (W9).
    replay=lambda event: Replay(makes=None))}


class BagSheet(Record):
    """A bag and its reserve, as the bag's file says."""

    bag: Bag
    reserve: Luck

    @property
    def kind(self) -> str:
        """The entry of its kind of file (cwx/systems/)."""
        return NAME


def read(data: Mapping[str, Any], name: str) -> BagSheet:
    if "system" in data:
        raise BadFile("this is a character file (it has a system key), not a bag", key="system")
    inside = table(data, "bag")
    known(inside, DICE, "bag")
    reserve = optional_table(data, "reserve")
    known(reserve, Luck._fields, "reserve")
    counts = {die: count(inside, die, f"bag.{die}") for die in DICE}
    spare = Luck(count(reserve, "white", "reserve.white"),
                 count(reserve, "black", "reserve.black"))
    return BagSheet(Bag(**counts), spare)


def taken_back(sheet: BagSheet, white: int, black: int) -> BagSheet:
    """A retired character's dice, back in the reserve beside the bag."""
    return sheet._replace(reserve=Luck(sheet.reserve.white + white,
                                       sheet.reserve.black + black))


def reserve_key(die: str) -> str:
    """The ledger key of the reserve's dice of one colour ("white"): where a retired
    character's go (taken_back)."""
    return f"reserve.{die}"


def data_of(sheet: BagSheet) -> dict[str, Any]:
    return {"bag": dict(zip(DICE, sheet.bag, strict=True)),
            "reserve": {"white": sheet.reserve.white, "black": sheet.reserve.black}}


def set_aside(data: dict[str, Any], key: str) -> bool:
    table_name, _, name = key.partition(".")
    inner = data.get(table_name)
    if not isinstance(inner, dict) or name not in inner:
        return False
    count_set_aside(inner, name)
    return True


def template(sheet: BagSheet, schema: str | None) -> str:
    lines = [
        "# The bag the Color Wheel draws from, and the spare dice beside it.",
        "[bag]              # dice in the bag",
        *(f"{die} = {sheet.bag.of(die)}" for die in DICE),
        "",
        "[reserve]          # spare white and black dice beside the bag",
        f"white = {sheet.reserve.white}",
        f"black = {sheet.reserve.black}",
    ]
    return (f"#:schema {schema}\n" if schema else "") + "\n".join(lines) + "\n"


def schema() -> dict[str, Any]:
    from cwx.systems.fragments import COUNT, DRAFT_4, LUCK

    return {
        "$schema": DRAFT_4,  # its "integer" refuses 1.0 (fragments.py says why)
        "id": "https://cwx.invalid/schemas/bag.schema.json",
        "title": "cwx bag",
        "description": "The Color Wheel's bag of dice and the spare dice beside it.",
        "type": "object",
        "required": ["bag"],
        "properties": {
            "bag": {"type": "object", "properties": dict.fromkeys(DICE, COUNT),
                    "additionalProperties": False},
            "reserve": LUCK,
        },
    }


def rule(key: str) -> Rule:
    if key in ("bag.white", "bag.black", "reserve.white", "reserve.black"):
        return Rule(conserved=True)  # W9
    if key.startswith(("bag.", "reserve.")):
        return Rule()
    return PLAIN


# ---------------------------------------------------------------- views


def as_json(sheet: BagSheet) -> BagShown:
    return {"bag": bag_json(sheet.bag), "reserve": luck_json(sheet.reserve)}


def as_text(sheet: BagSheet, on: bool) -> str:
    rows = ["bag"]
    rows += [f"  {die:<7} {dice(die, sheet.bag.of(die), on)} {sheet.bag.of(die)}"
             for die in DICE]
    rows.append(f"  {plural(sheet.bag.total, 'die')} in all")
    rows.append("reserve")
    rows += [f"  {die:<7} {dice(die, getattr(sheet.reserve, die), on)} "
             f"{getattr(sheet.reserve, die)}" for die in ("white", "black")]
    return "\n".join(rows)


def in_party(sheet: BagSheet, on: bool) -> str:
    inside = "  ".join(f"{die} {sheet.bag.of(die)}" for die in colorwheel.DICE)
    return f"{paint('bag', 'bold', on)} · {inside} · reserve white {sheet.reserve.white}, " \
           f"black {sheet.reserve.black}"
