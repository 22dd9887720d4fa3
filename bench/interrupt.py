"""Ctrl-C while cwx starts: how often it still ends with anything but one line and 130.

Each run starts `cwx clock resolve` and sends SIGINT after a random delay in the first
50 ms (when the interpreter, then Typer, are still being loaded), with both cores kept
busy, as on a loaded machine. A run is clean when cwx says one line (or nothing, when it
finished first) and exits 130 (or 0): no traceback, no "Fatal Python error".

    python bench/interrupt.py [RUNS]
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

CWX = str(Path(sys.executable).parent / "cwx")
COMMAND = [CWX, "clock", "resolve", "--target", "4", "--guess", "3", "--score", "3"]


def one(delay: float) -> tuple[int, str]:
    process = subprocess.Popen(COMMAND, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    return process.returncode, err


def clean(status: int, err: str) -> bool:
    """One line and 130; or, Ctrl-C come before Python itself could answer it, the
    signal's own end (the shell shows 130, as for any program), saying nothing."""
    if status in (0, -signal.SIGINT):
        return err == ""
    return status == 130 and len(err.splitlines()) == 1 and err.startswith("cwx: interrupted")


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 550
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(os.cpu_count() or 2)]
    shuffle = random.Random(16)
    failures: list[tuple[float, int, str]] = []
    interrupted = 0
    try:
        for _ in range(runs):
            delay = shuffle.uniform(0, 0.05)
            status, err = one(delay)
            interrupted += status != 0
            if not clean(status, err):
                failures.append((delay, status, " / ".join(
                    line.strip() for line in err.strip().splitlines()[-3:])))
    finally:
        for process in busy:
            process.kill()
    print(f"{runs} runs, Ctrl-C within 50 ms under load: {interrupted} interrupted, "
          f"{len(failures)} not clean ({100 * len(failures) / runs:.1f}%)")
    for delay, status, last in failures[:10]:
        print(f"  after {delay * 1000:.1f} ms: exit {status}: {last}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
