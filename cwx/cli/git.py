"""`cwx git`: a campaign played from several clones of one repository, git the engine."""

import os
import sys
from functools import partial
from typing import Annotated, Any

import typer

from cwx import campaign, files, gitmerge, gitsetup, repo, sheets, tomledit
from cwx.cli.common import CampaignFolder, changing, group, note
from cwx.cli.output import JsonFlag, emit
from cwx.errors import BadFile, CwxError

app = group("git", "Play one campaign from several git clones: merges that add up.")


@app.command("setup")
def setup(
    folder: CampaignFolder = ".",
    json: JsonFlag = False,
) -> None:
    """Prepare this clone: .gitattributes (journal merge=union, characters and bags
    merge=cwx), the cwx merge driver, and hooks that reconcile after a merge, pull or
    rebase and check before a commit. A hook that is not cwx's is kept (a warning).
    Run it once after cloning; running it again changes nothing.

    Example: cwx git setup
    """
    result = prepare(folder)
    emit(json, result, lambda: _setup_text(result))


def prepare(folder: str) -> dict[str, Any]:
    """What `cwx git setup` does; `cwx init` calls it inside a git work tree."""
    root = campaign.root_above(folder)
    if root is None:
        raise BadFile("is not inside a campaign (no campaign.toml here or above); cwx init "
                      "marks one", path=folder)
    clone = repo.of(root)
    if clone is None:
        raise BadFile("is not inside a git work tree; git init (or git clone) first",
                      path=root)
    # core.hooksPath: a folder other repositories may share; cwx installs nothing there.
    shared = gitsetup.shared_hooks(clone)
    hooks = gitsetup.hooks_folder(clone)
    if not shared:
        os.makedirs(hooks, exist_ok=True)
    attributes = os.path.join(root, ".gitattributes")
    written: list[str] = []
    ours = {} if shared else {name: os.path.join(hooks, name) for name in gitsetup.HOOKS}
    kept = [name for name, hook in ours.items()  # a link, or the player's own: theirs
            if os.path.islink(hook) or (os.path.lexists(hook) and not gitsetup.is_ours(hook))]
    for name in kept:
        del ours[name]
    with changing("git setup", [attributes, *ours.values()], journal_for=None) as change:
        old = (change.raw(attributes) or b"").decode("utf-8", "replace")
        if (new := gitsetup.attributes_text(old)) != old:
            change.create(attributes, new, force=True)
            written.append(".gitattributes")
        for name, hook in ours.items():
            text = gitsetup.hook_text(name)
            if change.raw(hook) != text.encode():
                change.create(hook, text, force=True, mode=0o755)
                written.append(f"hooks/{name}")
    gitsetup.configure(clone, os.path.relpath(os.path.realpath(root), clone.top))
    for name in kept:
        note(f"{os.path.join(hooks, name)} is not cwx's, so cwx left it alone; have it run "
             f"`cwx git hook {name}` to reconcile (or check) this campaign")
    if shared:
        note(f"hooks come from {hooks} (core.hooksPath), which other repositories may share, "
             "so cwx installed none there: have its post-merge, post-rewrite and pre-commit "
             "hooks run `cwx git hook NAME \"$@\"`")
    return {"campaign": root, "written": written, "kept": kept, "driver": "merge.cwx"}


def _setup_text(result: dict[str, Any]) -> str:
    lines = [f"This clone of {result['campaign']} is ready for play from several clones:"]
    lines += [f"  wrote {name}" for name in result["written"]]
    lines += [f"  kept  hooks/{name} (not cwx's)" for name in result["kept"]]
    lines.append("  merge driver `cwx` set in this clone's git config")
    return "\n".join(lines)


@app.command("merge", hidden=True)
def merge(base: str, ours: str, theirs: str,
          path: Annotated[str, typer.Argument()] = "") -> None:
    """The merge driver git calls for a character or bag file (%O %A %B %P)."""
    raws = [files.read_bytes(p) for p in (base, ours, theirs)]
    try:
        data = [files.parse(raw, p) for raw, p in zip(raws, (base, ours, theirs), strict=True)]
    except CwxError:
        raise typer.Exit(_text_merge(ours, base, theirs, clash=False)) from None
    if sheets.kind_of(data[1]) is None or sheets.kind_of(data[2]) is None:
        raise typer.Exit(_text_merge(ours, base, theirs, clash=False))  # not cwx's TOML
    merged = gitmerge.merge(data[0], data[1], data[2], files.stem(path or ours))
    if not merged.clashes:
        try:
            text = tomledit.edited(raws[1].decode("utf-8"), data[1],
                                   gitmerge.edits(data[1], merged.data), path or ours)
        except CwxError:
            raise typer.Exit(_text_merge(ours, base, theirs, clash=False)) from None
        with changing("git merge", [ours], journal_for=None) as change:
            change.create(ours, text, force=True)
        return
    for clash in merged.clashes:
        print(f"cwx: {path or ours}: {clash}", file=sys.stderr)
    raise typer.Exit(_text_merge(ours, base, theirs, clash=True))


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
    """What cwx's git hooks run: reconcile after a merge or rebase, check before a commit."""
    from cwx.cli import reconcile

    clone = repo.of(".")
    if clone is None or name not in gitsetup.HOOKS:
        return
    if name == "post-rewrite" and (args or [""])[0] != "rebase":
        return  # an amended commit brings nothing in
    what = "rebase" if name == "post-rewrite" else "merge"
    if name == "post-merge" and (args or ["0"])[0] == "1":
        note("a squash merge is not committed yet: after you commit it, run `cwx reconcile` "
             "(and commit that) if `cwx check` asks for it")
        return
    if name == "pre-commit" and (litter := gitsetup.staged_litter(clone)):
        print(f"cwx: the commit would carry {', '.join(litter)}, which cwx keeps on this "
              "machine only (a sealed number would tell every clone the GM's secret); "
              f"`git rm --cached {litter[0]}` and commit again", file=sys.stderr)
        raise typer.Exit(1)
    for folder in gitsetup.campaigns(clone):
        where = os.path.join(clone.top, folder)
        if not os.path.isfile(os.path.join(where, campaign.SETTINGS)):
            note(f"{folder or '.'} is no campaign now (no {campaign.SETTINGS}), so the hooks "
                 f"pass it by; `git config --unset cwx.campaign '^{folder}$'` forgets it")
            continue
        if name == "pre-commit":
            _check_before_commit(where)
            continue
        litter = gitsetup.tracked_litter(clone, folder)
        if litter:  # never finished here: another clone's record is not this one's change
            note(f"after the {what}, cwx did not reconcile {folder or 'the campaign'}: git "
                 f"brought {', '.join(litter)}, which cwx never commits. Look at them, `git "
                 "rm` them and commit; cwx does not finish or trust them")
            continue
        dirty = gitsetup.uncommitted(clone, folder) or \
            (["the edits git set aside (--autostash)"] if gitsetup.stashed(clone) else [])
        if dirty:  # a player's edits not yet committed are never reconciled away
            note(f"after the {what}, cwx did not reconcile {folder or 'the campaign'}: "
                 f"{', '.join(dirty)} had changes not yet committed. Commit them (or `cwx "
                 "adopt` them), then `cwx reconcile` if `cwx check` asks for it")
            continue
        kept: list[str] = []
        try:
            corrected = reconcile.run(where, numbers_only=True, kept=kept,
                                      dice_before=partial(gitsetup.dice_expected, clone,
                                                          folder))
        except CwxError as error:
            note(f"after the {what}, the campaign needs a person: {error}")
            continue
        if corrected:
            _commit(clone, where, corrected, name)
        if kept:
            note(f"after the {what}, {', '.join(kept)} differ from the ledger, as the merge "
                 "was settled: cwx leaves them as they are. `cwx adopt` the file if that "
                 "is the table's choice, or `cwx reconcile` to take the ledger's")


def _check_before_commit(where: str) -> None:
    """`cwx check`, said only when it finds something (a commit need not be chatty)."""
    import contextlib
    import io

    from cwx.cli.main import run

    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        status = run(["check", where])
    if status != 0:
        sys.stdout.write(said.getvalue())
        print("cwx: the commit waits until `cwx check` passes (see above)", file=sys.stderr)
        raise typer.Exit(1)


def _commit(clone: repo.Repository, where: str, corrected: list[dict[str, Any]],
            hook: str) -> None:
    """The corrections, committed on their own, so the merge itself stays as git made it."""
    root = os.path.realpath(where)
    changed = sorted({os.path.join(root, c["file"]) for c in corrected} |
                     {os.path.join(root, "journal.jsonl")})
    what = "rebase" if hook == "post-rewrite" else "merge"
    message = (f"cwx reconcile after the {what}: {len(corrected)} "
               f"key{'s' if len(corrected) != 1 else ''} brought to the ledger\n\n" +
               "\n".join(f"{c['file']} [{c['key']}] {c['from']} -> {c['to']}" for c in corrected))
    try:
        commit = gitsetup.commit_paths(clone, changed, message)
    except CwxError as error:
        note(f"reconciled {len(corrected)} keys after the {what}, but could not commit them "
             f"({error}); commit them yourself")
        return
    note(f"reconciled {len(corrected)} key{'s' if len(corrected) != 1 else ''} with the "
         f"ledger after the {what}, and committed it on its own ({commit})")
