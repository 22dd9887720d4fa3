"""The GMs in force along campaign.toml's history, where the table lists no keys
(docs/rules.md, "Sealed numbers"): the first `gm` is taken as written; after it, a change
of the GMs counts only when a GM in force before it made the commit (its author, the
name git writes, as a player is matched), a merge judged against every parent. A change
that does not count leaves the GMs as they were, and is named. Where keys are listed,
keyring.py decides by signatures."""

from __future__ import annotations

import hashlib
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
    if _same(found.gms, written) or _committing(clone, settings, root, found.gms):
        return Standing(written, found.changed)  # as campaign.toml spells them
    return found


class Handover(Record):
    """What a GM's commit of campaign.toml would hand over, counting a change of gm no GM
    made; refused where it takes sealing from a GM in force (the GM could not take it
    back), else said as it passes."""

    said: str
    refused: bool


def handed_over(root: str) -> Handover | None:
    """What a commit of campaign.toml as staged would hand over where it makes count, by a
    GM in force committing it, a change of gm that did not count (written by no GM, or
    merged in), the GM leaving the gm line as it came; None where it changes no GM in
    force, or the GM changed the gm line. Where keys are listed, signatures decide."""
    from cwx.git import signing

    clone = repo.of(root)
    if clone is None or signing.listed_in(root):
        return None
    settings = _settings(clone, root)
    done = repo.run(clone, "rev-parse", f":{settings}", f"HEAD:{settings}")
    ids = done.stdout.split()
    if done.returncode != 0 or len(ids) != 2 or ids[0] == ids[1]:  # campaign.toml as it is
        return None
    found = _at_head(clone, settings)
    staged = repo.run(clone, "cat-file", "blob", ids[0].decode("ascii"))
    head = repo.run(clone, "cat-file", "blob", ids[1].decode("ascii"))
    if found is None or staged.returncode != 0 or head.returncode != 0:
        return None
    now, was, gms = _gms_of(staged.stdout), _gms_of(head.stdout), found.gms
    if _same(now, gms) or not _same(now, was) or gms is None or \
            not _is_gm(_author_here(clone), gms):
        return None
    change = next((c for c in reversed(found.changed) if _same(c.after, now)), None)
    came = "" if change is None else \
        f" (commit {change.commit[:12]} by {_told(change.by, change.before)} wrote it)"
    given = ", ".join(gm for gm in now or () if not _is_gm(gm, gms))
    dropped = [gm for gm in gms if not _is_gm(gm, now)]
    back = f"write gm = {_toml(gms)} back into campaign.toml"
    if not dropped:
        return Handover(f"campaign.toml: this commit, by a GM, makes gm = {_listed(now)} "
                        f"count, a change no GM made{came}: it hands sealing and revealing "
                        f"to {given} beside the GMs in force ({_listed(gms)}). If that is "
                        f"not meant, {back} and commit it", refused=False)
    hands = "lets anyone seal and reveal" if now is None else \
        f"hands sealing and revealing to {given}" if given else "leaves it"
    return Handover(f"campaign.toml: this commit, by a GM, would make gm = {_listed(now)} "
                    f"count, a change no GM made{came}: the GMs in force are {_listed(gms)}, "
                    f"and it {hands}, taking it from {', '.join(dropped)}. {back[0].upper()}{back[1:]} "
                    "and commit again (a GM who hands it over on purpose commits with `git "
                    "commit --no-verify`)", refused=True)


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
        touched = repo.run(clone, "rev-list", "--full-history", "--parents", "--topo-order",
                           "--reverse", head, "--", f":(literal){settings}").stdout
    except (CwxError, OSError):
        return None
    listed = [(commit, parents) for commit, *parents in
              (line.split() for line in touched.decode("ascii", "replace").splitlines())]
    if len(listed) < 2:
        return None
    kept = repo.kept_file(clone, "gms4", settings.encode("utf-8", "surrogateescape"), touched)
    found = _kept(repo.read_kept(kept))
    if found is None:
        found = _walk(clone, settings, listed)
        repo.keep(kept, {"gms": found.gms, "changed": [list(c) for c in found.changed]})
    return found


def _author_here(clone: Repository) -> str:
    """Who a commit made here now would name as its author (git's environment, else its
    configured user.name)."""
    author = os.environ.get("GIT_AUTHOR_NAME")
    if not author:
        done = repo.run(clone, "config", "--get", "user.name")
        author = done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""
    return author.strip()


def _committing(clone: Repository, settings: str, root: str, gms: GMs) -> bool:
    """Whether campaign.toml differs from HEAD's and a GM in force would commit it (git's
    author here): the GM's own edit counts in the GM's clone, so the commit that carries
    it passes the hooks' check."""
    if gms is not None and not _is_gm(_author_here(clone), gms):
        return False
    try:
        with open(os.path.join(root, "campaign.toml"), "rb") as file:
            raw = file.read()
    except OSError:
        return False
    here = hashlib.sha1(b"blob %d\0" % len(raw) + raw, usedforsecurity=False).hexdigest()
    head = repo.run(clone, "rev-parse", "--verify", "-q", f"HEAD:{settings}")
    return head.stdout.decode("ascii", "replace").strip() != here


def said(change: Changed) -> str:
    """What check says of a change of gm that does not count (its author told by the letter
    that sets it apart where the name looks like a GM's)."""
    return (f"commit {change.commit[:12]} by {_told(change.by, change.before)} changed the "
            "GMs (gm) in "
            f"campaign.toml from {_listed(change.before)} to {_listed(change.after)}, but no "
            f"GM in force before it ({_listed(change.before)}) made it: the change does not "
            "count, and a seal or reveal by a player it named is named. It counts once a GM "
            "commits campaign.toml holding it (the commit's author one of gm; the hooks "
            "refuse such a commit that takes sealing from a GM, and say why)")


def _walk(clone: Repository, settings: str, listed: list[tuple[str, list[str]]]) -> Standing:
    every = sorted({c for commit, parents in listed for c in (commit, *parents)})
    blobs = versions.blob_ids(clone, every, settings)
    read = versions.Blobs(clone)
    try:
        listing = {blob: _gms_of(read(blob)) for blob in set(blobs.values())}
    finally:
        read.close()
    written = {commit: listing.get(blobs.get(commit, "")) for commit in every}
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
