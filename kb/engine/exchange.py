"""Exchanging control (701.12): two permanents' controllers swap, as one continuous effect each;
if the exchange can't be done as a whole (one of them is gone, or both have the same
controller), nothing happens (701.12a-b).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx
from kb.engine.events import ContinuousEffect

if TYPE_CHECKING:
    from kb.engine.state import GameState

Op = Mapping[str, Any]


def exchange_control(state: GameState, first: int | None, second: int | None,
                     duration: str = "permanent") -> bool:
    """Swap the controllers of two permanents; whether it happened."""
    if first is None or second is None or first not in state.objects \
            or second not in state.objects:
        return False
    a, b = state.controller(first), state.controller(second)
    if a == b:
        return False
    for oid, player in ((first, b), (second, a)):
        state.effects.append(ContinuousEffect(state.new_id(), state.tick(), frozenset({oid}),
                                              {"control": player}, controller=player,
                                              duration=duration))
    state.touch()
    return True


def ops(objects: Callable[[Any, Ctx], list[int]]
        ) -> dict[str, Callable[[GameState, Op, Ctx], None]]:
    """The instruction "exchange_control" (``a``, ``b``: object references; ``duration``)."""

    def op_exchange_control(state: GameState, op: Op, ctx: Ctx) -> None:
        first, second = objects(op["a"], ctx), objects(op["b"], ctx)
        exchange_control(state, first[0] if first else None, second[0] if second else None,
                         op.get("duration", "permanent"))

    return {"exchange_control": op_exchange_control}
