"""The campaign: a folder marked by its settings file, found the way git finds a repository."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import NamedTuple

from cwx import journal

SETTINGS = "campaign.toml"


def root_above(folder: str) -> str | None:
    """The nearest folder at or above `folder` (as named, links not resolved) that holds
    the campaign's settings file, or None outside any campaign."""
    here = os.path.abspath(folder)
    while True:
        if os.path.isfile(os.path.join(here, SETTINGS)):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


class Settings(NamedTuple):
    """What campaign.toml says."""

    root: str
    bag: str | None  # the default bag, as a path from the root


def settings(root: str) -> Settings:
    """The campaign's settings file, read and checked."""
    from cwx import files
    from cwx.errors import BadFile

    path = os.path.join(root, SETTINGS)
    raw = files.read_bytes(path)
    table = files.parse(raw, path).get("campaign", {})
    if not isinstance(table, dict):
        raise BadFile("campaign must be a table, like [campaign] on a line of its own",
                      path=path, line=files.line_of(raw, "campaign"), key="campaign")
    bag = table.get("bag")
    if bag is not None and (not isinstance(bag, str) or not bag.strip()):
        raise BadFile('bag must name the default bag\'s file, like bag = "bag.toml"',
                      path=path, line=files.line_of(raw, "campaign.bag"), key="campaign.bag")
    return Settings(root, bag)


def journal_folder(path: str) -> str:
    """Where a change to the file at `path` is journaled: the campaign's root (one journal
    for the whole campaign), or outside any campaign the file's own folder."""
    folder = os.path.dirname(os.path.abspath(path))
    return root_above(folder) or folder


def bound(path: str) -> str:
    """The real folder a file named `path` may be written in: its campaign's, or with no
    campaign its own folder. A link that leads out of it is never written through."""
    folder = os.path.dirname(os.path.abspath(path))
    return os.path.realpath(root_above(folder) or folder)


def named_by_journal(journal_folder: str, name: str) -> str:
    """The file a journal in `journal_folder` names `name`, if it is within that journal's
    reach: its campaign, or with no campaign its own folder. A journal is input (a campaign
    from git, a line another player wrote), never a way to a file elsewhere."""
    from cwx.errors import BadFile

    path = os.path.join(journal_folder, name)
    real = os.path.realpath(path)
    root = root_above(journal_folder)
    if root is None:
        reach = os.path.realpath(journal_folder)
        within = inside(real, reach)
    else:
        theirs = root_above(os.path.dirname(real))
        within = theirs is not None and os.path.realpath(theirs) == os.path.realpath(root)
    if not within:
        raise BadFile(f"names {name}, outside {'its campaign' if root else 'its own folder'}; "
                      "cwx follows a journal only to files there (name the file yourself, "
                      "or mend the line)", path=journal.path_in(journal_folder))
    return path


def where_check_looks(path: str) -> None:
    """A campaign's character or bag is played only where `cwx check` looks (a `.toml`
    file outside hidden folders), else its dice would go uncounted (W9)."""
    root = root_above(os.path.dirname(os.path.abspath(path)))
    if root is None:
        return
    real = os.path.realpath(path)
    parts = os.path.relpath(real, os.path.realpath(root)).split(os.sep)
    if parts[0] != os.pardir and (any(part.startswith(".") for part in parts) or
                                  not real.endswith(".toml")):
        from cwx.errors import BadFile

        raise BadFile("is where cwx check never looks (a hidden name or folder, or a name "
                      "not ending in .toml), so its dice would go uncounted (W9); keep the "
                      "campaign's characters and bags where check sees them", path=path)


def inside(real: str, folder: str) -> bool:
    return real == folder or real.startswith(folder.rstrip(os.sep) + os.sep)


class Found(NamedTuple):
    """What lies under the paths `cwx check` was given."""

    tomls: list[str]
    journals: list[str]
    folders: list[str]  # every folder searched, for the redo records it may hold


def files_under(paths: Sequence[str], *, nested: bool = True) -> Found:
    """The TOML files and journals under `paths`, skipping hidden files and folders (and
    without `nested`, a folder below that is a campaign of its own: the nearest root
    wins)."""
    found = Found([], [], [])
    for path in paths:
        if not os.path.isdir(path):
            (found.journals if os.path.basename(path) == journal.NAME else found.tomls).append(path)
            continue
        for folder, dirs, names in os.walk(path):
            found.folders.append(folder)
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and (
                nested or not os.path.isfile(os.path.join(folder, d, SETTINGS))))
            for name in sorted(names):
                if name.startswith("."):
                    continue
                # normpath: the current folder's files are named plainly, never ./x.toml
                if name.endswith(".toml"):
                    found.tomls.append(os.path.normpath(os.path.join(folder, name)))
                elif name == journal.NAME:
                    found.journals.append(os.path.normpath(os.path.join(folder, name)))
    return found
