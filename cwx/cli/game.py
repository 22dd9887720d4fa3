"""`cwx game`: settle a character's luck at the end of the game (Color Wheel)."""

from cwx.cli.common import BagFile, CharFile, group
from cwx.cli.output import JsonFlag, emit

app = group("game", "Color Wheel: the end of the game.")


@app.command("end")
def end(char: CharFile, bag: BagFile, json: JsonFlag = False) -> None:
    """Settle luck: blacks cancel whites one for one, then every black goes to the reserve.

    Example: cwx game end --char sue.toml --bag bag.toml
    """
    from cwx import colorwheel
    from cwx.cli import views
    from cwx.cli.common import changing, record, save_table, wheel_table

    with changing("game end", [char, bag], journal_beside=char) as change:
        sheet, _, table = wheel_table(change, char, bag)
        after = colorwheel.settle(table)
        save_table(change, char, bag, table, after)
        removed = {"white": table.held.white - after.held.white, "black": table.held.black}
        result = {"luck": views.luck_json(after.held), "removed": removed}
        record(change, sheet.name, char, result, bag=bag)

    def text() -> str:
        lines = [f"End of the game for {sheet.name}: {removed['black']} black and "
                 f"{removed['white']} white go back to the reserve.",
                 f"  luck  {views.luck_text(after.held)}"]
        if after.held.white >= 3:
            lines.append("  Whites can be traded for new traits: cwx wheel buy")
        return "\n".join(lines)

    emit(json, result, text)
