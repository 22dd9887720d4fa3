"""`cwx init`: a new campaign folder, ready for git."""

import os
from typing import TYPE_CHECKING, Annotated

import typer

from cwx.cli.common import DryRun, command, dry, here
from cwx.cli.output import JsonFlag, dry_json, emit

if TYPE_CHECKING:
    from cwx.campaign.results import Initialised

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
    from cwx.cli import scene
    from cwx.git import repo

    # Never set up git from a scene, whose files may come from a clone of anyone's, inside
    # a repository of yours: a person runs git setup.
    started = here().start(folder, force=force, dry_run=dry_run, git_setup=not scene.playing())
    result: Initialised = {**started, **dry_json(dry_run)}
    in_git = repo.of(folder) is not None and os.path.isdir(folder)
    emit(json, result, lambda: dry(_text(folder, result["created"], result["kept"],
                                         in_git=in_git, set_up=result["git"] is not None),
                                   dry_run))


def _text(folder: str, created: list[str], kept: list[str], *, in_git: bool,
          set_up: bool) -> str:
    lines = [f"A new campaign in {folder}:"]
    lines += [f"  created {name}" for name in created]
    lines += [f"  kept    {name} (already there)" for name in kept]
    go = "" if os.path.abspath(folder) == os.path.abspath(".") else f"cd {folder} && "
    if set_up:
        lines.append("  set up this clone of the repository for play from several clones "
                     "(cwx git setup: merge driver, hooks)")
        lines.append(f"Next: {go}cwx char new hero.toml --system …")
    elif in_git:  # from a scene, which sets up no git
        lines.append(f"Next: {go}cwx git setup (in a shell: a scene sets up no git) && "
                     "cwx char new hero.toml --system …")
    else:
        lines.append(f"Next: {go}git init && cwx git setup && cwx char new hero.toml "
                     "--system …")
    return "\n".join(lines)
