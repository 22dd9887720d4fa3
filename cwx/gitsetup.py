"""A clone of a campaign's repository, made ready for play from several clones: the git
attributes, the `cwx` merge driver, and the hooks that reconcile after git brought in
other players' changes. Everything here runs `git` itself; cwx never reads .git."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

from cwx.errors import BadFile

HOOK_MARK = "# cwx git hook"  # a hook without this line is not cwx's, and never touched
HOOKS = {
    "post-merge": "after a merge or pull, reconcile the campaign with its ledger",
    "post-rewrite": "after a rebase (git pull --rebase), reconcile the campaign with its ledger",
    "pre-commit": "check the campaign, so a merge finished by hand is caught",
}
ATTRIBUTES = (
    "journal.jsonl merge=union",
    "*.toml merge=cwx",
)
ATTRIBUTES_HEAD = ("# cwx: journals merge by keeping both sides' lines; characters and bags "
                   "by adding up (cwx git setup)")


def git(*args: str, cwd: str, env: dict[str, str] | None = None, strip: bool = True) -> str:
    """Run git; its output, or a clear error."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                              env={**os.environ, **env} if env else None)
    except FileNotFoundError:
        raise BadFile("git is not installed; cwx git needs it", path=cwd) from None
    if done.returncode != 0:
        raise BadFile(f"git {' '.join(args)} failed: {done.stderr.strip() or done.returncode}",
                      path=cwd)
    return done.stdout.strip() if strip else done.stdout


def top(folder: str) -> str | None:
    """The work tree `folder` is in, or None outside git."""
    try:
        return git("rev-parse", "--show-toplevel", cwd=folder)
    except BadFile:
        return None


def tracks(path: str) -> bool:
    """Whether git tracks the file at `path` (False outside git, or without git)."""
    try:
        done = subprocess.run(["git", "ls-files", "--error-unmatch", "--",
                               os.path.basename(path)], cwd=os.path.dirname(path) or ".",
                              capture_output=True)
    except OSError:
        return False
    return done.returncode == 0


def program() -> str:
    """How a hook or the merge driver runs this very cwx (whichever venv it lives in)."""
    return f"{shlex.quote(sys.executable)} -m cwx"


def hook_text(name: str) -> str:
    python = shlex.quote(sys.executable)
    return f"""#!/bin/sh
{HOOK_MARK}: {HOOKS[name]}.
# Written by `cwx git setup`; run it again to refresh this file. cwx never changes a
# hook without the line above.
if [ -x {python} ]; then
    exec {python} -m cwx git hook {name} "$@"
fi
exec cwx git hook {name} "$@"
"""


def attributes_text(old: str) -> str:
    """The .gitattributes text with cwx's lines added (the player's own lines kept)."""
    lines = old.splitlines()
    missing = [line for line in ATTRIBUTES if line not in (x.strip() for x in lines)]
    if not missing:
        return old
    head = [] if ATTRIBUTES_HEAD in lines else [ATTRIBUTES_HEAD]
    body = old if not old or old.endswith("\n") else old + "\n"
    return body + "\n".join([*head, *missing]) + "\n"


def shared_hooks(folder: str) -> bool:
    """Whether the clone takes its hooks from core.hooksPath (perhaps shared)."""
    try:
        return bool(git("config", "core.hooksPath", cwd=folder))
    except BadFile:
        return False


def hooks_folder(folder: str) -> str:
    path = git("rev-parse", "--git-path", "hooks", cwd=folder)
    return os.path.abspath(os.path.join(folder, path))


def is_ours(path: str) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return HOOK_MARK in file.read(4096)
    except OSError:
        return False


def configure(folder: str, campaign: str) -> None:
    """The merge driver, and the campaign on the hooks' list (both in this clone's config)."""
    git("config", "merge.cwx.name", "cwx: characters and bags add up, as the ledger does",
        cwd=folder)
    git("config", "merge.cwx.driver", f"{program()} git merge %O %A %B %P", cwd=folder)
    listed = campaigns(folder)
    if campaign not in listed:
        git("config", "--add", "cwx.campaign", campaign, cwd=folder)


def campaigns(folder: str) -> list[str]:
    """The campaigns (paths from the work tree's top) the hooks look after."""
    try:
        listed = git("config", "--get-all", "cwx.campaign", cwd=folder)
    except BadFile:
        return []
    return [line for line in listed.splitlines() if line]


def _base(folder: str) -> str:
    """A campaign's folder from the work tree's top as a prefix of git's paths ("" at the
    top, else "camp/")."""
    folder = os.path.normpath(folder).strip("/") if folder not in ("", ".") else ""
    return f"{folder}/" if folder else ""


def _hidden(name: str, base: str) -> bool:
    """Whether cwx's walk of the campaign at `base` passes the path `name` by."""
    return any(part.startswith(".") for part in name[len(base):].split("/"))


def dice_at(work_tree: str, revision: str, folder: str) -> int | None:
    """The white and black dice the campaign in `folder` held at `revision` (its
    character and bag files, as cwx walks them: no hidden file, no campaign inside it),
    or None where there was none, or git cannot say."""
    from cwx import campaign

    base = _base(folder)
    try:
        listed = git("ls-tree", "-r", "-z", "--name-only", revision, "--",
                     f":(literal){base or '.'}", cwd=work_tree, strip=False)
    except BadFile:
        return None
    names = [name for name in listed.split("\0") if name.startswith(base)]
    if base + campaign.SETTINGS not in names:
        return None
    inner = {os.path.dirname(name) + "/" for name in names
             if os.path.basename(name) == campaign.SETTINGS and name != base + campaign.SETTINGS}
    wanted = [name for name in names if name.endswith(".toml") and not _hidden(name, base)
              and not any(name.startswith(root) for root in inner)]
    if not wanted:
        return 0
    done = subprocess.run(["git", "cat-file", "--batch"], cwd=work_tree, capture_output=True,
                          input="".join(f"{revision}:{name}\n" for name in wanted).encode())
    total, out = 0, done.stdout
    while out:
        header, _, out = out.partition(b"\n")
        parts = header.split()
        if len(parts) != 3:
            continue  # "missing": git could not find it
        size = int(parts[2])
        body, out = out[:size], out[size + 1:]
        total += _dice_of(body)
    return total


def dice_expected(work_tree: str, folder: str) -> int | None:
    """The white and black dice the campaign in `folder` should hold after a merge or
    rebase (W9): what it held before (ORIG_HEAD, and the files git does not track), and
    what the events the merge brought created or adopted (a new bag, the GM's refill).
    None where git cannot say."""
    from cwx import campaign, journal, ledger

    before = dice_at(work_tree, "ORIG_HEAD", folder)
    if before is None:
        return None
    base = _base(folder)
    root = os.path.join(work_tree, base)
    real_root = os.path.realpath(root)
    untracked = git("ls-files", "-z", "--others", "--exclude-standard", "--",
                    f":(literal){base or '.'}", cwd=work_tree, strip=False)
    for name in untracked.split("\0"):
        # As cwx walks the campaign: no hidden file, nothing of a campaign inside it.
        if name.endswith(".toml") and not _hidden(name, base) and \
                os.path.realpath(campaign.root_above(os.path.dirname(
                    os.path.join(work_tree, name))) or "") == real_root:
            try:
                with open(os.path.join(work_tree, name), "rb") as file:
                    before += _dice_of(file.read())
            except OSError:
                continue
    seen = set()
    done = subprocess.run(["git", "show", f"ORIG_HEAD:{base}{journal.NAME}"], cwd=work_tree,
                          capture_output=True)
    for raw in done.stdout.splitlines() if done.returncode == 0 else []:
        event = journal.parse(raw)
        if isinstance(event, journal.Event):
            seen.add(event.id)
    for event in journal.events(journal.path_in(root)):
        if event.id in seen:
            continue
        undid = event.result.get("undid")
        # The table's word (an adopt, or its undo) moves dice in and out; play only
        # moves them around.
        adopting = event.command == "adopt" or (
            event.command == "undo" and isinstance(undid, dict) and
            undid.get("command") == "adopt")
        for change in event.changes:
            if change.key is None and change.text is not None:  # a file made: new dice
                before += _dice_of(change.text.encode())
            elif adopting and change.key is not None and ledger.is_die(change.key):
                was = ledger.dice({change.key: change.before or 0})
                # A file leaving takes out what it held: a ledger below 0 is no die.
                before += -max(was, 0) if change.after is None else \
                    ledger.dice({change.key: change.after}) - was
    return before


def _dice_of(raw: bytes) -> int:
    import tomllib

    from cwx import ledger, sheets

    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return 0
    return ledger.dice(ledger.values_of(data)) if sheets.kind_of(data) in ("character", "bag") \
        else 0


def commit_paths(work_tree: str, paths: list[str], message: str) -> str:
    """Commit these paths as they are in the work tree, on their own, on top of HEAD.

    A post-merge hook runs while git still holds the merge's state, and git refuses a
    commit of some paths then; so the commit is built from a scratch index, HEAD moved
    to it, and the paths staged in the real index to match."""
    scratch = os.path.join(git("rev-parse", "--absolute-git-dir", cwd=work_tree),
                           "cwx-index")
    alone = {"GIT_INDEX_FILE": scratch}
    try:
        git("read-tree", "HEAD", cwd=work_tree, env=alone)
        git("add", "--", *paths, cwd=work_tree, env=alone)
        tree = git("write-tree", cwd=work_tree, env=alone)
    finally:
        if os.path.exists(scratch):
            os.unlink(scratch)
    commit = git("commit-tree", tree, "-p", "HEAD", "-m", message, cwd=work_tree)
    git("update-ref", "-m", "cwx reconcile", "HEAD", commit, cwd=work_tree)
    git("add", "--", *paths, cwd=work_tree)
    return commit[:12]


# What cwx leaves only on the machine it ran on (templates.GITIGNORE): git never carries
# them, unless someone added them past .gitignore.
NEVER_COMMITTED = (".cwx-sealed.json", ".*.cwx-tmp", ".cwx-redo-*.json")


def tracked_litter(work_tree: str, folder: str) -> list[str]:
    """Files git tracks in the campaign `folder` that cwx never commits: a redo record, a
    temporary file or a sealed number another clone pushed on purpose."""
    import fnmatch

    # The folder as it is named (a campaign may be called "camp[1]"), the names matched here.
    listed = git("ls-files", "-z", "--", f":(literal){folder or '.'}", cwd=work_tree,
                 strip=False)
    return [path for path in listed.split("\0") if path and
            any(fnmatch.fnmatchcase(os.path.basename(path), name) for name in NEVER_COMMITTED)]


def stashed(work_tree: str) -> bool:
    """Whether git holds the work tree's edits aside to put back after this merge or
    rebase (--autostash): they are edits not yet committed too."""
    for where in ("rebase-merge/autostash", "rebase-apply/autostash"):
        if os.path.exists(os.path.join(work_tree, git("rev-parse", "--git-path", where,
                                                      cwd=work_tree))):
            return True
    found = subprocess.run(["git", "rev-parse", "-q", "--verify", "MERGE_AUTOSTASH"],
                           cwd=work_tree, capture_output=True)
    return found.returncode == 0


def uncommitted(work_tree: str, folder: str) -> list[str]:
    """The campaign's files with changes not committed (the journal and TOML files)."""
    # -z: paths as they are (no quoting of other letters), each entry "XY path", a rename
    # followed by the path it came from.
    entries = iter(git("status", "--porcelain", "-z", "--untracked-files=no", "--",
                       folder or ".", cwd=work_tree, strip=False).split("\0"))
    found = []
    for entry in entries:
        if len(entry) < 4:
            continue
        if entry[0] in "RC":
            next(entries, None)
        if entry[3:].endswith((".toml", "journal.jsonl")):
            found.append(entry[3:])
    return found
