"""Long text for people through a pager, as git's: on a terminal only, CWX_PAGER, else
PAGER, else `less -FRX` (with LESS=FRX when unset: one screen is printed and left, colour
passes); a pager of "" or "cat" is none."""

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from cwx.cli import output


def chosen() -> str | None:
    """The pager command to run, or None for none."""
    for name in ("CWX_PAGER", "PAGER"):
        if name in os.environ:
            command = os.environ[name].strip()
            return None if command in ("", "cat") else command
    return "less -FRX" if shutil.which("less") else None


@contextmanager
def paged(wanted: bool) -> Iterator[None]:
    """What the block prints goes through the pager when `wanted` and standard output is a
    terminal; the pager is waited for, so the shell's prompt comes after it."""
    command = chosen() if wanted and sys.stdout.isatty() else None
    if command is None:
        yield
        return
    sys.stdout.flush()
    env = {**os.environ, "LESS": os.environ.get("LESS", "FRX"), "LV": os.environ.get("LV", "-c")}
    try:
        pager = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env)
    except OSError:  # no shell to run it in: the text comes plainly
        yield
        return
    assert pager.stdin is not None
    terminal = os.dup(1)
    os.dup2(pager.stdin.fileno(), 1)
    pager.stdin.close()
    output.paging = True
    said = False
    try:
        yield
        sys.stdout.flush()
        said = True
    finally:
        if said:
            os.dup2(terminal, 1)
        else:  # an error, Ctrl-C, or the pager quit: what is still held goes nowhere
            output.quiet_stdout()
        os.close(terminal)
        output.paging = False
        _wait(pager)


def _wait(pager: "subprocess.Popen[bytes]") -> None:
    # The pager has the terminal until it ends: Ctrl-C in it is its own (less answers it).
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        pager.wait()
    finally:
        signal.signal(signal.SIGINT, before)
