"""`cwx reconcile`: bring every file of the campaign to its ledger value."""

from typing import TYPE_CHECKING

from cwx.base.ink import plural
from cwx.base.printable import printable
from cwx.campaign import accounts
from cwx.cli.common import CampaignFolder, DryRun, command, dry, here
from cwx.cli.output import JsonFlag, dry_json, emit
from cwx.cli.views import value_text

if TYPE_CHECKING:
    from cwx.campaign.results import Reconciled

app = command("reconcile")


@app.command("reconcile")
def reconcile(
    folder: CampaignFolder = ".",
    dry_run: DryRun = False,
    json: JsonFlag = False,
) -> None:
    """Set every file to its ledger value.

    Every key that differs from the ledger is set, as one change the ledger does not count
    (after a git merge, say). Nothing to do changes nothing; while the journal holds a
    line the rules do not give (cwx check names it), nothing is set: undo that line first.

    Example: cwx reconcile
    """
    corrected = here(folder).reconcile(dry_run=dry_run)
    result: Reconciled = {"corrected": [c.as_json() for c in corrected], **dry_json(dry_run)}
    emit(json, result,
         lambda: dry(text(corrected), dry_run))


def text(corrected: list[accounts.Corrected]) -> str:
    if not corrected:
        return "Nothing to reconcile: every file agrees with the ledger."
    lines = [f"Reconciled {plural(len(corrected), 'key')} with the ledger:"]
    lines += [f"  {c.file} [{c.key}] {value_text(c.before)} → {value_text(c.after)}"
              for c in corrected]
    return "\n".join(map(printable, lines))  # names from files: shown, never obeyed
