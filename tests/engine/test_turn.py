"""Turn structure (rules 500-514)."""

from __future__ import annotations

import pytest

from kb.engine import IllegalAction
from tests.engine.make import creature, game


def test_steps_follow_in_order_and_turns_pass_500_1() -> None:
    g = game(step="untap")
    g.add(creature(1, 1), "opponent", "library")
    g.advance("upkeep", "opponent")
    assert (g.state.active, g.state.step, g.state.turn) == ("opponent", "upkeep", 2)


def test_a_step_doesnt_end_with_a_nonempty_stack_500_2() -> None:
    g = game()
    g.add(creature(1, 1, abilities=[{"text": "When this enters, you gain 1 life.",
                                     "trigger": {"on": "enters", "what": "self"},
                                     "effect": [{"op": "gain_life", "n": 1}]}]),
          "you", "hand", alias="c")
    g.enter("c")
    with pytest.raises(IllegalAction, match="500.2"):
        g.advance("end")


def test_mana_empties_between_steps_500_5() -> None:
    g = game()
    g.state.player("you").mana_pool.update({"G": 2})
    g.advance("beginning of combat")
    assert not g.state.player("you").mana_pool


def test_cleanup_removes_damage_and_ends_until_end_of_turn_effects_514_2() -> None:
    g = game()
    g.add(creature(2, 4), "you", "battlefield", alias="c", damage=1)
    g.effect([{"op": "pump", "who": "c", "pt": [3, 0], "duration": "eot"}], "you")
    g.advance("cleanup")
    assert g.obj("c").damage == 0
    assert g.state.characteristics(g.obj("c").id).power == 2


def test_the_active_player_draws_in_the_draw_step_504_1() -> None:
    g = game(step="untap")
    g.add(creature(1, 1), "you", "library")
    g.advance("draw")
    assert g.state.player("you").cards_drawn == 1
