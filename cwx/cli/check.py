"""`cwx check`: validate a campaign, its journal and its ledger (and serve as a git
pre-commit hook): exit 2 naming each problem."""

import os
from typing import Annotated, Any

import typer

from cwx import campaign, files, journal, ledger, redo, seal, sheets
from cwx.cli.output import JsonFlag, emit
from cwx.errors import CwxError
from cwx.printable import printable

app = typer.Typer(name="check", add_completion=False)

COUNTED = ("luck", "bag", "reserve")  # where W9 finds whites and blacks


@app.command("check")
def check(
    paths: Annotated[list[str] | None, typer.Argument(
        help="Folders (searched below) or files.", show_default="the current folder",
        metavar="PATH...")] = None,
    json: JsonFlag = False,
) -> None:
    """Validate every character and bag file, every journal line, what an interrupted
    command left, and, inside a campaign, every file against the ledger.

    Example: cwx check campaign/
    """
    given = paths or ["."]
    found = campaign.files_under(given)
    root = campaign.root_above(given[0] if os.path.isdir(given[0]) else
                               os.path.dirname(given[0]) or ".")
    problems: list[CwxError] = []
    valid: dict[str, str] = {}
    skipped: list[str] = []
    # Each file against the ledger of its own campaign: the nearest root wins, so a
    # campaign inside another's folder is checked against its own journal.
    def named(folder: str) -> str:  # a campaign's folder, named as the paths were given
        return folder if os.path.isabs(given[0]) else os.path.relpath(folder)

    campaigns: dict[str, str] = {os.path.realpath(root): named(root)} if root is not None else {}
    sheets_read: dict[str | None, dict[str, dict[str, Any]]] = {}
    home_of: dict[str, str | None] = {}
    for path in found.tomls:
        kind, data, said = _check_toml(path)
        problems += said
        folder = os.path.dirname(os.path.realpath(path))  # where the file really is
        if folder not in home_of:
            home = campaign.root_above(folder)
            home_of[folder] = os.path.realpath(home) if home is not None else None
            if home is not None:
                campaigns.setdefault(os.path.realpath(home), named(home))
        if kind is None:
            skipped.append(path)
            continue
        if kind not in ("settings", "unreadable"):
            sheets_read.setdefault(home_of[folder], {})[path] = data
        if not said:
            valid[path] = kind
    # Each campaign's own journal is read once, for its lines and for its ledger.
    ledgers = {os.path.realpath(journal.path_in(home)): home for home in campaigns.values()}
    others = [path for path in found.journals if os.path.realpath(path) not in ledgers]
    for path in sorted(others) + sorted(journal.path_in(home) for home in ledgers.values()):
        bad: list[CwxError] = []
        home = ledgers.get(os.path.realpath(path))
        if home is not None:
            lines = _BadLines(path)
            folded = ledger.fold_journal(path, lines.add)
            bad += lines.said()
            problems += _against_the_ledger(
                home, sheets_read.get(os.path.realpath(home), {}), folded,
                [os.path.realpath(path) for path in given],
                {os.path.realpath(e.path) for e in problems if e.path}, found.tomls)
        else:
            lines = _BadLines(path)
            for item in journal.read(path):
                if isinstance(item, journal.BadLine):
                    lines.add(item)
            bad += lines.said()
        bad += [CwxError(f"reveals a number against commitment {seal.short(commitment)}, which "
                         "no seal in the journal published: the players never had it (a "
                         "sealed file swapped?)", path=path, line=line)
                for line, commitment in seal.unpublished_reveals(path)]
        problems += bad
        if not bad and os.path.exists(path):
            valid[path] = "journal"
    for folder in found.folders:
        problems += [CwxError(text, path=path) for path, text in redo.inspect(folder)]
    problems.sort(key=lambda e: (e.path or "", e.line or 0))
    # A file with a problem is not valid, however well it reads: each file counted once.
    with_problems = {e.path for e in problems}
    valid = {path: kind for path, kind in valid.items() if path not in with_problems}
    checked = len(valid) + len(with_problems)
    result: dict[str, Any] = {
        "ok": not problems,
        "checked": checked,
        "campaign": root,
        "valid": [{"file": path, "kind": kind} for path, kind in valid.items()],
        "skipped": skipped,
        "problems": [{"file": e.path, "line": e.line, "key": e.key, "message": e.message}
                     for e in problems],
    }
    emit(json, result, lambda: _text(problems, checked, len(valid), skipped))
    if problems:
        raise typer.Exit(2)


class _BadLines:
    """A journal's bad lines, each named up to a hundred; past that, counted (a journal
    of a hundred thousand bad lines is said in a hundred and one)."""

    SHOWN = 100

    def __init__(self, path: str) -> None:
        self.path = path
        self.shown: list[CwxError] = []
        self.more = 0

    def add(self, line: journal.BadLine) -> None:
        if len(self.shown) < self.SHOWN:
            self.shown.append(CwxError(line.reason, path=self.path, line=line.line))
        else:
            self.more += 1

    def said(self) -> list[CwxError]:
        if not self.more:
            return self.shown
        return [*self.shown, CwxError(f"and {self.more} more lines that are no journal events "
                                      "of cwx's", path=self.path)]


def _arg(path: str) -> str:
    """A file as a command typed here takes it (the file as check names it, quoted)."""
    import shlex

    return shlex.quote(path)


def _check_toml(path: str) -> tuple[str | None, dict[str, Any], list[CwxError]]:
    """(its kind, or None for TOML that is not cwx's; its data; its problems)."""
    try:
        raw = files.read_bytes(path)
        data = files.parse(raw, path)
        if os.path.basename(path) == campaign.SETTINGS:
            campaign.settings(os.path.dirname(path) or ".")
            return "settings", data, []
    except CwxError as error:
        return "unreadable", {}, [error]  # named once: no ledger comparison of what is unread
    kind = sheets.kind_of(data)
    if kind is None:
        return None, data, []
    return kind, data, [problem.located(path, files.line_of(raw, problem.key))
                        for problem in sheets.problems(data, files.stem(path))]


def _against_the_ledger(root: str, read: dict[str, dict[str, Any]], folded: ledger.Ledger,
                        scopes: list[str], reported: set[str],
                        looked_paths: list[str]) -> list[CwxError]:
    """Every key whose file value differs from its ledger value, every ledger value the
    rules forbid, and W9 counted over the campaign as far as `scopes` (the real paths
    checked) reach: a file gone with its dice, or no longer counted, too. `reported`: real
    paths whose problems are said already."""
    real_root = os.path.realpath(root)
    problems: list[CwxError] = []
    in_files = in_ledger = 0
    present = set()
    unknown: list[str] = []
    for path, data in read.items():
        name = journal.name_in(real_root, path)
        if name.startswith("..") or name in present:
            continue  # outside the campaign: no ledger; or a link to a file checked already
        present.add(name)
        if name not in folded.known:
            unknown.append(path)  # said below, once it is known what is gone
            continue
        raw = files.read_bytes(path)
        values, known = ledger.values_of(data), folded.values(name)
        for difference in ledger.differences(values, known):
            line = files.line_of(raw, difference.key)
            after = ", ".join(difference.ledger.recent)
            if difference.refused is not None:
                problems.append(CwxError(
                    f"the ledger cannot settle it: {difference.refused} (after {after}). Edit "
                    "the files as the table decides, then cwx adopt them together",
                    path=path, line=line, key=difference.key))
            else:
                problems.append(CwxError(
                    f"the file says {_shown(difference.file)}, the ledger "
                    f"{_shown(difference.ledger.value)}: `cwx reconcile` if the ledger is "
                    f"right, `cwx adopt {_arg(path)}` if the file is", path=path, line=line,
                    key=difference.key))
        in_files += ledger.dice(values)
        in_ledger += ledger.dice({key: entry.value for key, entry in known.items()})
    for name in sorted(folded.known | {name for name in folded.named if name is not None}):
        try:
            campaign.named_by_journal(real_root, name)
        except CwxError:
            problems.append(CwxError(
                f"names {name}, outside the campaign: cwx never follows a journal there "
                "(a line another program or person wrote; mend or remove it)",
                path=journal.path_in(root)))
    looked = ledger.looked_at(real_root, looked_paths)
    uncounted = {name: held for name, held in
                 ledger.uncounted(folded, present, real_root, looked).items()
                 if any(campaign.inside(os.path.join(real_root, name), scope) for scope in scopes)}
    for name, held in uncounted.items():
        path = os.path.normpath(os.path.join(root, name))
        if os.path.realpath(path) in reported:
            pass  # unreadable, and said so: its dice are still counted below
        elif held < 0:
            problems.append(CwxError(
                f"the ledger took {_dice(-held)} more out of it than it held (two clones "
                f"recorded it leaving at once): `cwx adopt {_arg(path)}` sets that right",
                path=path))
        elif not os.path.lexists(path):
            problems.append(CwxError(
                f"is gone, with {_dice(held)} the ledger says it held (W9: dice are never "
                "destroyed): restore it, or put its dice where the table decides and `cwx "
                "adopt` it with the files that hold them now", path=path))
        else:
            problems.append(CwxError(
                f"is no longer a character or bag file of this campaign, but the ledger says "
                f"it holds {_dice(held)} (W9: dice are never destroyed): restore it, or move "
                "it out of the way, put its dice where the table decides and `cwx adopt` it "
                "with the files that hold them now", path=path))
        in_ledger += held
    gone = [os.path.normpath(os.path.join(root, name)) for name in uncounted
            if not os.path.lexists(os.path.join(real_root, name))]
    for path in unknown:
        # A file moved (git mv) is new to the ledger where its old name is gone: the two
        # are adopted together, so its dice are not counted twice.
        alone = f"`cwx adopt {_arg(path)}` records it as it is"
        said = (f"if it was moved from {' or '.join(gone)}, `cwx adopt {_arg(gone[0])} "
                f"{_arg(path)}` moves its history (adopting it alone would count its dice "
                f"twice); if it is new, {alone}") if gone else alone
        problems.append(CwxError(f"has no history in the ledger; {said}", path=path))
    if in_files != in_ledger:
        settle = "the files named above must be settled first" if uncounted else \
            "`cwx reconcile` brings them together"
        problems.append(CwxError(f"W9: the files hold {_dice(in_files)}, the ledger "
                                 f"{in_ledger}; {settle}", path=journal.path_in(root)))
    return problems


def _dice(count: int) -> str:
    return f"{count} white and black dice" if count != 1 else "1 die (a white or a black)"


def _shown(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value) if ledger.is_number(value) else repr(value)


def _text(problems: list[CwxError], checked: int, valid: int, skipped: list[str]) -> str:
    lines = [printable(str(error)) for error in problems]  # a file's name or key, shown
    if not checked and not skipped:
        lines.append("No character, bag or journal files found.")
    else:
        summary = (f"Checked {checked} file{'s' if checked != 1 else ''}: {valid} valid, "
                   f"{len(problems)} problem{'s' if len(problems) != 1 else ''}.")
        if skipped:
            summary += (f" {len(skipped)} other TOML file{'s' if len(skipped) != 1 else ''} "
                        "skipped (not cwx's).")
        lines.append(summary)
    return "\n".join(lines)
