"""Which printed values an object shows: copy effects' values (707.2, layer 1a), the face of a
split, flip, double-faced or adventurer card (709, 710, 712, 715), and its mana value (202.3).

Below the layers and the amounts, both of which read an object's face or mana value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.engine.objects import Face, GameObject, Printed, combined

if TYPE_CHECKING:
    from kb.engine.events import ContinuousEffect
    from kb.engine.state import GameState


def copy_effects(state: GameState, obj: GameObject) -> list[ContinuousEffect]:
    return sorted((e for e in state.effects if e.copy is not None and obj.id in e.affected),
                  key=lambda e: e.timestamp)


def copiable_printed(state: GameState, obj: GameObject) -> Printed:
    """707.2: the printed values as modified by copy effects (all faces kept)."""
    effects = copy_effects(state, obj)
    return effects[-1].copy if effects else obj.printed


def face_up_face(state: GameState, obj: GameObject) -> Face:
    """The object's values after layer 1a, before face-down status: what it would be if it
    were face up (708.2, 707.3 examples)."""
    printed = copiable_printed(state, obj)
    if printed.layout == "split":
        spell = obj.spell
        if obj.zone == "stack" and spell is not None and not spell.fused and spell.half is not None:
            return printed.faces[spell.half]  # 709.3b
        return combined(printed.faces)  # 709.4, 709.4d
    if printed.layout == "adventure":  # 715.3b, 715.4: the Adventure only as one, cast
        spell = obj.spell
        cast_as_adventure = obj.zone == "stack" and spell is not None and spell.half == 1
        return printed.faces[1 if cast_as_adventure else 0]
    if printed.layout == "flip":
        return printed.faces[1 if obj.flipped else 0]
    if printed.layout == "transform":
        return printed.faces[1 if obj.transformed else 0]
    return printed.front


def mana_values(state: GameState, oid: int) -> tuple[int, ...]:
    """202.3, 709.4b: an object's mana value, with X's value on the stack (202.3e); a back
    face's is its front face's, but a copy of a back face's is 0 (202.3b); two values for a
    split card off the stack under the 2013 rules (708.4 of 2013)."""
    obj = state.objects.get(oid)
    if obj is None:
        obj = state.last_known[oid].obj
    ch = state.characteristics(oid)
    printed = copiable_printed(state, obj) if oid in state.objects else obj.printed
    if (obj.zone != "stack" and printed.layout == "split" and not obj.face_down
            and state.rules.split_two_values_off_stack):
        return tuple((h.mana_cost.mana_value() if h.mana_cost else 0) for h in printed.faces)
    x = obj.spell.x if obj.zone == "stack" and obj.spell else 0
    cost = ch.mana_cost
    if (printed.layout == "transform" and obj.transformed and not obj.face_down
            and not copy_effects(state, obj)):
        cost = printed.faces[0].mana_cost  # 202.3b: a back face counts its front face's cost
    return (cost.mana_value(x) if cost else 0,)
