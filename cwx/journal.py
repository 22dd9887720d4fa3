"""The journal: every change cwx makes, one JSON object a line, only ever appended to.

The journal lives in git for as long as the campaign does, so its reader understands
every version ever written, and reads it as a stream: a campaign's whole history is
never held in memory.

Versions:
  1  cwx 0.1. `at` to the second; `who`, `file` and `bag` present only when known.
  2  `at` to the millisecond, and events are ordered by (`at`, `id`) whatever order
     git merged their lines in; every envelope key present (null when there is none);
     `undoes` on an undo; `correction` on a change that does not count in the ledger.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from cwx.errors import BadFile

VERSION = 2
NAME = "journal.jsonl"
MAX_LINE = 16 << 20  # an event holds at most a few files' text (each at most 1 MiB)
_AT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$")
_ENVELOPE = ("who", "file", "bag")


class Change(NamedTuple):
    """One key of one file, from one value to another; or a whole file written (key None)."""

    file: str
    key: str | None
    before: Any  # "from" in the journal; None: the key was missing
    after: Any  # "to"
    created: bool = False  # a whole file: made new (True) or rewritten over an old one
    text: str | None = None  # a whole file's text (None for a secret one)
    correction: bool = False  # a reconcile's correction: it does not count in the ledger


class Event(NamedTuple):
    """One journaled change, as every version of the journal is read."""

    v: int
    id: str
    at: str
    command: str
    who: str | None
    file: str | None
    bag: str | None
    result: Mapping[str, Any]
    changes: tuple[Change, ...]
    undoes: str | None = None
    line: int = 0  # where it stands in the journal, for messages and ties

    @property
    def when(self) -> str:
        """`at` to the millisecond (version 1 wrote seconds), so that times sort as text."""
        return self.at if len(self.at) == 24 else f"{self.at[:-1]}.000Z"

    def to_json(self) -> dict[str, Any]:
        """The event as the journal (version 2) writes it."""
        data: dict[str, Any] = {"v": VERSION, "id": self.id, "at": self.when,
                                "command": self.command, "who": self.who, "file": self.file,
                                "bag": self.bag, "result": dict(self.result),
                                "changes": [_change_json(c) for c in self.changes]}
        if self.undoes is not None:
            data["undoes"] = self.undoes
        return data


class BadLine(NamedTuple):
    """A line that is not a journal event: a fragment, a conflict marker, a hand edit."""

    line: int
    reason: str


def new(command: str, changes: Sequence[Change], *, who: str | None = None,
        file: str | None = None, bag: str | None = None,
        result: Mapping[str, Any] | None = None, undoes: str | None = None) -> Event:
    """A new event, stamped now (UTC, milliseconds) with a random id."""
    now = time.time()
    at = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1000) % 1000:03d}Z"
    return Event(VERSION, os.urandom(8).hex(), at, command, who, file, bag, dict(result or {}),
                 tuple(changes), undoes)


def encode(event: Event) -> bytes:
    """One line of the journal."""
    return (json.dumps(event.to_json(), ensure_ascii=False, separators=(",", ":"),
                       allow_nan=False) + "\n").encode()


def path_in(folder: str) -> str:
    return os.path.join(folder, NAME)


def name_in(folder: str, path: str) -> str:
    """A file as the journal in `folder` names it: relative to it when inside it. The file's
    folder is resolved, its own name kept (a link the user made is named as made)."""
    real = os.path.join(os.path.realpath(os.path.dirname(os.path.abspath(path))),
                        os.path.basename(path))
    relative = os.path.relpath(real, folder)
    return path if relative.startswith("..") else relative


def _change_json(change: Change) -> dict[str, Any]:
    if change.key is None:
        whole: dict[str, Any] = {"file": change.file, "created": change.created}
        if change.text is not None:
            whole["text"] = change.text
        return whole
    data = {"file": change.file, "key": change.key, "from": change.before, "to": change.after}
    if change.correction:
        data["correction"] = True
    return data


# ---------------------------------------------------------------- reading


def read(path: str) -> Iterator[Event | BadLine]:
    """Every line of the journal at `path`, in file order, as an event or a bad line."""
    for _, item in read_raw(path):
        if item is not None:
            yield item


def read_raw(path: str) -> Iterator[tuple[bytes, Event | BadLine | None]]:
    """Each line's bytes and what they are (None: a blank line), as a stream."""
    try:
        file = open(path, "rb")  # noqa: SIM115 - a generator closes it below
    except FileNotFoundError:
        return
    except OSError as error:
        raise BadFile(f"cannot be read ({error.strerror})", path=path) from None
    with file:
        number = 0
        while raw := file.readline(MAX_LINE + 1):
            number += 1
            if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                while (rest := file.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                    raw += b"?" * len(rest)  # counted for offsets, never kept
                yield raw, BadLine(number, "is longer than any event cwx writes")
                continue
            yield raw, parse(raw, number) if raw.strip() else None


def lines_from_end(path: str, block: int = 1 << 16) -> Iterator[bytes]:
    """The journal's lines, newest first, read backwards a block at a time: what is
    looked for near the end costs what lies after it, not the campaign's length."""
    try:
        file = open(path, "rb")  # noqa: SIM115 - a generator closes it below
    except FileNotFoundError:
        return
    except OSError as error:
        raise BadFile(f"cannot be read ({error.strerror})", path=path) from None
    with file:
        end = file.seek(0, os.SEEK_END)
        rest = b""
        while end > 0:
            start = max(0, end - block)
            file.seek(start)
            chunk = file.read(end - start) + rest
            end = start
            lines = chunk.split(b"\n")
            rest = lines.pop(0) if end > 0 else b""
            for line in reversed(lines):
                if line.strip():
                    yield line
            if len(rest) > MAX_LINE:
                rest = b""  # no event is that long: drop it rather than grow without end
        if rest.strip():
            yield rest


def events(path: str) -> Iterator[Event]:
    """The journal's events, skipping lines that are not events (`cwx check` names them)."""
    for item in read(path):
        if isinstance(item, Event):
            yield item


def parse(raw: bytes, number: int = 0) -> Event | BadLine:
    """One line: an event of any version, or why it is not one."""
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        marker = raw.startswith((b"<<<<<<<", b"=======", b">>>>>>>", b"|||||||"))
        return BadLine(number, "is a git conflict marker: merge the journal with "
                               "`cwx git setup` (merge=union), and remove the marker line"
                       if marker else "is not one JSON object (a line cut short?)")
    if not isinstance(data, dict):
        return BadLine(number, "is not a JSON object")
    if b"\\ud" in raw.lower() and not _utf8(data):
        return BadLine(number, "holds a lone surrogate escape, which is no text cwx writes")
    try:
        return _event(data, number)
    except (TypeError, ValueError) as error:
        return BadLine(number, f"is not a journal event ({error})")


def _utf8(data: object) -> bool:
    try:
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return False
    return True


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number a journal holds")


def _event(data: Mapping[str, Any], number: int) -> Event:
    version = data.get("v")
    if type(version) is not int or version not in (1, 2):
        raise ValueError(f"unknown version {_short(version)}")
    for key in ("id", "at", "command"):
        if not isinstance(data.get(key), str):
            raise TypeError(f"{key} must be text")
    if not _AT.match(data["at"]):
        raise ValueError("at must be a UTC time like 2026-11-30T12:00:00.000Z")
    for key in _ENVELOPE:
        if data.get(key) is not None and not isinstance(data[key], str):
            raise TypeError(f"{key} must be text or null")
    result = data.get("result") or {}
    if not isinstance(result, dict):
        raise TypeError("result must be an object")
    changes = data.get("changes") or []
    if not isinstance(changes, list):
        raise TypeError("changes must be a list")
    undoes = data.get("undoes")
    if undoes is not None and not isinstance(undoes, str):
        raise TypeError("undoes must be text")
    return Event(version, data["id"], data["at"], data["command"], data.get("who"),
                 data.get("file"), data.get("bag"), result,
                 tuple(_change(item) for item in changes), undoes, number)


def _change(item: Any) -> Change:
    if not isinstance(item, dict) or not isinstance(item.get("file"), str):
        raise TypeError("each change must be an object naming its file")
    key = item.get("key")
    if key is None:
        text = item.get("text")
        if text is not None and not isinstance(text, str):
            raise TypeError("a file's text must be text")
        return Change(item["file"], None, None, None, bool(item.get("created")), text)
    if not isinstance(key, str):
        raise TypeError("a change's key must be text")
    return Change(item["file"], key, item.get("from"), item.get("to"),
                  correction=item.get("correction") is True)


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 20 else text[:17] + "..."
