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


def test_one_source_dealing_damage_to_several_recipients_gains_life_once_702_15b() -> None:
    """702.15b with 119.9: damage dealt at the same time is one event, so a lifelink source
    causes one life gain event for all of it; two sources, two events (702.15e)."""
    from kb.engine.damage import deal_simultaneously

    g = game()
    source = _source(g, keywords=["Lifelink"])
    other = g.add(creature(1, 1, keywords=["Lifelink"]), "you", "battlefield").id
    wall = g.add(creature(0, 9), "opponent", "battlefield").id
    deal_simultaneously(g.state, [(source, wall, 3), (source, "opponent", 3),
                                  (other, "opponent", 1)])
    gains = [e.amount for e in g.state.events if e.kind == "life_gain"]
    assert sorted(gains) == [1, 6]
    assert g.state.player("you").life == 27


def _shielded(prevent: Any, **more: Any) -> Game:
    g = game()
    g.add(card(name="Ward", types=["Enchantment"], abilities=[{
        "text": "a prevention effect", "replacement": {
            "event": "damage", "to": "you", "prevent": prevent, **more}}]), "you",
          "battlefield")
    return g


def test_prevent_all_but_n_and_half_rounded_615() -> None:
    for prevent, lost in (({"all_but": 1}, 1), ({"half": "up"}, 2), ({"half": "down"}, 3),
                          (2, 3), (True, 0)):
        g = _shielded(prevent)
        source = _source(g)
        deal_damage(g.state, source, "you", 5)
        assert g.state.player("you").life == 20 - lost, prevent


def test_a_prevention_effect_on_noncombat_damage_ignores_combat_damage() -> None:
    g = _shielded(True, combat=False)
    source = _source(g)
    deal_damage(g.state, source, "you", 2, combat=True)
    deal_damage(g.state, source, "you", 2)
    assert g.state.player("you").life == 18


def test_damage_that_cant_be_prevented_is_dealt_and_the_effects_other_part_happens() -> None:
    """615.12, and Polukranos's ruling: "prevent that damage and remove that many counters"
    still removes the counters when the damage can't be prevented."""
    g = game()
    g.add(card(name="Leyline", types=["Enchantment"], abilities=[{
        "text": "Damage can't be prevented.", "static": {"damage_cant_be_prevented": True}}]),
          "you", "battlefield")
    g.add(creature(0, 0, name="Hydra", abilities=[{
        "text": "prevent, remove that many counters", "replacement": {
            "event": "damage", "to": "self", "prevent": True,
            "also": [{"op": "remove_counters", "who": "self", "kind": "+1/+1",
                      "n": "extra.amount"}]}}]), "you", "battlefield", alias="hydra",
          counters={"+1/+1": 5})
    g.effect([{"op": "damage", "source": "hydra", "to": "hydra", "amount": 2}], "you")
    assert (g.obj("hydra").damage, g.obj("hydra").counters["+1/+1"]) == (2, 3)


def test_cant_gain_life_and_cant_get_poison_counters_119_7_122_1f() -> None:
    g = game()
    g.add(card(name="Rules", types=["Enchantment"], abilities=[
        {"text": "Players can't gain life.",
         "static": {"player_rule": {"who": "each", "rule": "cant_gain_life"}}},
        {"text": "You can't get poison counters.",
         "static": {"player_rule": {"who": "you", "rule": "cant_get_poison_counters"}}}]),
          "you", "battlefield")
    infect = g.add(creature(2, 2, keywords=["Infect", "Lifelink"]), "opponent",
                   "battlefield").id
    deal_damage(g.state, infect, "you", 2)
    assert (g.state.player("you").poison, g.state.player("opponent").life) == (0, 20)
