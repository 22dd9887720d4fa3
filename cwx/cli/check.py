"""`cwx check`: validate a campaign folder (and serve as a git pre-commit hook)."""

from typing import Annotated, Any

import typer

from cwx import campaign, durable, files, journal
from cwx.cli.output import JsonFlag, emit
from cwx.errors import CwxError

app = typer.Typer(name="check", add_completion=False)


@app.command("check")
def check(
    paths: Annotated[list[str] | None, typer.Argument(
        help="Folders (searched below) or files [default: the current folder].",
        show_default=False)] = None,
    json: JsonFlag = False,
) -> None:
    """Validate every character and bag file, every journal line, and what an interrupted
    command left; exit 2 naming each problem.

    Example: cwx check campaign/
    """
    found = campaign.files_under(paths or ["."])
    problems: list[CwxError] = []
    kinds: dict[str, str] = {}
    for path in found.tomls:
        try:
            kinds[path] = files.check_file(path)
        except CwxError as error:
            problems.append(error)
    for path in found.journals:
        bad = [CwxError(item.reason, path=path, line=item.line)
               for item in journal.read(path) if isinstance(item, journal.BadLine)]
        problems += bad
        if not bad:
            kinds[path] = "journal"
    for folder in found.folders:
        problems += [CwxError(text, path=path) for path, text in durable.inspect(folder)]
    checked = len(found.tomls) + len(found.journals)
    result: dict[str, Any] = {
        "ok": not problems,
        "checked": checked,
        "valid": [{"file": path, "kind": kind} for path, kind in kinds.items()],
        "problems": [{"file": e.path, "line": e.line, "key": e.key, "message": e.message}
                     for e in problems],
    }

    def text() -> str:
        lines = [str(error) for error in problems]
        if not checked:
            lines.append("No character, bag or journal files found.")
        else:
            lines.append(f"Checked {checked} file{'s' if checked != 1 else ''}: {len(kinds)} "
                         f"valid, {len(problems)} problem{'s' if len(problems) != 1 else ''}.")
        return "\n".join(lines)

    emit(json, result, text)
    if problems:
        raise typer.Exit(2)
