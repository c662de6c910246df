"""Triggered abilities (rule 603): which abilities an event triggers, with their "if" clause
(603.4), leaves-the-battlefield abilities looking back in time (603.10a), keyword triggers
(echo 702.30a, fading 702.32a, undying 702.93a, evolve 702.100a), the Siege's intrinsic
ability (310.11b) and delayed triggers (603.7).

A trigger in a card file: ``trigger = {on = ..., ...}`` where ``on`` is one of
``enters`` (``what`` = self, another, or a filter), ``dies`` (``what`` = self or a filter),
``cast`` (``by`` = you, opponent or any; ``spell`` = a filter; ``from_zone``;
``single_target`` = a filter the spell's only target must match), ``step`` (``step``,
``whose`` = your or each),
``deals_damage`` (``source`` = a filter on the spell; once per instruction),
``combat_damage_to_you`` (per creature), ``combat_damage_to_player`` (one or more creatures
you control, once per player), ``blocks``, ``evolves``, ``hand_empty``,
``last_defense_counter_removed``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx
from kb.engine.conditions import holds
from kb.engine.events import Event, PendingTrigger
from kb.engine.filters import matches
from kb.engine.keyword_rules import KEYWORD_TRIGGERED
from kb.engine.objects import Ability, EngineError
from kb.engine.steps import DIES, LEAVES, UNTAPS, delayed_time
from kb.engine.trigger_events import (
    MORE_EVENTS,
    MORE_TRIGGER_KEYS,
    event_within,
    matches_event,
)

if TYPE_CHECKING:
    from kb.engine.events import LastKnown
    from kb.engine.state import GameState

TRIGGER_EVENTS = frozenset({
    "enters", "dies", "cast", "step", "deals_damage", "combat_damage_to_you",
    "combat_damage_to_player", "blocks", "evolves", "hand_empty",
    "last_defense_counter_removed",
}) | MORE_EVENTS
# The keys of a ``trigger`` (besides ``on``), and those of them whose value is a filter.
TRIGGER_KEYS = frozenset({"on", "what", "by", "from_zone", "spell", "single_target", "zone",
                          "source", "step", "whose"}) | MORE_TRIGGER_KEYS
TRIGGER_FILTERS = frozenset({"what", "spell", "single_target", "source"})

# The triggered abilities that keywords stand for.
KEYWORD_TRIGGERS: dict[str, Ability] = {
    "echo": Ability(
        "At the beginning of your upkeep, if this permanent came under your control since the "
        "beginning of your last upkeep, sacrifice it unless you pay [cost].", "triggered",
        spec={"trigger": {"on": "step", "step": "upkeep", "whose": "your"},
              "if": {"came_under_control_since_last_upkeep": True},
              "effect": [{"op": "sacrifice_unless_pay", "cost": "keyword"}]}),
    "fading": Ability(
        "At the beginning of your upkeep, remove a fade counter from it. If you can't, "
        "sacrifice it.", "triggered",
        spec={"trigger": {"on": "step", "step": "upkeep", "whose": "your"},
              "effect": [{"op": "fade"}]}),
    "undying": Ability(
        "When this creature dies, if it had no +1/+1 counters on it, return it to the "
        "battlefield under its owner's control with a +1/+1 counter on it.", "triggered",
        spec={"trigger": {"on": "dies", "what": "self"}, "if": {"had_no_counter": "+1/+1"},
              "effect": [{"op": "return_to_battlefield", "who": "event.card",
                          "counters": {"+1/+1": 1}}]}),
    "evolve": Ability(
        "Whenever a creature you control enters, if that creature's power is greater than "
        "this creature's power and/or that creature's toughness is greater than this "
        "creature's toughness, put a +1/+1 counter on this creature.", "triggered",
        spec={"trigger": {"on": "enters", "what": {"types": ["Creature"],
                                                   "controller": "you"}},
              "if": {"entering_is_greater": True}, "effect": [{"op": "evolve"}]}),
    **KEYWORD_TRIGGERED,
}

SIEGE_TRIGGER = Ability(
    "When the last defense counter is removed from this permanent, exile it, then you may "
    "cast it transformed without paying its mana cost.", "triggered",
    spec={"trigger": {"on": "last_defense_counter_removed"},
          "effect": [{"op": "exile_then_cast_transformed"}]})


def triggered_abilities(state: GameState, oid: int) -> list[Ability]:
    """The object's triggered abilities, those its keywords and its Siege type stand for
    included."""
    ch = state.characteristics(oid)
    found = []
    for ability in ch.abilities:
        if ability.kind == "triggered":
            found.append(ability)
        elif ability.keyword in KEYWORD_TRIGGERS:
            found.append(KEYWORD_TRIGGERS[ability.keyword])
    if ch.is_a("Battle") and "Siege" in ch.subtypes:
        found.append(SIEGE_TRIGGER)  # 310.11b
    return found


def collect(state: GameState, event: Event, left_with: Sequence[int] = ()) -> None:
    """Note every ability ``event`` triggers as pending (603.2, 603.3). ``left_with``: the
    permanents that left the battlefield at the same time (603.10a: a leaves-the-battlefield
    ability looks back in time, so theirs trigger too)."""
    for source, abilities, lki in _sources(state, event, left_with):
        for ability in abilities:
            spec = ability.spec["trigger"]
            controller = (lki.ch.controller or lki.obj.controller) if lki \
                else state.controller(source)
            if not _matches(state, spec, event, source, controller, lki):
                continue
            if not event_within(state, event, controller):
                continue
            if spec.get("on") == "deals_damage" and _already(state, source, ability, event):
                continue
            kw = _keyword_of(state, source, ability)
            arg = kw.arg or "" if kw is not None else None
            if kw is not None:  # echo's cost, from the keyword (and its X, 702.1b)
                ability = replace(ability, arg=arg,
                                  spec={**ability.spec, "keyword_x": kw.spec.get("x")})
            ctx = Ctx(state, controller, source, event=event, extra={"keyword_arg": arg})
            if not holds(ability.spec.get("if"), ctx):
                continue
            for _ in range(1 + _additional(state, event, controller, left_with)):
                state.pending.append(PendingTrigger(source, ability, controller, event, lki))
                _note(state, source, lki, ability)
    if event.kind in ("step", "zone_change", "becomes_untapped"):
        _delayed(state, event)


def _additional(state: GameState, event: Event, controller: str,
                left_with: Sequence[int]) -> int:
    """603.2d: how many additional times an ability triggers: "if a creature dying causes a
    triggered ability of a permanent you control to trigger, that ability triggers an
    additional time" (a static ability's ``extra_trigger = "dies"`` on a permanent
    ``controller`` controls, or that left at the same time: 603.10a)."""
    if not (event.kind == "zone_change" and event.from_zone == "battlefield"
            and event.to_zone == "graveyard"):
        return 0
    died = state.last_known.get(event.old or -1)
    if died is None or not died.ch.is_a("Creature"):
        return 0
    seen = [(state.characteristics(o.id), state.controller(o.id))
            for o in state.functioning()]
    seen += [(k.ch, k.ch.controller or k.obj.controller) for oid in left_with
             if (k := state.last_known.get(oid)) is not None]
    return sum(1 for ch, who in seen if who == controller for a in ch.abilities
               if (a.spec.get("static") or {}).get("extra_trigger") == "dies")


def _note(state: GameState, source: int, lki: LastKnown | None, ability: Ability) -> None:
    """Log that an ability of this card triggered (an event abilities don't trigger on)."""
    obj = lki.obj if lki else state.objects.get(source)
    card = obj.card if obj else None
    state.events.append(Event("triggered", state.tick(), obj=source, card=card,
                              data={"ability": ability.text}))
    state.applied_rules.append(("603.2", f"triggers: {ability.text}"))


def _keyword_of(state: GameState, source: int, ability: Ability) -> Ability | None:
    """The keyword ability a keyword's triggered ability stands for (its argument, and the
    variable the granting effect defined for it, 702.1b)."""
    for kw_name, kw_ability in KEYWORD_TRIGGERS.items():
        if kw_ability is ability:
            return next((a for a in state.characteristics(source).abilities
                         if a.keyword == kw_name), None)
    return None


def _sources(state: GameState, event: Event, left_with: Sequence[int]
             ) -> list[tuple[int, list[Ability], LastKnown | None]]:
    out: list[tuple[int, list[Ability], LastKnown | None]] = []
    for obj in list(state.objects.values()):
        if (obj.zone == "battlefield" and not obj.phased_out) or obj.emblem:
            out.append((obj.id, triggered_abilities(state, obj.id), None))
        elif obj.zone in ("graveyard", "exile"):
            from_there = [a for a in state.characteristics(obj.id).abilities
                          if a.kind == "triggered" and a.spec["trigger"].get("zone")
                          == obj.zone]
            if from_there:
                out.append((obj.id, from_there, None))
    if event.kind == "zone_change" and event.from_zone == "battlefield" and event.old:
        # 603.10a: leaves-the-battlefield abilities look back in time: the object that left
        # and those that left with it trigger as they last existed
        for old in dict.fromkeys((event.old, *left_with)):
            lki = state.last_known.get(old)
            if lki is None:
                continue
            abilities = [a for a in lki.ch.abilities if a.kind == "triggered"]
            abilities += [KEYWORD_TRIGGERS[a.keyword] for a in lki.ch.abilities
                          if a.keyword in KEYWORD_TRIGGERS]
            out.append((old, abilities, lki))
    return out


def _already(state: GameState, source: int, ability: Ability, event: Event) -> bool:
    """603.2c: an ability that triggers on "deals damage" triggers once per instruction."""
    return any(p.source == source and p.ability is ability and p.event is not None
               and p.event.group == event.group for p in state.pending)


def _matches(state: GameState, spec: Mapping[str, Any], event: Event, source: int,
             controller: str, lki: LastKnown | None) -> bool:
    on = spec.get("on")
    if on not in TRIGGER_EVENTS:
        raise EngineError(f"unknown trigger event {on!r} (known: {sorted(TRIGGER_EVENTS)})")
    if spec.get("zone") in ("graveyard", "exile") and source in state.objects and \
            state.objects[source].zone != spec["zone"]:
        return False
    if lki is not None and on not in ("dies", "zone_change"):
        return False
    if on in MORE_EVENTS:
        return matches_event(state, spec, event, source, controller)
    if on == "enters":
        if event.kind != "zone_change" or event.to_zone != "battlefield":
            return False
        return _what(state, spec.get("what", "self"), event.obj, source, controller)
    if on == "dies":
        if event.kind != "zone_change" or event.from_zone != "battlefield" or \
                event.to_zone != "graveyard":
            return False
        before = state.last_known.get(event.old or -1)
        if before is None or not before.ch.is_a("Creature"):
            return False
        if spec.get("what", "self") == "self":
            return event.old == source
        if spec["what"] == "haunted":  # "when the creature it haunts dies" (702.55c)
            return source in state.objects and state.objects[source].haunting == event.old
        return matches(before.obj, before.ch, {**spec["what"], "zone": "battlefield"},
                       you=controller, source=source, opponents=state.opponents(controller))
    if on == "cast":
        return event.kind == "cast" and _cast_matches(state, spec, event, controller)
    if on == "step":
        if event.kind != "step" or event.data.get("step") != spec.get("step"):
            return False
        return spec.get("whose", "your") == "each" or event.player == controller
    if on == "deals_damage":
        if event.kind != "damage" or event.source is None:
            return False
        if spec.get("source") == "self":  # "whenever this creature deals damage"
            return event.source == source
        src = state.objects.get(event.source) or state.last_known[event.source].obj
        flt = {**spec.get("source", {}), "zone": src.zone}
        return matches(src, state.characteristics(src.id), flt, you=controller, source=source,
                       opponents=state.opponents(controller))
    if on == "combat_damage_to_you":
        return event.kind == "damage" and event.combat and event.player == controller
    if on == "combat_damage_to_player":
        return (event.kind == "combat_damage_batch"
                and controller in event.data.get("dealers", ()))
    if on == "blocks":
        return event.kind == "blocks"
    if on in ("evolves", "last_defense_counter_removed"):
        return event.kind == on and event.obj == source
    if on == "hand_empty":
        return event.kind == "hand_empty" and event.player == controller
    return False


def _what(state: GameState, what: Any, oid: int | None, source: int, controller: str) -> bool:
    if oid is None or oid not in state.objects:
        return False
    if what == "self":
        return oid == source
    obj = state.objects[oid]
    flt = dict(what) if isinstance(what, Mapping) else {"types": ["Creature"]}
    if what == "another" or flt.pop("another", False):
        flt["other"] = True
    return matches(obj, state.characteristics(oid), flt, you=controller, source=source,
                   opponents=state.opponents(controller))


def _cast_matches(state: GameState, spec: Mapping[str, Any], event: Event,
                  controller: str) -> bool:
    by = spec.get("by", "any")
    if "from_zone" in spec and event.from_zone != spec["from_zone"]:
        return False
    if by == "you" and event.player != controller:
        return False
    if by == "opponent" and event.player not in state.opponents(controller):
        return False
    spell = state.objects.get(event.obj or -1)
    if spell is None:
        return False
    ch = state.characteristics(spell.id)
    if "spell" in spec and not matches(spell, ch, {**spec["spell"], "zone": "stack"},
                                       you=controller, opponents=state.opponents(controller)):
        return False
    if "single_target" in spec:
        targets = [t for group in (spell.spell.targets if spell.spell else []) for t in group]
        if len(targets) != 1 or not isinstance(targets[0], int):
            return False
        target = state.objects.get(targets[0])
        if target is None or not matches(target, state.characteristics(target.id),
                                         spec["single_target"], you=controller,
                                         opponents=state.opponents(controller)):
            return False
    return True


# -- delayed triggers -----------------------------------------------------------------------

def _delayed(state: GameState, event: Event) -> None:
    for delayed in list(state.delayed):
        if delayed.when in (LEAVES, DIES):  # 603.7a: "when [that object] leaves the
            # battlefield", "when that creature dies (this turn)"
            if event.kind != "zone_change" or event.from_zone != "battlefield" or \
                    delayed.refers_to is None or event.old != delayed.refers_to:
                continue
            if delayed.when == DIES and event.to_zone != "graveyard":
                continue
        elif delayed.when == UNTAPS:  # 603.7a: "when this creature becomes untapped"
            if event.kind != "becomes_untapped" or delayed.refers_to is None or \
                    event.obj != delayed.refers_to:
                continue
        else:
            when = delayed_time(delayed.when)
            if when is None:
                raise EngineError(f"unknown delayed trigger time {delayed.when!r} (write "
                                  "\"next <step>\", \"your next <step>\" (a step of rule "
                                  f"500), {LEAVES!r}, {DIES!r} or {UNTAPS!r})")
            step, whose = when
            if event.kind != "step" or event.data.get("step") != step or (
                    whose == "your" and event.player != delayed.controller):
                continue
        if delayed.duration == "once":  # 603.7b: the next time only, without a duration
            state.delayed.remove(delayed)
        ability = Ability(f"delayed: {delayed.when}", "triggered",
                          spec={"trigger": {"on": "step"}, "effect": delayed.effects})
        extra = {**delayed.extra, "referred": delayed.refers_to}
        state.pending.append(PendingTrigger(
            delayed.source if delayed.source is not None else -1, ability,
            delayed.controller, _with_extra(event, extra), None))


def _with_extra(event: Event, extra: dict[str, Any]) -> Event:
    return replace(event, data={**event.data, "extra": extra})


