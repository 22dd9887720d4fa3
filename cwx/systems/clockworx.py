"""ClockWorx characters (docs/rules.md C1–C7): their sheet, file, schema and views, the
ledger's rules for their keys, and the journal's events of their commands."""

from __future__ import annotations

from collections.abc import Mapping

from cwx.base.errors import BadFile, BadValue, RuleForbids, shown
from cwx.base.ink import paint
from cwx.base.record import Record
from cwx.rules import clockworx
from cwx.systems.parts import (
    PLAIN,
    EventKind,
    Replay,
    Rule,
    as_bad_file,
    before,
    character_name,
    count,
    whole,
)
from cwx.toml.tomledit import toml_key, toml_string

TYPE_CHECKING = False  # typing's, unimported: what git runs loads no typing (docs/design.md)
if TYPE_CHECKING:
    from typing import Any, Final

    from cwx.systems.results import Advancement, ClockSheet, Created, Outcome

NAME: Final = "clockworx"
TITLE = "ClockWorx"
CHARACTER = True
TABLES: tuple[str, ...] = ("traits",)
XP = "xp"  # the experience a character earns and spends: its key in the sheet and journal
LEDGER: tuple[tuple[str, ...], tuple[str, ...]] = (("name", "system", XP), ("traits",))


class ClockCharacter(Record):
    """A ClockWorx character as its file says."""

    name: str
    traits: Mapping[str, int]
    xp: int
    system: str = NAME

    @property
    def kind(self) -> str:
        """The entry of its kind of file (cwx/systems/)."""
        return NAME


# ---------------------------------------------------------------- the file


def read(data: Mapping[str, Any], name: str) -> ClockCharacter:
    from cwx.systems.parts import table

    own = character_name(data, name)
    traits = table(data, "traits")
    xp = count(data, "xp", "xp")
    for trait, score in traits.items():
        if not isinstance(score, int) or isinstance(score, bool):
            raise BadFile(f"the score of {trait!r} must be a whole number from 1 to 6, not "
                          f"{shown(score)}", key=f"traits.{trait}")
    as_bad_file(lambda: clockworx.check_traits(traits, creating=False))
    return ClockCharacter(own, dict(traits), xp)


def new(name: str, pairs: list[tuple[str, str]]) -> ClockCharacter:
    """A character as `char new --trait NAME=SCORE` makes it (C1: the creation budget)."""
    traits: dict[str, int] = {}
    for trait, score in pairs:
        digits = score.strip()
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 2:
            raise BadValue(f"--trait {trait}={score}: the score must be a whole number 1–6")
        if trait.strip() in traits:
            raise BadValue(f"--trait {trait}: the trait is named twice")
        traits[trait.strip()] = int(digits)
    clockworx.check_traits(traits, creating=True)
    return ClockCharacter(name, traits, 0)


def data_of(sheet: ClockCharacter) -> dict[str, Any]:
    return {"name": sheet.name, "system": sheet.system, "xp": sheet.xp,
            "traits": dict(sheet.traits)}


def set_aside(data: dict[str, Any], key: str) -> bool:
    if key == "xp":
        data["xp"] = 0
        return True
    table, _, name = key.partition(".")
    inner = data.get(table)
    if table != "traits" or not isinstance(inner, dict) or name not in inner:
        return False
    score = inner[name]
    if isinstance(score, int) and not isinstance(score, bool) and 1 <= score <= 6:
        inner.pop(name)  # a good score: the name is at fault (empty, or twice)
    else:
        inner[name] = 1
    return True


def template(sheet: ClockCharacter, schema: str | None) -> str:
    spent = sum(sheet.traits.values())
    lines = [
        f"# {sheet.name}, a ClockWorx character. Edit freely: cwx keeps your comments.",
        f"name = {toml_string(sheet.name)}",
        'system = "clockworx"',
        "xp = 0              # experience; cwx adds what actions earn",
        "",
        f"[traits]           # each 1-6; at creation {spent} of the {clockworx.BUDGET} "
        "points were spent",
        *(f"{toml_key(name)} = {score}" for name, score in sheet.traits.items()),
    ]
    return (f"#:schema {schema}\n" if schema else "") + "\n".join(lines) + "\n"


def schema() -> dict[str, Any]:
    from cwx.systems.fragments import A_NAME, COUNT

    return {"required": ["traits"], "properties": {"xp": COUNT, "traits": {
        "type": "object",
        "description": "Trait names and scores, 1 to 6.",
        "minProperties": clockworx.MIN_TRAITS,
        "propertyNames": A_NAME,
        "additionalProperties": {"type": "integer", "minimum": 1,
                                 "maximum": clockworx.MAX_SCORE},
    }}}


def trait_key(trait: str) -> str:
    """A trait's score as the journal and the ledger name it."""
    return f"traits.{trait}"


def rule(key: str) -> Rule:
    if key == "xp":
        return Rule()
    if key.startswith("traits."):  # a score 1-6, and 0 is no trait (C1, C6)
        return Rule(high=clockworx.MAX_SCORE, absent_at_zero=True, in_step=True)
    return PLAIN


# ---------------------------------------------------------------- views


def as_json(sheet: ClockCharacter) -> ClockSheet:
    return {"name": sheet.name, "system": NAME, "traits": dict(sheet.traits),
            "xp": sheet.xp}


def as_text(sheet: ClockCharacter, on: bool) -> str:
    width = max(len(name) for name in sheet.traits)
    rows = [f"{paint(sheet.name, 'bold', on)} · ClockWorx"]
    for name, score in sheet.traits.items():
        pips = "●" * score + paint("○" * (clockworx.MAX_SCORE - score), "dim", on)
        rows.append(f"  {name:<{width}}  {pips}  {score}")
    rows.append(f"  {'experience':<{width}}  {sheet.xp}")
    rows.append(f"  next: {next_steps(sheet)}")
    return "\n".join(rows)


def in_party(sheet: ClockCharacter, on: bool) -> str:
    traits = " · ".join(f"{name} {score}" for name, score in sheet.traits.items())
    return f"{paint(sheet.name, 'bold', on)} · ClockWorx · {sheet.xp} xp\n  {traits}"


def next_steps(sheet: ClockCharacter) -> str:
    """What experience buys next, so a player sees how far they are from it."""
    costs = [f"new trait {clockworx.NEW_TRAIT_COST}"]
    costs += [f"{name} → {score + 1} for {clockworx.raise_cost(score)}"
              for name, score in sheet.traits.items() if score < clockworx.MAX_SCORE]
    return " · ".join(costs)


def created(sheet: ClockCharacter) -> Created:
    """C1: unspent creation points are allowed, and said."""
    return {"unspent": clockworx.unspent(sheet.traits)}


def created_text(sheet: ClockCharacter) -> str:
    return f"\n{clockworx.unspent(sheet.traits)} of {clockworx.BUDGET} creation points left " \
           "unspent."


def trait_names(sheet: ClockCharacter) -> list[str]:
    return list(sheet.traits)


def traits_drawn_for(data: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    return {}  # a guess names its trait itself


def drawn_traits_changed(key: str, value: Any) -> tuple[str, tuple[str, ...]] | None:
    return None


def earned(sheet: ClockCharacter) -> str | None:
    if sheet.xp:
        return f"{sheet.xp} xp earned"
    if sum(sheet.traits.values()) > clockworx.BUDGET:  # more than creation can give
        return "traits bought with experience"
    return None


def after_outcome(sheet: ClockCharacter, outcome: clockworx.ClockOutcome) -> ClockCharacter:
    """The character once an action is resolved: its experience added (C4, C5), wherever the
    action was resolved (at the table, or a guess settled by the reveal)."""
    return sheet._replace(xp=sheet.xp + outcome.xp)


def outcome_json(outcome: clockworx.ClockOutcome) -> Outcome:
    """A resolved action: the journal's result, and --json's (SPEC section 4)."""
    return {"target": outcome.target, "guess": outcome.guess, "distance": outcome.distance,
            "trait": outcome.trait, "score": outcome.score, "success": outcome.success,
            "critical": outcome.critical, "xp": outcome.xp}


def outcome_verdict(outcome: clockworx.ClockOutcome, on: bool) -> str:
    from cwx.base.ink import plural

    if outcome.critical:
        word = paint("Critical success!", "good", on)
    elif outcome.success:
        word = paint("Success.", "good", on)
    else:
        word = paint("Failure.", "bad", on)
    trait = trait_said(outcome.trait, outcome.score)
    steps = plural(outcome.distance, "step")
    gained = f" +{outcome.xp} xp" if outcome.xp else ""
    return f"{word} Guess {outcome.guess}, target {outcome.target}: {steps} ({trait}).{gained}"


def trait_said(trait: str | None, score: int | None) -> str:
    """What a guess was made with, for people: "Repair 3", "score 3" or "untrained"."""
    if score is None:
        return "untrained"
    return f"{trait} {score}" if trait else f"score {score}"


def advancement_json(step: clockworx.Advancement) -> Advancement:
    """Experience spent: the journal's result, and --json's."""
    return {"trait": step.trait, "score": step.score, "cost": step.cost,
            "xp_total": step.xp_total}


def advancement_text(step: clockworx.Advancement) -> str:
    verb = f"New trait {step.trait} at 1" if step.new else f"{step.trait} raised to {step.score}"
    return f"{verb} for {step.cost} xp; {step.xp_total} xp left."


# ---------------------------------------------------------------- the journal's events


def _resolved(result: Mapping[str, Any]) -> str:
    return f"{result.get('trait') or 'untrained'}, {result.get('guess')} vs " \
           f"{result.get('target')}"


def _sealing(result: Mapping[str, Any]) -> str:
    return f"sealed {str(result.get('commitment'))[:12]}…"


def _revealed(result: Mapping[str, Any]) -> str:
    from cwx.base.ink import plural

    settled = result.get("guesses")
    return f"revealed {result.get('target')}" + (
        f", settled {plural(len(settled), 'guess')}" if isinstance(settled, list) and settled
        else "")


def _guessed(result: Mapping[str, Any]) -> str:
    return f"{result.get('trait') or 'untrained'}, {result.get('guess')} vs sealed"


def _waiting(result: Mapping[str, Any]) -> str:
    return f"pending on {str(result.get('commitment'))[:12]}…"


# ---------------------------------------------------------------- re-played by check


def _outcome(target: object, guess: object, score: object,
             trait: object) -> clockworx.ClockOutcome | str:
    """The rules' outcome of a recorded guess, or why the record gives none."""
    if not (whole(target) and whole(guess) and (score is None or whole(score))):
        return "records no target, guess and score the rules can resolve"
    try:
        return clockworx.resolve(target, guess, score,  # type: ignore[arg-type]
                                 trait if isinstance(trait, str) else None)
    except (BadValue, RuleForbids) as error:
        return f"the rules refuse it: {error.message}"


_FIGURES = ("distance", "success", "critical", "xp")  # what the rules make of the inputs


def _earning(event: Any, gains: dict[str, int]) -> dict[tuple[str, str], tuple[Any, Any]]:
    """Each file's experience raised by what the rules give it (from its line's `from`)."""
    expected = {}
    for file, xp in gains.items():
        if xp:
            was = before(event, file, "xp", 0)
            expected[(file, "xp")] = (was, was + xp if whole(was) else xp)
    return expected


def _settling(result: Mapping[str, Any], target: object, gains: dict[str, int]) -> str | None:
    """The guesses a reveal settles (`guesses`), each re-played against the number shown:
    its experience goes to its file (one that counts for nothing, none; one listed again,
    once); why the record cannot be re-played, else None."""
    settled = result.get("guesses", [])
    if not isinstance(settled, list):
        return "lists its settled guesses in no form cwx writes"
    met: set[str] = set()  # a guess listed again is settled once (check names the repeat)
    for entry in settled:
        if not isinstance(entry, dict):
            return "lists a settled guess in no form cwx writes"
        if isinstance(entry.get("id"), str):
            if entry["id"] in met:
                continue
            met.add(entry["id"])
        outcome = _outcome(target, entry.get("guess"), entry.get("score"), entry.get("trait"))
        if isinstance(outcome, str):
            return f"settles guess {str(entry.get('id'))[:8]}, which {outcome}"
        if any(entry.get(name) != getattr(outcome, name) or
               type(entry.get(name)) is not type(getattr(outcome, name)) for name in _FIGURES):
            return (f"settles guess {str(entry.get('id'))[:8]} as {_said(entry)}; the rules give "
                    f"{_said(outcome_json(outcome))}")
        file = entry.get("file")
        if entry.get("counted") is not False and isinstance(file, str):
            gains[file] = gains.get(file, 0) + outcome.xp
    return None


def _said(figures: Mapping[str, Any]) -> str:
    return ", ".join(f"{name} {figures.get(name)}" for name in _FIGURES)


def replay_resolve(event: Any) -> Replay:
    """C3-C5: the experience a resolve earns its character (and, against the sealed number,
    the guesses it settles theirs), from the target, guess and score it records."""
    result = event.result
    outcome = _outcome(result.get("target"), result.get("guess"), result.get("score"),
                       result.get("trait"))
    if isinstance(outcome, str):
        return Replay(refused=outcome)
    # A line of the first journal names its character's file only when known: the file
    # whose experience it changes, outside the guesses it settles, is the one.
    settled = {entry.get("file") for entry in result.get("guesses", [])
               if isinstance(entry, dict)} if isinstance(result.get("guesses"), list) else set()
    file = event.file if event.file is not None else next(
        (c.file for c in event.changes if c.key == "xp" and c.file not in settled), None)
    gains = {file: outcome.xp} if isinstance(file, str) else {}
    refused = _settling(result, outcome.target, gains)
    return Replay(_earning(event, gains), {name: getattr(outcome, name) for name in _FIGURES},
                  refused=refused, reads=_scored(file, result))


def _scored(file: object, result: Mapping[str, Any]) -> dict[tuple[str, str], Any]:
    """The trait score a resolve or a guess is played with, as the ledger keys it."""
    trait, score = result.get("trait"), result.get("score")
    if not isinstance(file, str) or not isinstance(trait, str) or \
            not (score is None or whole(score)):
        return {}  # a score no rule plays with: the resolve is refused on its own
    return {(file, trait_key(trait)): score}


def replay_reveal(event: Any) -> Replay:
    """A reveal: the guesses it settles, each re-played against the number it shows."""
    gains: dict[str, int] = {}
    refused = _settling(event.result, event.result.get("target"), gains)
    return Replay(_earning(event, gains), refused=refused)


def replay_spend(event: Any) -> Replay:
    """C6: a trait bought at 1 or raised a point, for its cost in experience."""
    result, file = event.result, event.file
    trait = result.get("trait")
    if not isinstance(trait, str) or not isinstance(file, str):
        return Replay(refused="records no trait and character the rules can advance")
    key, xp = trait_key(trait), before(event, file, "xp", result.get("xp_total"))
    score = before(event, file, key)
    if not whole(xp) or not (score is None or whole(score)):
        return Replay(refused="records no experience and score the rules can advance from")
    try:
        step = clockworx.advance({trait: score} if score else {}, xp,
                                 new=None if score else trait, raise_=trait if score else None)
    except (BadValue, RuleForbids) as error:
        return Replay(refused=f"the rules refuse it: {error.message}")
    return Replay({(file, "xp"): (xp, step.xp_total), (file, key): (score, step.score)},
                  {"score": step.score, "cost": step.cost})


def replay_nothing(event: Any) -> Replay:
    """An event that changes no key: a guess waiting for the reveal, a seal."""
    return Replay()


GUESSING = "clock resolve --sealed"  # a guess where the sealed number is not (guesses.py)
EVENTS: Mapping[str, EventKind] = {
    "clock resolve": EventKind(action=True, what=_resolved, verb="resolves",
                               replay=replay_resolve),
    GUESSING: EventKind(action=True, pending=True, what=_guessed, outcome=_waiting,
                        verb="guesses", replay=replay_nothing),
    "xp spend": EventKind(action=True, buys=True, what=lambda result: result.get("trait"),
                          verb="spends experience on", replay=replay_spend),
    "clock pick --seal": EventKind(undoable=False, outcome=_sealing, verb="seals a number",
                                   replay=replay_nothing),
    "clock reveal": EventKind(undoable=False, outcome=_revealed, verb="reveals the number",
                              replay=replay_reveal),
}
