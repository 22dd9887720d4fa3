"""Who is at the keyboard: the player every journaled change records (docs/rules.md,
"Players"). `who` names the character a change is about; `player` the person who made
it, so that `cwx undo` takes back one's own moves, never another's unasked."""

from __future__ import annotations

import os

from cwx.base.errors import BadValue, CwxError
from cwx.journal.lines import MAX_PLAYER  # the journal holds no longer name

_found: dict[str, str] = {}  # by campaign folder: asked once a command


def current(folder: str) -> str:
    """`CWX_PLAYER`, else the git author of the clone `folder` is in (the name git would
    write on a commit), else the login name."""
    named = os.environ.get("CWX_PLAYER")
    if named is not None:
        return checked(named, "CWX_PLAYER")
    real = os.path.realpath(folder)
    if real not in _found:
        _found[real] = _author(real) or _login()
    return _found[real]


def checked(name: str, where: str) -> str:
    """A player's name as one may be given: printable text, not blank, not too long."""
    name = name.strip()
    if not name or not name.isprintable() or len(name) > MAX_PLAYER:
        raise BadValue(f"{where}: a player's name is printable text of 1 to {MAX_PLAYER} "
                       f"characters")
    return name


def _author(folder: str) -> str | None:
    """The name git writes as the author of this clone's commits (GIT_AUTHOR_NAME, else
    user.name), or None."""
    from cwx.git import repo

    named = os.environ.get("GIT_AUTHOR_NAME")
    clone = repo.of(folder)
    if not named and clone is not None:
        try:
            done = repo.run(clone, "config", "--get", "user.name")
        except (CwxError, OSError):  # no git here: the login name will do
            return None
        named = done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""
    name = (named or "").strip()
    return name[:MAX_PLAYER] if name and name.isprintable() else None


def _login() -> str:
    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        if os.environ.get(variable):
            return os.environ[variable][:MAX_PLAYER]
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name[:MAX_PLAYER]
    except (ImportError, KeyError):
        return "player"
