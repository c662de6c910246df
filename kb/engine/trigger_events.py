"""Trigger events beyond the seeds' (603.2, 603.6, 700.1): any zone change with filters, life
gained or lost, a permanent becoming tapped, attacks and blocks seen from either side, combat
damage a creature deals to a player, and a player winning or losing.

A trigger in a card file names one with ``on``:

- ``zone_change``: ``from`` and/or ``to`` (zones), ``what`` (self, or a filter judged on the
  object as it was before the move when it left the battlefield, 603.10a, else as it is now).
  Once per object moved (603.2c);
- ``life_gained`` / ``life_lost``: ``whose`` = you (default), opponent or any; once per event;
- ``becomes_tapped``: ``what`` (self or a filter): a permanent already on the battlefield
  going from untapped to tapped (603.2e);
- ``attacks``: ``what`` (self or a filter); ``alone`` (the only attacker, exalted 702.83a),
  ``attacks_most_life`` (dethrone 702.105a), ``with_greater_power`` (training 702.149a);
- ``becomes_blocked``: ``what``; once however many creatures block it (700.1, 509.3c);
- ``blocked_by``: ``what`` (the attacker), ``blocker`` (a filter; ``without`` a keyword):
  once per blocking creature (509.3d);
- ``blocks_or_blocked``: this creature blocks or becomes blocked (bushido 702.45a);
- ``unblocked``: ``what``: it attacks and isn't blocked (frenzy 702.68a, 509.3e);
- ``blocks_a_creature``: ``what`` (the blocker): once per creature it blocks, the
  ability's ``referred`` being that creature (509.3a);
- ``combat_damage_to_a_player``: this creature deals combat damage to a player;
- ``becomes_target``: ``what``; ``by`` = opponent or any (ward 702.21a);
- ``expend``: ``n``: you cast a spell, and the mana you spent this turn to cast spells went
  from less than N to at least N (700.14);
- ``activates``: ``what`` (self or a filter): an activated ability of that object is activated
  ("whenever you activate this creature's outlast ability"), ``by`` = you (default),
  opponent or any;
- ``damage_prevented``: ``whose`` = you (default), opponent or any: damage that would be dealt
  to that player is prevented (its ``event.amount``: how much), once per damage event;
- ``tapped_for_mana``: ``what`` (a filter, lands by default), ``by`` = any (default), you or
  opponent: a mana ability with {T} in its cost of such a permanent resolved ("whenever a
  player taps a land for mana"); ``event.mana`` is the mana it produced. Such an ability that
  adds mana is a triggered mana ability: it resolves at once (605.1b, 605.4a).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kb.engine.filters import matches

if TYPE_CHECKING:
    from kb.engine.events import Event
    from kb.engine.state import GameState

MORE_EVENTS = frozenset({
    "zone_change", "life_gained", "life_lost", "becomes_tapped", "attacks",
    "becomes_blocked", "blocked_by", "blocks_or_blocked", "unblocked",
    "combat_damage_to_a_player", "becomes_target", "blocks_a_creature", "expend",
    "turned_face_up", "activates", "damage_prevented", "tapped_for_mana",
})
# The keys these events read, besides those every trigger may have (what, by, whose).
MORE_TRIGGER_KEYS = frozenset({"from", "to", "alone", "attacks_most_life", "with_greater_power",
                               "blocker", "n"})


def matches_event(state: GameState, spec: Mapping[str, Any], event: Event, source: int,
                  controller: str) -> bool:
    """Whether ``event`` fits the trigger ``spec`` of an ability of ``source``."""
    on = spec["on"]
    if on == "zone_change":
        return _zone_change(state, spec, event, source, controller)
    if on in ("life_gained", "life_lost"):
        kind = "life_gain" if on == "life_gained" else "life_loss"
        return event.kind == kind and _whose(state, spec.get("whose", "you"), event.player,
                                             controller)
    if on == "becomes_tapped":
        return event.kind == "becomes_tapped" and _is(state, spec.get("what", "self"),
                                                      event.obj, source, controller)
    if on == "attacks":
        return event.kind == "attacks" and _attacks(state, spec, event, source, controller)
    if on == "becomes_blocked":
        return event.kind == "becomes_blocked" and _is(state, spec.get("what", "self"),
                                                       event.obj, source, controller)
    if on == "blocked_by":
        return event.kind == "blocks" and _blocked_by(state, spec, event, source, controller)
    if on == "blocks_or_blocked":
        return event.kind in ("blocks", "becomes_blocked") and event.obj == source
    if on == "blocks_a_creature":
        return event.kind == "blocks_creature" and _is(state, spec.get("what", "self"),
                                                       event.obj, source, controller)
    if on == "expend":
        return event.kind == "cast" and event.player == controller and _expended(
            state, event, controller, int(spec.get("n", 0)))
    if on == "unblocked":
        return event.kind == "unblocked" and _is(state, spec.get("what", "self"), event.obj,
                                                 source, controller)
    if on == "combat_damage_to_a_player":
        return (event.kind == "damage" and event.combat and event.player is not None
                and event.source == source)
    if on == "turned_face_up":  # "when this creature is turned face up" (702.37, 708.8)
        return event.kind == "turned_face_up" and _is(state, spec.get("what", "self"),
                                                      event.obj, source, controller)
    if on == "activates":
        return (event.kind == "activated"
                and _is(state, spec.get("what", "self"), event.source, source, controller)
                and _whose(state, spec.get("by", "you"), event.player, controller))
    if on == "tapped_for_mana":  # "whenever a player taps a land for mana" (605.1b)
        return (event.kind == "tapped_for_mana"
                and _is(state, spec.get("what", {"types": ["Land"]}), event.obj, source,
                        controller)
                and _whose(state, spec.get("by", "any"), event.player, controller))
    if on == "damage_prevented":
        return event.kind == "damage_prevented" and event.player is not None and _whose(
            state, spec.get("whose", "you"), event.player, controller)
    if on == "becomes_target":
        return (event.kind == "becomes_target"
                and _is(state, spec.get("what", "self"), event.obj, source, controller)
                and _whose(state, spec.get("by", "any"), event.player, controller))
    return False


def _whose(state: GameState, whose: str, player: str | None, controller: str) -> bool:
    if whose == "any":
        return player is not None
    if whose == "opponent":
        return player in state.opponents(controller)
    return player == controller


def _is(state: GameState, what: Any, oid: int | None, source: int, controller: str) -> bool:
    """Whether object ``oid`` is ``what``: self (the source), or fits a filter."""
    if oid is None:
        return False
    if what == "self":
        return oid == source
    obj = state.objects.get(oid)
    if obj is None:
        return False
    return matches(obj, state.characteristics(oid), {"zone": obj.zone, **what}, you=controller,
                   source=source, opponents=state.opponents(controller))


def _zone_change(state: GameState, spec: Mapping[str, Any], event: Event, source: int,
                 controller: str) -> bool:
    if event.kind != "zone_change":
        return False
    if "from" in spec and event.from_zone != spec["from"]:
        return False
    if "to" in spec and event.to_zone != spec["to"]:
        return False
    what = spec.get("what", "self")
    before = state.last_known.get(event.old or -1) if event.from_zone == "battlefield" else None
    if before is not None:  # 603.10a: look back in time
        if what == "self":
            return event.old == source
        return matches(before.obj, before.ch, {**what, "zone": "battlefield"}, you=controller,
                       source=source, opponents=state.opponents(controller))
    if what == "self":
        return event.old == source or event.obj == source
    return _is(state, what, event.obj, source, controller)


def _attacks(state: GameState, spec: Mapping[str, Any], event: Event, source: int,
             controller: str) -> bool:
    if not _is(state, spec.get("what", "self"), event.obj, source, controller):
        return False
    combat = state.combat
    if combat is None:
        return False
    if spec.get("alone") and len(combat.attackers) != 1:
        return False
    if spec.get("attacks_most_life"):
        attacked = combat.attackers.get(event.obj)
        if not isinstance(attacked, str):
            return False
        most = max(p.life for p in state.players.values() if not p.left_game)
        if state.player(attacked).life < most:
            return False
    if spec.get("with_greater_power"):
        power = state.characteristics(event.obj).power or 0
        if not any((state.characteristics(o).power or 0) > power
                   for o in combat.attackers if o != event.obj):
            return False
    return True


def _expended(state: GameState, event: Event, player: str, n: int) -> bool:
    """700.14: the mana ``player`` spent this turn to cast spells, before and after this cast,
    crosses N. The turn began with its untap step's event."""
    total = 0
    this = 0
    for past in reversed(state.events):
        if past.kind == "step" and past.data.get("step") == "untap":
            break
        if past.kind != "cast" or past.player != player or past.obj is None:
            continue
        spell = state.objects.get(past.obj) or (state.last_known[past.obj].obj
                                                if past.obj in state.last_known else None)
        spent = sum(spell.spell.mana_spent.values()) if spell and spell.spell else 0
        total += spent
        if past is event:
            this = spent
    return total - this < n <= total


def _blocked_by(state: GameState, spec: Mapping[str, Any], event: Event, source: int,
                controller: str) -> bool:
    attackers = event.data.get("attackers", ())
    if not any(_is(state, spec.get("what", "self"), a, source, controller) for a in attackers):
        return False
    blocker = spec.get("blocker", {})
    ch = state.characteristics(event.obj) if event.obj is not None else None
    if ch is None:
        return False
    without = blocker.get("without")
    if without and ch.has(without):
        return False
    flt = {k: v for k, v in blocker.items() if k != "without"}
    return not flt or _is(state, flt, event.obj, source, controller)


def event_within(state: GameState, event: Event, controller: str) -> bool:
    """801.7, 801.7a: an ability triggers only if its trigger event happens entirely within its
    controller's range of influence: the player it happens to (life, damage, a draw; not the
    owner of a moved card nor the defending player of an attack) and the controllers of the
    objects it involves (as they were before a move out of the battlefield, after one into
    it)."""
    shared = state.multiplayer
    if shared is None or shared.ranges is None:
        return True
    involved = {event.player} if event.player is not None and event.kind not in (
        "zone_change", "attacks", "becomes_blocked", "unblocked", "blocks",
        "blocks_creature") else set()
    for oid in (event.obj, event.source):
        if oid is None:
            continue
        if event.kind == "zone_change" and event.from_zone == "battlefield" and oid == event.obj:
            before = state.last_known.get(event.old or -1)
            if before is not None:
                involved.add(before.ch.controller or before.obj.controller)
            continue
        if oid in state.objects or oid in state.last_known:
            involved.add(state.controller(oid))
    return all(shared.in_range(controller, p) for p in involved)
