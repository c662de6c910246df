"""Changing the targets of a spell (115.7): "you may choose new targets for target spell".
Each "target" word's targets may be changed on their own or left unchanged; new targets must
be legal, so a change to an illegal one doesn't happen and the word keeps its targets
(115.7d). The new targets are the player's choice (``choices.new_targets``: one list per
"target" word).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx
from kb.engine.stack import is_legal_target, target_specs

if TYPE_CHECKING:
    from kb.engine.state import GameState

Op = Mapping[str, Any]


def change_targets(state: GameState, spell_id: int, chosen: list[list[Any]]) -> None:
    spell = state.objects[spell_id]
    info = spell.spell
    if info is None or spell.zone != "stack" or info.ability is not None:
        return
    ch = state.characteristics(spell_id)
    specs = target_specs(ch.abilities, info.mode, ch.subtypes)
    for index, (spec, group) in enumerate(zip(specs, chosen, strict=False)):
        new = [g if g in state.players else state.get(g).id for g in group]
        legal = len(new) == len(set(new)) == spec.get("count", 1) and all(
            is_legal_target(state, spec, t, controller=spell.controller, source=spell_id,
                            source_ch=ch) for t in new)
        if legal:
            info.targets[index] = new  # 115.7d: else the word keeps its targets
    state.emit("targets_changed", obj=spell_id)


def ops(objects: Callable[[Any, Ctx], list[int]]
        ) -> dict[str, Callable[[GameState, Op, Ctx], None]]:
    """The instruction "change_targets"; ``objects`` reads an object reference (the effects
    module's, passed down so that this module stays below it)."""

    def op_change_targets(state: GameState, op: Op, ctx: Ctx) -> None:
        chosen = ctx.choices.get("new_targets")
        if not chosen:
            return  # "you may"
        for oid in objects(op.get("who", "target"), ctx):
            change_targets(state, oid, chosen)

    return {"change_targets": op_change_targets}
