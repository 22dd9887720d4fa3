"""Campaign files read as cwx reads every one: their bytes (a regular file, reasonably
sized, never a FIFO that would hang), and their TOML, or a TOML text a journal line holds,
with `tomllib` (fast, strict) and its work capped for pathological texts (dotted keys of
thousands of parts, integers of thousands of digits, deep nesting), every failure a
BadFile naming the line."""

from __future__ import annotations

import functools
import os
import re
import stat

from cwx.base.errors import BadFile, Unreadable
from cwx.toml import plaintoml

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any, NoReturn

# A sheet is a few hundred bytes and a few dozen values; what a clone brings past these is
# refused before (bytes) or as soon as (values) it is read: every command's work on a file
# grows with what it holds, and the git hooks run them on every pull (docs/rules.md, Limits).
MAX_BYTES = 64 << 10
MAX_VALUES = 1000  # keys and list items, counted through every table
MAX_KEY_PARTS = 64  # a.b.c...: tomllib's work grows with the square of a dotted key's parts


def read_bytes(path: str, *, through_links: bool = True) -> bytes:
    """A file's bytes, refusing what is not a readable, reasonably sized regular file."""
    # O_NONBLOCK: a FIFO where a file should be must not hang the command.
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY | \
        (0 if through_links else os.O_NOFOLLOW)
    if through_links and os.path.islink(path):  # what a link leads to is not even opened
        from cwx.base.places import confine

        confine(path, os.path.realpath(path))
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise BadFile("no such file", path=path) from None
    except PermissionError:
        raise Unreadable("cwx may not read this file (permission denied)", path=path) from None
    except OSError as error:
        if not through_links and os.path.islink(path):
            raise BadFile("is a symbolic link; cwx keeps this file only as a file of its own",
                          path=path) from None
        raise Unreadable(f"cannot be read ({error.strerror})", path=path) from None
    try:
        if through_links:  # a link in a folder on the way is known once the file is open
            from cwx.base.places import confine_open

            confine_open(path, fd)
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise BadFile("is a folder, not a file", path=path)
        if not stat.S_ISREG(info.st_mode):
            raise BadFile("is not a regular file", path=path)
        if info.st_size > MAX_BYTES:
            raise BadFile(too_big(info.st_size), path=path)
        chunks, size = [], 0
        while chunk := os.read(fd, MAX_BYTES + 1 - size):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_BYTES:
                raise BadFile(f"grew past {MAX_BYTES:,} bytes while cwx read it; cwx reads "
                              f"a file of up to {MAX_BYTES:,}", path=path)
    except OSError as error:  # a file of the system's (/proc/self/mem) that will not read
        raise BadFile(f"cannot be read ({error.strerror})", path=path) from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def too_big(size: int) -> str:
    return (f"is {size:,} bytes, and cwx reads a file of up to {MAX_BYTES:,} (a sheet is a "
            "few hundred); keep long notes in a file of their own")


def parse(raw: bytes, path: str | None) -> dict[str, Any]:
    """TOML bytes to plain data, every failure a BadFile with the line."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raise BadFile("starts with a byte-order mark; save it as UTF-8 without BOM",
                      path=path, line=1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadFile(f"is not UTF-8 text (byte {error.start}); save it as UTF-8",
                      path=path, line=raw.count(b"\n", 0, error.start) + 1) from None
    return loads(text, path)


def loads(text: str, path: str | None = None) -> dict[str, Any]:
    """TOML text to plain data, within cwx's limits."""
    if len(text) > MAX_BYTES // 4 and (size := len(text.encode("utf-8", "replace"))) > MAX_BYTES:
        raise BadFile(too_big(size), path=path)  # a text in the journal: a file's limits
    _refuse_long_keys(text, path)
    plain = plaintoml.loads(text)  # the plain shape cwx writes, without loading tomllib
    if plain is not None:
        _refuse_many(plain, path)
        return plain
    if (refused := refused_at_once(text)) is not None:
        _not_toml(text, path, refused)
    import tomllib

    try:
        data = tomllib.loads(text)
        _refuse_deep(data, text, path)
        _refuse_many(data, path)
        return data
    except tomllib.TOMLDecodeError as error:
        _not_toml(text, path, str(error))
    except ValueError:  # an integer past Python's digit limit
        return _refuse_shape(text, path, r"[0-9_]{4300,}", "has an integer too long to read "
                             "(over 4300 digits)")
    except RecursionError:
        return _refuse_shape(text, path, r"[\[{]{64,}", "nests arrays or tables too deeply")


def _not_toml(text: str, path: str | None, said: str) -> NoReturn:
    """A text tomllib refuses (`said`: its words): where it is a merge left unfinished,
    said so; else what tomllib found, at its line."""
    if marker := re.search(r"^(<{7}|={7}|>{7})( |$)", text, re.MULTILINE):
        raise BadFile("has git conflict markers: a merge is not finished. Settle the "
                      "lines between <<<<<<< and >>>>>>>, then run cwx check", path=path,
                      line=text.count("\n", 0, marker.start()) + 1) from None
    message, line = _toml_complaint(said)
    line = line or text.count("\n") + 1
    raise BadFile(f"is not valid TOML: {message}", path=path, line=line) from None


_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
# What tomllib refuses in a comment: the control characters but the tab.
_NOT_IN_COMMENTS = frozenset(map(chr, [*range(9), *range(10, 32), 127]))


def refused_at_once(text: str) -> str | None:
    """tomllib's words, where it refuses the text at its first statement, found without
    loading it (a README, a .gitignore, a JSON schema: the texts of files `cwx init`
    makes, which the journal holds, are read as TOML by every reader of the ledger, and
    loading tomllib costs a git hook an eighth of its start); None: tomllib decides.
    Only a bare key (dotted) not followed by `=`, or a line starting with no key or
    table, is answered; tests/test_plaintoml.py holds it to tomllib's own words."""
    src = text.replace("\r\n", "\n")  # as tomllib reads it
    pos, end = 0, len(src)
    while pos < end:  # the blank lines and comments before the first statement
        char = src[pos]
        if char in " \t\n":
            pos += 1
        elif char == "#":
            stop = src.find("\n", pos)
            stop = end if stop < 0 else stop
            if not _NOT_IN_COMMENTS.isdisjoint(src[pos:stop]):
                return None
            pos = stop
        else:
            break
    if pos == end or src[pos] in "[\"'":
        return None
    if src[pos] not in _BARE:
        return _said_at(src, pos, "Invalid statement")
    while True:  # a key: bare parts, joined by dots
        while pos < end and src[pos] in _BARE:
            pos += 1
        while pos < end and src[pos] in " \t":
            pos += 1
        if pos < end and src[pos] == ".":
            pos += 1
            while pos < end and src[pos] in " \t":
                pos += 1
            if pos < end and src[pos] in _BARE:
                continue
            return None  # a quoted part, or none: tomllib's to say
        if pos < end and src[pos] == "=":
            return None
        return _said_at(src, pos, "Expected '=' after a key in a key/value pair")


def _said_at(src: str, pos: int, message: str) -> str:
    """`message` placed at `pos`, as tomllib words it."""
    if pos >= len(src):
        return f"{message} (at end of document)"
    line = src.count("\n", 0, pos) + 1
    column = pos + 1 if line == 1 else pos - src.rindex("\n", 0, pos)
    return f"{message} (at line {line}, column {column})"


# The patterns below are compiled where they are first needed (re caches them): most
# texts never need them, and compiling one costs a command about a million instructions.
# What is not a key: strings (which may hold dots) and comments, blanked before looking.
# A string left open runs to its line's end (or the text's, for """): each is scanned once,
# never again from every quote inside it, so a hostile text costs its length, not its square.
_NOT_KEYS = (r'(?sm)"""(?:[^\\]|\\.)*?(?:"""|\Z)|\'\'\'.*?(?:\'\'\'|\Z)|"(?:[^"\\\n]|\\.)*(?:"|$)'
             r'|\'[^\'\n]*(?:\'|$)|#[^\n]*')
# Possessive, and anchored at a word's start, so a long word is scanned once.
_DOTTED = r"(?<![\w-])[\w-]++(?:[ \t]*+\.[ \t]*+[\w-]++){" + str(MAX_KEY_PARTS) + ",}"
_DEEP_KEY = r"(?<![\w-])[\w-]++(?:[ \t]*+\.[ \t]*+[\w-]++){2,}"
MAX_DEEP_KEYS = 64  # keys of three parts or more (a.b.c): tomlkit's work grows as their square
MAX_DEPTH = 64  # tables and arrays within each other (tomlkit stops at 100, with an error)


def _refuse_long_keys(text: str, path: str | None) -> None:
    """Dotted keys of very many parts, or very many of three parts or more, take the TOML
    parsers minutes (and cwx's own code deep recursion): refuse them before parsing.
    Nothing in a cwx file comes near the limits."""
    if text.count(".") < MAX_KEY_PARTS:
        return
    bare = re.sub(_NOT_KEYS, lambda m: "" if m.group(0)[0] == "#" else
                         "s" + "\n" * m.group(0).count("\n"), text)
    if found := re.search(_DOTTED, bare):
        line = bare.count("\n", 0, found.start()) + 1
        raise BadFile(f"is not valid for cwx: a dotted key of more than {MAX_KEY_PARTS} parts",
                      path=path, line=line)
    for number, found in enumerate(re.finditer(_DEEP_KEY, bare), 1):
        if number > MAX_DEEP_KEYS:
            raise BadFile(f"is not valid for cwx: more than {MAX_DEEP_KEYS} dotted keys of "
                          "three parts or more (editing them would take minutes)", path=path,
                          line=bare.count("\n", 0, found.start()) + 1)


def _refuse_deep(data: dict[str, Any], text: str, path: str | None) -> None:
    """Tables and arrays nested past MAX_DEPTH: refused at reading, so that no command
    finds out only when it comes to write the file."""
    pending: list[tuple[Any, int, str]] = [(data, 0, "")]
    while pending:
        value, depth, key = pending.pop()
        if depth > MAX_DEPTH:
            raise BadFile(f"is not valid for cwx: tables or arrays nested more than {MAX_DEPTH} "
                          "deep", path=path, line=line_of(text.encode(), key.partition(".")[0] or None))
        if isinstance(value, dict):
            pending += [(v, depth + 1, f"{key}.{k}" if key else k) for k, v in value.items()]
        elif isinstance(value, list):
            pending += [(v, depth + 1, key) for v in value]


def _refuse_many(data: dict[str, Any], path: str | None) -> None:
    """More keys and list items than MAX_VALUES: refused as soon as they are counted."""
    if values_in(data, MAX_VALUES) > MAX_VALUES:
        raise BadFile(f"holds more than {MAX_VALUES:,} keys and list items, and cwx reads "
                      "a file of up to that many (a sheet holds a few dozen); keep the "
                      "rest in a file of its own", path=path)


def values_in(data: dict[str, Any], most: int = MAX_VALUES) -> int:
    """The keys and list items of TOML data, through every table (counted only until
    past `most`)."""
    count = 0
    pending: list[Any] = [data]
    while pending and count <= most:
        value = pending.pop()
        count += len(value)
        pending += [v for v in (value.values() if isinstance(value, dict) else value)
                    if isinstance(v, dict | list)]
    return count


def _refuse_shape(text: str, path: str | None, pattern: str, message: str) -> NoReturn:
    """A file too pathological to parse: say so, on the line where the trouble starts."""
    found = re.search(pattern, text)
    line = text.count("\n", 0, found.start()) + 1 if found else None
    raise BadFile(f"is not valid TOML: {message}", path=path, line=line)


def _toml_complaint(message: str) -> tuple[str, int | None]:
    found = re.search(r"\s*\(at line (\d+), column (\d+)\)", message)
    if not found:
        return message.replace(" (at end of document)", " at the end of the file"), None
    text = message[: found.start()] + message[found.end():]
    return f"{text[:1].lower()}{text[1:]} (column {found.group(2)})", int(found.group(1))


_KEY_PART = r'(?:"(?:[^"\\]|\\.)*"|\'[^\']*\'|[A-Za-z0-9_-]+)'
_KEY = rf"^\s*({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*="
_HEADER_KEY = rf"^\s*\[\[?\s*({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*\]\]?"


def line_of(raw: bytes, key: str | None) -> int | None:
    """The line where a key (or its table) is written, if it can be found. The key is as
    errors and the journal name it: its table, a dot, then the name as it stands (a
    quoted name may hold dots, colons, any letter)."""
    if not key:
        return None
    table_name, dot, rest = key.partition(".")
    wanted = (table_name, rest) if dot else (table_name,)
    exact, headers, top = _index(raw)
    if wanted in exact:
        return exact[wanted]
    # Else the key's table: a top-level `table = {...}` (the last), or its header.
    return top.get(table_name) or min(
        (line for table, line in headers.items() if table == wanted[:len(table)]), default=None)


@functools.lru_cache(maxsize=8)  # a file's lines are indexed once, however many keys
def _index(raw: bytes) -> tuple[dict[tuple[str, ...], int], dict[tuple[str, ...], int],
                                dict[str, int]]:
    """Where each key is first written (its table, then its name as it stands), each
    table's first header, and the last top-level key of each name."""
    exact: dict[tuple[str, ...], int] = {}
    headers: dict[tuple[str, ...], int] = {}
    top: dict[str, int] = {}
    table: list[str] = []
    for number, line in enumerate(raw.decode("utf-8", "replace").splitlines(), 1):
        if header := re.match(_HEADER_KEY, line):
            table = _parts(header.group(1))
            headers.setdefault(tuple(table), number)
            continue
        if assign := re.match(_KEY, line):
            path = table + _parts(assign.group(1))
            named = (path[0], ".".join(path[1:])) if len(path) > 1 else (path[0],)
            exact.setdefault(named, number)
            if len(path) == 1:
                top[path[0]] = number
    return exact, headers, top


def _parts(key: str) -> list[str]:
    """A TOML key's parts, quotes taken off (escapes aside: a name is found, not read)."""
    return [part[1:-1] if part[:1] in "\"'" else part for part in re.findall(_KEY_PART, key)]


def copied(data: Any) -> Any:
    """TOML data copied table by table and array by array, to change without touching the
    original (its values are immutable)."""
    if isinstance(data, dict):
        return {k: copied(v) for k, v in data.items()}
    if isinstance(data, list):
        return [copied(v) for v in data]
    return data
