"""Run cwx the way people do: in-process for speed, or as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from cwx.cli.main import run

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
_RUNNER = CliRunner()


@dataclass
class Ran:
    status: int
    stdout: str
    stderr: str

    @property
    def json(self) -> Any:
        return json.loads(self.stdout)

    @property
    def error(self) -> str:
        """The one error line; fails the test if there is not exactly one."""
        lines = self.stderr.splitlines()
        assert len(lines) == 1, f"expected one stderr line, got {lines!r}"
        assert "Traceback" not in self.stderr
        return lines[0]


def cwx(*args: object, input: str | None = None, env: dict[str, str] | None = None) -> Ran:
    """Run cwx in this process through its real entry point (errors and exit codes included).

    CWX_DEBUG is set so an internal error raises here instead of hiding as a message.
    """
    with _RUNNER.isolation(input=input, env={"CWX_DEBUG": "1", **(env or {})}) as (out, err, _):
        status = run([str(arg) for arg in args])
        sys.stdout.flush()
        sys.stderr.flush()
        return Ran(status, out.getvalue().decode(), err.getvalue().decode())


def cwx_process(*args: object, cwd: Path | None = None, env: dict[str, str] | None = None,
                timeout: float = 60) -> Ran:
    """Run cwx as a separate process, exactly as a shell or makefile would."""
    done = subprocess.run(
        [sys.executable, "-m", "cwx", *map(str, args)],
        capture_output=True, text=True, cwd=cwd, timeout=timeout,
        env={**os.environ, **(env or {})},
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def journal(folder: Path) -> list[dict[str, Any]]:
    path = folder / "journal.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]
