"""`cwx log`: the campaign journal, for people or scripts."""

from typing import Annotated, Any

import typer

from cwx.cli.output import JsonFlag, emit

app = typer.Typer(name="log", add_completion=False)


@app.command("log")
def log(
    char: Annotated[str | None, typer.Option(
        help="Only this character's events, from the journal beside it.")] = None,
    last: Annotated[int | None, typer.Option(min=1, help="Only the last N events.")] = None,
    json: JsonFlag = False,
) -> None:
    """The journal of the campaign folder (the current folder, or the character's).

    Example: cwx log --char kris.toml --last 5
    """
    import os

    from cwx import files

    folder = os.path.dirname(os.path.abspath(char)) if char else "."
    events = files.read_journal(folder)
    if char:
        name = os.path.relpath(os.path.abspath(char), folder)
        events = [e for e in events if e.get("file") == name]
    if last:
        events = events[-last:]
    emit(json, {"events": events}, lambda: _table(events))


def _table(events: list[dict[str, Any]]) -> str:
    if not events:
        return "The journal is empty."
    rows = [("when", "who", "what", "outcome", "change")]
    rows += [(_when(e), str(e.get("who") or "GM"), _what(e), _outcome(e), _change(e))
             for e in events]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
                     .rstrip() for row in rows)


def _when(event: dict[str, Any]) -> str:
    return str(event.get("at", "")).replace("T", " ").removesuffix("Z")[:16]


def _what(event: dict[str, Any]) -> str:
    command = str(event.get("command", "?"))
    result = event.get("result") or {}
    detail = result.get("trait") or result.get("color")
    if command == "clock resolve":
        detail = f"{result.get('trait') or 'untrained'}, {result.get('guess')} vs " \
                 f"{result.get('target')}"
    return f"{command} ({detail})" if detail else command


def _outcome(event: dict[str, Any]) -> str:
    result = event.get("result") or {}
    if "commitment" in result and "success" not in result:
        return f"revealed {result['target']}" if "target" in result else \
            f"sealed {str(result['commitment'])[:12]}…"
    if "success" not in result:
        return "-"
    if result.get("critical"):
        return "critical"
    word = "success" if result["success"] else "failure"
    if result.get("cancelled"):
        word += ", white cancelled"
    if result.get("white_spent"):
        word += ", white spent"
    return word


def _change(event: dict[str, Any]) -> str:
    said = []
    for change in event.get("changes") or []:
        key = change.get("key")
        if key is None:
            if "text" in change:  # a secret file (the sealed number) goes unmentioned
                said.append(f"{'created' if change.get('created') else 'rewrote'} "
                            f"{change.get('file')}")
        elif key == "xp" or key.startswith(("luck.", "traits.")):
            said.append(f"{key} {_shown(change.get('from'))} → {_shown(change.get('to'))}")
    return ", ".join(said)


def _shown(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return "–" if value is None else str(value)
