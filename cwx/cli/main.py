"""The `cwx` entry point: run the app, and turn every failure into one line and exit 2."""

from __future__ import annotations

import gc
import io
import os
import sys
from collections.abc import Callable, Sequence

USAGE_EXIT = 2
INTERRUPTED = 130


def main(argv: Sequence[str] | None = None) -> None:
    """The `cwx` program: a process that ends when the command does."""
    import signal

    from cwx import _interrupted_at_start

    # Until the command can catch Ctrl-C itself, it ends cwx quietly (nothing is written
    # while Python imports).
    signal.signal(signal.SIGINT, _interrupted_at_start)
    if not _standard_streams():
        fail("standard output is closed, and cwx says what it did there; nothing was done "
             "(send what it says to >/dev/null instead)")
        sys.exit(USAGE_EXIT)
    # A command lives for a fraction of a second and makes few reference cycles, but
    # importing Typer allocates enough for some thirty cyclic collections. Cycles are
    # left to the end of the process, which frees everything.
    gc.disable()
    status = _run(argv, program=True)
    # Python still collects every object once as it exits, on or off (measured: 20M
    # instructions, 7% of a stateful resolve); frozen, they are not looked at. The
    # command is done: its files are written and closed, nothing waits on a finalizer.
    gc.freeze()
    try:  # what is still buffered, while an exception here can be answered
        sys.stdout.flush()
    except BrokenPipeError:
        from cwx.cli.output import quiet_stdout

        quiet_stdout()
    except _Lost as lost:
        status = _output_lost(lost)
    sys.exit(status)


def _standard_streams() -> bool:
    """The standard streams as cwx uses them; False when standard output is closed."""
    # A closed one is held open on /dev/null, so that no file cwx opens takes its number
    # (where a child's output, or a print, would then land).
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one
    if sys.stdin is None:
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 (the process's own, for its life)
    # Standard error that cannot be written (2>/dev/full) loses what it says, quietly: the
    # exit status still tells. A name that is not UTF-8 is shown escaped.
    sys.stderr = io.TextIOWrapper(_Quiet(2, "w", closefd=False), encoding="utf-8",
                                  errors="backslashreplace", line_buffering=True)
    if sys.stdout is None:
        return False
    old: io.TextIOWrapper = sys.stdout  # type: ignore[assignment]  # Python's own
    old.flush()
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(_Output(old.fileno(), "w", closefd=False)),
        encoding=old.encoding, errors="backslashreplace",
        line_buffering=old.line_buffering, write_through=old.write_through)
    return True


class _Lost(Exception):
    """A write to standard output failed, other than for a reader gone (a full disk)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))


class _Quiet(io.FileIO):
    """Standard error: a write that fails is dropped, never an error of its own."""

    def write(self, data: object) -> int:
        try:
            return super().write(data)  # type: ignore[arg-type]
        except OSError:
            return len(data)  # type: ignore[arg-type]


class _Output(io.FileIO):
    """Standard output, whose failures are said in one line, never a traceback."""

    def write(self, data: object) -> int:
        try:
            return super().write(data)  # type: ignore[arg-type]
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _Lost(error) from None


def _output_lost(lost: _Lost) -> int:
    """Say it, and whether the change was saved; what is still held goes nowhere, so that
    Python's own flush at exit does not fail as well."""
    from cwx.cli.output import quiet_stdout

    quiet_stdout()
    durable = sys.modules.get("cwx.store.durable")  # imported only by a command that writes
    done = "the change was saved" if durable and durable.saved else "nothing was changed"
    return fail(f"could not write the output ({lost}); {done}")


def run(argv: Sequence[str] | None = None) -> int:
    """Run cwx in this process (tests): the exit status, with collection restored after."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _run(argv, program=False)
    finally:
        if collecting:
            gc.enable()


def _run(argv: Sequence[str] | None, *, program: bool) -> int:
    import signal

    from cwx.base.errors import CwxError
    from cwx.git.repo import one_state

    args = sys.argv[1:] if argv is None else argv
    try:
        command = _command(args)
        if program:  # from here Ctrl-C is a KeyboardInterrupt the command can catch
            signal.signal(signal.SIGINT, signal.default_int_handler)
        _utf8_arguments(args)
        # git asked each question once a command (repo.py says why); the next command in
        # this process (the tests run many, a scene one a line) asks again.
        with one_state(anew=True):
            status = command()
    except CwxError as error:
        return fail(str(error))
    except KeyboardInterrupt:
        status = INTERRUPTED
    except BrokenPipeError:  # the reader went away: nothing more to say
        from cwx.cli.output import quiet_stdout

        quiet_stdout()
        return 0
    except _Lost as error:
        return _output_lost(error)
    except Exception as error:  # a bug in cwx: still one line, never a traceback
        if _aborted(error):
            status = INTERRUPTED
        elif os.environ.get("CWX_DEBUG"):
            raise
        else:
            return fail(f"internal error ({type(error).__name__}: {error}); please report "
                        "it (set CWX_DEBUG=1 for the details)", status=3)
    if status == INTERRUPTED:  # Typer turns Ctrl-C into this status, silently
        from cwx.store import durable

        done = "the change was saved" if durable.saved else "nothing was changed"
        print(f"cwx: interrupted; {done}", file=sys.stderr)
    return status


def _command(args: Sequence[str]) -> Callable[[], int]:
    """The command line's runner, imported while Ctrl-C still ends cwx quietly (a
    KeyboardInterrupt inside an import can leave a module half made): what git runs (a
    hook, the merge driver) straight, every other command through Typer."""
    if list(args[:2]) in (["git", "hook"], ["git", "merge"]):  # no import for the others
        from cwx.cli import hooks

        if hooks.quick(args):
            return lambda: hooks.run(args)
    from cwx.cli.app import app
    from cwx.cli.lazy import invoke

    return lambda: invoke(app, args)


def _aborted(error: Exception) -> bool:
    """Typer's Abort (Ctrl-C at a prompt), where Typer was loaded at all."""
    typer = sys.modules.get("typer")
    return typer is not None and isinstance(error, typer.Abort)


def _utf8_arguments(args: Sequence[str]) -> None:
    """Names cwx writes into files and the journal are UTF-8: refuse any other bytes."""
    from cwx.base.errors import BadValue

    for number, arg in enumerate(args, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise BadValue(f"argument {number} ({arg.encode('utf-8', 'surrogateescape')!r}) is "
                           "not UTF-8 text; cwx takes names in UTF-8") from None


def fail(message: str, status: int = USAGE_EXIT) -> int:
    import contextlib

    from cwx.base.printable import printable  # a name from a file is shown, never obeyed

    text = printable(" ".join(message.split()))  # one line, always
    with contextlib.suppress(OSError):  # stderr itself unwritable: the status still says it
        print(f"cwx: error: {text}", file=sys.stderr)
    return status
