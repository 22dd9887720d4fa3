"""cwx/base/digests.py: SHA-256 and BLAKE2b from CPython's builtin modules, to spare a
hook and a command OpenSSL's loading, are hashlib's digests, on every Python CI runs."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from cwx.base import digests

TEXTS = [b"", b"journal.jsonl", b"after\0camp/journal.jsonl", "é\0".encode() * 1000,
         bytes(range(256))]


@pytest.mark.parametrize("text", TEXTS)
def test_the_digests_are_hashlibs(text: bytes) -> None:
    assert digests.sha256(text) == hashlib.sha256(text).hexdigest()
    assert digests.blake2b(text) == hashlib.blake2b(text).hexdigest()
    assert digests.blake2b(text, digest_size=12) == \
        hashlib.blake2b(text, digest_size=12).hexdigest()
    assert digests.blake2b(text, key=b"k" * 32, digest_size=32) == \
        hashlib.blake2b(text, key=b"k" * 32, digest_size=32).hexdigest()


def test_blake2b_is_hashlibs_own_function() -> None:
    # hashlib gives the builtin module's blake2b itself (OpenSSL's is never taken): the
    # very function, not one that agrees on the texts above.
    assert digests._blake2b() is hashlib.blake2b


def test_a_python_without_the_builtin_modules_has_hashlibs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("_sha2", "_sha256", "_blake2"):
        monkeypatch.setitem(sys.modules, name, None)  # an import of it fails
    monkeypatch.setattr(digests, "_sha256", digests._sha256.__wrapped__)
    monkeypatch.setattr(digests, "_blake2b", digests._blake2b.__wrapped__)
    assert digests._sha256() is hashlib.sha256
    assert digests._blake2b() is hashlib.blake2b
    assert digests.sha256(b"x") == hashlib.sha256(b"x").hexdigest()


def test_no_digest_loads_hashlib() -> None:
    script = ("import sys\nfrom cwx.base import digests\n"
              "digests.sha256(b'x'), digests.blake2b(b'x', key=b'k', digest_size=32)\n"
              "print(sorted({'hashlib', '_hashlib'} & set(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
