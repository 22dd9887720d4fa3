"""The journal's history in git: a line once committed is never changed, removed or moved
(docs/rules.md, "The journal only grows").

A commit's journal *extends* each parent's when every line of the parent's is in it, whole
and in the parent's order, and no line it adds carries the id of a line the parent had
with other contents. A merge's new lines may stand anywhere among the old ones (a union
merge interleaves two clones' lines); a commit of one parent adds its lines after them
all, as a rebase, a cherry-pick, a squash or a stash popped does. What is proven
is kept in the clone's git folder (cwx/), by commit id, so a long history is proven once;
and, per branch, the last journal proven whole (seen.py), so a history made anew, whose
every commit extends its parent, is named against what this clone had on that branch.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial

from cwx.base import digests
from cwx.base.errors import Conflict, CwxError
from cwx.base.record import Record
from cwx.git import repo
from cwx.git.repo import Repository
from cwx.git.versions import Blobs, walked
from cwx.journal import lines as journal

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import BinaryIO

    from cwx.git.seen import Seen

# A line's id is the one JSON reads, however it is spelled (keys in another order, escapes,
# spaces, a key twice): journal.id_of.
_id_of = journal.id_of


class Break(Record):
    """Where a journal stops extending an older one: the older journal's line (from 1), and
    what became of it ("changed", "removed" or "moved"), or "repeated": a line added
    that carries its id (an earlier event's) with other contents, or "preceded": a
    commit of one parent put a line before it."""

    line: int
    how: str


class Rewrite(Record):
    """A commit whose journal does not extend a parent's (or the work tree's, HEAD's), or
    (`proven`) a history whose journal does not extend the one this clone had proven."""

    commit: str  # its full id; "" for the work tree
    parent: str  # the parent's full id (for the work tree, HEAD's; if proven, the clone's)
    author: str  # who committed it: "Mallory <m@table>" (and who authored it, if another)
    line: int  # as the parent's journal numbers it
    how: str
    proven: bool = False  # `parent` is the commit this clone last proved the journal at
    made: bool = True  # the commit made the change (False: HEAD was moved onto it)
    deleted: str = ""  # the branch it was proven on, deleted since (its full ref name)

    def said(self) -> str:
        """"commit 1a2b3c4d5e6f by Mallory <m@table> changed line 7 of the journal as
        9f8e7d6c5b4a had it"."""
        what = (f"added a line repeating the id of line {self.line} (an earlier event's id) "
                if self.how == "repeated" else f"put a new line before line {self.line} "
                if self.how == "preceded" else f"{self.how} line {self.line} ")
        # A line put before an old one leaves it whole: why that is a rewrite is said.
        why = "" if self.how != "preceded" else \
            " (a history that leaves out the commit it was proven at adds its lines after " \
            "those the table had)" if self.proven else \
            " (a commit that merges nothing adds its lines after the old)"
        if not self.commit:
            return f"the journal here {what}of the journal as the last commit " \
                f"({self.parent[:12]}) has it{why}"
        had = (f"of the journal as this clone had proven it (at {self.parent[:12]})"
               if self.proven else f"of the journal as {self.parent[:12]} had it")
        if self.deleted and not self.made:
            return (f"branch {_short(self.deleted)} was deleted holding line {self.line} of "
                    f"the journal as this clone had proven it there (at {self.parent[:12]}), "
                    "which no branch holds now, nor the journal here: its turns were taken "
                    "out with git")
        if not self.made:
            return (f"the history this clone now stands on (HEAD {self.commit[:12]}, "
                    f"committed by {self.author}) does not hold line {self.line} {had} as "
                    "it was: no commit of it made the change, the branch was moved there "
                    "(a reset or a forced push)")
        return f"commit {self.commit[:12]} by {self.author} {what}{had}{why}"


def _short(ref: str) -> str:
    """A branch as a person names it: refs/heads/side is side."""
    return ref.removeprefix("refs/heads/")


def extends(old: bytes, new: bytes, *, after: bool = False) -> Break | None:
    """None when `new` extends `old` (above); else the first line of `old` it breaks.
    `after`: as a commit of one parent must, with every line it adds after the old."""
    if new.startswith(old) and (not old or old.endswith(b"\n")):
        added = new[len(old):]  # appended: only an id met before can break it
        return _twin(journal.git_lines(old), journal.git_lines(added)) if _met(_ids(added), old) else None
    before, lines = journal.git_lines(old), journal.git_lines(new)
    at = 0
    for number, line in enumerate(before, 1):
        try:
            at = lines.index(line, at) + 1
        except ValueError:
            return Break(number, _how(line, lines))
    kept = set(before)
    new_lines = [line for line in lines if line not in kept]
    twin = _twin(before, new_lines) if _met(_ids(b"\n".join(new_lines)), old) else None
    if twin is None and after and lines[:len(before)] != before:
        # Every old line kept, in order, but one stands after a line that was not there
        # (a new one, or a copy of a later one): the first old line so moved down.
        first = next(at for at, line in enumerate(before) if lines[at] != line)
        return Break(first + 1, "preceded")
    return twin


def _appended_alone(old: bytes, head: bytes, rest: BinaryIO) -> bool:
    """Whether a journal whose start is `head` and the rest of it still to read from
    `rest` only appends lines to `old` that carry no id of its: the rest read a line at
    a time, never held whole (100,000 lines not yet committed: 121 MB)."""
    if head != old or (old and not old.endswith(b"\n")):
        return False
    ids = _ids(old)
    if not ids:  # no line of `old` to repeat
        return True
    return journal.carries_any(rest, ids) is False  # too long to hold: compared whole


def _grown_alone(clone: Repository, path: str, journal_file: str, block: int = 1 << 20
                 ) -> bool:
    """Whether the work tree's journal is HEAD's with lines appended that carry no id of
    its: HEAD's read a block at a time beside it, neither held whole (a commit of
    100,000 lines, 114 MB, held with the work tree's and its lines once cost check and
    sync 377 MB). False: it may not be (a commit holding none, a line changed), which is
    then compared line for line."""
    file = journal.opened(journal_file)
    if file is None:
        return False
    shown = repo.reader(clone, "cat-file", "blob", f"HEAD:{path}")
    assert shown.stdin is not None and shown.stdout is not None
    shown.stdin.close()
    ids: set[bytes] = set()
    same, rest, last = True, b"", b""
    with file:
        while same and (chunk := shown.stdout.read(block)):
            same = file.read(len(chunk)) == chunk
            lines = (rest + chunk).split(b"\n")
            rest = lines.pop()
            ids.update(id_ for line in lines if (id_ := _id_of(
                line[:-1] if line.endswith(b"\r") else line)) is not None)
            last = chunk[-1:]
        shown.stdout.close()
        if shown.wait() != 0 or not same or last != b"\n":
            return False  # none, or changed, or a last line a line appended would change
        return not ids or journal.carries_any(file, ids) is False


def _ids(raw: bytes) -> set[bytes]:
    return {id_ for line in journal.git_lines(raw) if (id_ := _id_of(line)) is not None}


def _met(ids: set[bytes], old: bytes) -> bool:
    """Whether a line of `old` carries any of `ids`: a few looked for (a C scan each, and
    the lines it finds read), many at once (a merge's) against every id it holds."""
    if len(ids) > 8:
        return bool(ids & _ids(old))
    return any(_id_of(line) in ids for line in journal.lines_holding(old, tuple(ids)))


def _twin(old: list[bytes], added: list[bytes]) -> Break | None:
    """The old line whose id an added line (with other contents) carries: changed."""
    had = set(old)
    ids = _ids(b"\n".join(line for line in added if line not in had))
    for number, line in enumerate(old, 1):
        if _id_of(line) in ids:
            return Break(number, "repeated")
    return None


def _how(line: bytes, after: list[bytes]) -> str:
    if line in after:
        return "moved"
    id_ = _id_of(line)
    if id_ is not None and any(_id_of(other) == id_ for other in after):
        return "changed"
    return "removed"


# ---------------------------------------------------------------- git


RULES = b"after\0"  # what _Proven's commits were proven by: changed, a history is proven anew


class _Proven:
    """What this clone has proven of one journal's history: the commits whose journal
    extends each parent's, and the latest HEAD whose whole history did."""

    def __init__(self, clone: Repository, path: str) -> None:
        folder = os.path.join(repo.git_folder(clone), "cwx")
        # Keyed by the rule too: a commit proven before a commit of one parent had to add
        # its lines after the old is proven again (once) by the rule as it stands.
        key = digests.sha256(RULES + path.encode("utf-8", "surrogateescape"))[:16]
        self.file = os.path.join(folder, f"journal-proven-{key}")
        self.commits: set[str] = set()
        self.clean: str | None = None
        self.new: list[str] = []
        try:
            with open(self.file, encoding="ascii", errors="replace") as listed:
                for line in listed:
                    kind, _, commit = line.strip().partition(" ")
                    if repo.FULL_ID.fullmatch(commit):
                        if kind == "ok":
                            self.commits.add(commit)
                        elif kind == "clean":
                            self.clean = commit
        except OSError:
            pass

    def save(self, clean: str | None) -> None:
        """The commits proven since, and (when the whole history is) HEAD as clean. Kept
        by a whole rewrite of the file (a temporary renamed over it): never half."""
        if not self.new and clean == self.clean:
            return
        lines = [f"ok {commit}\n" for commit in sorted(self.commits)]
        if clean is not None:
            lines.append(f"clean {clean}\n")
        # A clone whose git folder cannot be written proves it again next time.
        repo.write_whole(self.file, "".join(lines).encode("ascii"))


def rewrites(clone: Repository, path: str, head: str = "HEAD", *,
             ended: bool = False, read: Blobs | None = None) -> list[Rewrite]:
    """Every commit of `head`'s history whose journal (at `path`, from the clone's top)
    does not extend a parent's, oldest first: what is proven is kept, so a history is
    read once. `ended`: a rebase git still holds has made its last commit (its hook).
    `read`: the caller's reader of blobs, which it goes on asking (else one of its own)."""
    if "\n" in path:
        return []  # a name git cannot take
    # The commit `head` names, once: every later question is of it (and HEAD may move).
    standing = _standing(clone) if head == "HEAD" else _commit_of(clone, head)
    if standing is None:
        return []  # no commit yet: no history to prove
    tip, tips, named = standing
    proven = _Proven(clone, path) if head == "HEAD" else None
    if proven is not None:
        _note_table(clone, tips)
    since = proven.clean if proven is not None else None
    # Nothing past the commit proven whole: no walk to ask git for.
    listed = [] if since == tip else list(walked(clone, path, since, tip))
    todo = [(commit, parents) for commit, parents in listed
            if proven is None or commit not in proven.commits]
    found: list[Rewrite] = []
    blobs_of: dict[str, str] = {}
    own = read is None
    read = Blobs(clone) if read is None else read  # one for the walk and the memory alike
    try:
        if todo:
            blobs_of = read.ids(sorted({c for commit, parents in todo
                                        for c in (commit, *parents)}), path)
            for commit, parents in todo:
                # Only a merge interleaves: a commit of one parent (in the journal's
                # history) adds its lines after the old, whatever way git made it.
                broken = [(parent, gap) for parent in parents
                          if blobs_of.get(parent, "") != blobs_of.get(commit, "") and
                          (gap := extends(read(blobs_of.get(parent, "")),
                                          read(blobs_of.get(commit, "")),
                                          after=len(parents) == 1)) is not None]
                if broken:
                    found += [Rewrite(commit, parent, _author(clone, commit), gap.line,
                                      gap.how) for parent, gap in broken]
                elif proven is not None:
                    proven.commits.add(commit)
                    proven.new.append(commit)
        if proven is not None:
            whole = not found and not any(commit not in proven.commits
                                          for commit, _ in listed)
            drifted = _against_seen(clone, path, whole, ended, tip, blobs_of.get(tip), read,
                                    named)
            if drifted is not None:
                whole = False
                if all(drifted.commit != other.commit for other in found):
                    found.append(drifted)
            proven.save(tip if whole else proven.clean)
    finally:
        if own:
            read.close()
    return found


def _standing(clone: Repository) -> tuple[str, set[str] | None, str | None] | None:
    """HEAD's commit, where the remotes' branches stand (held.note's question) and the ref
    HEAD names ("HEAD" where it names none: seen.branch's), asked in one `git rev-parse`;
    None: no commit yet. Where git's answer is not a commit, the remotes' commits and a
    name, in that order (a ref named HEAD beside HEAD makes git name none), the commit is
    asked alone as before, and the rest left to be asked where it is needed (None)."""
    told = repo.run(clone, "rev-parse", "HEAD^{commit}", "--remotes", "--symbolic-full-name",
                    "HEAD")
    said = told.stdout.decode("utf-8", "surrogateescape").split("\n")
    if told.returncode == 0 and len(said) >= 3 and said[-1] == "" and \
            all(repo.FULL_ID.fullmatch(line) for line in said[:-2]) and \
            (said[-2] == "HEAD" or said[-2].startswith("refs/")):
        # A broken ref (unreadable, or a name git refuses) for-each-ref leaves out, and
        # --remotes gives as the null id: no commit either way.
        return said[0], {name for name in said[1:-2] if name.strip("0")}, said[-2]
    return _commit_of(clone, "HEAD")


def _commit_of(clone: Repository, head: str) -> tuple[str, None, None] | None:
    """The commit `head` names (None: none), the rest not asked."""
    named = repo.run(clone, "rev-parse", "--verify", "--quiet", f"{head}^{{commit}}")
    if named.returncode != 0:
        return None
    return named.stdout.decode().strip(), None, None


def _against_seen(clone: Repository, path: str, whole: bool, ended: bool, head: str,
                  blob: str | None, read: Blobs, named: str | None = None) -> Rewrite | None:
    """HEAD's journal (HEAD is the commit `head`; its journal's `blob`, where the walk
    read it; `named`, the ref HEAD names where git said it) against the one this clone
    last proved (seen.py), however HEAD came here:
    the first line it no longer holds as it was, named by the commit that broke it; else,
    when HEAD's whole history is proven (`whole`), HEAD's journal kept as the one proven."""
    from cwx.git import seen

    if not ended and repo.rebasing(clone):
        return None  # HEAD is partway: the clone's own commits wait to be made anew on it
    # Each branch is held to what this clone proved on it: another branch's turns (played
    # there, or made anew there by a rebase) are not this history's to hold.
    ref = seen.branch(clone, named)
    # HEAD on no branch (a commit looked at) is no history of the clone's: never its own.
    kept = seen.recalled(clone, path, ref) if ref != seen.DETACHED else None
    if (dropped := _dropped(clone, path, ref, head, blob, read)) is not None:
        return dropped
    if kept is not None and kept.commit == head:
        return None  # a commit's journal is what it was when this clone proved it
    if blob is None:
        blob = read.ids([head], path).get(head, "")
    if kept is not None and kept.blob == blob:
        return None
    now = seen.form(read(blob))
    if kept is not None and (gap := extends(kept.form, now)) is not None:
        if _held_still(clone, path, kept, gap, now, head, read):
            return None  # kept as proven: HEAD holds it again once merged or committed
        return _breaker(clone, path, kept, gap, head, read)
    if kept is not None and (shared := _shared(clone, path, kept, now, head, read)):
        gap = _stands_before(now, shared, kept.form)
        if gap is not None:
            return _breaker(clone, path, kept, gap, head, read,
                            lambda made: _stands_before(made, shared, kept.form) is not None)
    if kept is None and (other := _against_others(clone, path, ref, head, now, read)):
        return other
    if whole and ref != seen.DETACHED and \
            (kept is None or not _unsigned_since(clone, path, kept.commit, head, read)):
        seen.remember(clone, path, seen.Seen(head, blob, now, ref))
    return None


def _against_others(clone: Repository, path: str, ref: str, head: str, now: bytes,
                    read: Blobs) -> Rewrite | None:
    """A branch this clone never proved (new, or HEAD on none), held to each other
    branch's proven journal whose commit it does not hold, by the table's lines of it
    past where the two histories part: a history made anew (`git switch -c x
    origin/main` after a forced push) may not change, move or skip one it holds, nor put
    a new line before it. A branch of its own, cut earlier, holds none of them."""
    from cwx.git import seen

    for kept in seen.others(clone, path, ref):
        if kept.ref == seen.DETACHED or repo.run(
                clone, "merge-base", "--is-ancestor", kept.commit, head).returncode == 0:
            continue  # its walk proves HEAD's journal extends the proven one
        parted = repo.run(clone, "merge-base", kept.commit, head).stdout.decode().split()
        base = set(journal.git_lines(seen.form(read(
            read.ids(parted[:1], path).get(parted[0], ""))))) if parted else set()
        table = {line for line in _table_lines(clone, path, kept, read) if line not in base}
        if table and (gap := _keeps_table(now, kept.form, table)) is not None:
            return _breaker(clone, path, kept, gap, head, read,
                            partial(_breaks_table, proven=kept.form, table=table))
    return None


def _breaks_table(made: bytes, proven: bytes, table: set[bytes]) -> bool:
    return _keeps_table(made, proven, table) is not None


def _keeps_table(made: bytes, proven: bytes, table: set[bytes]) -> Break | None:
    """Where a journal (`made`, as digests) breaks the `table`'s lines of a `proven` one
    (numbered as it has them): one changed (a line of its id, other contents), moved,
    left out before one held, or a new line put before one."""
    old = journal.git_lines(proven)
    at = {line: number for number, line in enumerate(old, 1) if line in table}
    ids = {id_: number for line, number in at.items() if (id_ := _id_of(line)) is not None}
    had = set(old)
    last, held, new_seen = 0, set(), False
    for line in journal.git_lines(made):
        number = at.get(line)
        if number is None:
            if line not in had:
                id_ = _id_of(line)
                if id_ is not None and id_ in ids:
                    return Break(ids[id_], "changed")
                new_seen = True
            continue
        if number < last:
            return Break(number, "moved")
        if new_seen:
            return Break(number, "preceded")
        last = number
        held.add(number)
    skipped = sorted(number for number in at.values() if number < last and number not in held)
    return Break(skipped[0], "removed") if skipped else None


def _dropped(clone: Repository, path: str, ref: str, head: str, blob: str | None,
             read: Blobs) -> Rewrite | None:
    """A branch deleted while no branch (of this clone's, or a remote's as last fetched)
    holds the commit it was proven at, nor HEAD's journal its proven lines: its turns taken
    out with git, named as that. One whose lines HEAD's branch holds is forgotten (merged,
    squashed or made anew): that branch is held to them now."""
    from cwx.git import seen

    gone = [kept for kept in seen.others(clone, path, ref) if kept.ref != seen.DETACHED]
    if not gone:
        return None
    listed = repo.run(clone, "for-each-ref", "--format=%(refname)", "refs/heads/")
    standing = set(listed.stdout.decode("utf-8", "surrogateescape").splitlines())
    now: bytes | None = None
    for kept in gone:
        if kept.ref in standing:
            continue  # held to it on that branch, when HEAD stands there
        if now is None:
            blob = read.ids([head], path).get(head, "") if blob is None else blob
            now = seen.form(read(blob))
        gap = extends(kept.form, now)
        if gap is None:
            if ref != seen.DETACHED:  # this branch now holds them, and is held to them
                seen.forget(clone, path, kept.ref)
            continue
        held = repo.run(clone, "for-each-ref", "--count=1", "--contains", kept.commit,
                        "--format=%(refname)", "refs/heads/", "refs/remotes/")
        if held.returncode == 0 and held.stdout.strip():
            continue
        found = _breaker(clone, path, kept, gap, head, read)
        return found if found.made else found._replace(deleted=kept.ref)
    return None


def _unsigned_since(clone: Repository, path: str, commit: str, head: str, read: Blobs) -> bool:
    """Whether, where players' keys are listed, HEAD's journal (HEAD is the commit `head`)
    holds a line new since the proven one (at `commit`) not signed by its player's key: it
    is never proven, so the step back a refusal gives stays clean, and sync stays refused
    until it is taken."""
    from cwx.git import keyring

    return bool(keyring.unsigned_since(clone, path, commit, head, read))


def _shared(clone: Repository, path: str, kept: Seen, now: bytes, head: str,
            read: Blobs) -> set[bytes]:
    """Where HEAD's journal (`now`, as digests) holds every line this clone had proven, in
    order, with a new line among them, and HEAD's history does not hold the commit that
    proved them (a history made anew, or a rebase of the clone's own commits): the proven
    lines the table had too (as digests), before which no new line may stand. Only the
    clone's own lines, never pushed nor fetched, are made anew after the table's new ones
    (a rebase); a merge interleaves two clones' lines, but a merge holds the proven commit.
    None needed (empty) otherwise."""
    if now.startswith(kept.form) or repo.run(clone, "merge-base", "--is-ancestor",
                                              kept.commit, head).returncode == 0:
        return set()
    return _table_lines(clone, path, kept, read)


def _table_lines(clone: Repository, path: str, kept: Seen, read: Blobs) -> set[bytes]:
    """The lines of a proven journal (as digests) the table had too."""
    from cwx.git import seen

    shared: set[bytes] = set()
    fetched = _fetched(clone)
    for base in _shared_bases(clone, kept.commit, fetched):
        held = kept.form if base == kept.commit else \
            seen.form(read(read.ids([base], path).get(base, "")))
        shared.update(journal.git_lines(held))
    if fetched:  # what the table's journal holds, as last fetched, is the table's
        table = set(journal.git_lines(seen.form(read(read.ids(fetched, path).get(
            fetched[0], "")))))
        shared.update(line for line in journal.git_lines(kept.form) if line in table)
    return shared


def _fetched(clone: Repository) -> list[str]:
    """The commit git last fetched (FETCH_HEAD): a pull by URL leaves no remote's branch."""
    done = repo.run(clone, "rev-parse", "--verify", "--quiet", "FETCH_HEAD^{commit}")
    return done.stdout.decode().split()[:1] if done.returncode == 0 else []


def _shared_bases(clone: Repository, commit: str, fetched: list[str]) -> list[str]:
    """The latest commits of `commit`'s history the table had too (_table_had), or the
    last fetch brought. Where none is known (a clone that never fetched), or the commit is
    gone, all of it counts as shared. Those found are kept (held.py): a rewrite named by
    the reflogs stays named once they expire."""
    from cwx.git import held

    if not _holds(clone, commit):
        return [commit]
    had = _table_had(clone) | set(fetched)
    if not had:
        return [commit]
    # The best common ancestors of the commit and all of them at once (git's merge-base
    # of one commit and a merge of the others).
    bases = repo.run(clone, "merge-base", "--all", commit, *sorted(had))
    if bases.returncode != 0:
        return []
    found = bases.stdout.decode().split()
    held.note(clone, found)
    return found


def _note_table(clone: Repository, tips: set[str] | None) -> None:
    """Where the remotes' branches stand (`tips`, where git said it already) kept
    (held.py): past `git reflog expire`."""
    from cwx.git import held

    held.note(clone, tips=tips)


def _table_had(clone: Repository) -> set[str]:
    """The commits a remote's branch held as this clone last fetched or pushed it, or once
    did: its reflog (and where the oldest entry moved it from, a push before an expiry),
    and held.py's memory, which outlives `git reflog expire`."""
    from cwx.git import held

    refs = repo.run(clone, "for-each-ref", "--format=%(refname)", "refs/remotes/")
    had: set[str] = set()
    named: list[str] = []  # each branch and where its reflog's oldest entry moved it from
    for ref in refs.stdout.decode("utf-8", "surrogateescape").split():
        logged = repo.run(clone, "reflog", "show", "--format=%H", ref, "--")
        entries = logged.stdout.decode().split()
        named += [ref, *([f"{ref}@{{{len(entries)}}}"] if entries else [])]
        had.update(entries)
    had.update(held.recalled(clone, named))  # one git call for what they name, and held's
    return {name for name in had if repo.FULL_ID.fullmatch(name)}


def _stands_before(made: bytes, shared: set[bytes], proven: bytes) -> Break | None:
    """The first shared line (numbered as the `proven` journal has it) that a line new to
    it stands before, in a journal `made` (as digests)."""
    had = {line: number for number, line in enumerate(journal.git_lines(proven), 1)}
    new_seen = False
    for line in journal.git_lines(made):
        if line not in had:
            new_seen = True
        elif new_seen and line in shared:
            return Break(had[line], "preceded")
    return None


def _breaker(clone: Repository, path: str, kept: Seen, gap: Break, head: str, read: Blobs,
             breaks: Callable[[bytes], bool] | None = None) -> Rewrite:
    """Who broke the journal this clone had proven: the first commit (oldest first) of
    HEAD's history, past the proven one, whose journal changes, repeats or moves a proven
    line, or leaves out the broken one while holding a later one (it rewrote the history,
    a commit anew in its committer's name), or (`breaks`, given a journal as digests) as
    that says; else HEAD, moved onto a history without it."""
    from cwx.git import seen

    had = kept.commit if _holds(clone, kept.commit) else None
    old = journal.git_lines(kept.form)
    at = {line: number for number, line in enumerate(old)}
    ids = {id_ for line in old if (id_ := _id_of(line)) is not None}
    listed = [commit for commit, _ in walked(clone, path, had)]
    blobs_of = read.ids(listed, path)
    for commit in listed:
        made = seen.form(read(blobs_of.get(commit, "")))
        if breaks(made) if breaks is not None else \
                _breaks(journal.git_lines(made), at, ids, gap):
            own = extends(kept.form, made)  # what this commit did, if it says more
            said = own if own is not None and own.how != "removed" else gap
            return Rewrite(commit, kept.commit, _author(clone, commit), said.line,
                           said.how, proven=True)
    return Rewrite(head, kept.commit, _author(clone, head), gap.line, gap.how,
                   proven=True, made=False)


def _held_still(clone: Repository, path: str, kept: Seen, gap: Break, now: bytes, head: str,
                read: Blobs) -> bool:
    """Whether HEAD's journal lacks proven lines only because they wait elsewhere in this
    clone: on a branch of its own (played on, then main played on, before merging it), or
    to be committed again (`git reset --soft`, to squash turns not yet pushed). HEAD
    holds the proven lines up to the first it lacks, none after it, in their order; and
    a local branch still holds the commit that proved them, or the index's journal or
    the work tree's extends the proven one. A `git reset --hard`, or a branch moved onto
    a history made anew, leaves them nowhere."""
    from cwx.git import seen

    old = journal.git_lines(kept.form)
    at = {line: number for number, line in enumerate(old)}
    ids = {id_ for line in old if (id_ := _id_of(line)) is not None}
    if gap.how != "removed" or _breaks(journal.git_lines(now), at, ids, gap) or \
            repo.run(clone, "merge-base", "--is-ancestor", kept.commit, head).returncode == 0:
        return False
    held = repo.run(clone, "for-each-ref", "--count=1", "--contains", kept.commit,
                    "--format=%(refname)", "refs/heads/")
    if held.returncode == 0 and held.stdout.strip():
        return True
    staged = repo.run(clone, "rev-parse", "--verify", "--quiet", f":0:{path}")
    if staged.returncode == 0 and \
            extends(kept.form, seen.form(read(staged.stdout.decode().strip()))) is None:
        return True
    try:  # a reset that kept the work tree (`git reset HEAD~2`, to commit anew)
        with open(os.path.join(clone.top, path), "rb") as file:
            return extends(kept.form, seen.form(file.read())) is None
    except OSError:
        return False


def _breaks(new: list[bytes], at: dict[bytes, int], ids: set[bytes], gap: Break) -> bool:
    """Whether a journal (as digests) breaks the proven one (`at`: its lines' places,
    `ids`: theirs) as no honest commit's can: a proven line's id on other contents, proven
    lines in another order, or the broken line left out where a later one is held."""
    last = -1
    held: set[int] = set()
    for line in new:
        number = at.get(line)
        if number is None:
            if _id_of(line) in ids:
                return True
            continue
        if number < last:
            return True
        last = number
        held.add(number)
    return gap.how == "removed" and gap.line - 1 not in held and last > gap.line - 1


def _holds(clone: Repository, commit: str) -> bool:
    return repo.run(clone, "cat-file", "-e", f"{commit}^{{commit}}").returncode == 0


def _author(clone: Repository, commit: str) -> str:
    """Who committed `commit` (who rewrote a history commits anew, keeping the authors),
    and who authored it where that is another."""
    from cwx.base.printable import printable

    committer, _, author = repo.git(clone, "show", "-s", "--format=%cn <%ce>%x00%an <%ae>",
                                    commit).partition("\0")
    return printable(committer if author in ("", committer) else
                     f"{committer} (authored by {author})")


def in_work_tree(clone: Repository, path: str, journal_file: str) -> Rewrite | None:
    """The work tree's journal against HEAD's, as the next commit will be proven: a line
    committed, changed by hand since, or (but in a merge being concluded) one put before."""
    if "\n" in path:
        return None
    if _grown_alone(clone, path, journal_file):
        return None
    shown = repo.run(clone, "cat-file", "blob", f"HEAD:{path}")  # one call, not two
    if shown.returncode != 0:
        return None  # no commit, or none holding a journal
    committed = shown.stdout
    file = journal.opened(journal_file)
    if file is None:
        here = b""
    else:
        with file:
            here = file.read(len(committed))
            if _appended_alone(committed, here, file):
                return None
            file.seek(len(here))
            here += file.read()  # changed, or an id met again: every line compared
    # The commit that concludes a merge has two parents (its new lines may stand among the
    # old); any other (a rebase's, a cherry-pick's, a squash's, a stash popped) has one.
    merging = os.path.exists(os.path.join(repo.git_folder(clone), "MERGE_HEAD"))
    gap = extends(committed, here, after=not merging)
    if gap is None:
        return None
    return Rewrite("", repo.git(clone, "rev-parse", "HEAD"), "", gap.line, gap.how)


def brought(clone: Repository, path: str, before: str) -> Rewrite | None:
    """What a merge, pull or rebase that moved HEAD from `before` brought that breaks the
    journal: a commit rewriting a line (of any history HEAD has now and `before` had not),
    or HEAD's journal not extending `before`'s (a history made anew), named by the first
    brought commit whose journal does not extend `before`'s."""
    read = Blobs(clone)  # one reader for the proof and what was brought
    try:
        # A break of what this clone had proven first: it names who rewrote the history,
        # where a merge of the two histories is only where the two met.
        for found in sorted(rewrites(clone, path, ended=True, read=read),
                            key=lambda rewrite: not rewrite.proven):
            if found.proven or repo.run(clone, "merge-base", "--is-ancestor", found.commit,
                                        before).returncode != 0:
                return found
        blobs_of = read.ids([before, "HEAD"], path)
        if blobs_of.get(before) == blobs_of.get("HEAD") or not blobs_of.get(before):
            return None
        had = read(blobs_of[before])
        if extends(had, read(blobs_of.get("HEAD", ""))) is None:
            return None
        brought = [commit for commit, _ in walked(clone, path, before)]
        now = read.ids(brought, path)
        for commit in brought:
            gap = extends(had, read(now.get(commit, "")))
            if gap is not None:
                return Rewrite(commit, before, _author(clone, commit), gap.line, gap.how)
    finally:
        read.close()
    return None


# ---------------------------------------------------------------- what check and the hooks say

REFUSED = "cwx reconciled nothing:"  # the start of a refusal's note, for sync to know it
RULE = "a committed line is never changed, removed or moved (the journal only grows)"


def findings(root: str, journal_file: str) -> list[CwxError]:
    """`cwx check`'s findings on the history of the campaign at `root` (its journal named
    `journal_file` as the person gave it): each rewrite in HEAD's history, and a line the
    work tree changed since the last commit."""
    clone = repo.of(root)
    if clone is None:
        return []
    path = os.path.relpath(os.path.join(os.path.realpath(root), "journal.jsonl"), clone.top)
    try:
        found = rewrites(clone, path)
        here = in_work_tree(clone, path, os.path.join(root, "journal.jsonl"))
    except CwxError:
        return []  # git cannot answer (not installed, no commit): nothing to say of history
    said = [CwxError(f"{rewrite.said()}: {RULE}. " + (
        _back(clone, rewrite) if rewrite.proven else
        "Take it out of the table's history: "
        f"`git reset --keep {rewrite.parent[:12]}` puts this clone back before it (the "
        "turns after it are played again), and `git push --force-with-lease` that once the "
        "table agrees"), path=journal_file) for rewrite in found]
    if here is not None:
        step = _UNSQUASH if here.how == "preceded" and _squashing(clone) else \
            f"`git diff -- {_typed(journal_file)}` shows it: put the committed line back as it was"
        said.append(CwxError(f"{here.said()}: {RULE}. {step}", path=journal_file,
                             line=here.line))
    return said


# A squash of a branch that merged the table's turns puts its own among them (git's union
# lines up the turns both sides hold): only a merge commit may, so it is merged instead.
_UNSQUASH = ("A squash (`git merge --squash`) put the branch's turns among the committed "
             "ones, which only a merge may do: `git reset --merge` takes the squash back, "
             "then `git merge` that branch (a merge keeps each side's turns in their order) "
             "and cwx sync")


def _squashing(clone: Repository) -> bool:
    """Whether a `git merge --squash` waits to be committed (git's SQUASH_MSG)."""
    return os.path.exists(os.path.join(repo.git_folder(clone), "SQUASH_MSG"))


def committed(clone: Repository, folder: str) -> Rewrite | None:
    """After a commit this clone made (the post-commit hook): HEAD's history proven, and
    its journal kept as the one this clone has proven (seen.py) when it is, so a rewrite
    of the commit that arrives later is named. The first rewrite found, if any."""
    try:
        found = rewrites(clone, _path_in(folder))
    except CwxError:
        return None  # git cannot answer: the next check proves it
    return found[0] if found else None


def _path_in(folder: str) -> str:
    """The journal of the campaign `folder` (from the clone's top), as git names it."""
    return os.path.join(folder, "journal.jsonl") if folder not in ("", ".") else "journal.jsonl"


def refusal(clone: Repository, folder: str, before: str | None, what: str) -> str | None:
    """Why the campaign at `folder` (from the clone's top) is not settled after a merge,
    pull or rebase that moved HEAD from `before`: it brought a rewrite of the journal.
    The note names the commit, its author and the one next step; None: nothing broken."""
    if not before:
        return None
    try:
        found = brought(clone, _path_in(folder), before)
    except CwxError:
        return None
    if found is None:
        return None
    from cwx.base.printable import printable

    if found.proven and repo.run(clone, "merge-base", "--is-ancestor", found.parent,
                                 before).returncode != 0:
        # Where the clone was is not on the history it had proven: back to that history.
        return printable(f"after the {what}, {REFUSED} {found.said()}; {RULE}. Next: "
                         f"{_back(clone, found)}")
    if what == "rebase" and found.proven and not _anywhere_else(clone, found.commit):
        # The rebase made it anew here, flattening a merge of the clone's own: nothing
        # the table has rewrote the line, and a merge keeps the order the clone proved.
        return printable(f"after the {what}, {REFUSED} {found.said()}, made anew by this "
                         f"rebase (it flattens a merge, each side after the other); {RULE}. "
                         f"Next: `git reset --keep {before[:12]}` takes this clone back to "
                         "before the rebase (your own commits kept, the merge too), then `cwx "
                         "sync`, which merges where a rebase would flatten a merge")
    named = ("in every clone that had proven the journal before it (a fresh clone knows "
             "no other history)" if found.proven else "in every clone that has it")
    return printable(f"after the {what}, {REFUSED} {found.said()}; {RULE}. "
                     f"Next: `git reset --keep {before[:12]}` takes this clone back to "
                     f"before the {what} (your own commits kept); cwx check names "
                     f"{found.commit[:12]} {named}, until the table takes it out of its "
                     "history")


def _anywhere_else(clone: Repository, commit: str) -> bool:
    """Whether a remote's branch (as last fetched) holds `commit`: else only this clone
    does, as a rebase here made it."""
    held = repo.run(clone, "for-each-ref", "--count=1", "--contains", commit,
                    "--format=%(refname)", "refs/remotes/")
    return held.returncode != 0 or bool(held.stdout.strip())


def _back(clone: Repository, rewrite: Rewrite) -> str:
    """The one step back to the history this clone had proven (a rewrite of it named)."""
    had = rewrite.parent[:12]
    if rewrite.deleted and _holds(clone, rewrite.parent):
        import shlex

        name = shlex.quote(_short(rewrite.deleted))
        return (f"`git branch {name} {had}` puts the branch back (then `git merge {name}` "
                "keeps its turns where you stand); take a turn back with `cwx undo`, never "
                "with git")
    # A turn played since and not committed stands in the reset's way (git refuses it).
    waiting = repo.run(clone, "diff", "--quiet", "HEAD", "--").returncode == 1
    step = (f"`git reset --keep {had}` puts this clone back on the history it had proven "
            "(a turn committed since on the other is left out of it: play it again" +
            ("; one not committed stands in the way: `git stash` it first, `git stash pop` "
             "it after" if waiting else "") + ")")
    if _holds(clone, rewrite.parent) and rewrite.made and \
            not _anywhere_else(clone, rewrite.commit):
        # Made anew here (a rebase of this clone's flattened its merge): the table never
        # had it, and a forced push would take back what the table played since.
        return step + "; then `cwx sync`, which merges where a rebase would flatten a merge"
    if _holds(clone, rewrite.parent):
        return step + "; the table then keeps that history (`git push --force-with-lease`)"
    return (f"this clone no longer holds {had}, the history it had proven: `git fetch` it "
            f"from a clone that does, then {step}")


def _typed(path: str) -> str:
    from cwx.base.hints import typed

    return typed(path)


def refuse_rewritten(root: str, what: str,
                     would: str = "would bring the files to a rewritten journal") -> None:
    """`what` (a command settling files by the ledger, or sharing them) refused while the
    campaign's journal history holds a rewrite: it would build on the rewritten past."""
    found = findings(root, os.path.join(root, "journal.jsonl"))
    if found:
        raise Conflict(f"{what} {would}, so cwx changed nothing: {found[0].message}",
                       path=found[0].path)
