"""The text of new campaign files, written to be read and edited by people."""

from __future__ import annotations

import re

from cwx import clockworx, colorwheel
from cwx.sheets import BagSheet, Character, ClockCharacter

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def toml_key(name: str) -> str:
    return name if _BARE_KEY.match(name) else toml_string(name)


def character_text(sheet: Character, schema: str | None = None) -> str:
    directive = f"#:schema {schema}\n" if schema else ""
    if isinstance(sheet, ClockCharacter):
        spent = sum(sheet.traits.values())
        lines = [
            f"# {sheet.name}, a ClockWorx character. Edit freely: cwx keeps your comments.",
            f"name = {toml_string(sheet.name)}",
            'system = "clockworx"',
            "xp = 0              # experience; cwx adds what actions earn",
            "",
            f"[traits]           # each 1-6; {spent} of the {clockworx.BUDGET} creation points spent",
            *(f"{toml_key(name)} = {score}" for name, score in sheet.traits.items()),
        ]
    else:
        lines = [
            f"# {sheet.name}, a Color Wheel character. Edit freely: cwx keeps your comments.",
            f"name = {toml_string(sheet.name)}",
            'system = "colorwheel"',
            "",
            "[traits]           # trait names on each colour of the wheel",
            *(f"{colour} = [{', '.join(toml_string(n) for n in names)}]"
              for colour, names in sheet.traits.items()),
            "",
            "[luck]             # dice the character holds",
            f"white = {sheet.luck.white}",
            f"black = {sheet.luck.black}",
        ]
    return directive + "\n".join(lines) + "\n"


def bag_text(sheet: BagSheet, schema: str | None = None) -> str:
    directive = f"#:schema {schema}\n" if schema else ""
    bag, reserve = sheet.bag, sheet.reserve
    lines = [
        "# The bag the Color Wheel draws from, and the spare dice beside it.",
        "[bag]              # dice in the bag",
        *(f"{die} = {bag.count(die)}" for die in colorwheel.DICE),
        "",
        "[reserve]          # spare white and black dice beside the bag",
        f"white = {reserve.white}",
        f"black = {reserve.black}",
    ]
    return directive + "\n".join(lines) + "\n"
