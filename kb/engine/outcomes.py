"""Winning and losing (104), poison counters (122.1f), and the instructions that bring them:
"you win the game", "target player loses the game", "that player gets N poison counters";
with the keyword instructions of :mod:`kb.engine.keyword_rules` (vanishing, renown).

104.2a: a player still in the game wins when all their opponents have lost; 104.3a-b: a player
who wins makes the others lose (in a two-player game, the opponent).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kb.engine import player_rules
from kb.engine.amounts import Ctx, evaluate
from kb.engine.damage import lose_life, remove_counters
from kb.engine.mana import ManaCost, ManaError, pay
from kb.engine.objects import IllegalAction
from kb.engine.zones import move
from kb.i18n import _

if TYPE_CHECKING:
    from kb.engine.state import GameState

Op = Mapping[str, Any]
Players = Callable[[Any, Ctx], list[str]]


def win(state: GameState, player: str) -> None:
    """104.2a-b: the player wins; every opponent still in the game loses; with a limited range
    of influence, only those within it (801.14); a team wins as one (810.8a)."""
    who = state.player(player)
    if who.lost or who.left_game or player_rules.holds(state, player, "cant_win"):
        return
    shared = state.multiplayer
    team = (player, *shared.teammates(player)) if shared is not None else (player,)
    for member in team:
        state.player(member).won = True
        state.emit("won", player=member)
    for other in state.opponents(player):
        if other not in team and (shared is None or shared.in_range(player, other)):
            lose(state, other)


def lose(state: GameState, player: str) -> None:
    """104.3: a player loses the game (a replacement such as Lich's Mirror is a state-based
    action's business, 704.7; an instruction's loss is not replaced here)."""
    who = state.player(player)
    if who.lost or player_rules.holds(state, player, "cant_lose"):
        return
    who.lost = True
    state.emit("lost", player=player)


def give_poison(state: GameState, player: str, n: int) -> None:
    """122.1f: poison counters on a player; ten or more lose the game (704.5c); none while an
    effect says the player can't get poison counters."""
    if n <= 0 or player_rules.holds(state, player, "cant_get_poison_counters"):
        return
    state.player(player).poison += n
    state.emit("poison", player=player, amount=n)


def ops(players: Players, draw: Callable[[GameState, str, int], None]
        ) -> dict[str, Callable[[GameState, Op, Ctx], None]]:
    """The instructions of this module; ``players`` reads a player reference (the effects
    module's, passed down so that this module stays below it); ``draw`` draws cards (the
    effects module's too: a cumulative upkeep of "Draw a card", 118.11)."""

    def each_player(action: Callable[[GameState, str], None]
                    ) -> Callable[[GameState, Op, Ctx], None]:
        def op(state: GameState, op: Op, ctx: Ctx) -> None:
            for player in players(op.get("player", "you"), ctx):
                action(state, player)
        return op

    def op_poison(state: GameState, op: Op, ctx: Ctx) -> None:
        n = _number(op.get("n", 1), ctx)
        for player in players(op.get("player", "target"), ctx):
            give_poison(state, player, n)

    def op_vanish(state: GameState, op: Op, ctx: Ctx) -> None:
        """702.63a: remove a time counter; when the last is removed, sacrifice it."""
        obj = state.objects.get(ctx.source) if ctx.source is not None else None
        if obj is None or obj.zone != "battlefield":
            return
        if remove_counters(state, obj.id, "time", 1) and obj.counters["time"] == 0:
            move(state, obj, "graveyard")

    def op_cumulative_upkeep(state: GameState, op: Op, ctx: Ctx) -> None:
        """702.24a: put an age counter on it, then pay the cost once for each age counter on it
        (``choices.pay``) or sacrifice it."""
        obj = state.objects.get(ctx.source) if ctx.source is not None else None
        if obj is None or obj.zone != "battlefield":
            return
        obj.counters["age"] += 1
        state.touch()
        times = obj.counters["age"]
        if "pay" not in ctx.choices:
            raise IllegalAction(_("a choice is needed: pay (the cumulative upkeep) or not"))
        cost = str(ctx.extra.get("keyword_arg", ""))
        if ctx.choices["pay"] and cost.strip().lower() == "draw a card":
            # 118.11: drawing is the cost's action; each draw may be replaced (a skipped draw
            # included), and the cost has still been paid.
            draw(state, ctx.you, times)
            return
        if ctx.choices["pay"] and _pay_times(state, cost, times, ctx.you,
                                            ctx.choices.get("sacrificed", [])):
            return
        move(state, obj, "graveyard")

    def op_become_renowned(state: GameState, op: Op, ctx: Ctx) -> None:
        """702.112b: renowned is a designation the permanent keeps until it leaves."""
        obj = state.objects.get(ctx.source) if ctx.source is not None else None
        if obj is not None:
            obj.choices["renowned"] = True

    return {"win_game": each_player(win), "lose_game": each_player(lose), "poison": op_poison,
            "vanish": op_vanish, "become_renowned": op_become_renowned,
            "cumulative_upkeep": op_cumulative_upkeep}


def _number(expr: Any, ctx: Ctx) -> int:
    return max(evaluate(expr, ctx), 0)



def _pay_times(state: GameState, cost: str, times: int, player: str,
               chosen: list[str]) -> bool:
    """Pay a cumulative upkeep cost ``times`` times: mana ("{1}", "{W} or {U}": one of them
    each time, a hybrid symbol), "Pay N life" (119.4: only with that much life), or "Sacrifice
    a creature" (``chosen``: that many different creatures, 702.24a)."""
    lowered = cost.strip().lower()
    if lowered.startswith("sacrifice a"):
        victims = [state.find(alias) for alias in chosen]
        if len(set(chosen)) != len(chosen):
            raise IllegalAction(_("the same permanent can't be sacrificed twice to pay a cost "
                                  "(702.24a)"))
        if len(victims) != times or any(
                v is None or v.zone != "battlefield" or state.controller(v.id) != player
                or not state.characteristics(v.id).is_a("Creature") for v in victims):
            return False
        for victim in victims:
            if victim is not None:
                move(state, victim, "graveyard")
        return True
    if lowered.startswith("pay ") and lowered.endswith(" life"):
        n = int(lowered.split()[1]) * times
        if state.player(player).life < n:
            return False
        lose_life(state, player, n)
        return True
    options = [o.strip() for o in cost.split(" or ")]
    symbol = "{" + "/".join(o.strip("{}") for o in options) + "}" if len(options) > 1 else cost
    try:
        pay(ManaCost.parse(symbol * times), state.player(player).mana_pool)
    except ManaError:
        return False
    return True
