"""The GM's sealed number, for remote play: a hash commitment a player can check later.

The commitment is SHA-256 over the number and a 256-bit random nonce. With only
twelve possible numbers an unsalted hash would be guessed at once; the nonce
makes the commitment reveal nothing, and binding it to the number means the GM
cannot change their mind after the guess.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import NamedTuple

from cwx import clockworx
from cwx.errors import BadFile, BadValue

SEALED = ".cwx-sealed.json"
NONCE_BYTES = 32  # 256 bits; the issue asks for at least 128


class Seal(NamedTuple):
    target: int
    nonce: str  # hex
    commitment: str  # hex SHA-256
    revealed: bool = False


def commitment(target: int, nonce: str) -> str:
    return hashlib.sha256(f"cwx-seal-v1:{target}:{nonce}".encode()).hexdigest()


def seal(target: int) -> Seal:
    """Seal `target` under a fresh random nonce."""
    clockworx.check_position(target, "the sealed number")
    nonce = secrets.token_hex(NONCE_BYTES)
    return Seal(target, nonce, commitment(target, nonce))


def verified(commitment_hex: str, target: int, nonce: str) -> bool:
    """Whether `target` and `nonce` are the ones the commitment was made from."""
    clockworx.check_position(target, "--target")
    return hmac.compare_digest(commitment(target, nonce), commitment_hex.strip().lower())


def encode(sealed: Seal) -> str:
    return json.dumps({"target": sealed.target, "nonce": sealed.nonce,
                       "commitment": sealed.commitment, "revealed": sealed.revealed},
                      indent=2) + "\n"


def decode(raw: bytes, path: str) -> Seal:
    """A sealed file, checked: a file altered since it was sealed is an error."""
    try:
        data = json.loads(raw)
        sealed = Seal(data["target"], data["nonce"], data["commitment"], data["revealed"])
    except (ValueError, KeyError, TypeError):
        raise BadFile("is not a sealed number cwx wrote; seal a new one with "
                      "cwx clock pick --seal --force", path=path) from None
    try:
        intact = verified(sealed.commitment, sealed.target, sealed.nonce)
    except (BadValue, AttributeError, TypeError):
        intact = False
    if not intact or not isinstance(sealed.revealed, bool):
        raise BadFile("has been altered: its number does not match its commitment",
                      path=path)
    return sealed
