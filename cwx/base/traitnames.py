"""Trait names, as both systems keep them (docs/rules.md D3): never empty, unique
ignoring case, and matched ignoring case on the command line."""

from __future__ import annotations

from collections.abc import Iterable

from cwx.base.errors import BadValue

# The characters of a trait's or a character's name: a few words. A file is input, and
# the journal and its readers keep names (docs/rules.md D3, "Limits").
MOST = 100


def shown_as(name: str, key: str) -> None:
    """A name is shown at the table: a control character in it (a tab, an escape) is
    refused, never sent to a terminal, and so is a name longer than MOST (docs/rules.md
    D3)."""
    if len(name) > MOST:
        which = "the character's name" if key == "name" else "a trait's name"
        raise BadValue(f"{which} holds {len(name):,} characters, more than the {MOST} a name "
                       "may hold; shorten it", key=key if len(key) <= 40 else key[:37] + "...")
    if name.isprintable():
        return  # the common case, without compiling the search for the rare one
    from cwx.base.printable import control_in

    control = control_in(name)
    if control is not None:
        raise BadValue(f"names must not hold control characters ({control}); write it "
                       "without", key=key)


def new_name(name: str, key: str) -> str:
    """A trait name a player gives to buy a trait: trimmed, not empty, and printable."""
    trimmed = name.strip()
    if not trimmed:
        raise BadValue("a new trait needs a name")
    shown_as(trimmed, key)
    return trimmed


def fold(name: str) -> str:
    """A name as it is compared: ignoring case, and "ë" typed as one letter or as "e" and
    a dot above alike (Unicode's NFC: keyboards and file systems differ)."""
    name = name.strip()
    if not name.isascii():
        import unicodedata  # only for names beyond ASCII

        name = unicodedata.normalize("NFC", name)
    return name.casefold()


def find(names: Iterable[str], wanted: str) -> str | None:
    """A trait's own spelling, matching `wanted` ignoring case."""
    folded = fold(wanted)
    for own in names:
        if fold(own) == folded:
            return own
    return None


def check_names(named: Iterable[tuple[str, str]]) -> None:
    """Every (name, key in the file) names a trait once: not empty, not twice in any case."""
    seen: dict[str, str] = {}
    for name, key in named:
        if not name.strip():
            raise BadValue("trait names must not be empty", key=key)
        shown_as(name, key)
        if fold(name) in seen:
            earlier = seen[fold(name)]
            said = f"{name!r} is named twice" if earlier == name else \
                f"{name!r} repeats {earlier!r} (names are compared ignoring case)"
            raise BadValue(f"trait {said}", key=key)
        seen[fold(name)] = name
