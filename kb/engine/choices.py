"""Instructions in which each player chooses (101.4): "each player sacrifices a creature". The
active player chooses first, then each other player in turn order; then what was chosen is
done to all at once (one instruction, one event: 603.10a, 704.3), the scenario giving the
choices as ``choices.sacrificed`` (player -> object).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx
from kb.engine.filters import matches
from kb.engine.objects import IllegalAction
from kb.engine.zones import move

if TYPE_CHECKING:
    from kb.engine.state import GameState

Op = Mapping[str, Any]


def ops() -> dict[str, Callable[[GameState, Op, Ctx], None]]:
    def op_each_sacrifices(state: GameState, op: Op, ctx: Ctx) -> None:
        """Each player (in APNAP order, 101.4) sacrifices a permanent matching ``filter`` of
        their choice, if they have one; all are sacrificed at the same time."""
        chosen = ctx.choices.get("sacrificed", {})
        victims = []
        for player in state.apnap():
            options = [o for o in state.battlefield() if state.controller(o.id) == player
                       and matches(o, state.characteristics(o.id), op.get("filter", {}),
                                   you=player, opponents=state.opponents(player))]
            if not options:
                continue
            pick = state.find(chosen[player]) if player in chosen else None
            if pick is None or pick not in options:
                raise IllegalAction(f"{player} chooses what to sacrifice among "
                                    f"{[o.alias or o.id for o in options]} (choices.sacrificed)")
            victims.append(pick)
        for victim in victims:
            move(state, victim, "graveyard")

    return {"each_sacrifices": op_each_sacrifices}
