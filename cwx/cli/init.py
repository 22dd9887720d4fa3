"""`cwx init`: a new campaign folder, ready for git."""

import contextlib
import json as json_module
import os
from typing import Annotated, Any

import typer

from cwx import campaign, repo, templates
from cwx.cli.common import changing
from cwx.cli.output import JsonFlag, emit
from cwx.colorwheel import Bag, Luck
from cwx.errors import BadFile
from cwx.schemas import SCHEMAS
from cwx.sheets import BagSheet, data_of

app = typer.Typer(name="init", add_completion=False)


@app.command("init")
def init(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="The campaign folder (made if missing).",
                                          show_default=False)],
    force: Annotated[bool, typer.Option(
        "--force", help="Use a folder that is not empty; files already there are kept.")] = False,
    json: JsonFlag = False,
) -> None:
    """Start a campaign folder: a bag, a README for the table, a Makefile for scenes,
    git settings that merge journals, and schemas for editors.

    Example: cwx init my-campaign
    """
    existing = [n for n in os.listdir(folder) if n != ".git"] if os.path.isdir(folder) else []
    if existing and not force:
        raise BadFile("is not empty; pass --force to add a campaign to it (files already "
                      "there are kept)", path=folder)
    if os.path.lexists(folder) and not os.path.isdir(folder):
        raise BadFile("is a file, not a folder; name a new folder for the campaign",
                      path=folder)
    above = os.path.dirname(os.path.abspath(folder))
    while not os.path.lexists(above):
        above = os.path.dirname(above)
    if not os.path.isdir(above):
        raise BadFile(f"cannot be made: {above} is a file, not a folder", path=folder)
    bag = BagSheet(Bag(), Luck(10, 10))
    wanted = {
        campaign.SETTINGS: templates.settings_file(os.path.basename(os.path.abspath(folder))),
        "bag.toml": templates.bag_file(bag, "./bag.schema.json"),
        "README.md": templates.table_readme(os.path.basename(os.path.abspath(folder))),
        "Makefile": templates.MAKEFILE,
        ".gitattributes": templates.GITATTRIBUTES,
        ".gitignore": templates.GITIGNORE,
        **{f"{kind}.schema.json": json_module.dumps(build(), indent=2) + "\n"
           for kind, build in SCHEMAS.items()},
    }
    made = not os.path.isdir(folder)
    if made:
        try:
            os.makedirs(folder)
        except OSError as error:
            raise BadFile(f"cannot be made ({error.strerror})", path=folder) from None
    paths = {name: os.path.join(folder, name) for name in wanted}
    try:
        with changing("init", list(paths.values()), journal_for=None,
                      new_root=folder) as change:
            # Decided under the lock, after any interrupted init here was finished.
            kept = sorted(n for n, p in paths.items() if os.path.lexists(p))
            created = sorted(set(wanted) - set(kept))
            for name in created:
                change.create(paths[name], wanted[name], force=False,
                              meant=data_of(bag) if name == "bag.toml" else None)
            result: dict[str, Any] = {"folder": folder, "created": created, "kept": kept}
            change.record(result)
    except BaseException:
        if made:
            with contextlib.suppress(OSError):
                os.rmdir(folder)
        raise
    if repo.of(folder) is not None:  # inside a git work tree: ready for several clones
        from cwx.cli.git import prepare

        result["git"] = prepare(folder)
    emit(json, result, lambda: _text(folder, created, kept, in_git="git" in result))


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
