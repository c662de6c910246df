"""Continuous effects applied in layers (rule 613).

:func:`compute` derives every object's characteristics from its printed values: layer 1 (copy
effects, then face-down status, 613.2), then layers 2 to 7d. Within a layer,
characteristic-defining abilities apply first (613.3), then the other effects in timestamp
order (613.7). What an effect applies to is decided when it first applies and kept for the
later layers (613.6); a resolved spell's effect applies to the objects it affected as it
resolved (611.2c). Abilities gained within a layer (an Aura granting an Equipment an ability)
join that layer as they appear, ordered by their own timestamps (613.7a).

Changes ("mods") an effect or static ability can make, by layer:

- 2: ``control`` (a player, or "you": the controller of the source)
- 3: ``text`` ({from, to}: a color word or basic land type replaced, 612)
- 4: ``types`` (replace card types, 205.1a), ``add_types``, ``subtypes``, ``add_subtypes``,
  ``add_supertypes``, ``all_creature_types``, ``land_types`` (305.7: a land's subtype set to
  these basic land types: it loses its old land types and the abilities of its rules text,
  and has the mana abilities of the new types; other objects are untouched)
- 5: ``colors`` (set), ``add_colors`` ("in addition to its other colors")
- 6: ``grant`` (abilities), ``lose`` (keywords), ``lose_all``
- 7b: ``set_pt``; 7c: ``pump`` (and counters); 7d: ``switch``

613.8: within layers 2 to 6, an effect that depends on another (applying the other would
change its existence, what it applies to, or what it does: its controller) waits until the
other has applied; effects in a dependency loop apply in timestamp order. Blood Moon and
Urborg, Tomb of Yawgmoth: Blood Moon removes Urborg's ability, so Urborg's effect waits, and
by then no longer exists. A permanent's base power and toughness (after layer 7b, 613.4b)
are kept as ``base_power`` and ``base_toughness``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx, evaluate
from kb.engine.conditions import holds
from kb.engine.faces import face_up_face
from kb.engine.filters import linked_choices, matches
from kb.engine.objects import (
    ALL_CREATURE_TYPES,
    FACE_DOWN,
    Ability,
    Characteristics,
    EngineError,
    Face,
    GameObject,
    keyword,
)
from kb.engine.typeline import LAND_TYPES

if TYPE_CHECKING:
    from kb.engine.state import GameState

LAYERS = ("2", "3", "4", "5", "6", "7a", "7b", "7c", "7d")
MOD_LAYER = {
    "control": "2", "text": "3", "name": "3", "name_sticker": "3",
    "types": "4", "add_types": "4", "subtypes": "4", "add_subtypes": "4",
    "add_supertypes": "4", "all_creature_types": "4", "land_types": "4",
    "colors": "5", "add_colors": "5", "grant": "6", "lose": "6", "lose_all": "6",
    "set_pt": "7b", "pump": "7c", "switch": "7d",
}
_PT_COUNTER = re.compile(r"^([+-]\d+)/([+-]\d+)$")


def layer_of(mod: str) -> str:
    try:
        return MOD_LAYER[mod]
    except KeyError:
        raise EngineError(f"unknown continuous change {mod!r} (known: {sorted(MOD_LAYER)})") \
            from None


# -- layer 1 -------------------------------------------------------------------------------


def layer1(state: GameState, obj: GameObject) -> Face:
    """613.2: copy effects (1a), then face-down status (1b, 708.2)."""
    return FACE_DOWN if obj.face_down else face_up_face(state, obj)


# -- layers 2 to 7 -------------------------------------------------------------------------


@dataclass
class _Candidate:
    key: tuple[Any, ...]
    order: tuple[Any, ...]
    affected: Callable[[dict[int, Characteristics]], frozenset[int]]
    mods: Mapping[str, Any]
    ctx: Ctx
    stamp: int
    static: Mapping[str, Any] | None = None  # a static ability's, which then has begun


# The layers where an effect may depend on another (613.8): what an effect of layers 7a-7d
# applies to and does never reads power and toughness here, so none of them depends.
DEPENDENT_LAYERS = frozenset({"2", "3", "4", "5", "6"})


def compute(state: GameState) -> dict[int, Characteristics]:
    """Every object's characteristics (abilities on the stack excepted)."""
    values: dict[int, Characteristics] = {}
    for obj in state.objects.values():
        if obj.spell is not None and obj.spell.ability is not None:
            continue
        values[obj.id] = _bestowed(obj, Characteristics.of_face(layer1(state, obj),
                                                                obj.controller))
    granted: dict[int, list[tuple[Ability, int]]] = {}
    locked: dict[tuple[Any, ...], frozenset[int]] = {}
    started: dict[tuple[Any, ...], Mapping[str, Any]] = {}  # statics that began (613.6)
    active = _anything_applies(state, values)
    for layer in LAYERS:
        done: set[tuple[Any, ...]] = set()
        while active:
            fresh = [c for c in _candidates(state, values, layer, granted, started)
                     if c.key not in done]
            if not fresh:
                break
            cand = _next(state, values, layer, fresh, granted, started, locked)
            done.add(cand.key)
            if cand.static is not None:
                started[cand.key] = cand.static
            if cand.key not in locked:
                locked[cand.key] = cand.affected(values)
            _apply(state, values, cand, locked[cand.key], granted)
        if layer == "7b":
            for oid, ch in values.items():
                if (ch.base_power, ch.base_toughness) != (ch.power, ch.toughness):
                    values[oid] = ch.with_(base_power=ch.power, base_toughness=ch.toughness)
        if layer == "7c":
            for oid in values:
                values[oid] = _counters(state.objects[oid], values[oid])
    for oid, ch in values.items():
        obj = state.objects[oid]
        if obj.zone == "battlefield":
            if ch.is_a("Battle"):
                values[oid] = ch.with_(defense=obj.counters["defense"])  # 310.4c
            if ch.is_a("Planeswalker"):
                values[oid] = values[oid].with_(loyalty=obj.counters["loyalty"])  # 306.5b
    return values


def _apply(state: GameState, values: dict[int, Characteristics], cand: _Candidate,
           affected: frozenset[int], granted: dict[int, list[tuple[Ability, int]]] | None
           ) -> None:
    """Apply one effect's changes of this layer to the objects it affects (in place)."""
    for oid in affected:
        if oid in values:
            ctx = Ctx(state, cand.ctx.you, cand.ctx.source, values=values,
                      extra={"it": oid})  # the object it applies to now
            if cand.ctx.source in values:
                ctx.you = values[cand.ctx.source].controller or ctx.you
            before = values[oid]
            values[oid] = apply_mods(before, cand.mods, ctx)
            if granted is not None:
                _note_grants(oid, before, values[oid], granted, cand.stamp)


def _next(state: GameState, values: dict[int, Characteristics], layer: str,
          fresh: list[_Candidate], granted: dict[int, list[tuple[Ability, int]]],
          started: dict[tuple[Any, ...], Mapping[str, Any]],
          locked: dict[tuple[Any, ...], frozenset[int]]) -> _Candidate:
    """The effect that applies next (613.3, 613.7, 613.8): characteristic-defining abilities
    first; then, among the others, those that depend on no other effect still to apply, in
    timestamp order; when every one waits on another (a dependency loop), timestamp order."""
    first = min(fresh, key=lambda c: c.order)
    plain = [c for c in fresh if c.order[0] == 1]
    if first.order[0] == 0 or len(plain) < 2 or layer not in DEPENDENT_LAYERS:
        return first
    waiting = {c.key for c in plain if any(
        _depends(state, values, layer, c, other, granted, started, locked)
        for other in plain if other is not c)}
    free = [c for c in plain if c.key not in waiting]
    return min(free or plain, key=lambda c: c.order)


def _depends(state: GameState, values: dict[int, Characteristics], layer: str,
             effect: _Candidate, other: _Candidate,
             granted: dict[int, list[tuple[Ability, int]]],
             started: dict[tuple[Any, ...], Mapping[str, Any]],
             locked: dict[tuple[Any, ...], frozenset[int]]) -> bool:
    """613.8a: whether applying ``other`` would change the existence of ``effect``, what it
    applies to, or what it does (the controller it acts for)."""
    touched = locked.get(other.key) or other.affected(values)
    source = effect.ctx.source
    if not touched or (source not in touched and effect.key in locked):
        return False  # it changes neither the effect's source nor what it may apply to
    trial = dict(values)
    _apply(state, trial, other, touched, None)
    again = {c.key: c for c in _candidates(state, trial, layer, dict(granted), dict(started))}
    if effect.key not in again:
        return True  # its existence
    if effect.key not in locked and again[effect.key].affected(trial) != effect.affected(values):
        return True  # what it applies to
    return source in values and trial[source].controller != values[source].controller


def _bestowed(obj: GameObject, ch: Characteristics) -> Characteristics:
    """702.103b: a spell cast bestowed is an Aura enchantment spell with enchant creature: it
    loses its creature type and creature subtypes and gains the subtype Aura. (A bestowed
    permanent, 702.103f, is not modelled.)"""
    if obj.spell is None or not obj.spell.bestowed or obj.zone != "stack":
        return ch
    types = tuple(t for t in ch.types if t != "Creature")
    return ch.with_(types=types + (("Enchantment",) if "Enchantment" not in types else ()),
                    subtypes=("Aura",), abilities=(*ch.abilities, keyword("Enchant creature")))


def _may_change(ability: Ability) -> bool:
    """Whether an ability may change characteristics (a static or characteristic-defining
    ability, changeling)."""
    return ability.keyword == "changeling" or "cda" in ability.spec or "static" in ability.spec


def _anything_applies(state: GameState, values: dict[int, Characteristics]) -> bool:
    """Whether any continuous effect or characteristic-changing ability exists at all: most
    states have none, and then no layer needs looking at (the answer is the same)."""
    return any(e.copy is None and e.mods for e in state.effects) or any(
        _may_change(a) for ch in values.values() for a in ch.abilities)


def _candidates(state: GameState, values: dict[int, Characteristics], layer: str,
                granted: dict[int, list[tuple[Ability, int]]],
                started: dict[tuple[Any, ...], Mapping[str, Any]]) -> list[_Candidate]:
    out: list[_Candidate] = []
    for eff in state.effects:
        if eff.copy is not None:
            continue
        mods = {k: v for k, v in eff.mods.items() if layer_of(k) == layer}
        if mods:
            out.append(_Candidate(
                ("effect", eff.id), (1, eff.timestamp, 0, 0),
                lambda _v, eff=eff: eff.affected,
                mods, Ctx(state, eff.controller or "", eff.source), eff.timestamp))
    began = {key[1] for key in started}
    for oid, ch in list(values.items()):
        relevant = [a for a in ch.abilities if _may_change(a)]
        if not relevant and oid not in began:
            continue  # nothing of it changes characteristics (most objects)
        obj = state.objects[oid]
        functioning = obj.zone == "battlefield" and not obj.phased_out or obj.emblem
        ctx = Ctx(state, ch.controller or obj.controller, oid)
        seen: dict[str, int] = {}
        mine = {id(a): ts for a, ts in granted.get(oid, [])}
        present: dict[tuple[Any, ...], Mapping[str, Any]] = {}
        for ability in relevant:
            n = seen.get(ability.text, 0)
            seen[ability.text] = n + 1
            key = ("static", oid, ability.text, n)
            grant_ts = mine.get(id(ability))
            intrinsic = grant_ts is None
            stamp = (obj.timestamp, 0, 0) if intrinsic else \
                (max(obj.timestamp, grant_ts or 0), 1, grant_ts)
            if ability.keyword == "changeling" and intrinsic and layer == "4":
                out.append(_Candidate(key, (0, *stamp), lambda _v, oid=oid: frozenset({oid}),
                                      {"all_creature_types": True}, ctx, stamp[0]))
            cda = ability.spec.get("cda")
            if cda is not None and layer == ("7a" if intrinsic else "7b"):
                # 604.3a(d): an ability an object grants itself is not characteristic-defining;
                # it sets power and toughness in layer 7b, in timestamp order.
                out.append(_Candidate(key, (0 if intrinsic else 1, *stamp),
                                      lambda _v, oid=oid: frozenset({oid}),
                                      {"set_pt": [cda["power"], cda["toughness"]]}, ctx,
                                      stamp[0]))
            static = ability.spec.get("static")
            if static is not None and functioning and _layer_mods(static, layer) and holds(
                    static.get("as_long_as"), Ctx(state, ctx.you, oid, values=values)):
                present[key] = static  # "as long as ...": only while it holds (611.3b)
        # 613.6: an effect that began to apply in an earlier layer goes on applying in the
        # later ones, even if its ability is gone by then
        earlier = {k: v for k, v in started.items() if k[1] == oid and k not in present}
        for key, static in {**earlier, **present}.items():
            mods = _layer_mods(static, layer)
            if mods:
                stamp = _static_stamp(obj, granted, key)
                out.append(_Candidate(key, (1, *stamp),
                                      _affects(state, static.get("affects", "self"), oid),
                                      mods, ctx, stamp[0], static))
    return out


# Keys of a static ability that are not layer changes.
STATIC_EXTRA = frozenset({"affects", "prevent_combat_damage",
                          "cost_change", "player_rule", "as_long_as", "devotion_bonus",
                          "cant_enter", "max_attackers", "loyalty_cost",
                          "damage_cant_be_prevented", "damage_as_wither", "extra_trigger",
                          "may_cast", "cast_as_though_flash"})


def _layer_mods(static: Mapping[str, Any], layer: str) -> dict[str, Any]:
    return {k: v for k, v in static.items() if k not in STATIC_EXTRA and layer_of(k) == layer}


def _static_stamp(obj: GameObject, granted: dict[int, list[tuple[Ability, int]]],
                  key: tuple[Any, ...]) -> tuple[Any, ...]:
    """613.7a: a static ability's effect has the later of its object's timestamp and that of
    the effect that granted the ability; relative order is kept when the object gets a new
    timestamp."""
    for ability, ts in granted.get(obj.id, []):
        if ability.text == key[2]:
            return (max(obj.timestamp, ts), 1, ts)
    return (obj.timestamp, 0, 0)


def _affects(state: GameState, affects: Any,
             source: int) -> Callable[[dict[int, Characteristics]], frozenset[int]]:
    obj = state.objects[source]
    if affects == "self":
        return lambda _v: frozenset({source})
    if affects in ("enchanted", "equipped", "attached"):
        return lambda _v: frozenset({obj.attached_to}) if obj.attached_to else frozenset()
    if isinstance(affects, Mapping):
        def pick(values: dict[int, Characteristics]) -> frozenset[int]:
            you = values[source].controller or obj.controller
            linked = linked_choices(obj, values[source].name)
            return frozenset(
                oid for oid, ch in values.items()
                if matches(state.objects[oid], ch, affects, you=you, source=source,
                           opponents=state.opponents(you), linked=linked))
        return pick
    raise EngineError(f"unknown 'affects' {affects!r}")


def apply_mods(ch: Characteristics, mods: Mapping[str, Any], ctx: Ctx) -> Characteristics:
    """Apply one layer's changes of one effect to one object's characteristics."""
    changes: dict[str, Any] = {}
    for mod, value in mods.items():
        if mod == "control":
            changes["controller"] = ctx.you if value == "you" else value
        elif mod == "text":
            ch = _change_text(ch, value["from"], value["to"])
        elif mod == "name":  # a text-changing effect that sets the name (123.6c)
            ch = ch.with_(name=str(value))
        elif mod == "name_sticker":
            ch = ch.with_(name=with_sticker(ch.name, value["word"], int(value["after"])))
        elif mod == "types":
            changes["types"] = tuple(value)
        elif mod == "add_types":
            changes["types"] = _plus(changes.get("types", ch.types), value)
        elif mod == "subtypes":
            changes["subtypes"] = tuple(value)
        elif mod == "add_subtypes":
            changes["subtypes"] = _plus(changes.get("subtypes", ch.subtypes), value)
        elif mod == "add_supertypes":
            changes["supertypes"] = _plus(ch.supertypes, value)
        elif mod == "land_types":
            if "Land" in changes.get("types", ch.types):  # 305.7
                kept = [t for t in changes.get("subtypes", ch.subtypes) if t not in LAND_TYPES]
                changes["subtypes"] = tuple(kept) + tuple(value)
                changes["abilities"] = ()  # its rules text's (granted ones come in layer 6)
        elif mod == "all_creature_types":
            changes["subtypes"] = _plus(changes.get("subtypes", ch.subtypes),
                                        [ALL_CREATURE_TYPES])
        elif mod == "colors":
            changes["colors"] = frozenset(value)
        elif mod == "add_colors":
            changes["colors"] = frozenset(changes.get("colors", ch.colors)) | frozenset(value)
        elif mod == "grant":
            changes["abilities"] = tuple(changes.get("abilities", ch.abilities)) + tuple(
                _cost_is_mana_cost(a, ch) for a in (_with_linked_choice(g, ctx) for g in value)
                if a is not None)
        elif mod == "lose":
            lost = {str(v).lower() for v in value}
            if "hexproof" in lost:
                lost.add("hexproof from")  # 702.11e: losing hexproof loses its variants
            changes["abilities"] = tuple(a for a in changes.get("abilities", ch.abilities)
                                         if (a.keyword or a.text.lower()) not in lost)
        elif mod == "lose_all":
            changes["abilities"] = ()
        elif mod == "set_pt":
            power, toughness = (None if v is None else evaluate(v, ctx) for v in value)
            changes["power"] = ch.power if power is None else power
            changes["toughness"] = ch.toughness if toughness is None else toughness
        elif mod == "pump":
            power, toughness = (evaluate(v, ctx) for v in value)
            changes["power"] = (ch.power or 0) + power
            changes["toughness"] = (ch.toughness or 0) + toughness
        elif mod == "switch":
            changes["power"], changes["toughness"] = ch.toughness, ch.power
        else:
            raise EngineError(f"unknown continuous change {mod!r}")
    return ch.with_(**changes) if changes else ch


def _note_grants(oid: int, before: Characteristics, after: Characteristics,
                 granted: dict[int, list[tuple[Ability, int]]], stamp: int) -> None:
    """Remember the timestamp of the effect that granted each new ability (613.7a)."""
    if before.abilities is after.abilities:
        return
    old = {id(a) for a in before.abilities}
    for ability in after.abilities:
        if id(ability) not in old:
            granted.setdefault(oid, []).append((ability, stamp))


def _plus(current: tuple[str, ...], extra: Any) -> tuple[str, ...]:
    return tuple(current) + tuple(e for e in extra if e not in current)


CHOSEN_COLOR = "the chosen color"


def _with_linked_choice(ability: Ability, ctx: Ctx) -> Ability | None:
    """A granted "protection from the chosen color": the color chosen for the granting
    object's linked "as this enters, choose a color" (607.2a); none chosen for it, the
    ability grants nothing (607.5a)."""
    if ability.keyword != "protection from" or (ability.arg or "").lower() != CHOSEN_COLOR:
        return ability
    source = ctx.state.objects.get(ctx.source) if ctx.source is not None else None
    if source is None:
        return None
    color = source.linked_choice(ctx.ch(source.id).name, "color")
    return None if color is None else keyword(f"Protection from {color}")


def _cost_is_mana_cost(ability: Ability, ch: Characteristics) -> Ability:
    """A granted "[keyword]; its cost is equal to its mana cost" (Past in Flames' flashback)
    reads as the keyword with the object's mana cost; cast, the spell's own mana cost is the
    cost (702.1b: a split card's half cast has that half's)."""
    if ability.spec.get("cost") != "mana_cost" or ability.arg is not None:
        return ability
    cost = str(ch.mana_cost) if ch.mana_cost else "{0}"
    return replace(ability, text=f"{ability.text} {cost}", arg=cost)


def with_sticker(name: str | None, word: str, after: int) -> str:
    """123.6b-c: a name sticker adds its word after the number of words that were before it
    when it was placed, or at the end of the name if there are fewer words now; an object with
    no name is named by the word. It never changes the other words."""
    words = name.split() if name else []
    words.insert(min(after, len(words)), word)
    return " ".join(words)


def _change_text(ch: Characteristics, old: str, new: str) -> Characteristics:
    """612: replace a color word or basic land type in the text it has now (its printed or
    copied abilities and type line; abilities granted later, in layer 6, are untouched)."""
    def swap(text: str) -> str:
        return re.sub(rf"\b{re.escape(old)}\b", new, re.sub(
            rf"\b{re.escape(old.capitalize())}\b", new.capitalize(), text))

    abilities = tuple(
        replace(a, text=swap(a.text), arg=swap(a.arg) if a.arg else a.arg,
                spec=_swap_spec(a.spec, swap))
        for a in ch.abilities)
    subtypes = tuple(swap(s) for s in ch.subtypes)
    return ch.with_(abilities=abilities, subtypes=subtypes)


def _swap_spec(spec: Any, swap: Callable[[str], str]) -> Any:
    if isinstance(spec, str):
        return swap(spec)
    if isinstance(spec, Mapping):
        return {k: _swap_spec(v, swap) for k, v in spec.items()}
    if isinstance(spec, list | tuple):
        return type(spec)(_swap_spec(v, swap) for v in spec)
    return spec


def _counters(obj: GameObject, ch: Characteristics) -> Characteristics:
    """613.4c: +1/+1, -1/-1 (and other P/T) counters apply in layer 7c."""
    if ch.power is None and ch.toughness is None:
        return ch
    dp = dt = 0
    for kind, n in obj.counters.items():
        found = _PT_COUNTER.match(kind)
        if found and n > 0:
            dp += int(found.group(1)) * n
            dt += int(found.group(2)) * n
    if not (dp or dt):
        return ch
    return ch.with_(power=(ch.power or 0) + dp, toughness=(ch.toughness or 0) + dt)

