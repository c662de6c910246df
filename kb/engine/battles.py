"""Battles (rule 310): protectors, who may attack a battle and block for it, and the
state-based actions about them (704.5v-x). Defense counters are put on a battle as it enters
(:mod:`kb.engine.zones`), removed by damage (:mod:`kb.engine.damage`); the Siege's intrinsic
triggered ability is in :mod:`kb.engine.triggers`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kb.engine.objects import Characteristics, GameObject, IllegalAction
from kb.i18n import _

if TYPE_CHECKING:
    from kb.engine.state import GameState


def is_siege(ch: Characteristics) -> bool:
    return ch.is_a("Battle") and "Siege" in ch.subtypes


def eligible_protectors(state: GameState, battle: GameObject,
                        ch: Characteristics) -> tuple[str, ...]:
    """310.8a, 310.11a: an opponent of a Siege's controller; its controller otherwise."""
    controller = ch.controller or battle.controller
    if is_siege(ch):
        return state.opponents(controller)
    return (controller,)


def choose_protector(state: GameState, battle: GameObject, ch: Characteristics,
                     choices: Mapping[str, Any]) -> None:
    """As a battle enters, its controller chooses its protector (310.8a, 310.11a)."""
    allowed = eligible_protectors(state, battle, ch)
    chosen = choices.get("protector")
    if chosen is None and len(allowed) == 1:
        chosen = allowed[0]
    if chosen not in allowed:
        raise IllegalAction((_("{battle}'s protector must be one of {allowed}, not {chosen!r} "
                              "(310.8a, 310.11a)") if allowed else
                            _("{battle} can have no protector, not {chosen!r} (310.8a, "
                              "310.11a)")).format(battle=battle.alias or battle.id,
                                                 allowed=", ".join(allowed), chosen=chosen))
    battle.protector = chosen


def can_attack(state: GameState, battle: GameObject, attacker_controller: str) -> bool:
    """310.8b: any attacking player for whom its protector is a defending player, so never
    its protector; a Siege's own controller can attack it."""
    protector = battle.protector
    return protector is not None and protector != attacker_controller and \
        protector in state.opponents(attacker_controller)


def can_block_for(battle: GameObject, blocker_controller: str) -> bool:
    """310.8c: only creatures its protector controls block creatures attacking it."""
    return blocker_controller == battle.protector


def protector_actions(state: GameState, battle: GameObject,
                      ch: Characteristics) -> tuple[str, Any] | None:
    """704.5w and 704.5x: a battle without a protector in the game (and not being attacked),
    or a Siege protected by its own controller, gets a new protector (its controller
    chooses; the only candidate is taken), or goes to the graveyard if none can be chosen."""
    controller = ch.controller or battle.controller
    protector = battle.protector
    gone = protector is None or state.players[protector].left_game
    attacked = state.combat is not None and battle.id in state.combat.attacked_objects()
    if gone and not attacked:
        return _new_protector(state, battle, ch)
    if is_siege(ch) and protector == controller:
        return _new_protector(state, battle, ch)
    return None


def _new_protector(state: GameState, battle: GameObject,
                   ch: Characteristics) -> tuple[str, Any]:
    allowed = [p for p in eligible_protectors(state, battle, ch) if not
               state.players[p].left_game]
    if not allowed:
        return ("graveyard", None)
    wanted = state.choices.get("protector")
    return ("protector", wanted if wanted in allowed else allowed[0])
