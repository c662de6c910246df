"""Damage and life (rules 119, 120, 702.2, 702.16)."""

from __future__ import annotations

from typing import Any

from kb.engine import Game
from kb.engine.damage import deal_damage, lethal_damage, set_life
from tests.engine.make import card, ch, creature, game


def _source(g: Game, **data: Any) -> int:
    return g.add(creature(3, 3, **data), "you", "battlefield", alias="source").id


def test_damage_results_by_recipient_120_3() -> None:
    g = game()
    source = _source(g)
    wall = g.add(creature(0, 4), "opponent", "battlefield", alias="wall")
    walker = g.add(card(types=["Planeswalker"], loyalty=5), "opponent", "battlefield",
                   alias="walker")
    battle = g.add(card(types=["Battle"], subtypes=["Siege"], defense=5), "you", "battlefield",
                   alias="battle")
    for target in ("opponent", wall.id, walker.id, battle.id):
        deal_damage(g.state, source, target, 2)
    assert g.state.player("opponent").life == 18  # 120.3a: life loss
    assert g.obj("wall").damage == 2  # 120.3e: damage marked
    assert g.obj("walker").counters["loyalty"] == 3  # 120.3c
    assert g.obj("battle").counters["defense"] == 3  # 120.3h, 310.6


def test_protection_prevents_damage_from_that_color_702_16e() -> None:
    g = game()
    source = _source(g, colors=["green"])
    g.add(creature(2, 2, keywords=["Protection from green"]), "opponent", "battlefield",
          alias="pro")
    assert deal_damage(g.state, source, g.obj("pro").id, 3) == 0
    assert g.obj("pro").damage == 0


def test_deathtouch_makes_any_damage_lethal_702_2() -> None:
    g = game()
    source = _source(g, keywords=["Deathtouch"])
    target = g.add(creature(1, 10), "opponent", "battlefield", alias="big")
    deal_damage(g.state, source, target.id, 1)
    assert g.obj("big").deathtouch_damage
    assert lethal_damage(ch(g, "big"), 0, deathtouch_source=True) == 1
    g.settle()
    assert g.obj("big").zone == "graveyard"  # 704.5h


def test_lethal_damage_counts_damage_already_marked_120_6() -> None:
    g = game()
    g.add(creature(1, 5), "you", "battlefield", alias="c")
    assert lethal_damage(ch(g, "c"), 3, deathtouch_source=False) == 2


def test_life_total_becomes_n_by_gaining_or_losing_119_5() -> None:
    g = game()
    g.state.player("opponent").life = 4
    set_life(g.state, "opponent", 1)
    set_life(g.state, "you", 25)
    assert g.state.player("opponent").life_lost_total == 3
    assert g.state.player("you").life_gained_total == 5


def test_prevention_of_combat_damage_to_and_by_a_creature_615() -> None:
    g = game()
    g.add(creature(2, 2), "you", "battlefield", alias="bear")
    g.add(card(types=["Enchantment"], subtypes=["Aura"], keywords=["Enchant creature"],
               abilities=[{"text": "Prevent all combat damage to and by enchanted creature.",
                           "static": {"affects": "enchanted",
                                      "prevent_combat_damage": True}}]),
          "you", "battlefield", attached_to="bear")
    source = g.add(creature(3, 3), "opponent", "battlefield").id
    assert deal_damage(g.state, source, g.obj("bear").id, 3, combat=True) == 0
    assert deal_damage(g.state, g.obj("bear").id, "opponent", 2, combat=True) == 0
    assert deal_damage(g.state, source, g.obj("bear").id, 1) == 1  # noncombat damage
