"""Mulligans (103.5, the London mulligan): a player shuffles their hand back into their
library, draws a new hand of their starting hand size (seven; in Vanguard, seven plus or minus
the hand modifier, 103.5a, 902.5a), then puts as many of those cards on the bottom of their
library as the number of mulligans they have taken (in a multiplayer game the first one doesn't
count, 103.5c). A player can't take a mulligan once their hand would be zero cards.

Above :mod:`kb.engine.effects` (drawing, shuffling)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kb.engine.effects import draw, shuffle
from kb.engine.objects import IllegalAction
from kb.engine.replacements import note
from kb.engine.zones import move, move_all
from kb.i18n import _, ngettext

if TYPE_CHECKING:
    from kb.engine.state import GameState


def mulligan(state: GameState, player: str, bottom: Sequence[str] | None = None) -> None:
    """Take one mulligan; ``bottom``: the cards (aliases) put on the bottom of the library,
    else the last ones drawn (the hand's order is random: any of them could be)."""
    who = state.player(player)
    multiplayer = state.multiplayer is not None or len(state.players) > 2
    counted = who.mulligans + 1 - (1 if multiplayer else 0)  # the first one is free there
    size = who.max_hand_size  # the starting hand size (103.5, 103.5a: the same modifier)
    if counted >= size:
        raise IllegalAction(_("{player} can't take another mulligan: their opening hand would "
                              "be zero cards (103.5)").format(player=player))
    move_all(state, [(card, "library") for card in state.in_zone("hand", player)])
    shuffle(state, player)
    draw(state, player, size)
    who.mulligans += 1
    hand = state.in_zone("hand", player)
    chosen = [state.get(alias) for alias in bottom] if bottom is not None \
        else hand[len(hand) - counted:]
    if len(chosen) != counted or any(c.zone != "hand" or c.owner != player for c in chosen):
        raise IllegalAction(ngettext(
            "{player} puts {n} card(s) from their new hand on the bottom of their library "
            "(103.5), not {chosen}",
            "{player} puts {n} card(s) from their new hand on the bottom of their library "
            "(103.5), not {chosen}", counted).format(player=player, n=counted,
                                                     chosen=list(bottom or [])))
    for card in chosen:
        move(state, card, "library", top=False)
    note(state, "103.5", f"{player} takes a mulligan: draws {size}, puts {counted} on the "
                         "bottom of their library")
