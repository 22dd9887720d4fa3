"""A clone of a campaign's repository, made ready for play from several clones: the git
attributes, the `cwx` merge driver, and the hooks that reconcile after git brought in
other players' changes. Every git call goes through repo.py, to the clone's own
repository; cwx never reads .git."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from cwx.base.errors import BadFile, CwxError
from cwx.base.record import Record
from cwx.git import repo
from cwx.git.repo import Repository, git, git_folder, inside, run, z_list

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
# The campaign's files (and the TOML reading they bring) and its git attributes are
# imported where a hook needs them: a commit starts one cwx for each hook, and most find
# nothing to settle (tests/test_startup.py fences what each hook loads).
if TYPE_CHECKING:
    from typing import Any

    from cwx.campaign.folder import Campaign
    from cwx.campaign.results import GitSetup

HOOK_MARK = "# cwx git hook"  # a hook without this line is not cwx's, and never touched
HOOKS = {
    "post-merge": "after a merge or pull, reconcile the campaign with its ledger",
    "post-rewrite": "after a rebase (git pull --rebase), reconcile the campaign with its ledger",
    "pre-commit": "check the campaign, so a merge finished by hand is caught",
    "post-commit": "remember the journal just committed as proven, so a rewrite of it is named",
    "post-checkout": "after a rebase that makes no commit anew (git pull --rebase onto a "
                     "history made anew), reconcile the campaign with its ledger",
}
# Set on the git commit and pull `cwx sync` runs itself (sync.py), which then does the
# work of cwx's hooks in its own process, once, where git would start a cwx for each hook:
# cwx's hooks (only cwx's: a player's own run as ever) step aside, their first line says,
# before any Python starts. Safe to obey: only the player's own cwx sets it, in the
# environment of the git it starts; nothing a clone pushes or a repository holds sets a
# variable of the player's. One who sets it by hand skips cwx's hooks, as `git commit
# --no-verify` skips a pre-commit hook: theirs to do on their own machine.
ASIDE = "_CWX_HOOKS_ASIDE"
_ASIDE_LINE = f'[ "${ASIDE}" = 1 ] && exit 0'
# Python code the hooks run: cwx from the folder it is installed in (its own site, which
# `-I` leaves out when it is the user's), after the interpreter's own, with nothing of
# the work tree on the path.
_BOOT = "import sys; sys.path.append(sys.argv.pop(1)); from cwx.cli.main import main; main()"
# Whether that interpreter and cwx are still there, asked of the shell: a Python started
# only to ask would cost every commit and pull a fifth of a hook's time. (A link to an
# interpreter removed since, as a venv's is, is not -x.)
_FOUND = '[ -x "$python" ] && [ -f "$site/cwx/__init__.py" ]'


def _runner(args: str, missing: str) -> list[str]:
    """Shell statements running the installed cwx with `args`, never the work tree's
    code: this interpreter isolated with cwx's own folder, else an absolute `cwx` on PATH,
    else `missing`. Nothing a repository names is ever inside double quotes."""
    import shlex

    import cwx

    python = shlex.quote(sys.executable)
    site = shlex.quote(os.path.dirname(os.path.dirname(os.path.abspath(cwx.__file__))))
    return [f"python={python}; site={site}",
            f"if {_FOUND}; then "
            f"exec \"$python\" -I -c '{_BOOT}' \"$site\" {args}; fi",
            "found=$(command -v cwx 2>/dev/null) || found=",
            "case $found in /*) exec env -u PYTHONPATH -u PYTHONHOME -u PYTHONSTARTUP "
            f"PYTHONSAFEPATH=1 \"$found\" {args};; esac",
            missing]


def hook_text(name: str) -> str:
    # A pre-commit hook that cannot run cwx stops the commit (as pre-commit's own hooks
    # do); one after a merge cannot undo it, and says what to do.
    status = 1 if name == "pre-commit" else 0
    missing = (f'echo "cwx: the {name} hook found no cwx on this machine (reinstalled, or '
               f'moved?); install it and run cwx git setup again" >&2; exit {status}')
    lines = "\n".join(_runner(f'git hook {name} "$@"', missing))
    if name == "post-checkout":
        # Every checkout runs it; only one a rebase made (its third argument 1, git's
        # rebase folder there) is cwx's, asked of the shell before a Python starts.
        lines = ('[ "$3" = 1 ] && [ -d "$(git rev-parse --git-path rebase-merge)" ] || '
                 f"exit 0\n{lines}")
    return f"""#!/bin/sh
{HOOK_MARK}: {HOOKS[name]}.
# Written by `cwx git setup`; run it again to refresh this file. cwx never changes a
# hook without the line above. Where cwx sync runs git itself, it does this hook's work
# in its own process, and sets {ASIDE}.
{_ASIDE_LINE}
{lines}
"""


def driver_command() -> str:
    """The merge driver's command line, as git runs it through the shell (%O %A %B %P
    are the files). With no cwx to be found, git's own text merge, so a clash still
    ends with conflict markers, and a word saying what repairs it."""
    missing = ("printf 'cwx: the merge driver found no cwx on this machine, so git merged %s "
               "as text; install cwx and run cwx git setup again\\n' %P >&2; "
               "git merge-file -L ours -L base -L theirs %A %O %B")
    # `--`: a file git names may begin with a dash (-zed.toml), and is never an option.
    return "; ".join(_runner("git merge -- %O %A %B %P", missing))


def attributes_text(old: str) -> str:
    """The .gitattributes text with cwx's lines added (the player's own lines kept)."""
    from cwx.systems.templates import ATTRIBUTES, ATTRIBUTES_HEAD

    lines = old.splitlines()
    missing = [line for line in ATTRIBUTES if line not in (x.strip() for x in lines)]
    if not missing:
        return old
    head = [] if ATTRIBUTES_HEAD in lines else [ATTRIBUTES_HEAD]
    body = old if not old or old.endswith("\n") else old + "\n"
    return body + "\n".join([*head, *missing]) + "\n"


def shared_hooks(repo: Repository) -> bool:
    """Whether the clone takes its hooks from core.hooksPath (perhaps shared)."""
    try:
        return bool(git(repo, "config", "core.hooksPath"))
    except BadFile:
        return False


def hooks_folder(repo: Repository, *, shared: bool = True) -> str:
    """Where this clone's hooks go; never a folder a commit can reach. `shared`: False
    where core.hooksPath is known unset (shared_hooks), so no git is asked where `.git`
    is the clone's own folder: its hooks are in it."""
    if not shared and os.path.isdir(repo.git_dir) and not os.path.islink(repo.git_dir):
        where = os.path.join(repo.git_dir, "hooks")
    else:  # a linked work tree's hooks are in the repository's common folder
        where = os.path.join(repo.top, git(repo, "rev-parse", "--git-path", "hooks"))
    path = os.path.realpath(where)
    if inside(repo, path):
        raise BadFile(f"the clone's hooks folder {path} is in its work tree, where a commit "
                      "can reach it; cwx writes no hook there", path=repo.top)
    return path


def is_ours(path: str) -> bool:
    return hook_kind(path) is not None


def hook_kind(path: str) -> str | None:
    """Whose hook `path` is: "aside" (cwx's, stepping aside where sync does its work:
    ASIDE), "ours" (cwx's, written by a cwx before it did), None (not cwx's)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            head = file.read(4096)
    except OSError:
        return None
    if HOOK_MARK not in head:
        return None
    return "aside" if f"\n{_ASIDE_LINE}\n" in head else "ours"


def configure(repo: Repository, campaign: str) -> None:
    """The merge driver, the campaign on the hooks' list (both in this clone's own
    config, which `git config` writes through the repository cwx found), and cwx's
    attributes for it above every .gitattributes (attributes.py)."""
    from cwx.git import attributes

    attributes.install(repo, campaign)
    git(repo, "config", "merge.cwx.name", "cwx: characters and bags add up, as the ledger does")
    git(repo, "config", "merge.cwx.driver", driver_command())
    if campaign not in campaigns(repo):
        git(repo, "config", "--add", "cwx.campaign", campaign)


def campaigns(repo: Repository) -> list[str]:
    """The campaigns (paths from the work tree's top) the hooks look after."""
    try:
        listed = git(repo, "config", "--get-all", "cwx.campaign")
    except BadFile:
        return []
    return [line for line in listed.splitlines() if line]


def commit_paths(repo: Repository, paths: list[str], message: str,
                 sign: tuple[str, ...] = ()) -> str:
    """Commit these paths as they are, on their own, on top of HEAD: from a scratch
    index, as git refuses a commit of some paths while a merge's state is still held;
    signed with `sign` (git's -c options for SSH signing, signing.py)."""
    scratch = os.path.join(git(repo, "rev-parse", "--absolute-git-dir"), "cwx-index")
    alone = {"GIT_INDEX_FILE": scratch}
    # Each path as itself: a file a journal names "*.toml" is one file, never a pattern.
    paths = [f":(literal){os.path.relpath(os.path.realpath(path), repo.top)}" for path in paths]
    try:
        git(repo, "read-tree", "HEAD", env=alone)
        git(repo, "add", "--", *paths, env=alone)
        tree = git(repo, "write-tree", env=alone)
    finally:
        if os.path.exists(scratch):
            os.unlink(scratch)
    commit = git(repo, *sign, "commit-tree", tree, *(["-S"] if sign else []), "-p", "HEAD",
                 "-m", message)
    git(repo, "update-ref", "-m", "cwx reconcile", "HEAD", commit)
    git(repo, "add", "--", *paths)
    return commit[:12]


# What cwx leaves only on the machine it ran on (templates.GITIGNORE): git never carries
# them, unless someone added them past .gitignore.
NEVER_COMMITTED = (".cwx-sealed.json", ".*.cwx-tmp", ".cwx-redo-*.json")


def never_committed(path: str) -> bool:
    """Whether `path` names a file cwx keeps on its own machine only."""
    import fnmatch

    return any(fnmatch.fnmatchcase(os.path.basename(path), name) for name in NEVER_COMMITTED)


def tracked_litter(repo: Repository, folder: str) -> list[str]:
    """Files git tracks in the campaign `folder` that cwx never commits: a redo record, a
    temporary file or a sealed number another clone pushed on purpose."""
    # The folder as it is named (a campaign may be called "camp[1]"), the names matched here.
    listed = git(repo, "ls-files", "-z", "--", f":(literal){folder or '.'}", strip=False)
    return [path for path in z_list(listed) if never_committed(path)]


def staged_litter(repo: Repository) -> list[str]:
    """Files staged for the next commit that cwx never commits (a sealed number, whatever
    .gitignore says), anywhere in the clone."""
    staged = git(repo, "diff", "--cached", "--name-only", "-z", "--diff-filter=d", strip=False)
    return [path for path in z_list(staged) if never_committed(path)]


def stashed(repo: Repository) -> bool:
    """Whether git holds the work tree's edits aside to put back after this merge or
    rebase (--autostash): they are edits not yet committed too."""
    # A rebase's state is the work tree's own git folder's, as repo.rebasing reads it.
    folder = git_folder(repo)
    if any(os.path.exists(os.path.join(folder, where, "autostash"))
           for where in ("rebase-merge", "rebase-apply")):
        return True
    return run(repo, "rev-parse", "-q", "--verify", "MERGE_AUTOSTASH").returncode == 0


def uncommitted(repo: Repository, folder: str) -> list[str]:
    """The campaign's files with changes not committed (the journal and TOML files)."""
    # -z: paths as they are (no quoting of other letters), each entry "XY path", a rename
    # followed by the path it came from.
    entries = iter(git(repo, "status", "--porcelain", "-z", "--untracked-files=no", "--",
                       folder or ".", strip=False).split("\0"))
    found = []
    for entry in entries:
        if len(entry) < 4:
            continue
        if entry[0] in "RC":
            next(entries, None)
        if entry[3:].endswith((".toml", "journal.jsonl")):
            found.append(entry[3:])
    return found


# ---------------------------------------------------------------- cwx git setup

Say = Callable[[str], None]


class Setup(Record):
    """What `cwx git setup` did."""

    campaign: str
    written: list[str]
    kept: list[str]  # hooks that are not cwx's, left alone

    def as_json(self) -> GitSetup:
        return {"campaign": self.campaign, "written": self.written, "kept": self.kept,
                "driver": "merge.cwx"}


def setup(open_: Callable[..., Any], camp: Campaign, say: Say, *,
          dry_run: bool = False) -> Setup:
    """Prepare this clone for the campaign: .gitattributes, the merge driver, the hooks
    (a hook that is not cwx's, or a shared hooks folder, is left alone, and `say`s so).
    `dry_run`: what would be written, and nothing written (open_ writes nothing then)."""
    from cwx.git import attributes

    root = camp.needed()
    clone = repo.of(root)
    if clone is None:
        raise BadFile("is not inside a git work tree; git init (or git clone) first",
                      path=root)
    # core.hooksPath: a folder other repositories may share; cwx installs nothing there.
    shared = shared_hooks(clone)
    hooks = hooks_folder(clone, shared=shared)
    if not shared and not dry_run:
        os.makedirs(hooks, exist_ok=True)
    tracked_attributes = os.path.join(root, ".gitattributes")
    ours = {} if shared else {name: os.path.join(hooks, name) for name in HOOKS}
    kept = [name for name, hook in ours.items()  # a link, or the player's own: theirs
            if os.path.islink(hook) or (os.path.lexists(hook) and not is_ours(hook))]
    for name in kept:
        del ours[name]
    written = _write(open_, camp, tracked_attributes, ours if os.path.isdir(hooks) else {}) \
        if dry_run else _write(open_, camp, tracked_attributes, ours)
    if dry_run:
        written += [f"hooks/{name}" for name in ours if not os.path.isdir(hooks)]
        return Setup(root, written, kept)

    folder = os.path.relpath(os.path.realpath(root), clone.top)
    # Files git wrote otherwise than it commits them (ident, another encoding, CRLF): as
    # git would commit them now, written once cwx's attributes decide.
    stale = _as_committed(clone, folder)
    configure(clone, folder)
    if stale:
        with open_("git setup", list(stale), camp, journaled=False) as change:
            for path, text in stale.items():
                change.create(path, text, force=True)
        attributes.restat(clone, [os.path.relpath(path, clone.top) for path in stale])
        written += [os.path.relpath(path, os.path.realpath(root)) for path in stale]
    for name in kept:
        say(f"{os.path.join(hooks, name)} is not cwx's, so cwx left it alone; have it run "
            f"`cwx git hook {name}` to reconcile (or check) this campaign")
    if shared:
        say(f"hooks come from {hooks} (core.hooksPath), which other repositories may share, "
            "so cwx installed none there: have its post-merge, post-rewrite, post-checkout, "
            "pre-commit and post-commit hooks run `cwx git hook NAME \"$@\"`")
    return Setup(root, written, kept)


def _as_committed(clone: Repository, folder: str) -> dict[str, str]:
    """The campaign's files git writes otherwise than it commits them, as git would commit
    them (their real paths); one that is not UTF-8 there is left for `cwx check` to name."""
    from cwx.git import attributes

    # The journal always: its line endings are cwx's now (eol=lf), whatever they were.
    changing = sorted({found.path for found in attributes.against(clone, folder)
                       if found.attribute in attributes.REWRITING} |
                      {os.path.join(folder, attributes.JOURNAL) if folder not in ("", ".")
                       else attributes.JOURNAL})
    found = {}
    for path, committed in attributes.as_committed(clone, changing).items():
        try:
            found[os.path.join(clone.top, path)] = committed.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return found


def _write(open_: Callable[..., Any], camp: Campaign, attributes: str,
           hooks: dict[str, str]) -> list[str]:
    """The attributes and hooks, written where they differ (files that are not the game's:
    not journaled)."""
    written: list[str] = []
    with open_("git setup", [attributes, *hooks.values()], camp, journaled=False) as change:
        old = (change.raw(attributes) or b"").decode("utf-8", "replace")
        if (new := attributes_text(old)) != old:
            change.create(attributes, new, force=True)
            written.append(".gitattributes")
        for name, hook in hooks.items():
            text = hook_text(name)
            if change.raw(hook) != text.encode():
                change.create(hook, text, force=True, mode=0o755)
                written.append(f"hooks/{name}")
    return written


# ---------------------------------------------------------------- after git brought changes


def settle_after(open_: Callable[..., Any], clone: Repository, hook: str,
                 say: Say) -> list[str]:
    """After a merge or rebase, each campaign of the clone reconciled with its ledger and
    the correction committed on its own; what a person must settle is said, never done.
    The campaigns settled (from the clone's top)."""
    what = "rebase" if hook in ("post-rewrite", "post-checkout") else "merge"
    # Where HEAD was before: git sets ORIG_HEAD at the start of every merge and rebase.
    before = run(clone, "rev-parse", "--verify", "--quiet", "ORIG_HEAD^{commit}")
    live = live_campaigns(clone, say)
    for folder in live:
        settle_campaign(open_, clone, folder, what, say,
                        before.stdout.decode().strip() if before.returncode == 0 else None)
    return live


def remember_commit(clone: Repository, say: Say) -> None:
    """After a commit (even one past the pre-commit hook: --no-verify skips that, not this),
    each campaign's journal kept as proven, so a later rewrite of this commit is named
    however it arrives; a rewrite the commit itself holds is said."""
    from cwx.git import grows

    if repo.rebasing(clone):
        return  # a rebase's commits: the post-rewrite hook proves where it ends
    for campaign in live_campaigns(clone, say):
        if found := grows.committed(clone, campaign):
            from cwx.base.printable import printable

            say(printable(f"{found.said()}: {grows.RULE}. `cwx check` names it, with the "
                          "next step"))


def settle_campaign(open_: Callable[..., Any], clone: Repository, folder: str, what: str,
                    say: Say, before: str | None = None) -> None:
    """One campaign (`folder`, from the clone's top) settled after a merge or rebase, as
    the hooks do (`cwx sync` does it itself in a clone without them); nothing is, when
    what git brought since `before` rewrote the journal (grows.py)."""
    from cwx.campaign import accounts
    from cwx.campaign.folder import Campaign
    from cwx.git import attributes

    where = os.path.join(clone.top, folder)
    if refused := refusal(clone, folder, before, what):
        say(refused)
        return

    if against := attributes.findings(clone, folder):  # git's merge was not cwx's
        named = "the campaign" if folder in ("", ".") else folder
        at = os.path.relpath(against[0].path or where, where) + \
            (f":{against[0].line}" if against[0].line else "")
        say(f"after the {what}, cwx did not reconcile {named}: {at}: {against[0].message}")
        return
    if waiting := _not_now(clone, folder):
        say(f"after the {what}, cwx did not reconcile {folder or 'the campaign'}: {waiting}")
        return
    kept: list[str] = []
    try:
        corrected = accounts.reconcile(open_, Campaign.around(where), numbers_only=True,
                                       kept=kept)
    except CwxError as error:
        say(f"after the {what}, the campaign needs a person: {error}")
        return
    if corrected:
        say(_commit(clone, where, corrected, what))
    if kept:
        say(f"after the {what}, {', '.join(kept)} differ from the ledger, as the merge "
            "was settled: cwx leaves them as they are. `cwx adopt` the file if that "
            "is the table's choice, or `cwx reconcile` to take the ledger's")


def refusal(clone: Repository, folder: str, before: str | None, what: str) -> str | None:
    """Why the campaign at `folder` (from the clone's top) is not settled after a merge,
    pull or rebase that moved HEAD from `before`: it brought a rewrite of the journal
    (grows.py), lost a guess this clone made (guesses.py), or, where players' keys are
    listed, a line not signed by its player's key (keyring.py). Where it is refused, the
    journal this clone had proven stays the one it proves, so the step back is clean."""
    from cwx.campaign import guesses
    from cwx.git import grows, keyring, seen

    path = os.path.join(folder, "journal.jsonl") if folder not in ("", ".") else "journal.jsonl"
    had = seen.recalled(clone, path)
    refused = grows.refusal(clone, folder, before, what) or \
        guesses.refusal(os.path.join(clone.top, folder), what, before) or \
        keyring.refusal(clone, folder, before, what)
    if refused and had is not None and seen.recalled(clone, path) != had:
        seen.remember(clone, path, had)
    return refused


def journal_beside(path: str, base: str = ".") -> str:
    """The journal of the campaign a file (named from `base`) is in, named from `base` as a
    shell command takes it: an adopt writes there, so advice to `git add` names it too."""
    from cwx.base.hints import typed
    from cwx.base.places import root_above
    from cwx.journal.lines import NAME

    folder = os.path.join(base, os.path.dirname(path))
    root = root_above(folder) or folder
    return typed(os.path.relpath(os.path.join(root, NAME), base))


def next_step(path: str, clashes: list[str], *, marked: bool = True) -> str:
    """What a person does about a file the merge driver could not settle."""
    from cwx.base.hints import typed

    quoted, journal = typed(path), journal_beside(path)
    clone = repo.of(".")
    rebasing = clone is not None and repo.rebasing(clone)
    # In a rebase, git's "ours" is the side rebased onto (theirs, to the player). No
    # `git rebase --skip`: a turn committed and taken out with git is named (grows.py).
    finish = "`git rebase --continue`" if rebasing else "commit"
    sides = " (in a rebase, --ours is the other clone's side, --theirs yours)" if rebasing \
        else ""
    if any(clash.startswith("was made alike on both sides") for clash in clashes):
        return (f"keep either side (`git checkout --ours {quoted}`{sides}), then `git add "
                f"{quoted}`, `cwx reconcile` (the ledger counts both sides' play), `git add` "
                f"what it changed with {journal} and {finish}")
    if any(clash.startswith("was made on both sides") for clash in clashes):
        return (f"keep one side (`git checkout --ours {quoted}` or `--theirs`{sides}), save "
                f"the other under a new name and `cwx adopt` it (or `cwx retire` it), then "
                f"`cwx adopt {quoted}`, `git add {quoted} {journal}` and the new file, and "
                f"{finish}")
    where = "both sides' values are marked in it" if marked else "it holds the merge"
    if any("both sides spent it" in clash for clash in clashes):
        # A die spent on both sides went somewhere twice (a reserve, a bag): that file
        # differs from the ledger too, and the two are adopted together (W9).
        return (f"edit {quoted} to what the table decides ({where}); if it is a die, edit "
                "the file it went to as well (`cwx check` names it), then `cwx adopt` both "
                f"together, `git add` them with {journal} and {finish}")
    return (f"edit {quoted} to what the table decides ({where}), then "
            f"`cwx adopt {quoted}`, `git add {quoted} {journal}` and {finish}")


def live_campaigns(clone: Repository, say: Say) -> list[str]:
    """The campaigns on the hooks' list that are still campaigns (the others said)."""
    from cwx.base.places import SETTINGS  # not the Campaign: a post-commit hook needs none

    found = []
    for folder in campaigns(clone):
        if os.path.isfile(os.path.join(clone.top, folder, SETTINGS)):
            found.append(folder)
        else:
            say(f"{folder or '.'} is no campaign now (no {SETTINGS}), so the hooks pass it "
                f"by; `git config --unset cwx.campaign '^{folder}$'` forgets it")
    return found


def _not_now(clone: Repository, folder: str) -> str | None:
    """Why the campaign is not reconciled after this merge: files cwx never commits that
    git brought (another clone's record is not this one's change), or a player's edits
    not yet committed (never reconciled away)."""
    litter = tracked_litter(clone, folder)
    if litter:
        return (f"git brought {', '.join(litter)}, which cwx never commits. Look at them, "
                "`git rm` them and commit; cwx does not finish or trust them")
    dirty = uncommitted(clone, folder) or \
        (["the edits git set aside (--autostash)"] if stashed(clone) else [])
    if dirty:
        return (f"{', '.join(dirty)} had changes not yet committed. Commit them (or `cwx "
                "adopt` them), then `cwx reconcile` if `cwx check` asks for it")
    return None


def _commit(clone: Repository, where: str, corrected: list[Any], what: str) -> str:
    """The corrections, committed on their own, so the merge itself stays as git made it;
    what each took back, who wrote it, and how to keep it instead."""
    from cwx.base.ink import plural
    from cwx.base.printable import printable

    root = os.path.realpath(where)
    changed = sorted({os.path.join(root, c.file) for c in corrected} |
                     {os.path.join(root, "journal.jsonl")})
    keys = plural(len(corrected), "key")
    lines = [f"{c.file} [{c.key}] {c.before} -> {c.after}" for c in corrected]
    made = {(c.file, c.key): _last_commit(clone, root, c.file, c.key) for c in corrected}
    message = f"cwx reconcile after the {what}: {keys} brought to the ledger\n\n" + \
        "\n".join(lines)
    try:
        commit = commit_paths(clone, changed, message, _signing(clone, root))
    except CwxError as error:
        return (f"reconciled {keys} after the {what}, but could not commit them ({error}); "
                "commit them yourself")
    said = [f"reconciled {keys} with the ledger after the {what}, and committed it on its own "
            f"({commit}):"]
    for line, item in zip(lines, corrected, strict=True):
        by = made[(item.file, item.key)]
        said.append(f"  {line}: the file's value came with {by}, an edit no journal line "
                    "records;" if by else f"  {line};")
    from cwx.base.hints import typed

    edited = sorted({file for (file, _), by in made.items() if by})
    if edited:
        files = " ".join(map(typed, edited))
        said.append(f"  to keep a hand edit instead: `git revert {commit}`, then `cwx adopt "
                    f"{files}` (with --supply if it gave dice) and commit")
    else:  # git merged as one two changes made alike (both kept a white), say
        said.append("  each change is in the journal: git's merge counted some once, and "
                    "the ledger counts them all; nothing for you to do")
    return "\n".join(map(printable, said))  # names from files: shown, never obeyed


def _signing(clone: Repository, root: str) -> tuple[str, ...]:
    """The correction signed as the player, where the campaign lists keys and one is
    found; else unsigned (`cwx check --signed` then names its line)."""
    from cwx.campaign import players
    from cwx.git import signing

    try:
        return tuple(signing.options(root, clone, players.current(root)))
    except CwxError:
        return ()


def _last_commit(clone: Repository, root: str, file: str, key: str | None) -> str | None:
    """The latest commit that changed a file's key with no journal line (a hand edit),
    and its author ("1a2b3c4 by Bob"); None when every commit that changed the key's line
    journaled it (the merge counted a journaled change differently: no hand edit)."""
    import re

    relative = os.path.relpath(os.path.realpath(os.path.join(root, file)), clone.top)
    journal_path = os.path.relpath(os.path.join(root, "journal.jsonl"), clone.top)
    if not key:
        return None
    leaf = key.rpartition(".")[2]
    name = re.escape(leaf)
    done = run(clone, "log", "-50", "--no-merges", "--format=%H %h by %an", "-G",
               f"^[[:space:]]*{name}[[:space:]]*=", "--", f":(literal){relative}")
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        commit, _, said = line.partition(" ")
        journaled = _journaled(clone, commit, journal_path, file)
        # Journaled: the whole file made, or a key of this name (the pattern meets every
        # table's: bag.white, reserve.white); then an older commit may be the edit.
        if "" not in journaled and all(k.rpartition(".")[2] != leaf for k in journaled):
            return said  # the key's line changed, and no journal line records it
    return None


def _journaled(clone: Repository, commit: str, journal_path: str, name: str) -> set[str]:
    """The keys of the file `name` (as the journal names it) the journal lines that
    `commit` added change ("" for the whole file)."""
    from cwx.journal import history

    shown = run(clone, "diff-tree", "-p", "--root", "--no-commit-id", commit, "--",
                f":(literal){journal_path}")
    added = (line[1:] for line in shown.stdout.splitlines()  # a line may start with spaces
             if line.startswith(b"+") and line[1:].lstrip().startswith(b"{"))
    return {change.key or "" for event in history.events_among(added)
            for change in event.changes if change.file == name}
