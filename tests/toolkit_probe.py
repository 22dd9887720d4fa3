"""What cwx needs of Typer and Click, tried one by one against whatever Typer this Python
has: run by tests/test_toolkit.py in a venv of the newest Typer (`python
tests/toolkit_probe.py CAMPAIGN`). Prints, as JSON, each check that failed and why."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import traceback
from collections.abc import Callable

CAMPAIGN = sys.argv[1] if len(sys.argv) > 1 else "."
CHECKS: dict[str, Callable[[], None]] = {}


def check(function: Callable[[], None]) -> Callable[[], None]:
    CHECKS[function.__name__.replace("_", " ")] = function
    return function


def cwx(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cwx", *args], capture_output=True, text=True,
                          cwd=CAMPAIGN, env={**os.environ, **(env or {})}, timeout=60)


def ran(done: subprocess.CompletedProcess[str], status: int = 0) -> None:
    said = (done.stderr or done.stdout).strip().splitlines()
    assert done.returncode == status, f"exit {done.returncode}: {said[-1] if said else ''}"


@check
def the_toolkit_imports() -> None:
    from cwx.cli import toolkit

    assert issubclass(toolkit.NoArgsIsHelpError, toolkit.UsageError)
    assert issubclass(toolkit.UsageError, toolkit.ClickException)


@check
def every_command_builds() -> None:
    from cwx.cli import app, lazy

    root = lazy.lazy_root(app.COMMANDS)(name="cwx")
    for name in root.list_commands(None):
        found = root.get_command(None, name)
        for sub in found.list_commands(None) if hasattr(found, "list_commands") else []:
            assert found.get_command(None, sub) is not None, f"{name} {sub}"


@check
def help_is_shown() -> None:
    done = cwx("clock", "resolve", "--help", env={"TYPER_USE_RICH": "0"})
    ran(done)
    assert "--target" in done.stdout and "Usage: cwx clock resolve" in done.stdout, done.stdout


@check
def a_stateless_command_runs() -> None:
    done = cwx("clock", "resolve", "--target", "4", "--guess", "3", "--score", "3", "--json")
    ran(done)
    assert json.loads(done.stdout)["success"] is True, done.stdout


@check
def a_stateful_command_runs() -> None:
    done = cwx("clock", "resolve", "--target", "4", "--guess", "3", "--trait", "Repair",
               "--char", "kris.toml", "--json")
    ran(done)
    assert json.loads(done.stdout)["xp"] == 2, done.stdout


@check
def a_usage_error_is_one_line() -> None:
    done = cwx("clock", "resolve", "--target", "x")
    ran(done, 2)
    assert done.stderr.startswith("cwx: error: ") and done.stderr.count("\n") == 1, done.stderr


@check
def a_mistyped_command_is_suggested() -> None:
    done = cwx("chek")
    ran(done, 2)
    assert "did you mean 'check'" in done.stderr, done.stderr


@check
def a_group_alone_shows_its_help() -> None:
    done = cwx("char", env={"TYPER_USE_RICH": "0"})
    ran(done)
    assert done.stdout.count("Usage: cwx char") == 1, done.stdout


@check
def names_complete_in_any_case() -> None:
    done = cwx(env={"_CWX_COMPLETE": "bash_complete", "COMP_WORDS": "cwx\nchar\nnew\n--system\nCL",
                    "COMP_CWORD": "4"})
    ran(done)
    assert done.stdout.split() == ["clockworx"], done.stdout


@check
def a_shell_script_is_made() -> None:
    done = cwx("--show-completion", "fish")
    ran(done)
    assert "_CWX_COMPLETE=fish_complete" in done.stdout, done.stdout


def main() -> None:
    failed: dict[str, str] = {}
    for name, function in CHECKS.items():
        try:
            function()
        except Exception as error:  # each check says its own failure, and the rest go on
            where = traceback.extract_tb(error.__traceback__)[-1]
            failed[name] = (f"{type(error).__name__}: {error} "
                            f"({os.path.basename(where.filename)}:{where.lineno})")
    print(json.dumps(failed))


if __name__ == "__main__":
    main()
