"""docs/api.md: every example on the page runs as written, importing only what it
names, and the package says it is typed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cwx

PAGE = Path(__file__).parent.parent / "docs" / "api.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.S)


def test_the_page_has_examples_for_every_part() -> None:
    text = "\n".join(EXAMPLES)
    for name in ("clockworx.resolve", "clockworx.pick", "colorwheel.draw",
                 "colorwheel.Recorded", "colorwheel.random_die", "odds.clock", "odds.wheel"):
        assert name in text, name


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda text: text.splitlines()[-1][:40])
def test_each_example_runs_as_written(example: str) -> None:
    exec(compile(example, str(PAGE), "exec"), {})


def test_the_package_ships_its_types() -> None:
    assert (Path(cwx.__file__).parent / "py.typed").is_file()
