"""Vanguard modifiers (kb.engine.vanguard, 902) and the cleanup discard they change (514.1),
from the rules' text (CR 2026-04-17)."""

from __future__ import annotations

import pytest

from kb.engine.vanguard import VanguardError, hand_size, starting_life
from tests.engine.make import creature, game


def test_modifiers_902_4_902_5() -> None:
    """902.4: "20 plus or minus the life modifier"; 902.5: "seven cards, as modified by the
    hand modifier".\""""
    assert (starting_life({"life": 5}), hand_size({"hand": -2})) == (25, 5)
    with pytest.raises(VanguardError):
        hand_size({"hands": 1})


def test_cleanup_discards_down_to_the_maximum_hand_size_514_1() -> None:
    """514.1: "if the active player's hand contains more cards than their maximum hand size
    (normally seven), they discard enough cards to reduce their hand size to that number.\""""
    g = game()
    for i in range(9):
        g.add(creature(1, 1), "you", "hand", alias=f"c{i}")
    g.advance("cleanup")
    assert len(g.state.in_zone("hand", "you")) == 7
