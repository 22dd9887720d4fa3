"""What proving the journal's history costs (docs/rules.md, "The journal only grows").

A campaign whose git history holds COMMITS commits, each adding one turn to a journal
that starts with BASE lines, built with `git fast-import`. `python bench/history.py`
prints `cwx check`'s CPU time on it cold (nothing proven yet), warm (every commit proven
and kept in .git/cwx/), and after one more commit; and the same without git, for what
check costs besides.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMITS = int(os.environ.get("COMMITS", "1000"))
BASE = int(os.environ.get("BASE", "1000"))
ENV = {**os.environ, "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@bench",
       "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@bench",
       "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def _cwx(folder: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "cwx", *args], cwd=folder, env=ENV,
                          capture_output=True)


def _line(n: int) -> bytes:
    """A turn that gives nothing (the journal's cost is its history's, not its sums)."""
    return (f'{{"v":2,"id":"{n:016x}","at":"2026-01-01T00:00:00.{n % 1000:03d}Z",'
            f'"command":"clock pick","who":null,"file":null,"bag":null,'
            f'"result":{{"target":{n % 10 + 1}}},"changes":[],"player":"Bench"}}\n').encode()


def build(folder: Path) -> None:
    """The campaign (cwx init, one character) and COMMITS commits of one turn each."""
    subprocess.run(["git", "init", "--quiet", "--initial-branch=main", str(folder)],
                   env=ENV, check=True)
    assert _cwx(folder, "init", ".").returncode == 0
    assert _cwx(folder, "char", "new", "kris.toml", "--system", "clockworx", "--name",
                "Kris", "--trait", "Repair=3", "--trait", "Run=2",
                "--trait", "Tough=5").returncode == 0
    subprocess.run(["git", "add", "-A"], cwd=folder, env=ENV, check=True)
    subprocess.run(["git", "commit", "--quiet", "--no-verify", "-m", "begin"], cwd=folder,
                   env=ENV, check=True)
    journal = (folder / "journal.jsonl").read_bytes() + b"".join(map(_line, range(BASE)))
    stream = bytearray()
    for n in range(COMMITS):
        journal += _line(BASE + n)
        stream += (f"commit refs/heads/main\ncommitter Bench <b@bench> {1767225600 + n} "
                   f"+0000\ndata 5\nturn\n").encode()
        if n == 0:
            stream += b"from refs/heads/main^0\n"
        stream += f"M 100644 inline journal.jsonl\ndata {len(journal)}\n".encode()
        stream += journal + b"\n"
    subprocess.run(["git", "fast-import", "--quiet", "--force"], cwd=folder, env=ENV,
                   input=bytes(stream), check=True)
    subprocess.run(["git", "reset", "--quiet", "--hard", "main"], cwd=folder, env=ENV,
                   check=True)


def timed(folder: Path) -> str:
    """`cwx check`'s CPU seconds (its own and git's: the machine's load leaves them be),
    and its wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = _cwx(folder, "check")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stdout + done.stderr
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return f"{cpu:6.2f} s CPU ({wall:.2f} s wall)"


def main() -> int:
    scratch = Path(tempfile.mkdtemp(prefix="cwx-history-"))
    try:
        folder = scratch / "camp"
        build(folder)
        cold, warm = timed(folder), timed(folder)
        with open(folder / "journal.jsonl", "ab") as file:
            file.write(_line(BASE + COMMITS))
        subprocess.run(["git", "commit", "--quiet", "--no-verify", "-am", "one more"],
                       cwd=folder, env=ENV, check=True)
        one_more = timed(folder)
        shutil.rmtree(folder / ".git")
        bare = timed(folder)
        print(f"{COMMITS} commits, journal of {BASE + COMMITS + 1} lines "
              f"({(folder / 'journal.jsonl').stat().st_size >> 10} KB):")
        print(f"  cwx check without git            {bare}")
        print(f"  cwx check, history cold          {cold}")
        print(f"  cwx check, history proven        {warm}")
        print(f"  cwx check, one commit since      {one_more}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
