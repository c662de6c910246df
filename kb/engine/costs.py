"""Costs of spells (118, 601.2f-h): the total cost, then paying it.

601.2f: the total cost is the mana cost or an alternative cost, plus additional costs and
cost increases (a permanent's ``cost_change`` with ``more``; the commander tax, 903.8), minus
cost reductions (``less``, generic mana only, never below {0}); it is then locked in, so a
reduction from a permanent sacrificed to pay a cost still applies (601.2h). 601.2g-h: it is
paid with creatures tapped for convoke (702.51a: each pays one generic mana or one mana of its
color), cards exiled from the graveyard for delve (702.66a: each pays one generic mana), mana
from the pool, and life for Phyrexian symbols (107.4f).

A cost change is a permanent's static ability ``cost_change = { spells = <filter>, caster =
you | opponent | any, more = "{1}" | less = "{2}" }`` ("Creature spells you cast cost {2}
less to cast").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx, evaluate
from kb.engine.damage import lose_life
from kb.engine.events import LastKnown
from kb.engine.filters import matches
from kb.engine.mana import COLOR_OF, ManaCost, ManaError, Symbol, pay_with_life, total_cost
from kb.engine.objects import (
    Characteristics,
    GameObject,
    IllegalAction,
    SpellInfo,
)
from kb.engine.zones import move
from kb.i18n import _

if TYPE_CHECKING:
    from kb.engine.state import GameState

COMMANDER_TAX = ManaCost.parse("{2}")


def spell_total_cost(state: GameState, spell: GameObject, player: str, base: ManaCost,
                     additional: Sequence[ManaCost], origin: str) -> ManaCost:
    """601.2f: base + additional costs + increases (commander tax included) - reductions."""
    extra = list(additional)
    if origin == "command":  # 903.8: {2} for each previous cast from the command zone
        extra += [COMMANDER_TAX] * state.command_casts[spell.card]
    reduction = 0
    for change, source, controller in _cost_changes(state, spell, player):
        times = 1
        if "per" in change:  # "costs {1} less for each ..." (an amount, kb.engine.amounts)
            times = evaluate(change["per"], Ctx(state, controller, source))
        if "more" in change:
            extra += [ManaCost.parse(change["more"])] * times
        else:
            reduction += ManaCost.parse(change["less"]).generic * times
    return total_cost(base, extra, reduction)


def additional_mana(ch: Characteristics) -> list[ManaCost]:
    """601.2b: the mana parts of a spell's additional costs (``{mana = "{2}"}``, and
    ``{waterbend = "{6}"}``: waterbending is paying that mana, 701.67a)."""
    return [ManaCost.parse(a.spec["additional_cost"][key]) for a in ch.abilities
            for key in ("mana", "waterbend") if key in a.spec.get("additional_cost", {})]


def pay_waterbend(state: GameState, ch: Characteristics, player: str, cost: ManaCost,
                  tapped: Sequence[Any]) -> ManaCost:
    """701.67a: for each generic mana in a waterbend cost, the player may tap an untapped
    artifact or creature they control rather than pay that mana; 701.67b: only the generic
    mana of the waterbend cost itself, never other generic mana of the total cost. Returns
    what is left to pay."""
    if not tapped:
        return cost
    allowed = sum(ManaCost.parse(a.spec["additional_cost"]["waterbend"]).generic
                  for a in ch.abilities if "waterbend" in a.spec.get("additional_cost", {}))
    if len(tapped) > allowed:
        raise IllegalAction(_("waterbend: only the {allowed} generic mana of the waterbend cost "
                              "can be paid by tapping, not {n} (701.67b)").format(
                                  allowed=allowed, n=len(tapped)))
    symbols = list(cost.symbols)
    for ref in tapped:
        obj = state.get(ref)
        tapper = state.characteristics(obj.id)
        if obj.zone != "battlefield" or obj.tapped or state.controller(obj.id) != player \
                or not (tapper.is_a("Artifact") or tapper.is_a("Creature")):
            raise IllegalAction(_("{what} is not an untapped artifact or creature {player} "
                                  "controls (701.67a)").format(what=ref, player=player))
        symbols = _pay_one(symbols, frozenset(),
                           _("waterbend: no generic mana left for {what}").format(what=ref))
        obj.tapped = True
    state.touch()
    return ManaCost(tuple(symbols))


def pay_sacrifice(state: GameState, ch: Characteristics, sacrifice: Sequence[Any],
                  player: str, info: SpellInfo) -> None:
    """601.2h: an additional cost of sacrificing a permanent (``{sacrifice = <filter>}``, as
    Fling asks), paid once the total cost is locked in; the spell keeps what was sacrificed
    (608.2h)."""
    wanted = [a.spec["additional_cost"] for a in ch.abilities if "additional_cost" in a.spec]
    if not any("sacrifice" in need for need in wanted) and sacrifice:
        raise IllegalAction(_("this spell has no cost that sacrifices anything"))
    for need in wanted:
        flt = need.get("sacrifice")
        if flt is None:
            continue
        if len(sacrifice) != 1:
            raise IllegalAction(_("sacrifice one permanent ({need}) to cast it").format(need=need))
        victim = state.get(sacrifice[0])
        vch = state.characteristics(victim.id)
        if victim.zone != "battlefield" or state.controller(victim.id) != player or \
                not matches(victim, vch, flt, you=player, opponents=state.opponents(player)):
            raise IllegalAction(_("{what} can't be sacrificed for this cost").format(
                what=sacrifice[0]))
        info.sacrificed.append(LastKnown(victim, vch))
        move(state, victim, "graveyard")


def pay_discard(state: GameState, ch: Characteristics, discard: Sequence[Any],
                player: str) -> None:
    """601.2h: an additional cost of discarding a card (``{discard = <filter>}``: "as an
    additional cost to cast this spell, discard a card"), paid once the total cost is locked
    in: any card in the caster's hand then, one spliced onto the spell included (702.47a)."""
    wanted = [a.spec["additional_cost"]["discard"] for a in ch.abilities
              if "discard" in a.spec.get("additional_cost", {})]
    if not wanted and discard:
        raise IllegalAction(_("this spell has no cost that discards anything"))
    for flt in wanted:
        if len(discard) != 1:
            raise IllegalAction(_("discard one card (discard) to cast it"))
        card = state.get(discard[0])
        if card.zone != "hand" or card.owner != player or not matches(
                card, state.characteristics(card.id), {**flt, "zone": "hand"}, you=player,
                opponents=state.opponents(player)):
            raise IllegalAction(_("{what} can't be discarded for this cost").format(
                what=discard[0]))
        move(state, card, "graveyard")
        state.emit("discarded", obj=card.id, player=player)


def _cost_changes(state: GameState, spell: GameObject, player: str
                  ) -> list[tuple[Mapping[str, Any], int, str]]:
    """The cost changes that apply to ``spell`` cast by ``player``: each with the object
    whose ability it is and that object's controller. A spell's own "this spell costs ...
    less" (``spells = "self"``) functions on the stack (601.2f), for that spell alone."""
    ch = state.characteristics(spell.id)
    found = [(change, spell.id, player) for ability in ch.abilities
             if (change := (ability.spec.get("static") or {}).get("cost_change")) is not None
             and change.get("spells") == "self"]
    for perm in state.battlefield():
        controller = state.controller(perm.id)
        for ability in state.characteristics(perm.id).abilities:
            change = (ability.spec.get("static") or {}).get("cost_change")
            if change is None or change.get("spells") == "self":
                continue
            caster = change.get("caster", "you")
            if (caster == "you" and player != controller) or (
                    caster == "opponent" and player not in state.opponents(controller)):
                continue
            if matches(spell, ch, {**change.get("spells", {}), "zone": "stack"},
                       you=controller, source=perm.id, opponents=state.opponents(controller)):
                found.append((change, perm.id, controller))
    return found


def pay_alternatively(state: GameState, spell_ch: Characteristics, player: str,
                      cost: ManaCost, convoke: Sequence[Any], delve: Sequence[Any]) -> ManaCost:
    """702.51a, 702.66a: tap creatures for convoke and exile cards for delve, each paying
    one mana of the locked-in total cost; the rest, to pay with mana (and life)."""
    if convoke and not spell_ch.has("convoke"):
        raise IllegalAction(_("only a spell with convoke can be paid by tapping creatures"))
    if delve and not spell_ch.has("delve"):
        raise IllegalAction(_("only a spell with delve can be paid by exiling cards"))
    symbols = list(cost.symbols)
    for ref in convoke:
        creature = state.get(ref)
        ch = state.characteristics(creature.id)
        if creature.zone != "battlefield" or creature.tapped or not ch.is_a("Creature") \
                or state.controller(creature.id) != player:
            raise IllegalAction(_("{what} is not an untapped creature {player} controls").format(
                what=ref, player=player))
        symbols = _pay_one(symbols, ch.colors,
                           _("convoke: nothing left {what} can pay").format(what=ref))
        creature.tapped = True
    for ref in delve:
        card = state.get(ref)
        if card.zone != "graveyard" or card.owner != player:
            raise IllegalAction(_("{what} is not a card in {player}'s graveyard").format(
                what=ref, player=player))
        symbols = _pay_one(symbols, frozenset(),
                           _("delve: no generic mana left for {what}").format(what=ref))
        move(state, card, "exile")
    state.touch()
    return ManaCost(tuple(symbols))


def _pay_one(symbols: list[Symbol], colors: frozenset[str], error: str) -> list[Symbol]:
    """One mana of ``symbols`` paid: a colored symbol of one of ``colors`` first, else one
    generic mana."""
    for i, symbol in enumerate(symbols):
        if symbol.generic is None and any(COLOR_OF.get(p) in colors for p in symbol.parts):
            return symbols[:i] + symbols[i + 1:]
    for i, symbol in enumerate(symbols):
        if symbol.generic:
            left = symbol.generic - 1
            return symbols[:i] + ([Symbol(str(left))] if left else []) + symbols[i + 1:]
    raise IllegalAction(error)


def pay_cost(state: GameState, player: str, cost: ManaCost,
             pay_life: int | None = None) -> Counter[str]:
    """601.2g-h: pay a total cost, mana from the pool and Phyrexian symbols with life
    (107.4f; paying life is losing it, 119.4); the mana spent."""
    who = state.player(player)
    try:
        spent, life = pay_with_life(cost, who.mana_pool, who.life, pay_life)
    except ManaError as exc:
        raise IllegalAction(str(exc)) from exc
    if life:
        lose_life(state, player, life)
    return spent
