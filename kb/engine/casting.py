"""Whether a player may begin to cast a spell (601.3): from where and when.

From their hand; from a graveyard with flashback (702.34a: their own, or another player's
while an effect lets them cast spells from it "as though those cards were in your graveyard",
609.4a); their commander from the command zone (903.8); from exile, a card their Adventure
spell was exiled as (715.3d, not as an Adventure again), or their cards while an effect lets
them (a ``player_rule`` ``cast_from_exile``); from elsewhere only with an effect's
permission (a static ability ``may_cast = { from = "library_top", spells = <filter> }``: "you
may cast creature spells from the top of your library"). When: an instant, a spell with flash
or one an effect lets its caster cast "as though it had flash" (a static ability
``cast_as_though_flash = <filter>``) any time they could cast an instant; any other only during
a main phase of the caster's turn with an empty stack (307.1, 117.1a).

The spell is judged as it would be once proposed, with its choices made (601.3b-e): a bestow
card cast bestowed is an Aura spell, not a creature spell (702.103d). A spell cast while
another resolves (an instruction "you may cast it", 608.2g) needs no other permission.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kb.engine import player_rules
from kb.engine.filters import matches
from kb.engine.objects import Characteristics, GameObject, IllegalAction
from kb.i18n import _

if TYPE_CHECKING:
    from kb.engine.state import GameState

# Where a static ability may let a player cast spells from.
MAY_CAST_FROM = ("library_top",)


def check_may_cast(state: GameState, spell: GameObject, ch: Characteristics, player: str, *,
                   origin: str, was_top: bool, flashback: bool, owner: str,
                   adventure_of: str | None = None, as_adventure: bool = False) -> None:
    """Raise IllegalAction if ``player`` may not begin to cast ``spell`` (already moved to the
    stack, ``ch`` its characteristics there) from ``origin`` now."""
    if state.resolving:
        return  # 608.2g: the instruction being carried out permits it
    if not _from_allowed(state, spell, ch, player, origin, was_top, flashback, owner,
                         adventure_of, as_adventure):
        raise IllegalAction(_("{player} can't cast this spell from the {zone}: a spell is cast "
                              "from its owner's hand unless a rule or an effect allows "
                              "another zone (601.3, 702.34a)").format(player=player,
                                                                      zone=origin))
    if ch.is_a("Instant") or ch.has("flash") or _as_though_flash(state, spell, ch, player):
        return
    others = [oid for oid in state.stack if oid != spell.id]
    if player != state.active or "main" not in state.step or others:
        raise IllegalAction(_("{player} can cast this spell only during a main phase of their "
                              "turn while the stack is empty, as it has no flash (307.1, "
                              "117.1a, 702.8a)").format(player=player))


def _from_allowed(state: GameState, spell: GameObject, ch: Characteristics, player: str,
                  origin: str, was_top: bool, flashback: bool, owner: str,
                  adventure_of: str | None, as_adventure: bool) -> bool:
    if origin == "hand":
        return True
    if origin == "graveyard" and flashback:
        return owner == player or player_rules.holds(state, player, "graveyards_as_yours")
    if origin == "command":
        return True  # 903.8: a commander (the commander tax is paid, costs.py)
    if origin == "exile" and adventure_of == player and not as_adventure:
        return True  # 715.3d: not as an Adventure again
    if origin == "exile" and owner == player \
            and player_rules.holds(state, player, "cast_from_exile"):
        return True
    return any(origin == "library" and spec.get("from") == "library_top" and was_top
               and _spell_is(state, spell, ch, spec.get("spells", {}), source, player)
               for spec, source in _statics(state, player, "may_cast"))


def _as_though_flash(state: GameState, spell: GameObject, ch: Characteristics,
                     player: str) -> bool:
    return any(_spell_is(state, spell, ch, flt, source, player)
               for flt, source in _statics(state, player, "cast_as_though_flash"))


def _spell_is(state: GameState, spell: GameObject, ch: Characteristics,
              flt: Mapping[str, Any], source: int, player: str) -> bool:
    return matches(spell, ch, {**flt, "zone": "stack"}, you=player, source=source,
                   opponents=state.opponents(player))


def _statics(state: GameState, player: str, key: str) -> list[tuple[Any, int]]:
    """The values of ``key`` of the static abilities of the permanents ``player`` controls."""
    return [(static[key], perm.id) for perm in state.functioning()
            if state.controller(perm.id) == player
            for a in state.characteristics(perm.id).abilities
            if key in (static := a.spec.get("static") or {})]
