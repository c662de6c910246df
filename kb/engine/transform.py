"""Transforming (701.27, 712; converting, 701.28, works the same): a permanent represented by
a double-faced card or token turns over to its other face. It stays the same object (712.18:
effects that applied to it keep applying); only such a permanent can transform (701.27c,
712.9: a copy of a face, or a card that isn't double-faced, can't), whatever it is a copy of;
and not into an instant or sorcery face (701.27d). Flipping (710) is one-way (710.4) and
applies to a permanent whose copiable values are a flip card's, the status staying with the
permanent whatever it later becomes a copy of (110.5c). Melding (701.42, 712.4) exiles two
cards of a meld pair (card files: ``layout = "meld"``, the back face being the melded
permanent) and puts them onto the battlefield as one object represented by both; objects
that can't be melded stay in exile (701.42c). Its leaving is :mod:`kb.engine.zones`'s (712.21).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx
from kb.engine.faces import copiable_printed
from kb.engine.objects import GameObject, Printed
from kb.engine.zones import enter, move

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


def meld(state: GameState, first: int, second: int, controller: str) -> GameObject | None:
    """701.42a: exile both, then put them onto the battlefield melded, if they are a meld pair
    (701.42b: two different cards, neither a token, whose back faces are the same melded
    permanent); else they stay in exile (701.42c). The melded permanent, or None."""
    a, b = move(state, state.objects[first], "exile"), move(state, state.objects[second],
                                                              "exile")
    if not _meld_pair(a, b):
        return None
    state.remove_object(a)
    state.remove_object(b)
    melded = state.add_object(Printed((a.printed.faces[1],)), a.owner, "battlefield",
                              controller=controller, card=a.card)
    melded.melded = ((a.card, a.printed, a.owner), (b.card, b.printed, b.owner))
    enter(state, melded, {})
    state.emit("zone_change", obj=melded.id, old=None, card=melded.card, from_zone="exile",
               to_zone="battlefield", player=controller)
    return melded


def _meld_pair(a: GameObject, b: GameObject) -> bool:
    if a.token or b.token or a.copy_of_card or b.copy_of_card:
        return False
    if a.printed.layout != "meld" or b.printed.layout != "meld":
        return False
    return (a.printed.faces[1].name == b.printed.faces[1].name
            and a.printed.front.name != b.printed.front.name)


def ops(objects: Callable[[Any, Ctx], list[int]]
        ) -> dict[str, Callable[[GameState, Op, Ctx], None]]:
    """The instructions "transform", "flip" and "meld"; ``objects`` reads an object reference
    (the effects module's, passed down so that this module stays below it)."""

    def each_object(action: Callable[[GameState, int], bool]
                    ) -> Callable[[GameState, Op, Ctx], None]:
        def op(state: GameState, op: Op, ctx: Ctx) -> None:
            for oid in objects(op.get("who", "self"), ctx):
                action(state, oid)
        return op

    def op_meld(state: GameState, op: Op, ctx: Ctx) -> None:
        first, second = objects(op.get("who", "self"), ctx), objects(op["with"], ctx)
        if first and second:
            meld(state, first[0], second[0], ctx.you)

    return {"transform": each_object(transform), "flip": each_object(flip), "meld": op_meld}
