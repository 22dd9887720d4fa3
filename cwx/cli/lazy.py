"""The lazy command groups, the way a command line is run, how help is shown, and names
completed in any case. Typer and Click only through cli/toolkit.py."""

import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import typer

from cwx.base.errors import Usage
from cwx.cli import COMPLETE, toolkit
from cwx.cli.output import colour_on
from cwx.cli.toolkit import (
    ClickException,
    CompletionItem,
    Context,
    HelpFormatter,
    MarkupMode,
    NoArgsIsHelpError,
    TyperGroup,
    UsageError,
)

# A name on the command line is a module of a package (cwx.commands) with a Typer `app`:
# a group of commands (cwx char new, cwx char show), or, when its one command has the
# module's own name, that command (cwx log).


def commands(package: str) -> list[str]:
    """The command modules of a package, by name: a new module is a new command."""
    import importlib

    if _kept is not None and f"/{package}" in _kept:
        return list(_kept[f"/{package}"])
    folder = os.path.dirname(importlib.import_module(package).__file__ or "")
    found = sorted(name[:-3] for name in os.listdir(folder)
                   if name.endswith(".py") and not name.startswith("_"))
    if _kept is not None:
        _kept[f"/{package}"] = found
    return found


def single(app: typer.Typer, name: str) -> bool:
    """Whether a command module is one command (`cwx check`) rather than a group."""
    return toolkit.command_names(app) == [name] and not toolkit.has_groups(app)


_package = "cwx.commands"  # the root's package of commands (lazy_root sets it)


def lazy_root(package: str) -> type[TyperGroup]:
    """The root group's class: a command's module is imported, and only its own command
    built, when that command is called."""
    global _package
    _package = package

    class Root(TyperGroup):
        def list_commands(self, ctx: Any) -> list[str]:
            return commands(package)

        def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
            # Built before --paint is read: the root decides when its help is asked for.
            self.rich_markup_mode = help_markup()
            super().format_help(ctx, formatter)

        def resolve_command(self, ctx: Context, args: list[str]) -> Any:
            return _resolved(self, ctx, args)

        def get_command(self, ctx: Any, cmd_name: str) -> Any:
            if not cmd_name.isidentifier() or cmd_name.startswith("_") or \
                    cmd_name not in commands(package):
                return None
            import importlib

            if _kept is not None and cmd_name in _kept:
                return _kept[cmd_name]
            app = importlib.import_module(f"{package}.{cmd_name}").app
            found = _built(app, cmd_name, cmd_name) if single(app, cmd_name) else \
                _Section(cmd_name, app)
            if _kept is not None:
                _kept[cmd_name] = found
            return found

    return Root


class _Section(TyperGroup):
    """A command group whose commands are built only when one is called."""

    def __init__(self, name: str, app: typer.Typer) -> None:
        super().__init__(name=name, help=toolkit.help_of(app), no_args_is_help=True,
                         rich_markup_mode=help_markup())
        self.app = app
        self.names = toolkit.command_names(app)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.names)

    def resolve_command(self, ctx: Context, args: list[str]) -> Any:
        return _resolved(self, ctx, args)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.names:
            return None
        key = f"{self.name} {cmd_name}"
        if _kept is not None and key in _kept:
            return _kept[key]
        found = _named(toolkit.build_one(self.app, cmd_name), cmd_name, key)  # just this one
        if _kept is not None:
            _kept[key] = found
        return found


def _resolved(group: TyperGroup, ctx: Context, args: list[str]) -> Any:
    """A command by its name, or, mistyped, the nearest ones suggested (as git does)."""
    try:
        return TyperGroup.resolve_command(group, ctx, args)
    except UsageError as error:
        name = args[0] if args else ""
        if not error.message.startswith("No such command") or name.startswith("-"):
            raise
        from cwx.base.hints import did_you_mean

        if ctx.parent is None:  # the root: a group's command by its own name, as play takes it
            words = shortcuts(_package).get(name)
            if words:
                ctx.fail(f"No such command {name!r} (did you mean '{' '.join(words)}'?)")
        ctx.fail(f"No such command {name!r}{did_you_mean(name, group.list_commands(ctx))}")


# A scene (cwx play) runs many commands in one process: each is built once and kept, by
# its words, and so is the root. A single command builds what it runs and ends.
_kept: dict[str, Any] | None = None


@contextmanager
def keeping_built() -> Iterator[None]:
    """Every command built inside is kept for the lines that follow (cwx play), and
    forgotten after (a process that goes on, a test's, builds anew)."""
    global _kept
    before = _kept
    _kept = {} if before is None else before
    try:
        yield
    finally:
        _kept = before


def _built(app: typer.Typer, name: str, path: str = "") -> Any:
    return _named(toolkit.build(app), name, path)  # a TyperCommand or a TyperGroup


def _named(command: Any, name: str, path: str = "") -> Any:
    """A built command under its name, with cwx's help and completion; `path` is its
    words after cwx ("bag draw")."""
    from cwx.cli.common import SHARED, shared

    command.name = name
    if path in SHARED:  # by post, a pull before it acts and a push after
        shared(command, path)
    command.rich_markup_mode = help_markup()
    toolkit.complete_through(command, _offered)
    return command


# ---------------------------------------------------------------- help
#
# Typer draws help with rich: boxes and colour, for a person at a terminal. Read by a
# program (help2man runs `cwx --help` through a pipe), or without colour, it is Click's
# plain text. A command is built after the root's options (--paint) are read; the root
# itself decides when its help is asked for.


def help_markup() -> MarkupMode:
    """Rich help for a terminal that takes colour (--paint, NO_COLOR), else plain text."""
    return "rich" if sys.stdout.isatty() and colour_on(sys.stdout) else None


def _any_case(items: list[CompletionItem], incomplete: str) -> list[CompletionItem]:
    word = incomplete.casefold()
    return [item for item in items if str(item.value).casefold().startswith(word)]


# A parameter that takes a file says so in its help (FILE, PATH, and CHAR: a file or a
# name; DIR, a folder); there the shell's own file names follow cwx's candidates, and
# nowhere else (a trait or a number is never a file of the folder).
_FILES = frozenset({"FILE", "PATH", "CHAR"})


def _offered(param: Any, found: list[CompletionItem], incomplete: str) -> list[CompletionItem]:
    """The candidates of `found` that match the word in any case; and, where a file is
    taken, Click's item asking the shell for file names."""
    offered = _any_case([item for item in found if item.type == "plain"], incomplete)
    metavar = (param.metavar or "").strip("[].")
    if metavar == "DIR":
        offered.append(CompletionItem(incomplete, type="dir"))
    elif toolkit.takes_file(param) or metavar in _FILES:
        offered.append(CompletionItem(incomplete, type="file"))
    return offered


def invoke(app: typer.Typer, args: Sequence[str] | None) -> int:
    """Run a command line: its exit status; usage errors become cwx's own `Usage`."""
    if _kept is not None and "" in _kept:
        command = _kept[""]
    else:
        command = toolkit.build(app)
        if _kept is not None:
            _kept[""] = command
    if instruction := os.environ.get(COMPLETE):  # a shell's completion script asks
        from cwx.cli.completion import answer

        try:
            said = answer(command, instruction)
        except ValueError as error:
            raise Usage(str(error)) from None
        if said.text:  # in UTF-8, and a file's name as its bytes are (not UTF-8 or not)
            sys.stdout.flush()
            sys.stdout.buffer.write(f"{said.text}\n".encode("utf-8", "surrogateescape"))
        return said.status
    try:
        # A reader that went away (`cwx --help | head -1`) is a BrokenPipeError, which
        # main ends quietly, with 0.
        status = toolkit.run(command, args, "cwx")
    except NoArgsIsHelpError as error:
        # `cwx` or `cwx char` alone asks for the manual. With rich, Typer has printed it
        # already while making the error; without, it is the error's message. `cwx` alone
        # names no command: the help, then a usage error (2, as ruff's) in cwx's one line.
        if text := error.format_message().strip():
            print(text)
        if error.ctx is not None and error.ctx.parent is None:
            raise Usage("no command given: the commands are listed above, and `cwx help "
                        "COMMAND` shows one's help") from None
        return 0
    except UsageError as error:
        raise _usage(error, command, args) from None
    except ClickException as error:
        raise Usage(error.format_message()) from None
    return status if isinstance(status, int) else 0


def given(app: typer.Typer, args: Sequence[str]) -> tuple[str, list[tuple[str, Any]]]:
    """What a command line gives its command's parameters, with nothing run: the command
    ("bag draw") and each parameter's metavar (FILE, DIR, CHAR...) or name, and value."""
    command = _kept.get("") if _kept is not None else None
    words = list(args)
    while words[:1] and words[0].startswith("-"):  # the root's own options: no paths
        words = words[2:] if words[0] == "--paint" else words[1:]
    return toolkit.given(command or toolkit.build(app), words, "cwx")


def _usage(error: UsageError, command: Any, args: Sequence[str] | None) -> Usage:
    """Click's usage error as cwx's one line, with where to read more."""
    where = error.ctx.command_path if error.ctx is not None else _path_of(command, args)
    if getattr(error, "option_name", None) == "--paint":  # the root's, said too late
        return Usage("--paint is cwx's own option and goes before the command: "
                     f"cwx --paint always {where.removeprefix('cwx ')} …")
    said = error.format_message().rstrip(".")
    # Click asks its suggestion as a sentence of its own; cwx's line says it as commands
    # do: No such option '--hlep' (did you mean '--help'?).
    if found := re.fullmatch(r"(.*?)\. \(?Did (you mean .*\?)\)?", said, re.DOTALL):
        said = f"{found[1]} (did {found[2]})"
    return Usage(f"{said}; see '{where} --help'")


def _path_of(command: Any, args: Sequence[str] | None) -> str:
    """The command a command line names ("cwx clock verify"), for an error the option
    parser raised without saying whose option it was."""
    words, here = ["cwx"], command
    for arg in args if args is not None else sys.argv[1:]:
        inner = here.get_command(None, arg) if hasattr(here, "get_command") else None
        if inner is None:
            break
        words.append(arg)
        here = inner
    return " ".join(words)


def shortcuts(package: str) -> dict[str, list[str]]:
    """A group's command by its own name, where that names no command elsewhere (`draw`
    is `bag draw`), read from the groups' modules without building any command."""
    return {sub: words[0] for sub, words in _in_groups(package).items() if len(words) == 1}


def ambiguous(package: str) -> dict[str, list[list[str]]]:
    """A command's own name that several groups use (`spend`: luck spend, xp spend), and
    the commands it could be: no shortcut."""
    return {sub: words for sub, words in _in_groups(package).items() if len(words) > 1}


def _in_groups(package: str) -> dict[str, list[list[str]]]:
    """Each name of a group's command that names no command of its own, with the group
    commands it names."""
    import importlib

    top = set(commands(package))
    seen: dict[str, list[list[str]]] = {}
    for name in sorted(top):
        app = importlib.import_module(f"{package}.{name}").app
        if single(app, name):
            continue
        for sub in toolkit.shown_command_names(app):
            seen.setdefault(sub, []).append([name, sub])
    return {sub: words for sub, words in seen.items() if sub not in top}
