"""Turn structure (rules 500-514): steps in order, their turn-based actions, and the end of
"until end of turn" effects at cleanup (514.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.engine.effects import draw
from kb.engine.objects import IllegalAction
from kb.engine.steps import STEPS
from kb.engine.zones import move
from kb.i18n import _

if TYPE_CHECKING:
    from kb.engine.state import GameState



def advance(state: GameState, step: str, player: str | None = None) -> None:
    """Go forward, step by step, to the next ``step`` of ``player``'s turn (the active
    player's by default). A step ends only with an empty stack (500.2)."""
    if step not in STEPS:
        raise IllegalAction(_("no step {step!r} (steps: {steps})").format(
            step=step, steps=", ".join(STEPS)))
    player = player or state.active
    state.player(player)
    for _tried in range(len(STEPS) * (len(state.players) + 2)):
        _next_step(state)
        if state.step == step and state.active == player:
            return
    raise IllegalAction(_("can't reach {player}'s {step}").format(player=player, step=step))


# The last step of each phase (500.1): a phase added "after this phase" begins after it.
PHASE_ENDS = frozenset({"draw", "precombat main", "end of combat", "postcombat main",
                        "cleanup"})


def _next_step(state: GameState) -> None:
    if state.stack or state.pending:
        raise IllegalAction(_("the {step} step can't end: the stack isn't empty (500.2)").format(
            step=state.step))
    for player in state.players.values():
        player.mana_pool.clear()  # 500.5: unspent mana empties as a step or phase ends
    if state.extra_upkeeps and (state.step in PHASE_ENDS or state.resume_after is not None):
        # 500.10: an added beginning phase has only an upkeep step (its untap and draw steps
        # are skipped); the turn goes on after the phase it followed
        if state.resume_after is None:
            state.resume_after = state.step
        state.extra_upkeeps -= 1
        begin(state, "upkeep")
        return
    if state.resume_after is not None:
        state.step, state.resume_after = state.resume_after, None
    index = STEPS.index(state.step) if state.step in STEPS else len(STEPS) - 1
    if index == len(STEPS) - 1:
        order = [p for p in state.players if not state.players[p].left_game]
        state.active = order[(order.index(state.active) + 1) % len(order)]
        state.turn += 1
        state.step = STEPS[0]
    else:
        state.step = STEPS[index + 1]
    begin(state, state.step)


def begin(state: GameState, step: str) -> None:
    """The turn-based actions of a step as it begins, then its "at the beginning of" event."""
    state.step = step
    active = state.active
    if step == "untap":
        if state.multiplayer is not None:  # 801.2c: ranges are determined as a turn begins
            state.multiplayer.begin_turn(p for p, pl in state.players.items()
                                         if not pl.left_game)
        untapped = [o for o in state.battlefield()
                    if state.controller(o.id) == active and o.tapped]
        for obj in untapped:
            obj.tapped = False  # 502.3
        for obj in untapped:
            state.emit("becomes_untapped", obj=obj.id)
    elif step == "upkeep":
        state.player(active).upkeep_clocks.append(state.tick())
    elif step == "draw":
        draw(state, active)  # 504.1
    elif step == "end of combat":
        state.combat = None
    elif step == "cleanup":
        cleanup(state)
    state.touch()
    state.emit("step", player=active, data={"step": step})


def cleanup(state: GameState) -> None:
    """514.1: the active player discards down to their maximum hand size (the last cards of
    hand, unless ``choices.keep`` names cards to keep); 514.2: damage is removed and
    "until end of turn" effects end."""
    hand = state.in_zone("hand", state.active)
    excess = len(hand) - state.player(state.active).max_hand_size
    if excess > 0:
        kept = [state.find(a) for a in state.choices.get("keep", [])]
        for card in [c for c in hand if c not in kept][-excess:]:
            move(state, card, "graveyard")
    for obj in state.objects.values():
        obj.damage = 0
        obj.deathtouch_damage = False
    state.effects = [e for e in state.effects if e.duration != "eot"]
    state.replacements = [r for r in state.replacements if r.duration != "eot"]
    state.delayed = [d for d in state.delayed if d.duration != "eot"]
    for player in state.players.values():
        player.cant_cast_until_eot = False
        player.rules_this_turn.clear()
        player.lands_played = 0
        player.attacked_with.clear()
    state.touch()
