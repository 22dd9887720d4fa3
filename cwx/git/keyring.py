"""`cwx check --signed` (docs/rules.md, "Signed turns"): each journal line proven, through
git's own verification, to have arrived in a commit signed by the key in force for the
player it names, along the keys in force through the campaign's history.

The first keys campaign.toml lists are taken as written. After that, a commit that
changes, removes or adds a player's key, or changes the GMs (`gm`), counts only when it
is signed by a key in force before it: the player's own (their old key), or a GM's. A
newcomer's first key (a name no journal line has played yet) counts as written. A merge
keeps a key or gm only where the keys in force on every parent allow it: a branch's own
newcomer or gm counts on that branch alone. A change that does not count leaves the keys
as they were, and is named; each journal line is verified against the key in force when
it arrived, not today's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from cwx.base.errors import BadFile, CwxError
from cwx.base.record import Record
from cwx.git import repo, signing, versions
from cwx.git.repo import Repository
from cwx.journal import lines as journal


class Unsigned(Record):
    """A journal line that did not arrive in a commit signed by its player's key."""

    line: int  # in HEAD's journal
    player: str | None
    commit: str
    why: str


def verify(root: str) -> tuple[int, int, list[CwxError]]:
    """How many lines HEAD's journal holds and how many of them are not signed by the key
    in force for the player each names when it arrived, with each named (a hundred, then
    counted), and each change of the keys that does not count. Cannot run
    (an error) outside git, without keys, or without ssh-keygen."""
    import shutil

    journal_file = os.path.normpath(os.path.join(root, "journal.jsonl"))  # as check names it
    clone = repo.of(root)
    if clone is None:
        raise BadFile("is not in a git clone: --signed verifies the commits lines arrived in",
                      path=root)
    top = os.path.realpath(root)
    path = os.path.relpath(os.path.join(top, "journal.jsonl"), clone.top)
    settings = os.path.relpath(os.path.join(top, "campaign.toml"), clone.top)
    none = BadFile("lists no players' keys ([keys]), so --signed has nothing to verify "
                   f"against: add each player's, {signing.EXAMPLE}",
                   path=os.path.join(root, "campaign.toml"))
    # Keys taken out of campaign.toml are not signed turns given up: the history's count.
    listed = bool(signing.keys_of(root))
    keyed = listed or bool(repo.run(
        clone, "log", "--format=%H", "-G", "keys", "HEAD", "--",
        f":(literal){settings}").stdout.strip())
    if not keyed:
        raise none
    if shutil.which("ssh-keygen") is None:
        raise BadFile("--signed needs ssh-keygen (OpenSSH), which git verifies SSH signatures "
                      "with; install it", path=root)
    count, lines, unheld, ever = unsigned(clone, path, settings)
    if not (listed or ever):
        raise none
    found = [_said(item, journal_file) for item in lines]
    if len(found) > signing.SHOWN:
        found = [*found[:signing.SHOWN],
                 CwxError(f"and {len(found) - signing.SHOWN} more lines not signed by their "
                          "player's key", path=journal_file)]
    changes = [CwxError(said(change), path=os.path.normpath(os.path.join(root, "campaign.toml")))
               for change in unheld]
    return count, len(lines), [*changes, *found]


# The rules a kept answer was worked out by: an answer kept by a cwx whose rules of the
# keys in force were others (merges judged on one branch alone) is asked again.
_RULES = b"keys in force 3: merges judged against every parent, look-alike names, " \
    b"first keys apart judged at their merge"


def changes_of(root: str) -> list[CwxError]:
    """Each change of campaign.toml's keys or GMs that does not count (signed by neither
    the player's key before it nor a GM's), for a plain `cwx check`: only where the
    campaign lists keys (signed turns are on), in a git clone, with ssh-keygen to verify
    signatures by (else `check --signed` says what it lacks). No journal line is verified."""
    told = _kept(root, "keys", lambda clone, path, settings: [
        said(change) for change in ring(clone, path, settings).unheld])
    return [CwxError(item, path=os.path.normpath(os.path.join(root, "campaign.toml")))
            for item in told or []]


def gms_of(root: str) -> frozenset[str] | None:
    """The GMs in force at HEAD (folded), along the keys in force, where the campaign
    lists keys and ssh-keygen verifies: a change of gm no GM's key signed does not count.
    None: not known here (no git, no keys, no ssh-keygen), campaign.toml's gm stands."""

    def in_force(clone: Repository, path: str, settings: str) -> list[str] | None:
        found = ring(clone, path, settings)
        last = repo.git(clone, "rev-list", "-1", "HEAD", "--", f":(literal){path}",
                        f":(literal){settings}").strip()
        held = found.held.get(last)
        return None if held is None else sorted(held.gms)

    told = _kept(root, "gms-keyed", in_force)
    return None if told is None else frozenset(told)


def _kept(root: str, name: str,
          work: Callable[[Repository, str, str], list[str] | None]) -> list[str] | None:
    """What `work` (given the clone, and the journal's and campaign.toml's paths in it)
    says of a campaign that lists keys, in a git clone, with ssh-keygen to verify by, and
    whose campaign.toml was changed since it was made; else None. The commits that
    changed campaign.toml decide it: for the same ones (a check after a turn), the answer
    kept in the clone's git folder."""
    clone = repo.of(root)
    if clone is None or not signing.listed_in(root):
        return None
    import shutil  # with bz2 and lzma: only for a campaign that lists keys

    if shutil.which("ssh-keygen") is None:
        return None
    top = os.path.realpath(root)
    path = os.path.relpath(os.path.join(top, "journal.jsonl"), clone.top)
    settings = os.path.relpath(os.path.join(top, "campaign.toml"), clone.top)
    touched = repo.run(clone, "rev-list", "--full-history", "--parents", "HEAD", "--",
                       f":(literal){settings}").stdout
    if len(touched.splitlines()) < 2:
        return None
    kept = repo.kept_file(clone, name, _RULES, settings.encode("utf-8", "surrogateescape"),
                          touched)
    told = repo.read_kept(kept)
    if isinstance(told, list) and all(isinstance(item, str) for item in told):
        return told
    answer = work(clone, path, settings)
    if answer is not None:
        repo.keep(kept, answer)
    return answer


def _said(item: Unsigned, journal_file: str) -> CwxError:
    who = f"names {item.player}" if item.player else "names no player"
    return CwxError(f"{who}, but arrived in commit {item.commit[:12]}, {item.why}",
                    path=journal_file, line=item.line)


def unsigned(clone: Repository, path: str,
             settings: str) -> tuple[int, list[Unsigned], list[Unheld], bool]:
    """How many lines HEAD's journal (at `path` from the clone's top) holds, those not
    signed by the key in force for their player when they arrived (each line's commit is
    the first of HEAD's history that held it), the changes of campaign.toml's (at
    `settings`) keys that did not count, and whether any key was ever in force."""
    arrived = signing.arrivals(clone, path)
    if not arrived:
        return 0, [], [], False
    found_ring = ring(clone, path, settings, {commit for _, commit in arrived})
    found = _judged(found_ring, [(number, line, commit) for number, (line, commit)
                                 in enumerate(arrived, 1)])
    ever = any(held.keys for held in found_ring.held.values())
    return len(arrived), found, found_ring.unheld, ever


def brought_unsigned(clone: Repository, path: str, settings: str,
                     before: str) -> list[Unsigned]:
    """The lines of HEAD's journal that the journal at `before` did not hold (what a pull
    brought), each with the first commit HEAD's history past `before` added it in, that
    are not signed by the key in force for their player: only those commits' signatures
    are verified (and those of campaign.toml's changes, which decide the keys)."""
    arrived = signing.arrivals_since(clone, path, before)
    if not arrived:
        return []
    found_ring = ring(clone, path, settings, {commit for _, _, commit in arrived})
    return _judged(found_ring, arrived)


def _judged(found_ring: Ring, arrived: list[tuple[int, bytes, str]]) -> list[Unsigned]:
    """Of the `arrived` lines (their number in HEAD's journal, the line, the commit it
    arrived in), those not signed by the key in force for their player when it arrived."""
    from cwx.journal import history  # who a line names: a table that lists no keys asks none

    found: list[Unsigned] = []
    order = {commit: place for place, commit in enumerate(found_ring.held)}  # the walk's
    for number, line, commit in arrived:
        player = history.player_of(line)
        status, key, author = found_ring.signatures.get(commit, ("N", None, "someone"))
        held = held_at(found_ring, commit)
        folded = player.strip().casefold() if player is not None else ""
        wanted = {keys[folded] for keys in (h.keys for h in held) if folded in keys}
        if key is not None and key in wanted:
            continue
        by = next((found_ring.names.get(n, n) for h in held for n, k in h.keys.items() if k == key),
                  None) if key is not None else None
        # The change of this player's key that did not count, which a turn signed by the
        # key it listed (or one left without a key) is named by.
        refused = [u for u in found_ring.unheld if u.player is not None and
                   u.player.casefold() == folded and u.how != "listed" and
                   order.get(u.commit, 0) <= order.get(commit, 0)]
        listed = next((u for u in refused if key is not None and u.key == key), None)
        if player is None:
            why = "and no player's turn can be proven"
        elif not wanted:
            why = f"and {player} has no key in campaign.toml" + (
                " in force when it arrived" if folded in found_ring.names else "") + (
                f" (commit {refused[-1].commit[:12]} {refused[-1].how} it, a change that "
                "did not count: see campaign.toml)" if refused else "")
        elif status == "N":
            why = f"unsigned (by {author})"
        elif listed is not None and by is None:
            why = (f"signed by {author} with the key commit {listed.commit[:12]} listed for "
                   f"{player}, a change that did not count (see campaign.toml): {player}'s "
                   "key in force is the one before it")
        elif by is None:
            why = f"signed by {author} with a key campaign.toml does not list (or not good)" \
                if key is None else f"signed by {author} with a key not in force for " \
                f"{player} when it arrived (a change of [keys] that did not count)"
        else:
            why = f"signed by {by}'s key"
        found.append(Unsigned(number, player, commit, why))
    return found


class Held(Record):
    """What is in force at a commit: each player's key (by name, folded) and the GMs, with
    the commit each came to count in, and the players whose key is a newcomer's first key
    (taken as written: no key in force signed it)."""

    keys: dict[str, str]
    gms: frozenset[str]
    since: dict[str, str]  # a player's key: the commit it came to count in
    gms_since: str = ""
    newcomers: frozenset[str] = frozenset()


class Unheld(Record):
    """A change of campaign.toml's keys or GMs that does not count."""

    commit: str
    by: str  # who committed it
    player: str | None  # whose key it changed (None: the GMs)
    how: str  # "changed", "added", "removed"; "listed": first keys beside the table's
    signed: str  # "unsigned", "signed by Bob's key", …; for "listed", the table's commit
    key: str | None = None  # the key it listed for the player
    against: str = ""  # a merge's: the parent whose keys in force do not allow it
    kept: str = ""  # the commit whose campaign.toml lists what stays in force ("": none)
    like: str = ""  # an added key's: the name at the table its name looks like


class Ring(Record):
    """The keys in force at each commit of HEAD's history that touched the journal or
    campaign.toml, each one's first parent there, the changes that did not count, and
    each commit's signature as git verified it: its status (%G?) and key."""

    held: dict[str, Held]
    first: dict[str, str]
    unheld: list[Unheld]
    signatures: dict[str, tuple[str, str | None, str]]  # and its author
    names: dict[str, str]  # a folded name as campaign.toml last wrote it


EMPTY = Held({}, frozenset(), {})
Key = tuple[str | None, str, bool]  # a key in force, the commit it counts since, a newcomer's


def ring(clone: Repository, journal: str, settings: str,
         wanted: Iterable[str] = ()) -> Ring:
    """The keys in force along HEAD's history of `journal` and `settings` (paths from the
    clone's top), with the signatures of `wanted` commits verified as well."""
    done = repo.run(clone, "rev-list", "--full-history", "--parents", "--topo-order",
                    "--reverse", "HEAD", "--", f":(literal){journal}", f":(literal){settings}")
    listed = [(commit, parents) for commit, *parents in
              (line.split() for line in done.stdout.decode().splitlines())]
    every = sorted({c for commit, parents in listed for c in (commit, *parents)})
    read = versions.Blobs(clone)
    try:
        settings_of = read.ids(every, settings)
        journal_of = read.ids(every, journal)
        listings = {blob: _listing(read(blob), settings) for blob in set(settings_of.values())}
        # The commits whose keys may have changed: campaign.toml differs from a parent's
        # (a merge taking one side's is judged against the other's, by its signature too).
        touched = [commit for commit, parents in listed if parents and any(
            settings_of.get(parent) != settings_of.get(commit) for parent in parents)]
        keys = sorted({key for listing in listings.values() for key in listing.keys.values()})
        signatures = _verified(clone, sorted({*touched, *wanted}), keys)
        names = {folded: name for blob in listings for folded, name in
                 _names(read(blob), settings).items()}
        walk = _Walk(listings, settings_of, signatures, names, read, journal_of)
        for commit, parents in listed:
            walk.step(clone, commit, [p for p in parents if p in walk.held])
        trusted = _table_first(walk, listed) if len(walk.firsts) > 1 else None
        if trusted is not None:  # first keys listed twice: the table's only count
            walk = _Walk(listings, settings_of, signatures, names, read, journal_of,
                         trusted)
            for commit, parents in listed:
                walk.step(clone, commit, [p for p in parents if p in walk.held])
    finally:
        read.close()
    return Ring(walk.held, walk.first, walk.unheld, signatures, names)


def _table_first(walk: _Walk, listed: list[tuple[str, list[str]]]) -> str | None:
    """Of first keys listed on two histories apart, the table's, judged at the merge where
    they meet (never by the order of its parents): the one merged into the merger's own,
    which reached the table first. The merger's own side is the one where the key that
    signs the merge is in force, else the one whose listing the merge keeps. None where
    the merge tells neither: each key is then judged against every parent."""
    firsts = set(walk.firsts)
    lineage: dict[str, frozenset[str]] = {}
    for commit, parents in listed:
        parents = [p for p in parents if p in lineage]
        lineage[commit] = frozenset({commit} & firsts).union(*(lineage[p] for p in parents))
        sides = [p for p in parents if lineage[p]]
        apart = [(p, q) for p in sides for q in sides
                 if not lineage[p] <= lineage[q] and not lineage[q] <= lineage[p]]
        if not apart:
            continue
        status, key = walk.signatures.get(commit, ("N", None, ""))[:2]
        own = [p for p in sides if status == "G" and key in walk.held[p].keys.values()]
        if len(own) != 1:
            now = walk.listing(commit)
            own = [p for p in sides if walk.listing(p).keys == now.keys and
                   walk.listing(p).gms == now.gms]
        table = {q for p, q in apart if own == [p]}
        if len(own) != 1 or len(table) != 1:
            return None
        theirs = lineage[table.pop()] - lineage[own[0]]
        return next(first for first in walk.firsts if first in theirs)
    return None


class _Walk:
    """The keys in force, commit by commit, oldest first."""

    def __init__(self, listings: dict[str, Held], settings_of: dict[str, str],
                 signatures: dict[str, tuple[str, str | None, str]], names: dict[str, str],
                 read: versions.Blobs, journal_of: dict[str, str],
                 trusted: str | None = None) -> None:
        self.listings, self.settings_of = listings, settings_of
        self.trusted = trusted  # the one commit whose first keys count (None: any)
        self.firsts: list[str] = []  # the commits that listed first keys
        self.signatures, self.names, self.read = signatures, names, read
        self.journal_of = journal_of
        self.held: dict[str, Held] = {}
        self.first: dict[str, str] = {}
        self.unheld: list[Unheld] = []
        self.players: dict[str, set[str]] = {}

    def listing(self, commit: str) -> Held:
        return self.listings.get(self.settings_of.get(commit, ""), EMPTY)

    def step(self, clone: Repository, commit: str, parents: list[str]) -> None:
        now = self.listing(commit)
        if parents:
            self.first[commit] = parents[0]
        if not any(self.held[parent].keys for parent in parents):
            if now.keys:
                self.firsts.append(commit)
            if not now.keys or self.trusted in (None, commit):
                # The table's first keys (and its gm then): taken as written.
                self.held[commit] = Held(now.keys, now.gms, dict.fromkeys(now.keys, commit),
                                         commit)
                return
            # First keys again, beside the table's (a history of its own, merged in):
            # none of them counts.
            self.unheld.append(Unheld(commit, _committer(clone, commit), None, "listed",
                                      self.trusted))
            self.held[commit] = EMPTY
            return
        keys: dict[str, str] = {}
        since: dict[str, str] = {}
        newcomers: set[str] = set()
        for name in sorted({*now.keys, *(n for p in parents for n in self.listing(p).keys),
                            *(n for p in parents for n in self.held[p].keys)}):
            key, counted, newcomer = self._key(clone, commit, parents, name,
                                               now.keys.get(name))
            if key is not None:
                keys[name], since[name] = key, counted
                if newcomer:
                    newcomers.add(name)
        gms, gms_since = self._gms(clone, commit, parents, now.gms)
        self.held[commit] = Held(keys, gms, since, gms_since, frozenset(newcomers))

    def _key(self, clone: Repository, commit: str, parents: list[str], name: str,
             new: str | None) -> Key:
        """`name`'s key in force after `commit`, which lists `new`."""
        if len(parents) > 1:
            return self._merged_key(clone, commit, parents, name, new)
        base = self.held[parents[0]]
        old = base.keys.get(name)
        carried = (old, base.since.get(name, ""), name in base.newcomers)
        # A listing carried on stays as it counted (a change that did not count, named
        # where it was made, stays uncounted).
        if new == old or self.listing(parents[0]).keys.get(name) == new:
            return carried
        if old is None and name not in self._played(parents[0]) and \
                self._alike(name, parents[0]) is None:
            return new, commit, True  # a newcomer's first key: as written
        if self._signed_by(commit, old) or self._by_a_gm(commit, base):
            return new, commit, False
        self._refused(clone, commit, name, new, parents[0], carried[1])
        return carried

    def _merged_key(self, clone: Repository, commit: str, parents: list[str], name: str,
                    new: str | None) -> Key:
        """At a merge, `new` counts only where the keys in force on every parent allow it
        (_allows): a key that counted on one branch is judged again against the other's."""
        held = [self.held[p] for p in parents]
        if all(h.keys.get(name) == new for h in held):
            return new, held[0].since.get(name, ""), name in held[0].newcomers
        if self._stands(commit, parents, name, new):
            holder = next((h for h in held if h.keys.get(name) == new), None)
            if holder is not None:
                return new, holder.since.get(name, ""), name in holder.newcomers
            return new, commit, all(h.keys.get(name) is None for h in held)
        # Named against a parent that holds a key for the player where one refuses it.
        refusing = min((p for p in parents if not self._allows(commit, parents, name, new, p)),
                       key=lambda p: self.held[p].keys.get(name) is None)
        kept = self._kept_key(commit, parents, name, new)
        self._refused(clone, commit, name, new, refusing, kept[1], merged=True)
        return kept

    def _kept_key(self, commit: str, parents: list[str], name: str, new: str | None) -> Key:
        """What stays in force where a merge's key does not count: the key a parent holds
        that every parent's keys allow; else none (two branches' keys, neither allowed on
        the other: a GM lists the player's key anew, signed)."""
        for h in (self.held[p] for p in parents):
            old = h.keys.get(name)
            if old != new and self._stands(commit, parents, name, old):
                return old, h.since.get(name, ""), name in h.newcomers
        return None, "", False

    def _stands(self, commit: str, parents: list[str], name: str, key: str | None) -> bool:
        return all(self._allows(commit, parents, name, key, p) for p in parents)

    def _allows(self, commit: str, parents: list[str], name: str, key: str | None,
                parent: str) -> bool:
        """Whether the keys in force on `parent` allow `key` as `name`'s at the merge
        `commit`: it is in force there; or the merge, or the commit it came to count in on
        another parent, is signed by the key in force there for the player or by a GM's
        key in force there; or it is a first key where the player has none and has not
        played (a parent from before any keys: unless a newcomer's, it came from the
        table's first keys on its branch); or a newcomer's first key that has not played
        there gives way to one that played on another branch."""
        there = self.held[parent]
        old = there.keys.get(name)
        if old == key:
            return True
        holders = [self.held[p] for p in parents if self.held[p].keys.get(name) == key]
        gms = there if there.keys else next((self.held[p] for p in parents
                                             if self.held[p].keys), there)
        if any(self._signed_by(signer, old) or self._by_a_gm(signer, gms) for signer in
               [commit, *(h.since.get(name, "") for h in holders)]):
            return True
        if key is None:
            return False
        played = name in self._played(parent)
        if old is None:
            return (not played and self._alike(name, parent) is None) or (
                not there.keys and bool(holders) and all(
                    name not in h.newcomers for h in holders))
        return name in there.newcomers and not played and any(
            name in self._played(p) for p in parents if self.held[p].keys.get(name) == key)

    def _gms(self, clone: Repository, commit: str, parents: list[str],
             new: frozenset[str]) -> tuple[frozenset[str], str]:
        """The GMs in force after `commit`, which lists `new`, and the commit they count
        since: a change counts when a GM's key in force signs it; at a merge, judged
        against every parent's (one from before any keys allows any)."""
        held = [self.held[p] for p in parents]
        if all(h.gms == new for h in held) or (
                len(parents) == 1 and self.listing(parents[0]).gms == new):
            return held[0].gms, held[0].gms_since
        if all(self._allows_gms(commit, parents, new, p) for p in parents):
            holder = next((h for h in held if h.gms == new), None)
            return new, commit if holder is None else holder.gms_since
        refusing = next(p for p in parents if not self._allows_gms(commit, parents, new, p))
        self.unheld.append(Unheld(commit, _committer(clone, commit), None, "changed",
                                  self._said(commit, self.held[refusing]),
                                  against=refusing if len(parents) > 1 else "",
                                  kept=self._kept_gms(commit, parents)[1]))
        return self._kept_gms(commit, parents)

    def _kept_gms(self, commit: str, parents: list[str]) -> tuple[frozenset[str], str]:
        """The GMs that stay in force where a change does not count: a parent's that every
        parent's keys allow, else those every parent names (each branch's GMs counted by a
        GM's signature there, two GMs who each named others on their own: the order of the
        merge's parents chooses no side)."""
        held = [self.held[p] for p in parents]
        return next(((h.gms, h.gms_since) for h in held if all(
            self._allows_gms(commit, parents, h.gms, p) for p in parents)),
            (frozenset.intersection(*(h.gms for h in held)), commit))

    def _allows_gms(self, commit: str, parents: list[str], gms: frozenset[str],
                    parent: str) -> bool:
        there = self.held[parent]
        if there.gms == gms or not there.keys:
            return True
        return any(self._by_a_gm(signer, there) for signer in
                   [commit, *(self.held[p].gms_since for p in parents
                              if self.held[p].gms == gms)])

    def _refused(self, clone: Repository, commit: str, name: str, new: str | None,
                 parent: str, kept: str, merged: bool = False) -> None:
        there = self.held[parent]
        old = there.keys.get(name)
        how = "added" if old is None else "removed" if new is None else "changed"
        alike = self._alike(name, parent) if old is None else None
        self.unheld.append(Unheld(commit, _committer(clone, commit), self.names.get(name, name),
                                  how, self._said(commit, there), new,
                                  parent if merged else "", kept, alike or ""))

    def _alike(self, name: str, parent: str) -> str | None:
        """The name at the table on `parent` (played, or with a key in force) that `name`
        looks like without being it ("Vіc" with a Cyrillic і for "Vic"), as written."""
        from cwx.base import lookalike

        found = lookalike.like(name, {*self._played(parent), *self.held[parent].keys})
        return None if found is None else self.names.get(found, found)

    def _signed_by(self, commit: str, key: str | None) -> bool:
        status, signer = self.signatures.get(commit, ("N", None, ""))[:2]
        return status == "G" and key is not None and signer == key

    def _by_a_gm(self, commit: str, base: Held) -> bool:
        status, key = self.signatures.get(commit, ("N", None, ""))[:2]
        return status == "G" and key is not None and \
            key in {base.keys[gm] for gm in base.gms if gm in base.keys}

    def _played(self, commit: str) -> set[str]:
        """The players (folded) the journal at `commit` names (read once a journal)."""
        from cwx.journal import history

        blob = self.journal_of.get(commit, "")
        if blob not in self.players:
            self.players[blob] = {player.strip().casefold() for line in
                                  journal.git_lines(self.read(blob))
                                  if (player := history.player_of(line)) is not None}
        return self.players[blob]

    def _said(self, commit: str, base: Held) -> str:
        status, key = self.signatures.get(commit, ("N", None, ""))[:2]
        if status == "N":
            return "unsigned"
        holder = next((n for n, k in base.keys.items() if k == key), None) if key else None
        if holder is None:
            return "signed with a key not in force before it"
        return f"signed by {self.names.get(holder, holder)}'s key"


def said(unheld: Unheld) -> str:
    """What check --signed says of a change that does not count, and what the table does."""
    from cwx.base import lookalike

    if unheld.how == "listed":
        return (f"commit {unheld.commit[:12]} by {unheld.by} lists players' keys in "
                "campaign.toml as a table's first keys, beside the table's own (listed in "
                f"{unheld.signed[:12]}): a history of its own, merged in. None of them "
                "counts, and turns signed with them are named")
    what, whose, why = "the GMs (gm)", "a GM's", ""
    if unheld.player is not None:
        what = f"{unheld.player}'s key"
        whose = "a GM's" if unheld.how == "added" else \
            f"{unheld.player}'s own (the key before it) nor a GM's"
        why = f" ({unheld.player} played before it, with no key)" \
            if unheld.how == "added" else ""
        if unheld.like:
            why = f" ({lookalike.said(unheld.player)} looks like {unheld.like}, a name at " \
                "the table: a look-alike's first key is no newcomer's)"
    there = ""
    if unheld.against:  # a merge: it took another branch's, which this one does not allow
        there = f" (a merge: against what is in force on its parent {unheld.against[:12]})"
    return (f"commit {unheld.commit[:12]} by {unheld.by} {unheld.how} {what} in "
            f"campaign.toml{there}, {unheld.signed}, not by {whose} key{why}: the change does "
            f"not count, and turns after it are verified against {_stays(unheld)}")


def _stays(unheld: Unheld) -> str:
    """What stays in force after a change that does not count, and the table's next step."""
    whose = "the GMs" if unheld.player is None else f"{unheld.player}'s key"
    if unheld.player is not None and unheld.how == "added":
        return (f"no key for {unheld.player}. Take it out of campaign.toml; a GM lists a "
                "player's key in a commit the GM signs (docs/rules.md, \"Signed turns\")")
    if not unheld.kept:
        return (f"no key for {unheld.player} (no branch's stands on the other). A GM lists "
                f"{unheld.player}'s key in a commit the GM signs (docs/rules.md, \"Signed "
                "turns\")")
    return (f"{whose} before it. Write {whose} in force back into campaign.toml (as `git "
            f"show {unheld.kept[:12]}:campaign.toml` lists {'them' if unheld.player is None else 'it'}); "
            "a new key counts when the player's old key or a GM's signs the commit that lists "
            "it (docs/rules.md, \"Signed turns\")")


def held_at(found: Ring, commit: str) -> list[Held]:
    """The keys in force when `commit` arrived: at it, and just before it."""
    at = [found.held[commit]] if commit in found.held else []
    parent = found.first.get(commit)
    return at + ([found.held[parent]] if parent in found.held else [])


def _listing(raw: bytes, path: str) -> Held:
    """What a campaign.toml's text lists: the keys (by name, folded) and the GMs."""
    keys, _ = signing.listed(raw, path)
    return Held({name.casefold(): key for name, key in keys.items()}, _gms_of(raw, path), {})


def _names(raw: bytes, path: str) -> dict[str, str]:
    keys, _ = signing.listed(raw, path)
    return {name.casefold(): name for name in keys}


def _gms_of(raw: bytes, path: str) -> frozenset[str]:
    from cwx.base.errors import CwxError
    from cwx.toml import tomlread

    try:
        table = tomlread.parse(raw, path).get("campaign")
    except CwxError:
        return frozenset()
    given = table.get("gm") if isinstance(table, dict) else None
    if not isinstance(given, list):
        return frozenset()
    return frozenset(name.strip().casefold() for name in given if isinstance(name, str))


def _committer(clone: Repository, commit: str) -> str:
    from cwx.base.printable import printable

    return printable(repo.git(clone, "show", "-s", "--format=%cn <%ce>", commit))


def _verified(clone: Repository, commits: list[str],
              keys: list[str]) -> dict[str, tuple[str, str | None, str]]:
    """For each commit: git's status letter (%G?), the key (of `keys`) that signed it
    (None: none of them, or not good) and its author, by git's own verification with an allowed-signers
    file of `keys` (in the clone's git folder, then removed)."""
    if not commits:
        return {}
    folder = os.path.join(repo.git_folder(clone), "cwx")
    os.makedirs(folder, exist_ok=True)
    # Principals by number: a key is what is proven, whoever campaign.toml named by it.
    text = "".join(f"cwx-key-{n} {key}\n" for n, key in enumerate(keys))
    import tempfile  # with shutil, bz2, lzma and random: only where keys are read

    handle, signers = tempfile.mkstemp(prefix="allowed-signers-", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(text)
        done = repo.run(clone, "-c", "gpg.format=ssh", "-c",
                        f"gpg.ssh.allowedSignersFile={signers}", "log", "--no-walk=unsorted",
                        "--stdin", "--format=%H%x1f%G?%x1f%GS%x1f%an <%ae>",
                        input="".join(f"{c}\n" for c in commits if c).encode())
    finally:
        os.unlink(signers)
    from cwx.base.printable import printable

    found: dict[str, tuple[str, str | None, str]] = {}
    for row in done.stdout.decode("utf-8", "replace").splitlines():
        commit, status, principal, author = [*row.split("\x1f"), "", "", ""][:4]
        number = principal.removeprefix("cwx-key-")
        key = keys[int(number)] if status == "G" and principal.startswith("cwx-key-") and \
            number.isdigit() and int(number) < len(keys) else None
        found[commit] = (status, key, printable(author))
    return found


# ---------------------------------------------------------------- after a pull


def refusal(clone: Repository, folder: str, before: str | None, what: str) -> str | None:
    """Why the campaign at `folder` (from the clone's top) is not settled after a merge,
    pull or rebase that moved HEAD from `before`, where it lists players' keys: a line it
    brought not signed by the key in force for the player it names (unsigned_since)."""
    if not before:
        return None
    path = os.path.join(folder, "journal.jsonl") if folder not in ("", ".") else "journal.jsonl"
    found = unsigned_since(clone, path, before)
    return _refused(found, before, f"after the {what}, {_REFUSED}") if found else None


def unsigned_since(clone: Repository, path: str, before: str, head: str | None = None,
                   read: versions.Blobs | None = None) -> list[Unsigned]:
    """Where the campaign whose journal is at `path` (from the clone's top) lists players'
    keys (at HEAD or at `before`): the lines HEAD's journal holds and `before`'s did not
    that are not signed by the key in force for the player each names, as `cwx check
    --signed` proves them; none where there is nothing to verify by (no keys, no
    ssh-keygen). Only the commits new since `before` are verified, and the answer is kept
    for the two commits, so the hook, sync and check verify once. `head`: HEAD's commit,
    and `read`, a reader of blobs, where the caller has them (grows' proof)."""
    top = os.path.dirname(os.path.join(clone.top, path))
    settings = os.path.join(os.path.dirname(path), "campaign.toml")
    if not signing.listed_in(top):  # none here: are they listed at `before`?
        if read is not None:
            had = read.named(f"{before}:{settings}")
        else:
            shown = repo.run(clone, "cat-file", "blob", f"{before}:{settings}")
            had = shown.stdout if shown.returncode == 0 else None
        if had is None or not signing.listed(had, settings)[0]:
            return []
    import shutil  # with bz2 and lzma: only for a campaign that lists keys

    if shutil.which("ssh-keygen") is None:
        return []
    tip = f"{head}\n".encode() if head is not None else repo.run(
        clone, "rev-parse", "--verify", "--quiet", "HEAD^{commit}").stdout
    kept = repo.kept_file(clone, "brought-signed", _RULES, before.encode(), tip,
                          path.encode("utf-8", "surrogateescape"))
    told = repo.read_kept(kept)
    if isinstance(told, list) and all(isinstance(item, list) and len(item) == 4 and
                                      isinstance(item[0], int) and
                                      all(isinstance(x, str) for x in item[1:])
                                      for item in told):
        return [Unsigned(line, player or None, commit, why)
                for line, player, commit, why in told]
    try:
        found = brought_unsigned(clone, path, settings, before)
    except CwxError:
        return []
    repo.keep(kept, [[item.line, item.player or "", item.commit, item.why] for item in found])
    return found


def refused_since(clone: Repository, path: str, proven: str) -> str | None:
    """What `cwx sync` says before it shares anything, where HEAD's journal holds a line
    new since the one this clone last proved (at `proven`) that is not signed by its
    player's key: it stays refused until the clone steps back, however often asked."""
    found = unsigned_since(clone, path, proven)
    return _refused(found, proven, f"cwx sync would share turns on it, so {_REFUSED}",
                    "back to the journal it last proved (a turn committed since is left "
                    "out: play it again)") if found else None


_REFUSED = "cwx reconciled nothing:"  # grows.REFUSED, which sync looks for in a hook's note


def _refused(found: list[Unsigned], before: str, opening: str,
             back: str = "back to before it came (your own commits kept)") -> str:
    from cwx.base.printable import printable

    first = found[0]
    who = f"names {first.player}" if first.player else "names no player"
    where = f"commit {first.commit[:12]}" if first.commit else "no commit past it"
    more = f" (and {len(found) - 1} more line(s) it brought so)" if len(found) > 1 else ""
    return printable(
        f"{opening} line {first.line} of the journal {who}, but arrived "
        f"in {where}, {first.why}{more}: where campaign.toml lists players' keys, a turn "
        "counts only in a commit signed by its player's key. Next: `git reset --keep "
        f"{before[:12]}` takes this clone {back}; `cwx check --signed` names the line in "
        "every clone that has it, until the table takes it out of its history")
