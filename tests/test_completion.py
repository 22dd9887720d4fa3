"""Shell completion in real shells, through the script `cwx --show-completion` prints in
each: what the shell is offered (bash's COMPREPLY), and what a player's Tab leaves on
the command line (a real bash, zsh or fish on a pty; zsh and fish are skipped where
they are not installed)."""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

# A ClockWorx character whose traits test the awkward cases: two words, names that
# differ from the word typed only in case, and characters each shell quotes its way.
KNIFE = """name = "Ana"
system = "clockworx"
xp = 0

[traits]
"Knife Fighting" = 3
Repair = 3
run = 2
"Lockpicker's Eye" = 1
"Sword: Long" = 1
"Élan" = 1
"At@Home" = 1
"Bang!x" = 1
"Hh!!" = 1
"""


@pytest.fixture
def table(campaign: Path) -> Path:
    """The example campaign, Ana's sheet, and a `cwx` on PATH that is this checkout's."""
    (campaign / "ana.toml").write_text(KNIFE)
    return campaign


def _env(home: Path) -> dict[str, str]:
    """A shell that reads no one's settings and writes only under `home` (a tmp_path)."""
    bin = home / "bin"
    bin.mkdir(exist_ok=True)
    program = bin / "cwx"
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m cwx "$@"\n')
    program.chmod(0o755)
    return {"PATH": f"{bin}{os.pathsep}{os.environ['PATH']}", "HOME": str(home),
            "XDG_CONFIG_HOME": str(home), "XDG_DATA_HOME": str(home),
            "XDG_CACHE_HOME": str(home), "HISTFILE": str(home / "history"),
            "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
            "TERM": "dumb", "PS1": "$ ", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}


# ---------------------------------------------------------------- bash: what it is offered

# Source the script cwx prints for bash, set the words as bash's programmable completion
# would, call the completion function, print COMPREPLY. The script is the same text each
# time: printed once a test process (`source <(cwx --show-completion bash)` as a player
# writes it is the real shells' below), written beside the folder for each bash.
_BASH_REPLY = """
source "$CWX_COMPLETION_SCRIPT"
COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=()
%s
_cwx_completion cwx
printf '%%s\\n' "${COMPREPLY[@]}"
"""
_printed: list[str] = []


def bash_reply(folder: Path, *words: str, before: str = "") -> list[str]:
    """COMPREPLY for the command line `words`, the last being the word under the cursor;
    `before` runs just before the Tab, once the script is sourced."""
    env = _env(folder.parent)
    if not _printed:
        shown = subprocess.run(["cwx", "--show-completion", "bash"], capture_output=True,
                               text=True, cwd=folder, timeout=60, env=env, check=True)
        _printed.append(shown.stdout)
    script = folder.parent / "cwx-completion.bash"
    script.write_text(_printed[0])
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", _BASH_REPLY % before, "bash",
                           *words],
                          capture_output=True, text=True, cwd=folder, timeout=60,
                          env={**env, "CWX_COMPLETION_SCRIPT": str(script)})
    assert done.returncode == 0 and not done.stderr, done.stderr
    return [line for line in done.stdout.split("\n") if line]


RESOLVE = ("cwx", "clock", "resolve", "--char", "ana.toml", "--trait")


def test_drawn_offers_the_dice_in_a_bag_and_no_secondary_colour(table: Path) -> None:
    assert bash_reply(table, "cwx", "bag", "draw", "--drawn", "") == [
        "red", "yellow", "blue", "white", "black"]
    assert bash_reply(table, "cwx", "bag", "draw", "--drawn", "o") == []
    # An action's colour is still any of the six.
    assert bash_reply(table, "cwx", "bag", "draw", "--color", "") == [
        "red", "yellow", "blue", "orange", "green", "purple"]


def test_system_offers_the_two_systems(table: Path) -> None:
    assert bash_reply(table, "cwx", "char", "new", "x.toml", "--system", "") == [
        "clockworx", "colorwheel"]
    assert bash_reply(table, "cwx", "char", "new", "x.toml", "--system", "colo") == [
        "colorwheel"]


def test_a_two_word_trait_is_offered_as_one_word_of_bash(table: Path) -> None:
    assert bash_reply(table, *RESOLVE, "Kn") == [r"Knife\ Fighting"]
    assert bash_reply(table, *RESOLVE, r"Knife\ F") == [r"Knife\ Fighting"]
    # Inside a quote the player opened, readline closes it after the candidate.
    assert bash_reply(table, *RESOLVE, '"Kn') == ["Knife Fighting"]
    assert bash_reply(table, *RESOLVE, "'Kn") == ["Knife Fighting"]
    assert bash_reply(table, *RESOLVE, "Lo") == [r"Lockpicker\'s\ Eye"]
    assert bash_reply(table, *RESOLVE, "'Lo") == ["Lockpicker'\\''s Eye"]


def test_the_word_typed_so_far_matches_names_in_any_case(table: Path) -> None:
    assert bash_reply(table, *RESOLVE, "r") == ["Repair", "run"]
    assert bash_reply(table, *RESOLVE, "RE") == ["Repair"]
    assert bash_reply(table, *RESOLVE, "kNIFE") == [r"Knife\ Fighting"]
    assert bash_reply(table, "cwx", "bag", "draw", "--char", "sue.toml", "--trait", "a") == [
        "Athletic"]
    assert bash_reply(table, "cwx", "bag", "draw", "--drawn", "W") == ["white"]
    assert bash_reply(table, "cwx", "odds", "wheel", "--color", "Pu") == ["purple"]


def test_commands_and_options_still_complete(table: Path) -> None:
    assert bash_reply(table, "cwx", "sch") == ["schema"]
    assert bash_reply(table, "cwx", "bag", "draw", "--keep-") == ["--keep-white", "--keep-black"]


# ---------------------------------------------------------------- a player's Tab, on a pty

_SETUP = {
    "bash": (["bash", "--norc", "--noprofile", "-i"], ["source <(cwx --show-completion bash)"]),
    "zsh": (["zsh", "-f", "-i"], ["autoload -Uz compinit && compinit -D",
                                  "source <(cwx --show-completion zsh)"]),
    "fish": (["fish", "--no-config", "-i"], ["cwx --show-completion fish | source"]),
    # As --install-completion leaves zsh: the script autoloaded from fpath at the first Tab.
    "zsh installed": (["zsh", "-f", "-i"], [
        "cwx --install-completion zsh >/dev/null",
        "fpath+=(~/.zfunc); autoload -Uz compinit && compinit -D"]),
}


class Terminal:
    """An interactive shell on a pseudo-terminal, typed into as a player would."""

    def __init__(self, shell: str, folder: Path) -> None:
        self.pid, self.fd = pty.fork()
        argv, setup = _SETUP[shell]
        if self.pid == 0:  # the child: become the shell, or end (never return to pytest)
            try:
                os.chdir(folder)
                os.execvpe(argv[0], argv, _env(folder.parent))
            finally:
                os._exit(127)
        self.seen = b""
        for line in setup:  # `:READ''Y` is echoed as typed, printed as :READY
            self._type(f"{line}; echo :READ''Y\r")
            self._until(rb":READY\r?\n")

    def tab(self, partial: str) -> list[str]:
        """Type `partial`, press Tab, and run the line through printf instead of cwx: the
        words the shell would pass to cwx. Keys typed ahead wait for the completion."""
        self.seen = b""
        self._type(f"{partial}\t\x01printf '<%s>' \x05; echo :DO''NE\r")
        words = self._until(rb"((?:<[^>\r\n]*>)+):DONE").group(1).decode()
        return re.findall(r"<([^>]*)>", words)

    def close(self) -> None:
        os.close(self.fd)
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)

    def _type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def _until(self, pattern: bytes) -> re.Match[bytes]:
        deadline = time.monotonic() + 20
        while (found := re.search(pattern, self.seen)) is None:
            assert time.monotonic() < deadline, self.seen.decode(errors="replace")
            if select.select([self.fd], [], [], 0.05)[0]:
                self.seen += os.read(self.fd, 65536)
        return found


_TRAIT = "cwx clock resolve --char ana.toml --trait"
# What a player types before the Tab, and the last word the shell then passes to cwx.
_TABS = [
    (f"{_TRAIT} kn", "Knife Fighting"),
    (f'{_TRAIT} "Kn', "Knife Fighting"),
    (f"{_TRAIT} lo", "Lockpicker's Eye"),
    (f"{_TRAIT} sw", "Sword: Long"),
    (f"{_TRAIT} é", "Élan"),  # a case beyond ASCII
    (f"{_TRAIT} At@", "At@Home"),  # bash breaks at @
    (f'{_TRAIT} "Ba', "Bang!x"),  # and expands ! inside "…"
    (f'{_TRAIT} "Hh', "Hh!!"),  # a last ! too
    (f"{_TRAIT} Sword:", "Sword: Long"),  # bash breaks at `:`
    (f"{_TRAIT}=kn", "--trait=Knife Fighting"),
    ("cwx clock resolve --char=ana.toml -t kn", "Knife Fighting"),
    ("cwx bag draw --drawn Wh", "white"),  # a choice, in any case
    ("cwx check ana.t", "ana.toml"),  # a file, by the shell
    # A folder where one is taken (zsh takes back its slash as the line goes on).
    ("cwx init s", "scenes"),
    # Where no file is taken, none is offered: a trait before its character, a number.
    ("cwx clock resolve -t a", "a"),
    ("cwx clock resolve --guess a", "a"),
]
# zsh with the script installed runs the very function it sources (its text is the body
# of _cwx, autoloaded at the first Tab): the first Tab, a quote, a file and none.
_INSTALLED = [_TABS[0], _TABS[1], _TABS[12], _TABS[14]]


@pytest.mark.parametrize("shell", list(_SETUP))
def test_tab_completes_one_word_in_any_case_in_a_real_shell(shell: str, table: Path) -> None:
    if shutil.which(shell.split()[0]) is None:
        pytest.skip(f"{shell} is not installed")
    (table / "scenes").mkdir()
    terminal = Terminal(shell, table)
    try:
        tabs = _INSTALLED if shell == "zsh installed" else _TABS
        assert [terminal.tab(typed)[-1].rstrip("/") for typed, _ in tabs] == \
            [word for _, word in tabs]
    finally:
        terminal.close()


def test_traits_complete_for_a_character_given_by_name_and_short_option(table: Path) -> None:
    (table / "campaign.toml").write_text('[campaign]\nbag = "bag.toml"\n')
    assert bash_reply(table, "cwx", "clock", "resolve", "-c", "ana", "-t", "Kn") == [
        r"Knife\ Fighting"]
    assert bash_reply(table, "cwx", "bag", "draw", "-c", "Sue", "-t", "at") == ["Athletic"]


def test_each_shell_gets_a_script_of_its_own() -> None:
    from tests.helpers import cwx

    scripts = {shell: cwx("--show-completion", shell) for shell in
               ("bash", "zsh", "fish", "powershell")}
    assert all(ran.status == 0 for ran in scripts.values())
    assert "COMPREPLY" in scripts["bash"].stdout and "complete -F" in scripts["bash"].stdout
    assert scripts["zsh"].stdout.startswith("#compdef cwx")
    assert "complete --command cwx" in scripts["fish"].stdout
    assert "Register-ArgumentCompleter" in scripts["powershell"].stdout
    assert len({ran.stdout for ran in scripts.values()}) == 4
    assert cwx("--show-completion", "tcsh").status == 2


def test_install_puts_each_shells_script_where_it_reads_it_and_keeps_its_rc(
        tmp_path: Path) -> None:
    from tests.helpers import cwx_process

    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("alias ll='ls -l'")  # the player's own, no last newline
    zdotdir = tmp_path / "zdot"  # zsh reads its .zshrc there when ZDOTDIR says so
    (zdotdir / ".zshrc").parent.mkdir()
    (zdotdir / ".zshrc").write_text("# fpath+=~/.zfunc; autoload -Uz compinit; compinit\n")
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "ZDOTDIR": str(zdotdir)}
    for _ in range(2):  # installed again: the start-up files gain no second line
        for shell in ("bash", "zsh", "fish"):
            ran = cwx_process("--install-completion", shell, env=env)
            assert ran.status == 0 and "completion installed in" in ran.stdout, ran.error
    script = (home / ".bash_completions" / "cwx.sh").read_text()
    assert script == cwx_process("--show-completion", "bash").stdout
    assert (home / ".bashrc").read_text() == (
        f"alias ll='ls -l'\nsource {home / '.bash_completions' / 'cwx.sh'}\n")
    assert (home / ".zfunc" / "_cwx").read_text().startswith("#compdef cwx")
    # A line commented out is not the line: it is added, once.
    assert (zdotdir / ".zshrc").read_text().splitlines() == [
        "# fpath+=~/.zfunc; autoload -Uz compinit; compinit",
        "fpath+=~/.zfunc; autoload -Uz compinit; compinit"]
    assert (home / ".config" / "fish" / "completions" / "cwx.fish").read_text().startswith(
        "complete --command cwx")


def test_an_install_that_cannot_write_says_so_in_one_line(tmp_path: Path) -> None:
    from tests.helpers import cwx_process

    home = tmp_path / "home"
    (home / ".bash_completions").mkdir(parents=True)
    (home / ".bashrc").mkdir()  # a folder where bash's start-up file should be
    ran = cwx_process("--install-completion", "bash", env={"HOME": str(home)})
    assert ran.status == 2 and "\n" not in ran.error, ran.error
    assert ".bashrc" in ran.error and "cwx --install-completion bash" in ran.error
    (home / ".zfunc").write_text("")  # a file where zsh's folder of functions should be
    ran = cwx_process("--install-completion", "zsh", env={"HOME": str(home)})
    assert ran.status == 2 and ".zfunc" in ran.error and "Traceback" not in ran.error
    # No PowerShell here to say where its profile is: one line, and what to do instead.
    ran = cwx_process("--install-completion", "pwsh", env={"HOME": str(home), "PATH": ""})
    assert ran.status == 2 and "--show-completion powershell" in ran.error, ran.error


def test_asking_without_a_shell_or_a_line_is_one_line_or_nothing(table: Path) -> None:
    from tests.helpers import cwx_process

    ran = cwx_process(cwd=table, env={"_CWX_COMPLETE": "bash"})
    assert ran.status == 2 and "bash_complete" in ran.error and "Traceback" not in ran.error
    ran = cwx_process(cwd=table, env={"_CWX_COMPLETE": "bash_complete", "COMP_CWORD": "x"})
    assert ran.status == 2 and "COMP_CWORD" in ran.error
    # Click's word for the script is the script.
    assert cwx_process(env={"_CWX_COMPLETE": "zsh_source"}).stdout.startswith("#compdef cwx")
    ran = cwx_process(cwd=table, env={"_CWX_COMPLETE": "bash_complete"})  # no COMP_WORDS
    assert ran.status == 0 and ran.stderr == ""


def test_completion_in_a_folder_since_deleted_offers_nothing_quietly(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    # The script is sourced while the folder is there, as a shell's start-up would.
    assert bash_reply(gone, "cwx", "bag", "draw", "-c", "", before=f"rmdir {gone}") == []


def test_bash_completes_after_a_break_in_the_word(table: Path) -> None:
    # bash splits `--trait=Kn` and `Sword:` at the break; the candidate follows it.
    assert bash_reply(table, *RESOLVE[:-1], "--trait", "=", "Kn") == [r"Knife\ Fighting"]
    assert bash_reply(table, *RESOLVE[:-1], "--trait", "=") == [
        r"Knife\ Fighting", "Repair", "run", r"Lockpicker\'s\ Eye", r"Sword:\ Long", "Élan",
        "At@Home", r"Bang\!x", r"Hh\!\!"]
    assert bash_reply(table, *RESOLVE, "Sword", ":") == [r"\ Long"]
    assert bash_reply(table, "cwx", "clock", "resolve", "--char", "=", "ana.toml", "-t", "Re") == [
        "Repair"]


def test_powershell_is_given_each_candidate_quoted_as_it_reads_it_back(table: Path) -> None:
    from tests.helpers import cwx_process

    def asked(line: str) -> list[str]:
        ran = cwx_process(cwd=table, env={"_CWX_COMPLETE": "powershell_complete",
                                          "_CWX_COMPLETE_ARGS": line})
        return ran.stdout.splitlines()

    # The text to insert (quoted as PowerShell reads it), the name listed, its help.
    trait = "cwx clock resolve --char ana.toml --trait"
    assert asked(f"{trait} kn") == ["'Knife Fighting'\tKnife Fighting\t"]
    assert asked(f"{trait} lo") == ["'Lockpicker''s Eye'\tLockpicker's Eye\t"]
    assert asked(f"{trait} 'Lockpicker''s") == ["'Lockpicker''s Eye'\tLockpicker's Eye\t"]
    assert asked(f"{trait}=re") == ["--trait=Repair\tRepair\t"]
    assert asked("cwx bag draw --keep-w") == ["--keep-white\t--keep-white\t"
                                               "Keep every white that may be kept, and draw again."]


def test_a_command_that_takes_a_character_or_a_bag_offers_the_campaigns(table: Path) -> None:
    (table / "campaign.toml").write_text('[campaign]\nbag = "bag.toml"\n')
    assert bash_reply(table, "cwx", "char", "show", "s") == ["sue"]
    assert bash_reply(table, "cwx", "bag", "show", "") == ["bag.toml"]
    assert "bag.toml" in bash_reply(table, "cwx", "retire", "") and "ana" in bash_reply(
        table, "cwx", "retire", "A")


def test_bash_breaks_where_its_comp_wordbreaks_says(table: Path) -> None:
    # An interactive bash breaks at @ as well: `At@` arrives as `At`, `@`, "", and
    # readline replaces from the @ on (a special prefix of its own).
    assert bash_reply(table, *RESOLVE, "At", "@", "", before="COMP_WORDBREAKS+=@")[:1] == [
        "@Home"]


def test_a_short_option_written_with_an_equals_sign_is_offered_nothing(table: Path) -> None:
    # Click reads `-t=Re` as the trait `=Re`: a candidate there would be refused.
    assert bash_reply(table, "cwx", "clock", "resolve", "-c", "ana.toml", "-t=Re") == []


def test_powershell_doubles_every_quote_it_reads_as_one() -> None:
    from cwx.cli.completion import powershell_quoted

    assert powershell_quoted("Lockpicker\u2019s Eye") == "'Lockpicker\u2019\u2019s Eye'"
    assert powershell_quoted("@home") == "'@home'"  # never a splat
    assert powershell_quoted("--keep-white") == "--keep-white"
    assert powershell_quoted("a@b") == "a@b"


def test_a_file_name_not_in_utf8_is_not_offered(table: Path) -> None:
    # cwx takes names in UTF-8 only (it would refuse the name on the line).
    (table / "campaign.toml").write_text('[campaign]\nbag = "bag.toml"\n')
    (table / os.fsdecode(b"bad\xff.toml")).write_text(KNIFE.replace("Ana", "Zed"))
    (table / "bad.toml").write_text(KNIFE.replace("Ana", "Bad"))
    assert bash_reply(table, "cwx", "char", "show", "ba") == ["bad"]


def test_undo_player_offers_the_campaigns_players_from_its_journal(table: Path) -> None:
    from tests.helpers import cwx

    (table / "campaign.toml").write_text('[campaign]\nbag = "bag.toml"\n')
    assert bash_reply(table, "cwx", "undo", "--player", "") == []  # no journal yet
    for number, player in enumerate(("Alice Liddell", "Bob", "alice liddell")):
        assert cwx("char", "new", table / f"npc{number}.toml", "--system", "clockworx",
                   "--trait", "A=3", "--trait", "B=3", "--trait", "C=3",
                   env={"CWX_PLAYER": player}).status == 0
    # Most recent first, once in any case (as --player matches them), quoted for bash.
    assert bash_reply(table, "cwx", "undo", "--player", "") == ["alice\\ liddell", "Bob"]
    assert bash_reply(table, "cwx", "undo", "-p", "b") == ["Bob"]
