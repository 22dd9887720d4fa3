"""How results look: the JSON objects scripts read and the text people read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, assert_never

from cwx import clockworx
from cwx.cli.output import colour_on, paint, plural

if TYPE_CHECKING:
    from cwx.clockworx import Advancement, ClockOutcome
    from cwx.colorwheel import Bag, Draw, Luck
    from cwx.sheets import BagSheet, Character, ClockCharacter

# The sheets and the Color Wheel's rules are imported inside the functions that need
# them: a stateless ClockWorx resolve renders through this module, and must not pay for
# building the sheets' and the Color Wheel's classes at start-up.

# ---------------------------------------------------------------- sheets


def sheet_json(sheet: Character) -> dict[str, Any]:
    from cwx.sheets import ClockCharacter, WheelCharacter

    match sheet:
        case ClockCharacter():
            return {"name": sheet.name, "system": sheet.system, "traits": dict(sheet.traits),
                    "xp": sheet.xp}
        case WheelCharacter():
            # The traits as the file has them: its own spelling and order of the colours.
            return {"name": sheet.name, "system": sheet.system,
                    "traits": {key: list(sheet.traits[colour])
                               for colour, key in sheet.colour_keys.items()},
                    "luck": luck_json(sheet.luck)}
        case _:
            assert_never(sheet)


def sheet_text(sheet: Character) -> str:
    from cwx.sheets import ClockCharacter, WheelCharacter

    on = colour_on()
    match sheet:
        case ClockCharacter():
            width = max(len(name) for name in sheet.traits)
            rows = [f"{paint(sheet.name, 'bold', on)} · ClockWorx"]
            for name, score in sheet.traits.items():
                pips = "●" * score + paint("○" * (clockworx.MAX_SCORE - score), "dim", on)
                rows.append(f"  {name:<{width}}  {pips}  {score}")
            rows.append(f"  {'experience':<{width}}  {sheet.xp}")
            rows.append(f"  next: {next_steps(sheet)}")
        case WheelCharacter():
            rows = [f"{paint(sheet.name, 'bold', on)} · Color Wheel"]
            for colour, names in sheet.traits.items():
                rows.append(f"  {paint('●', colour, on)} {colour:<7} {', '.join(names)}")
            rows.append(f"  luck      {luck_text(sheet.luck, on)}")
        case _:
            assert_never(sheet)
    return "\n".join(rows)


def party_text(party: list[Character], bag: BagSheet | None) -> str:
    """The party at a glance: a compact block a character, and the bag."""
    from cwx.sheets import ClockCharacter, WheelCharacter

    on = colour_on()
    blocks = []
    for sheet in party:
        match sheet:
            case ClockCharacter():
                traits = " · ".join(f"{name} {score}" for name, score in sheet.traits.items())
                blocks.append(f"{paint(sheet.name, 'bold', on)} · ClockWorx · {sheet.xp} xp\n"
                              f"  {traits}")
            case WheelCharacter():
                traits = " · ".join(f"{paint(colour, colour, on)} {', '.join(names)}"
                                    for colour, names in sheet.traits.items())
                blocks.append(f"{paint(sheet.name, 'bold', on)} · Color Wheel · "
                              f"{luck_text(sheet.luck, on)}\n  {traits}")
            case _:
                assert_never(sheet)
    if bag is not None:
        from cwx import colorwheel

        dice = "  ".join(f"{die} {bag.bag.of(die)}" for die in colorwheel.DICE)
        blocks.append(f"{paint('bag', 'bold', on)} · {dice} · reserve white "
                      f"{bag.reserve.white}, black {bag.reserve.black}")
    return "\n\n".join(blocks)


def value_text(value: object) -> str:
    """A value a file key held, for a line of text: – for missing, a list as its items."""
    if value is None:
        return "–"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "[]"
    if isinstance(value, str | int) and not isinstance(value, bool):
        return str(value)
    import json

    return json.dumps(value)


def unspent_text(left: int) -> str:
    return f"\n{left} of {clockworx.BUDGET} creation points left unspent."


def next_steps(sheet: ClockCharacter) -> str:
    """What experience buys next, so a player sees how far they are from it."""
    costs = [f"new trait {clockworx.NEW_TRAIT_COST}"]
    costs += [f"{name} → {score + 1} for {clockworx.raise_cost(score)}"
              for name, score in sheet.traits.items() if score < clockworx.MAX_SCORE]
    return " · ".join(costs)


# ---------------------------------------------------------------- ClockWorx


def outcome_json(outcome: ClockOutcome) -> dict[str, Any]:
    return {"target": outcome.target, "guess": outcome.guess, "distance": outcome.distance,
            "trait": outcome.trait, "score": outcome.score, "success": outcome.success,
            "critical": outcome.critical, "xp": outcome.xp}


def outcome_verdict(outcome: ClockOutcome, on: bool) -> str:
    if outcome.critical:
        word = paint("Critical success!", "good", on)
    elif outcome.success:
        word = paint("Success.", "good", on)
    else:
        word = paint("Failure.", "bad", on)
    trait = (f"{outcome.trait} {outcome.score}" if outcome.trait and outcome.score is not None
             else f"score {outcome.score}" if outcome.score is not None else "untrained")
    steps = plural(outcome.distance, "step")
    gained = f" +{outcome.xp} xp" if outcome.xp else ""
    return f"{word} Guess {outcome.guess}, target {outcome.target}: {steps} ({trait}).{gained}"


def advancement_json(step: Advancement) -> dict[str, Any]:
    return {"trait": step.trait, "score": step.score, "cost": step.cost,
            "xp_total": step.xp_total}


def advancement_text(step: Advancement) -> str:
    verb = f"New trait {step.trait} at 1" if step.new else f"{step.trait} raised to {step.score}"
    return f"{verb} for {step.cost} xp; {step.xp_total} xp left."


# ---------------------------------------------------------------- Color Wheel


def luck_json(luck: Luck) -> dict[str, int]:
    return {"white": luck.white, "black": luck.black}


def bag_json(bag: Bag) -> dict[str, int]:
    from cwx import colorwheel

    return {die: bag.of(die) for die in colorwheel.DICE}


def bag_sheet_json(sheet: BagSheet) -> dict[str, Any]:
    return {"bag": bag_json(sheet.bag), "reserve": luck_json(sheet.reserve)}


def dice(die: str, number: int, on: bool) -> str:
    """`number` dice of one colour as a row of pips, coloured when colour is on."""
    if number > 12:
        return f"{paint('●', die, on)}×{number}"
    pip = "○" if die == "white" and not on else "●"
    return paint(pip * number, die, on) if number else "–"


def luck_text(luck: Luck, on: bool | None = None) -> str:
    on = colour_on() if on is None else on
    return (f"white {dice('white', luck.white, on)} {luck.white}   "
            f"black {dice('black', luck.black, on)} {luck.black}")


def bag_text(sheet: BagSheet) -> str:
    from cwx import colorwheel

    on = colour_on()
    rows = ["bag"]
    rows += [f"  {die:<7} {dice(die, sheet.bag.of(die), on)} {sheet.bag.of(die)}"
             for die in colorwheel.DICE]
    rows.append(f"  {plural(sheet.bag.total, 'die')} in all")
    rows.append("reserve")
    rows += [f"  {die:<7} {dice(die, getattr(sheet.reserve, die), on)} "
             f"{getattr(sheet.reserve, die)}" for die in ("white", "black")]
    return "\n".join(rows)


def draw_json(result: Draw) -> dict[str, Any]:
    return {"color": result.colour, "draws": list(result.draws), "success": result.success,
            "cancelled": result.cancelled, "white_spent": result.white_spent,
            "luck": luck_json(result.after.held), "bag": bag_json(result.after.bag)}


def draw_text(result: Mapping[str, Any], who: str) -> str:
    """A draw for people, from the keys `draw_json` gives scripts."""
    from cwx.colorwheel import Luck

    on = colour_on()
    colour = result["color"]
    drawn = " then ".join(paint(die, die, on) for die in result["draws"])
    verdict = paint("Success.", "good", on) if result["success"] else paint("Failure.", "bad", on)
    notes = []
    kept = result["draws"][:-1]  # every die before the last was kept
    if kept:
        notes.append(f"kept {', '.join(kept)}")
    if result["cancelled"]:
        notes.append("a held black cancelled the white")
    if result["white_spent"]:
        notes.append("spent a white to succeed")
    note = f" ({'; '.join(notes)})" if notes else ""
    held = Luck(**result["luck"])
    return (f"{who} draws for {paint(colour, colour, on)}: {drawn}. "
            f"{verdict}{note}\n  luck  {luck_text(held, on)}")


def settlement_text(who: str, held: Luck, removed: Mapping[str, int]) -> str:
    from cwx import colorwheel

    lines = [f"End of the game for {who}: {plural(removed['black'], 'black')} and "
             f"{plural(removed['white'], 'white')} go back to the reserve.",
             f"  luck  {luck_text(held)}"]
    if held.white >= min(colorwheel.TRADE_COST.values()):
        lines.append("  Whites can be traded for new traits: cwx wheel buy")
    return "\n".join(lines)
