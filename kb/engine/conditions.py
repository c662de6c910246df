"""Conditions written in card files: a triggered ability's "if" clause (603.4, checked when it
would trigger and again on resolution) and the conditions of single instructions ("if {G} was
spent to cast this spell").

``self_is`` (a card type the source has), ``self_in`` (the source's zone), ``self_not_token``,
``self_has_counter`` (a kind of counter the source has), ``kicked`` (the spell was kicked,
702.33d), ``cast_from_hand`` (a permanent
entering: whether it was cast from its owner's hand),
``you_control`` with ``at_least``, ``came_under_control_since_last_upkeep`` (echo, 702.30a),
``had_no_counter`` (of the object as it last existed, undying 702.93a), ``spent`` (a mana
type spent to cast it), ``entering_is_greater`` (evolve, 702.100a), ``your_hand_empty``,
``less_than`` (an amount below N: "as long as your devotion to red is less than five", a
static ability's ``as_long_as``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kb.engine.amounts import Ctx, evaluate
from kb.engine.filters import matches
from kb.engine.objects import EngineError

KEYS = frozenset({"self_is", "self_in", "self_not_token", "self_has_counter", "you_control",
                  "at_least", "cast_from_hand",
                  "came_under_control_since_last_upkeep", "had_no_counter", "spent",
                  "entering_is_greater", "your_hand_empty", "self_not_renowned",
                  "target_power_less", "life_at_least", "different_names", "less_than",
                  "kicked"})


def holds(spec: Mapping[str, Any] | None, ctx: Ctx) -> bool:
    if not spec:
        return True
    unknown = set(spec) - KEYS
    if unknown:
        raise EngineError(f"unknown condition {sorted(unknown)} (known: {sorted(KEYS)})")
    state = ctx.state
    source = state.objects.get(ctx.source) if ctx.source is not None else None
    if "self_is" in spec and (source is None or spec["self_is"] not in
                              state.characteristics(source.id).types):
        return False
    if "self_in" in spec and (source is None or source.zone != spec["self_in"]):
        return False
    if spec.get("self_not_token") and (source is None or source.token):
        return False
    if "cast_from_hand" in spec and (ctx.extra.get("cast_from") == "hand") != bool(
            spec["cast_from_hand"]):
        return False  # "if you didn't cast it from your hand" (an entering permanent)
    if "kicked" in spec and bool(ctx.spell is not None and ctx.spell.kicked) != bool(
            spec["kicked"]):
        return False  # "if this spell was kicked" (702.33d)
    if "self_has_counter" in spec and (source is None
                                       or source.counters[spec["self_has_counter"]] <= 0):
        return False  # "while it has a +1/+1 counter on it"
    if "you_control" in spec:
        found = [o for o in state.battlefield()
                 if matches(o, state.characteristics(o.id), spec["you_control"],
                            you=ctx.you, source=ctx.source, opponents=state.opponents(ctx.you))
                 and state.controller(o.id) == ctx.you]
        count = len(found)
        if spec.get("different_names"):  # 201.2b: an object with no name has no name to differ
            count = len({state.characteristics(o.id).name for o in found} - {None, ""})
        if count < spec.get("at_least", 1):
            return False
    if spec.get("came_under_control_since_last_upkeep") and not _since_last_upkeep(ctx):
        return False
    if "had_no_counter" in spec:
        event = ctx.event
        lki = state.last_known.get(event.old) if event and event.old else None
        if lki is None or lki.obj.counters[spec["had_no_counter"]] > 0:
            return False
    if "spent" in spec and not (ctx.spell and ctx.spell.mana_spent[spec["spent"]] > 0):
        return False
    if spec.get("self_not_renowned") and (source is None or source.choices.get("renowned")):
        return False  # 702.112a
    if spec.get("target_power_less") and not _target_weaker(ctx):
        return False  # mentor, 702.134a
    if "life_at_least" in spec and state.player(ctx.you).life < spec["life_at_least"]:
        return False  # "if you have N or more life" (603.4)
    if "less_than" in spec and not _less_than(spec["less_than"], ctx):
        return False  # "as long as your devotion to red is less than five"
    if spec.get("your_hand_empty") and ctx.state.in_zone("hand", ctx.you):
        return False
    return not (spec.get("entering_is_greater") and not _greater(ctx))


def _target_weaker(ctx: Ctx) -> bool:
    """The first target has less power than the source (as it last existed)."""
    state = ctx.state
    targets = [t for g in (ctx.spell.targets if ctx.spell else []) for t in g]
    if not targets or not isinstance(targets[0], int) or targets[0] not in state.objects:
        return False
    if ctx.source is None or (ctx.source not in state.objects
                              and ctx.source not in state.last_known):
        return False
    mine = state.characteristics(ctx.source).power or 0
    return (state.characteristics(targets[0]).power or 0) < mine


def _since_last_upkeep(ctx: Ctx) -> bool:
    """702.30a: the permanent came under its controller's control since the beginning of
    that player's last upkeep (the one before the upkeep now beginning)."""
    state = ctx.state
    source = state.objects.get(ctx.source) if ctx.source is not None else None
    if source is None:
        return False
    upkeeps = state.player(ctx.you).upkeep_clocks
    last = upkeeps[-2] if len(upkeeps) >= 2 else 0
    return source.control_clock > last


def _greater(ctx: Ctx) -> bool:
    state = ctx.state
    event = ctx.event
    if event is None or event.obj not in state.objects or ctx.source not in state.objects:
        return False
    new, mine = state.characteristics(event.obj), state.characteristics(ctx.source)
    return (new.power or 0) > (mine.power or 0) or (new.toughness or 0) > (mine.toughness or 0)


def _less_than(spec: Any, ctx: Ctx) -> bool:
    """``less_than = { amount = <amount>, n = N }``: the amount is less than N."""
    if not isinstance(spec, Mapping) or set(spec) != {"amount", "n"}:
        raise EngineError(f"less_than is {{ amount, n }}, not {spec!r}")
    return evaluate(spec["amount"], ctx) < int(spec["n"])
