"""What this clone has proven of its journal (docs/rules.md, "The journal only grows"):
each line of the last journal whose whole history it proved, as a digest, kept in its
git folder (cwx/) where no pull, fetch or reset reaches: one such journal per branch, as
each branch is its own history. A history a branch moved onto, in whatever way, whose
journal drops, changes or moves one of them is named against it.

The digests are kept as a journal of their own (`{"v":0,"id":"…","d":"…"}`, a line's id
and digest), so the rule that proves a commit (grows.extends) proves the memory too.
"""

from __future__ import annotations

import contextlib
import os
import re

from cwx.base import digests
from cwx.base.record import Record
from cwx.git import repo
from cwx.git.repo import Repository
from cwx.journal import lines as journal

_HEADER = re.compile(r"^cwx-seen ([0-9a-f]{40,64}) ([0-9a-f]{40,64})(?: ([0-9a-f]+))?\n")
DETACHED = "HEAD"  # HEAD on no branch: a commit checked out to look at, a rebase of none


class Seen(Record):
    """The journal this clone last proved on a branch: the commit that held it, its blob,
    its lines' digests (form), and the branch (its full ref name, or DETACHED)."""

    commit: str
    blob: str
    form: bytes
    ref: str = DETACHED


def form(raw: bytes) -> bytes:
    """A journal's lines as digests, one line each, in order: equal lines, equal digests;
    a line's id kept, so a line changed under its id is told from one removed."""
    made = []
    for line in journal.git_lines(raw):
        digest = digests.blake2b(line, digest_size=12).encode()
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


def branch(clone: Repository, named: str | None = None) -> str:
    """The branch HEAD is on (its full ref name), the one a rebase under way makes anew,
    or DETACHED. `named`: the ref HEAD names as git said it already (DETACHED: none),
    not asked again."""
    if named is None:
        done = repo.run(clone, "symbolic-ref", "--quiet", "HEAD")
        named = done.stdout.decode("utf-8", "surrogateescape").strip() \
            if done.returncode == 0 else DETACHED
    if named != DETACHED:
        return named
    for where in ("rebase-merge", "rebase-apply"):  # HEAD stands partway, off its branch
        try:
            with open(os.path.join(repo.git_folder(clone), where, "head-name"), "rb") as file:
                ref = file.read().decode("utf-8", "surrogateescape").strip()
        except OSError:
            continue
        if ref.startswith("refs/heads/"):
            return ref
    return DETACHED


def _key(path: str) -> str:
    return digests.sha256(path.encode("utf-8", "surrogateescape"))[:16]


def _file(clone: Repository, path: str, ref: str | None) -> str:
    """The file of one branch's memory (`ref`), or the one memory of a clone from before
    cwx kept one per branch (None)."""
    name = f"journal-seen-{_key(path)}"
    if ref is not None:
        name += "-" + digests.sha256(ref.encode("utf-8", "surrogateescape"))[:16]
    return os.path.join(repo.git_folder(clone), "cwx", name)


def _read(file: str, ref: str) -> Seen | None:
    try:
        with open(file, "rb") as kept:
            raw = kept.read()
    except OSError:
        return None
    header, _, rest = raw.partition(b"\n")
    found = _HEADER.match(header.decode("ascii", "replace") + "\n")
    if found is None or (rest and not rest.endswith(b"\n")):
        return None
    named = bytes.fromhex(found.group(3)).decode("utf-8", "surrogateescape") \
        if found.group(3) and len(found.group(3)) % 2 == 0 else ref
    return Seen(found.group(1), found.group(2), rest, named)


def recalled(clone: Repository, path: str, ref: str | None = None) -> Seen | None:
    """What this clone last proved of the journal at `path` on the branch `ref` (None:
    the one HEAD is on); None: nothing yet (a fresh clone, a branch never proven), or a
    file that is not whole. A clone's one memory from before is its first branch's."""
    ref = branch(clone) if ref is None else ref
    return _read(_file(clone, path, ref), ref) or _read(_file(clone, path, None), ref)


def others(clone: Repository, path: str, ref: str) -> list[Seen]:
    """What this clone proved of the journal at `path` on every branch but `ref`."""
    folder = os.path.join(repo.git_folder(clone), "cwx")
    start = f"journal-seen-{_key(path)}-"
    try:
        names = sorted(name for name in os.listdir(folder)
                       if name.startswith(start) and not name.endswith(".tmp"))
    except OSError:
        return []
    found = [_read(os.path.join(folder, name), "") for name in names]
    return [kept for kept in found if kept is not None and kept.ref not in ("", ref)]


def forget(clone: Repository, path: str, ref: str) -> None:
    """A branch's memory given up: its lines are all held where the clone stands."""
    with contextlib.suppress(OSError):
        os.remove(_file(clone, path, ref))


def remember(clone: Repository, path: str, seen: Seen) -> None:
    """`seen` kept as what this clone has proven on its branch: by a whole rewrite of the
    file (a temporary renamed over it), never half. The clone's one memory from before
    goes: it was this branch's."""
    ref = seen.ref.encode("utf-8", "surrogateescape").hex()
    if repo.write_whole(_file(clone, path, seen.ref),
                        f"cwx-seen {seen.commit} {seen.blob} {ref}\n".encode() + seen.form):
        with contextlib.suppress(OSError):
            os.remove(_file(clone, path, None))

