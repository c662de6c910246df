"""Resolving the top object of the stack (608): countered on resolution when every target is
illegal, else its instructions run and a permanent spell enters the battlefield.

Above :mod:`kb.engine.effects` (resolution runs instructions) and :mod:`kb.engine.stack`
(putting things on the stack, which instructions can do: "cast it", "copy it").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx
from kb.engine.conditions import holds
from kb.engine.effects import run_effects
from kb.engine.events import Choices
from kb.engine.objects import (
    PERMANENT_TYPES,
    Characteristics,
    EngineError,
    GameObject,
    IllegalAction,
    SpellInfo,
)
from kb.engine.replacements import note
from kb.engine.stack import (
    chosen_modes,
    is_legal_target,
    put_trigger,
    spell_abilities,
    target_specs,
)
from kb.engine.zones import move
from kb.i18n import _

if TYPE_CHECKING:
    from kb.engine.state import GameState


def resolve_top(state: GameState, choices: Mapping[str, Any] | None = None) -> GameObject:
    """608.2: the top object resolves (or is countered if all its targets are illegal)."""
    if not state.stack:
        raise IllegalAction(_("the stack is empty"))
    item = state.objects[state.stack[-1]]
    info = item.spell
    if info is None:
        raise EngineError(_("{what} is on the stack without cast information").format(what=item))
    choices = Choices.of(choices)
    state.resolving += 1
    try:
        if info.ability is not None:
            _resolve_ability(state, item, info, choices)
            return item
        ch = state.characteristics(item.id)
        specs = target_specs(spell_abilities(ch, info), info.mode, ch.subtypes)
        illegal = _illegal_targets(state, specs, info, item.controller, item.id, ch)
        all_targets = [t for group in info.targets for t in group]
        if all_targets and len(illegal) == len(all_targets):
            state.emit("countered_on_resolution", obj=item.id)
            note(state, "608.2b", f"{ch.name}: every target is illegal; it doesn't resolve")
            move(state, item, "graveyard")  # 608.2b: it doesn't resolve
            return item
        note(state, "608.2", f"{ch.name} resolves")
        ctx = Ctx(state, item.controller, item.id, spell=info, choices=choices,
                  extra={"illegal": illegal})
        first = len(target_specs(ch.abilities, info.mode, ch.subtypes))
        for ability in spell_abilities(ch, info):
            if ability.kind != "spell":
                continue
            if ability in info.spliced:  # 702.47b: the spliced text, its own "target" words
                _run_spliced(state, ability, info, ctx, first)
                first += len(ability.spec.get("targets", ()))
                continue
            modes = ability.spec.get("modes")
            if modes and len(chosen_modes(info.mode)) > 1:
                _run_modes(state, modes, info, ctx)  # 700.2: in the order printed
                continue
            ops = modes[chosen_modes(info.mode)[0] - 1]["effect"] if modes \
                else ability.spec["spell"]
            run_effects(state, ops, ctx)  # 702.102d: left half, then right half
        if item.id not in state.objects:
            return item
        if PERMANENT_TYPES & set(ch.types):
            permanent = move(state, item, "battlefield", controller=item.controller,
                             choices=choices, transformed=info.transformed, x=info.x,
                             face_down=item.face_down)  # 608.3, 702.37c
            if "Aura" in ch.subtypes and info.targets and info.targets[0]:
                permanent.attached_to = info.targets[0][0]  # 608.3b, 303.4a
                state.touch()
        elif item.printed.layout == "adventure" and info.half == 1 and not item.spell_copy:
            exiled = move(state, item, "exile")  # 715.3d: its controller exiles it
            exiled.adventure_of = item.controller  # who may play it from exile
        else:
            move(state, item, "graveyard")  # 608.2n
        return item
    finally:
        state.resolving -= 1


def _run_spliced(state: GameState, ability: Any, info: SpellInfo, ctx: Ctx,
                 first: int) -> None:
    """The instructions of a spliced card's text, read by the spell (it deals the damage,
    702.47c), with its "target" words after the spell's own (``target:0`` is its first)."""
    n = len(ability.spec.get("targets", ()))
    illegal = ctx.extra.get("illegal", set())
    part = replace(info, targets=info.targets[first:first + n])
    run_effects(state, ability.spec["spell"], replace(ctx, spell=part, extra={
        **ctx.extra, "illegal": {(i - first, t) for i, t in illegal if first <= i < first + n}}))


def _run_modes(state: GameState, modes: Any, info: SpellInfo, ctx: Ctx) -> None:
    """Several chosen modes: each mode's instructions, in the order printed, reading its own
    "target" words (``target:0`` is the first of that mode's)."""
    first = 0
    illegal = ctx.extra.get("illegal", set())
    for one in chosen_modes(info.mode):
        mode = modes[one - 1]
        n = len(mode.get("targets", ()))
        part = replace(info, targets=info.targets[first:first + n])
        sub = replace(ctx, spell=part, extra={**ctx.extra, "illegal": {
            (i - first, t) for i, t in illegal if first <= i < first + n}})
        run_effects(state, mode["effect"], sub)
        first += n


def _illegal_targets(state: GameState, specs: list[Mapping[str, Any]], info: SpellInfo,
                     controller: str, source: int | None,
                     source_ch: Characteristics | None) -> set[tuple[int, Any]]:
    illegal = set()
    for index, (spec, group) in enumerate(zip(specs, info.targets, strict=False)):
        for target in group:
            if not is_legal_target(state, spec, target, controller=controller, source=source,
                                   source_ch=source_ch):
                illegal.add((index, target))
    return illegal


def _resolve_ability(state: GameState, item: GameObject, info: SpellInfo,
                     choices: Choices) -> None:
    ability = info.ability
    assert ability is not None
    source_ch = state.characteristics(info.source) if info.source is not None and (
        info.source in state.objects or info.source in state.last_known) else None
    specs = list(ability.spec.get("targets", ()))
    illegal = _illegal_targets(state, specs, info, item.controller, info.source, source_ch)
    all_targets = [t for group in info.targets for t in group]
    state.remove_object(item)
    if all_targets and len(illegal) == len(all_targets):
        state.emit("countered_on_resolution", obj=item.id)
        note(state, "608.2b", f"{ability.text}: every target is illegal; it doesn't resolve")
        return
    note(state, "608.2", f"resolves: {ability.text}")
    ctx = Ctx(state, item.controller, info.source, spell=info, event=info.event,
              choices=choices, extra={"illegal": illegal, "ability": ability,
                                      "keyword_arg": ability.arg,
                                      "keyword_x": ability.spec.get("keyword_x"),
                                      **(info.event.data.get("extra", {})
                                         if info.event is not None else {})})
    if not holds(ability.spec.get("if"), ctx):  # 603.4: checked again on resolution
        return
    run_effects(state, ability.spec["effect"], ctx)
    state.emit("resolved", obj=item.id, source=info.source)


# -- mana abilities (605) ----------------------------------------------------------------------

MANA_OPS = frozenset({"add_mana", "add_mana_of"})


def adds_mana(ability: Any) -> bool:
    """Whether an ability could add mana and has no target (605.1a-b, 605.5a)."""
    return ability is not None and not ability.spec.get("targets") and any(
        op.get("op") in MANA_OPS for op in ability.spec.get("effect", ()))


def is_mana_ability(item: GameObject) -> bool:
    """605.1a: an activated ability with no target that could add mana as it resolves, not
    a loyalty ability (the ability ``item`` stands for on the stack)."""
    info = item.spell
    ability = info.ability if info is not None else None
    return (ability is not None and ability.kind == "activated" and adds_mana(ability)
            and not str(ability.spec.get("cost", "")).lstrip().startswith("["))


def resolve_mana_ability(state: GameState, item: GameObject) -> None:
    """605.3a-b: an activated mana ability doesn't go on the stack and resolves at once;
    a land tapped for mana is an event (``tapped_for_mana``, with the mana it produced);
    the triggered mana abilities that triggered (605.1b: triggered by a mana ability, could
    add mana, no target) resolve right after it, without waiting for priority (605.4a)."""
    info = item.spell
    assert info is not None and info.ability is not None
    player = item.controller
    before = Counter(state.player(player).mana_pool)
    source = info.source
    tapped = "{T}" in str(info.ability.spec.get("cost", ""))
    land = source is not None and source in state.objects \
        and state.characteristics(source).is_a("Land")
    note(state, "605.3a", f"{info.ability.text}: a mana ability, resolved at once")
    resolve_top(state, state.choices)
    produced = Counter(state.player(player).mana_pool) - before
    if tapped and land:
        state.emit("tapped_for_mana", obj=source, player=player,
                   data={"mana": sorted(produced.elements())})
    while True:
        waiting = [p for p in state.pending if p.ability.spec.get("trigger", {}).get("on")
                   == "tapped_for_mana" and adds_mana(p.ability)]
        if not waiting:
            return
        pending = waiting[0]
        state.pending.remove(pending)
        put_trigger(state, pending.source, pending.ability, pending.controller, pending.event)
        note(state, "605.4a", f"{pending.ability.text}: a triggered mana ability, resolved "
                              "at once")
        resolve_top(state, state.choices)
