"""The merge driver's rule, on plain data: whole numbers add up, lists merge as sets,
anything else three-way; and what it cannot settle, it says."""

from __future__ import annotations

from cwx import gitmerge

KRIS = {"name": "Kris", "system": "clockworx", "xp": 0,
        "traits": {"Scrounge": 3, "Repair": 3, "Tough": 5}}


def with_(data: dict[str, object], **changes: object) -> dict[str, object]:
    merged = {**data, "traits": dict(data["traits"])}  # type: ignore[call-overload]
    for key, value in changes.items():
        table, _, name = key.partition("__")
        if name:
            inner = merged[table]
            assert isinstance(inner, dict)
            if value is None:
                inner.pop(name, None)
            else:
                inner[name] = value
        elif value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def test_whole_numbers_add_up_from_the_base() -> None:
    merged = gitmerge.merge(KRIS, with_(KRIS, xp=10), with_(KRIS, xp=2), "kris")
    assert merged.clashes == [] and merged.data["xp"] == 12


def test_a_key_one_side_removed_and_the_other_left_is_removed() -> None:
    base = with_(KRIS, hp=5)
    merged = gitmerge.merge(base, with_(base, hp=None), with_(base, xp=4), "kris")
    assert merged.clashes == [] and "hp" not in merged.data and merged.data["xp"] == 4


def test_two_different_names_clash() -> None:
    merged = gitmerge.merge(KRIS, with_(KRIS, name="Kris the Bold"),
                            with_(KRIS, name="Kris Smith"), "kris")
    assert merged.clashes and "name was 'Kris'; one side changed it to" in merged.clashes[0]


def test_a_sum_below_zero_clashes() -> None:
    base = with_(KRIS, xp=12)
    merged = gitmerge.merge(base, with_(base, xp=0), with_(base, xp=0), "kris")
    assert merged.clashes and "below 0" in merged.clashes[0]
