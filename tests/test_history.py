"""The journal's one query layer (cwx/journal/history.py) and what it answers: `cwx xp history`,
every change to a character's experience, those other events made included."""

from __future__ import annotations

from pathlib import Path

from cwx.journal import history
from cwx.journal import lines as journal


def test_the_state_at_an_event_is_the_ledger_folded_to_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    made = journal.new("char new", [journal.Edit("k.toml", None, None, None, created=True,
                                                 text='name = "K"\nsystem = "clockworx"\n'
                                                      'xp = 2\n[traits]\nA = 4\n')])
    moves = [journal.new("clock resolve", [journal.Edit("k.toml", "xp", 2 + n, 3 + n)],
                         file="k.toml")._replace(at=f"2099-01-01T00:00:0{n + 1}.000Z")
             for n in range(3)]
    made = made._replace(at="2099-01-01T00:00:00.000Z")
    path.write_bytes(b"".join(journal.encode(e) for e in (made, *moves)))
    with history.opened(str(path)) as read:
        assert read.state("k.toml", moves[0])["xp"].value == 3
        assert read.state("k.toml")["xp"].value == 5
        assert [step.after for step in read.steps("k.toml", "xp")] == [2, 3, 4, 5]
        assert [e.id for e in read.touching("k.toml")] == [made.id] + [m.id for m in moves]
