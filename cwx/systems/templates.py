"""The text of new campaign files, written to be read and edited by people."""

from __future__ import annotations

from typing import Any

from cwx.toml.tomledit import toml_string


def file_of(sheet: Any, schema: str | None = None) -> str:
    """The text of a new campaign file for a sheet of any kind (its entry writes it)."""
    from cwx.systems import sheets

    return sheets.entry_of_sheet(sheet).template(sheet, schema)


def campaign_files(name: str) -> dict[str, tuple[str, dict[str, Any] | None]]:
    """A new campaign's files, by name: each one's text and, for TOML, what it means (the
    write guard checks it): the settings, a bag, a README for the table, a Makefile for
    scenes, git's settings for the journal and cwx's own files, and the schemas."""
    import json

    from cwx.base.places import SETTINGS
    from cwx.rules.colorwheel import DEFAULT_RESERVE, Bag, Luck
    from cwx.systems import schemas, sheets
    from cwx.systems.bag import BagSheet

    bag = BagSheet(Bag(), Luck(DEFAULT_RESERVE, DEFAULT_RESERVE))
    return {
        SETTINGS: (settings_file(name), None),
        "bag.toml": (file_of(bag, "./bag.schema.json"), sheets.data_of(bag)),
        "README.md": (table_readme(name), None),
        "Makefile": (MAKEFILE, None),
        ".gitattributes": (GITATTRIBUTES, None),
        ".gitignore": (GITIGNORE, None),
        **{f"{kind}.schema.json": (json.dumps(build(), indent=2) + "\n", None)
           for kind, build in schemas.schemas().items()},
    }


def settings_file(name: str) -> str:
    """campaign.toml: it marks its folder as the campaign's root."""
    return f"""\
# This file marks the campaign's root: every cwx command in this folder or below
# journals its changes in journal.jsonl here, the campaign's ledger.
[campaign]
name = {toml_string(name)}
bag = "bag.toml"     # the bag Color Wheel commands draw from unless told --bag
# By post, true: every command that changes the campaign pulls before it acts and
# pushes after (in a clone with a remote); --no-sync skips that once.
sync = false
"""


# What `cwx git setup` would add, written at once: journals merge by keeping both sides'
# lines, characters and bags through the cwx merge driver (set up per clone).
# The lines cwx keeps in .gitattributes: journals merge by keeping both sides' lines,
# characters and bags through the cwx merge driver (set up per clone, cwx git setup).
ATTRIBUTES = (
    "journal.jsonl merge=union",
    "*.toml merge=cwx",
    "journal.jsonl eol=lf",  # on every machine (core.autocrlf): a line ending is no edit
)
ATTRIBUTES_HEAD = ("# cwx: journals merge by keeping both sides' lines; characters and bags "
                   "by adding up (cwx git setup)")
GITATTRIBUTES = "\n".join([ATTRIBUTES_HEAD, *ATTRIBUTES]) + "\n"

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

A campaign folder for cwx, the command-line companion for the ClockWorx and Color
Wheel diceless mechanics (installed from its repository with `pipx install .`, it puts
the `cwx` command on your path). Keep it in git, and run `cwx git setup` once in
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
    cwx sync                              # share your turn, bring in the table's
    cwx recap                             # the last session, in Markdown

A Makefile runs commands: read what a pull changed in it before you run `make`. cwx
itself runs nothing a clone brings.
"""


MAKEFILE = """\
# Scripted scenes for this campaign. `cwx check` before you commit (the git hook does).
# Each scene is a recipe: cwx exits 1 on a failed action when asked (--exit-code), and 2
# on an error (a missing file, a typo): a scene tells the two apart, so an error stops
# make instead of being told as a failure in the story.
CWX ?= cwx
HERO ?= $(USER).toml
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
