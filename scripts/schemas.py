"""JSON Schemas of every command's --json, made from the types of their results: `make
schemas` writes docs/json/<command words>.schema.json from the TypedDicts the commands
build (cwx/base/shapes.py says how a type becomes a schema), so what scripts are promised and
what cwx prints never drift (tests/test_json_schemas.py fails when a file there differs
from what this makes, and holds every command's real output to its schema).

    python scripts/schemas.py [FOLDER]     # default: docs/json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

ROOT = Path(__file__).resolve().parent.parent


def results() -> dict[str, Any]:
    """Each command's result type, by the command's words joined with "-"."""
    from cwx.base.shapes import Shape
    from cwx.campaign import results as cwx
    from cwx.commands import _results as commands
    from cwx.journal import results as journal
    from cwx.systems import results as systems

    return {
        "adopt": cwx.Adopted,
        "audit": cwx.Audited,
        "check": cwx.Checked,
        "clock-pick": Annotated[cwx.Picked | cwx.Sealed, Shape(
            description="One shape for both: the number picked and a null commitment, or, "
                        "with --seal, a null target (the number stays secret) and the "
                        "commitment.")],
        "clock-resolve": Annotated[cwx.Resolved | cwx.Pending, Shape(
            description="A resolved guess, or in a clone without the seal a pending guess.")],
        "clock-reveal": cwx.Revealed,
        "clock-verify": Annotated[cwx.VerifiedAll | cwx.Verified, Shape(
            description="Every reveal in the journal checked, or (with --commitment, "
                        "--target and --nonce) one number; exit 1 when one does not match.")],
        "git-setup": cwx.GitSetup,
        "init": cwx.Initialised,
        "log": journal.Log,
        "odds-clock": commands.ClockChances | commands.ClockChancesAll,
        "odds-wheel": commands.WheelChances | commands.WheelChancesAll,
        "party": commands.Party,
        "recap": cwx.Recapped,
        "reconcile": cwx.Reconciled,
        "retire": cwx.Retirement,
        "sync": cwx.SyncSteps,
        "undo": cwx.Undone,
        "xp-history": journal.XpHistory,
        "bag-draw": systems.Drawn,
        "bag-new": systems.BagShown,
        "bag-show": systems.BagShown,
        "char-new": Annotated[systems.Made, Shape(
            description="The character made (its sheet, as char show gives it; ClockWorx "
                        "adds the creation points unspent); with --dry-run, dry_run: true.")],
        "char-show": Annotated[systems.Sheet, Shape(
            description="A character's sheet; its keys depend on its system.")],
        "game-end": systems.GameEnded,
        "luck-curse": systems.Turned,
        "luck-spend": systems.Turned,
        "wheel-buy": systems.Traded,
        "xp-spend": systems.Advancement,
    }


def schemas() -> dict[str, dict[str, Any]]:
    """Every command's schema, by the name of its file (without .schema.json)."""
    from cwx.base.shapes import document

    return {name: document(kind, f"cwx {name.replace('-', ' ')} --json")
            for name, kind in results().items()}


def text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas().items():
        (folder / f"{name}.schema.json").write_text(text(schema))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "json")
