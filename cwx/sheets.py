"""What a character or bag file must say, checked on plain data (docs/rules.md).

Pure: takes what `tomllib` parsed and returns a frozen sheet, or raises BadFile
naming the key at fault (the files layer adds the path and line); and back, the
data a new file must hold and the keys a move changes. This module is the one
answer to "which system?": every branch on it is an exhaustive `match`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, assert_never

from cwx import clockworx, traitnames
from cwx.errors import BadFile, BadValue, shown
from cwx.tomledit import LARGEST

if TYPE_CHECKING:
    from cwx.colorwheel import Bag, Luck

# Sheets are immutable records of what a file says. They are NamedTuples, not frozen
# dataclasses: building a frozen dataclass costs about 2 ms of start-up each (measured,
# 5.5M instructions against 1M), and every command that reads a file pays for these.
# The Color Wheel's rules are imported where a Color Wheel file is read, so that a
# ClockWorx command does not pay at start-up for the Color Wheel's classes.

System = Literal["clockworx", "colorwheel"]
SYSTEMS: tuple[System, ...] = ("clockworx", "colorwheel")
Kind = Literal["character", "bag"]
Edit = tuple[tuple[str, ...], Any]


class ClockCharacter(NamedTuple):
    """A ClockWorx character as its file says."""

    name: str
    traits: Mapping[str, int]
    xp: int
    system: System = "clockworx"


class WheelCharacter(NamedTuple):
    """A Color Wheel character as its file says."""

    name: str
    traits: Mapping[str, tuple[str, ...]]  # by colour, in wheel order
    luck: Luck
    colour_keys: Mapping[str, str]  # colour -> the key as the file spells it
    system: System = "colorwheel"


Character = ClockCharacter | WheelCharacter


class BagSheet(NamedTuple):
    """A bag and its reserve, as the bag's file says."""

    bag: Bag
    reserve: Luck


def kind_of(data: Mapping[str, Any]) -> Kind | None:
    """A file with a `system` key, [traits] or [luck] is a character's; one with [bag] or
    [reserve] is a bag's; any other TOML file is not cwx's."""
    if "system" in data or "traits" in data or "luck" in data:
        return "character"
    if "bag" in data or "reserve" in data:
        return "bag"
    return None


def problems(data: Mapping[str, Any], default_name: str) -> list[BadFile]:
    """Every problem of a character or bag file, not only the first: each key at fault is
    noted and set aside, and the rest checked again, until nothing more is found (or a
    problem leaves nothing to check beyond it)."""
    kind = kind_of(data)
    found: list[BadFile] = []
    masked = _copy(data)
    for _ in range(64):
        try:
            if kind == "bag":
                bag(masked)
            else:
                character(masked, default_name)
            break
        except BadFile as problem:
            if any(p.key == problem.key and p.message == problem.message for p in found):
                break
            found.append(problem)
            if not _set_aside(masked, problem.key):
                break
    return found


def _set_aside(data: dict[str, Any], key: str | None) -> bool:
    """Put a harmless value where the problem was, so the check can go on past it."""
    stand_ins = {"xp": 0, "name": "x"}
    if key in stand_ins:
        data[key] = stand_ins[key]
        return True
    if key is None or "." not in key:
        return False  # a whole table or the system at fault: nothing beyond it to check
    table, _, name = key.partition(".")
    inner = data.get(table)
    if not isinstance(inner, dict) or name not in inner:
        return False
    if table == "traits" and data.get("system") == "clockworx":
        score = inner[name]
        if isinstance(score, int) and not isinstance(score, bool) and 1 <= score <= 6:
            inner.pop(name)  # a good score: the name is at fault (empty, or twice)
        else:
            inner[name] = 1
    elif table == "traits":
        inner.pop(name)
        if name.casefold() in {"red", "yellow", "blue", "orange", "green", "purple"}:
            inner[name.casefold()] = [f"\0{len(data)}.{name}"]  # a unique stand-in name
    elif isinstance(inner.get(name), int) and not isinstance(inner[name], bool) and \
            inner[name] >= 0:
        inner.pop(name)  # a count that was fine: the key itself is unknown
    else:
        inner[name] = 0
    return True


def _copy(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return list(data)
    return data


def character(data: Mapping[str, Any], default_name: str) -> Character:
    if "system" not in data and "bag" in data:
        raise BadFile("is a bag file, not a character; name a character's file here",
                      key="bag")
    system = _system(data.get("system"))
    name = data.get("name", default_name)
    if not isinstance(name, str) or not name.strip():
        raise BadFile("name must be a non-empty string", key="name")
    _as_bad_file(lambda: traitnames.shown_as(name, "name"))
    traits = _table(data, "traits")
    match system:
        case "clockworx":
            return _clock_character(data, name, traits)
        case "colorwheel":
            return _wheel_character(data, name, traits)
        case _:
            assert_never(system)


def _system(value: object) -> System:
    if value is None:
        raise BadFile('a character needs a system key: system = "clockworx" or "colorwheel"',
                      key="system")
    if value not in SYSTEMS:
        raise BadFile(f'unknown system {shown(value)}; use "clockworx" or "colorwheel"',
                      key="system")
    return value


def _clock_character(data: Mapping[str, Any], name: str,
                     traits: Mapping[str, Any]) -> ClockCharacter:
    xp = _count(data, "xp", "xp")
    for trait, score in traits.items():
        if not _is_int(score):
            raise BadFile(f"the score of {trait!r} must be a whole number from 1 to 6, not "
                          f"{shown(score)}", key=f"traits.{trait}")
    _as_bad_file(lambda: clockworx.check_traits(traits, creating=False))
    return ClockCharacter(name, dict(traits), xp)


def _wheel_character(data: Mapping[str, Any], name: str,
                     traits: Mapping[str, Any]) -> WheelCharacter:
    from cwx import colorwheel
    from cwx.colorwheel import Luck

    by_colour: dict[str, tuple[str, ...]] = {}
    keys: dict[str, str] = {}
    for key, names in traits.items():
        colour = key.casefold()
        if colour not in colorwheel.COLOURS:
            raise BadFile(f"{key!r} is not a colour of the wheel; use "
                          f"{', '.join(colorwheel.COLOURS)}", key=f"traits.{key}")
        if colour in keys:
            raise BadFile(f"colour {colour} appears twice ({keys[colour]!r} and {key!r})",
                          key=f"traits.{key}")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise BadFile(f"should be a list of trait names, like {colour} = [\"Strong\"]",
                          key=f"traits.{key}")
        by_colour[colour], keys[colour] = tuple(names), key
    _as_bad_file(lambda: colorwheel.check_traits(by_colour, creating=False))
    ordered = {colour: by_colour[colour] for colour in colorwheel.COLOURS}
    luck = _optional_table(data, "luck")
    held = Luck(_count(luck, "white", "luck.white"), _count(luck, "black", "luck.black"))
    _known(luck, ("white", "black"), "luck")
    return WheelCharacter(name, ordered, held, keys)


def bag(data: Mapping[str, Any]) -> BagSheet:
    from cwx import colorwheel
    from cwx.colorwheel import Bag, Luck

    if "system" in data:
        raise BadFile("this is a character file (it has a system key), not a bag", key="system")
    dice = _table(data, "bag")
    _known(dice, colorwheel.DICE, "bag")
    reserve = _optional_table(data, "reserve")
    _known(reserve, ("white", "black"), "reserve")
    counts = {die: _count(dice, die, f"bag.{die}") for die in colorwheel.DICE}
    spare = Luck(_count(reserve, "white", "reserve.white"),
                 _count(reserve, "black", "reserve.black"))
    return BagSheet(Bag(**counts), spare)


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    if value is None:
        raise BadFile(f"the [{key}] table is missing", key=key)
    if not isinstance(value, dict):
        raise BadFile(f"{key} must be a table, like [{key}] on a line of its own", key=key)
    return value


def _optional_table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    return _table(data, key) if key in data else {}


def _count(data: Mapping[str, Any], key: str, where: str) -> int:
    """A number of dice or points: a whole number from 0, absent meaning 0."""
    value = data.get(key, 0)
    if not _is_int(value) or value < 0:
        raise BadFile(f"must be a whole number 0 or more, not {shown(value)}", key=where)
    if value > LARGEST:
        raise BadFile(f"is larger than a TOML integer can be ({LARGEST})", key=where)
    return int(value)


def _known(table: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in table:
        if key not in allowed:
            raise BadFile(f"unknown key {key!r} in [{where}]; it may hold {', '.join(allowed)}",
                          key=f"{where}.{key}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _as_bad_file(check: Any) -> None:
    """Run a rules check, reporting its complaint as a problem in the file."""
    try:
        check()
    except BadValue as error:
        raise BadFile(error.message, key=error.key or "traits") from None


def new_character(system: str, name: str, pairs: list[tuple[str, str]]) -> Character:
    """A character as created on the command line (C1, W2), checked as creation requires."""
    folded = system.strip().casefold()
    if folded not in SYSTEMS:
        from cwx.hints import did_you_mean

        raise BadValue(f"unknown system {shown(system)}{did_you_mean(system, SYSTEMS)}; use "
                       "clockworx or colorwheel")
    if not name.strip():
        raise BadValue("the character needs a name: give --name, or a file name before .toml")
    traitnames.shown_as(name, "name")
    match folded:
        case "clockworx":
            return _new_clock_character(name, pairs)
        case "colorwheel":
            return _new_wheel_character(name, pairs)
        case _:
            assert_never(folded)


def _new_clock_character(name: str, pairs: list[tuple[str, str]]) -> ClockCharacter:
    traits: dict[str, int] = {}
    for trait, score in pairs:
        digits = score.strip()
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 2:
            raise BadValue(f"--trait {trait}={score}: the score must be a whole number 1–6")
        if trait.strip() in traits:
            raise BadValue(f"--trait {trait}: the trait is named twice")
        traits[trait.strip()] = int(digits)
    clockworx.check_traits(traits, creating=True)
    return ClockCharacter(name, traits, 0)


def _new_wheel_character(name: str, pairs: list[tuple[str, str]]) -> WheelCharacter:
    from cwx import colorwheel
    from cwx.colorwheel import Luck

    by_colour: dict[str, list[str]] = {}
    for colour, trait in pairs:
        by_colour.setdefault(colorwheel.colour_named(colour), []).append(trait.strip())
    colorwheel.check_traits(by_colour, creating=True)
    ordered = {colour: tuple(by_colour[colour]) for colour in colorwheel.COLOURS}
    return WheelCharacter(name, ordered, Luck(), {c: c for c in colorwheel.COLOURS})


def unspent(sheet: Character) -> int | None:
    """Creation points left unspent (C1), for a system that has a budget."""
    match sheet:
        case ClockCharacter():
            return clockworx.unspent(sheet.traits)
        case WheelCharacter():
            return None
        case _:
            assert_never(sheet)


def data_of(sheet: Character | BagSheet) -> dict[str, Any]:
    """The plain data a file for `sheet` holds (what its template means)."""
    match sheet:
        case BagSheet():
            return {"bag": dict(zip(_DICE, sheet.bag, strict=True)),
                    "reserve": {"white": sheet.reserve.white, "black": sheet.reserve.black}}
        case ClockCharacter():
            return {"name": sheet.name, "system": sheet.system, "xp": sheet.xp,
                    "traits": dict(sheet.traits)}
        case WheelCharacter():
            return {"name": sheet.name, "system": sheet.system,
                    "traits": {sheet.colour_keys.get(colour, colour): list(names)
                               for colour, names in sheet.traits.items()},
                    "luck": {"white": sheet.luck.white, "black": sheet.luck.black}}
        case _:
            assert_never(sheet)


# The fields of colorwheel.Bag, in order: spelled here so that a ClockWorx file's data is
# built without importing the Color Wheel's rules.
_DICE = ("red", "yellow", "blue", "white", "black")


def edits(before: Character | BagSheet, after: Character | BagSheet) -> list[Edit]:
    """The keys of a file that change from one sheet of it to the next, the one way every
    move writes its file: only what moved is written, so an untouched key is never added
    or rewritten. A trait that is gone is a key removed (None)."""
    old, new = _flat(data_of(before)), _flat(data_of(after))
    return [(key, new.get(key)) for key in [*old, *(k for k in new if k not in old)]
            if old.get(key) != new.get(key)]


def _flat(data: Mapping[str, Any]) -> dict[tuple[str, ...], Any]:
    """(table, key) -> value for the tables cwx writes, (key,) -> value at the top."""
    flat: dict[tuple[str, ...], Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            flat.update({(key, inner): item for inner, item in value.items()})
        else:
            flat[(key,)] = value
    return flat
