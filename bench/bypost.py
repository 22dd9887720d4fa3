"""python bench/bypost.py [ROUNDS]: what play by post costs, in git processes and CPU.

A bare origin, the GM's clone and Alice's, each set up as the README says (hooks and
merge driver installed), then ROUNDS rounds (default 4) of a sealed guess by post: the
GM seals and syncs; Alice syncs, guesses and syncs; the GM syncs, reveals and syncs;
Alice syncs and checks. Every step is a real `cwx` process. Each kind of step is
reported with the git processes it started (counted from GIT_TRACE, where each git
that runs one of its commands says so once, the hooks' git too: a `git` put first on
PATH would miss theirs, as git puts its own folder first for a hook) and its CPU
seconds (its own and its children's, in a second run without the trace).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

CWX = str(Path(sys.executable).parent / "cwx")
STEPS = (("GM", "gm", ["clock", "pick", "--seal"]), ("GM", "gm", ["sync"]),
         ("Alice", "alice", ["sync"]),
         ("Alice", "alice", ["clock", "resolve", "--sealed", "-g", "5", "-t", "Repair",
                             "-c", "kris"]),
         ("Alice", "alice", ["sync"]), ("GM", "gm", ["sync"]),
         ("GM", "gm", ["clock", "reveal"]), ("GM", "gm", ["sync"]),
         ("Alice", "alice", ["sync"]), ("Alice", "alice", ["check"]))


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def play(folder: Path, rounds: int, counting: bool) -> tuple[Counter[str], dict[str, float]]:
    """The table played in `folder`: git processes and CPU seconds by kind of step."""
    env = {**os.environ, "HOME": str(folder), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "P", "GIT_AUTHOR_EMAIL": "p@table",
           "GIT_COMMITTER_NAME": "P", "GIT_COMMITTER_EMAIL": "p@table"}
    log = folder / "git.log"
    if counting:
        env["GIT_TRACE"] = str(log)

    def run(who: str, where: str, *args: str) -> None:
        subprocess.run([CWX, *args], cwd=folder / where, env={**env, "CWX_PLAYER": who},
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=folder, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    git("init", "--quiet", "--bare", "-b", "main", "origin.git")
    git("clone", "--quiet", "origin.git", "gm")
    run("GM", "gm", "init", ".")
    run("GM", "gm", "char", "new", "kris.toml", "--system", "clockworx", "--trait",
        "Repair=4", "--trait", "Run=3", "--trait", "Lie=5")
    run("GM", "gm", "sync")
    git("clone", "--quiet", "origin.git", "alice")
    run("Alice", "alice", "git", "setup")
    processes: Counter[str] = Counter()
    seconds: dict[str, float] = defaultdict(float)
    for _ in range(rounds):
        for who, where, args in STEPS:
            kind = " ".join(args[:2] if args[0] == "clock" else args[:1])
            log.write_text("")
            before = _children_cpu()
            run(who, where, *args)
            seconds[kind] += _children_cpu() - before
            processes[kind] += sum("trace: built-in: git" in line for line in
                                   log.read_text(errors="replace").splitlines()) \
                if counting else 0
    return processes, seconds


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    with tempfile.TemporaryDirectory() as counted, tempfile.TemporaryDirectory() as timed:
        processes, _ = play(Path(counted), rounds, counting=True)
        _, seconds = play(Path(timed), rounds, counting=False)
    runs = Counter(" ".join(a[:2] if a[0] == "clock" else a[:1]) for _, _, a in STEPS)
    print(f"cwx by post: {rounds} rounds of a sealed guess, GM and Alice (hooks installed)")
    print(f"{'step':<16}{'runs':>6}{'git processes/run':>20}{'CPU ms/run':>13}")
    for kind, count in runs.items():
        total = count * rounds
        print(f"{kind:<16}{total:>6}{processes[kind] / total:>20.1f}"
              f"{1000 * seconds[kind] / total:>13.0f}")
    print(f"{'all':<16}{sum(runs.values()) * rounds:>6}{sum(processes.values()):>20}"
          f"{1000 * sum(seconds.values()):>13.0f}  (totals)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
