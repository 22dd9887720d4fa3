"""`cwx game`: settle a character's luck at the end of the game (Color Wheel)."""

from cwx.cli.common import BagFile, CharFile, group, here
from cwx.cli.output import JsonFlag, colour_on, emit
from cwx.systems.colorwheel import settlement_text

app = group("game", "Color Wheel: the end of the game.")


@app.command("end")
def end(char: CharFile, bag: BagFile = None, json: JsonFlag = False) -> None:
    """Settle luck at the end of a game.

    Blacks cancel whites one for one, then every black goes to the reserve. A game already
    ended (or never begun) with no black held is left as it is, exit 0, so a scene may end
    every character's game and be played again.

    Example: cwx game end --char sue
    """
    done = here().end_game(char, bag=bag)
    settlement = done.settlement
    if settlement is None:
        emit(json, done.result, lambda: f"Nothing to settle for {done.who}: no black held, and "
                                        "no game played since the last end.")
        return
    emit(json, done.result, lambda: settlement_text(done.who, settlement, colour_on()))
