"""How values read for people, whatever the system (a system's own views are in its
entry, cwx/systems/)."""

from __future__ import annotations


def value_text(value: object) -> str:
    """A value a file key held, for a line of text: – for missing, a list as its items."""
    if value is None:
        return "–"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "[]"
    if isinstance(value, str | int) and not isinstance(value, bool):
        return str(value)
    from cwx.journal import dumps

    return dumps(value)
