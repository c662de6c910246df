"""Resolving the top object of the stack (608): countered on resolution when every target is
illegal, else its instructions run and a permanent spell enters the battlefield.

Above :mod:`kb.engine.effects` (resolution runs instructions) and :mod:`kb.engine.stack`
(putting things on the stack, which instructions can do: "cast it", "copy it").
"""

from __future__ import annotations

from collections.abc import Mapping
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
from kb.engine.stack import is_legal_target, target_specs
from kb.engine.zones import move

if TYPE_CHECKING:
    from kb.engine.state import GameState


def resolve_top(state: GameState, choices: Mapping[str, Any] | None = None) -> GameObject:
    """608.2: the top object resolves (or is countered if all its targets are illegal)."""
    if not state.stack:
        raise IllegalAction("the stack is empty")
    item = state.objects[state.stack[-1]]
    info = item.spell
    if info is None:
        raise EngineError(f"{item} is on the stack without cast information")
    choices = Choices.of(choices)
    state.resolving += 1
    try:
        if info.ability is not None:
            _resolve_ability(state, item, info, choices)
            return item
        ch = state.characteristics(item.id)
        specs = target_specs(ch.abilities, info.mode, ch.subtypes)
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
        for ability in ch.abilities:
            if ability.kind != "spell":
                continue
            modes = ability.spec.get("modes")
            ops = modes[info.mode - 1]["effect"] if modes else ability.spec["spell"]
            run_effects(state, ops, ctx)  # 702.102d: left half, then right half
        if item.id not in state.objects:
            return item
        if PERMANENT_TYPES & set(ch.types):
            permanent = move(state, item, "battlefield", controller=item.controller,
                             choices=choices, transformed=info.transformed, x=info.x)  # 608.3
            if "Aura" in ch.subtypes and info.targets and info.targets[0]:
                permanent.attached_to = info.targets[0][0]  # 608.3b, 303.4a
                state.touch()
        else:
            move(state, item, "graveyard")  # 608.2n
        return item
    finally:
        state.resolving -= 1


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
