"""How values read for people, whatever the system (a system's own views are in its
entry, cwx/systems/)."""

from __future__ import annotations


def value_text(value: object) -> str:
    """A value a file key held, for a line of text: – for missing, a list as its items."""
    if value is None:
        return "–"
    if isinstance(value, list):
        more = f", and {len(value) - 10} more" if len(value) > 10 else ""
        return ", ".join(map(value_text, value[:10])) + more or "[]"
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        from cwx.base.errors import shown

        return shown(value)
    from cwx.journal.lines import dumps

    return dumps(value)
