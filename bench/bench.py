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
LEDGER_EVENTS = 100_000
MEMORY_LIMIT_MB = 100


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


READ_EVERY_LINE = """\
import json, sys
with open(sys.argv[1], "rb") as file:
    for line in file:
        json.loads(line)
"""


def ledger_campaign(folder: Path, events: int) -> Path:
    """A campaign made by cwx init, two characters, and a journal of `events` changes
    (resolves and draws, as a long campaign has), its files agreeing with its ledger."""
    from cwx.journal import lines as journal

    cwx = str(BIN / "cwx")
    subprocess.run([cwx, "init", str(folder)], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([cwx, "char", "new", str(folder / "kris.toml"), "--system", "clockworx",
                    "--trait", "Scrounge=3", "--trait", "Repair=3", "--trait", "Tough=5"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([cwx, "char", "new", str(folder / "sue.toml"), "--system", "colorwheel",
                    *[f"--trait={c}={t}" for c, t in (("red", "Strong"), ("yellow", "Clever"),
                                                      ("blue", "Athletic"), ("orange", "Brave"),
                                                      ("green", "Healer"),
                                                      ("purple", "Friendly"))]],
                   check=True, stdout=subprocess.DEVNULL)
    lines, xp, held = [], 0, 0
    for n in range(events):
        if n % 2:
            changes = [journal.Edit("kris.toml", "xp", xp, xp + 2)]
            result: dict[str, object] = {"target": 4, "guess": 3, "distance": 1,
                                         "trait": "Repair", "score": 3, "success": True,
                                         "critical": False, "xp": 2, "xp_total": xp + 2}
            event = journal.new("clock resolve", changes, who="Kris", file="kris.toml",
                                result=result)
            xp += 2
        else:
            # Sue keeps a white and draws red, or fails on yellow and spends a white (W4, W5):
            # what the rules give, since check re-plays every draw.
            step = 1 if held < 5 else -1
            changes = [journal.Edit("sue.toml", "luck.white", held, held + step),
                       journal.Edit("bag.toml", "reserve.white", 10 - held, 10 - held - step)]
            result = {"color": "red", "draws": ["white", "red"] if step > 0 else ["yellow"],
                      "success": True, "cancelled": False, "white_spent": step < 0,
                      "luck": {"white": held + step, "black": 0},
                      "bag": {"red": 1, "yellow": 1, "blue": 1, "white": 1, "black": 1}}
            event = journal.new("bag draw", changes, who="Sue", file="sue.toml",
                                bag="bag.toml", result=result)
            held += step
        when = f"2099-01-{1 + n // 86400:02d}T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:" \
               f"{n % 60:02d}.{n % 1000:03d}Z"  # after the files were made
        lines.append(journal.encode(event._replace(at=when)))
    with open(folder / "journal.jsonl", "ab") as file:
        file.write(b"".join(lines))
    subprocess.run([cwx, "reconcile", str(folder)], check=True, stdout=subprocess.DEVNULL)
    return folder


MEASURE_MEMORY = """\
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def _pair(cwx: str, folder: Path, second: list[str]) -> list[str]:
    """A failed draw that keeps a white, then `second`, which spends it: a shell line."""
    import shlex

    first = [cwx, "bag", "draw", "--char", "sue.toml", "--bag", "bag.toml", "--color", "red",
             "--drawn", "white", "--drawn", "blue", "--keep-white"]
    line = f"cd {shlex.quote(str(folder))} && {shlex.join(first)} && {shlex.join([cwx, *second])}"
    return ["sh", "-c", line]


def peak_memory_mb(command: list[str]) -> float:
    """The largest resident size of one run, as the kernel counted it. Measured from a
    small parent: a child forked from this one would count its copy of our memory."""
    done = subprocess.run([sys.executable, "-c", MEASURE_MEMORY, *command], check=True,
                          capture_output=True, text=True)
    return int(done.stdout) / 1024


def instructions(command: list[str], cwd: Path) -> int | None:
    """The instructions one run executes, as callgrind counts them (None without valgrind):
    unlike wall time, the same on a busy machine as on an idle one."""
    if shutil.which("valgrind") is None:
        return None
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(["valgrind", "--tool=callgrind",
                               f"--callgrind-out-file={scratch}/callgrind.out", *command],
                              cwd=cwd, env={**os.environ, "PYTHONHASHSEED": "0"},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = [line for line in done.stderr.splitlines() if "Collected :" in line]
    return int(found[-1].split()[-1]) if done.returncode == 0 and found else None


def _scene(folder: Path) -> Path:
    """A scene script of 100 actions (50 resolves, 50 draws) in a campaign of its own."""
    shutil.copytree(ROOT / "examples", folder)
    (folder / "campaign.toml").write_text('[campaign]\nbag = "bag.toml"\n')
    lines = []
    for _ in range(50):
        lines += [f"resolve -T 4 -g 3 -t Repair -c {folder / 'kris.toml'}",
                  f"draw -c {folder / 'sue.toml'} -b {folder / 'bag.toml'} -C red --drawn red"]
    script = folder / "scene.cwx"
    script.write_text("\n".join(lines) + "\n")
    return script


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
        ledger = ledger_campaign(Path(scratch) / "ledger", LEDGER_EVENTS)
        reader = Path(scratch) / "read_every_line.py"
        reader.write_text(READ_EVERY_LINE)
        resolve = ["clock", "resolve", "--target", "4", "--guess", "3", "--trait", "Repair",
                   "--char"]
        scene = _scene(Path(scratch) / "scene")
        thousand = Path(scratch) / "bag1000.toml"
        thousand.write_text("[bag]\nred = 1\nyellow = 1\nblue = 1\nwhite = 1\nblack = 1\n"
                            "[reserve]\nwhite = 1000\nblack = 1000\n")
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
            "odds wheel, keep both, reserve 1,000 each": [
                cwx, "odds", "wheel", "--color", "purple", "--keep-white", "--keep-black",
                "--bag", str(thousand)],
            "a 100-action scene (cwx play)": [cwx, "play", str(scene)],
            "dice: roll 1d12": dice_roll(),
            "json.loads every line, 100,000 events": [sys.executable, str(reader),
                                                      str(ledger / "journal.jsonl")],
            "log --last 10, 100,000 events": [cwx, "log", "--char", str(ledger / "kris.toml"),
                                              "--last", "10"],
            "check, 100,000 events": [cwx, "check", str(ledger)],
            # luck spend reads the journal (from its end): it is measured as the second of
            # two commands, against a draw in its place, each pair leaving the dice as found.
            "keep a white, then luck spend, 10,000 events": _pair(
                cwx, long_kris.parent, ["luck", "spend", "--char", "sue.toml", "--bag",
                                        "bag.toml"]),
            "keep a white, then a draw that spends it, 10,000 events": _pair(
                cwx, long_kris.parent, ["bag", "draw", "--char", "sue.toml", "--bag",
                                        "bag.toml", "--color", "red", "--drawn", "blue",
                                        "--spend-white"]),
        }
        times = measure(commands)
        # Each stateful run plays in a copy of its own, so every count starts from one state.
        counted = {name: instructions(commands[name], Path(scratch)) for name in
                   ("reference: a Typer hello-world", "stateless resolve")}
        for name in ("stateful resolve", "stateful bag draw"):
            shutil.copytree(ROOT / "examples", Path(scratch) / name)
            command = [cwx, *resolve, "kris.toml"] if name == "stateful resolve" else \
                [cwx, "bag", "draw", "-c", "sue.toml", "-b", "bag.toml", "-C", "red", "--drawn", "red"]
            counted[name] = instructions(command, Path(scratch) / name)
        memory = {name: peak_memory_mb(commands[name])
                  for name in ("log --last 10, 100,000 events", "check, 100,000 events")}
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
        ("a 100-action scene (cwx play) <= 1 s", median["a 100-action scene (cwx play)"], 1.0),
        ("a 100-action scene <= 3x a stateful resolve",
         ratio("a 100-action scene (cwx play)", "stateful resolve"), 3.0),
        ("odds wheel keeping both from a reserve of 1,000 each <= 2x stateless",
         ratio("odds wheel, keep both, reserve 1,000 each", "stateless resolve"), 2.0),
        ("odds clock --all < 2x stateless",
         ratio("odds clock --all", "stateless resolve"), 2.0),
        ("log --last 10 beside 100,000 events <= 1.5x reading them with json",
         ratio("log --last 10, 100,000 events", "json.loads every line, 100,000 events"), 1.5),
        # (draw + spend) <= 1.25 (draw + draw) is spend <= 1.5 draw (SPEC section 3).
        ("luck spend beside 10,000 events <= 1.5x a draw",
         ratio("keep a white, then luck spend, 10,000 events",
               "keep a white, then a draw that spends it, 10,000 events") * 2 - 1, 1.5),
        ("check of 100,000 events <= 2.5x reading them with json",
         ratio("check, 100,000 events", "json.loads every line, 100,000 events"), 2.5),
        *[(f"{name}: peak memory (MB) <= {MEMORY_LIMIT_MB}", mb, MEMORY_LIMIT_MB)
          for name, mb in memory.items()],
    ]
    hello = counted.pop("reference: a Typer hello-world")
    if hello is not None:
        print(f"\n{'instructions (callgrind)':42} {hello / 1e6:8.1f}M  a Typer hello-world")
        for name, count in counted.items():
            assert count is not None
            print(f"{name:42} {count / 1e6:8.1f}M {count / hello:7.2f}x")
        budgets += [(f"{name} <= 1.15x a Typer hello-world's instructions", count / hello, 1.15)
                    for name, count in counted.items() if count is not None and
                    name != "stateless resolve"]
    else:
        print("\n(no valgrind: the instruction counts are left out)")
    print()
    failed = 0
    for name, ratio, limit in budgets:
        ok = ratio <= limit
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {ratio:.2f} (limit {limit})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
