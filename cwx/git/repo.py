"""The clone's own git repository, and every git call cwx makes.

A campaign comes from other people's repositories, so its work tree is input: a folder
of it may hold a planted repository (HEAD, objects/, refs/ and a `config` naming
programs), which git would take for the repository if asked from inside that folder.
cwx finds the repository itself, as the folder above holding `.git`, and names it to
git explicitly (`--git-dir`, `--work-tree`) on every call, with the settings that would
run a program switched off. Nothing here reads `.git` by hand.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from cwx.base.errors import BadFile
from cwx.base.record import Record

# Settings git would obey that run a program or stop at a planted repository: off for
# every call of cwx's, whatever a config says. (A clone's own .git/config is the
# player's; these are the ones a repository planted in the work tree could name.)
_SAFE = ("-c", "safe.bareRepository=explicit", "-c", "core.fsmonitor=false",
         "-c", "core.pager=cat", "-c", "diff.external=")
# Which repository and index to use is cwx's to say: inherited ones are dropped (a hook
# is run with some of them set; GIT_INDEX_FILE stays, for the hook's own index).
_CHOSEN_BY_CWX = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_NAMESPACE",
                  "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM")


# An object's full id, as git writes it (SHA-1 or SHA-256): an answer of git's that is not
# one is no commit, whatever else it says.
FULL_ID = re.compile("[0-9a-f]{40,64}")


class Repository(Record):
    """A clone: the top of its work tree and its `.git` (a folder, or a file naming one)."""

    top: str  # a real path
    git_dir: str


def of(folder: str) -> Repository | None:
    """The repository whose work tree holds `folder`: the nearest folder at or above it
    (its real path) with a `.git` of its own. None outside git. A repository cannot
    commit a `.git`, so what is found is the clone's own, never one a campaign brought."""
    here = os.path.realpath(folder or ".")
    while True:
        dot_git = os.path.join(here, ".git")
        if os.path.lexists(dot_git):
            return Repository(here, dot_git)
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def run(repo: Repository, *args: str, cwd: str | None = None,
        env: Mapping[str, str] | None = None, input: bytes | None = None,
        ) -> subprocess.CompletedProcess[bytes]:
    """git with this repository named, its output as bytes, whatever its status (within
    one_state, a question asked before answered as git did then)."""
    environment = {k: v for k, v in os.environ.items() if k not in _CHOSEN_BY_CWX}
    environment.update(env or {})
    answers = _memo.answers
    key = None
    if answers is not None:
        how = _asking(args)
        if how is _KEPT:
            key = (repo, cwd or repo.top, args, input, frozenset(environment.items()))
            if (known := answers.get(key)) is not None:
                return known
        elif how is _CHANGES:
            forget()
    try:
        done = subprocess.run(["git", "--git-dir", repo.git_dir, "--work-tree", repo.top,
                               *_SAFE, *args], cwd=cwd or repo.top, capture_output=True,
                              env=environment, input=input)
    except FileNotFoundError:
        raise BadFile("git is not installed; cwx needs it for this", path=repo.top) from None
    if key is not None and done.returncode >= 0:  # not one a signal ended
        _keep_answer(key, done)
    return done


def reader(repo: Repository, *args: str) -> subprocess.Popen[bytes]:
    """git with this repository named, started to be talked to (`cat-file --batch`): its
    standard input and output are pipes; the caller closes its input and waits."""
    if _memo.answers is not None and _asking(args) is _CHANGES:
        forget()
    environment = {k: v for k, v in os.environ.items() if k not in _CHOSEN_BY_CWX}
    try:
        return subprocess.Popen(["git", "--git-dir", repo.git_dir, "--work-tree", repo.top,
                                 *_SAFE, *args], cwd=repo.top, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                env=environment)
    except FileNotFoundError:
        raise BadFile("git is not installed; cwx needs it for this", path=repo.top) from None


# ---------------------------------------------------------------- one question, one git
#
# A command asks git the same question many times (the branch HEAD is on, the files the
# index holds, where the remotes' branches stand: some modules each ask it for
# themselves), and each asking is a git process, about 2 ms. Within one_state, the scope
# of one command or one library operation, each answer that depends only on the
# repository (its refs, objects, index and config) is kept, keyed by all git is given
# (the arguments, the input, the environment, the folder), and the same question is
# answered from it: every answer within the scope is of one repository state. What may
# change that state forgets them all first: every other git call (a commit, an add, a
# pull, a config set, and the hooks git runs for them), and cwx's own writes of what git
# reads: the attributes (attributes.install), and any file a change writes (the work
# tree's .gitattributes are read by check-attr and by a log's diffs; store/durable.py).
# cwx's files in the git folder (cwx/: seen, held, the kept answers) are read by no git
# command, so writing them forgets nothing. Outside a scope nothing is kept: a process
# that lives on (a bot calling operations, the tests running command after command)
# never reads an answer from before a change it did not make itself.

class _Memo(threading.local):
    answers: dict[tuple[object, ...], subprocess.CompletedProcess[bytes]] | None = None
    size = 0  # the bytes kept


_memo = _Memo()
_KEPT, _READS, _CHANGES = "kept", "reads", "changes"
# The bytes kept at most: a journal's blob at each of many commits is read once each, and
# a command's memory is bounded whatever the history (bench/hostile.py).
_MOST, _MOST_ONE = 16 << 20, 1 << 20


@contextmanager
def one_state(*, anew: bool = False) -> Iterator[None]:
    """The scope within which git is asked each question once (above). One inside another
    is the outer one's, or with `anew` one of its own, and the outer one's answers are
    forgotten as it ends (a scene's line is a command: the player may run git between two)."""
    outer = _memo.answers
    if outer is not None and not anew:
        yield
        return
    _memo.answers, _memo.size = {}, 0
    try:
        yield
    finally:
        _memo.answers, _memo.size = ({} if outer is not None else None), 0


def forget() -> None:
    """Every answer kept: asked again (the repository may have changed)."""
    if _memo.answers:
        _memo.answers.clear()
        _memo.size = 0


def _keep_answer(key: tuple[object, ...], done: subprocess.CompletedProcess[bytes]) -> None:
    size = len(done.stdout) + len(done.stderr)
    if _memo.answers is not None and size <= _MOST_ONE and _memo.size + size <= _MOST:
        _memo.answers[key] = done
        _memo.size += size


# The commands whose answer depends on the repository alone (given all they are given),
# those that read the work tree or talk to a remote and change nothing (never kept,
# forgetting nothing), and for some, the options that make them one or the other.
_ANSWERED = {"rev-parse", "symbolic-ref", "for-each-ref", "rev-list", "merge-base",
             "cat-file", "log", "show", "ls-files", "config", "check-attr"}
_READING = {"diff", "diff-tree", "status", "ls-remote"}
# ls-files options that read the work tree (the files git does not track, or changed).
_WORK_TREE = {"--deleted", "--modified", "--others", "--ignored", "--killed", "--directory",
              "--eol", "--debug"}
_CONFIG_READS = {"--get", "--get-all", "--get-regexp", "--list", "-l"}
_CONFIG_HOW = {"--null", "-z", "--bool", "--int", "--path", "--local", "--includes",
               "--show-origin", "--show-scope", "--name-only"}


def _asking(args: tuple[str, ...]) -> str:
    """Whether git's answer to `args` is kept, read and not kept, or may change the
    repository (every call not known to read)."""
    at = 0
    while args[at:at + 1] == ("-c",):  # settings (signing's) that may name files outside git
        at += 2
    command, rest = (args[at], args[at + 1:]) if at < len(args) else ("", ())
    options = [arg for arg in rest if arg.startswith("-")]
    if command in _ANSWERED:
        how = _answered(command, options, [arg for arg in rest if not arg.startswith("-")])
    elif command in _READING or (command == "reflog" and rest[:1] == ("show",)) or \
            (command == "remote" and (not rest or rest[0] in ("get-url", "-v"))):
        how = _READS
    else:
        how = _CHANGES
    return _READS if how is _KEPT and at else how


def _answered(command: str, options: list[str], named: list[str]) -> str:
    if command == "symbolic-ref":  # HEAD's branch asked, never one set or deleted
        return _KEPT if len(named) == 1 and not {"-d", "--delete"} & set(options) \
            else _CHANGES
    if command == "config":  # a read kept; a setting set, added or unset changes it
        how = [arg for arg in options if arg not in _CONFIG_HOW and
               not arg.startswith(("--type=", "--default="))]
        return _KEPT if all(arg in _CONFIG_READS for arg in how) and (how or len(named) == 1) \
            else _CHANGES
    if command == "cat-file" and any(
            arg.startswith(("--batch", "--filters", "--textconv", "--path"))
            and not arg.startswith("--batch-check") for arg in options):
        return _READS
    if command == "ls-files" and any(
            arg in _WORK_TREE or arg.startswith(("--exclude", "-x", "-X")) or
            (not arg.startswith("--") and set(arg[1:]) & set("dmoiktvf")) for arg in options):
        return _READS
    return _KEPT


def git(repo: Repository, *args: str, cwd: str | None = None,
        env: Mapping[str, str] | None = None, strip: bool = True) -> str:
    """git with this repository named: its output, or an error saying what failed."""
    done = run(repo, *args, cwd=cwd, env=env)
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip() or str(done.returncode)
        raise BadFile(f"git {' '.join(args)} failed: {said}", path=repo.top)
    out = done.stdout.decode("utf-8", "surrogateescape")
    return out.strip() if strip else out


def git_folder(repo: Repository) -> str:
    """The clone's own git folder (where `.git` names one for a linked work tree)."""
    if os.path.isdir(repo.git_dir) and not os.path.islink(repo.git_dir):
        return repo.git_dir
    return git(repo, "rev-parse", "--absolute-git-dir")


def kept_file(repo: Repository, name: str, *decided_by: bytes) -> str:
    """Where cwx keeps an answer worked out from the clone's history, for speed only: in
    its git folder, named by `name` and a digest of what decides it (the path it is of,
    the commits it was worked out from), so a history that moved is asked again."""
    from cwx.base import digests

    digest = digests.sha256(b"\0".join(decided_by))[:16]
    return os.path.join(git_folder(repo), "cwx", f"{name}-{digest}")


def read_kept(path: str) -> object:
    """The JSON a kept answer holds; None where there is none, or it is not JSON."""
    import json

    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except (OSError, ValueError):
        return None


def keep(path: str, answer: object) -> None:
    """An answer kept as JSON, at best: a clone whose git folder is read-only asks again."""
    import json

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as file:
            json.dump(answer, file)
    except OSError:
        pass


def write_whole(path: str, data: bytes) -> bool:
    """`data` kept in a file of cwx's in the git folder by a whole rewrite (a temporary
    renamed over it), never half; False where the folder cannot be written (the clone
    remembers less, and says nothing)."""
    temp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temp, "wb") as file:
            file.write(data)
        os.replace(temp, path)
    except OSError:
        return False
    return True


def rebasing(repo: Repository) -> bool:
    """Whether a rebase is under way in the clone (stopped on a clash, or between picks)."""
    folder = git_folder(repo)
    return any(os.path.isdir(os.path.join(folder, where))
               for where in ("rebase-merge", "rebase-apply"))


def tracks(path: str) -> bool:
    """Whether the clone `path` is in tracks the file (False outside git, or without git)."""
    repo = of(os.path.dirname(os.path.abspath(path)))
    if repo is None:
        return False
    name = os.path.relpath(os.path.realpath(os.path.dirname(os.path.abspath(path))), repo.top)
    spec = os.path.join(name, os.path.basename(path)) if name != "." else os.path.basename(path)
    try:
        done = run(repo, "ls-files", "--error-unmatch", "--", f":(literal){spec}")
    except BadFile:
        return False
    return done.returncode == 0


def inside(repo: Repository, path: str) -> bool:
    """Whether `path` (a real path) lies in the work tree outside its `.git`: a place a
    commit can reach, where cwx writes no hook and no setting."""
    top = repo.top.rstrip(os.sep) + os.sep
    git_dir = os.path.realpath(repo.git_dir).rstrip(os.sep) + os.sep
    path = path.rstrip(os.sep) + os.sep
    return path.startswith(top) and not path.startswith(git_dir)


def z_list(text: str) -> Sequence[str]:
    """git's `-z` output as its entries."""
    return [entry for entry in text.split("\0") if entry]
