"""Journals written to hurt: what cwx's readers cost on lines no cwx wrote.

A campaign from git is input, its journal too. Each journal here is about the size of a
long campaign's (100,000 events, or some 45 MB), built to make a reader hold much or
work long: huge lines, a key or a file per change, long lists, turns naming many
others, texts that take a TOML parser minutes. `python bench/hostile.py` prints each
command's peak memory and time on each (a reader that tells every event, its CPU time as
a multiple of check's too); `make bench` holds them to the budget (README: at most
100 MB, whatever the journal holds; TIMES_CHECK). `python bench/hostile.py "a file a change"
"sheets of 64 KiB"` runs only the rows whose names hold one of its arguments.
"""

from __future__ import annotations

import itertools
import json
import resource
import shutil
import string
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

EVENTS = 100_000
MEMORY_LIMIT_MB = 100


def _event(n: int, command: str = "clock resolve", *, file: str = "kris.toml",
           changes: list[dict[str, object]] | None = None, **extra: object) -> str:
    at = f"2099-01-{1 + n // 86400:02d}T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:" \
         f"{n % 60:02d}.{n % 1000:03d}Z"
    return json.dumps({"v": 2, "id": f"{n:016x}", "at": at, "command": command, "who": "Kris",
                       "file": file, "bag": None, "result": extra.pop("result", {}),
                       "changes": changes or [], **extra}, separators=(",", ":"))


def huge_lines(size: int = 15 << 20) -> Iterator[str]:
    """Three lines of 15 MB: a list of lists, an object of many keys, one long string.
    The first two are written as text (what json.dumps would write): built as values,
    a million lists and keys cost seconds before any reader starts."""
    yield _event(0, changes=[{"file": "kris.toml", "key": "xp", "from": 0, "to": _HOLE}]) \
        .replace(f'"{_HOLE}"', "[" + ",".join(["[]"] * (size // 3)) + "]")
    yield _event(1, result=_HOLE).replace(
        f'"{_HOLE}"', "{" + ",".join([f'"k{i}":{{}}' for i in range(size // 12)]) + "}")
    yield _event(2, result={"x": "a" * size})


_HOLE = "@hole@"  # where a value written as text goes in an event's line


def a_key_a_change(events: int = EVENTS, keys: int = 8) -> Iterator[str]:
    """Every change names a key no other names: as many keys as changes."""
    for n in range(events):
        yield _event(n, changes=[{"file": "kris.toml", "key": f"traits.t{n}_{i}", "from": None,
                                  "to": 1} for i in range(keys)])


def a_file_an_event(events: int = EVENTS) -> Iterator[str]:
    """Every event makes a file of its own, with a few keys."""
    text = "[bag]\nred = 1\nyellow = 1\nblue = 1\nwhite = 3\nblack = 3\n"
    for n in range(events):
        yield _event(n, "bag new", file=f"bag{n}.toml",
                     changes=[{"file": f"bag{n}.toml", "created": True, "text": text}])


def files_a_change(events: int = EVENTS) -> Iterator[str]:
    """Every change names a file no other names: 800,000 files (a campaign holds 1,000)."""
    for n in range(events):
        yield _event(n, file=f"c{n}.toml", changes=[
            {"file": f"c{n}_{i}.toml", "key": "bag.white", "from": 0, "to": 1}
            for i in range(8)])


def a_bag_a_draw(events: int = EVENTS) -> Iterator[str]:
    """Every draw is from a bag no other draw names."""
    for n in range(events):
        yield _event(n, "bag draw", file="sue.toml", bag=f"bag{n}.toml",
                     result={"color": "red", "draws": ["white", "red"], "success": True,
                             "recorded": True},
                     changes=[{"file": "sue.toml", "key": "luck.white", "from": 0, "to": 1}])


def long_lists(events: int = EVENTS, items: int = 16) -> Iterator[str]:
    """Every change adds names no other adds to one list."""
    for n in range(events):
        yield _event(n, "wheel buy", file="sue.toml", changes=[
            {"file": "sue.toml", "key": "traits.red", "from": [],
             "to": [f"n{n}_{i}" for i in range(items)]}])


def turns_naming_many(events: int = EVENTS // 10, named: int = 40) -> Iterator[str]:
    """Luck turns of one draw, each naming many turns it saw undone."""
    for n in range(events):
        yield _event(n, "luck spend", file="sue.toml",
                     result={"turns": "0" * 16, "success": True,
                             "after_undone": [f"{n:08x}{i:08x}" for i in range(named)]})


def slow_texts(events: int = 4) -> Iterator[str]:
    """Files made with texts a TOML parser takes long over: a dotted key of 50,000 parts,
    an integer of 5,000 digits."""
    dotted = "a" + ".a" * 50_000 + " = 1\n"
    digits = "[bag]\nwhite = " + "9" * 5000 + "\n"
    for n in range(events):
        yield _event(n, "bag new", file=f"slow{n}.toml",
                     changes=[{"file": f"slow{n}.toml", "created": True,
                               "text": dotted if n % 2 else digits}])


def ordinary_draws(events: int = EVENTS) -> Iterator[str]:
    """Nothing hostile: a long campaign's draws, as a table's log reads them all."""
    for n in range(events):
        yield _event(n, "bag draw", file="sue.toml", bag="bag.toml",
                     result={"color": "red", "draws": ["white", "red"], "success": True},
                     changes=[{"file": "sue.toml", "key": "luck.white", "from": 0, "to": 1}])


def many_values_a_line(events: int = 48) -> Iterator[str]:
    """A character's draws whose results hold a million values (about 1 MB each)."""
    for n in range(events):
        yield _event(n, "bag draw", file="sue.toml",
                     result={"success": False, "x": [{}] * 340_000})


def wide_letters(events: int = 50) -> Iterator[str]:
    """Changes whose old values are megabyte strings of letters that take 4 bytes each."""
    for n in range(events):
        yield _event(n, changes=[{"file": "kris.toml", "key": "traits.Repair",
                                  "from": "a" * 1_000_000 + "\U0001F600", "to": 3}])


def wide_xp_texts(events: int = 50) -> Iterator[str]:
    """xp changes whose old values are megabyte strings (text where xp is a number): a
    history and a log once kept each whole (224 and 237 MB)."""
    for n in range(events):
        yield _event(n, "xp spend", changes=[{"file": "kris.toml", "key": "xp",
                                              "from": "a" * 1_000_000 + "\U0001F600", "to": 3}])


def stretches_of_long_lines(runs: int = 64, size: int = 1_048_000) -> Iterator[str]:
    """As many stretches out of time order as are merged (as from 64 clones), each older
    than the one before and opening with an event of about 1 MB (a long note)."""
    for run in range(runs):
        n = 86400 * (27 - run // 24) + 3600 * (23 - run % 24)
        yield _event(n, "bag draw", file="sue.toml", bag="bag.toml",
                     result={"color": "red", "draws": ["red"], "success": True,
                             "note": "a" * size})
        yield _event(n + 1, "bag draw", file="sue.toml", bag="bag.toml",
                     result={"color": "red", "draws": ["red"], "success": True})


def players_of_long_names(events: int = 25_000, size: int = 4000) -> Iterator[str]:
    """Draws each by a player of their own, named in 4 KB (a recap lists every player)."""
    for n in range(events):
        yield _event(n, "bag draw", file="sue.toml", bag="bag.toml", player="p" * size + str(n),
                     result={"color": "red", "draws": ["white", "red"], "success": True},
                     changes=[{"file": "sue.toml", "key": "luck.white", "from": 0, "to": 1}])


def players_of_their_own(events: int = EVENTS) -> Iterator[str]:
    """Draws each by a player of their own, named in the most a name may hold."""
    for n in range(events):
        yield _event(n, "bag draw", file="sue.toml", bag="bag.toml", player=f"{n:p>100}",
                     result={"color": "red", "draws": ["white", "red"], "success": True},
                     changes=[{"file": "sue.toml", "key": "luck.white", "from": 0, "to": 1}])


def characters_of_long_names(events: int = 25_000, size: int = 255) -> Iterator[str]:
    """Draws each by a character of a name of its own, as long as a journal's names may
    be (lines.MAX_NAME), in letters of 4 bytes (a recap tells each event's character;
    25,000 names of 4 KB once cost it 134 MB)."""
    for n in range(events):
        yield _event(n, "bag draw", file="sue.toml", bag="bag.toml", who=f"{n:\U0001F600>{size}}",
                     result={"color": "red", "draws": ["white", "red"], "success": True},
                     changes=[{"file": "sue.toml", "key": "luck.white", "from": 0, "to": 1}])


def files_of_long_names(events: int = 30_000, files: int = 9_990, size: int = 255
                        ) -> Iterator[str]:
    """Draws by characters of almost as many files as a journal may name (lines.MAX_NAMED),
    each file named in as many letters of 4 bytes as a name may hold (lines.MAX_NAME)."""
    for n in range(events):
        name = f"{n % files:\U0001F600>{size - 5}}.toml"
        yield _event(n, "bag draw", file=name, bag="bag.toml",
                     result={"color": "red", "draws": ["white", "red"], "success": True},
                     changes=[{"file": name, "key": "luck.white", "from": 0, "to": 1}])


def emoji_players(events: int = EVENTS) -> Iterator[str]:
    """Draws each by a player of their own, named in 100 letters of 4 bytes."""
    for n in range(events):
        yield _event(n, "bag draw", file="sue.toml", bag="bag.toml",
                     player=f"{n:\U0001F600>100}",
                     result={"color": "red", "draws": ["white", "red"], "success": True},
                     changes=[{"file": "sue.toml", "key": "luck.white", "from": 0, "to": 1}])


def emoji_keys(events: int = EVENTS) -> Iterator[str]:
    """Purchases each of a trait of its own, named in 200 letters of 4 bytes."""
    for n in range(events):
        yield _event(n, "xp spend", changes=[{"file": "kris.toml",
                                              "key": f"traits.{n:\U0001F600>200}",
                                              "from": None, "to": 1}])


def traits_of_long_names(events: int = 10_000, traits: int = 1000, size: int = 248
                         ) -> Iterator[str]:
    """A character buying a thousand traits and raising them, each named in as many
    letters of 4 bytes as a key may hold (lines.MAX_NAME, with "traits."): 1,000 named in
    4 KB once cost recap 208 MB."""
    for n in range(events):
        trait = f"{n % traits:\U0001F600>{size}}"
        yield _event(n, "xp spend", file="kris.toml", who="Kris",
                     result={"trait": trait, "score": 1 + n // traits, "cost": 12,
                             "xp_total": 0},
                     changes=[{"file": "kris.toml", "key": "xp", "from": 12, "to": 0},
                              {"file": "kris.toml", "key": f"traits.{trait}",
                               "from": n // traits or None, "to": 1 + n // traits}])


def sheets_made_again(events: int = 2000, traits: int = 990) -> Iterator[str]:
    """One character made again and again (`char new --force`), each time a sheet of 990
    traits (within a file's bounds): readers that follow a character's sheet read each."""
    names = ["".join(name) for name in itertools.islice(
        itertools.product(string.ascii_lowercase, repeat=3), traits)]
    text = SMALL_SHEET.partition("A = 3")[0] + "".join(f"{t} = 3\n" for t in names)
    for n in range(events):
        yield _event(n, "char new", file="kris.toml", who="Kris",
                     result={"name": "Kris", "system": "clockworx", "traits": dict.fromkeys(
                         names, 3), "xp": 0, "unspent": 0},
                     changes=[{"file": "kris.toml", "created": n == 0, "text": text}])


JOURNALS: dict[str, Callable[[], Iterator[str]]] = {
    "ordinary draws": ordinary_draws,
    "a million values a line": many_values_a_line,
    "wide letters": wide_letters,
    "megabyte xp texts": wide_xp_texts,
    "three 15 MB lines": huge_lines,
    "a key a change": a_key_a_change,
    "a file an event": a_file_an_event,
    "a file a change": files_a_change,
    "a bag a draw": a_bag_a_draw,
    "long lists": long_lists,
    "turns naming many": turns_naming_many,
    "slow TOML texts": slow_texts,
    "64 stretches of 1 MB": stretches_of_long_lines,
    "4 KB player names": players_of_long_names,
    "a player an event": players_of_their_own,
    "long character names": characters_of_long_names,
    "long file names": files_of_long_names,
    "long trait names": traits_of_long_names,
    # Within every bound, 100,000 names of their own in letters of 4 bytes.
    "100,000 emoji characters": lambda: characters_of_long_names(EVENTS),
    "100,000 emoji players": emoji_players,
    "100,000 emoji keys": emoji_keys,
    "a sheet made 2,000 times": sheets_made_again,
}


def campaign(folder: Path, lines: Iterator[str]) -> Path:
    """The example campaign, marked a campaign, with a hostile journal beside it."""
    root = Path(__file__).resolve().parent.parent
    shutil.copytree(root / "examples", folder)
    (folder / "campaign.toml").write_text('[campaign]\nbag = "bag.toml"\n')
    with open(folder / "journal.jsonl", "w") as file:
        for line in lines:
            file.write(line + "\n")
    return folder


MEASURE = """\
import resource, subprocess, sys, time
began = time.perf_counter()
done = subprocess.run(sys.argv[2:], cwd=sys.argv[1], stdout=subprocess.DEVNULL,
                      stderr=subprocess.PIPE)
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(used.ru_maxrss, time.perf_counter() - began, used.ru_utime + used.ru_stime,
      done.returncode, len(done.stderr.splitlines()))
"""

COMMANDS = {
    "check": ["check"],
    "log": ["log"],
    "log --last 10": ["log", "--last", "10"],
    "undo": ["undo"],
    "luck spend": ["luck", "spend", "-c", "sue"],
    "reconcile": ["reconcile"],
    "recap --all": ["recap", "--all"],
    "recap --all --json": ["recap", "--all", "--json"],
    "audit": ["audit", "--all-draws"],
    "xp history": ["xp", "history", "kris"],
}


# What reads the journal once and tells it, in at most this many times check's CPU time
# on the same journal (which reads every line and folds the ledger too).
TIMES_CHECK = {"log": 3.0, "recap --all": 3.0, "recap --all --json": 3.0, "xp history": 3.0}


class Cost(NamedTuple):
    mb: float  # peak memory
    seconds: float
    cpu: float  # seconds of CPU time, user and system: what a busy machine does not change
    status: int
    said: int  # lines on standard error


def cost(folder: Path, args: list[str]) -> Cost:
    """Peak memory (MB) and seconds of one cwx command in `folder`, from a small parent
    (a child of this process would count its copy of our memory)."""
    cwx = str(Path(sys.executable).parent / "cwx")
    done = subprocess.run([sys.executable, "-c", MEASURE, str(folder), cwx, *args],
                          check=True, capture_output=True, text=True)
    kb, seconds, cpu, status, said = done.stdout.split()
    return Cost(int(kb) / 1024, float(seconds), float(cpu), int(status), int(said))


# ---------------------------------------------------------------- inputs with budgets of their own
#
# Work that grew faster than what a clone brings (SPEC 8.1): each a file or journal and
# the command it cost most, with the budget it must keep. Time is CPU time (user and
# system), which a machine busy with other work does not change.

BIG_BAG = "[bag]\nred = 1\nyellow = 1\nblue = 1\nwhite = 100000000\nblack = 1\n\n" \
          "[reserve]\nwhite = 0\nblack = 0\n"


def big_bag_draws(folder: Path) -> list[str]:
    """A forged bag of 10**8 whites, and 12 recorded draws of 120,000 whites kept each
    (an 11.5 MB journal): `audit` once held every die with its chances."""
    (folder / "big.toml").write_text(BIG_BAG)
    with open(folder / "journal.jsonl", "a") as file:
        file.write(_event(0, "bag new", file="big.toml", changes=[
            {"file": "big.toml", "created": True, "text": BIG_BAG}]) + "\n")
        for n in range(1, 13):
            file.write(_event(n, "bag draw", file="sue.toml", bag="big.toml", result={
                "color": "red", "draws": ["white"] * 120_000 + ["red"], "success": True,
                "recorded": True}) + "\n")
    return ["audit", "--bag", "big.toml"]


def wheel_bag(n: int) -> Callable[[Path], list[str]]:
    """A bag of one red, n whites and n blacks, no reserve: odds keeping both once took
    the square of n steps (n = 800: 10 s; 2,500: 359 s)."""
    def made(folder: Path) -> list[str]:
        (folder / "wide.toml").write_text(
            f"[bag]\nred = 1\nyellow = 0\nblue = 0\nwhite = {n}\nblack = {n}\n\n"
            "[reserve]\nwhite = 0\nblack = 0\n")
        return ["odds", "wheel", "--bag", "wide.toml", "--all", "--keep-white", "--keep-black"]
    return made


def wheel_table(red: int, white: int, black: int, reserve_white: int, reserve_black: int
                ) -> Callable[[Path], list[str]]:
    """A bag of `red` reds (its chances' digits), `white` whites and `black` blacks, and a
    reserve: odds keeping both and spending a white held, whose fractions grow a step a
    white the bag gives up (red 2**62, 600, 900, reserve 380 and 1: once 1.6 s)."""
    def made(folder: Path) -> list[str]:
        (folder / "wide.toml").write_text(
            f"[bag]\nred = {red}\nyellow = 0\nblue = 0\nwhite = {white}\nblack = {black}\n"
            f"\n[reserve]\nwhite = {reserve_white}\nblack = {reserve_black}\n")
        return ["odds", "wheel", "--bag", "wide.toml", "--all", "--keep-white", "--keep-black",
                "--spend-white", "--white", "1"]
    return made


def gone_and_new(gone: int, new: int) -> Callable[[Path], list[str]]:
    """A journal of `gone` bags made with dice, none left, and `new` bag files the ledger
    never saw: each new file's advice once named every gone one (9,000 and 990: 416 MB,
    127 MB of output)."""
    text = "[bag]\nred = 1\nyellow = 1\nblue = 1\nwhite = 3\nblack = 3\n"

    def made(folder: Path) -> list[str]:
        with open(folder / "journal.jsonl", "a") as file:
            for n in range(gone):
                name = f"g{n}.toml"
                file.write(_event(n, "bag new", file=name, changes=[
                    {"file": name, "created": True, "text": text}]) + "\n")
        for n in range(new):
            (folder / f"u{n}.toml").write_text(text)
        return ["check"]
    return made


def deep(depth: int) -> Callable[[Path], list[str]]:
    """A clone `depth` folders deep: check once looked up every folder's real path."""
    def made(folder: Path) -> list[str]:
        here = folder
        for _ in range(depth):  # one at a time: the whole path is longer than one call takes
            here = here / "a"
            here.mkdir()
        (here / "x.toml").write_text("[bag]\nwhite = 1\n")
        return ["check"]
    return made


def megabyte(head: str, table: str = "traits") -> str:
    """A campaign file of 1 MB: `head`, then a table of as many short keys as fit (some
    150,000; a sheet has a few dozen), lowercase, so that no two are one ignoring case."""
    text = f"{head}\n[{table}]\n"
    room = ((1 << 20) - len(text)) // len("abcd=3\n")
    names = itertools.islice(itertools.product(string.ascii_lowercase, repeat=4), room)
    return text + "".join(f"{''.join(name)}=3\n" for name in names)


SMALL_SHEET = 'name = "Big"\nsystem = "clockworx"\nxp = 0\n\n[traits]\nA = 3\nB = 3\nC = 3\n'


def big_sheet(*args: str) -> Callable[[Path], list[str]]:
    """A character the ledger knows as three traits, committed as a 1 MB sheet of 150,000:
    reconcile once took 280 MB and 21 s, check 204 MB, adopt 125 MB."""
    def made(folder: Path) -> list[str]:
        with open(folder / "journal.jsonl", "a") as file:
            file.write(_event(0, "char new", file="big.toml", changes=[
                {"file": "big.toml", "created": True, "text": SMALL_SHEET}]) + "\n")
        (folder / "big.toml").write_text(megabyte(SMALL_SHEET.partition("[")[0]))
        return list(args)
    return made


def big_bag(folder: Path) -> list[str]:
    """The campaign's bag, of 1 MB (its notes)."""
    (folder / "bag.toml").write_text(megabyte(
        "[bag]\nred = 1\nyellow = 1\nblue = 1\nwhite = 1\nblack = 1\n\n"
        "[reserve]\nwhite = 10\nblack = 10\n", "notes"))
    return ["bag", "show"]


def big_settings(folder: Path) -> list[str]:
    """campaign.toml of 1 MB, which every command in the campaign reads."""
    (folder / "campaign.toml").write_text(megabyte('[campaign]\nbag = "bag.toml"\n', "notes"))
    return ["check"]


def many_sheets(count: int, traits: int, *args: str,
                known: bool = False) -> Callable[[Path], list[str]]:
    """A folder of `count` characters of `traits` traits each; `known`: the ledger knows
    each with every score one less than its file says (a difference a key)."""
    names = ["".join(name) for name in itertools.islice(
        itertools.product(string.ascii_lowercase, repeat=3), traits)]
    head = SMALL_SHEET.partition("A = 3")[0]

    def made(folder: Path) -> list[str]:
        (folder / "party").mkdir()
        with open(folder / "journal.jsonl", "a") as file:
            for n in range(count):
                name = f"party/c{n}.toml"
                (folder / name).write_text(head + "".join(f"{t} = 4\n" for t in names))
                if known:
                    file.write(_event(n, "char new", file=name, changes=[
                        {"file": name, "created": True,
                         "text": head + "".join(f"{t} = 3\n" for t in names)}]) + "\n")
        return list(args)
    return made


def fat_sheets(count: int, *args: str, git: bool = False) -> Callable[[Path], list[str]]:
    """A folder of `count` characters of 64 KiB each (their notes), each within a file's
    bounds and all within the campaign's count of files and of values; `args` may name
    them all as PARTY; `git`: the campaign a clone of its own, committed."""
    notes = "".join(f'n{i} = "{"x" * 6500}"\n' for i in range(10))
    text = SMALL_SHEET + "\n[notes]\n" + notes

    def made(folder: Path) -> list[str]:
        (folder / "party").mkdir()
        names = [f"party/c{n}.toml" for n in range(count)]
        for name in names:
            (folder / name).write_text(text)
        if git:
            quiet = {"cwd": folder, "check": True, "capture_output": True}
            subprocess.run(["git", "init", "-q", "-b", "main"], **quiet)  # type: ignore[call-overload]
            subprocess.run(["git", "add", "-A"], **quiet)  # type: ignore[call-overload]
            subprocess.run(["git", "-c", "user.name=B", "-c", "user.email=b@b", "commit", "-qm",
                            "party"], **quiet)  # type: ignore[call-overload]
        return [part for arg in args for part in (names if arg == "PARTY" else [arg])]
    return made


# (name, what it makes, the most MB, the most CPU seconds; a refusal, exit 2 in one line,
# is within budget)
BUDGETS: list[tuple[str, Callable[[Path], list[str]], float, float]] = [
    ("audit, 12 draws of 120,000 whites", big_bag_draws, 100, 2),
    ("odds wheel, bag of 800 each", wheel_bag(800), 100, 1),
    ("odds wheel, bag of 2,500 each", wheel_bag(2500), 100, 1),
    ("odds wheel, red 2**62, 600 kept", wheel_table(2**62, 600, 900, 380, 1), 100, 1),
    # The slowest found within the bound of whites given up times digits.
    ("odds wheel, red 2**62, 395 kept", wheel_table(2**62, 395, 900, 0, 1), 100, 1),
    ("odds wheel, red 2**26, 600 kept", wheel_table(2**26, 600, 900, 0, 1), 100, 1),
    ("odds wheel, red 2**54, 600 kept", wheel_table(2**54, 600, 900, 0, 0), 100, 1),
    # Its 9,000 events are nearly all of the cost: with no new file, check costs the same.
    ("check, 9,000 bags gone, 990 new", gone_and_new(9000, 990), 100, 5),
    ("check, 1,600 folders deep", deep(1600), 100, 2),
    ("check, 1,900 folders deep", deep(1900), 100, 2),
    ("reconcile, a 1 MB sheet", big_sheet("reconcile"), 100, 2),
    ("check, a 1 MB sheet", big_sheet("check"), 100, 2),
    ("adopt, a 1 MB sheet", big_sheet("adopt", "big.toml"), 100, 2),
    ("bag show, a 1 MB bag", big_bag, 100, 2),
    ("check, a 1 MB campaign.toml", big_settings, 100, 2),
    ("check, 20,000 sheets", many_sheets(20_000, 3, "check"), 100, 2),
    ("reconcile, 20,000 sheets", many_sheets(20_000, 3, "reconcile"), 100, 2),
    ("check, 900 sheets of 990 traits", many_sheets(900, 990, "check"), 100, 2),
    # The most a campaign may hold (its files full, together just within), every key of
    # them differing from the ledger.
    ("check, 19 sheets of 990 differences", many_sheets(19, 990, "check", known=True),
     100, 2),
    ("reconcile, 19 sheets of 990 differences",
     many_sheets(19, 990, "reconcile", "--dry-run", known=True), 100, 2),
    # Not a row: sync of 100,000 journal lines not yet committed (each naming a character
    # of its own in 255 letters of 4 bytes, 114 MB). cwx itself keeps within the budget
    # (42 MB; its check after the commit once held HEAD's journal and the work tree's
    # whole: 377 MB), but its children do not: `git add journal.jsonl` alone takes
    # 116 MB (git reads the file whole to hash it), and the post-commit hook 367 MB
    # (the proof of the new commit: seen.form of its 114 MB blob, held with its lines).
    # The most bytes a campaign could hold by the bounds of files and values alone (past
    # its bound of bytes: once 150-330 MB), and just within that bound.
    *((f"{command}, {count} sheets of 64 KiB", fat_sheets(count, *args, git=command == "sync"),
       100, 2)
      for count in (990, 120)
      for command, args in (("party", ["party"]), ("check", ["check"]),
                            ("reconcile", ["reconcile", "--dry-run"]),
                            ("adopt", ["adopt", "PARTY"]), ("sync", ["sync"]))),
]
RECAP_SIZES = (4_000, 16_000, EVENTS)
RECAP_TIMES_CHECK = 3  # a recap reads what check reads, and tells it


def budgets(scratch: Path, chosen: Callable[[str], bool]) -> int:
    """Each input with a budget of its own, and recap against check; the failures."""
    failed = 0
    print(f"\n{'input':36} {'MB':>7} {'CPU s':>7} {'budget':>14}")
    for name, made, most_mb, most_cpu in BUDGETS:
        if not chosen(name):
            continue
        folder = campaign(scratch / "budget", iter(()))
        spent = cost(folder, made(folder))
        refused = spent.status == 2 and spent.said == 1
        over = spent.mb > most_mb or spent.cpu > most_cpu or spent.status not in (0, 1, 2) \
            or (spent.status == 2 and not refused)
        failed += over
        print(f"{name:36} {spent.mb:7.1f} {spent.cpu:7.2f} {f'{most_mb} MB, {most_cpu} s':>14}"
              f"{'  (refused)' if refused else ''}{'  FAIL' if over else ''}")
        subprocess.run(["rm", "-rf", str(folder)], check=True)  # rmtree recurses a folder a level
    for events in RECAP_SIZES:
        if not chosen(f"recap, {events:,} events a file each"):
            continue
        folder = campaign(scratch / "recap", a_file_an_event(events))
        recap, check = cost(folder, ["recap"]), cost(folder, ["check"])
        # Past lines.MAX_NAMED files (10,000 events), the journal is refused at that line.
        refused = recap.status == 2 and recap.said == 1
        over = recap.cpu > RECAP_TIMES_CHECK * check.cpu or recap.mb > MEMORY_LIMIT_MB
        failed += over
        print(f"{f'recap, {events:,} events a file each':36} {recap.mb:7.1f} {recap.cpu:7.2f}"
              f" {f'{recap.cpu / check.cpu:.2f}x check':>14}{'  (refused)' if refused else ''}"
              f"{'  FAIL' if over else ''}")
        shutil.rmtree(folder)
    return failed


def main(only: list[str]) -> int:
    """Every row, or those whose name holds one of `only` (`python bench/hostile.py
    "a file a change"`)."""
    import tempfile

    def chosen(name: str) -> bool:
        return not only or any(word in name for word in only)

    failed = 0
    print(f"{'journal':20} {'command':14} {'MB':>7} {'seconds':>8} {'CPU s':>7} "
          f"{'x check':>8}")
    with tempfile.TemporaryDirectory() as scratch:
        for name, lines in JOURNALS.items():
            checked: float | None = None  # check's CPU seconds on this journal
            for command, args in COMMANDS.items():
                if not chosen(f"{name} {command}"):
                    continue
                folder = campaign(Path(scratch) / f"{name}-{command}".replace(" ", "-"),
                                  lines())
                mb, seconds, cpu, *_ = cost(folder, args)
                if command in TIMES_CHECK and checked is None:
                    checked = cost(folder, COMMANDS["check"]).cpu
                checked = cpu if command == "check" else checked
                times = cpu / checked if command in TIMES_CHECK and checked else None
                over = mb > MEMORY_LIMIT_MB or (times or 0) > TIMES_CHECK.get(command, 0)
                failed += over
                print(f"{name:20} {command:14} {mb:7.1f} {seconds:8.2f} {cpu:7.2f} "
                      f"{f'{times:.2f}x' if times else '':>8}{'  FAIL' if over else ''}")
                shutil.rmtree(folder)
        failed += budgets(Path(scratch), chosen)
    return 1 if failed else 0


if __name__ == "__main__":
    began = time.perf_counter()
    status = main(sys.argv[1:])
    print(f"({time.perf_counter() - began:.0f} s; peak memory of this script "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")
    sys.exit(status)
