"""The sealed number: a commitment that reveals nothing, revealed once, checked by anyone."""

from __future__ import annotations

import json
import stat
import tomllib
from pathlib import Path

from cwx.campaign import seal
from tests.helpers import cwx, journal

SEALED = seal.FILE


def test_pick_seal_prints_only_a_commitment(tmp_path: Path) -> None:
    ran = cwx("clock", "pick", "--seal", "--target", 7, "--campaign", tmp_path, "--json")
    # The one shape of clock pick: the number's key is there, null.
    assert ran.status == 0 and ran.json["target"] is None and set(ran.json) == {"target",
                                                                                "commitment"}
    assert len(ran.json["commitment"]) == 64
    assert "7" not in cwx("clock", "pick", "--seal", "--target", 7, "--force",
                          "--campaign", tmp_path).stdout.split("commitment")[0]
    # The journal, public in git, holds the commitment and never the number.
    assert all("nonce" not in json.dumps(e) for e in journal(tmp_path))


def test_the_sealed_file_is_for_the_gms_eyes_only(tmp_path: Path) -> None:
    cwx("clock", "pick", "--seal", "--campaign", tmp_path)
    assert (tmp_path / SEALED).stat().st_mode & 0o777 == 0o600


def test_the_same_number_never_gives_the_same_commitment(tmp_path: Path) -> None:
    # Twelve numbers: an unsalted hash would be recovered by trying them all.
    commitments = {seal.new(7).commitment for _ in range(50)}
    assert len(commitments) == 50
    sealed = seal.new(7)
    assert not any(seal.verified(sealed.commitment, n, "0" * 64) for n in range(1, 13))
    assert len(bytes.fromhex(sealed.nonce)) * 8 >= 128


def test_reveal_shows_the_number_and_verifies(tmp_path: Path) -> None:
    commitment = cwx("clock", "pick", "--seal", "--campaign", tmp_path, "--json").json["commitment"]
    ran = cwx("clock", "reveal", "--campaign", tmp_path, "--json")
    assert ran.status == 0
    assert set(ran.json) == {"target", "nonce", "commitment", "verified"}
    assert ran.json["commitment"] == commitment and ran.json["verified"] is True
    checked = cwx("clock", "verify", "--commitment", commitment, "--target", ran.json["target"],
                  "--nonce", ran.json["nonce"], "--json")
    assert checked.status == 0 and checked.json["verified"] is True
    wrong = ran.json["target"] % 12 + 1
    lie = cwx("clock", "verify", "--commitment", commitment, "--target", wrong,
              "--nonce", ran.json["nonce"])
    assert lie.status == 1 and "does not match the commitment" in lie.stdout
    lie = cwx("clock", "verify", "--commitment", commitment, "--target", wrong,
              "--nonce", ran.json["nonce"], "--json")
    assert lie.status == 1 and lie.json["verified"] is False


def test_a_tampered_sealed_file_is_an_error(tmp_path: Path) -> None:
    cwx("clock", "pick", "--seal", "--target", 3, "--campaign", tmp_path)
    path = tmp_path / SEALED
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "target": 4}))
    ran = cwx("clock", "reveal", "--campaign", tmp_path)
    assert ran.status == 2 and "has been altered" in ran.error
    path.write_text("{not json")
    assert "is not a sealed number" in cwx("clock", "reveal", "--campaign", tmp_path).error


def test_a_missing_sealed_file_is_an_error(tmp_path: Path) -> None:
    ran = cwx("clock", "reveal", "--campaign", tmp_path)
    assert ran.status == 2 and "no sealed number here" in ran.error


def test_an_unrevealed_seal_is_not_replaced_without_force(tmp_path: Path) -> None:
    cwx("clock", "pick", "--seal", "--campaign", tmp_path)
    before = (tmp_path / SEALED).read_bytes()
    ran = cwx("clock", "pick", "--seal", "--campaign", tmp_path)
    assert ran.status == 2 and "--force" in ran.error
    assert (tmp_path / SEALED).read_bytes() == before


def test_resolve_against_the_sealed_number_reveals_it(campaign: Path) -> None:
    cwx("clock", "pick", "--seal", "--target", 4, "--campaign", campaign)
    ran = cwx("clock", "resolve", "--sealed", "--guess", 3, "--trait", "Repair",
              "--char", campaign / "kris.toml", "--json")
    assert ran.status == 0
    assert ran.json["target"] == 4 and ran.json["xp"] == 2 and ran.json["verified"] is True
    assert tomllib.loads((campaign / "kris.toml").read_text())["xp"] == 2
    again = cwx("clock", "resolve", "--sealed", "--guess", 4, "--char", campaign / "kris.toml")
    assert again.status == 2 and "already revealed" in again.error


def test_pick_seal_refuses_a_seed() -> None:
    assert "predictable" in cwx("clock", "pick", "--seal", "--seed", 1).error


# ---------------------------------------------------------------- its states cannot be undone by a file


def test_a_new_seal_is_readable_by_its_owner_only_whatever_the_old_file_was(
        tmp_path: Path) -> None:
    path = tmp_path / seal.FILE
    assert cwx("clock", "pick", "--seal", "--campaign", tmp_path).status == 0
    assert cwx("clock", "reveal", "--campaign", tmp_path).status == 0
    path.chmod(0o644)
    assert cwx("clock", "pick", "--seal", "--campaign", tmp_path).status == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    assert cwx("clock", "pick", "--seal", "--force", "--campaign", tmp_path).status == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_seal_is_never_written_through_a_planted_link(tmp_path: Path) -> None:
    public = tmp_path / "public.txt"
    public.write_text("world-readable\n")
    public.chmod(0o644)
    (tmp_path / seal.FILE).symlink_to(public)
    ran = cwx("clock", "pick", "--seal", "--force", "--campaign", tmp_path)
    assert ran.status == 2 and "symbolic link" in ran.error
    assert public.read_text() == "world-readable\n"


def test_a_revealed_number_flipped_back_by_hand_is_not_resolved_against(
        tmp_path: Path) -> None:
    assert cwx("clock", "pick", "--seal", "--target", 5, "--campaign", tmp_path).status == 0
    assert cwx("clock", "reveal", "--campaign", tmp_path).status == 0
    path = tmp_path / seal.FILE
    path.write_text(path.read_text().replace('"revealed": true', '"revealed": false'))
    ran = cwx("clock", "resolve", "--sealed", "--guess", 5, "--campaign", tmp_path)
    assert ran.status == 2 and "was revealed" in ran.error


def test_an_unrevealed_seal_resolves_once(tmp_path: Path) -> None:
    assert cwx("clock", "pick", "--seal", "--target", 5, "--campaign", tmp_path).status == 0
    first = cwx("clock", "resolve", "--sealed", "--guess", 5, "--campaign", tmp_path, "--json")
    assert first.status == 0 and first.json["success"] is True
    again = cwx("clock", "resolve", "--sealed", "--guess", 5, "--campaign", tmp_path)
    assert again.status == 2 and "already revealed" in again.error


def test_a_reveal_journaled_from_any_character_folder_is_witnessed(tmp_path: Path) -> None:
    from tests.helpers import EXAMPLES

    gm, b, c = tmp_path / "gm", tmp_path / "b", tmp_path / "c"
    for folder in (gm, b, c):
        folder.mkdir()
    for folder in (b, c):
        (folder / "kris.toml").write_bytes((EXAMPLES / "kris.toml").read_bytes())
    assert cwx("clock", "pick", "--seal", "--target", 5, "--campaign", gm).status == 0
    assert cwx("clock", "resolve", "--sealed", "--guess", 5, "--campaign", gm,
               "--char", b / "kris.toml").status == 0
    path = gm / SEALED
    path.write_text(path.read_text().replace('"revealed": true', '"revealed": false'))
    ran = cwx("clock", "resolve", "--sealed", "--guess", 5, "--campaign", gm,
              "--char", c / "kris.toml")
    assert ran.status == 2 and "was revealed" in ran.error


def test_a_sealed_number_others_can_read_is_not_resolved_against(tmp_path: Path) -> None:
    # A file git brought (git makes no 0600 file) or a copy: someone else may know it.
    cwx("clock", "pick", "--seal", "--target", 7, "--campaign", tmp_path)
    (tmp_path / SEALED).chmod(0o644)
    ran = cwx("clock", "resolve", "--sealed", "--guess", 7, "--score", 3, "--campaign", tmp_path)
    assert ran.status == 2 and "can be read by others (mode 644)" in ran.error
    assert cwx("clock", "reveal", "--campaign", tmp_path).status == 2
    assert cwx("clock", "pick", "--seal", "--force", "--campaign", tmp_path).status == 0
    assert (tmp_path / SEALED).stat().st_mode & 0o777 == 0o600


def test_the_seal_published_last_is_the_gms_after_a_line_far_ahead(tmp_path: Path) -> None:
    # A seal that leapt years ahead of the clocks is no GM's; one the journal's clock
    # stamped after such a line (the GM sealed after pulling it) is the one published.
    path = tmp_path / "journal.jsonl"

    def sealed(n: int, at: str, commitment: str) -> None:
        with open(path, "a") as file:
            file.write(json.dumps({"v": 2, "id": f"{n:016x}", "at": at,
                                   "command": seal.SEALING, "result": {
                                       "commitment": commitment}, "changes": []}) + "\n")

    sealed(1, "2026-12-02T10:00:00.000Z", "a" * 64)
    sealed(2, "2031-06-01T12:00:00.000Z", "b" * 64)
    assert seal.published(str(path)) == "a" * 64
    sealed(3, "2031-06-01T12:00:00.001Z", "c" * 64)
    assert seal.published(str(path)) == "c" * 64


def test_a_seal_taken_back_publishes_nothing(tmp_path: Path) -> None:
    # A seal forged over a waiting guess, taken back by an undo (check's advice): a new
    # guess goes against the number before it again, and an undo of that undo brings it back.
    path = tmp_path / "journal.jsonl"

    def line(n: int, command: str, **more: object) -> None:
        with open(path, "a") as file:
            file.write(json.dumps({"v": 2, "id": f"{n:016x}", "at": f"2026-12-02T10:00:0{n}.000Z",
                                   "command": command, "result": {}, "changes": [],
                                   **more}) + "\n")

    line(1, seal.SEALING, result={"commitment": "a" * 64})
    line(2, seal.SEALING, result={"commitment": "b" * 64})
    assert seal.published(str(path)) == "b" * 64
    line(3, "undo", undoes=f"{2:016x}")
    assert seal.published(str(path)) == "a" * 64
    line(4, "undo", undoes=f"{3:016x}")
    assert seal.published(str(path)) == "b" * 64
