"""The merge driver's rule, on plain data: whole numbers add up, lists merge as sets,
anything else three-way; and what it cannot settle, it says."""

from __future__ import annotations

from pathlib import Path

from cwx.git import gitmerge

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


SHEET = '''name = "k"
system = "clockworx"
xp = 8   # experience

[traits]
Shoot = 4
Run = 4
Hide = 4
'''


def merged_files(tmp_path: Path, base: str, ours: str, theirs: str) -> gitmerge.Files:
    paths = []
    for name, text in (("base", base), ("ours", ours), ("theirs", theirs)):
        (tmp_path / name).write_text(text)
        paths.append(str(tmp_path / name))
    return gitmerge.merge_files(*paths, "k.toml")


def test_both_sides_text_is_kept_and_the_numbers_summed(tmp_path: Path) -> None:
    ours = SHEET.replace("Hide = 4", "Hide = 4  # A").replace("xp = 8", "xp = 10") + \
        "\n[gear]\n# A's gear\nrope = 1\n"
    theirs = SHEET.replace("Hide = 4", "Hide = 4  # B").replace("xp = 8", "xp = 9") + \
        "\n[notes]\n# B's notes\nmood = 'grim'  # why\n"
    done = merged_files(tmp_path, SHEET, ours, theirs)
    assert done.clashes == [] and done.text is not None
    assert done.text == (SHEET.replace("Hide = 4", "Hide = 4  # A # B")
                         .replace("xp = 8", "xp = 11") +
                         "\n[gear]\n# A's gear\nrope = 1\n\n[notes]\n# B's notes\n"
                         "mood = 'grim'  # why\n")


def test_a_clash_marks_its_key_alone(tmp_path: Path) -> None:
    ours = SHEET.replace("xp = 8", "xp = 0")
    theirs = SHEET.replace("xp = 8", "xp = 0").replace("Hide = 4", "Hide = 4  # B") + \
        "\n[notes]\nmood = 'grim'\n"
    done = merged_files(tmp_path, SHEET, ours, theirs)
    assert done.marked and done.clashes and "below 0" in done.clashes[0]
    assert done.text is not None
    assert "<<<<<<< ours\nxp = 0   # experience\n||||||| base\nxp = 8   # experience\n" \
        "=======\nxp = 0   # experience\n>>>>>>> theirs\n" in done.text
    assert done.text.count("<<<<<<<") == 1 and done.text.endswith("\n[notes]\nmood = 'grim'\n")


def test_a_conflict_too_large_to_settle_keeps_our_text(tmp_path: Path) -> None:
    from cwx.git import textmerge

    many = int(textmerge.MAX_SETTLED ** 0.5) + 2
    ours = SHEET + "".join(f"# a{n}\n" for n in range(many))
    theirs = SHEET.replace("xp = 8", "xp = 9") + "".join(f"# b{n}\n" for n in range(many))
    done = merged_files(tmp_path, SHEET, ours, theirs)
    assert done.clashes == [] and done.text == ours.replace("xp = 8", "xp = 9")
