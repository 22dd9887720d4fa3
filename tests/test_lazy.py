"""What cli/lazy.py assumes of Typer's internals (its vendored Click is not a public API):
pinned here, so a Typer upgrade that breaks an assumption fails a test, not a player."""

from __future__ import annotations

import json
import subprocess
import sys

import typer
from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

from cwx.cli import app as app_module
from cwx.cli.lazy import invoke, lazy_root
from cwx.errors import Usage
from tests.helpers import cwx


def test_the_click_errors_lazy_catches_exist_in_the_order_it_catches_them() -> None:
    assert issubclass(NoArgsIsHelpError, UsageError)  # caught first, so it is not a usage error
    assert issubclass(UsageError, ClickException)


def test_a_typer_group_is_asked_for_its_commands_by_name() -> None:
    assert callable(TyperGroup.list_commands) and callable(TyperGroup.get_command)
    root = lazy_root({"log": "command", "char": "group"})
    group = root(name="cwx")
    assert group.list_commands(None) == ["log", "char"]
    assert group.get_command(None, "nope") is None
    assert group.get_command(None, "log").name == "log"
    char = group.get_command(None, "char")
    assert char.list_commands(None) == ["new", "show"]
    assert char.get_command(None, "show").name == "show"


def test_a_registered_command_builds_alone_under_its_own_name() -> None:
    demo = typer.Typer()

    @demo.command("hello")
    def hello() -> None:
        """Say hello."""

    (info,) = demo.registered_commands
    assert info.name == "hello"
    one = typer.Typer()
    one.registered_commands.append(info)
    built = typer.main.get_command(one)
    assert not isinstance(built, TyperGroup)  # one command builds a command, not a group


def test_invoke_returns_the_status_and_turns_usage_errors_into_cwx_errors() -> None:
    demo = typer.Typer()

    @demo.command()
    def hello(count: int) -> None:
        if count:
            raise typer.Exit(count)

    assert invoke(demo, ["0"]) == 0
    assert invoke(demo, ["4"]) == 4
    try:
        invoke(demo, ["x"])
    except Usage as error:
        assert "see 'cwx --help'" in str(error) and "\n" not in str(error)
    else:
        raise AssertionError("a usage error was not raised")


def test_typer_turns_ctrl_c_into_exit_130_silently() -> None:
    # main.py says the interruption itself; it relies on this status.
    demo = typer.Typer()

    @demo.command()
    def hello() -> None:
        raise KeyboardInterrupt

    assert invoke(demo, []) == 130


def test_every_command_module_is_the_shape_app_py_says() -> None:
    for name, shape in app_module.COMMANDS.items():
        module = __import__(f"cwx.cli.{name}", fromlist=["app"])
        single = len(module.app.registered_commands) == 1 and not module.app.info.help
        assert single == (shape == "command"), name


def test_a_command_imports_only_its_own_module() -> None:
    script = ("import json, sys\nfrom cwx.cli.main import run\nrun(['clock', 'pick'])\n"
              "print(json.dumps(sorted(m for m in sys.modules if m.startswith('cwx.cli.'))),"
              " file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    loaded = set(json.loads(done.stderr.splitlines()[-1]))
    assert "cwx.cli.clock" in loaded
    assert not loaded & {f"cwx.cli.{name}" for name in app_module.COMMANDS if name != "clock"}


def test_a_group_without_a_command_prints_its_help_once() -> None:
    for args in ([], ["char"], ["clock"]):
        ran = cwx(*args)
        assert ran.status == 0
        assert ran.stdout.count("Usage: cwx") == 1, args
    plain = subprocess.run([sys.executable, "-m", "cwx", "char"], capture_output=True,
                           text=True, env={"TYPER_USE_RICH": "0", "PATH": "/usr/bin:/bin"})
    assert plain.returncode == 0 and plain.stdout.count("Usage: cwx char") == 1
