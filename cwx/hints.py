""""Did you mean …?": the nearest of the names a player could have meant, for errors."""

from __future__ import annotations

from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """" (did you mean 'Repair'?)" for the closest choice, ignoring case; "" for none."""
    import difflib  # only on the way to an error

    from cwx.traitnames import fold

    by_fold = {fold(choice): choice for choice in choices}
    close = difflib.get_close_matches(fold(word), list(by_fold), n=2, cutoff=0.6)
    if not close:
        return ""
    shown = " or ".join(repr(by_fold[c]) for c in close)
    return f" (did you mean {shown}?)"
