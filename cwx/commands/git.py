"""`cwx git`: a campaign played from several clones of one repository, git the engine."""

import os
import sys
from typing import Annotated

import typer

from cwx.base.errors import BadFile
from cwx.campaign import gitsetup
from cwx.campaign.folder import Campaign
from cwx.cli.common import CampaignFolder, changing, group, note
from cwx.cli.output import JsonFlag, emit
from cwx.git import repo

app = group("git", "Play from several git clones: merges that add up.")


@app.command("setup")
def setup(
    folder: CampaignFolder = ".",
    json: JsonFlag = False,
) -> None:
    """Prepare this clone: merge driver, attributes and hooks.

    .gitattributes (journal merge=union, characters and bags merge=cwx), the cwx merge
    driver, and hooks that reconcile after a merge, pull or rebase and check before a
    commit. A hook that is not cwx's is kept (a warning). Run it once after cloning; running
    it again changes nothing.

    Example: cwx git setup
    """
    done = gitsetup.setup(changing, Campaign.around(folder), note)
    lines = [f"This clone of {done.campaign} is ready for play from several clones:"]
    lines += [f"  wrote {name}" for name in done.written]
    lines += [f"  kept  hooks/{name} (not cwx's)" for name in done.kept]
    lines.append("  merge driver `cwx` set in this clone's git config")
    emit(json, done.as_json(), lambda: "\n".join(lines))


@app.command("merge", hidden=True)
def merge(base: str, ours: str, theirs: str,
          path: Annotated[str, typer.Argument()] = "") -> None:
    """The merge driver git calls for a character or bag file (%O %A %B %P)."""
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
        raise typer.Exit(1 if merged.clashes else 0)
    raise typer.Exit(_text_merge(ours, base, theirs, clash=bool(merged.clashes)))


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
        return 1
    return 1 if done.returncode else 0  # git merge-file counts the conflicts: git wants 1


@app.command("hook", hidden=True)
def hook(name: str, args: Annotated[list[str] | None, typer.Argument()] = None) -> None:
    """What cwx's git hooks run: reconcile after a merge or rebase, check before a commit,
    remember the journal after one."""
    clone = repo.of(".")
    if clone is None or name not in gitsetup.HOOKS:
        return
    if name == "post-rewrite" and (args or [""])[0] != "rebase":
        return  # an amended commit brings nothing in
    if name == "post-merge" and (args or ["0"])[0] == "1":
        note("a squash merge is not committed yet: after you commit it, run `cwx reconcile` "
             "(and commit that) if `cwx check` asks for it")
        return
    if name == "pre-commit":
        _check_before_commit(clone)
    elif name == "post-commit":
        gitsetup.remember_commit(clone, note)
    else:
        gitsetup.settle_after(changing, clone, name, note)


def _check_before_commit(clone: repo.Repository) -> None:
    """No seal or redo record staged; `cwx check` of each campaign, said only when it
    finds something (a commit need not be chatty)."""
    from cwx.campaign import checks
    from cwx.commands.check import text

    if litter := gitsetup.staged_litter(clone):
        print(f"cwx: the commit would carry {', '.join(litter)}, which cwx keeps on this "
              "machine only (a sealed number would tell every clone the GM's secret); "
              f"`git rm --cached {litter[0]}` and commit again", file=sys.stderr)
        raise typer.Exit(1)
    for folder in gitsetup.live_campaigns(clone, note):
        report = checks.check([os.path.join(clone.top, folder)])
        if report.problems:
            print(text(report))
            print("cwx: the commit waits until `cwx check` passes (see above)", file=sys.stderr)
            raise typer.Exit(1)
