"""cwx play (#20): a scene in one process. Each line runs as `cwx` alone would run it
(its own change, lock and journal line), so a scene leaves what the same lines leave run
one by one."""

from __future__ import annotations

import json
import os
import random
import shlex
import subprocess
import sys
from pathlib import Path

from tests.helpers import FULL, cwx, journal, saga
from tests.test_git import RICK


def _table(folder: Path) -> Path:
    saga(folder, kris="kris.toml")
    assert cwx("char", "new", folder / "rick.toml", "--system", "colorwheel", "--name",
               "Rick", *RICK).status == 0
    return folder


def _random_scene(rng: random.Random, actions: int) -> list[str]:
    """Actions over both systems, each one a command line a table could type."""
    lines = ["# a random scene", ""]
    for _ in range(actions):
        roll = rng.random()
        if roll < 0.4:
            trait = rng.choice(["Scrounge", "repair", "TOUGH", None])
            lines.append(f"resolve -T {rng.randint(1, 12)} -g {rng.randint(1, 12)} -c kris" +
                         (f" -t {trait}" if trait else ""))
        elif roll < 0.85:
            who = rng.choice(["sue", "rick"])
            colour = rng.choice(["red", "yellow", "blue", "orange", "green", "purple"])
            dice = rng.choice([["red"], ["blue"], ["yellow"], ["white"], ["black"],
                               ["white", "green"], ["black", "red"]])
            keep = " --keep-white --keep-black" if len(dice) > 1 else ""
            lines.append(f"draw -c {who} -C {colour}" + "".join(f" --drawn {d}" for d in dice)
                         + keep)
        elif roll < 0.95:
            lines.append(rng.choice(["luck spend -c sue", "luck spend -c rick",
                                     "curse -c sue", "curse -c rick"]))
        else:
            lines.append("undo")
    return lines


def _state(folder: Path, since: int) -> tuple[dict[str, str], list[tuple[object, ...]]]:
    import re

    def plain(value: object) -> str:  # ids and times are each run's own
        text = json.dumps(value, sort_keys=True)
        return re.sub(r'"\d{4}-\d\d-\d\dT[\d:.]+Z"', '"AT"', re.sub(r'"[0-9a-f]{16}"', '"ID"', text))

    files = {p.name: p.read_text() for p in sorted(folder.glob("*.toml"))
             if p.name != "campaign.toml"}  # which names its folder
    events = [(e["command"], e["who"], e.get("undoes") is not None, plain(e["result"]),
               plain(e["changes"])) for e in journal(folder)[since:]]
    return files, events


# A scene's actions: 100 in make test hold every kind of line (resolves, draws, luck
# spent, curses, undos); make bench (CWX_TEST_FULL=1) plays 200.
ACTIONS = 200 if FULL else 100


def test_a_random_scene_leaves_what_its_lines_leave_run_one_by_one(tmp_path: Path) -> None:
    lines = _random_scene(random.Random(2026), ACTIONS)
    scene, alone = _table(tmp_path / "scene"), _table(tmp_path / "alone")
    made = len(journal(scene))  # the making of each table names its own folder
    (tmp_path / "scene.cwx").write_text("\n".join(lines) + "\n")
    played = cwx("play", tmp_path / "scene.cwx", "--keep-going", cwd=scene)
    outputs, statuses = [], []
    from cwx.cli.scene import shortcuts, words_of

    known = shortcuts()
    for line in lines:
        words = words_of(line, known)
        if words:
            ran = cwx(*words, cwd=alone)
            outputs.append(ran.stdout)
            statuses.append(ran.status)

    def timeless(text: str) -> str:  # an undo names its change's minute and id, a luck
        import re  # turn its draw's: each run's own

        text = re.sub(r"the draw [0-9a-f]{8} of", "the draw ID of", text)
        return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d( [+-]\d{4})?(, [0-9a-f]{8})?", "WHEN", text)

    assert timeless(played.stdout) == timeless("".join(outputs))
    assert played.status == (2 if any(s >= 2 for s in statuses) else 0)
    assert _state(scene, made) == _state(alone, made)
    assert len(journal(scene)) > ACTIONS * 3 // 4  # the scene was played, not refused


def test_a_scene_script_stops_at_its_first_failing_line_naming_it(tmp_path: Path) -> None:
    folder = _table(tmp_path / "camp")
    script = tmp_path / "scene.cwx"
    script.write_text("# Kris at the valve\n\nresolve -T 4 -g 3 -c kris -t repair\n"
                      "cwx resolve -T 4 -g 3 -c nobody\nresolve -T 4 -g 4 -c kris\n")
    ran = cwx("play", script, cwd=folder)
    assert ran.status == 2 and "scene.cwx:4: `cwx resolve -T 4 -g 3 -c nobody` failed" in \
        ran.stderr
    assert len([e for e in journal(folder) if e["command"] == "clock resolve"]) == 1
    going = cwx("play", script, "--keep-going", "--json", cwd=folder)
    assert going.status == 2
    objects = [json.loads(line) for line in going.stdout.splitlines()]
    assert [o["guess"] for o in objects] == [3, 4]  # one JSON object a line of output


def test_a_scene_from_standard_input_and_its_line_errors(tmp_path: Path) -> None:
    folder = _table(tmp_path / "camp")
    ran = cwx("play", "-", input="draw -c sue -C blue --drawn blue\nshow 'unclosed\n",
              cwd=folder)
    assert ran.status == 2 and "Sue draws for blue" in ran.stdout
    assert "-:2: cannot read the line" in ran.stderr
    assert cwx("play", "-", input="play x\n", cwd=folder).status == 2
    # a command's own name two groups use is no shortcut: the line says which it could be
    spent = cwx("play", "-", input="spend -c sue\n", cwd=folder)
    assert spent.status == 2
    assert "-:1: 'spend' is ambiguous: luck spend or xp spend" in spent.stderr


def test_the_prompt_plays_lines_until_ctrl_d_and_keeps_its_history_out_of_git(
        tmp_path: Path) -> None:
    import pty
    import select

    folder = _table(tmp_path / "camp")
    subprocess.run(["git", "init", "--quiet", str(folder)], check=True)
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "cwx", "play"], stdin=follower,
                               stdout=follower, stderr=follower, cwd=folder,
                               env={**os.environ, "TERM": "dumb"})
    os.close(follower)
    seen = b""

    def until(text: bytes, after: int = 0) -> None:
        nonlocal seen
        while text not in seen[after:]:
            ready, _, _ = select.select([leader], [], [], 30)
            assert ready, seen
            seen += os.read(leader, 4096)

    until(b"cwx> ")
    for line, said in ((b"resolve -T 4 -g 4 -c kris -t tough\n", b"xp."),
                       (b"resolve -c nobody -T 1 -g 1\n", b"no such file")):
        start = len(seen)
        os.write(leader, line)
        until(said, after=start)
        until(b"cwx> ", after=start)  # an error says its line, and the prompt comes back
    start = len(seen)
    os.write(leader, b"\x04")  # Ctrl-D leaves
    until(b"\n", after=start)
    process.wait(timeout=30)
    os.close(leader)
    assert process.returncode == 0
    history = (folder / ".git" / "cwx" / "history").read_text()
    assert "resolve -T 4 -g 4 -c kris -t tough" in history
    assert subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=folder,
                          capture_output=True, text=True).stdout.count("history") == 0


def test_a_scene_completes_as_the_shell_does(tmp_path: Path) -> None:
    from cwx.cli.scene import Completer
    from tests.test_completion import KNIFE

    folder = _table(tmp_path / "camp")
    here = os.getcwd()
    os.chdir(folder)
    try:
        complete = Completer()
        assert "draw" in complete.offered("dr", 0) and "bag" in complete.offered("", 0)
        assert complete.offered("draw -c sue -t ", 15) == sorted(
            ["Strong", "Clever", "Athletic", "Brave", "Healer", "Friendly"])
        assert complete.offered("resolve -c ", 11) == ["kris"]  # ClockWorx's, for resolve
        assert complete.offered("log -c ", 7) == ["kris", "rick", "sue"]
        assert complete.offered("cwx clock res", 10) == ["resolve"]
        # Quoted as a scene line reads them back: one word, whatever the name holds.
        (folder / "ana.toml").write_text(KNIFE)
        line = "resolve -c ana.toml -t "
        assert complete.offered(f"{line}kn", len(line)) == ["Knife\\ Fighting"]
        assert complete.offered(f"{line}lo", len(line)) == ["Lockpicker\\'s\\ Eye"]
        assert complete.offered(f'{line}"Kn', len(line)) == ['"Knife Fighting"']
        (folder / "cash.toml").write_text(KNIFE.replace("run = 2", '"Cash $HOME" = 2'))
        assert complete.offered('resolve -c cash.toml -t "Ca', 24) == ['"Cash $HOME"']
        assert complete.offered("char show ~/", 10) == []  # a scene line expands no ~
        (folder / "end.toml").write_text(KNIFE.replace("run = 2", "\"Quip'\" = 2"))
        (quip,) = complete.offered("resolve -c end.toml -t 'Qu", 23)
        assert shlex.split(f"resolve -c end.toml -t {quip}")[-1] == "Quip'"
        # readline's word begins after the escaped space; the rest of the name follows.
        assert complete.offered(f"{line}Knife\\ F", len(line) + 7) == ["Fighting"]
        line = "resolve -c ana.toml "
        assert complete.offered(f"{line}--trait=kn", len(line)) == ["--trait=Knife\\ Fighting"]
        # Files where a file is taken (and nothing where a trait is).
        assert complete.offered("check ana.t", 6) == ["ana.toml"]
        (folder / "scenes").mkdir()
        assert complete.offered("init s", 5) == ["scenes/"]  # a folder, where one is taken
        assert complete.offered("resolve -c ana.toml -t zz", 23) == []
    finally:
        os.chdir(here)


def test_a_scene_line_never_plays_a_scene_nor_reaches_outside_the_game(tmp_path: Path) -> None:
    folder = _table(tmp_path / "camp")
    for line, said in (("--paint never play scene.cwx\n", "`play` is the scene itself"),
                       ("bag new a\0b.toml\n", "NUL byte"),
                       ("--install-completion bash\n", "completion is installed from the shell")):
        ran = cwx("play", "-", input=line, cwd=folder, env={"HOME": str(tmp_path)})
        assert ran.status == 2 and said in ran.stderr, (line, ran.stderr)
    assert not (tmp_path / ".bashrc").exists()


def test_a_failed_scene_says_how_to_resume_and_from_skips_the_lines_that_played(
        tmp_path: Path) -> None:
    folder = _table(tmp_path / "camp")
    script = tmp_path / "scene.cwx"
    script.write_text("# Kris at the valve\nresolve -T 4 -g 3 -c kris -t repair\n"
                      "resolve -T 4 -g 3 -c nobody -t repair\nresolve -T 4 -g 3 -c kris -t repair\n")
    ran = cwx("play", script, cwd=folder)
    assert ran.status == 2
    assert f"resume with cwx play --from 3 {script}" in ran.stderr
    assert _xp(folder) == 2
    script.write_text(script.read_text().replace("nobody", "kris"))  # the line mended
    resumed = cwx("play", "--from", "3", script, cwd=folder)
    assert resumed.status == 0, resumed.stderr
    assert _xp(folder) == 3 * 2  # lines 3 and 4 only: the first line's 2 xp counted once
    assert len([e for e in journal(folder) if e["command"] == "clock resolve"]) == 3
    past = cwx("play", "--from", "9", script, cwd=folder)
    assert past.status == 2 and "--from 9: the script has 4 lines" in past.stderr
    piped = cwx("play", "--from", "2", "-", input="resolve -c nobody -T 1 -g 1\n"
                "resolve -T 4 -g 4 -c nobody\n", cwd=folder)
    assert piped.status == 2 and "-:2:" in piped.stderr and "--from 2 -" in piped.stderr


def _xp(folder: Path) -> int:
    import tomllib

    return int(tomllib.loads((folder / "kris.toml").read_text())["xp"])
