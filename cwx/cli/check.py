"""`cwx check`: validate a campaign folder (and serve as a git pre-commit hook)."""

from typing import Annotated, Any

import typer

from cwx.cli.output import JsonFlag, emit

app = typer.Typer(name="check", add_completion=False)


@app.command("check")
def check(
    paths: Annotated[list[str] | None, typer.Argument(
        help="Folders (searched below) or files [default: the current folder].",
        show_default=False)] = None,
    json: JsonFlag = False,
) -> None:
    """Validate every character and bag file, and every journal; exit 2 naming each problem.

    Example: cwx check campaign/
    """
    import os

    from cwx import files
    from cwx.errors import CwxError

    tomls, journals = files.campaign_files(paths or ["."])
    problems: list[CwxError] = []
    kinds: dict[str, str] = {}
    for path in tomls:
        try:
            kinds[path] = files.check_file(path)
        except CwxError as error:
            problems.append(error)
    for path in journals:
        try:
            files.read_journal(os.path.dirname(path) or ".")
            kinds[path] = "journal"
        except CwxError as error:
            problems.append(error)
    checked = len(tomls) + len(journals)
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
            lines.append(f"Checked {checked} files: {len(kinds)} valid, "
                         f"{len(problems)} with problems.")
        return "\n".join(lines)

    emit(json, result, text)
    if problems:
        raise typer.Exit(2)
