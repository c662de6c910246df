"""State-based actions (rule 704): checked whenever a player would receive priority, never in
the middle of a resolution (704.3, 704.4); all that apply are performed at once, with last
known information taken from before any of them (704.8); then again, until none apply.

Implemented: 704.5a, b (losing the game, with a replacement such as Lich's Mirror, 704.7),
d, e (tokens and copies outside their zones), f, g, h (creatures), i (planeswalkers), j (the
legend rule), m, n, p (attachments), q (+1/+1 and -1/-1 counters), v, w, x (battles).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.engine import battles, player_rules
from kb.engine.combat import refresh
from kb.engine.effects import run_deferred, run_instead
from kb.engine.objects import Characteristics, GameObject, IllegalAction
from kb.engine.replacements import Proposal, replace
from kb.engine.zones import cease_to_exist, destroyed, move_all
from kb.i18n import _

if TYPE_CHECKING:
    from kb.engine.state import GameState


def check(state: GameState) -> bool:
    """Perform the state-based actions that apply now, simultaneously; True if any did."""
    if state.resolving:
        return False  # 704.3: not during a resolution
    refresh(state)
    losers = [p for p, pl in state.players.items() if not pl.lost and not pl.left_game and (
        (pl.life <= 0 and not player_rules.holds(state, p, "cant_lose_for_life"))
        or pl.drew_from_empty or pl.poison >= 10)
        and not player_rules.holds(state, p, "cant_lose")]  # 704.5a-c
    if state.multiplayer is not None:  # 810.8a: a team loses as one
        losers += [m for p in list(losers) for m in state.multiplayer.teammates(p)
                   if m not in losers and not state.players[m].lost]
    to_graveyard: list[GameObject] = []
    to_destroy: list[GameObject] = []
    vanish: list[GameObject] = []
    unattach: list[GameObject] = []
    annihilate: list[GameObject] = []
    protectors: list[tuple[GameObject, str]] = []
    why: list[tuple[str, str]] = []  # the rules applied, for kb check's report
    pending_sources = {p.source for p in state.pending} | {
        state.objects[i].spell.source for i in state.stack
        if state.objects[i].spell and state.objects[i].spell.source is not None}
    for obj in list(state.objects.values()):
        if obj.token and obj.zone != "battlefield":
            vanish.append(obj)  # 704.5d
            why.append(("704.5d", f"{_named(state, obj)}, a token out of the battlefield, "
                                  "ceases to exist"))
            continue
        if obj.spell_copy and obj.zone != "stack":
            vanish.append(obj)  # 704.5e
            continue
        if obj.copy_of_card and obj.zone not in ("stack", "battlefield"):
            vanish.append(obj)  # 704.5e
            continue
        if obj.zone != "battlefield" or obj.phased_out:
            continue
        ch = state.characteristics(obj.id)
        if ch.is_a("Creature"):
            toughness = ch.toughness or 0
            if toughness <= 0:
                to_graveyard.append(obj)  # 704.5f
                why.append(("704.5f", f"{_named(state, obj)} has toughness {toughness}: "
                                      "put into its owner's graveyard"))
            elif obj.damage >= toughness or obj.deathtouch_damage:
                to_destroy.append(obj)  # 704.5g, 704.5h
                why.append(("704.5h" if obj.damage < toughness else "704.5g",
                            f"{_named(state, obj)} has lethal damage: destroyed"))
        if ch.is_a("Planeswalker") and (ch.loyalty or 0) <= 0:
            to_graveyard.append(obj)  # 704.5i
            why.append(("704.5i", f"{_named(state, obj)} has 0 loyalty"))
        if ch.is_a("Battle"):
            if obj.counters["defense"] <= 0 and obj.id not in pending_sources:
                to_graveyard.append(obj)  # 704.5v
            action = battles.protector_actions(state, obj, ch)
            if action and action[0] == "graveyard":
                to_graveyard.append(obj)
            elif action:
                protectors.append((obj, action[1]))  # 704.5w, 704.5x
        _attachment(state, obj, ch, to_graveyard, unattach)
        if obj.counters["+1/+1"] > 0 and obj.counters["-1/-1"] > 0:
            annihilate.append(obj)  # 704.5q
    legends = _legend_rule(state)
    to_graveyard += legends
    why += [("704.5j", f"legend rule: {_named(state, obj)} is put into its owner's graveyard")
            for obj in legends]
    why += [("704.5a-c", f"{player} loses the game") for player in losers]
    done = bool(losers or to_graveyard or vanish or unattach or annihilate or protectors)
    with state.at_once():  # 704.3: all applicable state-based actions, as a single event
        _perform(state, losers, to_graveyard, to_destroy, vanish, unattach, annihilate,
                 protectors)
    state.applied_rules += why
    run_deferred(state)  # what replacement effects added to those events
    state.touch()
    return done


def _named(state: GameState, obj: GameObject) -> str:
    """An object's scenario name (its alias), else its name."""
    alias = next((a for a, card in state.aliases.items() if card == obj.card), None)
    return alias or state.characteristics(obj.id).name or f"object {obj.id}"


def _perform(state: GameState, losers: list[str], to_graveyard: list[GameObject],
             to_destroy: list[GameObject], vanish: list[GameObject],
             unattach: list[GameObject], annihilate: list[GameObject],
             protectors: list[tuple[GameObject, str]]) -> None:
    for obj, protector in protectors:
        obj.protector = protector
        state.emit("protector_chosen", obj=obj.id, player=protector)
    for player in losers:
        _lose(state, player)
    for obj in vanish:
        cease_to_exist(state, obj)
    doomed = {obj.id: obj for obj in to_graveyard if obj.id in state.objects}
    # indestructible: it isn't destroyed (702.12b); regenerated: neither (701.19a)
    doomed |= {obj.id: obj for obj in destroyed(state, [
        o for o in to_destroy if o.id in state.objects and o.id not in doomed])}
    move_all(state, [(obj, "graveyard") for obj in doomed.values()])
    for obj in unattach:
        if obj.id in state.objects:
            obj.attached_to = None
    for obj in annihilate:
        if obj.id in state.objects:
            n = min(obj.counters["+1/+1"], obj.counters["-1/-1"])
            obj.counters["+1/+1"] -= n
            obj.counters["-1/-1"] -= n


def _attachment(state: GameState, obj: GameObject, ch: Characteristics,
                to_graveyard: list[GameObject], unattach: list[GameObject]) -> None:
    """704.5m (Auras), 704.5n (Equipment), 704.5p (battles and creatures)."""
    if "Aura" in ch.subtypes:
        host = state.objects.get(obj.attached_to) if obj.attached_to else None
        if host is None or host.zone != "battlefield" or not _can_enchant(state, ch, host):
            to_graveyard.append(obj)
        return
    if obj.attached_to is None:
        return
    host = state.objects.get(obj.attached_to)
    if "Equipment" in ch.subtypes:
        if host is None or not state.characteristics(host.id).is_a("Creature"):
            unattach.append(obj)
        return
    if ch.is_a("Battle") or ch.is_a("Creature"):
        unattach.append(obj)  # 704.5p, 310.9


def _can_enchant(state: GameState, ch: Characteristics, host: GameObject) -> bool:
    wanted = [a.arg or "" for a in ch.abilities if a.keyword == "enchant"]
    if not wanted:
        return True
    host_ch = state.characteristics(host.id)
    quality = wanted[0].strip().lower()
    if quality == "permanent":
        return True
    return any(t.lower() == quality for t in host_ch.types + host_ch.subtypes)


def _legend_rule(state: GameState) -> list[GameObject]:
    """704.5j: of legendary permanents with the same name a player controls, one stays (the
    newest here: the player's choice, made the usual way)."""
    seen: dict[tuple[str, str], list[GameObject]] = {}
    for obj in state.battlefield():
        ch = state.characteristics(obj.id)
        if "Legendary" in ch.supertypes and ch.name:
            seen.setdefault((state.controller(obj.id), ch.name), []).append(obj)
    out = []
    groups = [group for group in seen.values() if len(group) > 1]
    keep = state.choices.get("legend_keep") if groups else None
    card = state.aliases.get(keep) if keep is not None else None
    if keep is not None and not any(o.card == card for group in groups for o in group):
        raise IllegalAction(_("choices.legend_keep: {keep} is not one of the legendary "
                              "permanents the legend rule applies to (704.5j)").format(keep=keep))
    for group in groups:
        kept = next((o for o in group if o.card == card), max(group, key=lambda o: o.id))
        out += [o for o in group if o is not kept]
    return out


def _lose(state: GameState, player: str) -> None:
    """704.5a-b, with 704.7: one replacement effect replaces every loss of this check."""
    who = state.player(player)
    proposal = replace(state, Proposal("lose_game", player=player))
    if proposal.instead:
        who.drew_from_empty = False
        state.resolving += 1
        try:
            run_instead(state, proposal)
        finally:
            state.resolving -= 1
        state.emit("loss_replaced", player=player, source=proposal.instead[0].source)
        return
    who.lost = True
    state.emit("lost", player=player)


def check_all(state: GameState) -> None:
    """704.3: repeat until no state-based action applies."""
    for _round in range(100):
        if not check(state):
            return
    raise RuntimeError("state-based actions did not settle after 100 checks")
