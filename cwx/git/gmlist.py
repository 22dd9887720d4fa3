"""The GMs in force along campaign.toml's history, where the table lists no keys
(docs/rules.md, "Sealed numbers"): the first `gm` is taken as written; after it, a commit
counts what it changes in gm (the names it adds and drops against its parent's gm) only
when a GM in force before it made it (its author, the name git writes, as a player is
matched), a merge judged against every parent. A change that does not count leaves the
GMs as they were, and is named; a GM's commit that carries it (a rebase makes one anew on
it) changes nothing. Where keys are listed, keyring.py decides by signatures."""

from __future__ import annotations

import os
from collections.abc import Iterable

from cwx.base.errors import CwxError
from cwx.base.printable import printable
from cwx.base.record import Record
from cwx.git import repo, versions
from cwx.git.repo import Repository

GMs = tuple[str, ...] | None  # as campaign.toml writes them; None: no gm, anyone


class Changed(Record):
    """A change of campaign.toml's gm that does not count (no GM in force made it)."""

    commit: str
    by: str  # its author, as git wrote it
    before: GMs
    after: GMs


class Standing(Record):
    """The GMs in force at HEAD, and the changes of gm that did not count."""

    gms: GMs
    changed: tuple[Changed, ...] = ()


def standing(root: str, written: GMs) -> Standing:
    """The GMs in force at HEAD for the campaign at `root` (`written`: its campaign.toml's
    gm now): `written` itself outside git or where campaign.toml changed in no commit.
    The answer is kept in the clone's git folder, by the commits that changed it."""
    clone = repo.of(root)
    if clone is None:
        return Standing(written)
    settings = _settings(clone, root)
    found = _at_head(clone, settings)
    if found is None:
        return Standing(written)
    gms = found.gms
    head = _committing(clone, settings, root, gms)
    if head is not None:  # the GM's own edit counts in the GM's clone, as its commit will
        gms = _applied(gms, _gms_of(head), written)
    return Standing(written if _same(gms, written) else gms, found.changed)


def _settings(clone: Repository, root: str) -> str:
    return os.path.relpath(os.path.join(os.path.realpath(root), "campaign.toml"), clone.top)


def then(root: str, commits: Iterable[str]) -> dict[str, GMs]:
    """The GMs in force at each of `commits` (a line's arrival, say), as `standing` finds
    them at HEAD: along campaign.toml's history up to it; where it changed in one commit
    at most, its gm as that commit wrote it. A commit git cannot answer for is left out."""
    clone = repo.of(root)
    if clone is None:
        return {}
    settings = _settings(clone, root)
    found: dict[str, GMs] = {}
    for commit in commits:
        walked = _at_head(clone, settings, commit)
        if walked is not None:
            found[commit] = walked.gms
            continue
        done = repo.run(clone, "cat-file", "blob", f"{commit}:{settings}")
        if done.returncode == 0:
            found[commit] = _gms_of(done.stdout)
    return found


def _at_head(clone: Repository, settings: str, head: str = "HEAD") -> Standing | None:
    """The GMs in force at `head` along the history of campaign.toml (at `settings` from
    the clone's top); None where it changed in no commit. Kept in the clone's git folder,
    by the commits that changed it."""
    try:
        touched, listed = _history(clone, settings, head)
    except (CwxError, OSError):
        return None
    if len(listed) < 2:
        return None
    kept = repo.kept_file(clone, "gms5", settings.encode("utf-8", "surrogateescape"), touched)
    found = _kept(repo.read_kept(kept))
    if found is None:
        found = _walk(clone, settings, listed)
        repo.keep(kept, {"gms": found.gms, "changed": [list(c) for c in found.changed]})
    return found


def _history(clone: Repository, settings: str, head: str = "HEAD"
             ) -> tuple[bytes, list[tuple[str, list[str]]]]:
    """git's answer, and each commit that changed campaign.toml (every merge too), oldest
    first, with its parents among them: every path to `head`, whichever parent came first."""
    touched = repo.run(clone, "rev-list", "--full-history", "--parents", "--topo-order",
                       "--reverse", head, "--", f":(literal){settings}").stdout
    return touched, [(commit, parents) for commit, *parents in
                     (line.split() for line in touched.decode("ascii", "replace").splitlines())]


def first_named(root: str, read: versions.Blobs | None = None) -> list[str]:
    """The commits of the campaign at `root` whose campaign.toml first names GMs on some
    path to HEAD: a gm written where no parent's writes one (the first gm, taken as
    written); none where git knows of no campaign.toml naming them. Where git cannot
    answer: CwxError or OSError. `read`: the caller's reader of blobs, if it has one."""
    clone = repo.of(root)
    if clone is None:
        return []
    settings = _settings(clone, root)
    listed = _history(clone, settings)[1]
    written = _written(clone, settings, sorted({c for commit, parents in listed
                                                for c in (commit, *parents)}), read)
    return [commit for commit, parents in listed if written[commit] is not None and
            all(written[p] is None for p in parents)]


def _author_here(clone: Repository) -> str:
    """Who a commit made here now would name as its author (git's environment, else its
    configured user.name)."""
    author = os.environ.get("GIT_AUTHOR_NAME")
    if not author:
        done = repo.run(clone, "config", "--get", "user.name")
        author = done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""
    return author.strip()


def _committing(clone: Repository, settings: str, root: str, gms: GMs) -> bytes | None:
    """HEAD's campaign.toml where the one in the folder differs from it and a GM in force
    would commit it (git's author here), so the commit that carries the GM's edit passes
    the hooks' check; else None."""
    if gms is not None and not _is_gm(_author_here(clone), gms):
        return None
    try:
        with open(os.path.join(root, "campaign.toml"), "rb") as file:
            raw = file.read()
    except OSError:
        return None
    head = repo.run(clone, "cat-file", "blob", f"HEAD:{settings}")
    if head.returncode != 0 or head.stdout == raw:
        return None
    return head.stdout


def _applied(gms: GMs, was: GMs, now: GMs) -> GMs:
    """The GMs in force `gms` after a GM's commit that changes gm from `was` (its parent's,
    as written) to `now`: the names it drops and adds, and only those. A list written
    where there was none, or none where there was one, is taken whole."""
    if gms is None or was is None or now is None:
        return now
    dropped = tuple(gm for gm in was if not _is_gm(gm, now))
    kept = tuple(gm for gm in gms if not _is_gm(gm, dropped))
    result = (*kept, *(gm for gm in now if not _is_gm(gm, was) and not _is_gm(gm, kept)))
    return now if _same(result, now) else result


def said(change: Changed) -> str:
    """What check says of a change of gm that does not count (its author told by the letter
    that sets it apart where the name looks like a GM's)."""
    return (f"commit {change.commit[:12]} by {_told(change.by, change.before)} changed the "
            "GMs (gm) in "
            f"campaign.toml from {_listed(change.before)} to {_listed(change.after)}, but no "
            f"GM in force before it ({_listed(change.before)}) made it: the change does not "
            "count, and a seal or reveal by a player it named is named. A commit counts what "
            "it changes in gm, never the list it carries (a GM's commit made anew on it by a "
            f"rebase counts nothing): for it to count, a GM writes gm = {_toml(change.before or ())} "
            "back and commits, then makes the change in a commit of their own")


def _walk(clone: Repository, settings: str, listed: list[tuple[str, list[str]]]) -> Standing:
    written = _written(clone, settings, sorted({c for commit, parents in listed
                                                for c in (commit, *parents)}))
    held: dict[str, GMs] = {}
    # Who made each commit's GMs in force count: a GM's name, None for a list taken as
    # written (a first gm stands on no GM).
    made: dict[str, str | None] = {}
    changed: list[Changed] = []
    for commit, parents in listed:
        parents = [p for p in parents if p in held]
        new = written[commit]
        if not parents:
            held[commit], made[commit] = new, None  # the first gm: taken as written
            continue
        # Judged against every parent, whichever comes first: each parent whose GMs in
        # force are others must have one of them as the commit's author, or as the author
        # of the commit it came to count in on another parent. So two first lists written
        # apart (neither in the other's history: git cannot tell which the table had
        # first) meet as changes of each other, and the list a merge drops by an author
        # who is none of its GMs stays in force.
        judging = [p for p in parents if held[p] is not None and not _same(held[p], new)]
        holders = [p for p in parents if _same(held[p], new)]
        if not judging:  # as every parent holds it, or no GM is in force on one
            held[commit] = new
            made[commit] = next((made[p] for p in holders), None)
            continue
        author = _author(clone, commit)
        if len(parents) == 1 and _is_gm(author, held[parents[0]]):
            # A GM's commit counts what it changes in gm, not the list it carries: one made
            # anew by a rebase on a change no GM made (a comment of the GM's, say) changes
            # nothing, and a GM's edit of such a list counts the GM's names alone.
            parent = parents[0]
            held[commit] = _applied(held[parent], written[parent], new)
            made[commit] = made[parent] if _same(held[commit], held[parent]) else author
            continue
        # A merge whose gm is a parent's as written (taken as it came, or merged by git
        # beside other lines) writes no gm: its author makes nothing count (a GM's pull
        # does not count a change no GM made).
        edited = len(parents) == 1 or not any(_same(written[p], new) for p in parents)
        makers = [*([author] if edited else []),
                  *(maker for p in holders if (maker := made[p]) is not None)]
        refusing = [p for p in judging if not any(_is_gm(maker, held[p]) for maker in makers)]
        if not refusing:  # a GM's commit of campaign.toml (of each side's): its gm counts
            held[commit] = new
            made[commit] = next((maker for maker in makers
                                 if all(_is_gm(maker, held[p]) for p in judging)), makers[0])
            continue
        base = _shared([held[p] for p in refusing])
        # Named where it is new; one carried from a branch where it was named already (it
        # did not count there either) is not named again.
        if not any(_same(written[p], new) and not _same(held[p], new) for p in parents):
            changed.append(Changed(commit, printable(author), base, new))
        held[commit] = base
        made[commit] = next((made[p] for p in refusing), None)
    last = listed[-1][0]
    return Standing(held.get(last), tuple(changed))


def _written(clone: Repository, settings: str, commits: list[str],
             reader: versions.Blobs | None = None) -> dict[str, GMs]:
    """Each commit's gm as its campaign.toml writes it (None: none, or no campaign.toml),
    read by `reader` (else a reader of its own)."""
    read = versions.Blobs(clone) if reader is None else reader
    try:
        blobs = read.ids(commits, settings)
        listing = {blob: _gms_of(read(blob)) for blob in set(blobs.values())}
    finally:
        if reader is None:
            read.close()
    return {commit: listing.get(blobs.get(commit, "")) for commit in commits}


def _shared(lists: list[GMs]) -> GMs:
    """The GMs every one of `lists` names (the first's spelling): where two branches'
    first lists both refuse a change, neither side's own GMs stay in force."""
    first = lists[0]
    if first is None:
        return None
    return tuple(gm for gm in first if all(other is None or _is_gm(gm, other)
                                             for other in lists[1:]))


def _is_gm(name: str, gms: GMs) -> bool:
    """Whether `name` is one of `gms`, matched as a player is (journal/lines.py)."""
    from cwx.journal.lines import same_player

    return gms is not None and any(same_player(name, gm) for gm in gms)


def _gms_of(raw: bytes) -> GMs:
    """A campaign.toml's gm, as written (None: none, or not a list of names)."""
    from cwx.toml import tomlread

    try:
        table = tomlread.parse(raw, "campaign.toml").get("campaign")
    except CwxError:
        return None
    given = table.get("gm") if isinstance(table, dict) else None
    if not isinstance(given, list) or not all(isinstance(name, str) for name in given):
        return None
    return tuple(name.strip() for name in given)


def _same(one: GMs, other: GMs) -> bool:
    """Whether two gm lists name the same GMs, each matched as a player is."""
    if one is None or other is None:
        return one is other
    return all(_is_gm(gm, other) for gm in one) and all(_is_gm(gm, one) for gm in other)


def _listed(gms: GMs) -> str:
    return "no gm (anyone)" if gms is None else "[" + ", ".join(gms) + "]"


def _told(name: str, gms: GMs) -> str:
    """`name`, with the letter that tells it apart where it looks like one of `gms`."""
    from cwx.base import lookalike

    return lookalike.said(name) if gms and lookalike.like(name, set(gms)) else name


def _toml(gms: tuple[str, ...]) -> str:
    import json

    return "[" + ", ".join(json.dumps(gm, ensure_ascii=False) for gm in gms) + "]"


def _author(clone: Repository, commit: str) -> str:
    return repo.git(clone, "show", "-s", "--format=%an", commit).strip()


def _kept(told: object) -> Standing | None:
    """A Standing as repo.keep kept it; None where it is not one."""
    if not isinstance(told, dict):
        return None
    try:
        gms = told["gms"]
        return Standing(None if gms is None else tuple(str(gm) for gm in gms), tuple(
            Changed(str(commit), str(by), None if before is None else tuple(before),
                    None if after is None else tuple(after))
            for commit, by, before, after in told["changed"]))
    except (ValueError, KeyError, TypeError):
        return None
