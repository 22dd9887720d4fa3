"""`cwx luck`: the GM's curse (Color Wheel)."""

from cwx.cli.common import BagFile, CharFile, group
from cwx.cli.output import JsonFlag, emit

app = group("luck", "Color Wheel: the GM's curse on a held black.")


@app.command("curse")
def curse(char: CharFile, bag: BagFile, json: JsonFlag = False) -> None:
    """Turn the character's success into a failure with one of their blacks (it goes to
    the reserve).

    Example: cwx luck curse --char sue.toml --bag bag.toml
    """
    from cwx import colorwheel
    from cwx.cli import views
    from cwx.cli.common import about, changing, record, save_table, wheel_table

    with changing("luck curse", [char, bag], journal_beside=char) as change:
        sheet, _, table = wheel_table(change, char, bag)
        with about(char):
            after = colorwheel.curse(table)
        save_table(change, char, bag, table, after)
        result = {"luck": views.luck_json(after.held)}
        record(change, sheet.name, char, result, bag=bag)
    emit(json, result, lambda: f"The GM spends one of {sheet.name}'s blacks: the success "
                               f"becomes a failure.\n  luck  {views.luck_text(after.held)}")
