"""Real processes at once on one campaign folder: no update is lost, nothing deadlocks."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from tests.helpers import journal


def start(*args: object) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "cwx", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(processes: list[subprocess.Popen[str]], timeout: float = 120) -> None:
    for process in processes:
        _out, err = process.communicate(timeout=timeout)
        assert process.returncode == 0, err


def test_twenty_concurrent_resolves_on_one_character_lose_no_experience(campaign: Path) -> None:
    kris = campaign / "kris.toml"
    # A critical success with Tough 5 earns 10 each time.
    finish([start("clock", "resolve", "--target", 7, "--guess", 7, "--trait", "Tough",
                  "--char", kris, "--json") for _ in range(20)])
    assert tomllib.loads(kris.read_text())["xp"] == 200
    events = journal(campaign)
    assert len(events) == 20
    assert sorted(e["result"]["xp_total"] for e in events) == list(range(10, 201, 10))


def dice_in(campaign: Path, *characters: str) -> tuple[int, int]:
    """Whites and blacks in the bag, the reserve and every character's hands (W9)."""
    bag = tomllib.loads((campaign / "bag.toml").read_text())
    whites = bag["bag"]["white"] + bag["reserve"]["white"]
    blacks = bag["bag"]["black"] + bag["reserve"]["black"]
    for name in characters:
        luck = tomllib.loads((campaign / name).read_text())["luck"]
        whites, blacks = whites + luck["white"], blacks + luck["black"]
    return whites, blacks


DRAWS_EACH = 12


def test_two_characters_drawing_at_once_from_one_bag_conserve_every_die(campaign: Path) -> None:
    before = dice_in(campaign, "sue.toml", "rick.toml")
    processes = [
        start("bag", "draw", "--char", campaign / who, "--bag", campaign / "bag.toml",
              "--color", colour, "--keep-white", "--keep-black", "--spend-white", "--json")
        for _ in range(DRAWS_EACH) for who, colour in (("sue.toml", "blue"),
                                                       ("rick.toml", "purple"))
    ]
    finish(processes)
    after = dice_in(campaign, "sue.toml", "rick.toml")
    print(f"{2 * DRAWS_EACH} concurrent draws: dice before {before}, after {after}")
    assert after == before
    events = [e for e in journal(campaign) if e["command"] == "bag draw"]
    assert len(events) == 2 * DRAWS_EACH
    kept = sum(len(e["result"]["draws"]) - 1 for e in events)
    assert kept > 0  # the keep flags really moved dice between the bag and the hands
