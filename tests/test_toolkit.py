"""The door to Typer and Click (cli/toolkit.py): what cwx assumes of them, pinned so an
upgrade that breaks an assumption fails here, not a player; nothing else in cwx goes
round it; and the newest Typer, in a venv of its own, still builds and runs cwx."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer

import cwx
from cwx.cli import toolkit
from cwx.cli.lazy import invoke
from tests.helpers import EXAMPLES

PACKAGE = Path(cwx.__file__).parent
ROOT = PACKAGE.parent

# The Typer cwx's commands and tests may use: its documented API. Anything else of Typer,
# and all of Click, is reached through the toolkit.
PUBLIC_TYPER = {"Typer", "Option", "Argument", "Exit", "Abort", "Context"}
INTERNALS = {"registered_commands", "registered_groups", "registered_callback", "info",
             "__context__"}


def _touches(path: Path) -> list[str]:
    """What a module touches of Typer and Click beyond Typer's documented API."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names
                      if alias.name.split(".")[0] == "click" or alias.name.startswith("typer.")]
        elif isinstance(node, ast.ImportFrom) and node.module and (
                node.module.split(".")[0] == "click" or node.module.startswith("typer")):
            found.append(node.module)
        elif isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "typer" and \
                    node.attr not in PUBLIC_TYPER:
                found.append(f"typer.{node.attr}")
            elif node.attr in INTERNALS and not (isinstance(node.value, ast.Name)
                                                 and node.value.id == "toolkit"):
                found.append(f".{node.attr}")
    return found


def test_only_the_toolkit_touches_typer_internals_or_click() -> None:
    touched = {str(path.relative_to(ROOT)): found for path in sorted(PACKAGE.rglob("*.py"))
               if path.name != "toolkit.py" and (found := _touches(path))}
    assert touched == {}


def test_the_fence_sees_a_touch() -> None:
    # The control: each kind of touch the fence looks for is found.
    assert _touches(ROOT / "cwx" / "cli" / "toolkit.py") >= [
        "click", "typer.core", "typer.main", ".registered_commands", ".__context__"]


def test_the_click_errors_lazy_catches_exist_in_the_order_it_catches_them() -> None:
    assert issubclass(toolkit.NoArgsIsHelpError, toolkit.UsageError)  # caught first
    assert issubclass(toolkit.UsageError, toolkit.ClickException)


def _demo() -> typer.Typer:
    demo = typer.Typer(help="Greetings.", add_completion=False)

    @demo.command("hello")
    def hello(trait: Annotated[str, typer.Option(
            autocompletion=lambda: ["Repair", "run"])] = "") -> None:
        """Say hello."""

    @demo.command("wave", hidden=True)
    def wave() -> None:
        """Wave."""

    return demo


def test_an_apps_commands_and_help_are_read_without_building_it() -> None:
    demo = _demo()
    assert toolkit.command_names(demo) == ["hello", "wave"]
    assert toolkit.shown_command_names(demo) == ["hello"]
    assert toolkit.help_of(demo) == "Greetings." and toolkit.help_of(typer.Typer()) is None
    assert not toolkit.has_groups(demo)
    demo.add_typer(typer.Typer(), name="more")
    assert toolkit.has_groups(demo)


def test_a_registered_command_builds_alone_under_its_own_name() -> None:
    built = toolkit.build_one(_demo(), "hello")
    assert not isinstance(built, toolkit.TyperGroup)  # one command, not a group
    assert [param.name for param in built.params] == ["trait"]
    assert isinstance(toolkit.build(_demo()), toolkit.TyperGroup)


def test_typer_offers_only_candidates_that_start_with_the_word_in_its_case() -> None:
    # Why lazy.py asks an option for the candidates of "" and matches them itself:
    # Typer's own filter is by exact case, and lets every candidate through a word of "".
    (trait,) = toolkit.build_one(_demo(), "hello").params
    assert [item.value for item in trait.shell_complete(None, "r")] == ["run"]
    assert [item.value for item in trait.shell_complete(None, "")] == ["Repair", "run"]


def test_a_parameter_completes_through_what_it_is_given() -> None:
    command = toolkit.build_one(_demo(), "hello")
    asked: list[tuple[Any, list[Any], str]] = []

    def offered(param: Any, found: list[Any], word: str) -> list[Any]:
        asked.append((param, found, word))
        return [item for item in found if str(item.value).casefold().startswith(word.casefold())]

    toolkit.complete_through(command, offered)
    (trait,) = command.params
    assert [item.value for item in trait.shell_complete(None, "r")] == ["Repair", "run"]
    assert [(param, [item.value for item in found], word) for param, found, word in asked] == [
        (trait, ["Repair", "run"], "r")]
    assert isinstance(trait, toolkit.TyperOption) and not toolkit.takes_file(trait)


def test_run_returns_the_status_and_raises_usage_errors() -> None:
    demo = typer.Typer()

    @demo.command()
    def hello(count: int) -> None:
        if count:
            raise typer.Exit(count)

    command = toolkit.build(demo)
    assert toolkit.run(command, ["0"], "cwx") in (0, None)
    assert toolkit.run(command, ["4"], "cwx") == 4
    with pytest.raises(toolkit.UsageError):
        toolkit.run(command, ["x"], "cwx")


def test_what_a_line_gives_is_read_without_running_it() -> None:
    # A scene checks every place a line names before it runs (cli/scene.py).
    ran: list[str] = []
    demo = typer.Typer()

    @demo.command("new")
    def new(file: Annotated[str, typer.Argument(metavar="FILE")],
            char: Annotated[str, typer.Option("--char", "-c", metavar="CHAR")] = "",
            trait: Annotated[list[str] | None, typer.Option("-t")] = None) -> None:
        ran.append(file)

    @demo.command("other")
    def other() -> None: ...

    group = toolkit.build(demo)
    assert toolkit.given(group, ["new", "-t", "a", "-c../x", "--", "-f.toml"], "cwx") == (
        "new", [("FILE", "-f.toml"), ("CHAR", "../x"), ("trait", ("a",))])
    assert toolkit.given(group, ["new", "--nope", "x"], "cwx")[0] == "new"  # no error raised
    assert toolkit.given(group, ["nothing"], "cwx") == ("", [])
    assert ran == []


def test_typer_turns_ctrl_c_into_exit_130_silently() -> None:
    # main.py says the interruption itself; it relies on this status.
    demo = typer.Typer()

    @demo.command()
    def hello() -> None:
        raise KeyboardInterrupt

    assert toolkit.run(toolkit.build(demo), [], "cwx") == 130


def test_a_reader_gone_is_a_broken_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    # Typer ends a broken pipe with exit 1 from inside its handler, and wraps sys.stdout
    # and sys.stderr as it does so: put them back afterwards.
    monkeypatch.setattr(sys, "stdout", sys.stdout)
    monkeypatch.setattr(sys, "stderr", sys.stderr)
    demo = typer.Typer()

    @demo.command()
    def hello() -> None:
        raise BrokenPipeError(32, "Broken pipe")

    with pytest.raises(SystemExit) as ended:
        toolkit.build(demo).main(args=[], standalone_mode=False)
    assert ended.value.code == 1 and isinstance(ended.value.__context__, BrokenPipeError)
    with pytest.raises(BrokenPipeError):  # cwx's main ends it quietly, with 0
        toolkit.run(toolkit.build(demo), [], "cwx")
    with pytest.raises(BrokenPipeError):
        invoke(demo, [])


def test_a_shells_script_names_its_function_variable_and_program() -> None:
    class Plain(toolkit.ShellComplete):
        name = "plain"
        source_template = "%(complete_func)s %(complete_var)s %(prog_name)s"

        def get_completion_args(self) -> tuple[list[str], str]:
            return [], ""

        def format_completion(self, item: Any) -> str:
            return str(item.value)

    said = Plain(toolkit.build(_demo()), {}, "cwx", "_CWX_COMPLETE").source()
    assert said == "_cwx_completion _CWX_COMPLETE cwx"


# ---------------------------------------------------------------- the newest Typer

PROBE = Path(__file__).with_name("toolkit_probe.py")
FRESH_FOR = 7 * 24 * 3600  # a week: then pip is asked for a newer Typer again


def _newest_typer(cache: Path) -> Path:
    """A venv of the newest Typer (and cwx's other needs), kept under pytest's cache and
    brought up to date weekly; the test is skipped when pip cannot reach the index."""
    python = cache / "bin" / "python"
    stamp = cache / "made"
    if python.exists() and stamp.exists() and time.time() - stamp.stat().st_mtime < FRESH_FOR:
        return python
    # This suite's pip installs into the venv (--python): a pip of its own would cost the
    # test some 5 s of CPU to install, on every clean checkout.
    ours = subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True,
                          text=True).returncode == 0
    if not python.exists():
        shutil.rmtree(cache, ignore_errors=True)
        venv.create(cache, with_pip=not ours)
    pip = [sys.executable, "-m", "pip", "--python", str(python)] if ours else \
        [str(python), "-m", "pip"]
    done = subprocess.run([*pip, "install", "--quiet", "--upgrade",
                           "--disable-pip-version-check", "typer", "tomlkit>=0.15.1,<0.16"],
                          capture_output=True, text=True, timeout=600)
    if done.returncode:
        said = (done.stderr.strip().splitlines() or ["?"])[-1]
        pytest.skip(f"the newest Typer could not be installed ({said})")
    stamp.touch()
    return python


@pytest.mark.network
def test_the_newest_typer_builds_and_runs_cwx(request: pytest.FixtureRequest,
                                              tmp_path: Path) -> None:
    cache = getattr(request.config, "cache", None)  # none without pytest's cache plugin
    python = _newest_typer(cache.mkdir("newest-typer") if cache else tmp_path / "venv")
    version = subprocess.run([str(python), "-c", "import typer; print(typer.__version__)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    shutil.copytree(EXAMPLES, tmp_path / "campaign")
    done = subprocess.run([str(python), str(PROBE), str(tmp_path / "campaign")],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    lacking = json.loads(done.stdout)
    # What the toolkit lacks for this Typer, check by check (tests/toolkit_probe.py).
    assert lacking == {}, f"Typer {version}: {json.dumps(lacking, indent=1)}"
