"""The campaign: a folder marked by its settings file, found the way git finds a
repository, and what one command knows of it.

A `Campaign` is made once per command and passed down: its root is found once, its
settings read once, and its files are listed, and read, only when a command asks for
them (a character by its name, the party, the ledger's check), each at most once. Its
journal, the campaign's ledger, is read and folded by the journal package (ledger.read).
Outside any campaign, a "campaign" is the folder of the file a command acts on, whose
journal is beside it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence

from cwx.base import posix
from cwx.base.errors import BadFile, BadValue, CwxError, Unlisted

# Where they were first; places.py holds them below every module that reads files.
from cwx.base.places import SETTINGS as SETTINGS
from cwx.base.places import confine as confine
from cwx.base.places import inside as inside
from cwx.base.places import root_above as root_above
from cwx.base.record import Record
from cwx.journal import lines as journal

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any, Self


class Settings(Record):
    """What campaign.toml says."""

    root: str
    bag: str | None  # the default bag, as a path from the root
    sync: bool = False  # by post: a command that changes the campaign pulls first, pushes after
    recap_gap: int | None = None  # seconds without events that end a session (cwx recap)
    gm: tuple[str, ...] | None = None  # the players who seal and reveal (None: anyone)


class Member(Record):
    """A character or bag file of the campaign, as a command named it."""

    path: str  # from the current folder
    kind: str  # "character", or another kind's name ("bag")
    data: dict[str, Any]  # as read (once) when the campaign was listed


class Campaign:
    """One campaign as a command sees it; made by `around`, once a command."""

    def __init__(self, folder: str, root: str | None) -> None:
        posix.needed()  # every command on campaign files makes one first
        self.folder = folder  # where the command acts: the file's folder, or the current
        self.root = root  # as named (None: outside any campaign)
        self.real = os.path.realpath(root) if root is not None else None
        self._roots: dict[str, str | None] = {}
        self._settings: Settings | None = None
        self._members: list[Member] | None = None
        self._unreadable: list[CwxError] = []
        self._unlisted: list[CwxError] = []  # folders cwx may not list: told, never an error

    @classmethod
    def around(cls, path: str = ".") -> Self:
        """The campaign a folder, or a file's folder, is in."""
        folder = path if os.path.isdir(path) else os.path.dirname(path) or "."
        return cls(folder, root_above(folder))

    def of(self, path: str) -> Self:
        """The campaign of a file: this one, or the one it is in."""
        root = self.root_of(os.path.dirname(os.path.abspath(path)))
        if root is not None and os.path.realpath(root) == self.real:
            return self
        return self.like(os.path.dirname(path) or ".", root)

    def like(self, folder: str, root: str | None) -> Self:
        """Another campaign, made as this one was (a subclass keeps what it was given)."""
        return type(self)(folder, root)

    def root_of(self, folder: str) -> str | None:
        """root_above, asked once a folder."""
        folder = os.path.abspath(folder)
        if folder not in self._roots:
            self._roots[folder] = root_above(folder)
        return self._roots[folder]

    # --- where things are

    @property
    def journal_folder(self) -> str:
        """Where a change is journaled: the campaign's root (one journal for the whole
        campaign), or outside any campaign the acting file's own folder."""
        return self.root if self.root is not None else self.folder

    @property
    def journal_file(self) -> str:
        return journal.path_in(os.path.realpath(self.journal_folder))

    def bound(self, path: str) -> str:
        """The real folder a file named `path` may be read and written in: its campaign's,
        or with no campaign its own folder. A link that leads out of it is never followed."""
        folder = os.path.dirname(os.path.abspath(path))
        return os.path.realpath(self.root_of(folder) or folder)

    def named(self, name: str) -> str:
        """The file this campaign's journal names `name`, if it is within the journal's
        reach: its campaign, or with no campaign its own folder. A journal is input (a
        campaign from git, a line another player wrote), never a way to a file elsewhere."""
        folder = os.path.realpath(self.journal_folder)
        path = os.path.join(folder, name)
        real = os.path.realpath(path)
        if self.real is None:
            within = inside(real, folder)
        else:
            theirs = self.root_of(os.path.dirname(real))
            within = theirs is not None and os.path.realpath(theirs) == self.real
        if not within:
            raise BadFile(f"names {name}, outside {'its campaign' if self.real else 'its own folder'}"
                          "; cwx follows a journal only to files there (name the file "
                          "yourself, or mend the line)", path=journal.path_in(folder))
        return path

    def name_of(self, path: str) -> str:
        """A file as the journal names it: its real path, relative to the journal."""
        return journal.name_in(os.path.realpath(self.journal_folder), path)

    def where_check_looks(self, path: str) -> None:
        """A campaign's character or bag is played only where `cwx check` looks (a `.toml`
        file outside hidden folders), else its dice would go uncounted (W9)."""
        if self.real is None:
            return
        real = os.path.realpath(path)
        parts = os.path.relpath(real, self.real).split(os.sep)
        if parts[0] != os.pardir and (any(part.startswith(".") for part in parts) or
                                      not real.endswith(".toml")):
            raise BadFile("is where cwx check never looks (a hidden name or folder, or a name "
                          "not ending in .toml), so its dice would go uncounted (W9); keep "
                          "the campaign's characters and bags where check sees them",
                          path=path)

    def needed(self) -> str:
        """The root, for a command that works only inside a campaign."""
        if self.root is None:
            raise BadFile("is not inside a campaign (no campaign.toml here or above); "
                          "cwx init marks one", path=self.folder)
        return self.root

    # --- what it holds

    def settings(self) -> Settings:
        """campaign.toml, read and checked (once)."""
        if self._settings is None:
            from cwx.toml import tomlread

            root = self.needed()
            path = os.path.join(root, SETTINGS)
            raw = tomlread.read_bytes(path)
            table = tomlread.parse(raw, path).get("campaign", {})
            if not isinstance(table, dict):
                raise BadFile("campaign must be a table, like [campaign] on a line of its own",
                              path=path, line=tomlread.line_of(raw, "campaign"), key="campaign")
            bag = table.get("bag")
            if bag is not None and (not isinstance(bag, str) or not bag.strip() or
                                    not bag.isprintable()):  # a NUL names no file
                raise BadFile('bag must name the default bag\'s file, like bag = "bag.toml"',
                              path=path, line=tomlread.line_of(raw, "campaign.bag"),
                              key="campaign.bag")
            if bag is not None and not inside(os.path.realpath(os.path.join(root, bag)),
                                              os.path.realpath(root)):
                raise BadFile(f"bag names {bag}, outside the campaign (or a link out of it); "
                              'name a bag of the campaign, like bag = "bag.toml"', path=path,
                              line=tomlread.line_of(raw, "campaign.bag"), key="campaign.bag")
            sync = table.get("sync", False)
            if not isinstance(sync, bool):
                raise BadFile("sync must be true (by post: every command that changes the "
                              "campaign pulls before it acts and pushes after) or false",
                              path=path, line=tomlread.line_of(raw, "campaign.sync"),
                              key="campaign.sync")
            self._settings = Settings(root, bag, sync, _recap_gap(table, raw, path),
                                      _gm(table, raw, path))
        return self._settings

    def members(self, unreadable: Callable[[CwxError], None] | None = None) -> list[Member]:
        """The campaign's character and bag files, named from here and each read once
        (a nested campaign, or a link to a file met already, left out); a file that cannot be
        read is an error, or with `unreadable`, told to it and left out."""
        from cwx import systems
        from cwx.toml import tomlread

        if self._members is None:
            held = Held(os.path.relpath(self.needed()))
            found = self.files()
            members: list[Member] = []  # kept once all are read: a refusal keeps none
            unread: list[CwxError] = []
            seen: set[str] = set()
            self._unlisted = [error.located(os.path.relpath(error.path or "."))
                              for error in found.unlisted]  # named from here, as files are
            for path in found.tomls:
                path, real = os.path.relpath(path), os.path.realpath(path)
                home = self.root_of(os.path.dirname(real))
                # A campaign's below is left out; a link out of this one is read, and so
                # refused as every read of it is (and as check names it).
                nested = inside(real, self.real or "") and \
                    (home is None or os.path.realpath(home) != self.real)
                if os.path.basename(path) == SETTINGS or real in seen or nested:
                    continue
                seen.add(real)
                try:
                    raw = tomlread.read_bytes(path)
                    data = tomlread.parse(raw, path)
                except CwxError as error:
                    unread.append(error)
                    continue
                held.add(data, len(raw))
                kind = systems.kind_of(data)
                if kind is not None:
                    members.append(Member(path, kind, data))
            self._members, self._unreadable = members, unread
        for problem in self._unreadable:
            if unreadable is None:
                raise problem
            unreadable(problem)
        if unreadable is not None:
            for problem in self._unlisted:
                unreadable(problem)
        return self._members

    def files(self) -> Found:
        """files_under the campaign (outside one, the acting file's folder), none nested;
        a campaign of too many is refused, named from here."""
        try:
            return files_under([self.root or self.folder], nested=False)
        except BadFile as crowded:
            raise crowded.located(os.path.relpath(crowded.path or ".")) from None

    # --- finding a character or a bag

    def character(self, value: str) -> str:
        """--char: a path (an existing one wins), else a name in the campaign: `sue` is the
        file sue.toml, found by its file name alone; else the character whose `name` is
        Sue. Two files of that name, or two characters, are an error naming both."""
        from cwx.base.traitnames import fold

        is_folder = os.path.isdir(value)
        if os.path.lexists(value) and not is_folder:
            confine(value, os.path.realpath(value))  # a file through a link out: refused
            return value
        if not value.strip():
            return value
        if is_folder and (self.root is None or os.path.dirname(value) or value in (".", "..")):
            raise BadFile("is a folder; give a character's file, or its name", path=value)
        if self.root is None or os.path.dirname(value):
            return missing(value, "character")
        wanted = fold(value).removesuffix(".toml")
        by_file = _one_each(path for path in self.files().tomls
                            if fold(stem(path)) == wanted and
                            os.path.basename(path) != SETTINGS)
        if not by_file:
            by_file = _one_each(m.path for m in self.members() if m.kind == "character" and
                                fold(_name(m)) == wanted)
        if len(by_file) > 1:
            raise BadValue(f"{value}: two characters answer to that name, "
                           f"{' and '.join(by_file)}; give the file")
        if by_file:
            return by_file[0]
        if is_folder:
            raise BadFile("is a folder, and no character of the campaign has that name; give "
                          "a character's file, or its name", path=value)
        from cwx.base.hints import did_you_mean

        names = {}
        for member in self.members(lambda error: None):
            if member.kind == "character":
                names[_name(member)] = _name(member)
                if value.endswith(".toml"):
                    names[os.path.basename(member.path)] = member.path
                elif fold(stem(member.path)) != fold(_name(member)):
                    names[stem(member.path)] = stem(member.path)
        raise BadValue(f"{value}: no such file, and no character of that name in the "
                       f"campaign{did_you_mean(value, names, names)}")

    def bag(self, value: str | None, ask: str = "with --bag") -> str:
        """--bag, or left out: the campaign's default bag (campaign.toml), else its only
        bag. `ask`: how the command takes a bag, for the error that says to give one."""
        if value:
            if os.path.isdir(value):
                raise BadFile("is a folder; give the bag's file", path=value)
            return value if os.path.lexists(value) else missing(value, "bag")
        if self.root is None:
            raise BadValue(f"say which bag {ask} (outside a campaign there is no default)")
        named = self.settings().bag
        if named:
            return os.path.relpath(os.path.join(self.root, named))
        bags = [m.path for m in self.members(lambda error: None) if m.kind == "bag"]
        if len(bags) != 1:
            from cwx.base.ink import plural

            raise BadValue(f"the campaign has {plural(len(bags), 'bag') if bags else 'no bags'}"
                           f"{': ' + ', '.join(bags) if bags else ''}"
                           f"; say which {ask}, or name the default as bag = \"…\" in "
                           "campaign.toml")
        return bags[0]

    # --- its ledger

    def ledger(self, bad: Callable[[journal.BadLine], None] | None = None,
               each: Callable[[journal.Event], None] | None = None) -> Any:
        """The ledger of the campaign's journal (ledger.Ledger), read as a stream (ledger.read:
        `bad` hears of each line that is not an event, `each` of every event; a journal
        naming too many files is refused at its line, journal.Crowded)."""
        from cwx.journal import ledger

        # Crowded names the journal as the root is named.
        return ledger.read(self.journal_file, bad, each,
                           named_as=journal.path_in(self.journal_folder))

    def held_by(self, name: str) -> int:
        """The dice the journal says the file `name` holds: only the lines naming it are
        read (a file about to be made, where one may have been)."""
        from cwx.journal import ledger

        return ledger.held_in(self.journal_file, name)

    def uncounted(self, folded: Any, present: Iterable[str]) -> dict[str, int]:
        """The files the ledger says hold dice that are no longer among the campaign's
        files `present`: gone, a folder now, or something else. Their dice are still the
        campaign's (W9); a file in a hidden folder is neither counted nor missed."""
        real = self.real or os.path.realpath(self.folder)
        looked = {os.path.relpath(os.path.join(os.path.realpath(os.path.dirname(path) or "."),
                                               os.path.basename(path)), real)
                  for path in self.files().tomls}
        return self._holding(folded, present, looked)

    def gone(self, folded: Any) -> dict[str, int]:
        """The files the ledger says hold dice that are gone (or a folder now)."""
        return self._holding(folded, (), set())

    def _holding(self, folded: Any, present: Iterable[str], looked: set[str]) -> dict[str, int]:
        real = self.real or os.path.realpath(self.folder)
        found = {}
        for name in sorted(folded.known - set(present)):
            held = folded.held(name)
            path = os.path.join(real, name)
            if held and (name in looked or not os.path.lexists(path) or os.path.isdir(path)):
                found[name] = held
        return found


def _recap_gap(table: dict[str, Any], raw: bytes, path: str) -> int | None:
    """campaign.toml's recap_gap ("2d": a table that plays by post), in seconds."""
    if "recap_gap" not in table:
        return None
    from cwx.base import times
    from cwx.toml import tomlread

    given = table["recap_gap"]
    try:
        if not isinstance(given, str):
            raise BadValue("not text")
        return times.gap_given(given)
    except BadValue:
        raise BadFile('recap_gap must be a duration, like recap_gap = "2d" (or "4h", "90m"): '
                      "the time without events that ends a session", path=path,
                      line=tomlread.line_of(raw, "campaign.recap_gap"),
                      key="campaign.recap_gap") from None


def _gm(table: dict[str, Any], raw: bytes, path: str) -> tuple[str, ...] | None:
    """campaign.toml's gm: the players (named as --player names one) who seal and reveal."""
    if "gm" not in table:
        return None
    from cwx.campaign import players
    from cwx.toml import tomlread

    given = table["gm"]
    try:
        if not isinstance(given, list) or not given or \
                not all(isinstance(name, str) for name in given):
            raise BadValue("not a list of names")
        return tuple(players.checked(name, "gm") for name in given)
    except BadValue:
        raise BadFile('gm must list the players who seal and reveal numbers, like gm = '
                      '["Alice"] (each as CWX_PLAYER or git\'s user.name names them); leave '
                      "it out to let anyone", path=path, line=tomlread.line_of(raw, "campaign.gm"),
                      key="campaign.gm") from None


def _name(member: Member) -> str:
    name = member.data.get("name")
    return name if isinstance(name, str) else stem(member.path)


def _one_each(paths: Iterable[str]) -> list[str]:
    """Each file once, named from the current folder: by where it really is, the file
    itself over a link to it."""
    found: dict[str, str] = {}
    for path in paths:
        path = os.path.relpath(path)
        real = os.path.realpath(path)
        if real not in found or os.path.abspath(found[real]) != real:
            found[real] = path
    return list(found.values())


def missing(path: str, kind: str) -> str:
    """A path that does not exist: said now, with the nearest file of its folder that is a
    `kind` ("character" or "bag"), named as the path was typed."""
    from cwx import systems
    from cwx.base.hints import did_you_mean, nearest
    from cwx.toml import tomlread

    folder = os.path.dirname(path)
    try:
        names = [n for n in os.listdir(folder or ".") if n.endswith(".toml")]
    except OSError:
        return path  # the files layer says what is wrong with the folder
    near = {}
    for name in nearest(os.path.basename(path), names, 8):  # read only these: a folder may be big
        try:
            data = tomlread.parse(tomlread.read_bytes(os.path.join(folder, name)), name)
        except CwxError:
            continue
        if systems.kind_of(data) == kind:
            near[name] = os.path.join(folder, name)
    raise BadFile(f"no such file{did_you_mean(os.path.basename(path), near, near)}", path=path)


def stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


class Found(Record):
    """What lies under the paths `cwx check` was given."""

    tomls: list[str]
    journals: list[str]
    folders: list[str]  # every folder searched
    redone: list[str]  # those holding a file named like a redo record, for cwx check
    unlisted: list[CwxError]  # the folders cwx may not list: what they hold goes unseen


MAX_FILES = 1000  # TOML files under a campaign (a table's are a few dozen): docs/rules.md
MAX_HELD = 20_000  # keys and list items its files hold together (a table's, a few thousand)
# Bytes its files hold together (a table's, well under one MiB): a command holds every file
# it reads at once, each several times its size once parsed, and a thousand files each
# within its own 64 KiB would cost a command 330 MB (bench/hostile.py).
MAX_HELD_BYTES = 8 << 20


class Held:
    """The keys and list items, and the bytes, of a campaign's files read so far: past
    MAX_HELD or MAX_HELD_BYTES, a BadFile naming the campaign (each file is within its
    own bound, not a thousand of them together)."""

    def __init__(self, root: str) -> None:
        self.root, self.count, self.size = root, 0, 0

    def add(self, data: dict[str, Any], size: int) -> None:
        """Count a file read, of `size` bytes, that holds `data`."""
        from cwx.toml import tomlread

        self.count += tomlread.values_in(data)
        self.size += size
        if self.count > MAX_HELD:
            raise BadFile(f"its files hold more than {MAX_HELD:,} keys and list items "
                          "together, and cwx reads a campaign of up to that many (a table's "
                          "hold a few thousand); move those that are not the campaign's out "
                          "of it", path=self.root)
        if self.size > MAX_HELD_BYTES:
            raise BadFile(f"its files hold more than {MAX_HELD_BYTES >> 20} MiB together, and "
                          "cwx reads a campaign of up to that much (a table's hold well under "
                          "one); move those that are not the campaign's out of it, and long "
                          "notes into files of their own that are not .toml", path=self.root)


def files_under(paths: Sequence[str], *, nested: bool = True) -> Found:
    """The TOML files and journals under `paths`, skipping hidden files and folders (and
    without `nested`, a folder below that is a campaign of its own: the nearest root
    wins). More than MAX_FILES TOML files is a BadFile: each is read, and the hooks read
    them on every pull."""
    found = Found([], [], [], [], [])
    for path in paths:
        if not os.path.isdir(path):
            (found.journals if os.path.basename(path) == journal.NAME else found.tomls).append(path)
            continue
        # A stack, not recursion: a campaign folders deep past Python's limit is still read.
        stack = [path]
        while stack:
            folder = stack.pop()
            try:  # one look at each folder: a look by its path costs one a folder above it
                dirs, names, redone = _entries(folder)
            except OSError as error:  # named, never passed by as empty (cwx check: exit 2)
                found.unlisted.append(Unlisted(
                    f"cwx may not list this folder ({(error.strerror or 'denied').lower()}); "
                    "what it holds goes unseen", path=os.path.normpath(folder)))
                continue
            if folder != path and not nested and SETTINGS in names and \
                    os.path.isfile(os.path.join(folder, SETTINGS)):
                continue  # a campaign of its own
            found.folders.append(folder)
            if redone:
                found.redone.append(folder)
            for name in names:
                # normpath: the current folder's files are named plainly, never ./x.toml
                if name.endswith(".toml"):
                    found.tomls.append(os.path.normpath(os.path.join(folder, name)))
                    if len(found.tomls) > MAX_FILES:
                        raise BadFile(f"holds more than {MAX_FILES:,} TOML files below it, "
                                      "and cwx reads a campaign of up to that many (a table's "
                                      "are a few dozen); move those that are not the "
                                      "campaign's out of it", path=os.path.normpath(path))
                elif name == journal.NAME:
                    found.journals.append(os.path.normpath(os.path.join(folder, name)))
            stack.extend(reversed([os.path.join(folder, d) for d in dirs]))
    return found


def _entries(folder: str) -> tuple[list[str], list[str], bool]:
    """A folder's visible subfolders and files, sorted (a link to a folder is neither, as
    os.walk passes it by), and whether it holds a file named like a redo record; OSError
    for a folder cwx may not list."""
    from cwx.store.redo import REDO_PREFIX

    dirs: list[str] = []
    names: list[str] = []
    redone = False
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.startswith("."):
                redone = redone or entry.name.startswith(REDO_PREFIX)
                continue
            try:
                if not entry.is_dir():
                    names.append(entry.name)
                elif not entry.is_symlink():
                    dirs.append(entry.name)
            except OSError:
                names.append(entry.name)
    return sorted(dirs), sorted(names), redone
