"""Moving objects between zones (rules 400.7, 614.12), entering the battlefield with its
replacement effects (enter as a copy, enters with counters, tapped, "as ... enters" choices),
tokens (111), and drawing cards (121)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx
from kb.engine.battles import choose_protector
from kb.engine.copy import become_copy, copiable_values, with_exceptions
from kb.engine.events import ContinuousEffect
from kb.engine.faces import face_up_face
from kb.engine.filters import matches
from kb.engine.keyword_rules import ENTERS_WITH_COUNTERS
from kb.engine.objects import Ability, GameObject, IllegalAction, Printed, SpellInfo
from kb.engine.replacements import (
    Proposal,
    applicable,
    choose,
    counter_amount,
    note,
    replace,
)
from kb.i18n import _

if TYPE_CHECKING:
    from kb.engine.state import GameState


def move(state: GameState, obj: GameObject, to: str, *, controller: str | None = None,
         choices: Mapping[str, Any] | None = None, top: bool = True, tapped: bool = False,
         face_down: bool = False, transformed: bool = False,
         x: int = 0, entering_as: ContinuousEffect | None = None) -> GameObject:
    """Put ``obj`` into zone ``to``. It becomes a new object (400.7) that remembers nothing
    of its previous existence; its last known information stays available (608.2h). The
    destination is the one replacement effects leave (614.1a: "exile it instead").
    ``entering_as``: a continuous effect on the permanent that applies as it enters (611.2e:
    "that permanent is [characteristic]"), its ``affected`` filled in here."""
    to, top = propose_move(state, obj, to, top)
    return perform_move(state, obj, to, controller=controller, choices=choices, top=top,
                        tapped=tapped, face_down=face_down, transformed=transformed, x=x,
                        entering_as=entering_as)


def move_all(state: GameState, moving: Sequence[tuple[GameObject, str]]) -> list[GameObject]:
    """Move several objects in one event ("destroy all creatures", state-based actions,
    701.8, 704.3): replacement effects apply to the event as it stands, before any of them
    moves (614.1, 616), so an effect whose source moves with the others still applies to
    them; then all move, at once (603.10a)."""
    planned = [(obj, *propose_move(state, obj, to, True)) for obj, to in moving]
    with state.at_once():
        return [perform_move(state, obj, to, top=top) for obj, to, top in planned
                if obj.id in state.objects]


def propose_move(state: GameState, obj: GameObject, to: str, top: bool) -> tuple[str, bool]:
    """Where ``obj`` goes, and whether on top of a library, once replacement effects have
    modified the zone change (614.1a); what they add to it waits in ``state.deferred``. A
    spell cast for its flashback cost is exiled instead of going anywhere else (702.34a)."""
    if obj.zone == "stack" and obj.spell is not None and obj.spell.flashback and to != "exile":
        note(state, "702.34a", f"{state.characteristics(obj.id).name}: cast with flashback, "
                               f"exiled instead of put into the {to}")
        to = "exile"
    moving = replace(state, Proposal("zone_change", obj=obj.id, player=obj.owner,
                                     from_zone=obj.zone, to_zone=to, top=top))
    return moving.to_zone or to, moving.top


def perform_move(state: GameState, obj: GameObject, to: str, *,
                 controller: str | None = None, choices: Mapping[str, Any] | None = None,
                 top: bool = True, tapped: bool = False, face_down: bool = False,
                 transformed: bool = False, x: int = 0,
                 entering_as: ContinuousEffect | None = None) -> GameObject:
    """Carry out a zone change whose destination replacement effects have decided."""
    origin = obj.zone
    if obj.zone == "battlefield":
        _leave_battlefield(state, obj)
    state.remove_object(obj)
    if obj.melded:
        return _unmeld(state, obj, origin, to)
    owner = obj.owner
    new = state.add_object(obj.printed, owner, to, card=obj.card, token=obj.token, top=top,
                           controller=controller if to in ("battlefield", "stack") and controller
                           else owner)
    new.copy_of_card, new.spell_copy = obj.copy_of_card, obj.spell_copy
    _keep_stickers(state, obj, new, to)
    new.tapped, new.face_down, new.transformed = tapped, face_down, transformed
    if origin == "stack" and to == "battlefield":
        _carry_spell_effects(state, obj.id, new.id)
    if to == "battlefield" and entering_as is not None:
        entering_as.affected = frozenset({new.id})
        state.effects.append(entering_as)
        state.touch()
    if to == "battlefield":
        cast_from = obj.spell.cast_from if origin == "stack" and obj.spell else None
        enter(state, new, choices or {}, x=x, cast_from=cast_from)
        if _forbidden(state, new):
            # 608.3e: a permanent spell that can't enter goes to its owner's graveyard; a card
            # another effect would put there stays where it was (as a new object, 400.7)
            state.remove_object(new)
            to = "graveyard" if origin == "stack" else origin
            new = state.add_object(obj.printed, owner, to, card=obj.card, token=obj.token)
    state.emit("zone_change", obj=new.id, old=obj.id, card=obj.card, from_zone=origin,
               to_zone=to, player=owner)
    if origin == "hand" and not state.in_zone("hand", owner):
        state.emit("hand_empty", player=owner)
    return new


def _keep_stickers(state: GameState, old: GameObject, new: GameObject, to: str) -> None:
    """123.5: stickers stay on an object moving to a public zone and apply to the new object
    it becomes there (an exception to 400.7); moving to a hidden zone, they are gone."""
    for effect in state.effects:
        if "name_sticker" in effect.mods and old.id in effect.affected:
            effect.affected = (effect.affected - {old.id}) | (
                {new.id} if to not in ("hand", "library") else set())


def _forbidden(state: GameState, obj: GameObject) -> bool:
    """Whether an effect says a permanent like ``obj``, as it would enter (a copy included),
    can't enter the battlefield ("Lands can't enter the battlefield": a static ability's
    ``cant_enter``, a filter)."""
    ch = state.characteristics(obj.id)
    for perm in state.battlefield():
        if perm.id == obj.id or perm.phased_out:
            continue
        controller = state.controller(perm.id)
        for ability in state.characteristics(perm.id).abilities:
            flt = (ability.spec.get("static") or {}).get("cant_enter")
            if flt is not None and matches(obj, ch, {**flt, "zone": "battlefield"},
                                           you=controller, source=perm.id,
                                           opponents=state.opponents(controller)):
                return True
    return False


def _unmeld(state: GameState, obj: GameObject, origin: str, to: str) -> GameObject:
    """712.21: a melded permanent leaving the battlefield is one permanent leaving and two
    cards put into the zone (the first carries the leaving, 603.10a; the second only arrives,
    so "whenever a creature dies" sees one event, "whenever a card is put into a graveyard"
    two). 712.21d: the destination, replaced or not, is the same for both."""
    made = [state.add_object(printed, owner, to, card=card) for card, printed, owner in obj.melded]
    made[0].meld_partner, made[1].meld_partner = made[1].card, made[0].card
    state.emit("zone_change", obj=made[0].id, old=obj.id, card=made[0].card, from_zone=origin,
               to_zone=to, player=made[0].owner)
    for new in made[1:]:
        state.emit("zone_change", obj=new.id, old=None, card=new.card, from_zone=origin,
                   to_zone=to, player=new.owner)
    return made[0]


def with_meld_partner(state: GameState, ids: list[int]) -> list[int]:
    """712.21c: an effect that finds the new object a melded permanent became finds both
    cards (the partner in the same zone), and does the same to each."""
    out = list(ids)
    for oid in ids:
        partner = state.objects[oid].meld_partner
        out += [o.id for o in state.objects.values() if partner is not None
                and o.card == partner and o.zone == state.objects[oid].zone and o.id not in out]
    return out


def _carry_spell_effects(state: GameState, spell: int, permanent: int) -> None:
    """400.7a, 112.4: effects of resolved spells and abilities that changed a permanent spell's
    characteristics or controller keep applying to the permanent it becomes."""
    for effect in state.effects:
        if spell in effect.affected:
            effect.affected = effect.affected | {permanent}
    state.touch()


def _leave_battlefield(state: GameState, obj: GameObject) -> None:
    if state.combat is not None:
        state.combat.remove(obj.id)


def cease_to_exist(state: GameState, obj: GameObject) -> None:
    """704.5d-e: a token or a copy outside its zones ceases to exist (no zone change)."""
    state.remove_object(obj)


# -- entering the battlefield ----------------------------------------------------------------


def enter(state: GameState, obj: GameObject, choices: Mapping[str, Any], *, x: int = 0,
          cast_from: str | None = None) -> None:
    """Apply the replacement effects that modify how ``obj`` enters (614.1c-d, 614.12),
    judged by what it would be on the battlefield: first any "enter as a copy" (each copy
    brings the copied object's own such abilities, 707.5, 707.9e), then "enters with"
    counters, "enters tapped" and "as ... enters" choices, all copied ones included."""
    ctx = Ctx(state, obj.controller, obj.id, spell=_x_info(x))
    entering = Proposal("enter", obj=obj.id, player=obj.controller, x=x, cast_from=cast_from)
    copying = [r for r in applicable(state, entering) if "copy" in r.spec]
    if copying:  # 616.1c: an effect making it enter as a copy applies first
        chosen = choose(state, entering, copying)
        entering.applied.add(chosen.key)
        source = state.objects[chosen.source] if chosen.source is not None else None
        if source is not None:
            become_copy(state, obj, copiable_values(state, source), source=chosen.source,
                        controller=obj.controller)
    wanted = choices.get("copy")
    copies: list[Any] = list(wanted) if isinstance(wanted, list) else (
        [] if wanted is None else [wanted])
    applied: set[int] = set()
    extras: dict[str, int] = {}
    while True:
        pending = [a for a in state.characteristics(obj.id).abilities
                   if a.kind == "replacement" and "enter_as_copy" in a.spec["replacement"]
                   and id(a) not in applied]
        if not pending:
            break
        ability = pending[0]
        applied.add(id(ability))
        target = copies.pop(0) if copies else None
        if target is None:
            continue  # "you may": nothing chosen
        extras = _enter_as_copy(state, obj, ability, target, ctx)  # 707.9e: the last one's
    if copies:
        raise IllegalAction(_("{what} can't enter as a copy of {copied!r}: it has no ability "
                              "that lets it").format(what=obj.alias or obj.id,
                                                     copied=copies[0]))
    ch = state.characteristics(obj.id)
    counters: Counter[str] = Counter()
    face = face_up_face(state, obj)
    if ch.is_a("Battle") and face.defense:
        counters["defense"] += face.defense  # 310.4b
    if ch.is_a("Planeswalker") and face.loyalty:
        counters["loyalty"] += face.loyalty  # 306.5b
    entering = replace(state, entering)
    if entering.player is not None and entering.player != obj.controller:
        obj.controller = entering.player  # it enters under another player's control
        state.touch()
    obj.tapped = obj.tapped or entering.tapped
    for kind, n in entering.counters.items():
        counters[kind] += n
    for ability in ch.abilities:
        kind = ENTERS_WITH_COUNTERS.get(ability.keyword or "")
        if kind and ability.arg and ability.arg.isdigit():
            counters[kind] += int(ability.arg)  # fading 702.32a, vanishing 702.63a, ...
        if ability.keyword == "unleash" and choices.get("unleash"):
            counters["+1/+1"] += 1  # 702.98a: "you may have it enter with" a counter
        rep = ability.spec.get("replacement", {}) if ability.kind == "replacement" else {}
        if "as_enters_choose" in rep:
            what = rep["as_enters_choose"]
            if what not in choices:
                raise IllegalAction(_("{who} enters: choose a {what} (choices.{what})").format(
                    who=obj.alias or obj.id, what=what))
            obj.choices[what] = choices[what]
            obj.linked_choices[(ch.name, what)] = choices[what]
        if "as_enters_exile" in rep:
            _as_enters_exile(state, obj, rep["as_enters_exile"], choices)
    for kind, n in extras.items():
        counters[kind] += n
    for kind, n in counters.items():
        if n > 0:
            obj.counters[kind] += counter_amount(state, obj, n, kind, entering=True)
    obj.ever_had_defense = obj.counters["defense"] > 0
    if ch.is_a("Battle"):
        choose_protector(state, obj, ch, choices)
    state.touch()


def _as_enters_exile(state: GameState, obj: GameObject, spec: Mapping[str, Any],
                     choices: Mapping[str, Any]) -> None:
    """"As this enters, exile any number of [filter] cards from your graveyard" (614.12,
    607.2a: the cards are exiled with it, under ``link``): ``choices.exiled``. A card entering
    the battlefield at the same time can't be chosen (614.13a)."""
    controller = state.controller(obj.id)
    chosen = [state.get(alias) for alias in choices.get("exiled", [])]
    for card in chosen:
        if card.id in state.entering_together:
            raise IllegalAction(_("{what} is entering the battlefield at the same time: it can't "
                                  "be exiled as the other enters (614.13a)").format(
                                      what=card.alias or card.id))
        if card.zone != "graveyard" or card.owner != controller or not matches(
                card, state.characteristics(card.id), {**spec.get("filter", {}),
                                                       "zone": "graveyard"},
                you=controller, opponents=state.opponents(controller)):
            raise IllegalAction(_("{what} is not a card {who} may exile from its controller's "
                                  "graveyard as it enters").format(what=card.alias or card.id,
                                                                   who=obj.alias or obj.id))
    exiled = move_all(state, [(card, "exile") for card in chosen])
    obj.choices[f"linked:{spec['link']}"] = [e.id for e in exiled if e.zone == "exile"]


def _x_info(x: int) -> SpellInfo:
    """The value of X the object was cast with (0 when it wasn't cast, 107.3g)."""
    return SpellInfo(x=x)


def _enter_as_copy(state: GameState, obj: GameObject, ability: Ability, target: Any,
                   ctx: Ctx) -> dict[str, int]:
    spec = ability.spec["replacement"]["enter_as_copy"]
    original = state.get(target)
    och = state.characteristics(original.id)
    choose = spec.get("choose", {})
    if original.zone != "battlefield" or not matches(
            original, och, choose, you=obj.controller, source=obj.id,
            opponents=state.opponents(obj.controller)):
        raise IllegalAction(_("{what} can't enter as a copy of {copied!r}: not a permanent it may "
                              "copy ({ability})").format(what=obj.alias or obj.id,
                                                         copied=target, ability=ability.text))
    values = copiable_values(state, original)
    values, extras = with_exceptions(values, spec.get("except", {}), copier=obj.printed,
                                     this=ability, ctx=ctx)
    become_copy(state, obj, values, source=obj.id, controller=obj.controller)
    return extras


def token_count(state: GameState, controller: str, n: int) -> int:
    """How many tokens an effect that would create ``n`` under ``controller``'s control
    creates once replacement effects apply ("it creates twice that many instead", 614)."""
    proposal = replace(state, Proposal("tokens", n, player=controller))
    return proposal.amount if proposal.happens else 0


def create_token(state: GameState, printed: Printed, controller: str, *,
                 choices: Mapping[str, Any] | None = None, transformed: bool = False,
                 alias: str | None = None, tapped: bool = False) -> GameObject:
    """111.2: a token is created on the battlefield under ``controller``'s control."""
    token = state.add_object(printed, controller, "battlefield", controller=controller,
                             token=True, alias=alias)
    token.transformed, token.tapped = transformed, tapped
    state.touch()
    enter(state, token, choices or {})
    state.emit("zone_change", obj=token.id, old=None, card=token.card, from_zone=None,
               to_zone="battlefield", player=controller)
    return token


# -- destroying ------------------------------------------------------------------------------


def destroy(state: GameState, oid: int) -> bool:
    """701.8: destroy a permanent (indestructible ones aren't, 702.12b)."""
    return bool(destroy_all(state, [oid]))


def destroy_all(state: GameState, oids: Sequence[int]) -> list[GameObject]:
    """701.8: destroy permanents, all at once ("destroy all creatures": one event, 614.1);
    indestructible ones aren't (702.12b), regenerated ones neither (701.19a). The objects
    they became."""
    doomed = destroyed(state, [state.objects[oid] for oid in oids if oid in state.objects])
    return move_all(state, [(obj, "graveyard") for obj in doomed])


def destroyed(state: GameState, objs: Sequence[GameObject]) -> list[GameObject]:
    """Of the permanents an event would destroy, those it destroys: not an indestructible
    one (702.12b), nor one a replacement effect keeps: a regeneration shield (701.19a)
    removes its damage, taps it and removes it from combat instead."""
    out = []
    for obj in objs:
        if obj.zone != "battlefield" or state.characteristics(obj.id).has("indestructible"):
            continue
        proposal = replace(state, Proposal("destroy", obj=obj.id,
                                           player=state.controller(obj.id)))
        if proposal.regenerated:
            obj.damage, obj.deathtouch_damage, obj.tapped = 0, False, True
            _leave_battlefield(state, obj)  # removed from combat
            state.emit("regenerated", obj=obj.id)
            note(state, "701.19a", f"{obj.alias or state.characteristics(obj.id).name} is "
                                   "regenerated instead of destroyed")
            state.touch()
        elif proposal.happens:
            out.append(obj)
    return out


# -- leaving the game ----------------------------------------------------------------------


def leave_game(state: GameState, player: str) -> None:
    """800.4a: the objects the player owns leave the game; effects giving them control of
    anything end; then objects on the stack they control that no card represents cease to
    exist; then the objects they still control are exiled. Not a state-based action."""
    state.player(player).left_game = True
    for obj in [o for o in state.objects.values() if o.owner == player]:
        state.remove_object(obj)
    state.effects = [e for e in state.effects if e.mods.get("control") != player]
    state.touch()
    for obj in [o for o in state.objects.values() if o.zone == "stack"
                and state.controller(o.id) == player
                and (o.spell_copy or (o.spell is not None and o.spell.ability is not None))]:
        cease_to_exist(state, obj)
    for obj in [o for o in state.objects.values() if o.zone in ("battlefield", "stack")
                and state.controller(o.id) == player]:
        move(state, obj, "exile")
