"""Shell completion: a script of its own for bash, zsh, fish and PowerShell, the answer
to each when it asks for candidates, and where each shell reads the script. Built on
Click's completion API (ShellComplete, through cli/toolkit.py), with cwx's own scripts
and quoting.

The scripts ask `cwx` with _CWX_COMPLETE=SHELL_complete and the line so far; cwx answers
before any command runs (lazy.invoke). Candidates come from each parameter's completion
(cli/common.py), matched ignoring case (docs/rules.md C1, W1): `--trait r` offers
Repair. Each shell's answer is quoted for that shell: bash inserts a candidate as it is,
so a two-word trait would become two words, and an apostrophe (Lockpicker's Eye) must
survive zsh's eval and _describe. Each shell's own quoting is read back (fish's \' inside
'…', PowerShell's backtick), and bash's split of `--char=kris` at the `=` undone."""

import os
import re
from pathlib import Path
from typing import Any, NamedTuple

from cwx.cli import COMPLETE  # the variable the scripts set when they ask cwx
from cwx.cli.toolkit import CompletionItem, ShellComplete

ARGS = "_CWX_COMPLETE_ARGS"  # the line up to the cursor (zsh, fish, PowerShell)
FISH_ASKS = "_CWX_COMPLETE_FISH"  # fish asks twice: `is-args` (any?) then `get-args`


class Quoting(NamedTuple):
    """How a shell quotes a word: what its escape character keeps literal inside quotes."""

    escape: str  # outside quotes it keeps any character literal
    in_single: str  # what it keeps literal inside '…' ("" for nothing)
    in_double: str | None  # inside "…" (None for any character)
    doubled: bool = False  # a quote written twice inside its quotes is one (PowerShell)


POSIX = Quoting("\\", "", "$`\"\\\n")
FISH = Quoting("\\", "'\\", "\"$\\\n")
POWERSHELL = Quoting("`", "", None, doubled=True)
SHLEX = Quoting("\\", "", "\"\\")  # a scene line (cwx play): shlex escapes only these in "…"


class Read(NamedTuple):
    """A command line as its shell will pass it to cwx."""

    words: list[str]
    quote: str  # the quote still open at the end, which the shell will close
    start: int | None  # where the word still being typed begins (None: after a space)


def words_of(line: str, quoting: Quoting = POSIX) -> Read:
    """The words of `line` as the shell passes them; an open quote at the end is the word
    being typed."""
    words: list[str] = []
    word: str | None = None  # the word being read, once one has begun
    quote = ""
    at = began = 0
    while at < len(line):
        char, next = line[at], line[at + 1:at + 2]
        keeps = (quoting.in_single if quote == "'" else quoting.in_double) if quote else None
        if word is None and not char.isspace():
            began = at
        if char.isspace() and not quote:
            if word is not None:
                words.append(word)
                word = None
        elif quote and char == quote:
            if quoting.doubled and next == quote:
                word, at = f"{word}{quote}", at + 1
            else:
                quote = ""
        elif char == quoting.escape and next and (keeps is None or next in keeps):
            word, at = f"{word or ''}{next}", at + 1
        elif char in "'\"" and not quote:
            word, quote = word or "", char
        elif char != quoting.escape or next:
            word = f"{word or ''}{char}"
        at += 1
    if word is not None:
        words.append(word)
    return Read(words, quote, began if word is not None else None)


class Line(NamedTuple):
    """A command line up to the cursor: the words before the one being typed (without
    `cwx`), and that word ("" after a space)."""

    words: list[str]
    incomplete: str


def read_line(line: str, quoting: Quoting = POSIX) -> Line:
    words, _, start = words_of(line, quoting)
    words = words[1:]  # not `cwx` itself
    if start is not None and words:
        return Line(words[:-1], words[-1])
    return Line(words, "")


def utf8(name: str) -> bool:
    """Whether a name (a file's, as Python decodes it) is UTF-8 text."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def paths_like(typed: str, *, folders: bool = False, home: bool = False) -> list[str]:
    """The files (or only the folders) whose path begins with `typed`, folders with a
    last `/`; hidden ones when asked for, none named outside UTF-8. `home`: a first
    `~` is the home folder, as the shell reads it."""
    folder, start = os.path.split(typed)
    looked = os.path.expanduser(folder) if home else folder
    try:
        with os.scandir(looked or ".") as entries:
            return sorted(os.path.join(folder, entry.name) + (os.sep if entry.is_dir() else "")
                          for entry in entries if entry.name.startswith(start) and
                          (start[:1] == "." or entry.name[:1] != ".") and utf8(entry.name)
                          and (entry.is_dir() or not folders))
    except OSError:
        return []


def option_value(incomplete: str) -> tuple[str, str]:
    """`--char=kr` as the part a candidate follows (`--char=`) and the value typed (`kr`):
    Click offers values alone there."""
    if incomplete.startswith("--") and "=" in incomplete:
        option, _, value = incomplete.partition("=")
        return f"{option}=", value
    return "", incomplete


class _Shell(ShellComplete):
    """A shell's script, which names the variables it asks cwx with."""

    files = ""  # where the word takes a file: "file", or "dir" for a folder; else ""

    def source(self) -> str:
        return self.source_template % {**self.source_vars(), "args_var": ARGS,
                                       "fish_var": FISH_ASKS}

    def get_completions(self, args: list[str], incomplete: str) -> list[CompletionItem]:
        """The candidates for the word (and whether files belong there: `files`)."""
        if incomplete[:1] == "-" and incomplete[1:2] != "-" and "=" in incomplete:
            return []  # -t=Re: Click would read the value as `=Re`; nothing to offer
        try:
            items = super().get_completions(args, incomplete)
        except OSError:  # a folder gone from under the shell: nothing to offer, quietly
            return []
        self.files = next((item.type for item in items if item.type != "plain"), "")
        # A shell reads one candidate a line: a name with a line break cannot be one; and
        # cwx takes only names in UTF-8 (main.py), so a file named otherwise is none.
        return [item for item in items if item.type == "plain" and utf8(str(item.value))
                and not {"\n", "\r"} & set(str(item.value))]


# Where bash splits a word though cwx is given it whole (COMP_WORDBREAKS, by default `=`
# and `:` within a word): --char=kris arrives as `--char`, `=`, `kris`, and a candidate
# replaces only the last piece.
_BREAKS = "=:"


def _breaks() -> frozenset[str]:
    return frozenset(os.environ.get("COMP_WORDBREAKS", _BREAKS)) - frozenset(" \t\n'\"")


def _broken(piece: str, breaks: frozenset[str]) -> bool:
    """Whether `piece` of bash's COMP_WORDS is a break alone (`=`, `:`)."""
    return bool(piece) and set(piece) <= breaks


def glued(pieces: list[str], line: str = "", breaks: frozenset[str] = frozenset(_BREAKS)
          ) -> list[list[str]]:
    """bash's COMP_WORDS joined back into the words cwx will be given, each as the pieces
    bash split it into at a break character; `line` (COMP_LINE up to the cursor) tells
    whether a break touches its neighbours, which without it they are taken to."""
    words: list[list[str]] = []
    at = 0
    for piece in pieces:
        found = (len(line) if not piece else line.find(piece, at)) if line else -1
        if found < 0 and line and piece.startswith(rest := line[at:].lstrip()):
            # the cursor inside the word (kr|XX): only what is before it counts
            piece, found = rest, len(line) - len(rest)
        touching = found < 0 or not line[at:found]
        at = found + len(piece) if found >= 0 else at
        if words and touching and (_broken(piece, breaks) or _broken(words[-1][-1], breaks)):
            words[-1].append(piece)
        else:
            words.append([piece])
    return words


def following(said: str, kept: str) -> str:
    """A candidate as it follows `kept`, the part of its word the shell keeps (bash's
    before a break, readline's before a space): "" when it does not begin with it."""
    if said[:len(kept)].casefold() != kept.casefold():
        return ""
    return said[len(kept):]


class Answer(Exception):
    """What cwx answers a shell, with the exit status that says more (fish: any?)."""

    def __init__(self, text: str, status: int) -> None:
        super().__init__(text)
        self.text, self.status = text, status


class Bash(_Shell):
    """Candidates quoted for the bash command line they are inserted into."""

    name = "bash"
    # Each candidate is one line, read into COMPREPLY whole: no word splitting or glob of
    # its own, and cwx's complaints (a folder gone) never print into the prompt. Exit 1
    # says that the shell's file names belong there, when cwx has nothing to offer; 4,
    # its folders' names.
    source_template = """\
%(complete_func)s() {
    local IFS=$'\\n' reply line
    reply=$(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD="$COMP_CWORD" \\
                COMP_LINE="$COMP_LINE" COMP_POINT="$COMP_POINT" \\
                COMP_WORDBREAKS="$COMP_WORDBREAKS" \\
                %(complete_var)s=bash_complete "$1" 2>/dev/null)
    case $? in
        1) compopt -o default 2>/dev/null ;;
        4) compopt -o dirnames 2>/dev/null ;;
    esac
    COMPREPLY=()
    [[ -n $reply ]] || return 0
    while IFS= read -r line; do COMPREPLY+=("$line"); done <<<"$reply"
    return 0
}

complete -F %(complete_func)s %(prog_name)s"""

    quote = ""  # the quote the word being completed opened, if any
    kept = ""  # what bash keeps of that word, before its last break (`Sword:`)

    def get_completion_args(self) -> tuple[list[str], str]:
        # The script joins COMP_WORDS with its IFS, a newline, so each word is there as
        # typed: unquoted, or inside a quote readline closes after the candidate.
        typed = os.environ.get("COMP_WORDS", "").split("\n")
        cword = _number("COMP_CWORD", len(typed) - 1)
        point = _number("COMP_POINT", -1)
        line = os.environ.get("COMP_LINE", "")
        breaks = _breaks()
        words = glued([*typed, ""][:cword + 1], line[:point] if point >= 0 else line, breaks)
        current = words.pop()
        self.kept = "".join(current if _broken(current[-1], breaks) else current[:-1])
        found, self.quote, _ = words_of("".join(current))
        incomplete = " ".join(found)
        if option := option_value(incomplete)[0]:  # Click offers the value alone
            self.kept = self.kept[len(option):] if self.kept.startswith(option) else ""
        if self.kept.endswith(("@", "$")):
            # readline breaks a word there but leaves the break in the word it replaces
            # (its special prefixes): the candidate says it again.
            self.kept = self.kept[:-1]
        done = [" ".join(words_of("".join(word)).words) for word in words]
        return done[1:], incomplete

    def format_completion(self, item: CompletionItem) -> str:
        return following(bash_quoted(str(item.value), self.quote), self.kept)

    def complete(self) -> str:
        args, incomplete = self.get_completion_args()
        offered = [self.format_completion(item) for item in self.get_completions(args, incomplete)]
        if self.files and not any(offered):
            raise Answer("", 4 if self.files == "dir" else 1)
        return "\n".join(said for said in offered if said)


def _number(variable: str, unset: int) -> int:
    said = os.environ.get(variable, "")
    if not said:
        return unset
    if not (said.isascii() and said.isdigit()):
        raise ValueError(f"{variable}={said!r} is not a number; bash sets it when it completes")
    return int(said)


# Lower case matches upper (and back), and `-`/`_` start a new part of a word, which is
# _arguments' own default matcher: --k-w completes --keep-white.
_ANY_CASE = "m:{[:lower:][:upper:]}={[:upper:][:lower:]} r:|[_-]=* r:|=*"


class Zsh(_Shell):
    """Candidates with their help, for zsh's _describe, which matches them ignoring case
    too; where a file is taken and cwx has none to offer, zsh completes file names."""

    name = "zsh"
    # Sourced, the script registers the function. Autoloaded from fpath (what
    # --install-completion sets up), it is the body of _cwx itself, run at every Tab.
    source_template = """\
#compdef %(prog_name)s

%(complete_func)s() {
  eval "$(env %(args_var)s="${words[1,$CURRENT]}" %(complete_var)s=zsh_complete \\
              %(prog_name)s 2>/dev/null)"
}

if [[ $funcstack[1] == _%(prog_name)s ]]; then
  %(complete_func)s "$@"
else
  compdef %(complete_func)s %(prog_name)s
fi"""

    def get_completion_args(self) -> tuple[list[str], str]:
        return read_line(os.environ.get(ARGS, ""))

    def format_completion(self, item: CompletionItem) -> str:
        # _describe reads `value:help`, a colon in the value escaped; eval reads '…'.
        said = str(item.value).replace("\\", "\\\\").replace(":", "\\:")
        if item.help:
            said += f":{' '.join(str(item.help).split())}"
        return "'" + said.replace("'", "'\\''") + "'"

    def complete(self) -> str:
        args, incomplete = self.get_completion_args()
        items = self.get_completions(args, incomplete)
        option, typed = option_value(incomplete)
        said = ["compset -P 1 '*='"] if option else []  # up to the first `=` only
        if not items:
            shell = {"file": "_files", "dir": "_files -/"}.get(self.files)
            return "\n".join([*said, shell]) if shell else ""
        # zsh's matcher knows the case of ASCII letters only: for É typed as é, cwx's own
        # match (any case) stands, and zsh takes the one candidate as it is (-U; with
        # several, zsh would cut their common start inside a letter's bytes).
        as_it_is = len(items) == 1 and not typed.isascii() and \
            not str(items[0].value).startswith(typed)
        return "\n".join([*said, "local -a offered=("
                          f"{' '.join(self.format_completion(item) for item in items)})",
                          f"_describe -t values value offered -M '{_ANY_CASE}'"
                          + (" -U" if as_it_is else "")])


class _WholeWord(_Shell):
    """A shell that replaces the whole word with a candidate, `--trait=` and all, and is
    asked with the line so far in its own quoting."""

    quoting = POSIX
    option = ""  # `--trait=` when a value is typed after it

    def get_completion_args(self) -> tuple[list[str], str]:
        args, incomplete = read_line(os.environ.get(ARGS, ""), self.quoting)
        self.option = option_value(incomplete)[0]
        return args, incomplete


class Fish(_WholeWord):
    """Candidates with their help after a tab; where a file is taken and cwx has none to
    offer, fish completes file names."""

    name = "fish"
    source_template = (
        'complete --command %(prog_name)s --no-files --arguments "(env %(complete_var)s='
        'fish_complete %(fish_var)s=get-args %(args_var)s=(commandline -cp | string collect) '
        '%(prog_name)s 2>/dev/null)" --condition "env %(complete_var)s=fish_complete '
        '%(fish_var)s=is-args %(args_var)s=(commandline -cp | string collect) %(prog_name)s '
        '2>/dev/null"')

    quoting = FISH

    def format_completion(self, item: CompletionItem) -> str:
        if item.help:
            return f"{self.option}{item.value}\t{' '.join(str(item.help).split())}"
        return f"{self.option}{item.value}"

    def complete(self) -> str:
        args, incomplete = self.get_completion_args()
        offered = [self.format_completion(item) for item in self.get_completions(args, incomplete)]
        if self.files == "dir" and not offered:  # fish's own would offer files too
            offered = [f"{self.option}{path}" for path in paths_like(
                option_value(incomplete)[1], folders=True, home=True)]
        if os.environ.get(FISH_ASKS) == "is-args":
            # The condition: false (status 1) lets fish complete file names instead.
            raise Answer("", 1 if self.files == "file" and not offered else 0)
        return "\n".join(offered)


class PowerShell(_WholeWord):
    """Candidates quoted for PowerShell, with their help, for its argument completer."""

    name = "powershell"
    source_template = """\
Register-ArgumentCompleter -Native -CommandName %(prog_name)s -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    # The line up to the cursor; past the command's end, a space the player typed.
    $line = $commandAst.Extent.Text
    $upTo = $cursorPosition - $commandAst.Extent.StartOffset
    $line = $line.Substring(0, [Math]::Max(0, [Math]::Min($upTo, $line.Length)))
    if ($upTo -gt $line.Length) { $line += ' ' }
    $Env:%(complete_var)s = 'powershell_complete'
    $Env:%(args_var)s = $line
    $encoding = [Console]::OutputEncoding  # cwx answers in UTF-8, whatever the code page
    [Console]::OutputEncoding = [System.Text.Encoding]::UTF8
    & %(prog_name)s 2>$null | ForEach-Object {
        $text, $item, $help = $_ -split "`t", 3
        if (-not $help) { $help = $item }
        [System.Management.Automation.CompletionResult]::new(
            $text, $item, 'ParameterValue', $help)
    }
    [Console]::OutputEncoding = $encoding
    Remove-Item Env:%(complete_var)s, Env:%(args_var)s -ErrorAction SilentlyContinue
}"""

    quoting = POWERSHELL

    def format_completion(self, item: CompletionItem) -> str:
        value = str(item.value)
        help = " ".join(str(item.help).split()) if item.help else ""
        return f"{self.option}{powershell_quoted(value)}\t{value}\t{help}"


SHELLS: dict[str, type[ShellComplete]] = {
    "bash": Bash, "zsh": Zsh, "fish": Fish, "powershell": PowerShell, "pwsh": PowerShell}


def script(shell: str) -> str:
    """The completion script of `shell`: it asks `cwx` for candidates as words are typed."""
    return SHELLS[shell](None, {}, "cwx", COMPLETE).source()  # type: ignore[arg-type]


def answer(command: Any, instruction: str) -> Answer:
    """What cwx answers when a shell's script asks (`bash_complete`...): the candidates
    for the line in the environment, one a line, as that shell reads them, and the exit
    status that says more. `bash_source` (Click's word for it) is the script itself."""
    shell, _, asked = instruction.rpartition("_")
    if shell not in SHELLS or asked not in ("complete", "source"):
        raise ValueError(f"{COMPLETE}={instruction}: cwx answers SHELL_complete, as its "
                         "scripts ask (bash_complete, zsh_complete, fish_complete, "
                         "powershell_complete), and SHELL_source with the script")
    if asked == "source":
        return Answer(script(shell), 0)
    try:
        return Answer(SHELLS[shell](command, {}, "cwx", COMPLETE).complete(), 0)
    except Answer as said:
        return said


def install(shell: str) -> Path:
    """Install `shell`'s completion script where that shell reads it; the file written.
    A line the shell's start-up file needs is added at its end, once; nothing else in it
    is touched."""
    from cwx.base.errors import WriteFailed

    home = Path.home()
    try:
        if shell == "bash":
            target = home / ".bash_completions" / "cwx.sh"
            _write(target, script(shell))
            _add_line(home / ".bashrc", f"source {bash_quoted(str(target))}")
        elif shell == "zsh":
            target = home / ".zfunc" / "_cwx"
            _write(target, script(shell))
            _add_line(Path(os.environ.get("ZDOTDIR") or home) / ".zshrc",
                      "fpath+=~/.zfunc; autoload -Uz compinit; compinit")
        elif shell == "fish":
            said = os.environ.get("XDG_CONFIG_HOME", "")  # a relative one is ignored (XDG)
            config = Path(said) if os.path.isabs(said) else home / ".config"
            target = config / "fish" / "completions" / "cwx.fish"
            _write(target, script(shell))
        else:  # PowerShell reads its profile, wherever it says that is
            profile = _powershell_profile(shell)
            target = profile.parent / "cwx-completion.ps1"
            _write(target, script(shell))
            _add_line(profile, f". {powershell_quoted(str(target), always=True)}")
    except OSError as error:
        raise WriteFailed(f"could not install {shell} completion ({error.strerror or error}); "
                          f"fix that and run `cwx --install-completion {shell}` again",
                          path=error.filename) from None
    return target


def _powershell_profile(shell: str) -> Path:
    import subprocess

    from cwx.base.errors import Usage

    for program in dict.fromkeys([shell, "pwsh", "powershell"]):
        try:
            found = subprocess.run([program, "-NoProfile", "-Command", "echo", "$profile"],
                                   capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if found.returncode == 0 and found.stdout.strip():
            return Path(found.stdout.strip())
    raise Usage("no PowerShell here says where its profile is (pwsh or powershell); "
                "add `cwx --show-completion powershell | Out-String | Invoke-Expression` "
                "to your profile instead")


def _write(path: Path, text: str) -> None:
    """The script, whole or not at all, in the file a link there points to."""
    path.parent.mkdir(parents=True, exist_ok=True)
    target = Path(os.path.realpath(path))
    temp = target.with_name(f".{target.name}.cwx-new")
    try:
        temp.write_text(f"{text}\n")
        os.replace(temp, target)
    except OSError as error:  # said of the file the player knows, not the temporary one
        raise OSError(error.errno, error.strerror, str(path)) from None


def _add_line(path: Path, line: str) -> None:
    """`line` at the end of a start-up file, unless a line of it says so already (one
    commented out does not)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    said = path.read_text() if path.exists() else ""
    if line in (kept.strip() for kept in said.splitlines()):
        return
    with path.open("a") as file:  # appended: the player's own lines are never rewritten
        file.write(f"{'' if said.endswith(chr(10)) or not said else chr(10)}{line}\n")


def bash_quoted(value: str, quote: str = "") -> str:
    """`value` as bash reads it back as one word, after `quote` (none, ' or "), which
    readline closes after the candidate unless the candidate ends in it: then the
    candidate closes the quote itself (Ex!, after ": "Ex"\\!"")."""
    said = bash_escaped(value, quote)
    return f"{said}{quote}" if quote and said.endswith(quote) else said


def bash_escaped(value: str, quote: str = "") -> str:
    """`value` escaped for bash after `quote` (none, ' or "), before that quote closes."""
    if quote == "'":
        return value.replace("'", "'\\''")
    if quote == '"':
        # `!` expands history even inside "…": it is said outside them, where \\! holds.
        return re.sub(r'([\\"$`])', r"\\\1", value).replace("!", '"\\!"')
    return re.sub(r"([^\w@%+,./:=-])", r"\\\1", value)


# PowerShell reads these as single quotes too, and a word starting with @ as a splat.
_PS_QUOTES = "'\u2018\u2019\u201a\u201b"


def powershell_quoted(value: str, always: bool = False) -> str:
    """`value` as PowerShell reads it back as one word: as it is when it can be, else in
    single quotes, each quote in it doubled."""
    if not always and re.fullmatch(r"[\w%+./:=-][\w@%+./:=-]*", value):  # `a,b`: two
        return value
    return "'" + re.sub(f"([{_PS_QUOTES}])", r"\1\1", value) + "'"
