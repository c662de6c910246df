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
from kb.engine.zones import move_all
from kb.i18n import _

if TYPE_CHECKING:
    from kb.engine.state import GameState

Op = Mapping[str, Any]


def ops(players: Callable[[Any, Ctx], list[str]], objects: Callable[[Any, Ctx], list[int]]
        ) -> dict[str, Callable[[GameState, Op, Ctx], None]]:
    """The instructions of this module; ``players`` and ``objects`` read references (the
    effects module's, passed down so that this module stays below it)."""

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
                raise IllegalAction(_("{player} chooses what to sacrifice among {options} "
                                      "(choices.sacrificed)").format(
                    player=player, options=[o.alias or o.id for o in options]))
            victims.append(pick)
        move_all(state, [(victim, "graveyard") for victim in victims])

    def op_exile_same_name(state: GameState, op: Op, ctx: Ctx) -> None:
        """"Search that player's graveyard, hand, and library for all cards with the same name
        as [the card chosen from their hand, or the object ``like`` names] and exile them"
        (701.23a): with
        nothing chosen, nothing is exiled (701.23c); in the hidden zones the searcher may find
        fewer (701.23b: ``choices.found`` lists the hand and library cards found; all if not
        given)."""
        for player in players(op.get("player", "target"), ctx):
            name = _searched_name(state, op, ctx, player)
            if name is None:
                continue
            found = ctx.choices.get("found")
            wanted = {state.aliases[a] for a in found} if found is not None else None
            move_all(state, [(obj, "exile") for obj in state.objects.values()
                             if obj.owner == player
                             and obj.zone in ("graveyard", "hand", "library")
                             and state.characteristics(obj.id).name == name
                             and (obj.zone == "graveyard" or wanted is None
                                  or obj.card in wanted)])

    def _searched_name(state: GameState, op: Op, ctx: Ctx, player: str) -> str | None:
        if "like" in op:  # the name of the object ``like`` names
            found = objects(op["like"], ctx)
            return state.characteristics(found[0]).name if found else None
        hand = state.in_zone("hand", player)
        if not hand:
            return None
        chosen = state.find(ctx.choices["chosen"]) if ctx.choices.get("chosen") else None
        if chosen is None or chosen not in hand or (
                op.get("not_basic_land") and "Basic" in
                state.characteristics(chosen.id).supertypes):
            raise IllegalAction(_("choose a card from {player}'s hand (choices.chosen)").format(
                player=player))
        return state.characteristics(chosen.id).name

    return {"each_sacrifices": op_each_sacrifices, "exile_same_name": op_exile_same_name}
