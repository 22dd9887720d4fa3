"""What this clone has proven of its journal (docs/rules.md, "The journal only grows"):
each line of the last journal whose whole history it proved, as a digest, kept in its
git folder (cwx/) where no pull, fetch or reset reaches. A history HEAD moved onto, in
whatever way, whose journal drops, changes or moves one of them is named against it.

The digests are kept as a journal of their own (`{"v":0,"id":"…","d":"…"}`, a line's id
and digest), so the rule that proves a commit (grows.extends) proves the memory too.
"""

from __future__ import annotations

import hashlib
import os
import re

from cwx.base.record import Record
from cwx.git import repo
from cwx.git.repo import Repository
from cwx.journal import lines as journal

_HEADER = re.compile(r"^cwx-seen ([0-9a-f]{40,64}) ([0-9a-f]{40,64})\n")


class Seen(Record):
    """The journal this clone last proved: the commit that held it, its blob, its lines'
    digests (form)."""

    commit: str
    blob: str
    form: bytes


def form(raw: bytes) -> bytes:
    """A journal's lines as digests, one line each, in order: equal lines, equal digests;
    a line's id kept, so a line changed under its id is told from one removed."""
    made = []
    for line in journal.git_lines(raw):
        digest = hashlib.blake2b(line, digest_size=12).hexdigest().encode()
        id_ = journal.id_of(line)  # as JSON reads it, however the line spells it
        made.append(b'{"v":0,"id":' + _quoted(id_) + b',"d":"' + digest + b'"}\n'
                    if id_ is not None else b'{"d":"' + digest + b'"}\n')
    return b"".join(made)


def _quoted(id_: bytes) -> bytes:
    """An id as a digest line holds it: as cwx writes one, so id_of reads it back."""
    text = id_.decode("utf-8", "surrogatepass")
    try:
        return journal.dumps(text).encode()
    except UnicodeEncodeError:  # a lone surrogate: escaped
        return journal.dumps(text, ascii=True).encode()


def _file(clone: Repository, path: str) -> str:
    key = hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return os.path.join(repo.git_folder(clone), "cwx", f"journal-seen-{key}")


def recalled(clone: Repository, path: str) -> Seen | None:
    """What this clone last proved of the journal at `path`; None: nothing yet (a fresh
    clone, or one from before cwx kept it), or a file that is not whole."""
    try:
        with open(_file(clone, path), "rb") as kept:
            raw = kept.read()
    except OSError:
        return None
    header, _, rest = raw.partition(b"\n")
    found = _HEADER.match(header.decode("ascii", "replace") + "\n")
    if found is None or (rest and not rest.endswith(b"\n")):
        return None
    return Seen(found.group(1), found.group(2), rest)


def remember(clone: Repository, path: str, seen: Seen) -> None:
    """`seen` kept as what this clone has proven: by a whole rewrite of the file (a
    temporary renamed over it), never half."""
    file = _file(clone, path)
    temp = f"{file}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(file), exist_ok=True)
        with open(temp, "wb") as out:
            out.write(f"cwx-seen {seen.commit} {seen.blob}\n".encode() + seen.form)
        os.replace(temp, file)
    except OSError:
        pass  # a git folder that cannot be written: the clone remembers less, said nothing

