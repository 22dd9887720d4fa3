"""The lazy command groups, the way a command line is run, help, and completion
(cli/lazy.py, cli/completion.py); what they assume of Typer and Click is pinned in
tests/test_toolkit.py."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Annotated

import pytest
import typer
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cwx.base.errors import Usage
from cwx.cli import app as app_module
from cwx.cli import completion, lazy, toolkit
from cwx.cli.completion import bash_quoted
from cwx.cli.lazy import invoke, lazy_root
from tests.helpers import cwx


def test_a_typer_group_is_asked_for_its_commands_by_name() -> None:
    assert callable(toolkit.TyperGroup.list_commands) and \
        callable(toolkit.TyperGroup.get_command)
    root = lazy_root(app_module.COMMANDS)
    group = root(name="cwx")
    assert {"log", "char", "check", "clock"} <= set(group.list_commands(None))
    assert group.get_command(None, "nope") is None
    assert group.get_command(None, "log").name == "log"
    char = group.get_command(None, "char")
    assert char.list_commands(None) == ["new", "show"]
    assert char.get_command(None, "show").name == "show"


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


def test_a_command_module_is_one_command_or_a_group_with_help() -> None:
    for name in lazy.commands(app_module.COMMANDS):
        module = __import__(f"{app_module.COMMANDS}.{name}", fromlist=["app"])
        assert lazy.single(module.app, name) or module.app.info.help, name


def test_a_command_imports_only_its_own_module() -> None:
    script = ("import json, sys\nfrom cwx.cli.main import run\nrun(['clock', 'pick'])\n"
              "print(json.dumps(sorted(m for m in sys.modules if m.startswith('cwx.commands.'))),"
              " file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    loaded = set(json.loads(done.stderr.splitlines()[-1]))
    assert "cwx.commands.clock" in loaded
    assert not loaded & {f"cwx.commands.{name}" for name in lazy.commands(app_module.COMMANDS)
                         if name != "clock"}


def test_a_group_without_a_command_prints_its_help_once() -> None:
    for args in ([], ["char"], ["clock"]):
        ran = cwx(*args)
        assert ran.status == (2 if not args else 0)  # `cwx` alone names no command
        assert ran.stdout.count("Usage: cwx") == 1, args
    plain = subprocess.run([sys.executable, "-m", "cwx", "char"], capture_output=True,
                           text=True, env={"TYPER_USE_RICH": "0", "PATH": "/usr/bin:/bin"})
    assert plain.returncode == 0 and plain.stdout.count("Usage: cwx char") == 1


# ---------------------------------------------------------------- help and pipes


def _file_command() -> toolkit.Command:
    demo = typer.Typer(add_completion=False)

    @demo.command()
    def hello(file: Annotated[str, typer.Argument(metavar="FILE", help="A file.")]) -> None:
        """Say hello."""

    return toolkit.build(demo)


def test_an_argument_is_named_by_its_metavar_in_brackets_when_optional() -> None:
    show = lazy_root(app_module.COMMANDS)(name="cwx").get_command(None, "bag") \
        .get_command(None, "show")
    new = lazy_root(app_module.COMMANDS)(name="cwx").get_command(None, "bag") \
        .get_command(None, "new")
    for command, usage in ((new, "FILE"), (show, "[FILE]")):
        (file,) = [param for param in command.params if isinstance(param, toolkit.TyperArgument)]
        assert file.make_metavar(None) == usage
        with command.make_context(command.name, ["x"]) as ctx:
            assert f"[OPTIONS] {usage}" in command.get_usage(ctx)


def test_typer_draws_help_with_rich_only_while_a_command_has_a_markup_mode(
        capsys: pytest.CaptureFixture[str]) -> None:
    command = _file_command()
    command.rich_markup_mode = None
    with command.make_context("hello", ["x"]) as ctx:
        plain = ctx.get_help()
    assert plain.startswith("Usage: hello [OPTIONS] FILE") and "╭" not in plain
    command.rich_markup_mode = "rich"
    with command.make_context("hello", ["x"]) as ctx:
        assert not ctx.get_help().strip()  # rich prints it itself
    assert "╭" in capsys.readouterr().out


_SEEN: list[str] = []


def _seen(value: str) -> None:
    _SEEN.append(value)


def test_click_calls_an_options_callback_for_its_default_too() -> None:
    # --paint is read through its callback, so every command line sets it afresh.
    _SEEN.clear()
    demo = typer.Typer()

    @demo.callback(invoke_without_command=True)
    def root(paint: Annotated[str, typer.Option(callback=_seen)] = "auto") -> None:
        """Root."""

    assert invoke(demo, []) == 0 and _SEEN == ["auto"]
    assert invoke(demo, ["--paint", "never"]) == 0 and _SEEN == ["auto", "never"]


# ---------------------------------------------------------------- shell completion


def _demo_app() -> typer.Typer:
    """A command with one option whose completion offers two names."""
    demo = typer.Typer(add_completion=False)

    @demo.command()
    def hello(trait: Annotated[str, typer.Option(
            autocompletion=lambda: ["Repair", "run"])] = "") -> None:
        """Say hello."""

    return demo


def _demo() -> toolkit.Command:
    return toolkit.build(_demo_app())


def test_a_lazily_built_command_matches_the_word_in_any_case() -> None:
    resolve = lazy_root(app_module.COMMANDS)(name="cwx").get_command(None, "char") \
        .get_command(None, "new")
    (system,) = [param for param in resolve.params if param.name == "system"]
    assert [item.value for item in system.shell_complete(None, "CL")] == ["clockworx"]
    assert [item.value for item in system.shell_complete(None, "")] == [
        "clockworx", "colorwheel"]


def test_bash_is_asked_with_the_words_joined_by_the_scripts_ifs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Bash reads each word as typed from COMP_WORDS, which the script joins with its IFS.
    script = completion.script("bash")
    assert "local IFS=$'\\n'" in script and 'COMP_WORDS="${COMP_WORDS[*]}"' in script
    monkeypatch.setenv("COMP_WORDS", "cwx\n--trait\n'Re")
    monkeypatch.setenv("COMP_CWORD", "2")
    asked = completion.Bash(_demo(), {}, "cwx", completion.COMPLETE)
    assert asked.get_completion_args() == (["--trait"], "Re") and asked.quote == "'"


def test_zsh_is_offered_candidates_through_describe(
        monkeypatch: pytest.MonkeyPatch) -> None:
    command = lazy._built(_demo_app(), "hello")
    describe = (f"local -a offered=('Repair' 'run')\n"
                f"_describe -t values value offered -M '{completion._ANY_CASE}'")
    monkeypatch.setenv(completion.ARGS, "cwx --trait ")
    assert completion.Zsh(command, {}, "cwx", completion.COMPLETE).complete() == describe
    monkeypatch.setenv(completion.ARGS, "cwx --trait R")
    assert completion.Zsh(command, {}, "cwx", completion.COMPLETE).complete() == describe
    # After `--trait=`, zsh is told to keep that part of the word and complete the rest.
    monkeypatch.setenv(completion.ARGS, "cwx --trait=R")
    assert completion.Zsh(command, {}, "cwx", completion.COMPLETE).complete() == (
        f"compset -P 1 '*='\n{describe}")
    # Nothing matches: nothing, since a trait is never a file of the folder.
    monkeypatch.setenv(completion.ARGS, "cwx --trait x")
    assert completion.Zsh(command, {}, "cwx", completion.COMPLETE).complete() == ""


def test_an_unclosed_quote_is_the_word_being_typed() -> None:
    assert completion.words_of("cwx --trait 'Knife Fi") == (
        ["cwx", "--trait", "Knife Fi"], "'", 12)
    assert completion.words_of('cwx -t "a b" c\\ d ') == (["cwx", "-t", "a b", "c d"], "", None)
    assert completion.read_line("cwx -t ''") == (["-t"], "")


def test_each_shell_reads_its_own_quoting_back() -> None:
    # fish keeps \' and \\ inside '…'; PowerShell escapes with a backtick and doubles a
    # quote inside its quotes; POSIX shells keep everything inside '…'.
    assert completion.words_of("cwx -c 'O\\'Brien' x", completion.FISH)[0] == [
        "cwx", "-c", "O'Brien", "x"]
    assert completion.words_of("cwx -c 'O''Brien' Knife` F", completion.POWERSHELL)[0] == [
        "cwx", "-c", "O'Brien", "Knife F"]
    assert completion.words_of("cwx -c 'a\\' b")[0] == ["cwx", "-c", "a\\", "b"]
    assert completion.words_of('cwx "a\\"b" "c\\d"')[0] == ["cwx", 'a"b', "c\\d"]


def test_bash_words_split_at_a_break_are_joined_back() -> None:
    # `--char=kris -t Re` arrives in COMP_WORDS as --char, =, kris, -t, Re.
    assert completion.glued(["cwx", "--char", "=", "kris", "-t", "Re"]) == [
        ["cwx"], ["--char", "=", "kris"], ["-t"], ["Re"]]
    # With the line, a break with a space beside it is a word of its own.
    assert completion.glued(["cwx", "a", ":", "b", ""], "cwx a : b ") == [
        ["cwx"], ["a"], [":"], ["b"], [""]]
    assert completion.glued(["cwx", "-t", "Sword", ":", ""], "cwx -t Sword:") == [
        ["cwx"], ["-t"], ["Sword", ":", ""]]
    # The cursor inside a word: the word as far as the cursor.
    assert completion.glued(["cwx", "-c", "krXX"], "cwx -c kr") == [["cwx"], ["-c"], ["kr"]]


# Names as a player might write them: any printable text, quotes and dollars included.
_NAMES = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=12)


@given(st.lists(_NAMES, min_size=1, max_size=8))
@settings(max_examples=30)
@example(["Ex!", "Hh!!", "Bang!x", "it's", 'say "hi"!', "$HOME`", "x'", 'y"', "z\\"])
def test_a_quoted_candidate_reads_back_in_bash_as_one_word(names: list[str]) -> None:
    # Unquoted, and after a quote the player opened, which readline closes unless the
    # candidate ends in it already.
    said = [(quote, bash_quoted(name, quote)) for name in names for quote in ("", '"', "'")]
    lines = [f"printf '<%s>' {quote}{text}{'' if quote and text.endswith(quote) else quote}"
             for quote, text in said]
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", "\n".join(lines)],
                          capture_output=True, text=True, check=True)
    assert done.stdout == "".join(f"<{name}>" * 3 for name in names)


def test_a_mistyped_command_suggests_the_nearest_at_every_level() -> None:
    from tests.helpers import cwx

    ran = cwx("chek")
    assert ran.status == 2 and "did you mean 'check'" in ran.error
    ran = cwx("char", "shwo")
    assert ran.status == 2 and "did you mean 'show'" in ran.error
    assert "did you mean" not in cwx("zzzzzz").error  # nothing near: nothing suggested
    assert "did you mean 'clock resolve'" in cwx("resolve").error  # as cwx play takes it
    # An option's suggestion reads as a command's does, in the one line.
    assert cwx("--hlep").error == (
        "cwx: error: No such option '--hlep' (did you mean '--help'?); see 'cwx --help'")
