"""What commands share that needs no parser: telling the player beside the result, and
opening the files one command changes. A git hook runs on every commit and pull, and
uses these without loading Typer (cli/hooks.py)."""

import sys
from collections.abc import Sequence

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from cwx.campaign.files import Change
    from cwx.campaign.folder import Campaign


def waiting(folder: str) -> None:
    """Said once a command waits for another's lock, where a person watches."""
    if sys.stderr.isatty():
        print(f"cwx: waiting for another cwx command in {folder} ...", file=sys.stderr)


def note(text: str) -> None:
    """Tell the player something on stderr, beside the result (never inside --json)."""
    from cwx.base.printable import noted  # a name from a file is shown, never obeyed

    print(noted(text), file=sys.stderr)


def changing(command: str, paths: list[str], camp: "Campaign", *,
             journaled: bool = True, private: Sequence[str] = (),
             dry_run: bool = False) -> "Change":
    """The files one command changes, under their locks, journaled in the campaign's
    journal (not `journaled`: files that are not the game's, such as git's; `private`:
    cwx's own files kept outside the campaign, such as the sealed number; `dry_run`:
    everything computed and checked, nothing written)."""
    from cwx.campaign.files import Change

    return Change(command, paths, camp, journaled=journaled, waiting=waiting, note=note,
                  private=private, dry_run=dry_run)
