"""Names that look alike (cwx/base/lookalike.py): a newcomer's first key for a name that
reads as one at the table needs a GM (docs/rules.md, "Signed turns")."""

from __future__ import annotations

import pytest

from cwx.base import lookalike


@pytest.mark.parametrize(("name", "table", "found"), [
    ("V\u0456c", {"vic", "mallory"}, "vic"),  # a Cyrillic і
    ("\u0412ob", {"bob"}, "bob"),  # a Cyrillic capital В
    ("\u0391lice", {"alice"}, "alice"),  # a Greek capital Α
    ("AIice", {"alice"}, "alice"),  # a capital I for an l
    ("Zo\u200be", {"zoe"}, "zoe"),  # an invisible space inside
    ("\uff36ic", {"vic"}, "vic"),  # a fullwidth V (NFKC)
    ("\u0474ic", {"vic"}, "vic"),  # a Cyrillic capital izhitsa
    ("Vic\u2800", {"vic"}, "vic"),  # a braille blank (a symbol that prints nothing)
    ("Vic\u3164", {"vic"}, "vic"),  # a Hangul filler (a letter that prints nothing)
    ("V\uffa0ic", {"vic"}, "vic"),  # a halfwidth one inside
    ("Vi\u034fc", {"vic"}, "vic"),  # a combining grapheme joiner
    ("Vic\U000e0041", {"vic"}, "vic"),  # a tag letter
    ("Jos\u00e9", {"jose"}, None),  # a letter of its own, not a blank
    ("Vic", {"vic"}, None),  # the same name, whatever its case, is no look-alike
    (" vic ", {"Vic"}, None),
    ("Zed", {"vic", "zoe"}, None),
    ("Eve", {"eva"}, None),
])
def test_a_name_that_reads_as_another_is_found(name: str, table: set[str],
                                               found: str | None) -> None:
    assert lookalike.like(name, table) == found


def test_a_look_alike_is_said_with_the_code_point_that_tells_it_apart() -> None:
    assert lookalike.said("V\u0456c") == "V\u0456c (its \u0456 is U+0456)"
    assert lookalike.said("Vic") == "Vic"
