"""Transforming (701.27, 712; converting, 701.28, works the same): a permanent represented by
a double-faced card or token turns over to its other face. It stays the same object (712.18:
effects that applied to it keep applying); only such a permanent can transform (701.27c,
712.9: a copy of a face, or a card that isn't double-faced, can't), whatever it is a copy of;
and not into an instant or sorcery face (701.27d). Flipping (710) is one-way (710.4) and
applies to a permanent whose copiable values are a flip card's, the status staying with the
permanent whatever it later becomes a copy of (110.5c).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx
from kb.engine.faces import copiable_printed

if TYPE_CHECKING:
    from kb.engine.state import GameState

Op = Mapping[str, Any]


def transform(state: GameState, oid: int) -> bool:
    """Turn the permanent over if it can transform; whether it did."""
    obj = state.objects.get(oid)
    if obj is None or obj.zone != "battlefield" or obj.printed.layout != "transform":
        return False
    other = obj.printed.faces[0 if obj.transformed else 1]
    if {"Instant", "Sorcery"} & set(other.types):
        return False
    obj.transformed = not obj.transformed
    state.touch()
    state.emit("transformed", obj=oid)
    return True


def flip(state: GameState, oid: int) -> bool:
    """710.4: flip a permanent that is (a copy of) a flip card; once flipped, it stays so."""
    obj = state.objects.get(oid)
    if obj is None or obj.zone != "battlefield" or obj.flipped or \
            copiable_printed(state, obj).layout != "flip":
        return False
    obj.flipped = True
    state.touch()
    state.emit("flipped", obj=oid)
    return True


def ops(objects: Callable[[Any, Ctx], list[int]]
        ) -> dict[str, Callable[[GameState, Op, Ctx], None]]:
    """The instructions "transform" and "flip"; ``objects`` reads an object reference (the effects
    module's, passed down so that this module stays below it)."""

    def op_transform(state: GameState, op: Op, ctx: Ctx) -> None:
        for oid in objects(op.get("who", "self"), ctx):
            transform(state, oid)

    def op_flip(state: GameState, op: Op, ctx: Ctx) -> None:
        for oid in objects(op.get("who", "self"), ctx):
            flip(state, oid)

    return {"transform": op_transform, "flip": op_flip}
