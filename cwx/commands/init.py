"""`cwx init`: a new campaign folder, ready for git."""

import os
from typing import Annotated

import typer

from cwx.campaign import accounts, gitsetup
from cwx.campaign.folder import Campaign
from cwx.cli.common import DryRun, command, dry, note, opener
from cwx.cli.output import JsonFlag, emit
from cwx.git import repo

app = command("init")


@app.command("init")
def init(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="The campaign folder (made if missing).",
                                          show_default=False)],
    force: Annotated[bool, typer.Option(
        "--force", help="Use a folder that is not empty; files already there are kept.")] = False,
    dry_run: DryRun = False,
    json: JsonFlag = False,
) -> None:
    """Start a campaign folder.

    A bag, a README for the table, a Makefile for scenes, git settings that merge journals,
    and schemas for editors.

    Example: cwx init my-campaign
    """
    result = accounts.start(opener(dry_run), folder, force=force, dry_run=dry_run)
    result["git"] = None  # outside git: one shape in both places, for scripts
    if repo.of(folder) is not None and os.path.isdir(folder):  # in git: ready for clones
        # A dry run made no campaign.toml: the folder is the campaign it would be.
        camp = Campaign(folder, folder) if dry_run else Campaign.around(folder)
        result["git"] = gitsetup.setup(opener(dry_run), camp, note, dry_run=dry_run).as_json()
    if dry_run:
        result["dry_run"] = True
    emit(json, result, lambda: dry(_text(folder, result["created"], result["kept"],
                                         in_git=result["git"] is not None), dry_run))


def _text(folder: str, created: list[str], kept: list[str], *, in_git: bool) -> str:
    lines = [f"A new campaign in {folder}:"]
    lines += [f"  created {name}" for name in created]
    lines += [f"  kept    {name} (already there)" for name in kept]
    go = "" if os.path.abspath(folder) == os.path.abspath(".") else f"cd {folder} && "
    if in_git:
        lines.append("  set up this clone of the repository for play from several clones "
                     "(cwx git setup: merge driver, hooks)")
        lines.append(f"Next: {go}cwx char new hero.toml --system …")
    else:
        lines.append(f"Next: {go}git init && cwx git setup && cwx char new hero.toml "
                     "--system …")
    return "\n".join(lines)
