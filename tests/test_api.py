"""docs/api.md: every example on the page runs as written, importing only what it
names, and the package says it is typed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cwx
from tests.helpers import cwx as run_cwx
from tests.helpers import journal

PAGE = Path(__file__).parent.parent / "docs" / "api.md"
RULES, CAMPAIGN = PAGE.read_text().split("\n## A campaign\n")
EXAMPLES = re.findall(r"```python\n(.*?)```", RULES, re.S)
# The campaign's examples play one table in turn, each on what the one before it made.
IN_A_CAMPAIGN = re.findall(r"```python\n(.*?)```", CAMPAIGN, re.S)


def test_the_page_has_examples_for_every_part() -> None:
    text = "\n".join(EXAMPLES)
    for name in ("clockworx.resolve", "clockworx.pick", "colorwheel.draw",
                 "colorwheel.Recorded", "colorwheel.random_die", "odds.clock", "odds.wheel"):
        assert name in text, name


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda text: text.splitlines()[-1][:40])
def test_each_example_runs_as_written(example: str) -> None:
    exec(compile(example, str(PAGE), "exec"), {})


def test_a_bot_plays_a_campaign_as_the_page_shows(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert len(IN_A_CAMPAIGN) >= 3
    text = "\n".join(IN_A_CAMPAIGN)
    for name in ("Campaign.around", ".draw(", ".seal(", ".resolve(", ".reveal("):
        assert name in text, name
    for example in IN_A_CAMPAIGN:
        exec(compile(example, str(PAGE), "exec"), {})
    # Journaled as the commands journal them: the ledger agrees with every file.
    table = tmp_path / "table"
    done = run_cwx("check", table)
    assert done.status == 0, done.stdout + done.stderr
    said = [event["command"] for event in journal(table)]
    assert said[-4:] == ["bag draw", "clock pick --seal", "clock resolve --sealed",
                         "clock reveal"], said
    assert "xp = 2" in (table / "kris.toml").read_text()


def test_the_package_ships_its_types() -> None:
    assert (Path(cwx.__file__).parent / "py.typed").is_file()
