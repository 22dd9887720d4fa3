"""Man pages from the command line itself: `make man` writes docs/man/cwx.1 and one page
a command (cwx-bag-draw.1), each made of that command's own --help, so help and man never
drift (tests/test_man.py fails when the pages checked in differ from these), with the
README's exit statuses and the help's examples; cwx.1 adds the environment and the files.
The wheel installs them in share/man/man1 (pyproject.toml).

    python scripts/man.py [FOLDER]     # default: docs/man
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def commands() -> list[list[str]]:
    """Every command's words (["bag", "draw"], ["check"]), hidden ones (git's) aside."""
    from cwx.cli import lazy, toolkit
    from cwx.cli.app import COMMANDS, app

    root: Any = toolkit.build(app)
    found: list[list[str]] = []
    for name in lazy.commands(COMMANDS):
        command = root.get_command(None, name)
        if hasattr(command, "list_commands"):
            found += [[name, sub] for sub in command.list_commands(None)
                      if not command.get_command(None, sub).hidden]
        else:
            found.append([name])
    return found


def help_of(words: list[str]) -> str:
    """A command's --help as plain text, 78 columns wide, whatever the terminal."""
    from typer.testing import CliRunner

    from cwx.cli.app import app

    done = CliRunner().invoke(app, [*words, "--help"], prog_name="cwx",
                              env={"COLUMNS": "78", "NO_COLOR": "1", "CWX_PAINT": "never"})
    if done.exit_code != 0:
        raise SystemExit(f"cwx {' '.join(words)} --help failed: {done.output}")
    return done.output


# Letters help uses that are not ASCII, as roff names them (groff warns on raw UTF-8).
_NAMED = {"—": "\\(em", "–": "\\(en", "…": "...", "×": "\\(mu", "≈": "\\(~~",
          "→": "\\(->", "·": "\\(pc", "’": "'", "“": "\\(lq", "”": "\\(rq"}


def _roff(text: str) -> str:
    """Plain text as roff shows it: as it is (no filling), backslashes and leading dots
    escaped."""
    lines = []
    for line in text.rstrip("\n").splitlines():
        line = line.replace("\\", "\\e")
        for letter, named in _NAMED.items():
            line = line.replace(letter, named)
        lines.append(f"\\&{line}" if line.startswith((".", "'")) else line)
    return "\n".join(lines)


# What cwx reads of its environment (tests/test_man.py holds this list to what cwx's
# source reads: a variable added there is added here).
ENVIRONMENT = [
    ("CWX_PLAYER", "The player every change records; else git's author name (GIT_AUTHOR_NAME, "
                   "then user.name), else the login name (LOGNAME, USER, LNAME, USERNAME)."),
    ("CWX_NO_SYNC", "1: a command acts on this clone alone (as --no-sync), where "
                    "campaign.toml says sync = true."),
    ("CWX_PAINT", "When to colour the output, as --paint says it: auto, always or never."),
    ("NO_COLOR", "Set and not empty: no colour (no-color.org), whatever CLICOLOR_FORCE and "
                 "FORCE_COLOR say."),
    ("CLICOLOR", "0: no colour, even on a terminal."),
    ("CLICOLOR_FORCE", "Set and not 0: colour into a pipe as well (bixense.com/clicolors)."),
    ("FORCE_COLOR", "Set and not empty: colour into a pipe as well."),
    ("TERM, COLORTERM", "The orange die in 256-colour orange where TERM names 256 colours or "
                        "COLORTERM is truecolor or 24bit; TERM=dumb: no colour."),
    ("XDG_STATE_HOME", "The state folder (else ~/.local/state): cwx/ there holds the key that "
                       "marks this machine's redo records, and the history of cwx play "
                       "outside git."),
    ("ZDOTDIR", "The folder of the .zshrc that --install-completion zsh adds its line to "
                "(else the home folder)."),
    ("XDG_CONFIG_HOME", "Where --install-completion fish puts its script: fish/completions "
                        "there (else ~/.config)."),
    ("CWX_PAGER, PAGER", "The pager log and recap use on a terminal, CWX_PAGER first; \"\" "
                         "or cat: none (else less -FRX, where less is installed)."),
    ("LESS, LV", "Set for the pager where unset, as git sets them: FRX (quit on one screen, "
                 "colour kept, the screen not cleared), -c."),
    ("TZ", "The time zone times are shown in, with their offset (--utc: UTC); the JSON "
           "keeps UTC."),
    ("CWX_DEBUG", "Set: an internal error (exit 3) shows its traceback, for a bug report."),
    ("CWX_SIGNING_KEY", "The private SSH key cwx sync signs with where campaign.toml lists "
                        "players' keys ([keys]); else git's user.signingkey of the clone, else "
                        "the key in ~/.ssh whose .pub is the one listed."),
]

FILES = [
    ("campaign.toml", "Marks a campaign's root folder, found upwards from the current one "
                      "as git finds a repository; names the default bag."),
    ("journal.jsonl", "The campaign's journal and ledger, beside campaign.toml: one JSON "
                      "line a change, only ever appended to."),
    ("*.toml", "A character or a bag, in the campaign's folder or any folder below that "
               "is not hidden; other TOML files are left alone."),
    ("*.schema.json", "The JSON Schemas cwx init writes for TOML-aware editors."),
    (".git/cwx/sealed.json", "The GM's sealed number, in the clone's own git folder "
                             "(outside git, .cwx-sealed.json at the campaign's root)."),
    (".git/cwx/journal-proven-*", "The commits whose journal cwx check has proven to extend "
                                  "their parents' (the journal only grows), kept so that a "
                                  "history is proven once."),
    (".cwx-redo-*.json, .*.cwx-tmp", "Left only by a command that was killed mid-write; "
                                    "the next command finishes or undoes it."),
]


def _exit_statuses() -> list[tuple[str, str]]:
    """The README's table of exit statuses: the one list of them, shown in every page."""
    readme = (ROOT / "README.md").read_text()
    table = readme.split("## Exit status and errors", 1)[1].split("\n\n", 2)[1]
    rows = [line.strip("|").split("|", 1) for line in table.splitlines()[2:]]
    return [(status.strip(), meaning.strip().replace("`", "")) for status, meaning in rows]


def _listed(title: str, items: list[tuple[str, str]]) -> list[str]:
    lines = [f".SH {title}"]
    for name, text in items:
        lines += [".TP", f"\\fB{_roff(name)}\\fR", _roff(text)]
    return lines


def _examples(text: str) -> tuple[str, list[str]]:
    """The help without its example paragraph, and the example's command lines."""
    kept, examples = [], []
    for paragraph in text.split("\n\n"):
        said = " ".join(paragraph.split())
        if said.startswith("Example: "):
            examples.append(said.removeprefix("Example: "))
        else:
            kept.append(paragraph)
    return "\n\n".join(kept), examples


def page(words: list[str], version: str) -> str:
    """One command's man page (words [] is cwx itself)."""
    name = "-".join(["cwx", *words])
    text = help_of(words)
    usage, _, rest = text.partition("\n")
    summary = " ".join(rest.strip("\n").split("\n\n")[0].split())  # one sentence (test_help)
    rest, examples = _examples(rest.strip("\n"))
    if not words:  # cwx's own page: each command's example
        examples = [example for command in commands()
                    for example in _examples(help_of(command))[1]]
    lines = [
        f'.TH {name.upper()} 1 "" "cwx {version}" "cwx manual"',
        ".SH NAME",
        f"{name} \\- {_roff(summary.rstrip('.'))}",
        ".SH SYNOPSIS",
        f"\\fB{_roff(usage.removeprefix('Usage: ').strip())}\\fR",
        ".SH DESCRIPTION",
        ".nf",
        _roff(rest),
        ".fi",
        *_listed("EXIT STATUS", _exit_statuses()),
    ]
    if not words:
        lines += [*_listed("ENVIRONMENT", ENVIRONMENT), *_listed("FILES", FILES)]
    lines += [".SH EXAMPLES", ".nf", *(_roff(example) for example in examples), ".fi"]
    lines += [".SH SEE ALSO"]
    lines.append(", ".join(f"\\fBcwx-{'-'.join(c)}\\fR(1)" for c in commands()) if not words
                 else "\\fBcwx\\fR(1), \\fBcwx help\\fR " + " ".join(words))
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    """Every page, by its file name."""
    from cwx import __version__

    found = {"cwx.1": page([], __version__)}
    for words in commands():
        found[f"cwx-{'-'.join(words)}.1"] = page(words, __version__)
    return found


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "man"
    folder.mkdir(parents=True, exist_ok=True)
    written = pages()
    for stale in folder.glob("cwx*.1"):
        if stale.name not in written:
            stale.unlink()
    for name, text in written.items():
        (folder / name).write_text(text)
    print(f"wrote {len(written)} man pages in {os.path.relpath(folder)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
