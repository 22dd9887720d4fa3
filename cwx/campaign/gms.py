"""The GMs in force for a campaign (docs/rules.md, "The sealed number"): campaign.toml's
gm as far as git proves a GM changed it (gmlist.py; keyring.py where the table lists
keys), the written list where there is no git. The refusals of a GM's move and check's
findings hold a player to the same list."""

from __future__ import annotations

from cwx.base.errors import CwxError
from cwx.journal.lines import same_player

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from cwx.campaign.folder import Campaign
    from cwx.git import gmlist

GMs = tuple[str, ...] | None  # None: no gm, anyone seals


def standing(root: str, written: GMs) -> gmlist.Standing:
    """The GMs in force at HEAD of the campaign at `root` whose campaign.toml writes
    `written`: by the GMs' keys where the table lists them, else by commits' authors."""
    from cwx.git import gmlist, keyring, signing

    if signing.listed_in(root):
        held = keyring.gms_of(root)  # by the GMs' keys
        if held is None or written is None or \
                held == frozenset(gm.casefold() for gm in written):
            return gmlist.Standing(written)
        return gmlist.Standing(tuple(gm for gm in written if gm.casefold() in held) or
                               tuple(sorted(held)))
    return gmlist.standing(root, written)


def in_force(camp: Campaign) -> tuple[GMs, GMs]:
    """(the GMs in force, campaign.toml's gm as written) of `camp`; outside a campaign,
    both None (anyone)."""
    if camp.root is None:
        return None, None
    written = camp.settings().gm
    try:
        return standing(camp.root, written).gms, written
    except CwxError:  # git cannot answer (not installed): the written list
        return written, written


def said(gms: GMs, written: GMs) -> str:
    """The GMs a player is held to, and, where campaign.toml names others, why."""
    if written == gms:
        return f"campaign.toml: gm = {list(gms or ())}"
    return (f"the GMs in force: gm = {list(gms or ())}; campaign.toml's gm = "
            f"{list(written or ())} holds a change no GM made")


def told(gms: GMs, written: GMs) -> str:
    """`said`, as a refusal tells it: the list alone where campaign.toml writes it."""
    return f"gm = {list(gms or ())}" if written == gms else said(gms, written)


def accepted(player: str | None, gms: GMs, written: GMs) -> str:
    """What a GM does where the table accepts a player's GM move: add the player to gm;
    where campaign.toml names the player already, by a change no GM made, write the GMs in
    force back first (a GM's commit counts only what it changes in gm: gmlist.py)."""
    if player is not None and written is not None and is_gm(player, written) and \
            not is_gm(player, gms):
        return (f"a GM writes gm = {list(gms or ())} back into campaign.toml and commits it, "
                f"then adds {player} in a commit of their own")
    return "a GM adds the player to gm"


def anyones(root: str, moves: list[tuple[str, str | None]]) -> set[str]:
    """The ids of `moves` (a seal, reveal or curse: its id and player) that were anyone's
    or their player's when their lines arrived: held by the journal when the table first
    named its GMs (firstgm.py, as the supply's are), or brought by a commit where the GMs
    in force named their player (gmlist.py; where the table lists keys, today's judge)."""
    if not moves:
        return set()
    from cwx.git import firstgm, gmlist, signing

    held = firstgm.held_before(root, [id_ for id_, _ in moves])
    left = [(id_, player) for id_, player in moves if id_ not in held and player is not None]
    if not left or signing.listed_in(root):
        return held
    came = firstgm.arrivals(root, [id_ for id_, _ in left])
    then = gmlist.then(root, set(came.values()))
    return held | {id_ for id_, player in left if id_ in came and came[id_] in then and
                   is_gm(player, then[came[id_]])}


def is_gm(player: str | None, gms: GMs) -> bool:
    """Whether `player` may seal and reveal: named in `gms` (campaign.toml's gm, or the
    GMs in force; matched as --player is, ignoring case), or any player where it names
    no GM (None)."""
    return gms is None or any(same_player(player, gm) for gm in gms)
