"""Damage and life (rules 119, 120, 615, 702.2 deathtouch, 702.16 protection).

Damage is first checked against prevention (protection from a quality, "prevent all combat
damage"); what is left has its result by recipient (120.3): life loss for a player, damage
marked on a creature, loyalty counters removed from a planeswalker, defense counters removed
from a battle (310.6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace as replace_fields
from typing import TYPE_CHECKING, Any

from kb.engine import player_rules
from kb.engine.keyword_rules import absorbed, damage_as_counters, poison_from
from kb.engine.objects import Characteristics, GameObject
from kb.engine.replacements import (
    Followup,
    Proposal,
    counter_amount,
    damage_unpreventable,
    note,
    replace,
)

if TYPE_CHECKING:
    from kb.engine.state import GameState

Recipient = int | str  # an object id or a player name


def protected_from(ch: Characteristics, source: Characteristics) -> bool:
    """702.16: protection from a color (or "from everything"), judged on the source."""
    return any(has_quality(source, quality) for quality in ch.keyword_args("protection from"))


def has_quality(source: Characteristics, quality: str) -> bool:
    """Whether a source has the quality a protection or hexproof ability names (702.16a,
    702.11d): "everything", a color ("green"; "monocolored", "multicolored"), or a card type
    ("artifacts", "creatures")."""
    quality = quality.lower().strip()
    if quality == "everything" or quality in source.colors:
        return True
    if quality == "monocolored":
        return len(source.colors) == 1
    if quality == "multicolored":
        return len(source.colors) > 1
    return quality.removesuffix("s").capitalize() in source.types


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
    """615, 702.16e: how much of the damage is dealt once prevention applies (all of it where
    damage can't be prevented)."""
    if damage_unpreventable(state):
        return amount
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


Hit = tuple[int, Recipient, int]  # one part of a damage event: source, recipient, amount


@dataclass
class _Dealt:
    """One part of a damage event once prevention and replacement effects have applied."""

    source: int
    recipient: Recipient
    amount: int
    prevented: int = 0


def deal_damage(state: GameState, source: int, recipient: Recipient, amount: int, *,
                combat: bool = False, group: int | None = None) -> int:
    """Deal damage from one source to one recipient; return how much was dealt after
    prevention."""
    dealt = deal_simultaneously(state, [(source, recipient, amount)], combat=combat,
                                group=group)
    return sum(n for _, _, n in dealt)


def deal_simultaneously(state: GameState, hits: Sequence[Hit], *, combat: bool = False,
                        group: int | None = None) -> list[Hit]:
    """120.2, 510.2: damage dealt at the same time is one damage event. Each part is
    modified by prevention and replacement effects (615, 616; a part redirected elsewhere
    stays part of the event), then all its results happen (120.3), then each source with
    lifelink causes one life gain event for all the damage it dealt in the event (702.15b,
    119.9; several sources: separate events, 702.15e). What an effect adds to the event
    (``also``) happens once per effect and recipient, amounts summed. Returns the parts
    dealt (source, recipient, amount)."""
    group = group if group is not None else state.new_id()
    dealt: list[_Dealt] = []
    followups: dict[tuple[Any, Any], Followup] = {}
    for source, recipient, amount in hits:
        _propose(state, source, recipient, amount, combat, group, frozenset(), dealt,
                 followups)
    prevented_to: dict[Recipient, int] = {}
    for part in dealt:
        if part.prevented:
            prevented_to[part.recipient] = prevented_to.get(part.recipient, 0) + part.prevented
    for recipient, n in prevented_to.items():  # 615: damage prevented, once per recipient
        state.emit("damage_prevented", amount=n, group=group, **_recipient(recipient))
    done = [part for part in dealt if part.amount > 0 and _result(state, part, combat, group)]
    for part in done:
        note(state, "120.3", f"{_named(state, part.source)} deals {part.amount} "
             f"{'combat ' if combat else ''}damage to {_named(state, part.recipient)}")
    gained: dict[int, int] = {}
    for part in done:
        gained[part.source] = gained.get(part.source, 0) + part.amount
    for source, amount in gained.items():
        _lifelink(state, source, state.characteristics(source), amount)
    state.deferred += list(followups.values())
    return [(part.source, part.recipient, part.amount) for part in done]


def _named(state: GameState, ref: Recipient) -> str:
    """A player, or an object by its scenario name (alias) or name, for the rules log."""
    if isinstance(ref, str):
        return ref
    obj = state.objects.get(ref) or (state.last_known[ref].obj if ref in state.last_known
                                     else None)
    if obj is None:
        return f"object {ref}"
    alias = next((a for a, card in state.aliases.items() if card == obj.card), None)
    return alias or state.characteristics(ref).name or f"object {ref}"


def _recipient(recipient: Recipient) -> dict[str, Any]:
    return {"player": recipient} if isinstance(recipient, str) else {"obj": recipient}


def _propose(state: GameState, source: int, recipient: Recipient, amount: int, combat: bool,
             group: int, applied: frozenset[Any], dealt: list[_Dealt],
             followups: dict[tuple[Any, Any], Followup]) -> None:
    """One part of a damage event through prevention (protection, static abilities) and the
    replacement effects (616.1); what it becomes is added to ``dealt``."""
    if amount <= 0:
        return
    left = prevented(state, source, recipient, amount, combat)
    proposal = Proposal("damage", left, source=source, combat=combat, group=group,
                        player=recipient if isinstance(recipient, str) else None,
                        obj=recipient if isinstance(recipient, int) else None)
    proposal.applied |= applied
    proposal = replace(state, proposal, defer=False)
    for followup in proposal.followups():
        key = (followup.key, recipient)
        if key in followups:
            old = followups[key]
            followups[key] = replace_fields(old, amount=old.amount + followup.amount,
                                            prevented=old.prevented + followup.prevented)
        else:
            followups[key] = replace_fields(followup, applied=frozenset(proposal.applied))
    for n, to in proposal.redirected:
        if _within(state, source, to):
            _propose(state, source, to, n, combat, group, frozenset(proposal.applied), dealt,
                     followups)
    now = proposal.player if proposal.player is not None else proposal.obj  # redirected
    if now is None:
        return
    part = _Dealt(source, now, proposal.amount if proposal.happens else 0,
                  amount - left + proposal.prevented)
    if part.amount or part.prevented:
        dealt.append(part)


def _result(state: GameState, part: _Dealt, combat: bool, group: int) -> bool:
    """120.3: the results of one part of the damage; False if it dealt none (its recipient
    gone, or absorb preventing it)."""
    source, recipient, amount = part.source, part.recipient, part.amount
    src = state.characteristics(source)
    if isinstance(recipient, str):
        if not src.has("infect"):
            lose_life(state, recipient, amount)  # 120.3a
        poison = poison_from(src, amount, combat)  # 120.3b, 702.164c
        if poison and not player_rules.holds(state, recipient, "cant_get_poison_counters"):
            state.player(recipient).poison += poison
        state.emit("damage", source=source, player=recipient, amount=amount, combat=combat,
                   group=group)
        return True
    obj = state.objects.get(recipient)
    if obj is None or obj.zone != "battlefield":
        return False  # it left the battlefield since the damage was proposed
    ch = state.characteristics(recipient)
    part.amount = amount = absorbed(ch, amount)
    if amount <= 0:
        return False
    if ch.is_a("Creature"):
        if damage_as_counters(src) or _all_damage_as_wither(state):
            obj.counters["-1/-1"] += counter_amount(state, obj, amount, "-1/-1")  # 120.3d
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
    return True


def _all_damage_as_wither(state: GameState) -> bool:
    """"All damage is dealt as though its source had wither" (a static ability's
    ``damage_as_wither``, Everlasting Torment)."""
    return any((a.spec.get("static") or {}).get("damage_as_wither")
               for perm in state.battlefield()
               for a in state.characteristics(perm.id).abilities)


def _lifelink(state: GameState, source: int, src: Characteristics, amount: int) -> None:
    """702.15b, 120.3f: damage dealt by a source with lifelink causes its controller to gain
    that much life: one life gain event for the damage it dealt in one event (119.9)."""
    if src.has("lifelink"):
        controller = src.controller or (state.objects.get(source) or
                                         state.last_known[source].obj).controller
        note(state, "702.15b", f"lifelink: {amount} life for {controller}")
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
    under way to carry them out (a gain from lifelink included); 119.7: nothing, while an
    effect says the player can't gain life."""
    if n <= 0 or player_rules.holds(state, player, "cant_gain_life"):
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
