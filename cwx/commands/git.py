"""`cwx git`: a campaign played from several clones of one repository, git the engine."""

from typing import Annotated

import typer

from cwx.campaign import gitsetup
from cwx.campaign.folder import Campaign
from cwx.cli.common import CampaignFolder, changing, group, note
from cwx.cli.output import JsonFlag, emit

app = group("git", "Play from several git clones: merges that add up.")


@app.command("setup")
def setup(
    folder: CampaignFolder = ".",
    json: JsonFlag = False,
) -> None:
    """Prepare this clone: merge driver, attributes and hooks.

    .gitattributes (journal merge=union, characters and bags merge=cwx), the same in the
    clone's .git/info/attributes (above any .gitattributes a clone pushes), the cwx merge
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
    from cwx.cli import hooks

    raise typer.Exit(hooks.merge(base, ours, theirs, path))


@app.command("hook", hidden=True)
def hook(name: str, args: Annotated[list[str] | None, typer.Argument()] = None) -> None:
    """What cwx's git hooks run: reconcile after a merge or rebase, check before a commit,
    remember the journal after one."""
    from cwx.cli import hooks

    raise typer.Exit(hooks.hook(name, args or []))
