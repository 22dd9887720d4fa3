"""Color Wheel characters (docs/rules.md W1–W9): their sheet, file, schema and views, the
ledger's rules for their keys, and the journal's events of their commands. The bag they
draw from is a kind of its own (systems/bag.py)."""

from __future__ import annotations

from collections.abc import Mapping

from cwx.base.errors import BadFile, BadValue, RuleForbids
from cwx.base.ink import paint
from cwx.base.record import Record
from cwx.rules import colorwheel
from cwx.rules.colorwheel import COLOURS, Luck
from cwx.systems.parts import (
    PLAIN,
    EventKind,
    Replay,
    Rule,
    as_bad_file,
    before,
    character_name,
    count,
    count_set_aside,
    known,
    optional_table,
    table,
)
from cwx.toml.tomledit import toml_string

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any, Final

    from cwx.systems.results import Created, Dice, Drawn, Settled, Traded, Turned, WheelSheet
    from cwx.systems.results import Luck as LuckJson

NAME: Final = "colorwheel"
TITLE = "Color Wheel"
CHARACTER = True
TABLES: tuple[str, ...] = ("traits", "luck")
LEDGER: tuple[tuple[str, ...], tuple[str, ...]] = (("name", "system"), ("traits", "luck"))


class WheelCharacter(Record):
    """A Color Wheel character as its file says."""

    name: str
    traits: Mapping[str, tuple[str, ...]]  # by colour, in wheel order
    luck: Luck
    colour_keys: Mapping[str, str]  # colour -> the key as the file spells it
    system: str = NAME

    @property
    def kind(self) -> str:
        """The entry of its kind of file (cwx/systems/)."""
        return NAME


# ---------------------------------------------------------------- the file


def read(data: Mapping[str, Any], name: str) -> WheelCharacter:
    own = character_name(data, name)
    by_colour: dict[str, tuple[str, ...]] = {}
    keys: dict[str, str] = {}
    for key, names in table(data, "traits").items():
        colour = key.casefold()
        if colour not in COLOURS:
            raise BadFile(f"{key!r} is not a colour of the wheel; use {', '.join(COLOURS)}",
                          key=f"traits.{key}")
        if colour in keys:
            raise BadFile(f"colour {colour} appears twice ({keys[colour]!r} and {key!r})",
                          key=f"traits.{key}")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise BadFile(f"should be a list of trait names, like {colour} = [\"Strong\"]",
                          key=f"traits.{key}")
        by_colour[colour], keys[colour] = tuple(names), key
    as_bad_file(lambda: colorwheel.check_traits(by_colour, creating=False))
    luck = optional_table(data, "luck")
    held = Luck(count(luck, "white", "luck.white"), count(luck, "black", "luck.black"))
    known(luck, Luck._fields, "luck")
    return WheelCharacter(own, {colour: by_colour[colour] for colour in COLOURS}, held, keys)


def new(name: str, pairs: list[tuple[str, str]]) -> WheelCharacter:
    """A character as `char new --trait COLOUR=NAME` makes it: one trait a colour (W2)."""
    by_colour: dict[str, list[str]] = {}
    for colour, trait in pairs:
        by_colour.setdefault(colorwheel.colour_named(colour), []).append(trait.strip())
    colorwheel.check_traits(by_colour, creating=True)
    ordered = {colour: tuple(by_colour[colour]) for colour in COLOURS}
    return WheelCharacter(name, ordered, Luck(), {c: c for c in COLOURS})


def data_of(sheet: WheelCharacter) -> dict[str, Any]:
    return {"name": sheet.name, "system": sheet.system,
            "traits": {sheet.colour_keys.get(colour, colour): list(names)
                       for colour, names in sheet.traits.items()},
            "luck": {"white": sheet.luck.white, "black": sheet.luck.black}}


_STAND_IN = "set aside by cwx check "


def set_aside(data: dict[str, Any], key: str) -> bool:
    table_name, _, name = key.partition(".")
    inner = data.get(table_name)
    if not isinstance(inner, dict) or name not in inner:
        return False
    if table_name == "traits":
        inner.pop(name)
        colour = name.casefold()
        if colour in COLOURS and colour not in inner:  # never over the colour's own list
            # A stand-in name the rules take, and no trait of the sheet's, ignoring case.
            stand_ins = sum(1 for names in inner.values() if isinstance(names, list)
                            for n in names if isinstance(n, str) and n.startswith(_STAND_IN))
            inner[colour] = [f"{_STAND_IN}{stand_ins + 1}"]
    else:
        count_set_aside(inner, name)
    return True


def template(sheet: WheelCharacter, schema: str | None) -> str:
    lines = [
        f"# {sheet.name}, a Color Wheel character. Edit freely: cwx keeps your comments.",
        f"name = {toml_string(sheet.name)}",
        'system = "colorwheel"',
        "",
        "[traits]           # trait names on each colour of the wheel",
        *(f"{colour} = [{', '.join(toml_string(n) for n in names)}]"
          for colour, names in sheet.traits.items()),
        "",
        "[luck]             # dice the character holds",
        f"white = {sheet.luck.white}",
        f"black = {sheet.luck.black}",
    ]
    return (f"#:schema {schema}\n" if schema else "") + "\n".join(lines) + "\n"


def schema() -> dict[str, Any]:
    from cwx.systems.fragments import A_NAME, LUCK, any_case

    any_colour = f"^(?:{'|'.join(map(any_case, COLOURS))})$"
    traits = {
        "type": "object",
        "description": "Trait names on each colour of the wheel: every colour once, "
                       "named in any case.",
        "patternProperties": {f"^{any_case(colour)}$": {
            "type": "array", "items": A_NAME, "minItems": 1} for colour in COLOURS},
        "additionalProperties": False,
        # Every colour once: a colour no key names in any case is required (by its own
        # name), and keys that are all colours are no more than the colours.
        "allOf": [
            *({"if": {"propertyNames": {"not": {"pattern": f"^{any_case(colour)}$"}}},
               "then": {"required": [colour]}} for colour in COLOURS),
            {"if": {"propertyNames": {"pattern": any_colour}},
             "then": {"maxProperties": len(COLOURS)}},
        ],
    }
    return {"required": ["traits"], "properties": {"traits": traits, "luck": LUCK}}


def rule(key: str) -> Rule:
    if key in ("luck.white", "luck.black"):
        return Rule(conserved=True)
    if key.startswith("luck."):
        return Rule()
    return PLAIN  # the name, the system, a colour's list of traits


# ---------------------------------------------------------------- views


def as_json(sheet: WheelCharacter) -> WheelSheet:
    # The traits as the file has them: its own spelling and order of the colours.
    return {"name": sheet.name, "system": NAME,
            "traits": {key: list(sheet.traits[colour])
                       for colour, key in sheet.colour_keys.items()},
            "luck": luck_json(sheet.luck)}


def as_text(sheet: WheelCharacter, on: bool) -> str:
    rows = [f"{paint(sheet.name, 'bold', on)} · Color Wheel"]
    for colour, names in sheet.traits.items():
        rows.append(f"  {paint('●', colour, on)} {colour:<7} {', '.join(names)}")
    rows.append(f"  luck      {luck_text(sheet.luck, on)}")
    return "\n".join(rows)


def in_party(sheet: WheelCharacter, on: bool) -> str:
    traits = " · ".join(f"{paint(colour, colour, on)} {', '.join(names)}"
                        for colour, names in sheet.traits.items())
    return f"{paint(sheet.name, 'bold', on)} · Color Wheel · {luck_text(sheet.luck, on)}\n" \
           f"  {traits}"


def created(sheet: WheelCharacter) -> Created:
    return {}


def created_text(sheet: WheelCharacter) -> str:
    return ""


def trait_names(sheet: WheelCharacter) -> list[str]:
    return [name for names in sheet.traits.values() for name in names]


def traits_drawn_for(data: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    traits = data.get("traits")
    return {colour: _few(held) for colour, held in traits.items()
            if colour in COLOURS} if isinstance(traits, dict) else {}


def drawn_traits_changed(key: str, value: Any) -> tuple[str, tuple[str, ...]] | None:
    colour = key.removeprefix("traits.")
    return (colour, _few(value)) if colour != key and colour in COLOURS else None


def _few(held: object) -> tuple[str, ...]:
    """A colour's traits as a recap names them: a few, each cut short (a file is input)."""
    names = held[:4] if isinstance(held, list) else [held] if isinstance(held, str) else []
    return tuple(str(name)[:40] for name in names)


def earned(sheet: WheelCharacter) -> str | None:
    """Luck held, and traits traded for whites (more than creation's one a colour, W2)."""
    said = []
    if sheet.luck.white or sheet.luck.black:
        said.append(f"{sheet.luck.white} white and {sheet.luck.black} black dice held")
    traded = [colour for colour, names in sheet.traits.items() if len(names) > 1]
    if traded:
        said.append(f"traits traded for on {', '.join(traded)}")
    return " and ".join(said) or None


def luck_json(luck: Luck) -> LuckJson:
    return {"white": luck.white, "black": luck.black}


def bag_json(bag: colorwheel.Bag) -> Dice:
    return {"red": bag.red, "yellow": bag.yellow, "blue": bag.blue, "white": bag.white,
            "black": bag.black}  # colorwheel.DICE's order


def dice(die: str, number: int, on: bool) -> str:
    """`number` dice of one colour as a row of pips, coloured when colour is on."""
    # Without colour a white die is an open pip: a filled one would read as black.
    pip = "○" if die == "white" and not on else "●"
    if number > 12:
        return f"{paint(pip, die, on)}×{number}"
    return paint(pip * number, die, on) if number else "–"


def luck_text(luck: Luck, on: bool) -> str:
    return (f"white {dice('white', luck.white, on)} {luck.white}   "
            f"black {dice('black', luck.black, on)} {luck.black}")


def drawn(draw: colorwheel.Draw) -> Drawn:
    """A draw: the journal's result, and --json's (SPEC section 4)."""
    return {"color": draw.colour, "draws": list(draw.draws), "success": draw.success,
            "cancelled": draw.cancelled, "white_spent": draw.white_spent,
            "luck": luck_json(draw.after.held), "bag": bag_json(draw.after.bag)}


def draw_text(draw: colorwheel.Draw, who: str, on: bool) -> str:
    """A draw for people."""
    drawn_dice = " then ".join(paint(die, die, on) for die in draw.draws)
    verdict = paint("Success.", "good", on) if draw.success else paint("Failure.", "bad", on)
    notes = []
    if draw.draws[:-1]:  # every die before the last was kept
        notes.append(f"kept {', '.join(draw.draws[:-1])}")
    if draw.cancelled:
        notes.append("a held black cancelled the white")
    if draw.white_spent:
        notes.append("spent a white to succeed")
    note = f" ({'; '.join(notes)})" if notes else ""
    return (f"{who} draws for {paint(draw.colour, draw.colour, on)}: {drawn_dice}. "
            f"{verdict}{note}\n  luck  {luck_text(draw.after.held, on)}")


def settled(settlement: colorwheel.Settlement, draws: list[str]) -> Settled:
    """A game's end, settling the draws of the game (their ids): the journal's result, and
    --json's."""
    return {"luck": luck_json(settlement.table.held), "removed": luck_json(settlement.removed),
            "game": draws}


def settlement_text(who: str, settlement: colorwheel.Settlement, on: bool) -> str:
    from cwx.base.ink import plural

    held, removed = settlement.table.held, settlement.removed
    lines = [f"End of the game for {who}: {plural(removed.black, 'black')} and "
             f"{plural(removed.white, 'white')} go back to the reserve.",
             f"  luck  {luck_text(held, on)}"]
    if held.white >= min(colorwheel.TRADE_COST.values()):
        lines.append("  Whites can be traded for new traits: cwx wheel buy")
    return "\n".join(lines)


def traded(trade: colorwheel.Trade) -> Traded:
    """Whites traded for a trait: the journal's result, and --json's."""
    return {"color": trade.colour, "trait": trade.trait, "cost": trade.cost,
            "luck": luck_json(trade.table.held)}


def turned(action: Any, turn: colorwheel.Turn, after: colorwheel.Table) -> Turned:
    """Luck turning the last draw (recent.Action): the journal's result, and --json's."""
    result: Turned = {"turns": action.event.id, "success": turn == "spend",
                              "luck": luck_json(after.held)}
    # It was turned before, and that undone: said for the table's record and --json. The
    # ledger no longer reads it (journal.Turns: an undone turn pre-empts nothing, whoever
    # saw it undone).
    if action.undone_turns:
        result["after_undone"] = list(action.undone_turns)
    return result


def last_action(action: Any) -> colorwheel.LastAction | None:
    """A character's last action in the journal (recent.Action), as the rules see it."""
    if action is None:
        return None
    event = action.event
    return colorwheel.LastAction(event.command, event.command == DRAW, event.command == END,
                                 bool(event.result.get("success")), action.turned)


# ---------------------------------------------------------------- the journal's events

DRAW, END = "bag draw", "game end"  # this system's events that luck and the end look at


def _drew(result: Mapping[str, Any]) -> str | None:
    """The action's colour (or trait) and the dice drawn, in order."""
    detail = result.get("trait") or result.get("color")
    draws = result.get("draws")
    if isinstance(draws, list) and draws:
        drew = f"drew {', '.join(map(str, draws))}"
        detail = f"{detail}; {drew}" if detail else drew
    return detail


def _drawn(result: Mapping[str, Any]) -> str | None:
    if "success" not in result:
        return None
    word = "success" if result["success"] else "failure"
    if result.get("cancelled"):
        word += ", white cancelled"
    if result.get("white_spent"):
        word += ", white spent"
    return word


def _settling(result: Mapping[str, Any]) -> str | None:
    """The game's draws an end settles, counted (a line from before ends named them: none
    said)."""
    draws = result.get("game")
    if not isinstance(draws, list) or not draws:
        return None
    return f"after {len(draws)} draw{'' if len(draws) == 1 else 's'}"


def _turned(result: Mapping[str, Any]) -> str:
    return f"turned to {'success' if result.get('success') else 'failure'}"


# ---------------------------------------------------------------- re-played by check

_MOST_DRAWN = 10_000  # dice of one action that check re-plays: no table keeps so many
_NO_TABLE = "records no dice the rules can re-play (a line cwx never wrote)"


def _table(event: Any) -> colorwheel.Table | None:
    """The table a move started from, as its line says: each changed key's `from`; a key
    it left alone holds what its result says after (the bag, the character's luck), or for
    the reserve, which no result records, nothing: a reserve left alone gave no die, as
    an empty one does."""
    result, bag = event.result, _bag_of(event)
    was = {(change.file, change.key): change.before for change in event.changes}
    after_luck, after_bag = result.get("luck"), result.get("bag")
    luck_after = after_luck if isinstance(after_luck, dict) else {}
    bag_after = after_bag if isinstance(after_bag, dict) else {}
    counts: list[Any] = [was.get((bag, key), bag_after.get(die, 0))
              for die, key in zip(colorwheel.DICE, _BAG_KEYS, strict=True)]
    luck: list[Any] = [was.get((event.file, key), luck_after.get(die, 0))
            for die, key in zip(Luck._fields, _LUCK_KEYS, strict=True)]
    spare: list[Any] = [was.get((bag, key), 0) for key in _RESERVE_KEYS]
    if not all(type(n) is int and n >= 0 for n in (*counts, *luck, *spare)):
        return None
    return colorwheel.Table(colorwheel.Bag(*counts), Luck(*spare), Luck(*luck))


def _bag_of(event: Any) -> Any:
    """The bag a move drew from: its line's `bag`, or (a line of the first journal, which
    names it only when known) the file whose bag or reserve it changes."""
    if event.bag is not None:
        return event.bag
    return next((change.file for change in event.changes if change.key is not None and
                 change.key.startswith(("bag.", "reserve."))), None)


_BAG_KEYS = tuple(f"bag.{die}" for die in colorwheel.DICE)
_LUCK_KEYS = tuple(f"luck.{die}" for die in Luck._fields)
_RESERVE_KEYS = tuple(f"reserve.{die}" for die in Luck._fields)


def _moved(event: Any, start: colorwheel.Table,
           end: colorwheel.Table) -> dict[tuple[str, str], tuple[Any, Any]]:
    """The keys a move changes, from the table it started from to the one it left."""
    moved: dict[tuple[str, str], tuple[Any, Any]] = {}
    bag = _bag_of(event)
    for file, part, was, now, dice_ in (
            (bag, "bag", start.bag, end.bag, colorwheel.DICE),
            (bag, "reserve", start.reserve, end.reserve, Luck._fields),
            (event.file, "luck", start.held, end.held, Luck._fields)):
        for die in dice_:
            if getattr(was, die) != getattr(now, die):
                moved[(file, f"{part}.{die}")] = (getattr(was, die), getattr(now, die))
    return moved


def replay_draw(event: Any) -> Replay:
    """W4, W5: the recorded dice drawn again from the table the draw started from, each
    die before the last kept, a white spent if the line says so."""
    result = event.result
    draws, colour = result.get("draws"), result.get("color")
    if not isinstance(draws, list) or not draws or not isinstance(colour, str) or \
            not all(isinstance(die, str) for die in draws) or (start := _table(event)) is None:
        return Replay(refused=_NO_TABLE)
    if len(draws) > _MOST_DRAWN:  # each die a step: a forged line of millions costs seconds
        return Replay(refused=f"records {len(draws)} dice drawn in one action, more than "
                              f"check re-plays ({_MOST_DRAWN})")
    spent = result.get("white_spent") is True
    try:
        dice_ = colorwheel.Recorded(draws)
        played = colorwheel.draw(start, colour, dice_,
                                 lambda question, table: dice_.used < len(dice_.dice),
                                 spend_white=spent)
        dice_.check_all_used(cancelled=played.cancelled)
    except (BadValue, RuleForbids) as error:
        return Replay(refused=f"the rules refuse it: {error.message}")
    figures: dict[str, Any] = {"success": played.success, "cancelled": played.cancelled,
                               "white_spent": played.white_spent}
    return Replay(_moved(event, start, played.after), figures)


def replay_turn(event: Any) -> Replay:
    """W5, W6: a white spent (a black, for the GM's curse) goes to the reserve."""
    start = _table(event)
    if start is None:
        return Replay(refused=_NO_TABLE)
    spend = event.command == "luck spend"
    try:
        end = colorwheel.spend(start) if spend else colorwheel.curse(start)
    except (BadValue, RuleForbids) as error:
        return Replay(refused=f"the rules refuse it: {error.message}")
    return Replay(_moved(event, start, end), {"success": spend})


def replay_end(event: Any) -> Replay:
    """W7: blacks cancel whites one for one, and every black goes to the reserve. The draws
    it settles are named by id (check compares them with the journal's draws)."""
    start = _table(event)
    if start is None:
        return Replay(refused=_NO_TABLE)
    draws = event.result.get("game", [])
    if not isinstance(draws, list) or not all(isinstance(draw, str) for draw in draws):
        return Replay(refused="names the draws it settles by no ids (a line cwx never wrote)")
    settled_ = colorwheel.settle(start)
    return Replay(_moved(event, start, settled_.table), {"removed": luck_json(settled_.removed)})


def replay_buy(event: Any) -> Replay:
    """W8: 3 whites for a primary trait, 5 for a secondary, to the reserve."""
    result = event.result
    colour, trait = result.get("color"), result.get("trait")
    if not isinstance(colour, str) or not isinstance(trait, str) or \
            (start := _table(event)) is None:
        return Replay(refused=_NO_TABLE)
    key = f"traits.{colour}"
    had = before(event, event.file, key, [])
    if not isinstance(had, list) or not all(isinstance(name, str) for name in had):
        return Replay(refused=_NO_TABLE)
    try:
        trade = colorwheel.trade(start, {colour: tuple(had)}, colour, trait)
    except (BadValue, RuleForbids) as error:
        return Replay(refused=f"the rules refuse it: {error.message}")
    moved = _moved(event, start, trade.table)
    moved[(event.file, key)] = (had, list(trade.traits[trade.colour]))
    return Replay(moved, {"cost": trade.cost})


EVENTS: Mapping[str, EventKind] = {
    DRAW: EventKind(action=True, settled=True, what=_drew, outcome=_drawn, verb="draws", replay=replay_draw),
    "luck spend": EventKind(turn=True, outcome=_turned, verb="spends a white",
                            replay=replay_turn),
    "luck curse": EventKind(turn=True, gm=True, outcome=_turned, verb="is cursed",
                            replay=replay_turn),
    END: EventKind(action=True, settles=True, verb="ends the game", what=_settling,
                   replay=replay_end),
    "wheel buy": EventKind(action=True, buys=True, what=lambda result: result.get("trait") or
                           result.get("color"), verb="buys", replay=replay_buy),
}
