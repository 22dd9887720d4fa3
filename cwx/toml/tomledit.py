"""Editing TOML text that people wrote, without disturbing it: the write guard.

A number already written in a file is changed where it stands, on the text; anything
else (a new key, a list) goes through tomlkit, imported only then, which keeps
comments, blank lines, key order, unknown keys and line endings. Whichever way, the new
text is parsed again with `tomllib` and compared with the data meant before it is
written: tomlkit has edits that yield valid TOML with another meaning (tomlkit #557),
and those are refused, nothing written. TOML integers are 64-bit: a number past that
is refused too, as cwx would write it and then refuse to read it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from cwx.base.errors import BadFile
from cwx.toml.tomlread import copied

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

LARGEST = 2**63 - 1  # TOML integers are 64-bit
Key = tuple[str, ...]
if TYPE_CHECKING:
    Edit = tuple[Key, Any]  # the value None removes the key


_BARE_KEY = r"^[A-Za-z0-9_-]+$"


def toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def toml_key(name: str) -> str:
    return name if re.match(_BARE_KEY, name) else toml_string(name)


def value_at(data: Mapping[str, Any], key: Key) -> Any:
    """The value at a key path, or None where the path is missing."""
    for part in key:
        if not isinstance(data, Mapping) or part not in data:
            return None
        data = data[part]
    return data


def edited(old: str, data: Mapping[str, Any], edits: Sequence[Edit], path: str) -> str:
    """`old` (which parses to `data`) with the edits made, checked to mean exactly that."""
    fits(((".".join(key), value) for key, value in edits), path)
    meant = with_edits(data, edits)
    # Most changes set a number that is already written down (xp, luck, dice): that is
    # done on the text itself, and kept only if it parses to exactly what was meant.
    # Anything else goes through tomlkit, whose import alone costs more than the rest.
    quick = set_numbers_in_place(old, edits)
    if quick is not None and parses_to(quick, meant):
        return quick
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        document = tomlkit.parse(old)
        for key, value in edits:
            edit(document, key, value)
        text = tomlkit.dumps(document)
    except (TOMLKitError, RecursionError) as error:
        raise BadFile(f"cwx cannot edit this file ({error}); nothing was written. Make the "
                      "change by hand", path=path) from None
    if "\r\n" in old and "\n" not in old.replace("\r\n", ""):
        text = re.sub(r"(?<!\r)\n", "\r\n", text)  # tomlkit writes new lines as \n
    if not parses_to(text, meant):
        raise BadFile(
            "cwx's edit would change more of this file than it meant to (a known tomlkit "
            "fault with dotted keys); nothing was written. Move the edited table above the "
            "dotted keys, or make the change by hand",
            path=path,
        )
    return text


def written(text: str, meant: Mapping[str, Any], path: str) -> str:
    """A whole new file's text, checked to parse to the data it was made from."""
    fits(meant.items(), path)
    if not parses_to(text, meant):
        raise BadFile("cwx could not write this file faithfully (a name it cannot "
                      "spell in TOML?); nothing was written", path=path)
    return text


def fits(values: Any, path: str) -> None:
    """Refuse a whole number a TOML file cannot hold, naming its key."""
    pending: list[tuple[str, Any]] = list(values)
    while pending:
        key, value = pending.pop()
        if isinstance(value, dict):
            pending += [(f"{key}.{k}", v) for k, v in value.items()]
        elif isinstance(value, list):
            pending += [(key, v) for v in value]
        elif isinstance(value, int) and not -LARGEST - 1 <= value <= LARGEST:
            raise BadFile(f"would become {value}, more than a TOML file can hold ({LARGEST}); "
                          "nothing was written", path=path, key=key)


def with_edits(data: Mapping[str, Any], edits: Sequence[Edit]) -> dict[str, Any]:
    """Plain data with the edits applied: what the new file must parse to."""
    meant: dict[str, Any] = copied(data)
    for key, value in edits:
        table = meant
        for part in key[:-1]:
            table = table.setdefault(part, {})
            if not isinstance(table, dict):
                raise BadFile(f"cannot set {'.'.join(key)}: {part} is not a table here; "
                              "nothing was written")
        if value is None:
            table.pop(key[-1], None)  # a key removed
        else:
            table[key[-1]] = value
    return meant



def set_numbers_in_place(text: str, edits: Sequence[Edit]) -> str | None:
    """The text with each edited whole number or boolean replaced where it is written,
    or None when an edit is anything else (a new key, a list, a dotted key...)."""
    if '"""' in text or "'''" in text:
        return None  # a multi-line string could hold lines that look like keys
    lines = text.splitlines(keepends=True)
    places: dict[Key, tuple[int, tuple[str, str]]] = {}
    table: Key = ()
    for number, line in enumerate(lines):
        body = line.rstrip("\r\n")
        if body.lstrip().startswith("["):
            name = header_name(body)
            table = (name,) if name else ("\0",)  # a table we cannot follow
            continue
        if found := number_line(body):
            name, around = found
            places[(*table, name)] = (number, around)
    for path, value in edits:
        if not isinstance(value, int) or path not in places:
            return None
        number, (before, after) = places[path]
        spelled = ("true" if value else "false") if isinstance(value, bool) else str(value)
        line = lines[number]
        lines[number] = before + spelled + after + line[len(line.rstrip("\r\n")):]
    return "".join(lines)


# The lines a number is set in, read with string methods: patterns would cost every
# command that writes a number about 2M instructions to compile.
_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_WORD = frozenset("0123456789_")


def header_name(body: str) -> str | None:
    """The name of a `[table]` header with a bare name, comment allowed, else None."""
    inner, close, rest = body.strip().partition("]")
    name = inner[1:].strip() if inner.startswith("[") and close else ""
    rest = rest.strip()
    if not name or not set(name) <= _BARE or (rest and not rest.startswith("#")):
        return None
    return name


def number_line(body: str) -> tuple[str, tuple[str, str]] | None:
    """`key = 12  # note`: the bare key, and the text before and after the value (a whole
    number, or true or false), else None."""
    start = len(body) - len(body.lstrip(" \t"))
    end = start
    while end < len(body) and body[end] in _BARE:
        end += 1
    rest = body[end:]
    value_at = len(body) - len(rest.lstrip(" \t").removeprefix("=").lstrip(" \t"))
    if end == start or not rest.lstrip(" \t").startswith("="):
        return None
    value_end = value_at
    while value_end < len(body) and body[value_end] not in " \t#":
        value_end += 1
    value, tail = body[value_at:value_end], body[value_end:]
    digits = value[1:] if value[:1] in "+-" else value
    if value not in ("true", "false") and not (digits[:1].isdigit() and set(digits) <= _WORD
                                                and digits.isascii()):
        return None
    if tail.strip(" \t") and not tail.lstrip(" \t").startswith("#"):
        return None
    return body[start:end], (body[:value_at], body[value_end:])


def parses_to(text: str, meant: Mapping[str, Any]) -> bool:
    from cwx.toml import plaintoml

    plain = plaintoml.loads(text)  # a plain text is read as tomllib reads it (plaintoml)
    if plain is not None:
        return plain == meant
    import tomllib  # here: most texts are plain, and loading it costs a command 11M

    try:
        return tomllib.loads(text) == meant
    except tomllib.TOMLDecodeError:
        return False


def edit(document: Any, key: Key, value: Any) -> None:
    """Set a key in a tomlkit document, keeping what is around it."""
    import tomlkit

    table = document
    for part in key[:-1]:
        if part not in table:
            table[part] = tomlkit.table()
        table = table[part]
    last = key[-1]
    old = table.get(last)
    if value is None:
        if last in table:
            del table[last]
    elif isinstance(value, list) and isinstance(old, list) and value[: len(old)] == list(old):
        for item in value[len(old):]:
            old.append(item)  # grow the array in place, keeping its comments and layout
    else:
        table[last] = value
