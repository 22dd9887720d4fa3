"""A sheet's three texts merged as text, its counted values aside: both sides' comments,
blank lines, key order and keys cwx does not know are kept as git keeps any text's.

Every whole number is written 0 on all three texts first, so two sides moving one count
never make a text conflict; `git merge-file` merges what is left, and where both sides
changed the same lines (a comment on one line, a table added at the end) the lines of
both are kept, a key once. The counted values are set afterwards, by the caller, to the
three-way sums. In a rebase git's "ours" is the side rebased onto and "theirs" the
player's commit: neither side's layout wins, so the player's comments are never lost.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Mapping, Sequence

from cwx.toml.tomledit import header_name, number_line

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

MARKERS = ("<<<<<<<", "|||||||", "=======", ">>>>>>>")
Line = tuple[str, tuple[str, ...] | None]  # a line, and the key it sets (its table's too)


# Lines of one conflict, both sides' multiplied, past which it is not settled line by
# line (that costs their product): a sheet is a few dozen lines, a hostile file is not.
MAX_SETTLED = 1_000_000


def merged(base: str, ours: str, theirs: str, beside: str) -> str | None:
    """The three texts merged as text with every whole number written 0; None when they
    cannot be (a multi-line string, a line that looks like a conflict marker, no git, a
    conflict too large). Its scratch files go in the folder `beside`, as git's own do."""
    sides = [_zeroed(text) for text in (base, ours, theirs)]
    if any(side is None for side in sides):
        return None
    try:
        with tempfile.TemporaryDirectory(prefix=".cwx-merge-", dir=beside) as folder:
            names = []
            for label, text in zip(("base", "ours", "theirs"), sides, strict=True):
                name = os.path.join(folder, label)
                with open(name, "w", encoding="utf-8", newline="",
                          errors="surrogateescape") as file:
                    file.write(text or "")
                names.append(name)
            done = subprocess.run(["git", "merge-file", "-p", "--diff3", "-L", "ours", "-L",
                                   "base", "-L", "theirs", names[1], names[0], names[2]],
                                  capture_output=True)
    except OSError:  # no git, or a folder git could write in and cwx cannot
        return None
    if done.returncode < 0 or done.returncode > 127:
        return None
    return _settled(done.stdout.decode("utf-8", "surrogateescape"))


def _zeroed(text: str) -> str | None:
    """`text` with every whole number a key holds written 0 (comments and spacing kept)."""
    if '"""' in text or "'''" in text:
        return None  # a multi-line string could hold lines that look like keys
    out = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if body.startswith(MARKERS):
            return None
        found = number_line(body)
        if found and body[len(found[1][0]):len(body) - len(found[1][1])] not in ("true",
                                                                                  "false"):
            before, after = found[1]
            line = before + "0" + after + line[len(body):]
        out.append(line)
    return "".join(out)


def _settled(text: str) -> str | None:
    """git merge-file's output with each conflict settled: both sides' lines kept."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    table: tuple[str, ...] = ()
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.startswith("<<<<<<< "):
            out.append(line)
            table = _table_after(line, table)
            index += 1
            continue
        parts: list[list[str]] = [[], [], []]
        part = 0
        index += 1
        while index < len(lines) and not lines[index].startswith(">>>>>>> "):
            if lines[index].startswith("||||||| "):
                part = 1
            elif lines[index].rstrip("\r\n") == "=======":
                part = 2
            else:
                parts[part].append(lines[index])
            index += 1
        index += 1
        if len(parts[0]) * len(parts[2]) > MAX_SETTLED:
            return None
        ours, base, theirs = (_keyed(side, table) for side in parts)
        settled = _both(ours, base, theirs)
        out += settled
        for kept in settled:
            table = _table_after(kept, table)
    return "".join(out)


def _table_after(line: str, table: tuple[str, ...]) -> tuple[str, ...]:
    body = line.strip()
    if body.startswith("["):
        return (body.split("#", 1)[0].strip(),)
    return table


def _keyed(lines: Sequence[str], table: tuple[str, ...]) -> list[Line]:
    """Each line with what it sets: (table header, key) for a key, (header,) for a header."""
    found: list[Line] = []
    for line in lines:
        table = _table_after(line, table)
        split = _split(line.rstrip("\r\n"))
        if line.strip().startswith("["):
            found.append((line, ("[", *table)))
        elif split:
            found.append((line, (*table, split[0].rstrip().rstrip("=").strip())))
        else:
            found.append((line, None))
    return found


def _both(ours: list[Line], base: list[Line], theirs: list[Line]) -> list[str]:
    """One conflict's lines settled: ours' lines (less those theirs took out), a key both
    sides have once with both sides' comments, then theirs' new lines each after the
    line it follows on their side (and after ours' new lines there, in ours' table)."""
    base_lines = {line for line, _ in base}
    base_keys = {key: line for line, key in base if key}
    their_lines = {line for line, _ in theirs}
    their_keys = {key: line for line, key in theirs if key}
    result: list[tuple[str, tuple[str, ...] | None, bool]] = []  # and whether ours added it
    for line, key in ours:
        if key is None and line.strip() and line in base_lines and line not in their_lines:
            continue  # theirs took it out or changed it
        added = line not in base_lines and line not in their_lines and key not in base_keys \
            and key not in their_keys
        if key and key in their_keys:
            line = _joined(line, base_keys.get(key), their_keys[key])
        result.append((line, key, added))
    at = 0
    for line, key in theirs:
        found = next((i for i in range(at, len(result)) if (key and result[i][1] == key) or
                      (key is None and result[i][0] == line)), None)
        if found is None and key:
            found = next((i for i, (_, k, _) in enumerate(result) if k == key), None)
        if found is not None:
            at = max(at, found + 1)
            continue
        if line.strip() and (line in base_lines or (key and key in base_keys)):
            continue  # ours took it out
        header = line.strip().startswith("[")
        while at < len(result) and result[at][2] and \
                (header or (result[at][0].strip() and not result[at][0].strip().startswith("["))):
            at += 1  # past what ours added here: ours' lines first
        if not line.strip() and (at == 0 or not result[at - 1][0].strip()):
            continue  # no second blank line
        if header and at and result[at - 1][0].strip():
            result.insert(at, (line[len(line.rstrip("\r\n")):] or "\n", None, False))
            at += 1
        result.insert(at, (line, key, False))
        at += 1
    return [line for line, _, _ in result]


def _joined(ours: str, base: str | None, theirs: str) -> str:
    """One key's line as both sides left it: the value a side changed, and both sides'
    comments (the value is the caller's to set; only the layout matters here)."""
    mine, old, yours = (_split(line.rstrip("\r\n")) for line in (ours, base or "", theirs))
    if mine is None or yours is None:
        return ours
    head, value, gap, comment = mine
    if old and value == old[1] and yours[1] != old[1]:
        value = yours[1]
    old_comment = old[3] if old else ""
    if yours[3] and yours[3] not in (comment, old_comment):
        comment = yours[3] if comment in ("", old_comment) else f"{comment} {yours[3]}"
        gap = gap or "  "
    end = ours[len(ours.rstrip("\r\n")):]
    return head + value + (gap if comment else "") + comment + end


def _split(body: str) -> tuple[str, str, str, str] | None:
    """A `key = value  # comment` line as its head (up to the value), the value, the space
    before the comment and the comment; None when the line sets no key."""
    quote = ""
    equals = -1
    index = 0
    while index < len(body):
        char = body[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            return None if equals < 0 else _parts(body, equals, index)
        elif char == "=" and equals < 0:
            if body[:index].strip().startswith("["):
                return None
            equals = index
        index += 1
    return None if equals < 0 or not body[:equals].strip() else _parts(body, equals, len(body))


def _parts(body: str, equals: int, hash_at: int) -> tuple[str, str, str, str]:
    rest = body[equals + 1:hash_at]
    start = equals + 1 + len(rest) - len(rest.lstrip())
    value = body[start:hash_at].rstrip()
    return body[:start], value, body[start + len(value):hash_at], body[hash_at:]


def _places(text: str) -> dict[tuple[str, ...], int]:
    """The line each key of a `[table]` (or of no table) is set on, by its path."""
    places: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines()):
        if line.lstrip().startswith("["):
            name = header_name(line)
            table = (name,) if name else ("\0",)
        elif split := _split(line):
            places[(*table, split[0].rstrip().rstrip("=").strip())] = number
    return places


def marked(text: str, clashes: Mapping[tuple[str, ...], Sequence[Any]]) -> str | None:
    """`text` with each clashing key's line set as git marks a conflict, the values of
    both sides and of the base in it; None when a key has no line of its own to mark."""
    from cwx.toml.tomledit import toml_string

    places = _places(text)
    lines = text.splitlines(keepends=True)
    for path, values in clashes.items():
        split = _split(lines[places[path]].rstrip("\r\n")) if path in places else None
        if split is None or not all(v is None or isinstance(v, int | str) for v in values):
            return None
        line = lines[places[path]]
        head, _, gap, comment = split
        end = line[len(line.rstrip("\r\n")):] or "\n"
        shown = ["" if v is None else head + (toml_string(v) if isinstance(v, str) else
                                              str(v).lower()) + gap + comment + end
                 for v in values]
        lines[places[path]] = (f"<<<<<<< ours{end}{shown[1]}||||||| base{end}{shown[0]}"
                               f"======={end}{shown[2]}>>>>>>> theirs{end}")
    return "".join(lines)
