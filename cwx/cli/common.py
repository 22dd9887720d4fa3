"""What several commands share: their options, randomness, files opened under their locks,
and shell completion.

Every command module imports this one at start-up, so it imports nothing heavy at the
top: the files layer and the rules come in inside the functions that need them."""

import os
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cwx.base.errors import CwxError
from cwx.base.errors import about as about  # where commands have always found them
from cwx.base.errors import saying as saying
from cwx.cli.plain import changing as changing  # where commands have always found them
from cwx.cli.plain import note as note
from cwx.cli.plain import waiting

if TYPE_CHECKING:
    import random

    from cwx.campaign import operations
    from cwx.campaign.files import Change
    from cwx.campaign.folder import Campaign

# What is typed at every action has a short form, the same in every command: -c the
# character, -b the bag, -t the trait, -C the action's colour, -g the guess, -T the
# target (output.py: -j for --json).
Seed = Annotated[int | None, typer.Option(
    metavar="N", help="Make the randomness reproducible.",
    show_default="the operating system's")]
CharFile = Annotated[str, typer.Option(
    "--char", "-c", metavar="CHAR", show_default=False,
    autocompletion=lambda ctx: complete_characters(ctx),
    help="The character: a file, or a name in the campaign (sue is the file sue.toml, else "
         "the character whose name is Sue).")]
MaybeChar = Annotated[str | None, typer.Option(
    "--char", "-c", metavar="CHAR", show_default=False,
    autocompletion=lambda ctx: complete_characters(ctx),
    help="The character: a file, or a name in the campaign.")]
CharNamed = Annotated[str, typer.Argument(
    help="The character: a file, or a name in the campaign.", metavar="CHAR",
    autocompletion=lambda ctx: complete_characters(ctx), show_default=False)]
BagFile = Annotated[str | None, typer.Option(
    "--bag", "-b", metavar="FILE", show_default="the campaign's bag",
    autocompletion=lambda: complete_bags(), help="The bag's file.")]
CampaignFolder = Annotated[str, typer.Argument(
    help="A folder of the campaign.", metavar="DIR", show_default="the current folder")]
Force = Annotated[bool, typer.Option(
    "--force", help="Replace an existing file of the same kind (never any other file).")]
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


def command(name: str) -> typer.Typer:
    """A command of its own (`cwx check`): a module whose one command has its name."""
    return typer.Typer(name=name, add_completion=False)


def rng(seed: int | None) -> "random.Random":
    """A seeded generator, or the operating system's randomness: rapid calls never repeat."""
    import random

    return random.Random(seed) if seed is not None else random.SystemRandom()


# ---------------------------------------------------------------- files, under their locks


def here(folder: str = ".") -> "operations.Campaign":
    """The campaign the current folder (or `folder`) is in, or outside any that folder:
    its operations tell the player beside the result, and say when they wait for a lock."""
    from cwx.campaign import operations

    return operations.Campaign.around(folder, note=note, waiting=waiting)


DryRun = Annotated[bool, typer.Option(
    "--dry-run", help="Say what would change, and change nothing (no file, no journal "
    "line, no git).")]


# ---------------------------------------------------------------- by post

# The commands that change a campaign. Where its campaign.toml says `sync = true`, each
# pulls before it acts and pushes after, through cwx sync's own steps (bypost.py); each
# takes --no-sync (or CWX_NO_SYNC=1) to act on the clone alone, and --dry-run never syncs.
SHARED = frozenset({"adopt", "bag draw", "bag new", "char new", "clock pick", "clock reveal",
                    "clock resolve", "game end", "luck curse", "luck spend", "play",
                    "reconcile", "retire", "undo", "wheel buy", "xp spend"})

# Those of them that settle a hand edit: while cwx check refuses the campaign, they act
# before any pull (a pull first would commit the edit unsettled, and be refused).
_SETTLING = frozenset({"adopt", "reconcile", "retire"})

# Those of them that, told these, touch no file (a number picked, a guess against a
# number typed): they never sync, so they work offline as well.
_CHANGES_NOTHING: "dict[str, Callable[[dict[str, Any]], bool]]" = {
    "clock pick": lambda params: not params["keep_secret"],
    "clock resolve": lambda params: params["char"] is None and params["target"] is not None,
}


# Those of them that act on the character's last draw: what it is is read before the
# pull, so that one the pull brings is not turned unasked (wheelplay.turn).
_AIMED = frozenset({"luck curse", "luck spend"})


def _aim(params: dict[str, Any]) -> None:
    import contextlib

    from cwx.campaign import wheelplay

    if params.get("draw") is None:
        with contextlib.suppress(CwxError):  # the command says it, as without a pull
            camp = here()
            if camp.root is not None and camp.settings().sync:  # a pull comes first
                wheelplay.aim(camp, params["char"])


def shared(command: Any, path: str) -> None:
    """A built command of SHARED given --no-sync, its action run between the pull and
    the push when the campaign plays by post."""
    from cwx.cli import toolkit

    toolkit.add_flag(command, "--no-sync", "CWX_NO_SYNC", help=(
        "Act on this clone alone: no pull before, no push after, where campaign.toml says "
        "sync = true (cwx sync shares it later)."))
    changes_nothing = _CHANGES_NOTHING.get(path)

    def wrap(act: "Callable[..., Any]") -> "Callable[..., Any]":
        def callback(**params: Any) -> Any:
            alone = params.pop("no_sync") or params.get("dry_run", False) or \
                (changes_nothing is not None and changes_nothing(params))
            if not alone and path in _AIMED:
                _aim(params)
            return act(**params) if alone else _by_post(path, lambda: act(**params))

        return callback

    toolkit.wrap_callback(command, wrap)


def _by_post(command: str, act: "Callable[[], Any]") -> Any:
    camp = here()
    if camp.root is None or not camp.settings().sync:
        return act()
    from cwx.campaign import bypost

    def acted() -> Any:
        try:
            return act()
        except typer.Exit as exit:  # a status of its own (1: the action failed): still a
            return exit  # turn, shared before it ends the command

    done = bypost.around(f"cwx {command}", camp, acted, changing, note,
                         settles=command in _SETTLING)
    if isinstance(done, typer.Exit):
        raise done
    return done


def dry(said: str, dry_run: bool) -> str:
    """A command's report, or, for --dry-run, the same words as what would be done."""
    if not dry_run:
        return said
    return "Dry run (--dry-run): nothing was changed. This is what would be done:\n" + \
        "\n".join(f"  {line}" if line else line for line in said.splitlines())


def reading(paths: list[str], camp: "Campaign") -> "AbstractContextManager[Change]":
    """Files read under their locks (another command's interrupted change is only noted)."""
    from cwx.campaign import files

    return files.reading(paths, camp, waiting=waiting, note=note)


# ---------------------------------------------------------------- shell completion
# Each gives every candidate: cli/lazy.py keeps those the word typed so far begins, in
# any case, and quotes them for the shell.


def complete_traits(ctx: typer.Context) -> list[str]:
    """The trait names of the --char given so far (a file, or a name in the campaign)."""
    from cwx import systems
    from cwx.toml import tomlread

    path = ctx.params.get("char")
    if not path:
        return []
    try:
        path = here().character(path)  # a name in the campaign completes as well
        data = tomlread.parse(tomlread.read_bytes(path), path)
        return systems.system(data.get("system")).trait_names(systems.character(data, path))
    except CwxError:
        return []


def complete_characters(ctx: typer.Context) -> list[str]:
    """The campaign's characters as a player names them: a file here without `.toml`
    (sue), one elsewhere by its path (pcs/kris.toml), and each name (Sue is sue already);
    those of the command's system, for a command of one (bag draw: the Color Wheel's)."""
    from cwx import systems

    command = " ".join(ctx.command_path.split()[1:]) if ctx is not None else ""
    return _members("character", names=True, system=systems.system_playing(command))


def complete_bags() -> list[str]:
    """The campaign's bags, as paths from here."""
    return _members("bag", names=False)


def complete_players() -> list[str]:
    """The players the campaign's journal names (undo --player), most recent first."""
    from cwx.journal import history

    try:
        path = here().journal_file
    except CwxError:
        return []
    found: dict[str, str] = {}  # in any case once: the latest spelling
    for event in history.every(path):
        if event.player:
            found.pop(event.player.casefold(), None)
            found[event.player.casefold()] = event.player
            if len(found) > MOST_PLAYERS:  # a journal of a player a line: the latest kept
                del found[next(iter(found))]
    return list(reversed(found.values()))


MOST_PLAYERS = 1000  # players offered (a table has a handful): a name may be 4 KiB


def _members(kind: str, *, names: bool, system: str | None = None) -> list[str]:
    try:
        members = here().members(lambda error: None)
    except CwxError:
        return []
    found: dict[str, str] = {}
    for member in members:
        if member.kind != kind or (system is not None and member.data.get("system") != system):
            continue
        # A file here by its stem (sue is sue.toml); one in another folder by its path.
        typed = member.path.removesuffix(".toml") if names and os.sep not in member.path \
            else member.path
        found.setdefault(typed.casefold(), typed)
        name = member.data.get("name")
        if names and isinstance(name, str):
            found.setdefault(name.casefold(), name)
    return sorted(found.values())


def complete_colours() -> list[str]:
    """The colours of an action (docs/rules.md W1)."""
    from cwx.rules.colorwheel import COLOURS

    return list(COLOURS)


def complete_dice() -> list[str]:
    """The colours a die in the bag can have (W3): only those can be drawn."""
    from cwx.rules.colorwheel import DICE

    return list(DICE)


def complete_systems() -> list[str]:
    from cwx import systems

    return systems.system_names()


Colour = Annotated[str | None, typer.Option(
    "--color", "-C", metavar="COLOR", show_default=False,
    help="A colour of the wheel: red, yellow, blue, or orange, green, purple.",
    autocompletion=complete_colours)]
