"""Names that look alike (docs/rules.md, "Signed turns"): "Vіc" with a Cyrillic і reads as
"Vic". A newcomer's name is held to differ from every name at the table as a reader sees
it: NFKC, without the letters that print nothing (by Unicode's properties), folded, and
the common Cyrillic and Greek letters that print as Latin ones read as those (a small
table, not Unicode's whole one: no property of Python's tells which letters look alike)."""

from __future__ import annotations

import unicodedata

# After case folding: each letter as the Latin one it prints like. i, l, 1 and | all read
# as l (a capital I is an l in most fonts), 0 as o.
_AS_LATIN = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "і": "l", "ї": "l", "ј": "j",
    "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ү": "y", "ѵ": "v",
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "l", "κ": "k", "μ": "m",
    "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x",
    "ı": "l", "ɑ": "a", "ɡ": "g", "i": "l", "1": "l", "|": "l", "0": "o",
})


def skeleton(name: str) -> str:
    """How `name` reads: two names of one skeleton look alike."""
    shown = unicodedata.normalize("NFKC", name)
    return "".join(char for char in shown if not _blank(char)).casefold().translate(_AS_LATIN)


def _blank(char: str) -> bool:
    """Whether a letter prints nothing a reader sees, by Unicode's properties: spaces and
    separators (Z), controls, formats and letters not yet assigned (C), marks that sit on
    another letter (Mn, Me), and those Unicode names a blank or a filler (the Hangul
    fillers, letters that are default-ignorable; the braille blank)."""
    if char.isspace() or unicodedata.category(char)[0] in "ZC" or \
            unicodedata.category(char) in ("Mn", "Me"):
        return True
    return named_blank(char)


def named_blank(char: str) -> bool:
    """Whether Unicode names a letter a blank or a filler (the braille blank, the Hangul
    fillers): letters of no category that says they print nothing, which print nothing."""
    words = unicodedata.name(char, "").replace("-", " ").split()
    return "BLANK" in words or "FILLER" in words


def like(name: str, others: set[str] | frozenset[str] | list[str]) -> str | None:
    """The first of `others` (sorted) that `name` looks like without being it (matched as
    players are, whatever the case), or None."""
    folded, seen = name.strip().casefold(), skeleton(name)
    return next((other for other in sorted(others) if other.strip().casefold() != folded
                 and skeleton(other) == seen), None)


def said(name: str) -> str:
    """`name`, with the first letter that is not ASCII told by its code point: a reader
    sees which look-alike it is."""
    odd = next((char for char in name if not char.isascii()), None)
    return name if odd is None else f"{name} (its {odd} is U+{ord(odd):04X})"
