"""The man pages in docs/man are what `make man` writes from the command line's own
--help: a command's help and its page never drift."""

from __future__ import annotations

import importlib.util
from pathlib import Path

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
