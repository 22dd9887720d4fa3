"""Shell completion: a script of its own for bash, zsh, fish and PowerShell, the answer
to each when it asks for candidates, and where each shell reads the script. Built on
Click's public completion API (ShellComplete), with cwx's own scripts and quoting.

The scripts ask `cwx` with _CWX_COMPLETE=SHELL_complete and the line so far; cwx answers
before any command runs (lazy.invoke). Candidates come from each parameter's completion
(cli/common.py), matched ignoring case (docs/rules.md C1, W1): `--trait r` offers
Repair. Each shell's answer is quoted for that shell: bash inserts a candidate as it is,
so a two-word trait would become two words, and an apostrophe (Lockpicker's Eye) must
survive zsh's three layers of quoting."""

import os
import re
from pathlib import Path
from typing import Any

from click.shell_completion import CompletionItem, ShellComplete

from cwx.cli import COMPLETE  # the variable the scripts set when they ask cwx

ARGS = "_CWX_COMPLETE_ARGS"  # the line so far (zsh, fish, PowerShell)
WORD = "_CWX_COMPLETE_WORD"  # the word under the cursor (PowerShell)
FISH_ASKS = "_CWX_COMPLETE_FISH"  # fish asks twice: `is-args` (any?) then `get-args`


def words_of(line: str) -> list[str]:
    """The words of a command line as the shell will pass them; an open quote at the end
    is the word being typed."""
    import shlex  # here: every command imports this module, few complete

    lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
    lexer.whitespace_split = True
    lexer.commenters = ""
    words: list[str] = []
    try:
        words.extend(lexer)
    except ValueError:  # an unclosed quote: what was typed inside it is the last word
        words.append(lexer.token)
    return words


def _split(line: str) -> tuple[list[str], str]:
    """The words before the cursor, and the one under it ("" after a space)."""
    words = words_of(line)[1:]  # not `cwx` itself
    if words and not line.endswith((" ", "\t")):
        return words[:-1], words[-1]
    return words, ""


class _Shell(ShellComplete):
    """A shell's script, which names the variables it asks cwx with."""

    def source(self) -> str:
        return self.source_template % {**self.source_vars(), "args_var": ARGS,
                                       "word_var": WORD, "fish_var": FISH_ASKS}


class Bash(_Shell):
    """Candidates quoted for the bash command line they are inserted into."""

    name = "bash"
    source_template = """\
%(complete_func)s() {
    local IFS=$'\\n'
    COMPREPLY=( $( env COMP_WORDS="${COMP_WORDS[*]}" \\
                   COMP_CWORD=$COMP_CWORD \\
                   %(complete_var)s=bash_complete $1 ) )
    return 0
}

complete -o default -F %(complete_func)s %(prog_name)s"""

    quote = ""  # the quote the word being completed opened, if any

    def get_completion_args(self) -> tuple[list[str], str]:
        # The script joins COMP_WORDS with its IFS, a newline, so each word is there as
        # typed: unquoted, or inside a quote readline closes after the candidate.
        typed = os.environ["COMP_WORDS"].split("\n")
        cword = int(os.environ["COMP_CWORD"])
        words = [" ".join(words_of(word)) for word in typed]
        incomplete = words[cword] if cword < len(words) else ""
        if cword < len(typed) and typed[cword][:1] in ("'", '"'):
            self.quote = typed[cword][0]
        return words[1:cword], incomplete

    def format_completion(self, item: CompletionItem) -> str:
        return bash_quoted(str(item.value), self.quote)


# Lower case matches upper (and back), and `-`/`_` start a new part of a word, which is
# _arguments' own default matcher: --k-w completes --keep-white.
_ANY_CASE = "m:{[:lower:][:upper:]}={[:upper:][:lower:]} r:|[_-]=* r:|=*"


class Zsh(_Shell):
    """Candidates, with their help, for zsh's _arguments, which matches them ignoring
    case too; with none to offer, zsh completes file names."""

    name = "zsh"
    source_template = """\
#compdef %(prog_name)s

%(complete_func)s() {
  eval $(env %(args_var)s="${words[1,$CURRENT]}" %(complete_var)s=zsh_complete %(prog_name)s)
}

compdef %(complete_func)s %(prog_name)s"""

    def get_completion_args(self) -> tuple[list[str], str]:
        return _split(os.environ.get(ARGS, ""))

    def format_completion(self, item: CompletionItem) -> str:
        said = f'"{zsh_quoted(str(item.value))}"'
        if item.help:
            said += f':"{zsh_quoted(" ".join(str(item.help).split()))}"'
        return said

    def complete(self) -> str:
        args, incomplete = self.get_completion_args()
        offered = [self.format_completion(item) for item in self.get_completions(args, incomplete)]
        if not offered:
            return "_files"
        return f"_arguments -M '{_ANY_CASE}' '*: :(({chr(10).join(offered)}))'"


class Fish(_Shell):
    """Candidates with their help after a tab; with none, fish completes file names."""

    name = "fish"
    source_template = (
        'complete --command %(prog_name)s --no-files --arguments "(env %(complete_var)s='
        'fish_complete %(fish_var)s=get-args %(args_var)s=(commandline -cp) %(prog_name)s)" '
        '--condition "env %(complete_var)s=fish_complete %(fish_var)s=is-args '
        '%(args_var)s=(commandline -cp) %(prog_name)s"')

    def get_completion_args(self) -> tuple[list[str], str]:
        return _split(os.environ.get(ARGS, ""))

    def format_completion(self, item: CompletionItem) -> str:
        if item.help:
            return f"{item.value}\t{' '.join(str(item.help).split())}"
        return str(item.value)

    def complete(self) -> str:
        args, incomplete = self.get_completion_args()
        offered = [self.format_completion(item) for item in self.get_completions(args, incomplete)]
        if os.environ.get(FISH_ASKS) == "is-args":
            # The condition: true (status 0) when cwx has candidates, else fish's files.
            raise SystemExit(0 if offered else 1)
        return "\n".join(offered)


class PowerShell(_Shell):
    """Candidates and their help, for PowerShell's argument completer."""

    name = "powershell"
    source_template = """\
Import-Module PSReadLine
Set-PSReadLineKeyHandler -Chord Tab -Function MenuComplete
$scriptblock = {
    param($wordToComplete, $commandAst, $cursorPosition)
    $Env:%(complete_var)s = "powershell_complete"
    $Env:%(args_var)s = $commandAst.ToString()
    $Env:%(word_var)s = $wordToComplete
    %(prog_name)s | ForEach-Object {
        $commandArray = $_ -Split ":::"
        $command = $commandArray[0]
        $helpString = $commandArray[1]
        [System.Management.Automation.CompletionResult]::new(
            $command, $command, 'ParameterValue', $helpString)
    }
    $Env:%(complete_var)s = ""
    $Env:%(args_var)s = ""
    $Env:%(word_var)s = ""
}
Register-ArgumentCompleter -Native -CommandName %(prog_name)s -ScriptBlock $scriptblock"""

    def get_completion_args(self) -> tuple[list[str], str]:
        incomplete = os.environ.get(WORD, "")
        words = words_of(os.environ.get(ARGS, ""))[1:]
        return (words[:-1] if incomplete else words), incomplete

    def format_completion(self, item: CompletionItem) -> str:
        return f"{item.value}:::{' '.join(str(item.help).split()) if item.help else ' '}"


SHELLS: dict[str, type[ShellComplete]] = {
    "bash": Bash, "zsh": Zsh, "fish": Fish, "powershell": PowerShell, "pwsh": PowerShell}


def script(shell: str) -> str:
    """The completion script of `shell`: it asks `cwx` for candidates as words are typed."""
    return SHELLS[shell](None, {}, "cwx", COMPLETE).source()  # type: ignore[arg-type]


def answer(command: Any, instruction: str) -> str:
    """What cwx prints when a shell's script asks (`bash_complete`...): the candidates for
    the line in the environment, one a line, as that shell reads them."""
    shell = instruction.removesuffix("_complete")
    if shell not in SHELLS:
        raise ValueError(f"{COMPLETE}={instruction}: no such shell's completion "
                         f"({', '.join(SHELLS)})")
    return SHELLS[shell](command, {}, "cwx", COMPLETE).complete()


def install(shell: str) -> Path:
    """Install `shell`'s completion script where that shell reads it; the file written.
    A line the shell's start-up file needs is added at its end, once; nothing else in it
    is touched."""
    home = Path.home()
    if shell == "bash":
        target = home / ".bash_completions" / "cwx.sh"
        _write(target, script(shell))
        _add_line(home / ".bashrc", f"source '{target}'")
    elif shell == "zsh":
        target = home / ".zfunc" / "_cwx"
        _write(target, script(shell))
        _add_line(home / ".zshrc", "fpath+=~/.zfunc; autoload -Uz compinit; compinit")
    elif shell == "fish":
        config = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
        target = config / "fish" / "completions" / "cwx.fish"
        _write(target, script(shell))
    else:  # PowerShell reads its profile, wherever it says that is
        import subprocess

        found = subprocess.run([shell, "-NoProfile", "-Command", "echo", "$profile"],
                               capture_output=True, text=True, check=True)
        target = Path(found.stdout.strip())
        _add_line(target, script(shell))
    return target


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{text}\n")


def _add_line(path: Path, line: str) -> None:
    """`line` at the end of a start-up file, unless the file says it already."""
    path.parent.mkdir(parents=True, exist_ok=True)
    said = path.read_text() if path.is_file() else ""
    if line in said:
        return
    with path.open("a") as file:  # appended: the player's own lines are never rewritten
        file.write(f"{'' if said.endswith(chr(10)) or not said else chr(10)}{line}\n")


def bash_quoted(value: str, quote: str = "") -> str:
    """`value` as bash reads it back as one word, after `quote` (none, ' or ")."""
    if quote == "'":
        return value.replace("'", "'\\''")
    if quote == '"':
        return re.sub(r'([\\"$`])', r"\\\1", value)
    return re.sub(r"([^\w@%+,./:=-])", r"\\\1", value)


def zsh_quoted(text: str) -> str:
    """`text` as a value or help inside `'*: :(("value":"help"))'`: escaped for
    _describe (colons, backslashes), then _arguments (double quotes), then the shell."""
    text = text.replace("\\", "\\\\").replace(":", "\\:")
    text = re.sub(r'([\\"$`])', r"\\\1", text)
    return text.replace("'", "'\\''")
