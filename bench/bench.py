"""make bench: cwx's start-up and scale budgets, measured as whole processes.

Every command runs once per round, in a shuffled order, for ROUNDS rounds. A
command's figure is its median wall time; each budget is the median, over the
rounds, of the ratio of two commands timed in the same round (most often to
`python -c pass` from the same virtual environment), so that the machine's
drift during the run cancels out of the comparison.
The PyPI `dice` package (`roll 1d12`) is installed into a venv of its own under
.bench/ and measured alongside, as the nearest thing a table would use instead.
"""

from __future__ import annotations

import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
ROUNDS = int(os.environ.get("CWX_BENCH_ROUNDS", "51"))
JOURNAL_EVENTS = 10_000


def dice_roll() -> list[str]:
    """The `roll` command of the PyPI dice package, in a venv of its own."""
    venv = ROOT / ".bench" / "dice-venv"
    roll = venv / "bin" / "roll"
    if not roll.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                        "dice==4.0.0"], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "compileall", "-q",
                        str(venv / "lib")], check=False, stdout=subprocess.DEVNULL)
    return [str(roll), "1d12"]


HELLO = """\
import typer

app = typer.Typer()


@app.command()
def hello(name: str = "world") -> None:
    print(f"hello {name}")


app()
"""


def campaign(folder: Path, events: int) -> Path:
    shutil.copytree(ROOT / "examples", folder)
    if events:
        line = json.dumps({"v": 1, "id": "0" * 16, "at": "2026-11-29T12:00:00Z",
                           "command": "clock resolve", "who": "Kris", "file": "kris.toml",
                           "result": {"target": 4, "guess": 3, "distance": 1,
                                      "trait": "Repair", "score": 3, "success": True,
                                      "critical": False, "xp": 2, "xp_total": 2},
                           "changes": [{"file": "kris.toml", "key": "xp", "from": 0, "to": 2}]})
        (folder / "journal.jsonl").write_text((line + "\n") * events)
    return folder / "kris.toml"


def measure(commands: dict[str, list[str]]) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in commands}
    order = list(commands)
    shuffle = random.Random(1129)
    for name in order:  # one warm-up run each: caches, not start-up, are not the subject
        subprocess.run(commands[name], stdout=subprocess.DEVNULL, check=True)
    for _ in range(ROUNDS):
        shuffle.shuffle(order)
        for name in order:
            began = time.perf_counter()
            subprocess.run(commands[name], stdout=subprocess.DEVNULL, check=True)
            times[name].append(time.perf_counter() - began)
    return times


def main() -> int:
    cwx = str(BIN / "cwx")
    with tempfile.TemporaryDirectory() as scratch:
        hello = Path(scratch) / "hello.py"
        hello.write_text(HELLO)
        subprocess.run([sys.executable, "-m", "py_compile", str(hello)], check=True)
        kris = campaign(Path(scratch) / "short", 0)
        long_kris = campaign(Path(scratch) / "long", JOURNAL_EVENTS)
        resolve = ["clock", "resolve", "--target", "4", "--guess", "3", "--trait", "Repair",
                   "--char"]
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "reference: a Typer hello-world": [sys.executable, str(hello)],
            "stateless resolve": [cwx, "clock", "resolve", "--target", "4", "--guess", "3",
                                  "--score", "3"],
            "stateful resolve": [cwx, *resolve, str(kris)],
            "stateful resolve, 10,000-event journal": [cwx, *resolve, str(long_kris)],
            "odds wheel purple, keep both": [cwx, "odds", "wheel", "--color", "purple",
                                             "--keep-white", "--keep-black"],
            "odds clock --all": [cwx, "odds", "clock", "--all"],
            "dice: roll 1d12": dice_roll(),
        }
        times = measure(commands)
    median = {name: statistics.median(values) for name, values in times.items()}

    def ratio(name: str, to: str = "python -c pass") -> float:
        return statistics.median(a / b for a, b in zip(times[name], times[to], strict=True))

    print(f"cwx bench: {ROUNDS} alternating rounds, medians; {platform.python_version()} on "
          f"{platform.machine()}, {os.cpu_count()} cores")
    print(f"{'command':42} {'median':>9} {'x floor':>8}  (the median of each round's ratio)")
    for name, seconds in median.items():
        print(f"{name:42} {seconds * 1000:7.1f}ms {ratio(name):7.2f}x")
    budgets = [
        ("stateless resolve <= 6x the floor", ratio("stateless resolve"), 6.0),
        ("stateful resolve <= 7.5x the floor", ratio("stateful resolve"), 7.5),
        ("stateful resolve faster than dice's roll 1d12",
         ratio("stateful resolve", "dice: roll 1d12"), 1.0),
        ("10,000-event journal slows stateful resolve <= 10%",
         ratio("stateful resolve, 10,000-event journal", "stateful resolve"), 1.10),
        ("odds wheel purple, keep both < 2x stateless",
         ratio("odds wheel purple, keep both", "stateless resolve"), 2.0),
        ("odds clock --all < 2x stateless",
         ratio("odds clock --all", "stateless resolve"), 2.0),
    ]
    print()
    failed = 0
    for name, ratio, limit in budgets:
        ok = ratio <= limit
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {ratio:.2f} (limit {limit})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
