"""tests/costs.txt, which orders the suite's longest tests first, names tests that exist."""

from __future__ import annotations

from tests.conftest import COSTS
from tests.helpers import ROOT


def test_every_test_the_costs_name_exists() -> None:
    for line in COSTS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            seconds, name = line.split(maxsplit=1)
            path, _, function = name.partition("::")
            assert float(seconds) > 0, line
            assert f"def {function}(" in (ROOT / path).read_text(encoding="utf-8"), line
