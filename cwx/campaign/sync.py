"""`cwx sync`: a player's turn sent and the table's brought in, in one command (play by
post). The campaign's own files are staged (never a sealed number, a redo record, or a
file cwx does not know), committed with a message told from the journal since the last
commit, `git pull --rebase` (a merge when the clone's own commits hold one), settled as
the hooks settle (by cwx itself, in its own process: in a clone without them, and where
they step aside for the git commit and pull cwx runs), pushed (a push someone beat is
pulled and tried once more), and checked.

Each step says one line; a step that cannot go on stops with the one next step, and the
clone is left as git left it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cwx.base.errors import BadFile, Conflict, CwxError
from cwx.base.record import Record
from cwx.campaign import gitsetup
from cwx.campaign.folder import SETTINGS, Campaign
from cwx.git import grows, repo
from cwx.git.repo import Repository, git, run
from cwx.journal import lines as journal

if TYPE_CHECKING:
    from cwx.campaign import checks
    from cwx.campaign.results import SyncReport

Say = Callable[[str], None]


class Synced(Record):
    """What a sync did."""

    committed: str | None  # the commit made (its short id), or None: nothing to commit
    message: str | None
    pulled: int  # commits brought in
    pushed: str | None  # where to ("origin/main"), or None: no remote
    problems: list[CwxError]  # what `cwx check` found after

    def as_json(self) -> SyncReport:
        return {"committed": self.committed, "message": self.message, "pulled": self.pulled,
                "pushed": self.pushed, "ok": not self.problems,
                "problems": [{"file": e.path, "line": e.line, "key": e.key,
                              "message": e.message} for e in self.problems]}


def sync(open_: Callable[..., Any], camp: Campaign, message: str | None, say: Say) -> Synced:
    share = sharing(camp, say)
    # A history that rewrote the journal this clone had (however HEAD came onto it) is
    # never built on nor shared: stopped before anything is committed.
    grows.refuse_rewritten(share.root, "cwx sync", "would share turns on a rewritten journal")
    _refuse_unsigned(share)
    committed, subject = send(camp, share, message, say)
    if share.where is None:
        say((f"no remote: committed {committed} here only" if committed else
             "no remote: nothing shared") + " (`git remote add origin URL`, then cwx sync)")
        return Synced(committed, subject, 0, None, _checked(share.root, say))
    pulled = pull(open_, share, say)
    _signs_still(share, say)
    again, report = push(open_, share, say)
    return Synced(_now_called(share.clone, committed), subject, pulled + again,
                  share.where.name, _checked(share.root, say, report))


def _refuse_unsigned(share: Sharing) -> None:
    """Where players' keys are listed, a journal holding a line new since the one this
    clone last proved that is not signed by its player's key (a pull refused it) is never
    built on nor shared."""
    from cwx.git import keyring, seen

    path = os.path.join(share.folder, journal.NAME) if share.folder != "." else journal.NAME
    kept = seen.recalled(share.clone, path)
    if kept is None or kept.commit == _head_of(share.clone, "HEAD"):
        return
    if refused := keyring.refused_since(share.clone, path, kept.commit):
        raise Conflict(refused, path=share.clone.top)


class Sharing(Record):
    """A clone a sync works in: the campaign's root and folder in it, where it pulls from
    and pushes to (None: no remote), and whether its hooks settle and check."""

    clone: Repository
    root: str  # a real path
    folder: str  # the root, from the top of the clone
    where: Upstream | None
    hooks: bool
    signing: tuple[str, ...] = ()  # git's -c options that sign as the player (signing.py)
    # Its hooks step aside where sync asks (gitsetup.ASIDE), and sync does their work in
    # its own process (hooks written by a cwx before theirs did run as ever).
    aside: bool = False


def sharing(camp: Campaign, say: Say) -> Sharing:
    """The clone of a campaign, ready to be synced: on a branch, git in the middle of
    nothing, the merge driver set."""
    root = os.path.realpath(camp.needed())
    clone = repo.of(root)
    if clone is None:
        raise BadFile("is not in a git clone; `git init` and `cwx git setup` first (or clone "
                      "the table's repository)", path=camp.root)
    from cwx.campaign import checks
    from cwx.git import attributes

    # An attribute that turns off cwx's merges or rewrites its files stops everything,
    # even a rebase it stopped (its advice says how to go on from there).
    if against := checks.recoded(camp):
        raise BadFile(against[0].message, path=against[0].path, line=against[0].line)
    _not_busy(clone)
    where = _upstream(clone)  # on a branch, before anything is committed
    folder = os.path.relpath(root, clone.top)
    kinds = _hooked(clone)
    if not attributes.installed(clone, folder):  # set up by a cwx before they were
        attributes.install(clone, folder)
        say("put cwx's merges in this clone's .git/info/attributes, above every "
            ".gitattributes line (as `cwx git setup` does)")
    if run(clone, "config", "merge.cwx.driver").returncode != 0:
        # Without the driver, two clones' changes of one sheet are a text conflict: set in
        # the clone's own config (never a tracked file), as `cwx git setup` sets it.
        gitsetup.configure(clone, folder)
        say("set the cwx merge driver in this clone's git config (`cwx git setup` also "
            "installs the hooks)")
    from cwx.campaign import players
    from cwx.git import signing

    # Signed turns: refused here, before anything is committed, when they cannot be signed.
    signs = tuple(signing.options(root, clone, players.current(root)))
    return Sharing(clone, root, folder, where, kinds is not None, signs,
                   kinds == {"aside"})


def _signs_still(share: Sharing, say: Say) -> None:
    """Where the pull brought a campaign.toml that lists another key for the player (or
    none) than the one they sign with: what they have is not pushed, saying why; with
    nothing to push, said as a warning."""
    if not share.signing or share.where is None:
        return
    from cwx.campaign import players
    from cwx.git import signing

    try:
        signing.options(share.root, share.clone, players.current(share.root))
    except CwxError as error:
        if _ahead(share.clone, share.where):
            raise
        say(f"cwx: warning: {error}")


def send(camp: Campaign, share: Sharing, message: str | None,
         say: Say) -> tuple[str | None, str | None]:
    """The campaign's own files staged and committed: the commit's id and subject, or
    None and None when nothing changed."""
    _sendable(camp)
    index = _index(share.clone)
    try:
        staged = _stage(share.clone, camp, share.folder)
        say(f"staged {_files(staged)}" if staged else "nothing to stage")
        committed, subject = _commit(share.clone, camp, share.folder, staged, message,
                                     share.hooks, share.signing, aside=share.aside and
                                     bool(staged) and _alone(share.clone, index))
    except CwxError:
        if index is not None:  # nothing a refused commit held stays staged
            run(share.clone, "read-tree", index)
            run(share.clone, "update-index", "-q", "--refresh")
        raise
    # Its id is said once it is pushed: the pull may make it anew.
    say(f"committed: {subject}" if committed else "nothing to commit")
    return committed, subject


def pull(open_: Callable[..., Any], share: Sharing, say: Say,
         routine: Say | None = None) -> int:
    """The table's commits brought in and settled: how many."""
    assert share.where is not None
    return _pull(open_, share.clone, share.folder, share.where, say, routine, share.signing,
                 aside=share.aside)


def push(open_: Callable[..., Any], share: Sharing,
         say: Say) -> tuple[int, checks.Report | None]:
    """What this clone has that its remote has not, pushed (a push someone beat is pulled
    and tried once more), unless check finds a clash: the commits that second pull
    brought in, and check's report of what was pushed (None: nothing was)."""
    where = share.where
    assert where is not None
    clone, pulled = share.clone, 0
    if not _ahead(clone, where):
        say(f"nothing to push: {where.name} has every commit of this clone")
        return 0, None
    report = _unsettled(share.root)
    if not _push(clone, where):
        say("the push was refused (someone pushed meanwhile): pulling again")
        pulled += _pull(open_, clone, share.folder, where, say, sign=share.signing,
                        aside=share.aside)
        report = _unsettled(share.root)
        if not _push(clone, where, last=True):
            raise Conflict(f"git push to {where.name} was refused twice; run cwx sync again",
                           path=clone.top)
    from cwx.git import held

    held.note(clone)  # the table holds what was pushed: kept past `git reflog expire`
    default = None if where.tracked else _default_branch(clone, where.remote)
    head = git(clone, "rev-parse", "--short=12", "HEAD")
    say(f"pushed {head} to {where.name}" if default in (None, where.branch) else
        f"pushed {head} to {where.name}, a branch of its own: the table plays on "
        f"{where.remote}/{default}, and sees this once you merge it there")
    return pulled, report


def _ahead(clone: Repository, where: Upstream) -> bool:
    """Whether HEAD holds a commit the remote's branch (as last fetched) does not."""
    theirs = _head_of(clone, f"{where.remote}/{where.branch}")
    return theirs is None or git(clone, "rev-list", "--count", f"{theirs}..HEAD") != "0"


def _now_called(clone: Repository, committed: str | None) -> str | None:
    """The commit sync made, by the id it has now: a rebase onto the table's commits
    makes it anew (the same author, time and subject, a new id), or drops it when theirs
    made the same change (None)."""
    if committed is None or \
            run(clone, "merge-base", "--is-ancestor", committed, "HEAD").returncode == 0:
        return committed
    mark = git(clone, "log", "-1", "--format=%at%x1f%s", committed)
    for line in git(clone, "log", "--format=%h%x1f%at%x1f%s", "--abbrev=12", "HEAD",
                    "--not", committed).splitlines():
        now, _, said = line.partition("\x1f")
        if said == mark:
            return now
    return None


# ---------------------------------------------------------------- the steps


_BUSY = (("rebase-merge", "a rebase", "git rebase --continue"),
         ("rebase-apply", "a rebase", "git rebase --continue"),
         ("MERGE_HEAD", "a merge", "git commit"))


def busy(clone: Repository) -> str | None:
    """What git is in the middle of in the clone ("a rebase"), or None."""
    folder = repo.git_folder(clone)
    return next((what for state, what, _ in _BUSY
                 if os.path.exists(os.path.join(folder, state))), None)


def _not_busy(clone: Repository) -> None:
    """A sync starts from a clone git is not in the middle of something in."""
    folder = repo.git_folder(clone)
    for state, what, finish in _BUSY:
        if os.path.exists(os.path.join(folder, state)):
            raise Conflict(f"git is in the middle of {what}: settle the files `git status` "
                           f"names (edit, `cwx adopt`, `git add`), `{finish}`, then cwx sync "
                           "again", path=clone.top)


def _hooked(clone: Repository) -> set[str] | None:
    """Whether this clone's cwx hooks will settle and check (else sync does it itself,
    None): the kinds of them (gitsetup.hook_kind), {"aside"} where every one steps aside
    where sync does its work."""
    if gitsetup.shared_hooks(clone):
        return None
    folder = gitsetup.hooks_folder(clone, shared=False)
    kinds = set()
    for name in gitsetup.HOOKS:
        path = os.path.join(folder, name)
        kind = gitsetup.hook_kind(path) if os.path.isfile(path) else None
        if kind is None:
            return None
        kinds.add(kind)
    return kinds


def _sendable(camp: Campaign) -> None:
    """What no commit may carry, refused before anything is staged: a journal that is a
    link (every clone would get the link, which cwx never writes through), a file whose
    name is not UTF-8 (no journal line can name it)."""
    from cwx.base.hints import NOT_UTF8, utf8_named

    if os.path.islink(camp.journal_file):
        raise BadFile("is a symbolic link; cwx never shares the journal as a link (no clone "
                      "writes through one). Replace the link with the journal itself, then "
                      "cwx sync again", path=os.path.relpath(camp.journal_file))
    for member in camp.members(lambda _: None):
        if not utf8_named(member.path):
            raise BadFile(NOT_UTF8, path=member.path)


def _index(clone: Repository) -> str | None:
    """The index as a tree, to put back if the commit is refused (None: git cannot write
    one, as in a merge not finished, which sync never starts in)."""
    done = run(clone, "write-tree")
    return done.stdout.decode().strip() or None if done.returncode == 0 else None


def _stage(clone: Repository, camp: Campaign, folder: str) -> list[str]:
    """The campaign's own files staged, as paths from the top of the clone: its settings,
    journal, characters and bags, and those of them gone since the last commit."""
    root = os.path.realpath(camp.needed())
    own = [os.path.join(root, SETTINGS), camp.journal_file]
    own += [os.path.realpath(member.path) for member in camp.members(lambda _: None)]
    present = [os.path.relpath(path, clone.top) for path in own if os.path.isfile(path)
               and not gitsetup.never_committed(path)]
    present += _made_by_init(clone, root)
    if present:
        git(clone, "add", "--", *(f":(literal){path}" for path in present))
    gone = [path for path in _deleted(clone, folder) if _was_ours(clone, path)]
    if gone:
        git(clone, "rm", "--cached", "--quiet", "--", *(f":(literal){path}" for path in gone))
    # Removals staged already (cwx retire, git mv, git rm) are the campaign's too.
    gone += [path for path in _removed(clone, folder) if path not in gone and
             _was_ours(clone, path)]
    changed = git(clone, "diff", "--cached", "--no-renames", "--name-only", "-z", "--",
                  *(f":(literal){path}" for path in present + gone), strip=False) \
        if present or gone else ""
    return list(repo.z_list(changed))


def _made_by_init(clone: Repository, root: str) -> list[str]:
    """The files `cwx init` made at the campaign's root (.gitignore, .gitattributes, the
    schemas, README, Makefile) that git does not track yet: the first sync shares them;
    after that they are the table's, and a person commits their edits."""
    from cwx.systems import templates

    made = [os.path.relpath(os.path.join(root, name), clone.top)
            for name in templates.campaign_files("campaign")
            if name != SETTINGS and os.path.isfile(os.path.join(root, name))]
    if not made:
        return []
    tracked = set(repo.z_list(git(clone, "ls-files", "-z", "--",
                                  *(f":(literal){path}" for path in made), strip=False)))
    return [path for path in made if path not in tracked]


def _removed(clone: Repository, folder: str) -> list[str]:
    """Campaign files whose removal is staged (a retirement, the old name of a move)."""
    listed = git(clone, "diff", "--cached", "--no-renames", "--diff-filter=D", "--name-only",
                 "-z", "--", f":(literal){folder}", strip=False)
    return [path for path in repo.z_list(listed)
            if path.endswith((".toml", journal.NAME)) and not gitsetup.never_committed(path)]


def _deleted(clone: Repository, folder: str) -> list[str]:
    listed = git(clone, "ls-files", "--deleted", "-z", "--", f":(literal){folder}",
                 strip=False)
    return [path for path in repo.z_list(listed)
            if path.endswith((".toml", journal.NAME)) and not gitsetup.never_committed(path)]


def _was_ours(clone: Repository, path: str) -> bool:
    """Whether the last commit's file at `path` was a campaign file cwx knows."""
    from cwx import systems
    from cwx.toml import tomlread

    if os.path.basename(path) in (SETTINGS, journal.NAME):
        return True
    shown = run(clone, "show", f"HEAD:{path}")
    try:
        data = tomlread.loads(shown.stdout.decode("utf-8")) if shown.returncode == 0 else {}
    except (ValueError, CwxError):
        return False
    return systems.kind_of(data) is not None


def _files(paths: list[str]) -> str:
    from cwx.base.ink import plural

    names = ", ".join(os.path.basename(path) for path in paths[:6])
    return f"{plural(len(paths), 'file')} ({names}{', …' if len(paths) > 6 else ''})"


def _commit(clone: Repository, camp: Campaign, folder: str, staged: list[str],
            message: str | None, hooks: bool, sign: tuple[str, ...] = (), *,
            aside: bool = False) -> tuple[str | None, str | None]:
    """The staged campaign files committed on their own (what else is staged stays
    staged), the message told from the journal's events the last commit did not have.
    `aside`: the hooks' work done here (_passes_pre_commit), theirs stepping aside."""
    from cwx.journal import history, story

    if not staged:
        return None, None
    if not hooks:  # what the pre-commit hook would say
        _checked_before(os.path.realpath(camp.needed()))
    aside = aside and _passes_pre_commit(clone, staged)
    with history.opened(camp.journal_file) as read:
        new, count = read.first_since(_committed(clone, folder), TOLD)
        subject = message.strip() if message and message.strip() else \
            f"cwx: {story.summary(new, 67, read.void(), count)}" if new else \
            "cwx: the campaign's files"
        body = "\n".join(read.told(event) for event in new)
    # The message through standard input: 200 events told of characters named in 255
    # letters of 4 bytes are past what one argument may hold (exit 3, "Argument list
    # too long"). Two paragraphs, as two -m make them.
    done = run(clone, *sign, "commit", "--quiet", "--file=-", "--",
               *(f":(literal){path}" for path in staged),
               input=(subject + (f"\n\n{body}" if body else "") + "\n").encode(),
               env=_ASIDE if aside else None)
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise Conflict("the commit was refused" + (f" ({said[-1]})" if said else "") +
                       ": settle what `cwx check` says, then cwx sync again", path=clone.top)
    if aside:  # the post-commit hook's work; what it says of a commit git relays to no one
        gitsetup.remember_commit(clone, _unsaid)
    return git(clone, "rev-parse", "--short=12", "HEAD"), subject


# The environment of the git commit and pull whose hooks' work sync does itself.
_ASIDE = {gitsetup.ASIDE: "1"}


def _unsaid(_: str) -> None:
    """What a hook says where git would not relay it to the player (a commit that
    passes): nothing."""


def _alone(clone: Repository, index: str | None) -> bool:
    """Whether the index held nothing staged before sync staged its files (`index`, its
    tree then, is HEAD's): then it holds what the pre-commit hook of sync's `git commit
    --only` sees, HEAD and the commit's paths, and what the hook's check asks of it is
    answered alike. Else (the player's own staged files) the commit is left to the hooks."""
    if index is None:
        return False
    done = run(clone, "rev-parse", "--verify", "--quiet", "HEAD^{tree}")
    return done.returncode == 0 and done.stdout.decode().strip() == index


def _passes_pre_commit(clone: Repository, staged: list[str]) -> bool:
    """Whether the pre-commit hook would pass sync's commit (cli/hooks.py): no file cwx
    never commits staged (_stage stages none), and the check of every campaign the hooks
    look after passing (_alone: on the index the hook sees). Where it would not, the
    commit is left to the hook, which refuses it in its own words."""
    from cwx.campaign import checks

    if any(gitsetup.never_committed(path) for path in staged):
        return False
    try:
        return checks.before_commit(clone, _unsaid) is None
    except Exception:  # a bug: the hook, left the commit, says it as it did before
        return False


TOLD = 200  # the new events a commit message tells, one a line (the rest counted)


def _committed(clone: Repository, folder: str) -> list[bytes]:
    """The lines of the journal the last commit holds (none: no commit holds one yet)."""
    name = os.path.join(folder, journal.NAME) if folder != "." else journal.NAME
    shown = run(clone, "show", f"HEAD:{name}")
    return [] if shown.returncode else shown.stdout.splitlines()


class Upstream(Record):
    remote: str
    branch: str
    tracked: bool  # the branch follows it already (else the push sets it)

    @property
    def name(self) -> str:
        return f"{self.remote}/{self.branch}"


def _upstream(clone: Repository) -> Upstream | None:
    """Where this clone pulls from and pushes to: its branch's upstream, else the remote
    (`origin` first) and a branch of the same name; None with no remote at all."""
    branch = run(clone, "symbolic-ref", "--quiet", "--short", "HEAD")
    if branch.returncode != 0:
        raise BadFile("is on no branch (a detached HEAD); `git switch main` first, then "
                      "cwx sync", path=clone.top)
    here = branch.stdout.decode().strip()
    tracked = run(clone, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}")
    if tracked.returncode == 0:
        remote, _, theirs = tracked.stdout.decode().strip().partition("/")
        return Upstream(remote, theirs, True)
    remotes = git(clone, "remote").split()
    if not remotes:
        return None
    return Upstream("origin" if "origin" in remotes else remotes[0], here, False)


def _pull(open_: Callable[..., Any], clone: Repository, folder: str, where: Upstream,
          say: Say, routine: Say | None = None, sign: tuple[str, ...] = (), *,
          aside: bool = False) -> int:
    """`git pull --rebase`, or a merge (_how_to_pull; the commits it makes signed, with
    `sign`), then the settlement (the hooks', or cwx's own): the number of commits
    brought in; a conflict stops it with the next step. `routine` hears the steps that
    change nothing (else `say` does). `aside`: the hooks' work done here (_settled)."""
    routine = routine or say
    if run(clone, "ls-remote", "--exit-code", "--heads", where.remote,
           where.branch).returncode == 2:
        routine(f"{where.name} is new: nothing to pull")
        return 0
    before, mine = _heads_of(clone, f"{where.remote}/{where.branch}", "HEAD")
    how = _how_to_pull(clone, before)
    # Edits git sets aside (below) come back after its hooks ran, and a pull into a
    # branch with no commit yet is a checkout no hook settles: both left to the hooks
    # and the settlement after, as ever.
    aside = aside and mine is not None and _clean(clone)
    # --autostash: the player's other edits (a file not the campaign's) wait aside.
    # A merge: its message git's own (no editor opened mid-sync), and made whatever the
    # player's pull.ff says (`only` would refuse it).
    done = run(clone, *sign, "pull", f"--{how}",
               *(["--no-edit", "--ff"] if how == "no-rebase" else []), "--autostash",
               "--quiet", where.remote, where.branch, env=_ASIDE if aside else None)
    said = _said(done.stderr)
    after, head, fetched = _heads_of(clone, f"{where.remote}/{where.branch}", "HEAD",
                                     "FETCH_HEAD") if done.returncode == 0 else [None] * 3
    # The hooks' work, where they stepped aside: what they say, as git would have relayed
    # it after everything else it said (they run as the pull ends), before the refusal
    # is asked, as it was after them.
    settled = _settled(open_, clone, how, mine, head, fetched, said) \
        if aside and done.returncode == 0 else None
    refused = gitsetup.refusal(clone, folder, mine, "pull") if done.returncode == 0 else None
    from cwx.base.hints import typed

    stages = _unmerged(clone) if done.returncode != 0 else {}
    twice = _made_twice(clone, stages)
    for line in said:
        if refused and grows.REFUSED in line:  # the hook's note: said below
            continue
        if any(line.startswith(f"cwx: next: edit {typed(path)} ") for path in twice):
            continue  # the merge driver's advice, which could not read the journal: below
        say(line)
    if done.returncode != 0:
        raise Conflict(_next_step(stages, done.stderr, twice, clone.top, how),
                       path=clone.top)
    if refused:  # nothing settled, nothing pushed
        raise Conflict(refused, path=clone.top)
    # Brought in: the table's commits HEAD had not (a fetch run by hand may have moved
    # the remote's branch already, so not counted from where it stood).
    count = int(git(clone, "rev-list", "--count", after, *([f"^{mine}"] if mine else []))) \
        if after else 0
    from cwx.base.ink import plural

    (say if count else routine)(f"pulled {plural(count, 'commit')} from {where.name}" if count
                                else f"up to date with {where.name}")
    if count and (settled is None or folder not in settled):
        # The hooks may have settled already (then nothing is left to), or found the
        # other edits set aside and waited: settled now they are back. Where sync did the
        # hooks' work itself, once is enough.
        gitsetup.settle_campaign(open_, clone, folder,
                                 "rebase" if how == "rebase" else "merge", say)
    return count


def _clean(clone: Repository) -> bool:
    """Whether the work tree and index hold nothing git's --autostash would set aside
    (a change to a file git tracks)."""
    return run(clone, "diff", "--quiet", "HEAD", "--").returncode == 0


def _settled(open_: Callable[..., Any], clone: Repository, how: str, mine: str | None,
             head: str | None, fetched: str | None, said: list[str]) -> list[str]:
    """After a pull (`how`) that moved HEAD from `mine` to `head`, `fetched` brought, with
    its hooks stepping aside: what the hook git ran would have done. post-merge after a
    merge (a fast-forward too: `git pull --rebase` merges one), else post-rewrite after a
    rebase, or post-checkout after one that made no commit anew (cli/hooks.py); nothing
    where HEAD did not move (git ran none). What it says joins `said` as git would have
    relayed it (a note a line); the campaigns it settled."""
    from cwx.base.printable import noted

    if head is None or head == mine:
        return []
    if how == "no-rebase" or (head == fetched and mine is not None and run(
            clone, "merge-base", "--is-ancestor", mine, head).returncode == 0):
        hook = "post-merge"
    else:
        hook = "post-rewrite" if head != fetched else "post-checkout"
    return gitsetup.settle_after(open_, clone, hook, lambda text: said.append(noted(text)))


def _how_to_pull(clone: Repository, theirs: str | None) -> str:
    """"rebase", or "no-rebase" (a merge) when this clone's own commits not yet on the
    remote's branch hold a merge. A rebase replays a clone's plain commits after the
    table's: their lines keep their order, and the table's are new to them, so the
    journal the clone proved is extended. But it flattens a merge, replaying each side
    in turn after the table's lines: two lines the clone had proven in one order (its
    own turn, then one the merge brought) would come out in the other, a rewrite the
    hooks refuse. A merge keeps every commit as it is, and git's union merge of the
    journal keeps each side's lines in their order."""
    merges = run(clone, "rev-list", "--merges", "--max-count=1", "--ignore-missing", "HEAD",
                 *(["--not", theirs] if theirs else []))
    return "no-rebase" if merges.returncode != 0 or merges.stdout.strip() else "rebase"


def _default_branch(clone: Repository, remote: str) -> str | None:
    """The branch the remote's HEAD names (where the table plays), if it says."""
    done = run(clone, "ls-remote", "--symref", remote, "HEAD")
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        if line.startswith("ref: refs/heads/") and line.endswith("\tHEAD"):
            return line[len("ref: refs/heads/"):-len("\tHEAD")]
    return None


def _head_of(clone: Repository, ref: str) -> str | None:
    done = run(clone, "rev-parse", "--quiet", "--verify", f"{ref}^{{commit}}")
    return done.stdout.decode().strip() or None if done.returncode == 0 else None


def _heads_of(clone: Repository, *refs: str) -> list[str | None]:
    """The commit each of `refs` names (None: none), asked of one git process."""
    asked = "".join(f"{ref}^{{commit}}\n" for ref in refs).encode()
    said = run(clone, "cat-file", "--batch-check=%(objectname)", input=asked).stdout
    lines = said.decode("ascii", "replace").splitlines()
    # A name that names no commit is answered "NAME missing" (or "ambiguous"): never an
    # id alone.
    return [lines[n] if n < len(lines) and repo.FULL_ID.fullmatch(lines[n]) else None
            for n in range(len(refs))]



def _said(stderr: bytes) -> list[str]:
    """What git, its hooks and the merge driver said that a person needs (cwx's lines and
    git's conflicts), without git's own progress."""
    lines = stderr.decode("utf-8", "replace").splitlines()
    return [line for line in lines if line.startswith(("cwx:", "CONFLICT", "  "))]


def _unmerged(clone: Repository) -> dict[str, set[str]]:
    """The files the pull left unmerged, each with the stages git holds of it (1: the
    base, 2 and 3: the sides)."""
    stages: dict[str, set[str]] = {}
    for entry in repo.z_list(git(clone, "ls-files", "--unmerged", "-z", strip=False)):
        meta, _, path = entry.partition("\t")
        stages.setdefault(path, set()).add(meta.split()[-1])
    return stages


def _made_twice(clone: Repository, stages: dict[str, set[str]]) -> dict[str, list[str]]:
    """When every file the pull stopped on clashes only on keys that an event made on two
    clones at once changed (two ends of one game, two turns of one draw, two undos of
    one change: the later counts for nothing, so the ledger counts it once): each file,
    with those events' ids. Else nothing: the table decides."""
    from cwx.base.places import root_above
    from cwx.git import gitmerge
    from cwx.journal import history
    from cwx.toml import tomlread

    found: dict[str, list[str]] = {}
    for path, held in stages.items():
        root = root_above(os.path.join(clone.top, os.path.dirname(path)))
        shows = [run(clone, "show", f":{stage}:{path}") for stage in "123"]
        if held != {"1", "2", "3"} or root is None or any(s.returncode for s in shows):
            return {}
        try:
            sides = [tomlread.parse(show.stdout, path) for show in shows]
        except CwxError:
            return {}
        merged = gitmerge.merge(sides[0], sides[1], sides[2], path)
        keys = {".".join(key) for key in merged.keys}
        if not keys or len(merged.clashes) != len(keys):  # a clash of no one key's
            return {}
        where = os.path.join(root, journal.NAME)
        name = os.path.relpath(os.path.join(clone.top, path), root).replace(os.sep, "/")
        with history.opened(where) as read:
            void = read.void()
        twice = {event.id: {c.key for c in event.changes if c.file == name}
                 for event in history.with_ids(where, void)}
        if not keys <= {key for changed in twice.values() for key in changed}:
            return {}
        found[path] = sorted(id_ for id_, changed in twice.items() if changed & keys)
    return found


def _next_step(stages: dict[str, set[str]], stderr: bytes, twice: dict[str, list[str]],
               top: str, how: str = "rebase") -> str:
    """What a person does when the pull (`how`: "rebase" or "no-rebase", a merge) stopped:
    the files to settle, and how."""
    from cwx.base.hints import typed

    finish = "`git rebase --continue`" if how == "rebase" else "`git commit --no-edit`"

    if not stages:
        said = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines()
                if line.strip()]
        # git's own reason (its fatal: line), not the last line of its advice after it
        reason = next((line for line in said if line.startswith(("fatal:", "error:"))),
                      said[-1] if said else "see git status")
        return (f"git pull --{how} stopped ({reason}): nothing was pushed. Mend what git says "
                "(`git remote -v` shows where it pulls from, `git status` what is in the "
                "way), then cwx sync again")
    # A file one side removed has no side of its own (stage 2 or 3) to mark: a retirement
    # (or a move) against the other side's play.
    gone = " ".join(typed(path) for path, held in stages.items() if not {"2", "3"} <= held)
    marked = " ".join(typed(path) for path, held in stages.items() if {"2", "3"} <= held)
    if twice:
        ids = ", ".join(id_[:8] for id_ in sorted({i for ids in twice.values() for i in ids}))
        return (f"the pull stopped on {marked}: its keys clash only because two clones made "
                "one move at once (two ends of one game, two turns of one draw, or two undos "
                f"of one change), and {ids} counts for nothing (another came first), so the "
                "ledger counts the move once (`cwx log` says so). Set each marked key in "
                f"{marked} to either side's value, `git add {marked}` and {finish}; then "
                f"`cwx reconcile` brings {marked}, and any file the move "
                "changed too, to the ledger (nothing to do if the hooks did), and cwx sync "
                "again")
    steps = []
    if marked:
        steps.append(f"edit {marked} to what the table decides (conflict markers hold both "
                     f"sides' values; cwx said why above), `cwx adopt {marked}` (with any file "
                     "cwx named above, together) and `git add` them with "
                     f"{gitsetup.journal_beside(marked.split()[0], top)}")
    if gone:
        steps.append(f"{gone} was retired (or moved) on one side and played on the other: "
                     f"`git rm {gone}` keeps the retirement (after the sync, `cwx check` names "
                     f"what the other side gave it, to settle), or `git add {gone}` keeps it")
    return (f"the pull stopped on {' '.join(filter(None, (marked, gone)))}: "
            f"{'; '.join(steps)}; then {finish} and cwx sync again")


def _push(clone: Repository, where: Upstream, *, last: bool = False) -> bool:
    """Push; False when the remote has commits this clone has not (pull and try again)."""
    done = run(clone, "push", "--quiet", *([] if where.tracked else ["--set-upstream"]),
               where.remote, f"HEAD:refs/heads/{where.branch}")
    if done.returncode == 0:
        return True
    said = done.stderr.decode("utf-8", "replace")
    if not last and ("rejected" in said or "fetch first" in said or "non-fast-forward" in said):
        return False
    last_line = said.strip().splitlines()[-1] if said.strip() else str(done.returncode)
    raise BadFile(f"git push to {where.name} failed: {last_line}", path=clone.top)


def _unsettled(root: str) -> checks.Report:
    """A campaign whose check finds a clash the ledger cannot settle (a file made on two
    clones at once, kept as neither side's adopt said) is never pushed: every clone's
    check would fail with it."""
    from cwx.campaign import checks

    report = checks.check([root])
    clashes = [p for p in report.problems if isinstance(p, Conflict)]
    if clashes:
        raise Conflict(f"not pushed: cwx check finds {len(clashes)} clash(es) the ledger "
                       f"cannot settle, the first: {clashes[0]}; settle them as it says, "
                       "then cwx sync again", path=root)
    return report


def _checked_before(root: str) -> None:
    from cwx.campaign import checks

    report = checks.check([root])
    if report.problems:
        first = report.problems[0]
        raise BadFile(f"cwx check finds {len(report.problems)} problem(s), the first: "
                      f"{first}; settle them (cwx check says how), then cwx sync again",
                      path=root)


def _checked(root: str, say: Say, report: checks.Report | None = None) -> list[CwxError]:
    from cwx.base.ink import plural
    from cwx.campaign import checks, guesses

    report = checks.check([root]) if report is None else report
    late = [guess for guess in report.pending if guesses.late(guess, report.revealed)]
    waiting = len(report.pending) - len(late)
    say(f"checked {plural(report.checked, 'file')}: " +
        (f"{plural(len(report.problems), 'problem')} (cwx check says them)"
         if report.problems else "all valid") +
        (f"; {plural(waiting, 'guess')} waiting for the GM's reveal" if waiting else "") +
        (f"; {plural(len(late), 'guess')} late: reached the GM after the reveal, counts for "
         "nothing (cwx check says which)" if late else "") +
        (f"; {plural(len(report.void), 'guess')} void: the GM sealed a new number before "
         "revealing the one guessed on (cwx check says which)" if report.void else ""))
    return report.problems
