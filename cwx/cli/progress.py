"""Long work said as it goes, as git says it: on a terminal's standard error, once the
work has taken a second, a count and a rate on one line (`Reading the journal: 182,000
events (61,000/s)`), erased when it is done. Into a pipe, or with --json, nothing; the
journal layer only calls back with its count (STYLE: it says nothing itself)."""

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Tick = Callable[[int], None]  # the count of events so far, now and then

AFTER = 1.0  # seconds of work before progress shows: the one seam tests move
EVERY = 0.1  # seconds between two showings, at most


class Meter:
    """One line of progress, said again as the count grows; a count smaller than the last
    is the work's next pass over the journal, its rate counted afresh."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.began = self.passed = self.called = time.monotonic()
        self.next = self.began + AFTER
        self.count = 0  # at the last call, and when it came
        self.width = 0  # of the line on the screen, to erase it

    def __call__(self, count: int) -> None:
        now = time.monotonic()
        if count < self.count:  # the last pass ended about when it was last heard of
            self.passed = self.called
        self.count, self.called = count, now
        if now < self.next:
            return
        self.next = now + EVERY
        rate = count / max(now - self.passed, 1e-3)
        self._say(f"{self.what}: {count:,} events ({rate:,.0f}/s)")

    def erase(self) -> None:
        if self.width:
            self._say("")

    def _say(self, line: str) -> None:
        sys.stderr.write("\r" + line + " " * (self.width - len(line)) + ("\r" if not line else ""))
        sys.stderr.flush()
        self.width = len(line)


@contextmanager
def shown(what: str, wanted: bool = True) -> Iterator[Meter | None]:
    """A meter for the block's work when `wanted` and standard error is a terminal, else
    None (nothing is counted at all); its line is gone when the block ends."""
    if not wanted or not sys.stderr.isatty():
        yield None
        return
    meter = Meter(what)
    try:
        yield meter
    finally:
        meter.erase()
