"""Combat (rules 506-511): declaring attackers and blockers, assigning and dealing combat
damage (510, with trample 702.19 and first strike 702.7), removal from combat (506.4)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kb.engine import battles
from kb.engine.damage import (
    can_be_dealt_combat_damage,
    deal_simultaneously,
    lethal_damage,
    protected_from,
)
from kb.engine.keyword_rules import (
    alone_violation,
    block_restriction,
    menace_unmet,
    requirements_violation,
)
from kb.engine.objects import GameObject, IllegalAction
from kb.engine.replacements import note
from kb.i18n import _, ngettext

if TYPE_CHECKING:
    from kb.engine.state import GameState

Attacked = str | int | None  # a player, a planeswalker or battle, or nothing (506.4c)


@dataclass
class Combat:
    attackers: dict[int, Attacked] = field(default_factory=dict)
    blocks: dict[int, list[int]] = field(default_factory=dict)  # blocker -> attackers
    blocked: set[int] = field(default_factory=set)  # 509.1h: stays blocked
    controllers: dict[int, str] = field(default_factory=dict)  # at declaration (506.4)
    # 510.4: the creatures that had first strike or double strike as the first-strike combat
    # damage step began (None: there was no such step)
    first_strikers: set[int] | None = None
    damage_steps: int = 0  # combat damage steps so far (510.4: one, or two)

    def blockers_of(self, attacker: int) -> list[int]:
        return [b for b, attacked in self.blocks.items() if attacker in attacked]

    def attacked_objects(self) -> set[int]:
        return {a for a in self.attackers.values() if isinstance(a, int)}

    def remove(self, oid: int) -> None:
        """506.4: the permanent is removed from combat (a creature blocking it no longer
        blocks it, 510.1d; an attacker it blocked stays blocked, 509.1h)."""
        self.attackers.pop(oid, None)
        self.blocks.pop(oid, None)
        for blocker, attackers in self.blocks.items():
            self.blocks[blocker] = [a for a in attackers if a != oid]
        for attacker, attacked in list(self.attackers.items()):
            if attacked == oid:
                self.attackers[attacker] = None  # 506.4c: attacks nothing now

    def attacking(self, oid: int) -> bool:
        return oid in self.attackers


def declare_attackers(state: GameState, attacks: Mapping[int, Attacked]) -> None:
    """508.1: the active player's untapped creatures, never battles (508.1a)."""
    state.step = "declare attackers"
    combat = state.combat = Combat()
    tapped: list[int] = []
    for oid, target in attacks.items():
        obj = state.objects[oid]
        ch = state.characteristics(oid)
        who = _name(obj)
        if obj.zone != "battlefield" or not ch.is_a("Creature"):
            raise IllegalAction(_("{who} is not a creature on the battlefield").format(who=who))
        if ch.is_a("Battle"):
            raise IllegalAction(_("{who} is a battle: battles can't attack (508.1a)")
                                .format(who=who))
        if state.controller(oid) != state.active:
            raise IllegalAction(_("{who} isn't controlled by the active player").format(who=who))
        if obj.tapped:
            raise IllegalAction(_("{who} is tapped").format(who=who))
        if ch.has("defender"):
            raise IllegalAction(_("{who} has defender").format(who=who))
        _check_attacked(state, target, state.active)
        combat.attackers[oid] = target
        combat.controllers[oid] = state.active
        if not ch.has("vigilance"):
            obj.tapped = True
            tapped.append(oid)
    alone = alone_violation(state, list(combat.attackers), "attack") \
        or requirements_violation(state, list(combat.attackers))
    if alone:
        raise IllegalAction(alone)
    for target in combat.attacked_objects():
        combat.controllers[target] = state.controller(target)
    state.touch()
    for oid in tapped:
        state.emit("becomes_tapped", obj=oid)
    state.player(state.active).attacked_with.extend(combat.attackers)
    for oid in combat.attackers:
        state.emit("attacks", obj=oid, player=state.active)


def _check_seated_next(state: GameState, attacker: str, defender: str) -> None:
    shared = state.multiplayer
    if shared is not None and not shared.may_attack(attacker, defender):
        raise IllegalAction(_("{attacker} can attack only an opponent seated next to them, "
                              "not {defender} (809.3c)").format(attacker=attacker,
                                                                defender=defender))


def _check_attacked(state: GameState, target: Attacked, attacker: str) -> None:
    if isinstance(target, str):
        if target not in state.opponents(attacker):
            raise IllegalAction(_("{attacker} can't attack {target}").format(attacker=attacker,
                                                                          target=target))
        _check_seated_next(state, attacker, target)
        return
    obj = state.objects.get(target or -1)
    if obj is None or obj.zone != "battlefield":
        raise IllegalAction(_("only a player, planeswalker or battle can be attacked"))
    defender = obj.protector if state.characteristics(obj.id).is_a("Battle") \
        else state.controller(obj.id)
    if defender is not None:
        _check_seated_next(state, attacker, defender)
    ch = state.characteristics(obj.id)
    if ch.is_a("Battle"):
        if not battles.can_attack(state, obj, attacker):
            raise IllegalAction(_("{attacker} can't attack {battle}: its protector is {protector} "
                                  "(310.8b)").format(attacker=attacker, battle=_name(obj),
                                                     protector=obj.protector))
        return
    if ch.is_a("Planeswalker") and state.controller(obj.id) in state.opponents(attacker):
        return
    raise IllegalAction(_("{what} can't be attacked").format(what=_name(obj)))


def declare_blockers(state: GameState, blocks: Mapping[int, list[int]]) -> None:
    """509.1: each blocker blocks one attacker (more if an ability lets it)."""
    combat = _combat(state)
    state.step = "declare blockers"
    for blocker, attackers in blocks.items():
        obj = state.objects[blocker]
        ch = state.characteristics(blocker)
        who = _name(obj)
        if obj.zone != "battlefield" or not ch.is_a("Creature") or obj.tapped:
            raise IllegalAction(_("{who} can't block: not an untapped creature").format(who=who))
        if ch.is_a("Battle"):
            raise IllegalAction(_("{who} is a battle: battles can't block (509.1a)")
                                .format(who=who))
        allowed = 1 + len([a for a in ch.abilities
                           if a.keyword == "can block an additional creature each combat"])
        if len(attackers) > allowed:
            raise IllegalAction(ngettext("{who} can block {allowed} creature(s), not {n}",
                                           "{who} can block {allowed} creature(s), not {n}",
                                           allowed).format(who=who, allowed=allowed,
                                                           n=len(attackers)))
        controller = state.controller(blocker)
        for attacker in attackers:
            _check_block(state, combat, attacker, blocker, controller)
        combat.blocks[blocker] = list(attackers)
        combat.controllers[blocker] = controller
        combat.blocked.update(attackers)
    alone = alone_violation(state, list(blocks), "block")
    if alone:
        raise IllegalAction(alone)
    unmet = menace_unmet(state, blocks)
    if unmet:
        raise IllegalAction(_("{who} has menace: it can't be blocked except by two or more "
                              "creatures (702.111b)").format(who=_name(state.objects[unmet[0]])))
    state.touch()
    for blocker, attackers in blocks.items():
        state.emit("blocks", obj=blocker, data={"attackers": list(attackers)})
        for attacker in attackers:  # "whenever this creature blocks a creature": that one
            state.emit("blocks_creature", obj=blocker, data={"extra": {"referred": attacker}})
    for attacker in combat.attackers:  # 509.3c-e: once per attacker, however many block it
        if attacker in combat.blocked:
            state.emit("becomes_blocked", obj=attacker, player=combat.attackers[attacker]
                       if isinstance(combat.attackers[attacker], str) else None,
                       data={"blockers": combat.blockers_of(attacker)})
        else:
            state.emit("unblocked", obj=attacker)


def _check_block(state: GameState, combat: Combat, attacker: int, blocker: int,
                 controller: str) -> None:
    if attacker not in combat.attackers:
        raise IllegalAction(_("{who} isn't attacking").format(who=_name(state.objects[attacker])))
    target = combat.attackers[attacker]
    if isinstance(target, int) and state.characteristics(target).is_a("Battle"):
        if not battles.can_block_for(state.objects[target], controller):
            raise IllegalAction(_("only creatures the protector of {battle} controls can block "
                                  "creatures attacking it (310.8c)").format(
                                      battle=_name(state.objects[target])))
    elif isinstance(target, str) and target != controller:
        raise IllegalAction(_("{player} isn't the defending player").format(player=controller))
    ach, bch = state.characteristics(attacker), state.characteristics(blocker)
    if ach.has("flying") and not (bch.has("flying") or bch.has("reach")):
        raise IllegalAction(_("{who} can't block a creature with flying (702.9b)").format(
            who=_name(state.objects[blocker])))
    reason = block_restriction(state, attacker, blocker, controller)
    if reason:
        raise IllegalAction(_("{who} can't block {attacker}: {reason}").format(
            who=_name(state.objects[blocker]), attacker=_name(state.objects[attacker]),
            reason=reason))


def _combat(state: GameState) -> Combat:
    if state.combat is None:
        raise IllegalAction(_("no combat: declare attackers first"))
    return state.combat


def _name(obj: GameObject) -> str:
    return obj.alias or obj.printed.front.name or str(obj.id)


def refresh(state: GameState) -> None:
    """506.4: creatures that stop being creatures (or become battles) or change controller,
    and attacked battles that stop being battles or change controller, leave combat."""
    combat = state.combat
    if combat is None:
        return
    for oid in list(combat.attackers) + list(combat.blocks):
        if oid not in state.objects:
            combat.remove(oid)
            continue
        ch = state.characteristics(oid)
        if not ch.is_a("Creature") or ch.is_a("Battle") or \
                state.controller(oid) != combat.controllers.get(oid):
            combat.remove(oid)
    for target in combat.attacked_objects():
        if target not in state.objects:
            combat.remove(target)
            continue
        ch = state.characteristics(target)
        was_battle = target in combat.controllers
        if was_battle and (not (ch.is_a("Battle") or ch.is_a("Planeswalker"))
                           or state.controller(target) != combat.controllers[target]):
            combat.remove(target)


# -- combat damage ---------------------------------------------------------------------------


def _first_striker(state: GameState, oid: int) -> bool:
    ch = state.characteristics(oid)
    return ch.has("first strike") or ch.has("double strike")


def _strikes_now(state: GameState, oid: int, combat: Combat) -> bool:
    """510.4: in a first-strike combat damage step, the creatures with first strike or double
    strike assign combat damage; in the next one, those that had neither as the first one
    began (whatever they dealt then, 702.7c) and those that have double strike now."""
    if combat.damage_steps == 0 and combat.first_strikers is not None:
        return oid in combat.first_strikers
    if combat.first_strikers is None:
        return True
    return state.characteristics(oid).has("double strike") or oid not in combat.first_strikers


def _begin_step(state: GameState, combat: Combat, first_strike: bool | None) -> None:
    """510.4, 702.7b: the first combat damage step is a first-strike step exactly when an
    attacking or blocking creature has first strike or double strike as it begins; a second
    one follows only a first-strike step. ``first_strike`` (optional) must agree."""
    if combat.damage_steps >= (2 if combat.first_strikers is not None else 1):
        raise IllegalAction(_("combat damage has been dealt in this combat: the phase proceeds "
                              "to the end of combat step (510.4)"))
    if combat.damage_steps == 0:
        fast = {oid for oid in (*combat.attackers, *combat.blocks)
                if oid in state.objects and _first_striker(state, oid)}
        combat.first_strikers = fast or None
    is_first = combat.damage_steps == 0 and combat.first_strikers is not None
    if first_strike is not None and first_strike != is_first:
        raise IllegalAction(
            _("this is the first-strike combat damage step: a creature has first strike or "
              "double strike (510.4)") if is_first else
            _("this is not a first-strike combat damage step (510.4, 702.7b)"))
    note(state, "510.4" if is_first else "510.1",
         "first-strike combat damage step" if is_first else "combat damage step")


def combat_damage(state: GameState, *, first_strike: bool | None = None,
                  assign: Mapping[int, Mapping[Any, int]] | None = None) -> None:
    """510.1-510.2: assign each creature's combat damage (the given assignment, checked, or
    the only legal one for simple cases), then deal it all at once, as one damage event."""
    combat = _combat(state)
    state.step = "combat damage"
    refresh(state)
    _begin_step(state, combat, first_strike)
    assign = dict(assign or {})
    plan: dict[int, dict[Any, int]] = {}
    for attacker, target in combat.attackers.items():
        if not _strikes_now(state, attacker, combat):
            continue
        power = state.characteristics(attacker).power or 0
        parts = _default(state, combat, attacker, target, power) if power > 0 else {}
        if not parts:  # 510.1a-c: it assigns no combat damage
            if attacker in assign:
                raise IllegalAction(_("{who} assigns no combat damage (510.1a-c)").format(
                    who=_name(state.objects[attacker])))
            continue
        plan[attacker] = dict(assign.pop(attacker, None) or parts)
    for blocker, attackers in combat.blocks.items():
        if not _strikes_now(state, blocker, combat):
            continue
        power = state.characteristics(blocker).power or 0
        if power <= 0 or not attackers:  # 510.1a, 510.1d
            if blocker in assign:
                raise IllegalAction(_("{who} assigns no combat damage (510.1a, 510.1d)").format(
                    who=_name(state.objects[blocker])))
            continue
        plan[blocker] = dict(assign.pop(blocker, None) or {attackers[0]: power})
    if assign:
        raise IllegalAction(_("no combat damage to assign for {which}").format(
            which=sorted(assign)))
    check_assignment(state, combat, plan)
    combat.damage_steps += 1
    hits = [(creature, recipient, n) for creature, parts in plan.items()
            for recipient, n in parts.items()]
    dealers: dict[str, set[str]] = defaultdict(set)
    for creature, recipient, _amount in deal_simultaneously(state, hits, combat=True):  # 510.2
        if isinstance(recipient, str):
            dealers[recipient].add(state.controller(creature))
    for player, controllers in dealers.items():
        state.emit("combat_damage_batch", player=player, data={"dealers": sorted(controllers)})


def _default(state: GameState, combat: Combat, attacker: int, target: Attacked,
             power: int) -> dict[Any, int]:
    blockers = combat.blockers_of(attacker)
    ch = state.characteristics(attacker)
    if attacker not in combat.blocked:
        return {target: power} if target is not None else {}
    if not blockers:
        if ch.has("trample") and target is not None:  # 702.19d
            return {target: power}
        return {}
    plan: dict[Any, int] = {}
    left = power
    for blocker in blockers:
        bch = state.characteristics(blocker)
        need = lethal_damage(bch, state.objects[blocker].damage, ch.has("deathtouch"))
        give = min(left, need)
        plan[blocker] = give
        left -= give
    if left:
        if ch.has("trample") and target is not None:
            plan[target] = plan.get(target, 0) + left
        else:
            plan[blockers[-1]] += left
    return {k: v for k, v in plan.items() if v}


def check_assignment(state: GameState, combat: Combat,
                     plan: Mapping[int, Mapping[Any, int]]) -> None:
    """510.1, 702.19b-c, 510.1e: the whole assignment must follow the rules."""
    incoming: dict[Any, int] = defaultdict(int)
    for parts in plan.values():
        for recipient, n in parts.items():
            if n < 0:
                raise IllegalAction(_("combat damage can't be negative"))
            incoming[recipient] += n
    for creature, parts in plan.items():
        ch = state.characteristics(creature)
        power = ch.power or 0
        who = _name(state.objects[creature])
        if sum(parts.values()) != power:
            raise IllegalAction(_("{who} assigns {n} damage; its power is {power} (510.1a)").format(
                who=who, n=sum(parts.values()), power=power))
        if creature in combat.blocks:
            if any(r not in combat.blocks[creature] for r in parts):
                raise IllegalAction(_("{who} assigns damage only to creatures it blocks (510.1d)")
                                    .format(who=who))
            continue
        target = combat.attackers[creature]
        blockers = combat.blockers_of(creature)
        if creature not in combat.blocked:
            beyond = set(parts) - {target}
            if beyond and not ch.has("trample over planeswalkers"):
                raise IllegalAction(_("{who} is unblocked: its damage goes to what it attacks "
                                      "(510.1b)").format(who=who))
            if beyond:
                _check_beyond(state, creature, ch, target, beyond, incoming)
            continue
        extra = set(parts) - set(blockers)
        if not extra:
            continue
        trample = ch.has("trample") or ch.has("trample over planeswalkers")
        if not trample:
            raise IllegalAction(_("{who} is blocked and has no trample: its damage goes to the "
                                  "creatures blocking it (510.1c)").format(who=who))
        lethal_missing = [b for b in _relevant_blockers(state, creature, blockers)
                          if incoming[b] < lethal_damage(state.characteristics(b),
                                                         state.objects[b].damage,
                                                         ch.has("deathtouch"))]
        if lethal_missing:
            raise IllegalAction(
                _("{who} can assign damage to {beyond} only once every blocker is assigned "
                  "lethal damage; {missing} is not (702.19b)").format(
                    who=who, beyond=_show(state, extra),
                    missing=", ".join(_name(state.objects[b]) for b in lethal_missing)))
        _check_beyond(state, creature, ch, target, extra, incoming)


def _relevant_blockers(state: GameState, attacker: int, blockers: list[int]) -> list[int]:
    """Today every blocker counts (702.19b); the 1998 rules ignored blockers that can't be
    dealt the attacker's combat damage."""
    if not state.rules.trample_ignores_unharmable_blockers:
        return blockers
    source = state.characteristics(attacker)
    return [b for b in blockers if can_be_dealt_combat_damage(state, b)
            and not protected_from(state.characteristics(b), source)]


def _check_beyond(state: GameState, creature: int, ch: Any, target: Attacked,
                  extra: set[Any], incoming: Mapping[Any, int]) -> None:
    """702.19b-c: excess damage goes to what it attacks; with trample over planeswalkers,
    beyond the planeswalker's loyalty, to its controller."""
    allowed: set[Any] = {target}
    if isinstance(target, int) and ch.has("trample over planeswalkers"):
        pw = state.characteristics(target)
        if pw.is_a("Planeswalker") and incoming[target] >= (pw.loyalty or 0):
            allowed.add(state.controller(target))
        elif any(isinstance(r, str) for r in extra):
            raise IllegalAction(_("damage goes to the planeswalker's controller only once the "
                                  "planeswalker is assigned damage equal to its loyalty "
                                  "(702.19c)"))
    wrong = extra - allowed
    if wrong:
        raise IllegalAction(_("{who} can't assign damage to {what}").format(
            who=_name(state.objects[creature]), what=_show(state, wrong)))


def _show(state: GameState, refs: set[Any]) -> str:
    return ", ".join(r if isinstance(r, str) else _name(state.objects[r]) for r in refs)
