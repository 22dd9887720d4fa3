"""Where a campaign's files may be: the campaign's root, found upwards as git finds a
repository, and the one rule of links for reading and writing alike. Below every other
module that touches files (it imports none of cwx's but its errors)."""

from __future__ import annotations

import os

from cwx.base.errors import BadFile

SETTINGS = "campaign.toml"


def root_above(folder: str) -> str | None:
    """The nearest folder at or above `folder` (as named, links not resolved) that holds
    the campaign's settings file, or None outside any campaign. Where a link lies on the
    way up to it (a folder link committed in a campaign, to another), the campaign the
    link sits in, if any: a path through a link is in the campaign it is named in, and
    one leading out of it is refused there (`confine`), not taken for the other's."""
    here = os.path.abspath(folder)
    found: str | None = None
    crossed = False  # a link on the way from `folder` up to `found`, itself included
    while True:
        if found is None:
            crossed = crossed or os.path.islink(here)
        if os.path.isfile(os.path.join(here, SETTINGS)):
            if found is not None or not crossed:  # the outer campaign, or no link: this
                return here
            found = here
        parent = os.path.dirname(here)
        if parent == here:
            return found
        here = parent


class LeadsOut(BadFile):
    """A file reached through a link out of its campaign: refused, and no campaign of its
    own (check counts no ledger of the campaign it leads into)."""


def inside(real: str, folder: str) -> bool:
    return real == folder or real.startswith(folder.rstrip(os.sep) + os.sep)


def confine(path: str, real: str, bound: str | None = None) -> None:
    """The one rule of links, for reading and writing alike: a file reached through a link
    that leads out of its campaign (`bound`, found when not given: the campaign's real
    folder, or outside any campaign the file's own) is neither read nor written."""
    named = os.path.abspath(path)
    if real == named:
        return  # no link on the way: the file is where it is named
    if bound is None:
        folder = os.path.dirname(named)
        bound = os.path.realpath(root_above(folder) or folder)
    if not inside(real, bound):
        raise LeadsOut(f"leads to {real}, outside {bound}; cwx reads and writes no file "
                      "through a link that leaves the campaign. Copy the file into the "
                      "campaign", path=path)


def confine_open(path: str, fd: int) -> None:
    """`confine`, for a file open already: where it really is, as the system says (Linux's
    /proc, one call), else as its path resolves."""
    try:
        real = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        real = os.path.realpath(path)
    confine(path, real)
