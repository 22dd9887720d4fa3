"""A scene in one process (`cwx play`): cwx command lines, each run as `cwx` would run it
alone (its own change, its own lock, its own journal line), without paying Python's and
Typer's start-up for each. A line is a cwx command without `cwx`; a command of a group
whose name no other group uses may drop the group (`draw` is `bag draw`, `resolve` is
`clock resolve`)."""

from __future__ import annotations

import contextlib
import functools
import os
import shlex
import sys
from collections.abc import Iterable, Sequence

from cwx.base.errors import BadValue


def shortcuts() -> dict[str, list[str]]:
    """A group's command by its own name, where no other group has it (lazy.shortcuts)."""
    from cwx.cli import lazy
    from cwx.cli.app import COMMANDS

    return lazy.shortcuts(COMMANDS)


@functools.cache
def ambiguous() -> dict[str, list[list[str]]]:
    """A command's own name several groups use (lazy.ambiguous), read once a process."""
    from cwx.cli import lazy
    from cwx.cli.app import COMMANDS

    return lazy.ambiguous(COMMANDS)


def words_of(line: str, known: dict[str, list[str]]) -> list[str]:
    """A line as the words of a cwx command ([] for a blank line or a comment)."""
    if "\0" in line:
        raise BadValue("the line holds a NUL byte, which no command line can")
    try:
        words = shlex.split(line, comments=True)
    except ValueError as error:
        raise BadValue(f"cannot read the line ({error})") from None
    if words[:1] == ["cwx"]:
        words = words[1:]
    command = next((w for i, w in enumerate(words) if not w.startswith("-") and
                    (i == 0 or words[i - 1] != "--paint")), None)
    if command == "play":
        raise BadValue("a scene plays cwx commands; `play` is the scene itself")
    if {"--install-completion", "--show-completion"} & {w.split("=", 1)[0] for w in words}:
        raise BadValue("a scene plays the game; completion is installed from the shell "
                       "(cwx --install-completion SHELL), never by a scene")
    if words and words[0] in known:
        words = [*known[words[0]], *words[1:]]
    elif words and (could := ambiguous().get(words[0])):
        raise BadValue(f"'{words[0]}' is ambiguous: " +
                       " or ".join(" ".join(command) for command in could))
    return words


def campaign_played(script: str | None = None) -> str:
    """The real folder a scene acts in: the campaign of the folder it is played from;
    outside any campaign, the campaign that holds the script (a README's `cwx play
    camp/scene.cwx`, run from a home folder, plays inside camp), else the script's own
    folder, else the folder it is played from (and what lies below it)."""
    from cwx.campaign.folder import root_above

    if (here := root_above(".")) is not None:
        return os.path.realpath(here)
    if script is not None and script != "-":
        folder = os.path.dirname(os.path.abspath(script))
        return os.path.realpath(root_above(folder) or folder)
    return os.path.realpath(".")


# Where a line names a place: a file or a folder (FILE, PATH, DIR), or a character by its
# file or its name (CHAR). git's own commands (the merge driver, the hooks) take the
# files git gives them, and `git setup` writes the clone's hooks and config, which may be
# a repository above the campaign: none is a scene's to run.
_PLACES = frozenset({"FILE", "PATH", "DIR", "CHAR"})
_GITS_OWN = frozenset({"git merge", "git hook", "git setup"})


def confined(words: Sequence[str], bound: str) -> None:
    """A scene acts only inside the campaign it is played in (`bound`): every path a line
    names, a character found by its name, and where a link leads, lie within it; else
    the line is refused (BadValue) before it runs."""
    from cwx.base.errors import CwxError
    from cwx.campaign.folder import Campaign, inside
    from cwx.cli import lazy
    from cwx.cli.app import app

    command, values = lazy.given(app, words)
    if command in _GITS_OWN:
        raise BadValue(f"`{command}` is git's to run on the files it names, or yours in a "
                       "shell (it writes the clone's hooks and config), never a scene's")
    for metavar, value in values:
        if metavar.strip("[].") not in _PLACES or not value:
            continue
        for path in [value] if isinstance(value, str) else value:
            if path.startswith("~"):
                raise BadValue(f"{path}: a scene names no place in a home folder (~); it acts "
                               f"only inside the campaign at {bound}")
            found = path
            if metavar.strip("[].") == "CHAR":
                # A name is the file the campaign finds for it; one it cannot find is
                # said when the line runs.
                with contextlib.suppress(CwxError):
                    found = Campaign.around(".").character(path)
            real = os.path.realpath(found)
            hidden = next((part for part in _below(real, bound) if part.startswith(".")), None)
            if hidden is not None:  # a shell's start-up file, git's folder: never a game's
                raise BadValue(f"{path}: a scene names no hidden file or folder ({hidden}); "
                               "campaign files are never hidden")
            if not inside(real, bound):
                linked = real != os.path.normpath(os.path.abspath(found))
                how = "leads through a link to" if linked else "is"
                raise BadValue(f"{path} {how} {real}, outside the campaign at {bound}; a "
                               "scene acts only inside the campaign it is played in")


def _below(real: str, bound: str) -> list[str]:
    """The parts of the path `real` below the folder `bound` (none when it lies outside)."""
    relative = os.path.relpath(real, bound)
    return [] if relative.startswith(os.pardir) else [p for p in relative.split(os.sep)
                                                      if p != os.curdir]


def run(words: Sequence[str], *, as_json: bool) -> int:
    """One command, as `cwx` alone would run it: its exit status (its output printed)."""
    from cwx.cli.main import run as run_one

    if as_json and not {"--json", "-j"} & set(words):
        words = [*words, "--json"]
    status = run_one(list(words))
    sys.stdout.flush()
    return status


_playing: list[str] = []  # the scenes being played, the outermost first


def playing() -> bool:
    """Whether the command runs as a line of a scene (which never sets up git: `cwx git
    setup` writes the clone's hooks and config, perhaps a repository's above the campaign)."""
    return bool(_playing)


def play(lines: Iterable[str], name: str, *, keep_going: bool, as_json: bool,
         start: int = 1, resume: str | None = None, script: str | None = None) -> int:
    """Every line of a scene script from line `start` on, in turn (the lines before are
    skipped, never run); the first that fails (exit 2 or more) stops it, named
    (`scene.cwx:14: …`) with how to resume the script `resume` there, unless
    `keep_going`. The scene's exit status."""
    from cwx.cli import lazy

    _playing.append(name)
    try:
        with lazy.keeping_built():
            return _play(lines, name, keep_going=keep_going, as_json=as_json, start=start,
                         resume=resume, bound=campaign_played(script))
    finally:
        _playing.pop()


def _play(lines: Iterable[str], name: str, *, keep_going: bool, as_json: bool, start: int,
          resume: str | None, bound: str) -> int:
    known = shortcuts()
    failed = 0
    for number, line in enumerate(lines, 1):
        if number < start:  # played before: running it again would count it twice
            continue
        try:
            words = words_of(line, known)
            confined(words, bound)
        except BadValue as error:
            status = _said(f"{name}:{number}: {error.message}" +
                           ("" if keep_going else _stops(number, resume)))
        else:
            if not words:
                continue
            status = run(words, as_json=as_json)
            if status >= 2:
                _said(f"{name}:{number}: `{line.strip()}` failed (exit {status})" +
                      ("" if keep_going else _stops(number, resume)))
        if status >= 2:
            failed += 1
            if not keep_going:
                return 2
    return 2 if failed else 0


def _stops(number: int, resume: str | None) -> str:
    """What a stopped scene says: the lines before it ran (and count), so the mended
    script resumes at the failing line rather than playing them again."""
    if resume is None:  # a line typed at the prompt: nothing to resume
        return ""
    from cwx.base.hints import typed

    script = "-" if resume == "-" else typed(resume)
    return (f"; the scene stops here, the lines before it played: mend it, then resume "
            f"with cwx play --from {number} {script} (--keep-going plays on)")


def _said(text: str) -> int:
    from cwx.base.printable import printable

    print(f"cwx: {printable(text)}", file=sys.stderr, flush=True)
    return 2


# ---------------------------------------------------------------- at a terminal


def history_file(root: str | None) -> str:
    """Where a campaign's prompt history is kept: the clone's git folder, or the user's
    state folder, one file a campaign; never a file git tracks."""
    import hashlib

    from cwx.git import repo

    folder = os.path.realpath(root or ".")
    clone = repo.of(folder)
    if clone is not None:
        place = os.path.relpath(folder, clone.top)
        name = "history" if place == "." else f"history-{place.replace(os.sep, '_')}"
        return os.path.join(repo.git_folder(clone), "cwx", name)
    state = os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    return os.path.join(state, "cwx", f"history-{hashlib.sha256(folder.encode()).hexdigest()[:16]}")


class Completer:
    """Readline's completer: what the shell's completion offers, for the line so far."""

    def __init__(self) -> None:
        from cwx.cli import COMPLETE, toolkit
        from cwx.cli.app import app
        from cwx.cli.completion import Bash

        self.known = shortcuts()
        self.completion = Bash(toolkit.build(app), {}, "cwx", COMPLETE)
        self.matches: list[str] = []

    def __call__(self, text: str, state: int) -> str | None:
        if state == 0:
            import readline

            line = readline.get_line_buffer()[:readline.get_endidx()]
            self.matches = self.offered(line, readline.get_begidx())
        return self.matches[state] if state < len(self.matches) else None

    def offered(self, line: str, begin: int) -> list[str]:
        """What may replace the line from `begin` (readline's word, which ends at a space
        even inside quotes) to its end: candidates quoted as a scene line reads them."""
        from cwx.cli.completion import SHLEX, following, option_value, paths_like, words_of

        words, quote, start = words_of(line, SHLEX)
        done, incomplete = (words, "") if start is None else (words[:-1], words[-1])
        if done[:1] == ["cwx"]:
            done = done[1:]
        if done and done[0] in self.known:
            done = [*self.known[done[0]], *done[1:]]
        found = [str(item.value) for item in self.completion.get_completions(done, incomplete)]
        if not done:  # a group's command by its own name, too
            found += [name for name in self.known if name.startswith(incomplete)]
        option, typed = option_value(incomplete)
        if not found and self.completion.files:  # a scene line expands no `~`
            found = paths_like(typed, folders=self.completion.files == "dir")
        kept = line[start:begin] if start is not None else ""
        said = (following(f"{option}{quote}{shlex_quoted(value, quote)}{quote}", kept)
                for value in sorted(set(found)))
        return [one for one in said if one]


def shlex_quoted(value: str, quote: str = "") -> str:
    """`value` as a scene line reads it back as one word (shlex) inside `quote`, which
    this readline never closes itself: as bash would, but that inside "…" only \\ and "
    are escaped (no $, no history)."""
    from cwx.cli.completion import bash_escaped

    if quote == '"':
        return value.replace("\\", "\\\\").replace('"', '\\"')
    return bash_escaped(value, quote)


def prompt(root: str | None) -> int:
    """A prompt in the campaign: each line a command; an error says its line and the
    prompt comes back; Ctrl-C cancels the line, Ctrl-D leaves."""
    from cwx.cli import lazy

    with lazy.keeping_built():
        return _prompt(root)


def _prompt(root: str | None) -> int:
    import readline

    history = history_file(root)
    os.makedirs(os.path.dirname(history), mode=0o700, exist_ok=True)
    with contextlib.suppress(OSError):  # none yet
        readline.read_history_file(history)
    readline.set_completer(Completer())
    readline.set_completer_delims(" \t")
    readline.parse_and_bind("tab: complete")
    known = shortcuts()
    try:
        while True:
            try:
                line = input("cwx> ")
            except KeyboardInterrupt:
                print()  # the line is dropped; the prompt comes back
                continue
            try:
                words = words_of(line, known)
            except BadValue as error:
                _said(error.message)
                continue
            if words in (["exit"], ["quit"]):
                break
            if words:
                run(words, as_json=False)
    except EOFError:
        print()
    finally:
        readline.write_history_file(history)
    return 0
