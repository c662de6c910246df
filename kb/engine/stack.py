"""Casting spells (601), activating abilities (602), targets (115), resolving (608), and
copies of spells (707.10).

Targets are given per "target" word of the spell or ability, in the order its ``targets``
list declares them; each declaration is ``{kind, filter, count}`` where kind is creature,
permanent, player, spell, card or any (115.4: a creature, player, planeswalker or battle).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kb.engine import player_rules
from kb.engine.amounts import Ctx
from kb.engine.casting import check_may_cast
from kb.engine.copy import with_exceptions
from kb.engine.costs import (
    additional_mana,
    pay_alternatively,
    pay_cost,
    pay_discard,
    pay_sacrifice,
    pay_waterbend,
    spell_total_cost,
)
from kb.engine.damage import has_quality, lose_life, protected_from
from kb.engine.events import LastKnown
from kb.engine.faces import copiable_printed, face_up_face
from kb.engine.filters import matches
from kb.engine.instructions import TARGET_KINDS
from kb.engine.keyword_rules import untargetable
from kb.engine.mana import ManaCost, ManaError, pay
from kb.engine.objects import (
    ALTERNATIVE_COSTS,
    Ability,
    Characteristics,
    EngineError,
    Face,
    GameObject,
    IllegalAction,
    Printed,
    SpellInfo,
)
from kb.engine.zones import move
from kb.i18n import _, ngettext

if TYPE_CHECKING:
    from kb.engine.state import GameState



# -- targets ---------------------------------------------------------------------------------


def chosen_modes(mode: int | Sequence[int] | None) -> list[int]:
    """The chosen modes, in the order printed (700.2: they are performed so)."""
    return [] if mode is None else [mode] if isinstance(mode, int) else sorted(mode)


def target_specs(abilities: Sequence[Ability], mode: int | Sequence[int] | None = None,
                 subtypes: Sequence[str] = ()) -> list[Mapping[str, Any]]:
    """The "target" words of a spell's abilities (or of its chosen modes, in printed order),
    in order; an Aura spell first targets what it will enchant (303.4a)."""
    specs: list[Mapping[str, Any]] = []
    if "Aura" in subtypes:
        specs.append(_enchant_target(abilities))
    for ability in abilities:
        if ability.kind != "spell":
            continue
        modes = ability.spec.get("modes")
        if modes:
            if not chosen_modes(mode):
                raise IllegalAction(_("choose a mode of {ability!r} (mode = 1..{n})").format(
                    ability=ability.text, n=len(modes)))
            for one in chosen_modes(mode):
                specs.extend(modes[one - 1].get("targets", ()))
        specs.extend(ability.spec.get("targets", ()))
    return specs


def spell_abilities(ch: Characteristics, info: SpellInfo | None) -> tuple[Ability, ...]:
    """A spell's abilities with the text spliced onto it (702.47b)."""
    return ch.abilities + (info.spliced if info is not None else ())


def _splice(state: GameState, spell: GameObject, ch: Characteristics, player: str,
            cards: Sequence[Any], info: SpellInfo) -> list[ManaCost]:
    """702.47a-b: as an Arcane spell is cast, cards with splice onto Arcane are revealed from
    its caster's hand (each once) and their splice costs paid; the spell gains their spell
    abilities, in order, and stays what it is (its color, its name, the source of what it
    does, 702.47c). The spliced cards stay in the hand. Returns the costs to add."""
    if cards and "Arcane" not in ch.subtypes:
        raise IllegalAction(_("only an Arcane spell can have cards spliced onto it (702.47a)"))
    costs = []
    for ref in cards:
        card = state.get(ref)
        kw = [a for a in state.characteristics(card.id).abilities
              if a.keyword == "splice onto arcane"]
        if card.zone != "hand" or card.owner != player or not kw:
            raise IllegalAction(_("{card} is not a card with splice onto Arcane in {player}'s hand "
                                  "(702.47a)").format(card=ref, player=player))
        costs.append(ManaCost.parse(kw[0].arg or ""))
        info.spliced += tuple(a for a in state.characteristics(card.id).abilities
                              if a.kind == "spell")
    if len({state.get(ref).id for ref in cards}) != len(cards):
        raise IllegalAction(_("a card is spliced onto a spell only once (702.47a)"))
    return costs


def _check_modes(abilities: Sequence[Ability], mode: int | Sequence[int] | None,
                 kicked: bool) -> None:
    """700.2: choose one mode (each at most once, 700.2d), or, "if this spell was kicked,
    choose any number instead" (``kicked_modes = "any"``), as many as it says: decided as
    the modes are announced, before the kicker cost is (601.2b, 601.4)."""
    chosen = chosen_modes(mode)
    for ability in abilities:
        modes = ability.spec.get("modes") if ability.kind == "spell" else None
        if not modes or not chosen:
            continue
        most = len(modes) if kicked and ability.spec.get("kicked_modes") == "any" else 1
        if len(set(chosen)) != len(chosen) or not 1 <= len(chosen) <= most \
                or not all(1 <= m <= len(modes) for m in chosen):
            raise IllegalAction((_("choose one mode of {ability!r} (1..{n}), each once, not "
                                  "{chosen} (700.2)") if most == 1 else
                                _("choose any number of modes of {ability!r} (1..{n}), each "
                                  "once, not {chosen} (700.2)")).format(
                ability=ability.text, n=len(modes), chosen=chosen))


def _enchant_target(abilities: Sequence[Ability]) -> Mapping[str, Any]:
    quality = next((a.arg or "" for a in abilities if a.keyword == "enchant"), "permanent")
    quality = quality.strip()
    if quality.lower() in ("creature", "planeswalker", "battle", "player"):
        return {"kind": quality.lower()}
    if quality.lower() == "permanent":
        return {"kind": "permanent"}
    if quality.lower() in ("artifact", "enchantment", "land"):
        return {"kind": "permanent", "filter": {"types": [quality.capitalize()]}}
    return {"kind": "permanent", "filter": {"subtypes": [quality]}}


def can_enchant(state: GameState, aura: Characteristics, host: int | None) -> bool:
    """303.4a, 303.4d: whether an Aura with these characteristics could legally enchant the
    permanent ``host`` (its enchant ability's quality; protection, 702.16c). An Aura put onto
    the battlefield doesn't target, so hexproof and shroud don't matter."""
    obj = state.objects.get(host) if host is not None else None
    if obj is None or obj.zone != "battlefield":
        return False
    spec = _enchant_target(aura.abilities)
    ch = state.characteristics(obj.id)
    wanted = {"creature": "Creature", "planeswalker": "Planeswalker", "battle": "Battle"}
    if spec.get("kind") in wanted and not ch.is_a(wanted[spec["kind"]]):
        return False
    if spec.get("kind") == "player":
        return False
    flt = {**spec.get("filter", {}), "zone": "battlefield"}
    return matches(obj, ch, flt, you=None) and not protected_from(ch, aura)


def _in_range(state: GameState, controller: str, other: str) -> bool:
    """801.4: what is outside a player's range of influence can't be the target of spells or
    abilities that player controls."""
    return state.multiplayer is None or state.multiplayer.in_range(controller, other)


def is_legal_target(state: GameState, spec: Mapping[str, Any], target: Any, *,
                    controller: str, source: int | None, source_ch: Characteristics | None,
                    ) -> bool:
    """115.1-115.4, 702.11b (hexproof), 702.16b (protection)."""
    kind = spec.get("kind", "any")
    if kind not in TARGET_KINDS:
        raise EngineError(_("unknown target kind {kind!r} (known: {known})").format(
            kind=kind, known=", ".join(TARGET_KINDS)))
    flt = spec.get("filter", {})
    if isinstance(target, str):
        if kind not in ("player", "any") or target not in state.players:
            return False
        if state.players[target].left_game or not _in_range(state, controller, target):
            return False
        relation = flt.get("controller")
        if relation == "opponent" and target == controller:
            return False
        return not (relation == "you" and target != controller)
    obj = state.objects.get(target)
    if obj is None or not _in_range(state, controller, state.controller(obj.id)):
        return False
    ch = state.characteristics(obj.id)
    zone = {"spell": "stack", "card": flt.get("zone", "graveyard")}.get(kind, "battlefield")
    if obj.zone != zone or (kind == "spell" and obj.spell and obj.spell.ability):
        return False
    wanted = {"creature": ("Creature",), "planeswalker": ("Planeswalker",),
              "battle": ("Battle",), "any": ("Creature", "Planeswalker", "Battle")}.get(kind)
    if wanted and not any(t in ch.types for t in wanted):
        return False
    if flt.get("attacking") and not (state.combat and state.combat.attacking(obj.id)):
        return False
    full = {**{k: v for k, v in flt.items() if k != "attacking"}, "zone": zone}
    if not matches(obj, ch, full, you=controller, source=source,
                   opponents=state.opponents(controller)):
        return False
    if obj.zone == "battlefield":
        opposed = (ch.controller or obj.controller) != controller
        if ch.has("hexproof") and opposed:
            return False
        if opposed and source_ch is not None and any(  # 702.11d: hexproof from [quality]
                has_quality(source_ch, q) for q in ch.keyword_args("hexproof from")):
            return False
        if untargetable(ch):
            return False
        if source_ch is not None and protected_from(ch, source_ch):
            return False
    return True


def _resolve_refs(state: GameState, targets: Sequence[Any]) -> list[list[Any]]:
    out = []
    for group in targets:
        refs = group if isinstance(group, list) else [group]
        out.append([r if r in state.players else state.get(r).id for r in refs])
    return out


def _check_targets(state: GameState, specs: list[Mapping[str, Any]], chosen: list[list[Any]],
                   *, controller: str, source: int | None,
                   source_ch: Characteristics | None, chooser: str | None = None) -> None:
    while len(chosen) < len(specs) and "up_to" in specs[len(chosen)]:
        chosen.append([])  # "up to N": none chosen for the words left
    if len(chosen) != len(specs):
        raise IllegalAction(ngettext("{n} target word(s) to choose, {given} given",
                                         "{n} target word(s) to choose, {given} given",
                                         len(specs)).format(n=len(specs), given=len(chosen)))
    for spec, group in zip(specs, chosen, strict=True):
        if spec.get("chooser") is not None:
            _check_chosen_by(state, controller, chooser, group)
        if len(set(group)) != len(group):
            # 115.3: one word "target" can't name the same object twice.
            raise IllegalAction(_("one word 'target' can't choose the same one twice (115.3): "
                                  "{group}").format(group=group))
        if "up_to" in spec:  # "up to N targets": none to N (115.1, 601.2c)
            if spec["up_to"] != "any" and len(group) > int(spec["up_to"]):
                raise IllegalAction(_("choose up to {n} target(s) for {spec}, not {given}").format(
                    n=spec["up_to"], spec=spec, given=len(group)))
        elif len(group) != spec.get("count", 1):
            raise IllegalAction(_("choose {n} different target(s) for {spec} (up to N targets is "
                                  "written up_to = N)").format(n=spec.get("count", 1), spec=spec))
        for target in group:
            if not is_legal_target(state, spec, target, controller=controller, source=source,
                                   source_ch=source_ch):
                raise IllegalAction(_("{what} is not a legal target ({spec})").format(
                    what=_name(state, target), spec=spec))


def _check_chosen_by(state: GameState, controller: str, chooser: str | None,
                     group: list[Any]) -> None:
    """801.5a: a target of an opponent's choice: the controller chooses that opponent
    within their own range of influence, and the opponent chooses a target within theirs
    (it must also be within the controller's, 801.4, as any target)."""
    if chooser is None or chooser not in state.opponents(controller) \
            or not _in_range(state, controller, chooser):
        raise IllegalAction(_("an opponent of {controller} within their range of influence "
                              "chooses this target (801.5a), not {chooser}").format(
                                  controller=controller, chooser=chooser))
    for target in group:
        player = target if isinstance(target, str) else state.controller(target)
        if not _in_range(state, chooser, player):
            raise IllegalAction(_("{what} is outside {chooser}'s range of influence (801.5a)")
                                 .format(what=_name(state, target), chooser=chooser))


def _name(state: GameState, ref: Any) -> str:
    if isinstance(ref, str):
        return ref
    obj = state.objects.get(ref)
    return obj.alias or str(ref) if obj else str(ref)


# -- casting ---------------------------------------------------------------------------------


def cast(state: GameState, card: int, player: str, *, half: int | None = None,
         fused: bool = False, x: int = 0, mode: int | Sequence[int] | None = None,
         kicked: bool = False, splice: Sequence[Any] = (), discard: Sequence[Any] = (),
         targets: Sequence[Any] = (), sacrifice: Sequence[Any] = (),
         without_paying: bool = False, alternative: str | None = None,
         transformed: bool = False, pay_life: int | None = None,
         convoke: Sequence[Any] = (), delve: Sequence[Any] = (),
         waterbend: Sequence[Any] = (), face_down: bool = False) -> GameObject:
    """601.2: announce, choose, pay (see :mod:`kb.engine.costs`); the spell becomes cast and
    "cast" triggers trigger. ``pay_life``: how many Phyrexian symbols are paid with life (by
    default, those the mana available can't pay); ``convoke``: the creatures tapped,
    ``delve``: the cards exiled to pay part of it; ``waterbend``: the artifacts and creatures
    tapped for the generic mana of a waterbend cost (701.67); ``face_down``: a card with morph
    cast face down, a 2/2 creature spell with no text, name, subtypes or mana cost, for {3}
    (702.37c)."""
    obj = state.objects[card]
    origin = obj.zone
    who = state.player(player)
    if who.cant_cast_until_eot:
        raise IllegalAction(_("{player} can't cast spells this turn").format(player=player))
    printed = obj.printed
    if fused:
        if printed.layout != "split" or not any(a.keyword == "fuse" for f in printed.faces
                                                   for a in f.abilities):
            raise IllegalAction(_("only a split card with fuse can be cast fused (702.102a)"))
        if obj.zone != "hand":
            raise IllegalAction(_("a split card is cast fused only from its owner's hand "
                                  "(702.102a)"))
    if printed.layout == "split" and not fused and half is None:
        raise IllegalAction(_("choose the half of the split card to cast (709.3)"))
    if without_paying and alternative:
        raise IllegalAction(_("no alternative cost when casting without paying the mana cost "
                              "(118.9a)"))
    # 702.34a: flashback is an ability of the card in its graveyard, read before it moves
    flashback = [a for a in state.characteristics(obj.id).abilities
                 if a.keyword == "flashback"] if origin == "graveyard" else []
    if alternative == "flashback" and not flashback:
        raise IllegalAction(_("only a card in a graveyard with flashback can be cast for its "
                              "flashback cost (702.34a)"))
    bestowed = alternative not in (None, "flashback") and any(
        a.keyword == "bestow" and ManaCost.parse(a.arg or "") == ManaCost.parse(alternative)
        for a in state.characteristics(obj.id).abilities)  # 702.103b
    info = SpellInfo(half=half, fused=fused, x=x, without_paying=without_paying,
                     mode=list(mode) if isinstance(mode, Sequence) else mode, kicked=kicked,
                     transformed=transformed, bestowed=bestowed, cast_from=origin,
                     flashback=alternative == "flashback")
    if face_down and (alternative or without_paying
                      or not any(a.keyword == "morph" for a in face_up_face(state, obj).abilities)):
        raise IllegalAction(_("only a card with morph is cast face down, for {3} (702.37c)"))
    was_top = origin == "library" and state.libraries[obj.owner][:1] == [obj.id]
    spell = move(state, obj, "stack", controller=player, transformed=transformed,
                 face_down=face_down)
    spell.spell = info
    state.touch()
    ch = state.characteristics(spell.id)
    check_may_cast(state, spell, ch, player, origin=origin, was_top=was_top,
                   flashback=info.flashback, owner=obj.owner, adventure_of=obj.adventure_of,
                   as_adventure=printed.layout == "adventure" and half == 1)  # 601.3
    if ch.mana_cost and ch.mana_cost.has_x and without_paying and x != 0:
        raise IllegalAction(_("X must be 0 when the spell is cast without paying its mana cost "
                              "(107.3b)"))
    forbidden = player_rules.forbidding_cast(state, player, spell)
    if forbidden:
        raise IllegalAction(_("{player} can't cast this spell: {why} (601.3)").format(
            player=player, why=forbidden))
    _check_modes(ch.abilities, mode, kicked)
    spliced_costs = _splice(state, spell, ch, player, splice, info)
    specs = target_specs(spell_abilities(ch, info), mode, ch.subtypes)
    info.targets = _resolve_refs(state, targets)
    _check_targets(state, specs, info.targets, controller=player, source=spell.id,
                   source_ch=ch)
    base = ManaCost() if without_paying else (ch.mana_cost or ManaCost())
    if face_down:
        base = ManaCost.parse("{3}")  # 702.37c
    elif alternative == "flashback":
        # 702.1b: "equal to its mana cost" is the spell's, as it is cast (a half's)
        base = (ch.mana_cost or ManaCost()) if flashback[0].spec.get("cost") == "mana_cost" \
            else ManaCost.parse(flashback[0].arg or "")
    elif alternative:
        offered = [a.arg or "" for a in ch.abilities if a.keyword in ALTERNATIVE_COSTS]
        if ManaCost.parse(alternative) not in [ManaCost.parse(o) for o in offered]:
            raise IllegalAction(_("{cost} is not an alternative cost of this spell").format(
                cost=alternative))
        base = ManaCost.parse(alternative)
    kicker = [ManaCost.parse(a.arg or "") for a in ch.abilities if a.keyword == "kicker"]
    if kicked and not kicker:
        raise IllegalAction(_("this spell has no kicker cost to pay (702.33)"))
    cost = spell_total_cost(state, spell, player, base.with_x(x),
                            additional_mana(ch) + kicker[:1 if kicked else 0]
                            + spliced_costs, origin)
    info.total_cost = str(cost) if cost.symbols else "{0}"  # locked in (601.2f)
    pay_sacrifice(state, ch, sacrifice, player, info)
    pay_discard(state, ch, discard, player)
    rest = pay_alternatively(state, ch, player, pay_waterbend(state, ch, player, cost,
                                                              waterbend), convoke, delve)
    info.mana_spent = pay_cost(state, player, rest, pay_life)
    if origin == "command":
        state.command_casts[spell.card] += 1  # 903.8
    state.emit("cast", obj=spell.id, player=player, from_zone=origin)  # 601.2i
    return spell


# -- abilities -------------------------------------------------------------------------------


# A loyalty cost (606.4): "[+1]", "[−4]", "[0]".
_LOYALTY = re.compile(r"^\[([+\-−]?\d+)\]$")


def _pay_loyalty(state: GameState, obj: GameObject, player: str, parts: list[str]) -> None:
    """606.4-606.5: a loyalty ability's cost, with the additional loyalty costs effects add
    (a static ability's ``loyalty_cost`` = "[+1]" for the planeswalkers its controller
    controls), combined into a single cost to add or remove loyalty counters."""
    extra = [str(a.spec["static"]["loyalty_cost"]) for perm in state.battlefield()
             if state.controller(perm.id) == player
             for a in state.characteristics(perm.id).abilities
             if "loyalty_cost" in (a.spec.get("static") or {})]
    found = [_LOYALTY.match(p.strip()) for p in (*parts, *extra)]
    if not all(found):
        raise EngineError(_("unknown loyalty cost among {costs}").format(
            costs=[*parts, *extra]))
    total = sum(int(m.group(1).replace("−", "-")) for m in found if m)
    if total < 0 and obj.counters["loyalty"] < -total:
        raise IllegalAction(ngettext(
            "{what} has {n} loyalty counters: it can't pay [{cost}] (606.4)",
            "{what} has {n} loyalty counters: it can't pay [{cost}] (606.4)",
            obj.counters["loyalty"]).format(what=obj.alias or obj.id,
                                            n=obj.counters["loyalty"], cost=total))
    obj.counters["loyalty"] += total
    state.touch()


def activated_abilities(ch: Characteristics) -> list[Ability]:
    """Its activated abilities, in order, then the intrinsic "{T}: Add [mana]." of each of
    its basic land types (305.6)."""
    return [a for a in ch.abilities if a.kind == "activated" or a.keyword == "cycling"] + [
        _intrinsic(letter) for letter in ch.mana_produced]


def _intrinsic(letter: str) -> Ability:
    """305.6: the mana ability a basic land type gives."""
    return Ability(f"{{T}}: Add {{{letter}}}.", "activated",
                   spec={"cost": "{T}", "mana": ManaCost(),
                         "effect": [{"op": "add_mana", "mana": f"{{{letter}}}"}]})


def activate(state: GameState, source: int, player: str, which: int = 1, *, x: int = 0,
             targets: Sequence[Any] = (), chooser: str | None = None,
             sacrifice: Sequence[Any] = ()) -> GameObject:
    """602.2: put the ability on the stack, choose targets, pay its costs (mana, {T},
    sacrificing or discarding the source, whose last known information the ability keeps;
    "sacrifice another creature": ``sacrifice``, the permanent sacrificed, whose last known
    information the ability keeps as ``sacrificed``)."""
    obj = state.objects[source]
    ch = state.characteristics(source)
    abilities = activated_abilities(ch)
    if not 1 <= which <= len(abilities):
        raise IllegalAction(ngettext(
            "{what} has {n} activated abilities, not an ability {which}",
            "{what} has {n} activated abilities, not an ability {which}",
            len(abilities)).format(what=obj.alias or source, n=len(abilities), which=which))
    ability = abilities[which - 1]
    if (ch.controller or obj.controller) != player and obj.zone == "battlefield":
        raise IllegalAction(_("{player} doesn't control {what}").format(
            player=player, what=obj.alias or source))
    if ability.keyword == "cycling":
        if obj.zone != "hand":
            raise IllegalAction(_("cycling is activated only from the hand (702.29a)"))
        cost_text, effect = ability.arg or "", [{"op": "draw", "player": "you", "n": 1}]
        extra_costs = ["discard"]
    else:
        zone = ability.spec.get("from_zone", "battlefield")
        if obj.zone != zone:
            raise IllegalAction(_("this ability is activated from the {zone}").format(zone=zone))
        cost_text, effect = str(ability.spec["cost"]), ability.spec["effect"]
        extra_costs = [p.strip().lower() for p in cost_text.split(",")
                       if not p.strip().startswith("{") or p.strip() == "{T}"]
    loyalty = [part for part in extra_costs if _LOYALTY.match(part)]
    _check_once_per_turn(state, obj, ability, player, bool(loyalty))
    info = SpellInfo(x=x, ability=ability, source=source)
    info.targets = _resolve_refs(state, targets)
    _check_targets(state, list(ability.spec.get("targets", ())), info.targets,
                   controller=player, source=source, source_ch=ch, chooser=chooser)
    mana = ManaCost.parse("".join(p.strip() for p in cost_text.split(",")
                                  if p.strip().startswith("{") and p.strip() != "{T}"))
    info.mana_spent = pay_cost(state, player, mana.with_x(x))
    if loyalty:
        _pay_loyalty(state, obj, player, loyalty)
    for part in extra_costs:
        if part in loyalty:
            continue
        if part == "{t}":
            if obj.tapped:
                raise IllegalAction(_("{what} is tapped").format(what=obj.alias or source))
            obj.tapped = True
        elif (other := _SACRIFICE_OTHER.match(part)) is not None:
            _sacrifice_other(state, obj, player, other, sacrifice, info)
        elif part.startswith("sacrifice") or part.startswith("discard"):
            move(state, obj, "graveyard")
        elif part == "pay half your life rounded up":  # 119.4; 810.9a: the team's life
            lose_life(state, player, (state.player(player).life + 1) // 2)
        else:
            raise EngineError(_("unknown activation cost {cost!r}").format(cost=part))
    item = _ability_object(state, ability, source, player, info, effect)
    state.emit("activated", obj=item.id, source=source, player=player)
    return item


# "Sacrifice another creature", "Sacrifice a land": a cost naming another permanent to sacrifice.
_SACRIFICE_OTHER = re.compile(r"^sacrifice (another|an?) (artifact|creature|enchantment|land"
                              r"|permanent|planeswalker)$")


def _sacrifice_other(state: GameState, source: GameObject, player: str, cost: re.Match[str],
                     chosen: Sequence[Any], info: SpellInfo) -> None:
    """An activation cost of sacrificing a permanent the player chooses (``sacrifice``)."""
    if len(chosen) != 1:
        raise IllegalAction(_("'{cost}': name the permanent sacrificed (sacrifice)").format(
            cost=cost.group(0)))
    victim = state.get(chosen[0])
    vch = state.characteristics(victim.id)
    kind = cost.group(2).capitalize()
    if victim.zone != "battlefield" or state.controller(victim.id) != player \
            or (kind != "Permanent" and not vch.is_a(kind)) \
            or (cost.group(1) == "another" and victim.id == source.id):
        raise IllegalAction(_("{what} can't be sacrificed for '{cost}'").format(
            what=chosen[0], cost=cost.group(0)))
    info.sacrificed.append(LastKnown(victim, vch))
    move(state, victim, "graveyard")


def _check_once_per_turn(state: GameState, obj: GameObject, ability: Ability, player: str,
                         loyalty: bool) -> None:
    """606.3: a loyalty ability of a permanent only once each turn (for all its loyalty
    abilities), and only when its controller could cast a sorcery (main phase of their
    turn, empty stack, 307.1); an ability that says "activate only once each turn"
    (``once_per_turn``) only once each turn. Records the activation."""
    key = "loyalty" if loyalty else ability.text if ability.spec.get("once_per_turn") else None
    if key is None:
        return
    if obj.activated.get(key) == state.turn:
        raise IllegalAction((
            _("{what}: a loyalty ability of this permanent has been activated this turn "
              "(606.3)") if loyalty else
            _("{what}: this ability is activated only once each turn (602.5b)")).format(
                what=obj.alias or obj.id))
    if loyalty and (player != state.active or "main" not in state.step or state.stack):
        raise IllegalAction(_("a loyalty ability is activated only when its controller could "
                              "cast a sorcery: a main phase of their turn, with an empty "
                              "stack (606.3)"))
    obj.activated[key] = state.turn


def _ability_object(state: GameState, ability: Ability, source: int, controller: str,
                    info: SpellInfo, effect: Any) -> GameObject:
    item = state.add_object(Printed((Face(name=ability.text),)), controller, "stack")
    info.ability = replace(ability, spec={**ability.spec, "effect": effect})
    info.source = source
    item.spell = info
    state.touch()
    return item


def put_trigger(state: GameState, source: int, ability: Ability, controller: str,
                event: Any, targets: Sequence[Any] = ()) -> GameObject:
    """603.3: a triggered ability goes on the stack, its controller choosing targets."""
    info = SpellInfo(source=source, event=event)
    info.targets = _resolve_refs(state, targets)
    specs = list(ability.spec.get("targets", ()))
    source_ch = state.characteristics(source) if (source in state.objects
                                                  or source in state.last_known) else None
    _check_targets(state, specs, info.targets, controller=controller, source=source,
                   source_ch=source_ch)
    return _ability_object(state, ability, source, controller, info, ability.spec["effect"])


# -- resolving -------------------------------------------------------------------------------


# -- copies of spells ------------------------------------------------------------------------


def copy_spell(state: GameState, oid: int, controller: str, exceptions: Mapping[str, Any],
               new_targets: Sequence[Any] | None = None) -> GameObject:
    """707.10: a copy of a spell on the stack: its characteristics and the choices made for
    it (mode, targets, X, additional costs paid), but not the mana spent, which is not an
    object. The copy is not cast; its owner and controller are the player who put it there.
    """
    original = state.objects[oid]
    if original.spell is None or original.zone != "stack":
        raise IllegalAction(_("{what} is not a spell on the stack").format(
            what=_name(state, oid)))
    ctx = Ctx(state, controller, oid)
    printed, _copied = with_exceptions(copiable_printed(state, original), exceptions,
                                       copier=None, this=None, ctx=ctx)
    src = original.spell
    info = SpellInfo(half=src.half, fused=src.fused, x=src.x, mode=src.mode, kicked=src.kicked,
                     spliced=src.spliced,
                     targets=[list(g) for g in src.targets], sacrificed=list(src.sacrificed),
                     mana_spent=Counter(), without_paying=src.without_paying,
                     transformed=src.transformed, copy=True)
    copy = state.add_object(printed, controller, "stack", controller=controller)
    copy.spell_copy = True
    copy.spell = info
    state.touch()
    if new_targets is not None:
        ch = state.characteristics(copy.id)
        chosen = _resolve_refs(state, new_targets)
        specs = target_specs(spell_abilities(ch, info), info.mode, ch.subtypes)
        changed = [(i, g) for i, g in enumerate(chosen) if g != info.targets[i]]
        for i, group in changed:  # 707.10c: changed targets must be legal
            _check_targets(state, [specs[i]], [group], controller=controller, source=copy.id,
                           source_ch=ch)
            info.targets[i] = group
    state.emit("spell_copied", obj=copy.id, source=oid, player=controller)
    return copy


def turn_face_up(state: GameState, oid: int, player: str) -> None:
    """702.37e: turning a face-down permanent with morph face up is a special action: pay
    the morph cost of its face-up values."""
    obj = state.objects[oid]
    if not obj.face_down:
        raise IllegalAction(_("{what} is face up").format(what=_name(state, oid)))
    morph = [a for a in face_up_face(state, obj).abilities if a.keyword == "morph"]
    if not morph:
        raise IllegalAction(_("{what} has no morph cost: it can't be turned face up as a "
                              "special action").format(what=_name(state, oid)))
    try:
        pay(ManaCost.parse(morph[0].arg or ""), state.player(player).mana_pool)
    except ManaError as exc:
        raise IllegalAction(str(exc)) from exc
    obj.face_down = False
    obj.timestamp = state.tick()  # 613.7f
    state.touch()
    state.emit("turned_face_up", obj=oid, player=player)


def put_pending_on_stack(state: GameState,
                         targets: dict[str, list[Any]] | None = None) -> list[GameObject]:
    """603.3b: pending triggers go on the stack, active player's first (APNAP, 101.4).
    ``targets`` maps a source's alias to the targets of each of its triggered abilities, in
    the order they go on the stack; each is taken (removed) as its ability is put there."""
    targets = targets if targets is not None else {}
    put: list[GameObject] = []
    # 800.4d: an ability that would be controlled by a player who left the game triggers but
    # isn't put on the stack.
    state.pending = [p for p in state.pending if not state.player(p.controller).left_game]
    for player in state.apnap():
        for pending in [p for p in state.pending if p.controller == player]:
            state.pending.remove(pending)
            alias = _alias(state, pending)
            queue = targets.get(alias or "", [])
            chosen = queue.pop(0) if queue else ()
            put.append(put_trigger(state, pending.source, pending.ability, pending.controller,
                                   pending.event, chosen))
    return put


def _alias(state: GameState, pending: Any) -> str | None:
    obj = state.objects.get(pending.source)
    if obj is None and pending.lki is not None:
        obj = pending.lki.obj
    if obj is None and pending.source in state.last_known:
        obj = state.last_known[pending.source].obj
    if obj is None:
        return None
    for alias, card in state.aliases.items():
        if card == obj.card:
            return alias
    return None
