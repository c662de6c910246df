"""Instructions in which players choose: "each player sacrifices a creature" (101.4: the active
player chooses first, then each other player in turn order; then what was chosen is done to
all at once, one instruction being one event, 603.10a, 704.3; ``choices.sacrificed``: player
-> object), and "choose a card from their hand ... exile all cards with that name" (701.23;
``choices.chosen``).
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


def ops(players: Callable[[Any, Ctx], list[str]]
        ) -> dict[str, Callable[[GameState, Op, Ctx], None]]:
    """The instructions of this module; ``players`` reads a player reference (the effects
    module's, passed down so that this module stays below it)."""

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

    def op_exile_same_name(state: GameState, op: Op, ctx: Ctx) -> None:
        """"You choose a card [other than a basic land card] from [the player's hand]. Search
        that player's graveyard, hand, and library for all cards with the same name as the
        chosen card and exile them" (701.23a): nothing to choose, nothing exiled (701.23c)."""
        for player in players(op.get("player", "target"), ctx):
            hand = state.in_zone("hand", player)
            if not hand:
                continue
            chosen = state.find(ctx.choices.get("chosen", "")) if ctx.choices.get("chosen") \
                else None
            if chosen is None or chosen not in hand or (
                    op.get("not_basic_land") and "Basic" in
                    state.characteristics(chosen.id).supertypes):
                raise IllegalAction(f"choose a card from {player}'s hand (choices.chosen)")
            name = state.characteristics(chosen.id).name
            for obj in [o for o in state.objects.values() if o.owner == player
                        and o.zone in ("graveyard", "hand", "library")
                        and state.characteristics(o.id).name == name]:
                move(state, obj, "exile")

    return {"each_sacrifices": op_each_sacrifices, "exile_same_name": op_exile_same_name}
