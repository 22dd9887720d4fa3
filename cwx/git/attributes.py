"""The git attributes that decide how git merges, filters and writes a campaign's journal
and TOML files. A `.gitattributes` is a file of the campaign, and any clone may push one
that turns off cwx's merges (`merge=binary`) or has git write the files otherwise than it
commits them (`ident`, `filter`, `working-tree-encoding`). cwx's own lines go
in the clone's `.git/info/attributes`, which git reads above every `.gitattributes`, so
such a line has no effect in a clone cwx set up; where one still has, it is named at its
line (docs/rules.md, "The campaign ledger")."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from cwx.base.errors import CwxError
from cwx.base.record import Record
from cwx.git.repo import Repository, forget, git, run, z_list

JOURNAL = "journal.jsonl"
# What git does with the campaign's files in a clone cwx set up, whatever a .gitattributes
# says: the journal merges by keeping both sides' lines, the TOML files by adding up, and
# git writes each in the work tree as it commits it (no filter program, no `$Id$`, no other
# encoding; line endings as a clone's config asks: cwx reads a line ending in CRLF as the
# same line, and the journal's end in LF on every machine). `diff`: their changes shown as
# text, which cwx reads.
KEPT = ("diff", "-filter", "-ident", "-working-tree-encoding")
OURS = {JOURNAL: ("merge=union", "eol=lf", *KEPT), "*.toml": ("merge=cwx", *KEPT)}
HEAD = "# cwx: the campaign's own merges and files, above every .gitattributes (cwx git setup)"
# Those by which the file in the work tree is not the one committed.
REWRITING = ("filter", "ident", "working-tree-encoding")
ASKED = ("merge", "filter", "ident", "diff", "working-tree-encoding")
# What each attribute, where it is not cwx's, does to the campaign's files.
WHY = {
    "merge": "git then merges them its own way, not cwx's (the journal by keeping both "
             "sides' lines, characters and bags by adding up), so any two turns played at "
             "once stop the pull",
    "filter": "git then runs them through a filter program on each checkout and commit, "
              "so the files here are not the ones committed",
    "ident": "git then writes each `$Id$` in them expanded in the work tree and collapsed "
             "in each commit, so the files here are not the ones committed and read as a "
             "rewrite",
    "diff": "git then shows their changes as a binary file's: `git diff` shows none of "
            "them, nor can cwx read who changed a line",
    "working-tree-encoding": "git then writes them in the work tree in another encoding "
                             "than it commits, while cwx reads and writes UTF-8, so each "
                             "commit of them comes out garbled and reads as a rewrite",
}
BUILT_IN: dict[str, tuple[str, ...]] = {"binary": ("-diff", "-merge", "-text")}  # git's own


class Against(Record):
    """An attribute in effect for a campaign's file that is not cwx's: where it is set (an
    attributes file and line; None where git reads it from elsewhere) and its value."""

    path: str  # the campaign's file, from the top of the clone
    attribute: str
    value: str
    where: str | None
    line: int | None


def info_lines(folder: str) -> list[str]:
    """cwx's lines for the campaign in `folder` (from the top of the clone), as
    `.git/info/attributes` holds them."""
    return [HEAD, *(f"{_pattern(folder, name)} {' '.join(words)}"
                    for name, words in OURS.items())]


def _pattern(folder: str, name: str) -> str:
    """The pattern matching `name` anywhere in the campaign's folder, the folder's name
    taken as it is (a campaign may be called "camp [1]")."""
    if folder in ("", "."):
        return name
    escaped = re.sub(r"([\\*?\[])", r"\\\1", folder.replace(os.sep, "/"))
    pattern = f"/{escaped}/**/{name}"
    if not re.search(r'[\s"]', pattern):
        return pattern
    quoted = pattern.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + quoted.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r") + '"'


def info_file(clone: Repository) -> str:
    """The clone's own attributes file, which no commit can reach: in its `.git` where that
    is a folder sharing nothing (as repo.git_folder reads it); else where git says (a work
    tree's folder, or one naming another in `commondir`, shares info/ with that one)."""
    if os.path.isdir(clone.git_dir) and not os.path.islink(clone.git_dir) and \
            not os.path.lexists(os.path.join(clone.git_dir, "commondir")):
        return os.path.join(clone.git_dir, "info", "attributes")
    return os.path.join(clone.top, git(clone, "rev-parse", "--git-path", "info/attributes"))


def installed(clone: Repository, folder: str) -> bool:
    """Whether cwx's lines for the campaign are in the clone's info/attributes."""
    try:
        with open(info_file(clone), encoding="utf-8", errors="surrogateescape") as file:
            held = {line.strip() for line in file}
    except OSError:
        return False
    return all(line in held for line in info_lines(folder)[1:])


def install(clone: Repository, folder: str) -> bool:
    """cwx's lines for the campaign added to the clone's info/attributes (the clone's own
    lines kept, cwx's last, so they decide): whether anything was written."""
    if installed(clone, folder):
        return False
    path = info_file(clone)
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as file:
            old = file.read()
    except FileNotFoundError:
        old = ""
    ours = info_lines(folder)
    held = [line for line in old.splitlines() if line.strip() not in ours[1:]]
    while held and held[-1].strip() in ("", HEAD):
        held.pop()
    text = "\n".join([*held, *ours]) + "\n"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    scratch = f"{path}.cwx-tmp"
    with open(scratch, "w", encoding="utf-8", errors="surrogateescape") as file:
        file.write(text)
    os.replace(scratch, path)
    forget()  # what git said of the attributes, asked again (repo.one_state)
    return True


def campaign_files(clone: Repository, folder: str) -> list[str]:
    """The campaign's journal and TOML files git tracks, from the top of the clone (the
    journal and a character's name even before they are committed)."""
    inside = "" if folder in ("", ".") else folder.replace(os.sep, "/") + "/"
    listed = git(clone, "ls-files", "-z", "--", f":(literal){folder or '.'}", strip=False)
    found = [path for path in z_list(listed) if path.endswith((".toml", "/" + JOURNAL))
             or path == JOURNAL]
    return sorted({f"{inside}{JOURNAL}", f"{inside}character.toml", *found})


def against(clone: Repository, folder: str) -> list[Against]:
    """Each attribute git applies to the campaign's files that is not what cwx sets."""
    values = _in_effect(clone, campaign_files(clone, folder), ASKED)
    if values is None:
        return []  # git could not say (an attributes file it cannot read): nothing known
    found = []
    for path, held in values.items():
        for attribute in _not_ours(path, held):
            where, line = line_setting(clone.top, path, attribute)
            found.append(Against(path, attribute, held[attribute], where, line))
    return found


def _in_effect(clone: Repository, paths: list[str], names: Sequence[str]
               ) -> dict[str, dict[str, str]] | None:
    """Each of `paths`' attributes `names` as git applies them (one `git check-attr`);
    None where git could not say."""
    done = run(clone, "check-attr", "-z", "--stdin", *names,
               input=b"".join(path.encode("utf-8", "surrogateescape") + b"\0"
                              for path in paths))
    if done.returncode != 0:
        return None
    said = done.stdout.decode("utf-8", "surrogateescape").split("\0")
    values: dict[str, dict[str, str]] = {}
    for at in range(0, len(said) - 2, 3):
        values.setdefault(said[at], {})[said[at + 1]] = said[at + 2]
    return values


def _not_ours(path: str, held: dict[str, str]) -> list[str]:
    """The attributes of `held` (a file's, as git reads them) that are not cwx's; one
    left unspecified is git's default, as in a clone cwx never set up."""
    merge = "union" if path.endswith(JOURNAL) else "cwx"
    found = [name for name in ("filter", "ident", "working-tree-encoding")
             if held.get(name, "unspecified") not in ("unspecified", "unset")]
    if held.get("merge", "unspecified") not in (merge, "unspecified"):
        found.insert(0, "merge")
    if held.get("diff") == "unset":
        found.append("diff")
    return found


def shown(attribute: str, value: str) -> str:
    """An attribute as an attributes line writes it (`-merge`, `ident`, `filter=lfs`)."""
    return {"set": attribute, "unset": f"-{attribute}"}.get(value, f"{attribute}={value[:40]}")


def findings(clone: Repository, folder: str) -> list[CwxError]:
    """What `against` finds, as one finding for each attributes line: what it sets, for
    which files, what git then does, and the one next step. Paths are from the top of
    the clone; one set nowhere git's work tree holds is put at the journal."""
    from cwx.git.repo import rebasing

    lines: dict[tuple[str | None, int | None], list[Against]] = {}
    for one in against(clone, folder):
        lines.setdefault((one.where, one.line), []).append(one)
    if not lines:
        return []  # nothing to say: whether a merge or rebase stopped is not asked
    stopped = ", then `git rebase --abort` and cwx sync again" if rebasing(clone) else \
        ", then `git merge --abort` and cwx sync again" \
        if run(clone, "rev-parse", "-q", "--verify", "MERGE_HEAD").returncode == 0 else ""
    said = []
    # The journal's first: what stops a sync is told of the file every turn changes.
    for (where, line), found in sorted(lines.items(), key=lambda item: (
            not any(f.path.endswith(JOURNAL) for f in item[1]), item[0][1] or 0)):
        words = list(dict.fromkeys(shown(f.attribute, f.value) for f in found))
        files = sorted({"its TOML files" if f.path.endswith(".toml") else JOURNAL
                        for f in found}, reverse=True)  # the journal first
        why = "; ".join(dict.fromkeys(WHY[f.attribute] for f in found))
        at = where if where is not None else os.path.join(
            clone.top, folder if folder not in ("", ".") else "", JOURNAL)
        fix = ("`cwx git setup` puts cwx's own attributes in this clone's "
               ".git/info/attributes, above every .gitattributes line, and writes the files "
               f"as committed{stopped}")
        if where is not None:
            fix += ("; remove that attribute from this line and commit it, for clones cwx "
                    "never set up")
        elif installed(clone, folder):  # the clone's own line, below cwx's
            at, fix = info_file(clone), "remove that attribute from this file's lines " \
                "below cwx's (`git check-attr -a -- FILE` shows it in effect)"
        else:
            fix += " (`git check-attr -a -- FILE` shows where it is set)"
        said.append(CwxError(
            f"sets {', '.join(words)} for {' and '.join(files)}: {why}. {fix}",
            path=at, line=line))
    return said


# ---------------------------------------------------------------- where a line sets it


def line_setting(top: str, path: str, attribute: str) -> tuple[str | None, int | None]:
    """The .gitattributes file and line, from the clone's top down to the file's folder,
    whose pattern matches `path` and that sets `attribute` (itself or through a macro):
    the last such line of the deepest file, as git applies it; else any line that sets
    it; (None, None) where none does (git's own info/attributes, a config)."""
    macros = dict(BUILT_IN)
    setting: list[tuple[str, int, bool]] = []
    folders = [""]
    for part in os.path.dirname(path).split("/"):
        if part:
            folders.append(f"{folders[-1]}{part}/")
    for here in folders:
        name = os.path.join(top, here, ".gitattributes")
        try:
            with open(name, "rb") as file:
                text = file.read(1 << 16).decode("utf-8", "replace")
        except OSError:
            continue
        for number, raw in enumerate(text.splitlines(), 1):
            pattern, words = _split(raw)
            if pattern is None:
                continue
            if pattern.startswith("[attr]"):
                if not here:  # git reads macros from the top's file alone
                    macros[pattern[6:]] = tuple(words)
                continue
            if _touches(words, attribute, macros, set()):
                setting.append((name, number, _matches(pattern, path[len(here):])))
    chosen = [found for found in setting if found[2]] or setting[:1]
    return (chosen[-1][0], chosen[-1][1]) if chosen else (None, None)


def _split(raw: str) -> tuple[str | None, list[str]]:
    """An attributes line's pattern (unquoted) and its words; None for a comment or blank."""
    text = raw.strip()
    if not text or text.startswith("#"):
        return None, []
    if text.startswith('"'):
        end = re.match(r'"((?:[^"\\]|\\.)*)"', text)
        if end is None:
            return None, []
        pattern = re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), end[1])
        return pattern, text[end.end():].split()
    pattern, *words = text.split()
    return pattern, words


def _touches(words: list[str] | tuple[str, ...], attribute: str,
             macros: dict[str, tuple[str, ...]], seen: set[str]) -> bool:
    """Whether these words set, unset or unspecify `attribute`, or name a macro that does."""
    for word in words:
        name = word.lstrip("-!").split("=", 1)[0]
        if name == attribute:
            return True
        if name in macros and name not in seen and not word.startswith(("-", "!")) and \
                _touches(macros[name], attribute, macros, seen | {name}):
            return True
    return False


def _matches(pattern: str, path: str) -> bool:
    """Whether a gitattributes pattern matches `path` (from the attributes file's folder):
    a pattern without a slash matches the file's name at any depth."""
    if "/" not in pattern:
        import fnmatch  # a finding's line is looked for: no hook that finds none loads it

        return fnmatch.fnmatchcase(os.path.basename(path), pattern)
    regex = ""
    rest = pattern.lstrip("/")
    while rest:
        if rest.startswith("**/"):
            regex, rest = regex + "(?:.*/)?", rest[3:]
        elif rest.startswith("/**"):
            regex, rest = regex + "/.*", rest[3:]
        elif rest[0] == "*":
            regex, rest = regex + "[^/]*", rest[1:]
        elif rest[0] == "?":
            regex, rest = regex + "[^/]", rest[1:]
        elif rest[0] == "\\" and len(rest) > 1:
            regex, rest = regex + re.escape(rest[1]), rest[2:]
        elif rest[0] == "[" and (close := rest.find("]", 2)) > 0:
            inner = rest[1:close].replace("\\", "\\\\")
            regex, rest = regex + "[" + ("^" + inner[1:] if inner[0] in "!^" else inner) + \
                "]", rest[close + 1:]
        else:
            regex, rest = regex + re.escape(rest[0]), rest[1:]
    return re.fullmatch(regex, path, re.DOTALL) is not None


# ---------------------------------------------------------------- the files as committed


def as_committed(clone: Repository, paths: list[str]) -> dict[str, bytes]:
    """Each of these files (from the top of the clone) as git would commit it under the
    attributes in effect now, where that differs from the file here: what the table's
    history means by it, to be written back once cwx's attributes decide. A file a
    filter program runs on is left out (its clean side may be a stand-in, as LFS's is)."""
    present = [path for path in paths if os.path.isfile(os.path.join(clone.top, path))
               and "\n" not in path]  # --stdin-paths reads one a line
    if not present:
        return {}
    filtered = {path for path, held in (_in_effect(clone, present, ("filter",)) or {}).items()
                if held["filter"] not in ("unspecified", "unset")}
    present = [path for path in present if path not in filtered]
    hashed = run(clone, "hash-object", "-w", "--stdin-paths",
                 input="".join(f"{path}\n" for path in present).encode(
                     "utf-8", "surrogateescape"))
    ids = hashed.stdout.decode().split()
    if hashed.returncode != 0 or len(ids) != len(present):
        return {}
    found = {}
    for path, blob in zip(present, ids, strict=True):
        committed = run(clone, "cat-file", "blob", blob).stdout
        staged = run(clone, "cat-file", "blob", f":{path}")
        # The journal only grows: one that does not hold the staged one whole is no
        # conversion of it (a line written into it in another encoding), left as it is.
        if path.endswith(JOURNAL) and staged.returncode == 0 and \
                not committed.startswith(staged.stdout):
            continue
        with open(os.path.join(clone.top, path), "rb") as file:
            if file.read() != committed:
                found[path] = committed
    return found


def restat(clone: Repository, paths: list[str]) -> None:
    """Git's record of these files (from the top of the clone) brought up to date where
    they hold just what the index does: git takes a file whose size changed for changed,
    until it is added again (the same content, so nothing new is staged)."""
    literal = [f":(literal){path}" for path in paths]
    if not literal:
        return
    changed = set(z_list(git(clone, "diff", "--name-only", "-z", "--", *literal, strip=False)))
    same = [f":(literal){path}" for path in paths if path not in changed]
    if same:
        git(clone, "add", "--", *same)
