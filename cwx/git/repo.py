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
import subprocess
from collections.abc import Mapping, Sequence

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
    """git with this repository named, its output as bytes, whatever its status."""
    environment = {k: v for k, v in os.environ.items() if k not in _CHOSEN_BY_CWX}
    environment.update(env or {})
    try:
        return subprocess.run(["git", "--git-dir", repo.git_dir, "--work-tree", repo.top,
                               *_SAFE, *args], cwd=cwd or repo.top, capture_output=True,
                              env=environment, input=input)
    except FileNotFoundError:
        raise BadFile("git is not installed; cwx needs it for this", path=repo.top) from None


def reader(repo: Repository, *args: str) -> subprocess.Popen[bytes]:
    """git with this repository named, started to be talked to (`cat-file --batch`): its
    standard input and output are pipes; the caller closes its input and waits."""
    environment = {k: v for k, v in os.environ.items() if k not in _CHOSEN_BY_CWX}
    try:
        return subprocess.Popen(["git", "--git-dir", repo.git_dir, "--work-tree", repo.top,
                                 *_SAFE, *args], cwd=repo.top, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                env=environment)
    except FileNotFoundError:
        raise BadFile("git is not installed; cwx needs it for this", path=repo.top) from None


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
