"""The text of new campaign files, written to be read and edited by people."""

from __future__ import annotations

import re
from typing import assert_never

from cwx import clockworx, colorwheel, gitsetup
from cwx.sheets import BagSheet, Character, ClockCharacter, WheelCharacter

_BARE_KEY = r"^[A-Za-z0-9_-]+$"


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
    return name if re.match(_BARE_KEY, name) else toml_string(name)


def character_file(sheet: Character, schema: str | None = None) -> str:
    """The text of a new character's file."""
    directive = f"#:schema {schema}\n" if schema else ""
    match sheet:
        case ClockCharacter():
            spent = sum(sheet.traits.values())
            lines = [
                f"# {sheet.name}, a ClockWorx character. Edit freely: cwx keeps your comments.",
                f"name = {toml_string(sheet.name)}",
                'system = "clockworx"',
                "xp = 0              # experience; cwx adds what actions earn",
                "",
                f"[traits]           # each 1-6; at creation {spent} of the {clockworx.BUDGET} "
                "points were spent",
                *(f"{toml_key(name)} = {score}" for name, score in sheet.traits.items()),
            ]
        case WheelCharacter():
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
        case _:
            assert_never(sheet)
    return directive + "\n".join(lines) + "\n"


def file_of(sheet: Character | BagSheet, schema: str | None = None) -> str:
    """The text of a new file for a character or a bag."""
    if isinstance(sheet, BagSheet):
        return bag_file(sheet, schema)
    return character_file(sheet, schema)


def bag_file(sheet: BagSheet, schema: str | None = None) -> str:
    directive = f"#:schema {schema}\n" if schema else ""
    bag, reserve = sheet.bag, sheet.reserve
    lines = [
        "# The bag the Color Wheel draws from, and the spare dice beside it.",
        "[bag]              # dice in the bag",
        *(f"{die} = {bag.of(die)}" for die in colorwheel.DICE),
        "",
        "[reserve]          # spare white and black dice beside the bag",
        f"white = {reserve.white}",
        f"black = {reserve.black}",
    ]
    return directive + "\n".join(lines) + "\n"


def settings_file(name: str) -> str:
    """campaign.toml: it marks its folder as the campaign's root."""
    return f"""\
# This file marks the campaign's root: every cwx command in this folder or below
# journals its changes in journal.jsonl here, the campaign's ledger.
[campaign]
name = {toml_string(name)}
bag = "bag.toml"     # the bag Color Wheel commands draw from unless told --bag
"""


# What `cwx git setup` would add, written at once: journals merge by keeping both sides'
# lines, characters and bags through the cwx merge driver (set up per clone).
GITATTRIBUTES = "\n".join([gitsetup.ATTRIBUTES_HEAD, *gitsetup.ATTRIBUTES]) + "\n"

GITIGNORE = """\
# The GM's sealed number stays on the GM's machine until it is revealed.
.cwx-sealed.json
# Left only by a cwx command that was killed mid-write; the next command cleans up.
.*.cwx-tmp
.cwx-redo-*.json
"""


def table_readme(name: str) -> str:
    return f"""\
# {name}

A campaign folder for [cwx](https://pypi.org/project/cwx-rpg/), the command-line
companion for the ClockWorx and Color Wheel diceless mechanics (`pip install cwx-rpg`
puts the `cwx` command on your path). Keep it in git, and run `cwx git setup` once in
every clone (the merge driver and hooks that make what git merges add up).

## What is here

| file | what it is |
|---|---|
| `bag.toml` | the Color Wheel bag and the spare dice beside it |
| `*.toml` | one file per character: edit them by hand, cwx keeps your comments |
| `journal.jsonl` | every change cwx made, one line each, oldest first (`cwx log`) |
| `Makefile` | scripted scenes: `make check`, `make log`, and your own |
| `*.schema.json` | what the files may say, for TOML-aware editors |

## At the table

    cwx char new kris.toml --system clockworx --trait Scrounge=3 --trait Repair=3 --trait Tough=5
    cwx clock pick --seal                 # the GM's number, sealed for remote play
    cwx clock resolve --sealed --guess 3 --trait Repair --char kris.toml

    cwx char new sue.toml --system colorwheel --trait red=Strong --trait yellow=Clever \\
        --trait blue=Athletic --trait orange=Brave --trait green=Healer --trait purple=Friendly
    cwx odds wheel --color blue --bag bag.toml
    cwx bag draw --char sue.toml --bag bag.toml --trait Athletic --keep-white

    cwx log                               # what happened so far
    cwx check                             # every file valid? (also a pre-commit hook)
"""


MAKEFILE = """\
# Scripted scenes for this campaign. `make check` before you commit.
# Each scene is a recipe: cwx exits 1 on a failed action when asked (--exit-code), and 2
# on an error (a missing file, a typo): a scene tells the two apart, so an error stops
# make instead of being told as a failure in the story.
CWX ?= cwx
HERO ?= hero.toml
BAG ?= bag.toml

.PHONY: check log odds climb

check:
\t$(CWX) check .

log:
\t$(CWX) log --last 20

odds:
\t$(CWX) odds wheel --all --bag $(BAG)

# A Color Wheel scene: the hero climbs (Blue); the story goes on either way.
climb:
\t@$(CWX) bag draw --char $(HERO) --bag $(BAG) --color blue --exit-code; \\
\tcase $$? in \\
\t\t0) echo "Over the wall." ;; \\
\t\t1) echo "The guards heard that." ;; \\
\t\t*) exit 2 ;; \\
\tesac
"""
