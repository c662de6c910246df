"""Damage and life (rules 119, 120, 615, 702.2 deathtouch, 702.16 protection).

Damage is first checked against prevention (protection from a quality, "prevent all combat
damage"); what is left has its result by recipient (120.3): life loss for a player, damage
marked on a creature, loyalty counters removed from a planeswalker, defense counters removed
from a battle (310.6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.engine.keyword_rules import absorbed, damage_as_counters, poison_from
from kb.engine.objects import Characteristics, EngineError, GameObject
from kb.engine.replacements import Proposal, replace

if TYPE_CHECKING:
    from kb.engine.state import GameState

Recipient = int | str  # an object id or a player name


def protected_from(ch: Characteristics, source: Characteristics) -> bool:
    """702.16: protection from a color (or "from everything"), judged on the source."""
    for quality in ch.keyword_args("protection from"):
        quality = quality.lower()
        if quality == "everything" or quality in source.colors:
            return True
        if quality.capitalize() in source.types:
            return True
    return False


def can_be_dealt_combat_damage(state: GameState, oid: int) -> bool:
    """Whether a static ability prevents all combat damage that would be dealt to it
    (Gaseous Form); used by the 1998 trample rule."""
    return not any(_prevents_combat(state, perm, oid) for perm in state.battlefield())


def _prevents_combat(state: GameState, perm: GameObject, oid: int) -> bool:
    for ability in state.characteristics(perm.id).abilities:
        static = ability.spec.get("static") or {}
        if static.get("prevent_combat_damage") and static.get("affects") in (
                "enchanted", "equipped", "attached") and perm.attached_to == oid:
            return True
    return False


def prevented(state: GameState, source: int, recipient: Recipient, amount: int,
              combat: bool) -> int:
    """615, 702.16e: how much of the damage is dealt once prevention applies."""
    src = state.characteristics(source)
    if isinstance(recipient, int):
        ch = state.characteristics(recipient)
        if protected_from(ch, src):
            return 0
        if combat and not can_be_dealt_combat_damage(state, recipient):
            return 0
    if combat and source in state.objects and not can_be_dealt_combat_damage(state, source):
        return 0  # "... and dealt by enchanted creature"
    return amount


def _within(state: GameState, source: int, recipient: Recipient) -> bool:
    """801.13a: a replacement effect can't make a spell or ability affect what is outside its
    controller's range of influence: that portion of the event does nothing."""
    shared = state.multiplayer
    if shared is None:
        return True
    player = recipient if isinstance(recipient, str) else (
        state.controller(recipient) if recipient in state.objects else None)
    controller = state.controller(source) if source in state.objects else None
    return controller is None or shared.in_range(controller, player)


def deal_damage(state: GameState, source: int, recipient: Recipient, amount: int, *,
                combat: bool = False, group: int | None = None) -> int:
    """Deal damage; return how much was dealt after prevention."""
    if amount <= 0:
        return 0
    amount = prevented(state, source, recipient, amount, combat)
    if amount <= 0:
        return 0
    proposal = replace(state, Proposal(
        "damage", amount, source=source, player=recipient if isinstance(recipient, str)
        else None, obj=recipient if isinstance(recipient, int) else None))
    dealt = sum(deal_damage(state, source, to, n, combat=combat, group=group)
                for n, to in proposal.redirected if _within(state, source, to))
    if not proposal.happens:
        return dealt  # 615: prevented (or all of it dealt elsewhere)
    amount = proposal.amount
    recipient = proposal.player if proposal.player is not None else proposal.obj  # redirected
    assert recipient is not None
    src = state.characteristics(source)
    if isinstance(recipient, str):
        if not src.has("infect"):
            lose_life(state, recipient, amount)  # 120.3a
        poison = poison_from(src, amount, combat)  # 120.3b, 702.164c
        if poison:
            state.player(recipient).poison += poison
        state.emit("damage", source=source, player=recipient, amount=amount, combat=combat,
                   group=group)
        _lifelink(state, source, src, amount)
        return amount
    obj = state.objects.get(recipient)
    if obj is None:
        raise EngineError(f"damage to object {recipient}, which is gone")
    ch = state.characteristics(recipient)
    amount = absorbed(ch, amount)
    if amount <= 0:
        return 0
    if ch.is_a("Creature"):
        if damage_as_counters(src):
            obj.counters["-1/-1"] += amount  # 120.3d
        else:
            obj.damage += amount  # 120.3e
        if src.has("deathtouch"):
            obj.deathtouch_damage = True  # 702.2b
    if ch.is_a("Planeswalker"):
        obj.counters["loyalty"] = max(obj.counters["loyalty"] - amount, 0)  # 120.3c
    state.touch()
    state.emit("damage", source=source, obj=recipient, amount=amount, combat=combat,
               group=group)
    if ch.is_a("Battle"):
        remove_counters(state, recipient, "defense", amount)  # 120.3h, 310.6
    _lifelink(state, source, src, amount)
    return amount


def _lifelink(state: GameState, source: int, src: Characteristics, amount: int) -> None:
    """702.15b, 120.3f: damage dealt by a source with lifelink causes its controller to gain
    that much life (one life-gain event per source, 702.15e)."""
    if src.has("lifelink"):
        controller = src.controller or (state.objects.get(source) or
                                         state.last_known[source].obj).controller
        gain_life(state, controller, amount)


def remove_counters(state: GameState, oid: int, kind: str, n: int) -> int:
    """Remove up to ``n`` counters; the last defense counter removed is an event Sieges
    trigger on (310.11b)."""
    obj = state.objects[oid]
    before = obj.counters[kind]
    removed = min(before, n)
    if removed <= 0:
        return 0
    obj.counters[kind] = before - removed
    state.touch()
    state.emit("counters_removed", obj=oid, amount=removed, data={"kind": kind})
    if kind == "defense" and obj.counters[kind] == 0:
        state.emit("last_defense_counter_removed", obj=oid)
    return removed


def lethal_damage(ch: Characteristics, marked: int, deathtouch_source: bool) -> int:
    """120.6, 702.2c: the damage that would be lethal to a creature with ``marked`` damage
    already (any nonzero amount from a source with deathtouch)."""
    if deathtouch_source:
        return 1
    return max((ch.toughness or 0) - marked, 0)


# -- life ------------------------------------------------------------------------------------


def lose_life(state: GameState, player: str, n: int) -> None:
    if n <= 0:
        return
    who = state.player(player)
    who.life -= n
    who.life_lost_total += n
    _share_life(state, player)
    state.emit("life_loss", player=player, amount=n)


def gain_life(state: GameState, player: str, n: int) -> Proposal | None:
    """119.3: the player gains ``n`` life, unless replacement effects modify or replace the
    gain; instructions that replace it wait in ``state.deferred`` for the instruction or action
    under way to carry them out (a gain from lifelink included)."""
    if n <= 0:
        return None
    proposal = replace(state, Proposal("gain_life", n, player=player))
    if proposal.happens:
        who = state.player(player)
        who.life += proposal.amount
        who.life_gained_total += proposal.amount
        _share_life(state, player)
        state.emit("life_gain", player=player, amount=proposal.amount)
    return proposal


def _share_life(state: GameState, player: str) -> None:
    """810.9: what happens to one player's life happens to the team's shared life total."""
    shared = state.multiplayer
    if shared is not None and shared.shared_life:
        for mate in shared.teammates(player):
            state.player(mate).life = state.player(player).life


def set_life(state: GameState, player: str, n: int) -> Proposal | None:
    """119.5: a life total that "becomes" N: the player gains or loses the difference."""
    current = state.player(player).life
    if n < current:
        lose_life(state, player, current - n)
    elif n > current:
        return gain_life(state, player, n - current)
    return None
