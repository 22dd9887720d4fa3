"""The clock face drawn for people: the guess, the target, the steps walked between them."""

from __future__ import annotations

from cwx.cli.output import paint
from cwx.rules import clockworx
from cwx.rules.clockworx import ClockOutcome

_ROWS, _COLS = 7, 27
# (row, column) of each hour's centre: an oval, as terminal cells are tall and narrow.
_PLACES = {12: (0, 13), 1: (1, 19), 2: (2, 23), 3: (3, 25), 4: (4, 23), 5: (5, 19),
           6: (6, 13), 7: (5, 7), 8: (4, 3), 9: (3, 1), 10: (2, 3), 11: (1, 7)}


def walked(outcome: ClockOutcome) -> list[int]:
    """Positions passed on the short way from the guess to the target (both excluded)."""
    forward = (outcome.target - outcome.guess) % clockworx.CLOCK
    direction = 1 if forward <= clockworx.CLOCK - forward else -1
    path, here = [], outcome.guess
    for _ in range(outcome.distance - 1):
        here = (here - 1 + direction) % clockworx.CLOCK + 1
        path.append(here)
    return path


def draw(outcome: ClockOutcome, on: bool) -> str:
    """The face as text: (g) the guess, [t] the target, ·n· the steps between them."""
    grid = [[" "] * _COLS for _ in range(_ROWS)]
    marks: dict[int, tuple[str, str | None]] = {}
    for hour in range(1, clockworx.CLOCK + 1):
        marks[hour] = (f" {hour} ", None)
    for hour in walked(outcome):
        marks[hour] = (f"·{hour}·", "good")
    marks[outcome.guess] = (f"({outcome.guess})", "blue")
    target_look = f"<{outcome.target}>" if outcome.critical else f"[{outcome.target}]"
    marks[outcome.target] = (target_look, "yellow")
    painted: dict[tuple[int, int], str] = {}
    for hour, (label, style) in marks.items():
        row, centre = _PLACES[hour]
        col = max(0, centre - len(label) // 2)
        for offset, char in enumerate(label):
            grid[row][col + offset] = char
        if style:
            painted[(row, col)] = paint(label, style, on)
            for offset in range(1, len(label)):
                painted[(row, col + offset)] = ""
    words = _centre_words(outcome)
    start = _COLS // 2 - len(words) // 2
    for offset, char in enumerate(words):
        grid[_ROWS // 2][start + offset] = char
    lines = []
    for row, cells in enumerate(grid):
        line = "".join(painted.get((row, col), char) for col, char in enumerate(cells))
        lines.append(line.rstrip())
    return "\n".join(lines)


def _centre_words(outcome: ClockOutcome) -> str:
    if outcome.score is None or not outcome.success:
        return ""
    if outcome.critical:
        return f"{outcome.score}×2 inside"
    return f"{outcome.inside} inside"
