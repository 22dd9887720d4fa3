"""cwx: a command-line companion for the ClockWorx and Color Wheel mechanics."""

import os as _os
import sys as _sys

try:
    # The builtin half of `signal`: `signal` itself imports enum, some milliseconds in
    # which a Ctrl-C would still find Python's own handler and print a traceback
    # (tests/test_durable.py sends it then). Not a question of speed: of that window.
    import _signal  # type: ignore[import-not-found]
except ImportError:  # a Python without it: the window stays open, nothing else changes
    import signal as _signal

__version__ = "0.2.0"


def _interrupted_at_start(signum: int, frame: object) -> None:
    # Nothing has been read or written yet: say so, and go, without a traceback.
    _os.write(2, b"cwx: interrupted; nothing was changed\n")
    _os._exit(130)


# Run as the `cwx` program (not imported by a test or a script), Ctrl-C while Python
# imports the rest of cwx ends quietly; cli.main hands the signal back to Python once
# the command can catch it.
if _sys.argv[:1] == ["-m"] or _os.path.basename(_sys.argv[0] if _sys.argv else "") == "cwx":
    _signal.signal(_signal.SIGINT, _interrupted_at_start)
