"""What players may and can't do (kb/engine/player_rules.py): 101.2, 104, 305.2, 704.5a, 810.8a."""

from __future__ import annotations

import pytest

from kb.engine import EngineError, IllegalAction
from kb.engine.multiplayer import Multiplayer
from kb.engine.player_rules import land_plays
from tests.engine.make import card, game

FOREST = card(name="Forest", types=["Land"], subtypes=["Forest"])


def _rule(who: str, rule: str) -> dict:
    return {"text": f"{who} {rule}", "static": {"player_rule": {"who": who, "rule": rule}}}


def test_one_land_a_turn_305_2() -> None:
    """305.2: "A player can normally play one land during their turn"."""
    g = game(active="you")
    g.add(FOREST, "you", "hand", alias="a")
    g.add(FOREST, "you", "hand", alias="b")
    g.play_land("a")
    assert g.obj("a").zone == "battlefield"
    with pytest.raises(IllegalAction):
        g.play_land("b")


def test_an_additional_land_305_2() -> None:
    """305.2: "continuous effects may increase this number"."""
    g = game(active="you")
    g.add(FOREST, "you", "hand", alias="a")
    g.add(FOREST, "you", "hand", alias="b")
    g.effect([{"op": "player_rule", "player": "you", "rule": "additional_land"}], "you")
    g.play_land("a")
    g.play_land("b")
    assert g.obj("b").zone == "battlefield"


def test_cant_wins_over_may_101_2() -> None:
    """101.2: "the 'can't' effect takes precedence"."""
    g = game(active="you")
    g.effect([{"op": "player_rule", "player": "you", "rule": "additional_land"},
              {"op": "player_rule", "player": "you", "rule": "cant_play_lands"}], "you")
    assert land_plays(g.state, "you") == 0
    assert land_plays(g.state, "opponent") == 1


def test_not_on_an_opponents_turn_305_2() -> None:
    g = game(active="opponent")
    g.add(FOREST, "you", "hand", alias="a")
    with pytest.raises(IllegalAction):
        g.play_land("a")


def test_an_instructions_rule_ends_with_the_turn_514_2() -> None:
    g = game(active="you")
    g.effect([{"op": "player_rule", "player": "you", "rule": "cant_play_lands"}], "you")
    g.advance("cleanup")
    assert land_plays(g.state, "you") == 1


def test_cant_lose_for_life_704_5a() -> None:
    """704.5a with "You don't lose the game for having 0 or less life": no loss at 0 life,
    but drawing from an empty library still loses (704.5b)."""
    g = game()
    g.add(card(name="T", types=["Enchantment"], abilities=[_rule("you", "cant_lose_for_life")]),
          "you", "battlefield")
    g.state.player("you").life = 0
    g.settle()
    assert not g.state.player("you").lost
    g.draw("you")
    assert g.state.player("you").lost


def test_cant_lose_and_opponents_cant_win_104() -> None:
    angel = card(name="A", types=["Artifact"],
                 abilities=[_rule("you", "cant_lose"), _rule("opponents", "cant_win")])
    g = game()
    g.add(angel, "you", "battlefield")
    g.draw("you")
    g.effect([{"op": "win_game", "player": "you"}], "opponent")
    assert not g.state.player("you").lost
    assert not g.state.player("opponent").won


def test_a_teammates_cant_lose_holds_for_the_team_810_8a() -> None:
    """810.8a: "If an effect says that a player can't lose the game, that player's team
    can't lose the game"."""
    g = game(players=("you", "opponent", "ally", "rival"))
    g.state.multiplayer = Multiplayer.from_options(
        ["you", "opponent", "ally", "rival"], {"teams": [["you", "ally"], ["opponent", "rival"]]})
    g.add(card(name="A", types=["Artifact"], abilities=[_rule("you", "cant_lose")]),
          "you", "battlefield")
    g.draw("ally")
    assert not g.state.player("ally").lost


def test_an_unknown_rule_is_refused() -> None:
    with pytest.raises(EngineError):
        card(name="X", types=["Enchantment"], abilities=[_rule("you", "cant_breathe")])


def test_a_prohibition_judges_the_spell_with_its_x_chosen_601_3a() -> None:
    """601.3a: "If any such choices could cause that effect to no longer prohibit that player
    from casting that spell, the player may begin to cast the spell"."""
    winnower = card(name="W", types=["Artifact"], abilities=[{
        "text": "Your opponents can't cast spells with even mana values.",
        "static": {"player_rule": {"who": "opponents", "rule": "cant_cast",
                                   "spells": {"mana_value": "even"}}}}])
    thunder = card(name="Thunder", mana_cost="{X}{R}", types=["Sorcery"],
                   abilities=[{"text": "-", "spell": []}])
    g = game(active="opponent")
    g.add(winnower, "you", "battlefield")
    g.add(thunder, "opponent", "hand", alias="t")
    odd = g.clone()
    odd.state.player("opponent").mana_pool.update({"C": 2, "R": 1})
    odd.cast("t", x=2)  # mana value 3
    even = g.clone()
    even.state.player("opponent").mana_pool.update({"C": 1, "R": 1})
    with pytest.raises(IllegalAction, match="601.3"):
        even.cast("t", x=1)  # mana value 2
    mine = card(name="Mine", mana_cost="{1}{R}", types=["Sorcery"],
                abilities=[{"text": "-", "spell": []}])
    g.state.active = "you"
    g.add(mine, "you", "hand", alias="mine")
    g.state.player("you").mana_pool.update({"C": 1, "R": 1})
    g.cast("mine")  # the prohibition is for opponents only
