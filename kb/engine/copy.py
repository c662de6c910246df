"""Copying objects (rule 707): copiable values, the exceptions of a copy effect, copies of
permanents, tokens and spells.

Exceptions a copy effect may state (707.9), as written in card files under ``except``:
``pt`` ([7, 7]: "except it's 7/7"), ``keep_color`` ("it doesn't copy that creature's color"),
``colors`` ("except that the copy is red"), ``add_types``, ``add_subtypes``,
``add_supertypes`` ("in addition to its other types"), ``abilities`` ("except it has this
ability"; "this" names the ability making the copy), ``if_creature`` (exceptions that apply
only if the copy would be a creature, 707.9f) and ``counters`` ("enters with X additional
+1/+1 counters": an additional effect, not a characteristic, 707.9e).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx, evaluate
from kb.engine.cards import ability_from
from kb.engine.events import ContinuousEffect
from kb.engine.faces import copiable_printed
from kb.engine.objects import FACE_DOWN, Ability, EngineError, Face, GameObject, Printed

if TYPE_CHECKING:
    from kb.engine.state import GameState

EXCEPTION_KEYS = frozenset({"pt", "keep_color", "colors", "add_types", "add_subtypes",
                            "add_supertypes", "abilities", "if_creature", "counters"})


def copiable_values(state: GameState, original: GameObject, *,
                    keep_faces: bool = False) -> Printed:
    """707.2: what a copy of ``original`` acquires. A face-down object's copiable values are
    those of a face-down object (707.2, 708.2); a double-faced permanent gives the face that
    is up (707.8), except to a token an effect creates as its copy (707.8a: ``keep_faces``).
    """
    if original.face_down:
        return Printed((FACE_DOWN,))
    printed = copiable_printed(state, original)
    if printed.layout == "transform" and not keep_faces:
        return Printed((printed.faces[1 if original.transformed else 0],))
    return printed


def with_exceptions(printed: Printed, exceptions: Mapping[str, Any], *,
                    copier: Printed | None, this: Ability | None,
                    ctx: Ctx) -> tuple[Printed, dict[str, int]]:
    """Apply a copy effect's exceptions; they become part of the copy's copiable values
    (707.9b). Returns the values and the additional effects (counters) to apply as it enters.
    """
    unknown = set(exceptions) - EXCEPTION_KEYS
    if unknown:
        raise EngineError(f"unknown copy exceptions {sorted(unknown)} "
                          f"(known: {sorted(EXCEPTION_KEYS)})")
    extras: dict[str, int] = {}
    plain = {k: v for k, v in exceptions.items() if k not in ("if_creature", "counters")}
    out = printed.map_faces(lambda f: _except(f, plain, copier, this))
    for kind, n in (exceptions.get("counters") or {}).items():
        extras[kind] = extras.get(kind, 0) + evaluate(n, ctx)
    conditional = exceptions.get("if_creature")
    if conditional and "Creature" in out.front.types:
        # 707.9f: decide by what the copy would be without this exception.
        out, more = with_exceptions(out, conditional, copier=copier, this=this, ctx=ctx)
        for kind, n in more.items():
            extras[kind] = extras.get(kind, 0) + n
    return out, extras


def _except(face: Face, exc: Mapping[str, Any], copier: Printed | None,
            this: Ability | None) -> Face:
    changes: dict[str, Any] = {}
    abilities = face.abilities
    if "pt" in exc:
        # 707.9d: a copy effect that sets a characteristic doesn't copy the abilities that
        # define it.
        power, toughness = exc["pt"]
        changes.update(power=power, toughness=toughness)
        abilities = tuple(a for a in abilities if a.defines != "pt")
    if exc.get("keep_color"):
        if copier is None:
            raise EngineError("keep_color: nothing to keep the color of")
        changes.update(color_override=copier.front.colors, color_indicator=None)
    if "colors" in exc:
        changes.update(color_override=frozenset(exc["colors"]), color_indicator=None)
    for key, field in (("add_types", "types"), ("add_subtypes", "subtypes"),
                       ("add_supertypes", "supertypes")):
        if key in exc:
            current = changes.get(field, getattr(face, field))
            changes[field] = tuple(current) + tuple(t for t in exc[key] if t not in current)
    if "abilities" in exc:
        extra = []
        for spec in exc["abilities"]:
            if spec == "this":
                if this is None:
                    raise EngineError("'this' ability: no ability makes this copy")
                extra.append(this)
            else:
                extra.append(ability_from(spec, "copy exception"))
        abilities = abilities + tuple(extra)
    changes["abilities"] = abilities
    return replace(face, **changes)


def become_copy(state: GameState, obj: GameObject, values: Printed, *, source: int | None,
                controller: str, label: str | None = None) -> ContinuousEffect:
    """707.4 and 613.2a: a copy effect on ``obj`` from now on. Other effects that already
    apply to it keep applying; it doesn't leave or enter the battlefield."""
    effect = ContinuousEffect(state.new_id(), state.tick(), frozenset({obj.id}), copy=values,
                              source=source, controller=controller, label=label)
    state.effects.append(effect)
    state.touch()
    return effect
