"""What several commands share: options, randomness, opening files under their locks,
and the skeleton of a Color Wheel move.

Every command module imports this one at start-up, so it imports nothing heavy at the
top: the files layer and the rules come in inside the functions that need them."""

import os
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, TypeVar

import typer

from cwx.errors import BadFile, BadValue, CwxError, RuleForbids
from cwx.hints import did_you_mean, nearest

if TYPE_CHECKING:
    import random

    from cwx import journal
    from cwx.colorwheel import Table
    from cwx.files import Change
    from cwx.sheets import BagSheet, Character, ClockCharacter, WheelCharacter

# What is typed at every action has a short form, the same in every command: -c the
# character, -b the bag, -t the trait, -C the action's colour, -g the guess, -T the
# target (output.py: -j for --json).
Seed = Annotated[int | None, typer.Option(
    metavar="N", help="Make the randomness reproducible.",
    show_default="the operating system's")]
CharFile = Annotated[str, typer.Option(
    "--char", "-c", metavar="CHAR", show_default=False,
    help="The character: a file, or a name in the campaign (sue finds sue.toml, or the "
         "file whose name is Sue).")]
MaybeChar = Annotated[str | None, typer.Option(
    "--char", "-c", metavar="CHAR", show_default=False,
    help="The character: a file, or a name in the campaign.")]
BagFile = Annotated[str | None, typer.Option(
    "--bag", "-b", metavar="FILE", show_default="the campaign's bag",
    help="The bag's file.")]
CampaignFolder = Annotated[str, typer.Argument(
    help="A folder of the campaign.", metavar="DIR", show_default="the current folder")]
Force = Annotated[bool, typer.Option("--force", help="Replace an existing file.")]
ExitCode = Annotated[bool, typer.Option(
    "--exit-code", help="Exit 1 when the action fails (2 is still an error).")]
# The player's answers to the Color Wheel's choices, for a draw or for its odds.
KeepWhite = Annotated[bool, typer.Option(
    "--keep-white", help="Keep every white that may be kept, and draw again.")]
KeepBlack = Annotated[bool, typer.Option(
    "--keep-black", help="Keep every black drawn, and draw again.")]
SpendWhite = Annotated[bool, typer.Option(
    "--spend-white", help="If the action fails, spend a held white to succeed.")]


def group(name: str, help: str) -> typer.Typer:
    """A command group (cli/lazy.py builds each of its commands only when it is called)."""
    return typer.Typer(name=name, help=help, add_completion=False)


def rng(seed: int | None) -> "random.Random":
    """A seeded generator, or the operating system's randomness: rapid calls never repeat."""
    import random

    return random.Random(seed) if seed is not None else random.SystemRandom()


# ---------------------------------------------------------------- files, under their locks


def _waiting(folder: str) -> None:
    if sys.stderr.isatty():
        print(f"cwx: waiting for another cwx command in {folder} ...", file=sys.stderr)


def note(text: str) -> None:
    """Tell the player something on stderr, beside the result (never inside --json)."""
    from cwx.printable import printable  # a name from a file is shown, never obeyed

    print(f"cwx: note: {printable(' '.join(text.split()))}", file=sys.stderr)


def changing(command: str, paths: list[str], journal_for: str | None, *,
             new_root: str | None = None) -> "Change":
    """The files one command changes, under their locks, journaled where `journal_for`
    belongs: its campaign's root, or outside any campaign its own folder (None: files
    that are not the game's, such as git's, are not journaled). `new_root`: a campaign
    being made, which journals its own making."""
    from cwx import campaign
    from cwx.files import Change

    journal_in = new_root or (campaign.journal_folder(journal_for) if journal_for else None)
    return Change(command, paths, journal_in, waiting=_waiting, note=note)


def reading(paths: list[str]) -> "AbstractContextManager[Change]":
    """Files read under their locks (another command's interrupted change is only noted)."""
    from cwx import files

    return files.reading(paths, waiting=_waiting, note=note)


def character_path(value: str) -> str:
    """--char: a path (an existing one wins), or the name of a character of the campaign
    found from the current folder: `sue` finds sue.toml, or the file whose name is Sue."""
    from cwx import campaign, files, sheets
    from cwx.traitnames import fold

    folder = os.path.isdir(value)
    if (os.path.lexists(value) and not folder) or not value.strip():
        return value
    root = campaign.root_above(".")
    if folder and (root is None or os.path.dirname(value) or value in (".", "..")):
        raise BadFile("is a folder; give a character's file, or its name", path=value)
    if root is None or os.path.dirname(value):
        return _missing(value, "character")
    wanted = fold(value).removesuffix(".toml")
    found: dict[str, str] = {}  # by real path: a file reached by a link too is one character
    names: dict[str, str] = {}  # for "did you mean": a name compared, and what is shown
    for path in campaign.files_under([root], nested=False).tomls:
        path = os.path.relpath(path)
        try:
            data = files.parse(files.read_bytes(path), path)
        except CwxError:
            if fold(files.stem(path)) == wanted:
                raise  # the file asked for by its name is broken: say how, not "no such"
            continue
        if sheets.kind_of(data) != "character":
            continue
        name = data.get("name")
        if not isinstance(name, str):
            name = files.stem(path)
        # Suggested in the form typed: a file's path for "….toml", else the character's name
        # (over the file's stem where the two fold alike).
        names[name] = name
        if value.endswith(".toml"):
            names[os.path.basename(path)] = os.path.relpath(path)
        elif fold(files.stem(path)) != fold(name):
            names[files.stem(path)] = files.stem(path)
        if wanted in (fold(files.stem(path)), fold(name)):
            real = os.path.realpath(path)
            if real not in found or os.path.abspath(found[real]) != real:
                found[real] = os.path.relpath(path)  # the file itself over a link to it
    if len(found) > 1:
        raise BadValue(f"{value}: two characters answer to that name, "
                       f"{' and '.join(found.values())}; give the file")
    if not found and folder:
        raise BadFile("is a folder, and no character of the campaign has that name; give a "
                      "character's file, or its name", path=value)
    if not found:
        raise BadValue(f"{value}: no such file, and no character of that name in the "
                       f"campaign{did_you_mean(value, names, names)}")
    return next(iter(found.values()))


def _missing(path: str, kind: str) -> str:
    """A path that does not exist: said now, with the nearest file of its folder that is a
    `kind` ("character" or "bag"), named as the path was typed."""
    from cwx import files, sheets

    folder = os.path.dirname(path)
    try:
        names = [n for n in os.listdir(folder or ".") if n.endswith(".toml")]
    except OSError:
        return path  # the files layer says what is wrong with the folder
    near = {}
    for name in nearest(os.path.basename(path), names, 8):  # read only these: a folder may be big
        try:
            data = files.parse(files.read_bytes(os.path.join(folder, name)), name)
        except CwxError:
            continue
        if sheets.kind_of(data) == kind:
            near[name] = os.path.join(folder, name)
    raise BadFile(f"no such file{did_you_mean(os.path.basename(path), near, near)}", path=path)


def last_action(char: str) -> "journal.Action | None":
    """The character's last action, from the end of the journal it is journaled in."""
    from cwx import campaign, journal

    folder = os.path.realpath(campaign.journal_folder(char))
    return journal.last_action(journal.path_in(folder), journal.name_in(folder, char))


def bag_path(value: str | None, near: str, ask: str = "with --bag") -> str:
    """--bag, or left out: the campaign's default bag (campaign.toml), else its only bag.
    `ask`: how the command takes a bag, for the error that says to give one."""
    from cwx import campaign, files, sheets

    if value:
        if os.path.isdir(value):
            raise BadFile("is a folder; give the bag's file", path=value)
        return value if os.path.lexists(value) else _missing(value, "bag")
    root = campaign.root_above(os.path.dirname(os.path.abspath(near)))
    if root is None:
        raise BadValue(f"say which bag {ask} (outside a campaign there is no default)")
    named = campaign.settings(root).bag
    if named:
        return os.path.relpath(os.path.join(root, named))
    bags = []
    for path in campaign.files_under([root], nested=False).tomls:
        try:
            if sheets.kind_of(files.parse(files.read_bytes(path), path)) == "bag":
                bags.append(os.path.relpath(path))
        except CwxError:
            continue
    if len(bags) != 1:
        raise BadValue(f"the campaign has {len(bags) or 'no'} bag{'s' if len(bags) != 1 else ''}"
                       f"{': ' + ', '.join(bags) if bags else ''}; say which {ask}, or "
                       "name the default as bag = \"…\" in campaign.toml")
    return bags[0]


def in_campaign(folder: str, unreadable: Callable[[CwxError], None] | None = None,
                ) -> tuple[str, list[str]]:
    """The campaign `folder` is in (its root), and its character and bag files, named from
    the current folder; any other TOML file there is the player's own and left out. A file
    that cannot be read is an error, or with `unreadable`, told to it and left out."""
    from cwx import campaign, files, sheets

    root = campaign.root_above(folder)
    if root is None:
        raise BadFile("is not inside a campaign (no campaign.toml here or above); "
                      "cwx init marks one", path=folder)
    paths, seen, real_root = [], set(), os.path.realpath(root)
    for path in campaign.files_under([root], nested=False).tomls:
        path, real = os.path.relpath(path), os.path.realpath(path)
        if os.path.basename(path) == campaign.SETTINGS or real in seen or \
                campaign.root_above(os.path.dirname(real)) != real_root:
            continue  # the settings; a file met already, or one of another campaign, by a link
        seen.add(real)
        try:
            kind = sheets.kind_of(files.parse(files.read_bytes(path), path))
        except CwxError as error:
            if unreadable is None:
                raise
            unreadable(error)
            continue
        if kind is not None:
            paths.append(path)
    return root, paths


@contextmanager
def about(path: str) -> Iterator[None]:
    """Errors raised inside name `path`: a rule refused a move on that character."""
    try:
        yield
    except CwxError as error:
        if error.path is None:
            raise error.located(path) from None
        raise


def clock_character(change: "Change", path: str) -> "ClockCharacter":
    from cwx.sheets import ClockCharacter

    return _character_of(change, path, ClockCharacter)


def wheel_character(change: "Change", path: str) -> "WheelCharacter":
    from cwx.sheets import WheelCharacter

    return _character_of(change, path, WheelCharacter)


_SheetOf = TypeVar("_SheetOf", "ClockCharacter", "WheelCharacter")
_TITLE = {"clockworx": "ClockWorx", "colorwheel": "Color Wheel"}


def _character_of(change: "Change", path: str, kind: type[_SheetOf]) -> _SheetOf:
    """The character at `path`, which must play the system a command's rules are for."""
    sheet = change.character(path)
    if not isinstance(sheet, kind):
        wanted = kind._field_defaults["system"]
        raise BadFile(f"is a {_TITLE[sheet.system]} character; {_TITLE[wanted]} commands "
                      f"need a {wanted} one", path=path, key="system")
    return sheet


def create(command: str, file: str, sheet: "Character | BagSheet", *, force: bool,
           result: dict[str, Any], who: str | None = None) -> None:
    """Write a new character or bag file (refusing an existing one unless forced)."""
    from cwx import campaign, files, sheets, templates

    kind: sheets.Kind = "bag" if isinstance(sheet, sheets.BagSheet) else "character"
    campaign.where_check_looks(file)
    text = templates.file_of(sheet, files.schema_beside(file, kind))
    with changing(command, [file], journal_for=file) as change:
        if force and os.path.lexists(file):
            _no_dice_lost(change, file)
        if change.journal:  # the ledger's word too: the file may be emptied, or gone
            _none_left_behind(change, file)
        change.create(file, text, force=force, meant=sheets.data_of(sheet))
        change.record(result, who=who, file=file)


def _no_dice_lost(change: "Change", file: str) -> None:
    """A file made anew over one that holds whites or blacks would destroy them (W9)."""
    from cwx import ledger

    try:
        held = ledger.dice(ledger.values_of(change.data(file)))
    except CwxError:
        return  # a file cwx cannot read holds nothing it can count: --force may replace it
    if held:
        raise RuleForbids(f"holds {held} white and black dice, which a new file would destroy "
                          "(W9: dice are never created or destroyed); end the game first (cwx "
                          "game end), or move the dice by hand and cwx adopt the files",
                          path=file)


def _none_left_behind(change: "Change", file: str) -> None:
    """A file made where the ledger says one held dice (gone, emptied or unreadable now)
    would hide their loss (W9)."""
    from cwx import ledger

    held = ledger.held_by(change.journal or "", change.name_of(file))
    if held:
        raise RuleForbids(f"the ledger says the file here holds {held} white and black "
                          "dice, which a new file would hide (W9: dice are never created or "
                          "destroyed); restore it (git checkout it), or put its dice where the "
                          "table decides and cwx adopt it with those files", path=file)


# ---------------------------------------------------------------- the Color Wheel's moves


class Move(NamedTuple):
    """What one Color Wheel rule did: the table after it, what the journal and --json say,
    and the character's traits when the move changed them."""

    table: "Table"
    result: dict[str, Any]
    traits: "Mapping[str, tuple[str, ...]] | None" = None


def wheel_move(command: str, char: str, bag: str | None,
               play: "Callable[[WheelCharacter, Table], Move]") -> "tuple[WheelCharacter, Move]":
    """The skeleton of every Color Wheel move: find the character (by file or name) and
    its bag, open both under their locks, play one rule on their table, write the dice
    (and traits) that moved to both files, and journal it, all or nothing."""
    from cwx.colorwheel import Table

    char = character_path(char)
    bag = bag_path(bag, char)
    with changing(command, [char, bag], journal_for=char) as change:
        sheet = wheel_character(change, char)
        bag_sheet = change.bag(bag)
        with about(char):
            move = play(sheet, Table(bag_sheet.bag, bag_sheet.reserve, sheet.luck))
        change.save(char, sheet, sheet._replace(luck=move.table.held,
                                                traits=move.traits or sheet.traits))
        change.save(bag, bag_sheet, bag_sheet._replace(bag=move.table.bag,
                                                       reserve=move.table.reserve))
        change.record(move.result, who=sheet.name, file=char, bag=bag)
    return sheet, move


# ---------------------------------------------------------------- shell completion
# Each gives every candidate: cli/lazy.py keeps those the word typed so far begins, in
# any case, and quotes them for the shell.


def complete_traits(ctx: typer.Context) -> list[str]:
    """The trait names of the --char given so far (a file, or a name in the campaign)."""
    import tomllib

    path = ctx.params.get("char")
    if not path:
        return []
    try:
        path = character_path(path)  # a name in the campaign completes as well
    except CwxError:
        return []
    try:
        with open(path, "rb") as file:
            traits = tomllib.load(file).get("traits", {})
    except (OSError, ValueError):
        return []
    if not isinstance(traits, dict):
        return []
    names = [n for value in traits.values() if isinstance(value, list) for n in value]
    names += [k for k, v in traits.items() if not isinstance(v, list)]
    return [n for n in names if isinstance(n, str)]


def complete_colours() -> list[str]:
    """The colours of an action (docs/rules.md W1)."""
    from cwx.colorwheel import COLOURS

    return list(COLOURS)


def complete_dice() -> list[str]:
    """The colours a die in the bag can have (W3): only those can be drawn."""
    from cwx.colorwheel import DICE

    return list(DICE)


def complete_systems() -> list[str]:
    from cwx.sheets import SYSTEMS

    return list(SYSTEMS)
