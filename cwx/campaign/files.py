"""Campaign files in: read and validate them; and the Change, the unit of work that
reads a command's files under their locks and writes them back as one.

Reading uses the standard library's `tomllib` (fast, strict), with the work capped for
pathological files. Writing goes through the write guard (tomledit.py) and the durable
layer (durable.py); the journal line is journal.py's.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager

from cwx.base.errors import BadFile, Conflict, CwxError, WriteFailed
from cwx.base.record import Record
from cwx.campaign.folder import Campaign, Held, confine, stem
from cwx.journal import lines as journal
from cwx.store import durable, locks, redo
from cwx.systems import sheets
from cwx.toml import tomledit
from cwx.toml.tomledit import Key
from cwx.toml.tomlread import MAX_BYTES, line_of, loads, parse, read_bytes

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any, Self

__all__ = ["MAX_BYTES", "Change", "line_of", "parse", "read_bytes", "reading"]

Say = Callable[[str], None]


class Loaded(Record):
    """A file as read under the lock: its bytes, its data, and the edits to make."""

    path: str  # as the user named it
    real: str  # where the bytes live (a symlink's target)
    raw: bytes | None  # None: the file does not exist yet
    data: dict[str, Any]
    mode: int | None
    edits: list[tuple[Key, Any]]
    text: str | None = None  # a whole new file, for creation
    toml: bool = True  # the new text must parse to `data` with the edits (the write guard)
    secret: bool = False  # the journal says the file was written, never what it says


def sheet_from(data: Mapping[str, Any], raw: bytes, path: str, kind: str | None) -> Any:
    """The sheet of a file read (a character, or a file of the kind asked for), any
    problem placed at its line."""
    try:
        if kind == "character":
            return sheets.character(data, stem(path))
        return sheets.read(data, stem(path), kind)
    except CwxError as error:
        raise error.located(path, line_of(raw, error.key)) from None


def each_once(paths: Sequence[str]) -> list[str]:
    """`paths` without a file named twice (`sue sue.toml`, or a link beside its file): the
    first name of each, by where the file really is."""
    by_file: dict[str, str] = {}
    for path in paths:
        by_file.setdefault(os.path.realpath(path), path)
    return list(by_file.values())


def schema_beside(path: str, kind: str, camp: Campaign) -> str | None:
    """The `#:schema` target for a new file: the schema in its folder, else the one
    `cwx init` put at its campaign's root (`../character.schema.json`), else none."""
    name = f"{kind}.schema.json"
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isfile(os.path.join(folder, name)):
        return f"./{name}"
    root = camp.root_of(folder)
    if root is None or not os.path.isfile(os.path.join(root, name)):
        return None
    # A path relative to the file, as editors read it, with / on every system.
    return os.path.relpath(os.path.join(root, name), folder).replace(os.sep, "/")


# ---------------------------------------------------------------- changing


class Change:
    """Everything one command reads and writes, under its folders' locks: leaving the
    block writes it all, or, if anything was raised, nothing at all."""

    def __init__(self, command: str, paths: Sequence[str], camp: Campaign, *,
                 journaled: bool = True, waiting: Say | None = None,
                 note: Say | None = None, read_only: bool = False,
                 private: Sequence[str] = (), dry_run: bool = False) -> None:
        self.command = command
        self.dry_run = dry_run  # everything computed and checked, nothing written
        self.campaign = camp
        self.files = {path: _place(path) for path in paths}
        if len(set(self.files.values())) < len(self.files):
            raise BadFile("names the same file twice (through a link?); give each its own",
                          path=" and ".join(self.files))
        self.journal = camp.journal_file if journaled and not read_only else None
        # `private` files are cwx's own, kept where git never carries them (the sealed
        # number, in the clone's git folder): no game file, in no campaign, never journaled.
        self.private = set(private)
        # Refused before any lock, so nothing outside is even swept, nor read.
        played = {path: real for path, real in self.files.items() if path not in private}
        for path, real in played.items():
            _within_bound(camp, path, real)
        if self.journal:  # a change that writes
            _in_one_campaign(camp, list(played))
            _named_in_utf8(camp, list(played))
        self.loaded: dict[str, Loaded] = {}
        # Held at once, so held to the campaign's bounds (adopt of a thousand full files).
        self.held = Held(os.path.relpath(camp.root or camp.folder))
        self.event: dict[str, Any] | None = None
        self.corrections: set[tuple[str, int]] = set()  # a file and the index of its edit
        self.journaled: list[journal.Edit] = []  # what the journal says beyond the edits
        self.locks = locks.FolderLocks(waiting)
        self.note = note
        self.read_only = read_only

    def folders(self) -> set[str]:
        found = {os.path.dirname(real) for real in self.files.values()}
        if self.journal:
            found.add(os.path.dirname(self.journal))
        return found

    # --- reading under the lock

    def _load(self, path: str) -> Loaded:
        if path not in self.loaded:
            raw = read_bytes(path)
            mode = os.stat(path).st_mode & 0o7777
            data = parse(raw, path)
            self.held.add(data, len(raw))
            self.loaded[path] = Loaded(path, self.files[path], raw, data, mode, [])
        return self.loaded[path]

    def sheet(self, path: str, kind: str | None = None) -> Any:
        """The sheet of a file read under the lock: a character, a file of the kind asked
        for ("bag"), or with no kind, whatever campaign file it is."""
        file = self._load(path)
        assert file.raw is not None
        if not self.read_only:
            self.campaign.where_check_looks(path)
        return sheet_from(file.data, file.raw, path, kind)

    def character(self, path: str, system: str | None = None) -> Any:
        """A character; with `system`, one that plays it (a command's rules are one
        system's)."""
        sheet = self.sheet(path, "character")
        if system is not None and sheet.system != system:
            from cwx import systems

            theirs, ours = systems.system(sheet.system), systems.system(system)
            raise BadFile(f"is a {theirs.TITLE} character; {ours.TITLE} commands need a "
                          f"{system} one", path=path, key="system")
        return sheet

    def bag(self, path: str) -> Any:
        return self.sheet(path, "bag")

    # --- saying what changes

    def data(self, path: str) -> dict[str, Any]:
        """A file's plain data as read under the lock (for the ledger, which reads any
        key, valid or not)."""
        return self._load(path).data

    def bytes_of(self, path: str) -> bytes:
        raw = self._load(path).raw
        assert raw is not None
        return raw

    def set(self, path: str, key: Key, value: Any, *, correction: bool = False) -> None:
        """Set a key (None removes it); a correction brings the file to its ledger value
        and does not count in the ledger itself."""
        edits = self._load(path).edits
        if correction:
            self.corrections.add((path, len(edits)))
        edits.append((key, value))

    def save(self, path: str, before: Any, after: Any) -> None:
        """Write what changed from one sheet of a file to the next (and only that)."""
        for key, value in sheets.edits(before, after):
            self.set(path, key, value)

    def raw(self, path: str) -> bytes | None:
        """A file of cwx's own (never a link) as read under the lock, or None when absent."""
        if not os.path.lexists(path):
            return None
        return read_bytes(path, through_links=False)

    def create(self, path: str, text: str, *, force: bool,
               meant: Mapping[str, Any] | None = None, secret: bool = False,
               mode: int | None = None) -> None:
        """A whole new file (an existing one only with `force`), checked against the data
        it `meant`; a `secret` is its owner's alone and never written through a link."""
        real = self.files[path]
        exists = os.path.lexists(path)
        if exists and not force:
            raise BadFile("already exists; pass --force to replace it", path=path)
        if secret and os.path.islink(path):
            raise BadFile("is a symbolic link; cwx never writes a secret through a link. "
                          "Remove the link", path=path)
        raw = read_bytes(path, through_links=not secret) if exists else None
        if secret:
            mode = 0o600
        elif mode is None and exists:
            mode = os.stat(real).st_mode & 0o7777
        self.loaded[path] = Loaded(path, real, raw, dict(meant or {}), mode, [], text=text,
                                   toml=meant is not None, secret=secret)

    def record(self, result: Mapping[str, Any], *, who: str | None = None,
               file: str | None = None, bag: str | None = None, undoes: str | None = None,
               changes: Sequence[journal.Edit] = ()) -> None:
        """What the journal says of this change: who acted, on which files, the result,
        and any changes of the ledger that are not edits of a file (an adoption)."""
        self.event = {"who": who, "file": self.name_of(file) if file else None,
                      "bag": self.name_of(bag) if bag else None, "result": dict(result),
                      "undoes": undoes}
        self.journaled = list(changes)

    # --- the block

    def __enter__(self) -> Change:
        try:
            notes = durable.settle(self.locks, self.folders(),
                                   finish=not (self.read_only or self.dry_run), rebase=rebase)
        except BaseException:
            self.locks.release()
            raise
        for text in notes:
            if self.note:
                self.note(text)
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        try:
            if kind is None:
                self._commit()
        finally:
            self.locks.release()

    def _commit(self) -> None:
        replacements: list[durable.Replacement] = []
        changes: list[journal.Edit] = []
        for file in self.loaded.values():
            if file.text is None and not file.edits:
                continue
            assert not self.read_only, "a read-only change never writes"
            new_text = _new_text(file)
            _unchanged_since_read(file)
            _writable(file)
            replacements.append(durable.Replacement(file.real, new_text.encode(), file.mode,
                                                    file.raw))
            if file.path not in self.private:  # cwx's own file: where it lives is no news
                changes.extend(self._changes(file))
        if not replacements and self.event is None:
            return
        changes += self.journaled
        line = self._journal_line(changes)
        if not self.dry_run:  # a dry run stops here: every text made and guarded, none written
            durable.commit(replacements, line, self.command)

    def _changes(self, file: Loaded) -> list[journal.Edit]:
        name = self.name_of(file.path)
        if file.text is not None:
            return [journal.Edit(name, None, None, None, created=file.raw is None,
                                   text=None if file.secret else file.text)]
        # A key set twice (an undo's take-back, then a correction) is journaled as two
        # steps, each from the value before it.
        held: dict[Key, Any] = {}
        changes = []
        for index, (key, value) in enumerate(file.edits):
            before = held[key] if key in held else tomledit.value_at(file.data, key)
            held[key] = value
            changes.append(journal.Edit(name, ".".join(key), before, value,
                                        correction=(file.path, index) in self.corrections))
        return changes

    def _journal_line(self, changes: list[journal.Edit]) -> redo.JournalLine | None:
        if self.journal is None:
            return None
        from cwx.campaign import players
        from cwx.journal import clock

        folder = os.path.dirname(self.journal)
        player = players.current(folder)
        # Under the journal's lock: no other event joins between its latest and this one.
        at = clock.stamp(time.time(), clock.latest(self.journal, _kept_clock(folder)))
        event = journal.new(self.command, changes, **(self.event or {}), player=player, at=at)
        return redo.JournalLine(self.journal, journal.encode(event))

    def name_of(self, path: str) -> str:
        """A path as the journal names it: relative to the journal's folder when inside it."""
        return self.campaign.name_of(path) if self.journal else path


@contextmanager
def reading(paths: Sequence[str], camp: Campaign, *, waiting: Say | None = None,
            note: Say | None = None) -> Iterator[Change]:
    """Read files under their folders' locks; an interrupted change is left for a command
    that changes files (and the caller is told of it)."""
    with Change("read", paths, camp, waiting=waiting, note=note, read_only=True) as change:
        yield change


def rebase(target: str, now: bytes, line: redo.JournalLine) -> bytes | None:
    """An interrupted change made again on a file edited since it was computed, from the
    keys its journal line says it changed; None when it cannot be (the edit changed one of
    those keys too, or the change wrote the whole file)."""
    from cwx.journal import history

    mine = history.changes_to(line.line, journal.name_in(os.path.dirname(line.path), target))
    if not mine or any(change.key is None for change in mine):
        return None
    try:
        text = now.decode("utf-8")
        data = loads(text)
        edits: list[tuple[Key, Any]] = []
        for change in mine:
            assert change.key is not None
            key = journal.split(change.key)
            if tomledit.value_at(data, key) != change.before:
                return None
            edits.append((key, change.after))
        return tomledit.edited(text, data, edits, target).encode()
    except (ValueError, CwxError):
        return None


def _kept_clock(folder: str) -> str | None:
    """Where this clone keeps its journal's latest stamp: its own git folder, which no
    commit reaches (None outside git, or in a linked work tree)."""
    from cwx.git import repo

    clone = repo.of(folder)
    if clone is None or not os.path.isdir(clone.git_dir) or os.path.islink(clone.git_dir):
        return None
    return os.path.join(clone.git_dir, "cwx", "clock")


def _place(path: str) -> str:
    """The real path a file's bytes live at; a symlink is written through, not replaced."""
    if not path:
        raise BadFile("a file path is needed")
    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        raise BadFile(f"the folder {os.path.dirname(path) or '.'} does not exist", path=path)
    return real


def _within_bound(camp: Campaign, path: str, real: str) -> None:
    """A link the user made inside the campaign is read and written through; one that
    leads out of it (or, outside any campaign, out of the named file's folder) never is."""
    confine(path, real, camp.bound(path))


def _in_one_campaign(camp: Campaign, paths: Sequence[str]) -> None:
    """Every file a change writes is in the campaign whose journal records it (or, with no
    campaign, in none): a die moved into another campaign would break its W9 unseen."""
    home = camp.root_of(os.path.realpath(camp.journal_folder))
    for path in paths:
        # Where the file really is: a link inside this campaign may lead into another.
        theirs = camp.root_of(os.path.dirname(os.path.realpath(path)))
        if theirs == home:
            continue
        if theirs is None:
            said = f"is outside the campaign at {home}"
        elif home is None:
            said = f"is in the campaign at {theirs}, and this change is not"
        else:
            said = f"is in the campaign at {theirs}, not in this one at {home}"
        raise BadFile(f"{said}: a change stays inside one campaign, whose journal records "
                      "it. Play each campaign's characters with its own bag", path=path)


def _named_in_utf8(camp: Campaign, paths: Sequence[str]) -> None:
    """The journal names every file it records, and holds only text: a file named in
    other bytes is refused before anything is read, with what to do."""
    from cwx.base.hints import NOT_UTF8, utf8_named

    for path in paths:
        if not utf8_named(camp.name_of(path)):
            raise BadFile(NOT_UTF8, path=path)


def _new_text(file: Loaded) -> str:
    if file.text is None:
        assert file.raw is not None
        return tomledit.edited(file.raw.decode("utf-8"), file.data, file.edits, file.path)
    return tomledit.written(file.text, file.data, file.path) if file.toml else file.text


def _unchanged_since_read(file: Loaded) -> None:
    """Someone else's edit made while we worked is never overwritten."""
    try:
        now = read_bytes(file.real) if os.path.lexists(file.real) else None
    except BadFile:
        now = b"(unreadable)"
    if now != file.raw:
        what = "was created" if file.raw is None else "was changed"
        raise Conflict(f"{what} by another program while cwx worked; nothing was written. "
                       "Run the command again", path=file.path)


def _writable(file: Loaded) -> None:
    if file.mode is not None and not file.mode & 0o222:
        raise WriteFailed("is read-only; make it writable (chmod u+w) to let cwx change it",
                          path=file.path)


# ---------------------------------------------------------------- a campaign that acts


class Acting(Campaign):
    """A campaign whose operations (operations.Campaign) open their own changes. `note`
    hears what a change says beside its result (an interrupted change finished, say);
    `waiting`, that another cwx holds a lock it waits for. Both are silent unless given."""

    def __init__(self, folder: str, root: str | None, *, note: Say | None = None,
                 waiting: Say | None = None) -> None:
        super().__init__(folder, root)
        self.note, self.waiting = note, waiting

    @classmethod
    def around(cls, path: str = ".", *, note: Say | None = None,
               waiting: Say | None = None) -> Self:
        """The campaign a folder, or a file's folder, is in (outside any: that folder)."""
        found = super().around(path)
        found.note, found.waiting = note, waiting
        return found

    def like(self, folder: str, root: str | None) -> Self:
        return type(self)(folder, root, note=self.note, waiting=self.waiting)

    def elsewhere(self, path: str) -> Self:
        """The campaign `path` is in, told and waiting as this one is."""
        return type(self).around(path, note=self.note, waiting=self.waiting)

    def change(self, command: str, paths: list[str], *, journaled: bool = True,
               private: Sequence[str] = (), dry_run: bool = False) -> Change:
        """The files one operation changes, under their locks, journaled as `command`."""
        return self.opener(dry_run)(command, paths, self, journaled=journaled,
                                    private=private)

    def reading(self, paths: list[str]) -> AbstractContextManager[Change]:
        """Files read under their locks, for an operation that changes none."""
        return reading(paths, self, waiting=self.waiting, note=self.note)

    def opener(self, dry_run: bool = False) -> Callable[..., Change]:
        """How this campaign's operations open a change (in it, or in another campaign)."""

        def open_(command: str, paths: list[str], camp: Campaign, **options: Any) -> Change:
            return Change(command, paths, camp, waiting=self.waiting, note=self.note,
                          dry_run=dry_run, **options)

        return open_
