"""Run cwx the way people do: in-process for speed, or as a real process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from cwx.cli.main import run

ROOT = Path(__file__).resolve().parent.parent

# The random-play and kill tests at their full sizes (CWX_TEST_FULL=1, which `make bench`
# sets): make test runs them at sizes that keep it under 4 minutes, each still reaching
# every path it guards (each test says how).
FULL = os.environ.get("CWX_TEST_FULL") == "1"
EXAMPLES = ROOT / "examples"
# Sue's six traits, as `cwx char new --system colorwheel` takes them.
SUE = ["--trait", "red=Strong", "--trait", "yellow=Clever", "--trait", "blue=Athletic",
       "--trait", "orange=Brave", "--trait", "green=Healer", "--trait", "purple=Friendly"]
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


def cwx(*args: object, input: str | None = None, env: dict[str, str] | None = None,
        cwd: Path | None = None) -> Ran:
    """Run cwx in this process through its real entry point (errors and exit codes included).

    CWX_DEBUG is set so an internal error raises here instead of hiding as a message.
    """
    from cwx.campaign import players

    players._found.clear()  # what a process asks once a command: each run is a command
    here = os.getcwd()
    with _RUNNER.isolation(input=input, env={"CWX_DEBUG": "1", **(env or {})}) as (out, err, _):
        try:
            if cwd is not None:
                os.chdir(cwd)
            status = run([str(arg) for arg in args])
        finally:
            os.chdir(here)
        sys.stdout.flush()
        sys.stderr.flush()
        return Ran(status, out.getvalue().decode(), err.getvalue().decode())


def cpu_seconds() -> float:
    """CPU seconds spent by this process and the processes it has waited for: what a time
    bound in a test measures, since wall time stretches with the machine's other load."""
    import resource

    spent = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        used = resource.getrusage(who)
        spent += used.ru_utime + used.ru_stime
    return spent


def cwx_process(*args: object, cwd: Path | None = None, env: dict[str, str] | None = None,
                timeout: float = 60) -> Ran:
    """Run cwx as a separate process, exactly as a shell or makefile would."""
    done = subprocess.run(
        [sys.executable, "-m", "cwx", *map(str, args)],
        capture_output=True, text=True, cwd=cwd, timeout=timeout,
        env={**os.environ, **(env or {})},
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def saga(folder: Path, kris: str | None = None) -> Path:
    """A campaign made by `cwx init`, with Sue (Color Wheel) and, at `kris` (a path in
    it), Kris (ClockWorx); the campaign's bag is the default."""
    assert cwx("init", folder).status == 0
    assert cwx("char", "new", folder / "sue.toml", "--system", "colorwheel", "--name", "Sue",
               *SUE).status == 0
    if kris is not None:
        (folder / kris).parent.mkdir(parents=True, exist_ok=True)
        assert cwx("char", "new", folder / kris, "--system", "clockworx", "--name", "Kris",
                   "--trait", "Scrounge=3", "--trait", "Repair=3",
                   "--trait", "Tough=5").status == 0
    return folder


def journal(folder: Path) -> list[dict[str, Any]]:
    path = folder / "journal.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def start(*args: object, env: dict[str, str] | None = None,
          cwd: Path | None = None) -> subprocess.Popen[str]:
    """Start cwx as a separate process, to be waited for or killed."""
    return subprocess.Popen([sys.executable, "-m", "cwx", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})}, cwd=cwd)


def killed_at(checkpoint: str, flag: Path, *args: object, cwd: Path | None = None) -> None:
    """Run cwx until it reaches `checkpoint` (NAME or NAME#N) of its commit, and kill it there."""
    import signal
    import time

    from cwx.store import durable

    process = start(*args, env={durable.CHECKPOINT_HOOK: f"pause {checkpoint} {flag}"},
                    cwd=cwd)
    deadline = time.monotonic() + 60
    while not flag.exists():
        if process.poll() is not None:
            raise AssertionError(f"cwx ended before {checkpoint}: {process.communicate()}")
        assert time.monotonic() < deadline, f"cwx never reached {checkpoint}"
        time.sleep(0.005)
    process.send_signal(signal.SIGKILL)
    process.wait()
    flag.unlink()


def litter(folder: Path) -> list[str]:
    """What a killed command left in a folder: temporary files and redo records."""
    from cwx.store import redo

    return sorted(n for n in os.listdir(folder)
                  if n.endswith(redo.TEMP_SUFFIX) or n.startswith(redo.REDO_PREFIX))


def settle(folder: Path) -> None:
    """What every command that changes files does first: lock the folder and finish
    (or undo) what a killed command left."""
    from cwx.store import durable
    from cwx.store.locks import FolderLocks

    held = FolderLocks()
    try:
        durable.settle(held, [str(folder)], finish=True)
    finally:
        held.release()


def two_folders(campaign: Path) -> tuple[Path, Path, Path, Path]:
    """The example campaign split: the bag in a/, the characters (and so their journal)
    in z/, so that a change's redo records are written to a/ first, then z/."""
    import shutil

    a, z = campaign / "a", campaign / "z"
    a.mkdir()
    z.mkdir()
    for name in ("sue.toml", "kris.toml"):
        shutil.move(campaign / name, z / name)
    shutil.move(campaign / "bag.toml", a / "bag.toml")
    return a / "bag.toml", z / "sue.toml", z / "kris.toml", z


def on_a_terminal(*args: object, env: dict[str, str] | None = None,
                  cwd: Path | None = None) -> str:
    """What cwx prints to a terminal: a real process whose stdout is a pseudo-terminal."""
    import pty

    leader, follower = pty.openpty()
    inherited = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    process = subprocess.Popen([sys.executable, "-m", "cwx", *map(str, args)],
                               stdout=follower, stderr=subprocess.PIPE, cwd=cwd,
                               env={**inherited, "TERM": "xterm-256color", **(env or {})})
    os.close(follower)
    seen = _shown(leader)
    process.communicate(timeout=60)
    return seen.decode().replace("\r\n", "\n")


def _shown(leader: int) -> bytes:
    """All a pseudo-terminal showed until its process ended; the terminal is closed."""
    seen = b""
    try:
        while chunk := os.read(leader, 65536):
            seen += chunk
    except OSError:  # the terminal closes when the process ends (EIO on Linux)
        pass
    finally:
        os.close(leader)
    return seen


def valid_kind(path: Path) -> str | None:
    """A campaign file's kind ("character", "bag"), read and validated as cwx reads it;
    a CwxError naming what is wrong."""
    from cwx.campaign import files
    from cwx.systems import sheets

    raw = files.read_bytes(str(path))
    data = files.parse(raw, str(path))
    files.sheet_from(data, raw, str(path), None)
    return sheets.kind_of(data)


def later(at: str, seconds: float) -> str:
    """A journal stamp `seconds` later (earlier, if negative): what a clock that far off,
    or an event that much later, would have written."""
    import datetime

    moment = datetime.datetime.strptime(at, "%Y-%m-%dT%H:%M:%S.%fZ") + \
        datetime.timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def skewed(clone: Path, seconds: float, index: int = -1) -> None:
    """A journal line of `clone` (the last, by default) as a clock `seconds` off would have
    stamped it."""
    path = clone / "journal.jsonl"
    lines = path.read_text().splitlines()
    line = json.loads(lines[index])
    line["at"] = later(line["at"], seconds)
    lines[index] = json.dumps(line)
    path.write_text("\n".join(lines) + "\n")


def at_a_terminal(argv: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None,
                  stdout: Path | None = None, timeout: float = 60) -> tuple[int, str]:
    """Run `argv` as a person at a terminal would: standard error (and standard output,
    unless `stdout` names a file to send it to, as a pipe would) on a pseudo-terminal.
    Its exit status and what the terminal showed."""
    import pty

    leader, follower = pty.openpty()
    with open(stdout or os.devnull, "wb") as piped:
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                   stdout=follower if stdout is None else piped,
                                   stderr=follower, cwd=cwd,
                                   env={**os.environ, "TERM": "xterm-256color", **(env or {})})
        os.close(follower)
        seen = _shown(leader)
        status = process.wait(timeout=timeout)
    return status, seen.decode(errors="replace").replace("\r\n", "\n")


# Where `once` keeps its builds: a folder all the test processes of this session share
# (tests/conftest.py sets it).
KEPT: Path | None = None


def once(key: str, folder: Path, names: Sequence[str], build: Callable[[], object]) -> None:
    """Make `names` (folders) in `folder` as `build()` does, building them only the first
    time the session's test processes ask for `key` and copying that build afterwards.

    For a set-up many tests make alike, such as a bare origin and the clones of a table
    (`Table.start()` in tests/test_git.py): copying the folders costs a tenth of the git
    clones, commits and cwx commands that made them, and a build one worker made is
    another's too (the first to ask builds, under a lock the other waits on). A build is
    kept apart for each CWX_* and GIT_* environment it ran in, and each copy's clones
    fetch from the copy's own origin (the build's folder in .git/config is rewritten).
    Use it only for what a test starts from, never for what it checks:

        once("two players", tmp_path, ["origin.git", "ann", "ben"], lambda: made(tmp_path))
    """
    import fcntl
    import hashlib

    if KEPT is None:
        build()
        return
    env = sorted((k, v) for k, v in os.environ.items() if k.startswith(("CWX_", "GIT_")))
    kept = KEPT / hashlib.sha256(repr((key, env, list(names))).encode()).hexdigest()[:24]
    with open(f"{kept}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released as the file closes
        made_in = kept / "made in"
        if not made_in.exists():
            build()
            for name in names:
                shutil.copytree(folder / name, kept / name, symlinks=True)
            made_in.write_text(str(folder))  # last: a build that failed is built again
            return
    built = made_in.read_text()
    for name in names:
        if (folder / name).exists():
            shutil.rmtree(folder / name)
        shutil.copytree(kept / name, folder / name, symlinks=True)
        for config in (folder / name / ".git" / "config", folder / name / "config"):
            if config.is_file():
                text = config.read_text()
                config.write_text(text.replace(built, str(folder)))


def followed(folder: Path) -> None:
    """The sheets brought to a ledger that counts forged lines, as a commit that edits them
    with its lines brings them (`cwx reconcile` refuses to follow a line the rules do not
    give, by hand as after a merge)."""
    from unittest import mock

    from cwx.campaign import accounts

    with mock.patch.object(accounts, "_unruled", lambda camp: []):
        assert cwx("reconcile", folder).status == 0
