"""Battles (rule 310)."""

from __future__ import annotations

import pytest

from kb.engine import IllegalAction
from tests.engine.make import card, creature, game

SIEGE = card(layout="transform", faces=[
    {"name": "Siege", "mana_cost": "{2}{R}", "types": ["Battle"], "subtypes": ["Siege"],
     "defense": 3},
    {"name": "Back", "types": ["Sorcery"], "color_indicator": ["red"],
     "abilities": [{"text": "You gain 2 life.", "spell": [{"op": "gain_life", "n": 2}]}]}])


def test_a_battle_enters_with_its_defense_and_an_opposing_protector_310_4b_310_11a() -> None:
    g = game()
    g.add(SIEGE, "you", "hand", alias="siege")
    g.enter("siege")
    assert g.obj("siege").counters["defense"] == 3
    assert g.obj("siege").protector == "opponent"
    g.add(SIEGE, "you", "hand", alias="second")
    with pytest.raises(IllegalAction, match="310.8a"):
        g.enter("second", choices={"protector": "you"})


def test_last_defense_counter_removed_exiles_and_casts_it_transformed_310_11b() -> None:
    g = game()
    g.add(SIEGE, "you", "battlefield", alias="siege")
    g.add(creature(3, 3), "you", "battlefield", alias="c")
    g.attack({"c": "siege"})  # 310.8b: its controller may attack it
    g.combat_damage()
    assert [e.kind for e in g.state.events if e.kind == "triggered"] == ["triggered"]
    g.resolve({"cast": True})
    spell = g.obj("siege")
    assert (spell.zone, spell.transformed) == ("stack", True)
    assert spell.spell.without_paying
    g.resolve()
    assert g.state.player("you").life == 22


def test_a_battle_stays_while_it_is_the_source_of_a_waiting_trigger_310_7() -> None:
    g = game()
    g.add(SIEGE, "you", "battlefield", alias="siege", counters={"defense": 1})
    g.effect([{"op": "remove_counters", "who": "siege", "kind": "defense"}], "you")
    assert g.obj("siege").zone == "battlefield"
    g.state.stack.clear()
    g.state.touch()
    g.settle()
    assert g.obj("siege").zone == "graveyard"


def test_protector_cannot_attack_and_only_protector_blocks_310_8b_c() -> None:
    g = game(players=("you", "opponent", "third"), active="opponent")
    g.add(SIEGE, "you", "battlefield", alias="siege", protector="opponent")
    g.add(creature(2, 2), "opponent", "battlefield", alias="attacker")
    with pytest.raises(IllegalAction, match="310.8b"):
        g.attack({"attacker": "siege"})


def test_a_siege_protected_by_its_controller_gets_another_protector_704_5x() -> None:
    g = game()
    g.add(SIEGE, "you", "battlefield", alias="siege")
    g.gain_control("siege", "opponent")
    assert g.obj("siege").protector == "you"
