"""`cwx schema`: the JSON Schema of a campaign file, for editors."""

import json
from typing import Annotated

import typer

from cwx.base.errors import BadValue
from cwx.systems.schemas import schemas

app = typer.Typer(name="schema", add_completion=False)


@app.command("schema")
def schema(
    kind: Annotated[str, typer.Argument(metavar="KIND", help="character or bag.",
                                        show_default=False,
                                        autocompletion=lambda: ["character", "bag"])],
) -> None:
    """Print the JSON Schema of a character or bag file.

    It is JSON already: no --json.

    Example: cwx schema character > character.schema.json
    """
    build = schemas().get(kind.strip().casefold())
    if build is None:
        raise BadValue(f"{kind!r} is not a kind of file; use character or bag")
    print(json.dumps(build(), indent=2))
