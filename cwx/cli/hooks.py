"""What git runs: cwx's hooks and its merge driver. A commit, a pull or a merge starts
cwx once for each hook and each file merged, so main runs these without Typer, whose
import is half of a hook's start-up; `cwx git hook` and `cwx git merge` run them too."""

import os
import sys
from collections.abc import Sequence

from cwx.base.errors import BadFile
from cwx.campaign import gitsetup
from cwx.cli.plain import changing, note
from cwx.git import repo

FAILED = 1  # what git reads as "stop": a commit refused, a merge left in conflict


def quick(args: Sequence[str]) -> bool:
    """Whether a command line is one git gives a hook or the driver (names and files, no
    option), which `run` answers without the command line's parser."""
    if list(args[:2]) == ["git", "hook"]:
        return len(args) > 2 and args[2] in gitsetup.HOOKS and \
            not any(arg.startswith("-") for arg in args[3:])
    # The driver as `cwx git setup` writes it: `git merge -- %O %A %B %P`.
    return list(args[:3]) == ["git", "merge", "--"] and len(args) == 7


def run(args: Sequence[str]) -> int:
    """A command line `quick` accepts: its exit status."""
    if args[1] == "hook":
        return hook(args[2], args[3:])
    return merge(*args[3:7])


def hook(name: str, args: Sequence[str]) -> int:
    """A hook: reconcile after a merge or rebase, check before a commit, remember the
    journal after one."""
    clone = repo.of(".")
    if clone is None or name not in gitsetup.HOOKS:
        return 0
    if name == "post-rewrite" and (list(args) or [""])[0] != "rebase":
        return 0  # an amended commit brings nothing in
    if name == "post-merge" and (list(args) or ["0"])[0] == "1":
        # Settled before the commit: its pre-commit check refuses a sheet the merge counted
        # otherwise than the ledger (a turn both branches hold, added up twice).
        note("a squash merge is not committed yet: before you commit it, `cwx reconcile` "
             "if `cwx check` asks for it (git's merge of a sheet may count a turn both "
             "branches hold twice), then commit")
        return 0
    if name == "post-checkout" and not _rebase_ends_here(clone, args):
        return 0  # a checkout of one's own, or a rebase whose post-rewrite settles
    if name == "pre-commit":
        return _check_before_commit(clone)
    if name == "post-commit":
        gitsetup.remember_commit(clone, note)
    else:
        gitsetup.settle_after(changing, clone, name, note)
    return 0


def _rebase_ends_here(clone: repo.Repository, args: Sequence[str]) -> bool:
    """Whether this checkout is a rebase's, onto a history holding every commit of the
    clone's it would make anew (git's fork point left none: a `git pull --rebase` onto a
    history made anew): its list of commits to make is empty, so it ends with no commit
    made and no post-rewrite hook. What it brought is settled here."""
    if list(args[2:3]) != ["1"]:
        return False  # a file checked out, not a branch
    todo = os.path.join(repo.git_folder(clone), "rebase-merge", "git-rebase-todo")
    try:
        with open(todo, encoding="utf-8", errors="replace") as listed:
            steps = [line.split()[0] for line in listed
                     if line.strip() and not line.lstrip().startswith("#")]
    except OSError:
        return False
    return all(step == "noop" for step in steps)


def _check_before_commit(clone: repo.Repository) -> int:
    """No seal or redo record staged; `cwx check` of each campaign, said only when it
    finds something (a commit need not be chatty)."""
    from cwx.campaign import checks
    from cwx.cli.report import text

    if litter := gitsetup.staged_litter(clone):
        print(f"cwx: the commit would carry {', '.join(litter)}, which cwx keeps on this "
              "machine only (a sealed number would tell every clone the GM's secret); "
              f"`git rm --cached {litter[0]}` and commit again", file=sys.stderr)
        return FAILED
    if report := checks.before_commit(clone, note):
        print(text(report))
        print("cwx: the commit waits until `cwx check` passes (see above)", file=sys.stderr)
        return FAILED
    return 0


def merge(base: str, ours: str, theirs: str, path: str = "") -> int:
    """The merge driver for a character or bag file (%O %A %B %P): cwx's merge of the
    keys, else git's own text merge; 1 where a clash is left for a person."""
    from cwx.campaign.folder import Campaign
    from cwx.git import gitmerge

    merged = gitmerge.merge_files(base, ours, theirs, path or ours)
    if merged.text is not None:
        with changing("git merge", [ours], Campaign.around(ours), journaled=False) as change:
            change.create(ours, merged.text, force=True)
    for clash in merged.clashes:
        print(f"cwx: {path or ours}: {clash}", file=sys.stderr)
    if merged.clashes:
        marked = merged.marked or merged.text is None
        print(f"cwx: next: {gitsetup.next_step(path or ours, merged.clashes, marked=marked)}",
              file=sys.stderr)
    if merged.text is not None:
        return FAILED if merged.clashes else 0
    return _text_merge(ours, base, theirs, clash=bool(merged.clashes))


def _text_merge(ours: str, base: str, theirs: str, *, clash: bool) -> int:
    """git's own text merge (conflict markers where it cannot merge); with a clash cwx
    found, the merge fails even where the text merged cleanly."""
    clone = repo.of(".")
    if clone is None:
        raise BadFile("the merge driver runs only inside a git work tree", path=ours)
    done = repo.run(clone, "merge-file", "-L", "ours", "-L", "base", "-L", "theirs",
                    os.path.abspath(ours), os.path.abspath(base), os.path.abspath(theirs))
    if done.returncode == 0 and clash:
        with open(ours, "rb") as file:
            merged_text = file.read()
        with open(theirs, "rb") as file:
            their_text = file.read()
        with open(ours, "wb") as file:  # git's scratch copy, which git reads back
            file.write(b"<<<<<<< ours\n" + merged_text + b"=======\n" + their_text +
                       b">>>>>>> theirs\n")
        return FAILED
    return FAILED if done.returncode else 0  # git merge-file counts the conflicts: git wants 1
