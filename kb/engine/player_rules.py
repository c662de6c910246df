"""What players may and can't do, as effects say it: "you can't lose the game", "your
opponents can't win the game", "you don't lose the game for having 0 or less life", "you can't
play lands this turn", "you may play an additional land this turn".

Such an effect comes from a permanent's static ability (``static = { player_rule = { who =
you | opponents | each, rule = ... } }``, who is seen from the permanent's controller;
``spells``, a filter, narrows ``cant_cast``) or from
a resolved instruction (``op = "player_rule"``, until end of turn). 101.2: when one effect
allows something and another says it can't happen, the "can't" wins; 810.8a: a player's
"can't lose" and "can't win" hold for their whole team.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from kb.engine.filters import matches

if TYPE_CHECKING:
    from kb.engine.objects import GameObject
    from kb.engine.state import GameState

# The rules an effect can state, with what each means.
RULES = {
    "cant_lose": "can't lose the game (104.3, 810.8a)",
    "cant_lose_for_life": "doesn't lose the game for having 0 or less life (704.5a)",
    "cant_win": "can't win the game (104.2, 810.8a)",
    "cant_play_lands": "can't play lands (305.2, 101.2)",
    "additional_land": "may play an additional land (305.2)",
    "cant_cast": "can't cast spells (``spells``: those a filter names; 601.3)",
    "cant_gain_life": "can't gain life (119.7)",
    "cant_get_poison_counters": "can't get poison counters (122.1f)",
    "cast_from_exile": "may cast spells from among the cards they own in exile (an effect's "
                       "permission, 601.3)",
    "graveyards_as_yours": "may cast spells from other players' graveyards as though those "
                           "cards were in their own graveyard (609.4a)",
}
WHO = ("you", "opponents", "each")
# 810.8a: these hold for the player's team as a whole.
TEAM_RULES = frozenset({"cant_lose", "cant_lose_for_life", "cant_win"})


def count(state: GameState, player: str, rule: str) -> int:
    """How many effects state ``rule`` for ``player`` now (static abilities of permanents on
    the battlefield and effects of resolved instructions until end of turn)."""
    players = [player]
    if rule in TEAM_RULES and state.multiplayer is not None:
        players += list(state.multiplayer.teammates(player))
    n = sum(state.player(p).rules_this_turn[rule] for p in players)
    return n + sum(1 for _, spec, _, _ in _statics(state, rule)
                   if any(spec["covers"](p) for p in players))


def holds(state: GameState, player: str, rule: str) -> bool:
    return count(state, player, rule) > 0


def forbidding_cast(state: GameState, player: str, spell: GameObject) -> str | None:
    """601.3: the text of an effect that forbids ``player`` to cast ``spell``, if any. The
    spell is judged as proposed, with its choices made (X, modes, an alternative cost): 601.3a
    lets the player begin to cast it if some choice could lift the prohibition, so a
    prohibition is only final for the choices actually made."""
    ch = state.characteristics(spell.id)
    for text, spec, source, controller in _statics(state, "cant_cast"):
        if spec["covers"](player) and matches(
                spell, ch, {**spec.get("spells", {}), "zone": spell.zone}, you=controller,
                source=source, opponents=state.opponents(controller)):
            return text
    return None


def _statics(state: GameState, rule: str) -> Iterator[tuple[str, dict[str, Any], int, str]]:
    """The static abilities stating ``rule`` on the battlefield: each ability's text, its
    ``player_rule`` (with ``covers``: whether it is about a player), source and controller."""
    for perm in state.functioning():
        controller = state.controller(perm.id)
        for ability in state.characteristics(perm.id).abilities:
            spec = (ability.spec.get("static") or {}).get("player_rule")
            if spec is not None and spec["rule"] == rule:
                who = spec.get("who", "you")
                yield ability.text, {**spec, "covers": partial(
                    _covers, state, controller, who)}, perm.id, controller


def land_plays(state: GameState, player: str) -> int:
    """305.2: one land a turn, plus one for each effect allowing an additional one; none while
    an effect says the player can't play lands (101.2: the "can't" takes precedence)."""
    if holds(state, player, "cant_play_lands"):
        return 0
    return 1 + count(state, player, "additional_land")


def _covers(state: GameState, controller: str, who: str, player: str) -> bool:
    if who == "you":
        return player == controller
    if who == "opponents":
        return player in state.opponents(controller)
    return True
