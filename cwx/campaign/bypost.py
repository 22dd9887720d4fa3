"""A turn in one command (play by post): where campaign.toml says `sync = true`, a command
that changes the campaign pulls the table's commits before it acts and pushes its own
after, through `cwx sync`'s own steps (sync.py). A pull that stops leaves the action
undone; a clone with no remote acts alone and says nothing."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from cwx.base.errors import CwxError
from cwx.campaign import sync
from cwx.campaign.folder import Campaign
from cwx.git import repo

T = TypeVar("T")
Say = Callable[[str], None]
NO_SYNC = "CWX_NO_SYNC"  # set: a command acts on its clone alone (--no-sync's variable)


def around(command: str, camp: Campaign, act: Callable[[], T], open_: Callable[..., Any],
           note: Say, *, settles: bool = False) -> T:
    """`act` between a pull and a push; the push only when it saved something. A command
    that `settles` a hand edit (adopt) acts before any pull while cwx check refuses the
    campaign: the pull would commit the edit unsettled, and the commit is refused."""
    clone = repo.of(os.path.realpath(camp.needed()))
    if clone is None:
        return act()
    if doing := sync.busy(clone):  # settling a conflict: `cwx adopt` and the like
        note(f"not synced: git is in the middle of {doing}; `cwx sync` once it is done")
        return act()
    with _alone():  # what runs inside (a scene's lines, git's hooks) never syncs itself
        try:
            share = sync.sharing(camp, note)
            if share.where is None:
                return act()
            if settles and _refused(camp):
                note("not pulled first: cwx check refuses this clone's edits until they are "
                     "settled; the push after pulls the table's commits if it must")
            else:
                sync.send(camp, share, None, _quiet)  # an earlier turn made with --no-sync
                sync.pull(open_, share, note, _quiet)
        except CwxError as error:
            raise _undone(command, clone, error) from None
        saved = _saved()
        global _turning
        _turning = True
        try:
            done = act()  # what it raises is no turn: nothing to share
        finally:
            _turning = False
        # Read anew: the files this command made are members the pull's listing never saw.
        _push(command, Campaign(camp.folder, camp.root), share, open_, note, saved)
        return done


_turning = False  # True while a command acts between its pull and its push


def pushes() -> bool:
    """Whether the command acting now pushes what it does (so says nothing of cwx sync)."""
    return _turning


def _refused(camp: Campaign) -> bool:
    """Whether cwx check finds a problem (a hand edit not yet adopted): a commit of the
    campaign as it stands would be refused."""
    from cwx.campaign import checks

    return bool(checks.check([camp.needed()]).problems)


def _push(command: str, camp: Campaign, share: sync.Sharing, open_: Callable[..., Any],
          note: Say, saved: int) -> None:
    if _saved() == saved:  # nothing changed (a refusal, a stateless resolve)
        return
    try:
        sync.send(camp, share, None, _quiet)
        sync.push(open_, share, note)
    except CwxError as error:
        raise type(error)(f"{command} is done and committed in this clone, but sharing it "
                          f"stopped: {error.message}", path=error.path, line=error.line,
                          key=error.key) from None


def _undone(command: str, clone: repo.Repository, error: CwxError) -> CwxError:
    """The pull's refusal, saying the action was not done and what comes next."""
    after = "then run it again" if sync.busy(clone) else \
        "then run it again, or with --no-sync to act on this clone alone (and cwx sync later)"
    return type(error)(f"{command} was not done, as the pull before it stopped: "
                       f"{error.message}; {after}", path=error.path, line=error.line,
                       key=error.key)


def _quiet(_: str) -> None:
    """A step that changes nothing, unsaid (cwx sync says every step; a turn only what
    came in and what went out)."""


def _saved() -> int:
    durable = sys.modules.get("cwx.store.durable")  # loaded by what writes: none, nothing saved
    return durable.saved if durable is not None else 0


@contextmanager
def _alone() -> Iterator[None]:
    before = os.environ.get(NO_SYNC)
    os.environ[NO_SYNC] = "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ[NO_SYNC]
        else:
            os.environ[NO_SYNC] = before
