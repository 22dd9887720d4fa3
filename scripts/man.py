"""Man pages from the command line itself: `make man` writes docs/man/cwx.1 and one page
a command (cwx-bag-draw.1), each made of that command's own --help, so help and man never
drift (tests/test_man.py fails when the pages checked in differ from these).

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


def page(words: list[str], version: str) -> str:
    """One command's man page (words [] is cwx itself)."""
    name = "-".join(["cwx", *words])
    text = help_of(words)
    usage, _, rest = text.partition("\n")
    paragraph = " ".join(rest.strip("\n").split("\n\n")[0].split())
    summary = paragraph.split(". ")[0].split("; ")[0]  # its first sentence, or clause
    see = "" if words else "\n".join(
        ["", ".SH SEE ALSO", ", ".join(f"\\fBcwx-{'-'.join(c)}\\fR(1)" for c in commands())])
    return "\n".join([
        f'.TH {name.upper()} 1 "" "cwx {version}" "cwx manual"',
        ".SH NAME",
        f"{name} \\- {_roff(summary.rstrip('.'))}",
        ".SH SYNOPSIS",
        f"\\fB{_roff(usage.removeprefix('Usage: ').strip())}\\fR",
        ".SH DESCRIPTION",
        ".nf",
        _roff(rest.strip("\n")),
        ".fi",
    ]) + see + "\n"


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
