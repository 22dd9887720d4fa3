"""`cwx odds`: exact chances before a risky action."""

import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated

import typer

from cwx.base.errors import BadValue
from cwx.cli.common import (
    Colour,
    KeepBlack,
    KeepWhite,
    MaybeChar,
    SpendWhite,
    complete_bags,
    complete_traits,
    group,
    here,
)
from cwx.cli.output import JsonFlag, emit
from cwx.rules import colorwheel, odds
from cwx.rules.odds import ClockOdds, WheelOdds

if TYPE_CHECKING:
    from cwx.commands._results import ClockChances, ClockChancesAll, WheelChances, WheelChancesAll

app = group("odds", "Exact odds of an action, before you risk it.")

All = Annotated[bool, typer.Option("--all", help="A table of every case.")]


@app.command("clock")
def clock(
    score: Annotated[int | None, typer.Option(
        min=1, max=6, metavar="N", help="The trait's score.", show_default="untrained")] = None,
    char: MaybeChar = None,
    trait: Annotated[str | None, typer.Option(
        "--trait", "-t", metavar="NAME", help="With --char: the trait whose score the odds are for.",
        autocompletion=complete_traits)] = None,
    all_: All = False,
    json: JsonFlag = False,
) -> None:
    """Exact odds of a ClockWorx guess, and its experience.

    Chance of success, of a critical, and expected experience against a uniform target, for
    a score, or for a character's trait read from its sheet.

    Example: cwx odds clock --char kris --trait Repair
    """
    if char is not None or trait is not None:
        if score is not None or all_:
            raise BadValue("the score comes from --char and --trait: leave out --score and --all")
        if char is None or trait is None:
            raise BadValue("odds from the sheet need both the character (--char) and the "
                           "trait (--trait)")
        score = here().score(char, trait)
    if all_:
        rows = [odds.clock(s) for s in (None, 1, 2, 3, 4, 5, 6)]
        every: ClockChancesAll = {"odds": [_clock_json(r) for r in rows]}
        emit(json, every, lambda: _clock_table(rows))
        return
    result = odds.clock(score)
    emit(json, _clock_json(result), lambda: _clock_text(result))


@app.command("wheel")
def wheel(
    colour: Colour = None,
    char: MaybeChar = None,
    trait: Annotated[str | None, typer.Option(
        "--trait", "-t", metavar="NAME", help="With --char: the trait used; the action takes its colour.",
        autocompletion=complete_traits)] = None,
    bag: Annotated[str | None, typer.Option(
        "--bag", "-b", metavar="FILE", help="Draw from this bag.", autocompletion=complete_bags,
        show_default="with --char the campaign's bag, else a new bag with 10 spare whites "
                     "and blacks")] = None,
    white: Annotated[int | None, typer.Option(
        min=0, metavar="N", help="Whites the character holds.", show_default="0, or --char's")] = None,
    black: Annotated[int | None, typer.Option(
        min=0, metavar="N", help="Blacks the character holds.", show_default="0, or --char's")] = None,
    keep_white: KeepWhite = False,
    keep_black: KeepBlack = False,
    spend_white: SpendWhite = False,
    all_: All = False,
    json: JsonFlag = False,
) -> None:
    """Exact odds of a Color Wheel draw, and the luck after it.

    Exact chance of success of one action, and the luck held after it; with --char, from the
    character's luck and the campaign's bag.

    Keeping dice: computed for up to 5000 whites and blacks that may be kept, bag and reserve
    together, up to 600 whites kept from the bag itself (5000 times the reserve's blacks),
    and up to 6,000,000 for those whites times the digits of the odds, within a second;
    refused past that, naming the bound.

    Example: cwx odds wheel --char sue --trait Athletic --keep-white
    """
    _one_way(colour, char, trait, all_, white is not None or black is not None)
    held = colorwheel.Luck(white or 0, black or 0)
    if char is None and bag is None:  # a new bag: no campaign to read (start-up)
        spare = colorwheel.DEFAULT_RESERVE
        table = colorwheel.Table(colorwheel.Bag(), colorwheel.Luck(spare, spare), held)
    else:
        table, named = here().table(char, bag=bag, trait=trait, held=held)
        colour = named or colour
    policy = odds.Policy(keep_white, keep_black, spend_white)
    if all_:
        rows = [odds.wheel(table, c, policy) for c in colorwheel.COLOURS]
        every_colour: WheelChancesAll = {"odds": [_wheel_json(r) for r in rows]}
        emit(json, every_colour, lambda: _wheel_table(rows))
        return
    result = odds.wheel(table, colour or "", policy)
    emit(json, _wheel_json(result), lambda: _wheel_text(result))


def _one_way(colour: str | None, char: str | None, trait: str | None, all_: bool,
             held: bool) -> None:
    """The options of wheel odds that go together, and those that do not."""
    if char is not None and held:
        raise BadValue("with --char the luck held is the character's: leave out --white "
                       "and --black")
    if trait is not None and char is None:
        raise BadValue("--trait needs the character (--char) whose trait it is; or say the "
                       "action's colour with --color")
    if trait is not None and colour is not None:
        raise BadValue("give the action's colour (--color) or the trait used (--trait), not "
                       "both: a trait brings its own colour")
    if all_ == (colour is not None or trait is not None):
        raise BadValue("say the action's colour with --color (or --trait with --char), or "
                       "ask for --all of them")


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.1f}%"


def _clock_json(row: ClockOdds) -> "ClockChances":
    return {"score": row.score, "p_success": float(row.p_success),
            "p_success_exact": exact_text(row.p_success), "p_critical": float(row.p_critical),
            "p_critical_exact": str(row.p_critical), "expected_xp": float(row.expected_xp),
            "expected_xp_exact": str(row.expected_xp)}


def _clock_text(row: ClockOdds) -> str:
    trait = f"score {row.score}" if row.score else "untrained"
    return (f"A guess, {trait}, against a number picked at random from 1 to 12:\n"
            f"  success   {row.p_success} ({_percent(row.p_success)})\n"
            f"  critical  {row.p_critical} ({_percent(row.p_critical)})\n"
            f"  expected experience  {row.expected_xp} ({float(row.expected_xp):.2f})")


def _clock_table(rows: list[ClockOdds]) -> str:
    lines = ["score      success          critical        expected xp"]
    for row in rows:
        lines.append(f"{row.score or 'untrained':<10} {row.p_success!s:>5} {_percent(row.p_success):>7}"
                     f"    {row.p_critical!s:>4} {_percent(row.p_critical):>6}"
                     f"    {row.expected_xp!s:>5} ({float(row.expected_xp):.2f})")
    return "\n".join(lines)


def _wheel_json(row: WheelOdds) -> "WheelChances":
    return {"color": row.colour, "p_success": float(row.p_success),
            "p_success_exact": exact_text(row.p_success),
            "expected_white": float(row.expected_white),
            "expected_white_exact": exact_text(row.expected_white),
            "expected_black": float(row.expected_black),
            "expected_black_exact": exact_text(row.expected_black),
            "policy": {"keep_white": row.policy.keep_white, "keep_black": row.policy.keep_black,
                       "spend_white": row.policy.spend_white}}


def _policy_text(row: WheelOdds) -> str:
    said = [name for name, on in (("keep whites", row.policy.keep_white),
                                  ("keep blacks", row.policy.keep_black),
                                  ("spend a white on a failure", row.policy.spend_white)) if on]
    return ", ".join(said) or "keep nothing"


def _wheel_text(row: WheelOdds) -> str:
    return (f"A {row.colour} action ({_policy_text(row)}):\n"
            f"  success  {shown(row.p_success)} ({_percent(row.p_success)})\n"
            f"  luck held afterwards, on average: white {float(row.expected_white):.3f}, "
            f"black {float(row.expected_black):.3f}")


def _wheel_table(rows: list[WheelOdds]) -> str:
    lines = [f"Every colour ({_policy_text(rows[0])}):",
             "colour   success            white after  black after  chance"]
    for row in rows:
        lines.append(f"{row.colour:<8} {shown(row.p_success):>9} {_percent(row.p_success):>7}"
                     f"    {float(row.expected_white):>9.3f}  {float(row.expected_black):>9.3f}"
                     f"  {bar(row.p_success)}")
    return "\n".join(lines)


def shown(chance: Fraction) -> str:
    """A chance's fraction as people read it: exact while it is short, else the nearest
    fraction of three digits, marked ≈ (--json gives it exact)."""
    if chance.denominator.bit_length() > 30:
        return f"≈{chance.limit_denominator(999)}"
    exact = str(chance)
    return exact if len(exact) <= 9 else f"≈{chance.limit_denominator(999)}"


def exact_text(chance: Fraction) -> str:
    """A fraction exactly, however many digits (Python refuses past 4,300 unless told; the
    limit is put back, as the journal's reader leans on it to refuse a huge number)."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return str(chance)
    finally:
        sys.set_int_max_str_digits(limit)


BAR = 20  # characters for a certainty


def bar(chance: Fraction) -> str:
    """A chance as a bar (a table reads chances faster as bars): Unicode blocks, to an
    eighth of a character, on a terminal; plain # otherwise."""
    if not sys.stdout.isatty():
        return "#" * round(chance * BAR)
    eighths = round(chance * BAR * 8)
    full, part = divmod(eighths, 8)
    return "\u2588" * full + ("" if not part else " \u258f\u258e\u258d\u258c\u258b\u258a\u2589"[part])
