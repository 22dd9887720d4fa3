"""SHA-256 and BLAKE2b without importing hashlib, which loads OpenSSL first: 11M
instructions, 8% of a post-commit hook (which digests the journal's path to name what it
keeps) and 4% of a stateful resolve (a redo record's mark), for digests CPython builds
in itself. These are the builtin modules hashlib falls back to, each loaded when first
asked for; hashlib's own where a Python lacks them. The digests are the same either way
(tests/test_digests.py, on every Python CI runs)."""

from __future__ import annotations

import sys
from functools import cache

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any


def sha256(data: bytes) -> str:
    """`hashlib.sha256(data).hexdigest()`."""
    return str(_sha256()(data).hexdigest())


def blake2b(data: bytes, *, key: bytes = b"", digest_size: int = 64) -> str:
    """`hashlib.blake2b(data, key=key, digest_size=digest_size).hexdigest()`."""
    return str(_blake2b()(data, key=key, digest_size=digest_size).hexdigest())


@cache
def _sha256() -> Any:
    try:
        if sys.version_info >= (3, 12):
            from _sha2 import sha256
        else:
            from _sha256 import sha256  # type: ignore[import-not-found]
    except ImportError:
        from hashlib import sha256
    return sha256


@cache
def _blake2b() -> Any:
    try:
        from _blake2 import blake2b
    except ImportError:
        from hashlib import blake2b
    return blake2b
