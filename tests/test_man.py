"""The man pages in docs/man are what `make man` writes from the command line's own
--help: a command's help and its page never drift."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import ROOT

FOLDER = ROOT / "docs" / "man"


def _man() -> object:
    spec = importlib.util.spec_from_file_location("man", ROOT / "scripts" / "man.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pages_checked_in_are_the_ones_make_man_writes() -> None:
    written: dict[str, str] = _man().pages()  # type: ignore[attr-defined]
    present = {path.name: path.read_text() for path in FOLDER.glob("*.1")}
    assert set(present) == set(written), "run `make man`"
    stale = sorted(name for name, text in written.items() if present[name] != text)
    assert stale == [], f"run `make man`: {stale} differ from the CLI's help"
    assert "cwx-bag-draw.1" in written and "cwx.1" in written


def test_a_page_reads_as_a_man_page(tmp_path: Path) -> None:
    text = (FOLDER / "cwx-check.1").read_text()
    assert text.startswith(".TH CWX-CHECK 1 ") and "\n.SH NAME\ncwx-check \\- " in text
    assert "\n.SH SYNOPSIS\n\\fBcwx check [OPTIONS] [PATH...]\\fR" in text


def _sections(text: str) -> list[str]:
    return re.findall(r"^\.SH (.+)$", text, re.MULTILINE)


def test_every_page_has_the_sections_a_man_page_has() -> None:
    for path in FOLDER.glob("*.1"):
        text = path.read_text()
        base = ["NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS"]
        more = ["ENVIRONMENT", "FILES"] if path.name == "cwx.1" else []
        assert _sections(text) == [*base, *more, "EXAMPLES", "SEE ALSO"], path.name
        statuses = re.findall(r"^\.TP\n\\fB(\d+)\\fR$", text, re.MULTILINE)
        assert statuses[:4] == ["0", "1", "2", "3"], path.name
        examples = text.split(".SH EXAMPLES\n.nf\n")[1].split("\n.fi")[0].splitlines()
        assert examples and all(line.startswith("cwx ") for line in examples), path.name
    readme = (ROOT / "README.md").read_text()
    assert "| 3 | an internal error" in readme  # the table the pages are made from


# Read by cwx but no user's to set: the completion protocol of the shells, a test's hook.
_PRIVATE = re.compile(r"_CWX_\w+|COMP_\w+|CWX_TEST_\w+")


def test_the_environment_section_names_what_cwx_reads_and_nothing_else() -> None:
    source = "\n".join(path.read_text() for path in (ROOT / "cwx").rglob("*.py"))
    read = set(re.findall(r"""(?:environ(?:\.get)?\(?\[?|env\.get\(|envvar=)["']([A-Z_]+)["']""",
                          source))
    read |= set(re.findall(r"""["'](CWX_[A-Z_]+)["']""", source))  # a constant's too
    read |= {word for listed in re.findall(r'for \w+ in \(([^)]*)\)', source)
             for word in listed.replace('"', "").replace(",", " ").split()
             if re.fullmatch(r"[A-Z][A-Z_]+", word)}
    read.add("TZ")  # read for cwx by the C library's localtime (cwx/base/times.py)
    assert {"CWX_PLAYER", "NO_COLOR", "CWX_PAINT"} <= read
    page = (FOLDER / "cwx.1").read_text()
    section = page.split(".SH ENVIRONMENT\n")[1].split(".SH ")[0]
    named = {name for tag in re.findall(r"^\\fB(.+)\\fR$", section, re.MULTILINE)
             for name in tag.split(", ")}
    said = set(re.findall(r"\b[A-Z][A-Z_]{1,}\b", re.sub(r"\\f[BRI]", " ", section)))
    assert {v for v in read if not _PRIVATE.fullmatch(v)} <= said, "add it to scripts/man.py"
    assert named <= read, "the page names a variable cwx never reads"


@pytest.mark.skipif(shutil.which("man") is None or shutil.which("groff") is None,
                    reason="man and groff are not installed")
def test_man_renders_every_page_without_a_warning() -> None:
    env = {**os.environ, "MANWIDTH": "80", "LC_ALL": "C.UTF-8", "MANPAGER": "cat",
           "PAGER": "cat"}
    shown = subprocess.run(["man", "-l", str(FOLDER / "cwx.1")], capture_output=True,
                           text=True, env=env, timeout=60)
    assert shown.returncode == 0 and shown.stderr == "", shown.stderr
    text = re.sub(".\b", "", shown.stdout)  # overstrike, where man bolds by it
    for heading in ("NAME", "SYNOPSIS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"):
        assert f"\n{heading}\n" in text, heading
    assert "CWX_PLAYER" in text and "campaign.toml" in text
    warned = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z",
                             *map(str, sorted(FOLDER.glob("*.1")))],
                            capture_output=True, text=True, timeout=60)
    assert warned.returncode == 0 and warned.stderr == "", warned.stderr
