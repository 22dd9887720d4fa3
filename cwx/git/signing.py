"""Signed turns (docs/rules.md, "Signed turns"): the players' SSH public keys listed in
campaign.toml's `[keys]`, `cwx sync` signing its commits with git's own SSH signing, and
the commit each journal line arrived in (keyring.py proves them for `cwx check --signed`)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from cwx.base.errors import BadFile, CwxError
from cwx.git import repo, versions
from cwx.git.repo import Repository
from cwx.journal import lines as journal

# The key types OpenSSH signs with (ssh-keygen -Y sign); a DSA key signs nothing now.
TYPES = ("ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
         "ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com",
         "sk-ecdsa-sha2-nistp256@openssh.com")
EXAMPLE = 'like Alice = "ssh-ed25519 AAAAC3Nza… alice@laptop" (the line of her .pub file)'
MAX_NAME = 100
SHOWN = 100  # lines named one by one; past that, counted


def keys_of(root: str) -> dict[str, str]:
    """campaign.toml's `[keys]`: each player's name and public key ("TYPE BASE64"),
    checked; none when it lists none. A key that is no SSH public key is an error there."""
    found, problems = _read(root)
    if problems:
        raise problems[0]
    return found


def listed_in(root: str) -> bool:
    """Whether campaign.toml lists any key (signed turns are on), well written or not."""
    found, problems = _read(root)
    return bool(found or problems)


def problems_of(root: str) -> list[CwxError]:
    """What is wrong with campaign.toml's `[keys]` (for `cwx check`)."""
    return _read(root)[1]


def _read(root: str) -> tuple[dict[str, str], list[CwxError]]:
    from cwx.base.places import SETTINGS
    from cwx.toml import tomlread

    path = os.path.join(root, SETTINGS)
    try:
        raw = tomlread.read_bytes(path)
    except CwxError:
        return {}, []  # campaign.toml's own problem, which check names already
    return listed(raw, path)


def listed(raw: bytes, path: str) -> tuple[dict[str, str], list[CwxError]]:
    """The players' keys a campaign.toml's text lists (the ones that are keys), and what
    is wrong with the others."""
    from cwx.toml import tomlread

    try:
        table = tomlread.parse(raw, path).get("keys")
    except CwxError:
        return {}, []
    if table is None:
        return {}, []
    if not isinstance(table, dict):
        return {}, [BadFile(f"keys must be a table of players' SSH public keys, {EXAMPLE}",
                            path=path, line=tomlread.line_of(raw, "keys"), key="keys")]
    found: dict[str, str] = {}
    said: list[CwxError] = []
    for name, given in table.items():
        key = f"keys.{name}"
        why = _wrong(name, given, found)
        if why:
            said.append(BadFile(why, path=path, line=tomlread.line_of(raw, key), key=key))
        else:
            found[name.strip()] = " ".join(given.split()[:2])
    return found, said


def _wrong(name: str, given: object, found: Mapping[str, str]) -> str | None:
    """Why a `[keys]` entry is no player's SSH public key, or None."""
    if not name.strip() or not name.isprintable() or len(name) > MAX_NAME:
        return f"a player's name is printable text of 1 to {MAX_NAME} characters"
    if any(other.casefold() == name.strip().casefold() for other in found):
        return "names a player listed already (names match whatever their case)"
    parts = given.split() if isinstance(given, str) else []
    if len(parts) < 2 or parts[0] not in TYPES:
        return f"is not an SSH public key, {EXAMPLE}"
    import base64  # and struct: only for a table that lists keys
    import binascii

    try:
        blob = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        return f"is not an SSH public key (its key is not base64), {EXAMPLE}"
    kind = parts[0].encode()
    # The key's own bytes name its type first: a key cut short, or of another type, is not.
    if blob[:4] != len(kind).to_bytes(4, "big") or blob[4:4 + len(kind)] != kind:
        return f"is not a whole {parts[0]} key (cut short, or of another type?), {EXAMPLE}"
    return None


def named(keys: Mapping[str, str], player: str | None) -> str | None:
    """The name `[keys]` lists `player` under (matched whatever the case), or None."""
    if player is None:
        return None
    wanted = player.strip().casefold()
    return next((name for name in keys if name.casefold() == wanted), None)


# ---------------------------------------------------------------- cwx sync signs


def options(root: str, clone: Repository, player: str) -> list[str]:
    """The git options (`-c`, per command: never a config file) that make a commit signed
    by `player`'s key, where campaign.toml lists keys; none where it lists none. Refused,
    saying how, where it lists keys but none for `player`, or no private key is found."""
    keys = keys_of(root)
    if not keys:
        return []
    name = named(keys, player)
    where = os.path.join(root, "campaign.toml")
    if name is None:
        raise BadFile(f"lists players' keys, none for {player}, so a turn of theirs would not "
                      f"count as theirs: add yours under [keys] ({EXAMPLE}; `ssh-keygen -t "
                      "ed25519` makes one), commit it (a GM commits it, signed, for a name "
                      "that has played already), then cwx sync again", path=where)
    private = _private_key(clone, keys[name])
    if private is None:
        raise BadFile(f"lists {name}'s key, and cwx found no private key of it to sign with "
                      "(in CWX_SIGNING_KEY, git's user.signingkey or ~/.ssh): set "
                      "CWX_SIGNING_KEY to its file (`export CWX_SIGNING_KEY=~/.ssh/id_ed25519`), "
                      "then cwx sync again", path=where)
    given, source = private
    signs_as = _public_of(given)
    # A key listed for the player that is not theirs (a change of [keys] they did not
    # make, or the wrong key file given): said before anything is signed or pushed.
    if signs_as is not None and signs_as != keys[name]:
        raise BadFile(f"lists another key for {name} than the one you sign with ({source}): "
                      "if you did not change it, someone did (`git log -p campaign.toml` "
                      "says who; `cwx check --signed` says whether it counts), so write yours "
                      "back under [keys]; else sign with the key it lists (CWX_SIGNING_KEY="
                      "its private key's file); then cwx sync again", path=where)
    return ["-c", "gpg.format=ssh", "-c", f"user.signingkey={given}",
            "-c", "commit.gpgsign=true"]


def _public_of(given: str) -> str | None:
    """The public key ("TYPE BASE64") git signs with for user.signingkey `given`: a
    `key::` literal, a .pub file, the .pub beside a private key, or what ssh-keygen
    derives from an unencrypted private key; None where it cannot be told."""
    import subprocess

    if given.startswith("key::"):
        return " ".join(given[5:].split()[:2])
    for path in (given, f"{given}.pub") if given.endswith(".pub") else (f"{given}.pub",):
        try:
            with open(path, encoding="utf-8", errors="replace") as file:
                text = file.read(16384)
        except OSError:
            continue
        if text.split()[:1] and text.split()[0] in TYPES:
            return " ".join(text.split()[:2])
    try:
        done = subprocess.run(["ssh-keygen", "-y", "-P", "", "-f", given], capture_output=True,
                              stdin=subprocess.DEVNULL, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    text = done.stdout.decode("utf-8", "replace")
    return " ".join(text.split()[:2]) if done.returncode == 0 and text.split() else None


def _private_key(clone: Repository, public: str) -> tuple[str, str] | None:
    """The file of the private key of `public`, and where it was found: CWX_SIGNING_KEY,
    else this clone's own git user.signingkey, else the key in ~/.ssh whose .pub is
    `public`."""
    given = os.environ.get("CWX_SIGNING_KEY")
    if given:
        return os.path.expanduser(given), "CWX_SIGNING_KEY"
    done = repo.run(clone, "config", "--get", "user.signingkey")
    if done.returncode == 0 and done.stdout.strip():
        return done.stdout.decode("utf-8", "replace").strip(), "git's user.signingkey"
    folder = os.path.expanduser("~/.ssh")
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return None
    for name in names:
        if not name.endswith(".pub"):
            continue
        try:
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as file:
                text = file.read(16384)
        except OSError:
            continue
        private = os.path.join(folder, name[:-4])
        if " ".join(text.split()[:2]) == public and os.path.isfile(private):
            return private, private
    return None


# ---------------------------------------------------------------- cwx check --signed


def arrivals(clone: Repository, path: str) -> list[tuple[bytes, str]]:
    """Each line of HEAD's journal, with the commit it arrived in: the first commit (oldest
    first) of HEAD's history whose journal held it and whose parents' journals did not."""
    read = versions.Blobs(clone)
    try:
        head_blob = read.ids(["HEAD"], path).get("HEAD", "")
        if not head_blob:
            return []
        lines = journal.git_lines(read(head_blob))
        first = _first_added(clone, path, None, set(lines), read)
    finally:
        read.close()
    return [(line, first.get(line, "")) for line in lines]


def arrivals_since(clone: Repository, path: str, before: str) -> list[tuple[int, bytes, str]]:
    """Each line of HEAD's journal that the journal at `before` did not hold (what a pull
    brought): its number, the line, and the first commit (oldest first) of HEAD's history
    past `before` that added it ("" where none did). Only that history is read."""
    read = versions.Blobs(clone)
    try:
        blobs = read.ids(["HEAD", before], path)
        head_blob = blobs.get("HEAD", "")
        if not head_blob or blobs.get(before) == head_blob:
            return []
        had = set(journal.git_lines(read(blobs.get(before, ""))))
        lines = journal.git_lines(read(head_blob))
        wanted = {line for line in lines if line not in had}
        first = _first_added(clone, path, before, wanted, read) if wanted else {}
    finally:
        read.close()
    return [(number, line, first.get(line, ""))
            for number, line in enumerate(lines, 1) if line in wanted]


def _first_added(clone: Repository, path: str, since: str | None, wanted: set[bytes],
                 read: versions.Blobs) -> dict[bytes, str]:
    """Each of the `wanted` lines, with the first commit (oldest first) of HEAD's history
    (past `since`) whose journal held it and whose parents' journals did not."""
    listed = list(versions.walked(clone, path, since))
    blobs_of = read.ids(sorted({c for commit, parents in listed for c in (commit, *parents)}),
                        path)
    first: dict[bytes, str] = {}
    for commit, parents in listed:
        new = read(blobs_of.get(commit, ""))
        olds = [read(blobs_of.get(parent, "")) for parent in parents]
        if len(olds) == 1 and new.startswith(olds[0]) and olds[0].endswith(b"\n"):
            added = journal.git_lines(new[len(olds[0]):])
        else:
            had = {line for old in olds for line in journal.git_lines(old)}
            added = [line for line in journal.git_lines(new) if line not in had]
        for line in added:
            if line in wanted and line not in first:
                first[line] = commit
    return first
