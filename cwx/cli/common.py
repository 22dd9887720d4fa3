"""Steps several commands share: randomness, loading a character of one system, journaling."""

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    import random

    from cwx.colorwheel import Table
    from cwx.files import Change
    from cwx.sheets import BagSheet, Character, ClockCharacter, WheelCharacter

Seed = Annotated[int | None, typer.Option(
    help="Make the randomness reproducible [default: the operating system's].")]
CharFile = Annotated[str, typer.Option("--char", help="The character's file.",
                                       show_default=False)]
BagFile = Annotated[str, typer.Option("--bag", help="The bag's file.", show_default=False)]
Force = Annotated[bool, typer.Option("--force", help="Replace an existing file.")]
ExitCode = Annotated[bool, typer.Option("--exit-code", help="Exit 1 when the action fails.")]
# The player's answers to the Color Wheel's choices, for a draw or for its odds.
KeepWhite = Annotated[bool, typer.Option(
    "--keep-white", help="Keep every white that may be kept, and draw again.")]
KeepBlack = Annotated[bool, typer.Option(
    "--keep-black", help="Keep every black drawn, and draw again.")]
SpendWhite = Annotated[bool, typer.Option(
    "--spend-white", help="If the action fails, spend a held white to succeed.")]


def _waiting(folder: str) -> None:
    import sys

    if sys.stderr.isatty():
        print(f"cwx: waiting for another cwx command in {folder} ...", file=sys.stderr)


def _note(text: str) -> None:
    import sys

    print(f"cwx: note: {' '.join(text.split())}", file=sys.stderr)


def changing(command: str, paths: list[str], journal_beside: str | None) -> "Change":
    """The files one command changes, under their locks, with the terminal told of waits."""
    from cwx.files import Change

    return Change(command, paths, journal_beside, waiting=_waiting, note=_note)


def reading(paths: list[str]) -> "AbstractContextManager[Change]":
    """Files read under their locks (another command's interrupted change is only noted)."""
    from cwx import files

    return files.reading(paths, waiting=_waiting, note=_note)


def group(name: str, help: str) -> typer.Typer:
    """A command group (app.py builds each of its commands only when it is called)."""
    return typer.Typer(name=name, help=help, add_completion=False)


def rng(seed: int | None) -> "random.Random":
    """A seeded generator, or the operating system's randomness: rapid calls never repeat."""
    import random

    return random.Random(seed) if seed is not None else random.SystemRandom()


def clock_character(change: "Change", path: str) -> "ClockCharacter":
    from cwx.errors import BadFile
    from cwx.sheets import ClockCharacter

    sheet = change.character(path)
    if not isinstance(sheet, ClockCharacter):
        raise BadFile("is a Color Wheel character; ClockWorx commands need a clockworx one",
                      path=path, key="system")
    return sheet


def wheel_character(change: "Change", path: str) -> "WheelCharacter":
    from cwx.errors import BadFile
    from cwx.sheets import WheelCharacter

    sheet = change.character(path)
    if not isinstance(sheet, WheelCharacter):
        raise BadFile("is a ClockWorx character; Color Wheel commands need a colorwheel one",
                      path=path, key="system")
    return sheet


@contextmanager
def about(path: str) -> Iterator[None]:
    """Errors raised inside name `path`: a rule refused a move on that character."""
    from cwx.errors import CwxError

    try:
        yield
    except CwxError as error:
        if error.path is None:
            raise error.located(path) from None
        raise


def wheel_table(change: "Change", char: str, bag: str) -> "tuple[WheelCharacter, BagSheet, Table]":
    """A Color Wheel character and a bag, read under their locks, as one table."""
    from cwx.colorwheel import Table

    sheet = wheel_character(change, char)
    bag_sheet = change.bag(bag)
    return sheet, bag_sheet, Table(bag_sheet.bag, bag_sheet.reserve, sheet.luck)


def save_table(change: "Change", char: str, bag: str, before: "Table", after: "Table") -> None:
    """Write the dice that moved, to the character's file and the bag's."""
    from cwx.sheets import table_edits

    held, dice = table_edits(before, after)
    for key, value in held:
        change.set(char, key, value)
    for key, value in dice:
        change.set(bag, key, value)


def create(command: str, file: str, sheet: "Character | BagSheet", *, force: bool,
           result: dict[str, Any], who: str | None = None) -> None:
    """Write a new character or bag file (refusing an existing one unless forced)."""
    from cwx import files, sheets, templates

    kind: sheets.Kind = "bag" if isinstance(sheet, sheets.BagSheet) else "character"
    text = templates.text_of(sheet, files.schema_beside(file, kind))
    with changing(command, [file], journal_beside=file) as change:
        change.create(file, text, force=force, meant=sheets.data_of(sheet))
        change.record(result, who=who, file=file)


def record(change: "Change", who: str, path: str, result: dict[str, Any],
           bag: str | None = None) -> None:
    """Journal this change: who acted, from which file (and bag), and the command's result."""
    change.record(result, who=who, file=path, bag=bag)


def complete_traits(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion: the trait names in the --char file given so far."""
    import tomllib

    path = ctx.params.get("char")
    if not path:
        return []
    try:
        with open(path, "rb") as file:
            traits = tomllib.load(file).get("traits", {})
    except (OSError, ValueError):
        return []
    names = [n for value in traits.values() if isinstance(value, list) for n in value]
    names += [k for k, v in traits.items() if not isinstance(v, list)]
    return [n for n in names if isinstance(n, str) and n.casefold().startswith(
        incomplete.casefold())]


def complete_colours(incomplete: str) -> list[str]:
    from cwx.colorwheel import COLOURS

    return [c for c in COLOURS if c.startswith(incomplete.casefold())]
