"""TOML in the plain shape cwx writes, read without loading tomllib.

Loading `tomllib` compiles its patterns and loads `string`: some 11M instructions, a
tenth of what a stateful command costs beyond Typer. Yet every file cwx writes, and
nearly every hand edit of one, is plain: comments, `[table]` headers, and `key = value`
lines whose values are whole numbers, strings without escapes, `true`/`false`, or one-line
lists of such strings. This reads that much, exactly as tomllib does (a test holds the
two together on generated texts), and answers None for anything else, which tomllib then
reads and judges: an escape, a float, a date, a dotted key, a duplicate, any mistake.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_DIGITS = frozenset("0123456789")
_BLANK = " \t"
MAX_DIGITS = 18  # a longer number is left to tomllib (and cwx's own digit limits)


class _NotPlain(Exception):
    """The text is not plain TOML: tomllib reads it."""


def loads(text: str) -> dict[str, Any] | None:
    """The data of a plain TOML text, as tomllib would read it; None if it is not plain."""
    try:
        return _document(text)
    except _NotPlain:
        return None


def _document(text: str) -> dict[str, Any]:
    data: dict[str, Any] = {}
    table = data
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if line.endswith("\r") and number < len(lines):  # CR only as the end of a line
            line = line[:-1]
        if not line.isprintable() and _controls(line):
            raise _NotPlain  # TOML allows no control character but a tab
        line = line.lstrip(_BLANK)
        if not line or line[0] == "#":
            continue
        if line[0] == "[":
            name, rest = _key(line[1:].lstrip(_BLANK))
            rest = rest.lstrip(_BLANK)
            if not rest.startswith("]") or name in data:
                raise _NotPlain  # an array of tables, a dotted header, a table twice
            _end(rest[1:])
            table = data[name] = {}
            continue
        name, rest = _key(line)
        rest = rest.lstrip(_BLANK)
        if not rest.startswith("=") or name in table:
            raise _NotPlain
        value, rest = _value(rest[1:].lstrip(_BLANK))
        _end(rest)
        table[name] = value
    return data


def _controls(line: str) -> bool:
    return any((ord(char) < 0x20 and char != "\t") or ord(char) == 0x7F for char in line)


def _end(rest: str) -> None:
    """Nothing after a key's value or a header but blanks and a comment."""
    rest = rest.lstrip(_BLANK)
    if rest and rest[0] != "#":
        raise _NotPlain


def _key(text: str) -> tuple[str, str]:
    """A bare key, or a quoted one without escapes (not empty), and what follows it."""
    if text.startswith('"'):
        name, rest = _string(text)
        if not name:
            raise _NotPlain
    else:
        end = 0
        while end < len(text) and text[end] in _BARE:
            end += 1
        if end == 0:
            raise _NotPlain
        name, rest = text[:end], text[end:]
    if rest.lstrip(_BLANK).startswith("."):
        raise _NotPlain  # a dotted key
    return name, rest


def _string(text: str) -> tuple[str, str]:
    """A basic string without escapes, or a literal string, on one line."""
    quote = text[0]
    if text.startswith(quote * 3):
        raise _NotPlain  # a multi-line string
    end = text.find(quote, 1)
    if end < 0:
        raise _NotPlain
    inner = text[1:end]
    if quote == '"' and "\\" in inner:
        raise _NotPlain
    return inner, text[end + 1:]


def _value(text: str) -> tuple[Any, str]:
    if not text:
        raise _NotPlain
    first = text[0]
    if first in "\"'":
        return _string(text)
    if first == "[":
        return _list(text[1:])
    for word, value in (("true", True), ("false", False)):
        if text.startswith(word) and not text[len(word):len(word) + 1].strip(_BLANK + "#"):
            return value, text[len(word):]
    return _integer(text)


def _integer(text: str) -> tuple[int, str]:
    end = 0
    while end < len(text) and text[end] not in _BLANK and text[end] != "#":
        end += 1
    word = text[:end]
    digits = word[1:] if word[:1] in "+-" else word
    if not digits or not set(digits) <= _DIGITS | {"_"} or digits[0] == "_" or \
            digits[-1] == "_" or "__" in digits or (digits[0] == "0" and len(digits) > 1) or \
            len(digits) > MAX_DIGITS:
        raise _NotPlain  # a float, a date, another base, a leading zero: tomllib's to read
    return int(word.replace("_", "")), text[end:]


def _list(text: str) -> tuple[list[str], str]:
    """A one-line list of strings: `["a", 'b',]`."""
    items: list[str] = []
    text = text.lstrip(_BLANK)
    while not text.startswith("]"):
        if not text or text[0] not in "\"'":
            raise _NotPlain
        item, text = _string(text)
        items.append(item)
        text = text.lstrip(_BLANK)
        if text.startswith(","):
            text = text[1:].lstrip(_BLANK)
        elif not text.startswith("]"):
            raise _NotPlain
    return items, text[1:]
