"""ClockWorx rules (docs/rules.md C1–C7), as pure functions over plain values.

Results are immutable records (cwx/base/record.py: as frozen as a dataclass, for a small part
of its start-up cost, which every command pays)."""

from __future__ import annotations

from collections.abc import Mapping

from cwx.base import traitnames
from cwx.base.errors import BadValue, RuleForbids, shown
from cwx.base.record import Record

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from random import Random

CLOCK = 12  # positions on the clock face, 1..12
MAX_SCORE = 6
BUDGET = 12  # points to share between traits at creation
MIN_TRAITS = 3
NEW_TRAIT_COST = 12


class ClockOutcome(Record):
    """One resolved action: where the guess landed and what it earned."""

    target: int
    guess: int
    distance: int
    trait: str | None
    score: int | None
    success: bool
    critical: bool
    xp: int

    @property
    def inside(self) -> int:
        """Points left over after walking to the target (they go inside it)."""
        if self.score is None or not self.success:
            return 0
        return self.score - self.distance


class Advancement(Record):
    """A trait bought or raised with experience."""

    trait: str
    score: int
    cost: int
    xp_total: int
    new: bool


def check_position(value: int, what: str) -> int:
    """A target or guess must be a position on the clock face (C2)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= CLOCK:
        raise BadValue(f"{what} must be a whole number from 1 to {CLOCK}, not {shown(value)}")
    return value


def check_score(value: object, what: str = "score") -> int:
    """A trait score is a whole number 1–6 (C1)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SCORE:
        raise BadValue(f"{what} must be a whole number from 1 to {MAX_SCORE}, not {shown(value)}")
    return value


def distance(target: int, guess: int) -> int:
    """Steps around the clock face the shorter way (C3): 12 and 1 are neighbours."""
    apart = abs(target - guess) % CLOCK
    return min(apart, CLOCK - apart)


def resolve(target: int, guess: int, score: int | None, trait: str | None = None) -> ClockOutcome:
    """Resolve one action (C4 with a trait score, C5 without)."""
    check_position(target, "target")
    check_position(guess, "guess")
    steps = distance(target, guess)
    if score is None:
        exact = steps == 0
        return ClockOutcome(target, guess, steps, trait, None, exact, False, 0)
    check_score(score)
    success = steps <= score
    critical = steps == 0
    if critical:
        xp = 2 * score
    elif success:
        xp = score - steps
    else:
        xp = 0
    return ClockOutcome(target, guess, steps, trait, score, success, critical, xp)


def pick(rng: Random) -> int:
    """A target drawn uniformly from the clock face (C7)."""
    return rng.randint(1, CLOCK)


def raise_cost(score: int) -> int:
    """Experience to raise a trait from `score` to `score + 1` (C6)."""
    return CLOCK * (score + 1)


class NoSuchTrait(BadValue):
    """The character has no trait of that name: an error, never an untrained action."""


def require_trait(traits: Mapping[str, int], name: str) -> str:
    """The trait's own spelling; a trait the character lacks is an error, never untrained."""
    own = traitnames.find(traits, name)
    if own is None:
        from cwx.base.hints import did_you_mean  # only to word the error

        raise NoSuchTrait(f"no trait {name!r}{did_you_mean(name, traits)} "
                          f"(traits: {', '.join(traits)})")
    return own


def check_traits(traits: Mapping[str, object], *, creating: bool) -> None:
    """The rules a character's traits keep (C1); the budget binds only at creation."""
    if len(traits) < MIN_TRAITS:
        raise BadValue(f"a character needs at least {MIN_TRAITS} traits, this one has {len(traits)}")
    traitnames.check_names((name, f"traits.{name}") for name in traits)
    for name, score in traits.items():
        try:
            check_score(score, f"the score of {name!r}")
        except BadValue as error:
            raise BadValue(error.message, key=f"traits.{name}") from None
    if creating:
        total = sum(traits.values())  # type: ignore[arg-type]  # checked above
        if total > BUDGET:
            raise BadValue(
                f"the traits total {total} points; a new character has {BUDGET} to spend"
            )


def unspent(traits: Mapping[str, int]) -> int:
    """Creation points left unspent (reported, never forced)."""
    return max(0, BUDGET - sum(traits.values()))


def advance(
    traits: Mapping[str, int],
    xp: int,
    *,
    new: str | None = None,
    raise_: str | None = None,
) -> Advancement:
    """Buy a new trait at 1 or raise one by a point with experience (C6)."""
    if (new is None) == (raise_ is None):
        raise BadValue("say either a new trait to buy or a trait to raise")
    if new is not None:
        name = traitnames.new_name(new, "trait")
        if (own := traitnames.find(traits, name)) is not None:
            raise RuleForbids(f"the character already has {own!r}; raise it instead")
        return _pay(name, 1, NEW_TRAIT_COST, xp, new=True)
    assert raise_ is not None
    own = require_trait(traits, raise_)
    score = traits[own]
    if score >= MAX_SCORE:
        raise RuleForbids(f"{own!r} is already {MAX_SCORE}, the highest a trait goes")
    return _pay(own, score + 1, raise_cost(score), xp, new=False)


def _pay(trait: str, score: int, cost: int, xp: int, *, new: bool) -> Advancement:
    if xp < cost:
        what = f"a new trait {trait!r}" if new else f"{trait!r} to {score}"
        raise RuleForbids(f"{what} costs {cost} experience; the character has {xp}")
    return Advancement(trait, score, cost, xp - cost, new)
