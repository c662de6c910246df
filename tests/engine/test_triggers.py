"""Triggered abilities (rule 603), and keywords that are triggers (702.30, 702.93, 702.100)."""

from __future__ import annotations

import pytest

from kb.engine import Game, IllegalAction
from tests.engine.make import card, creature, game

COMMANDO = card(name="Commando", types=["Creature"], power=1, toughness=1, abilities=[{
    "text": "Whenever an instant or sorcery spell you control deals damage, you gain 1 life.",
    "trigger": {"on": "deals_damage", "source": {"types": ["Instant", "Sorcery"],
                                                  "controller": "you"}},
    "effect": [{"op": "gain_life", "n": 1}]}])


def _triggered(g: Game) -> int:
    return sum(1 for e in g.state.events if e.kind == "triggered")


def test_one_instruction_that_deals_damage_twice_triggers_once_603_2c() -> None:
    double = card(types=["Instant"], abilities=[{
        "text": "Deals 1 damage to target player and 1 damage to target creature.",
        "targets": [{"kind": "player"}, {"kind": "creature"}],
        "spell": [{"op": "damage", "to": ["target:0", "target:1"], "amount": 1}]}])
    g = game()
    g.add(COMMANDO, "you", "battlefield")
    g.add(creature(3, 3), "opponent", "battlefield", alias="c")
    g.add(double, "you", "hand", alias="spell")
    g.cast("spell", targets=["opponent", "c"])
    g.resolve()
    assert _triggered(g) == 1


def test_enters_trigger_goes_on_the_stack_and_resolves_603_3() -> None:
    wall = creature(0, 4, abilities=[{"text": "When this enters, draw a card.",
                                      "trigger": {"on": "enters", "what": "self"},
                                      "effect": [{"op": "draw", "n": 1}]}])
    g = game()
    g.add(creature(1, 1), "you", "library")
    g.add(wall, "you", "hand", alias="wall")
    g.enter("wall")
    assert len(g.state.stack) == 1
    g.resolve()
    assert g.state.player("you").cards_drawn == 1


def test_intervening_if_is_checked_when_triggering_and_resolving_603_4() -> None:
    keeper = creature(2, 4, abilities=[{
        "text": "When this enters, if you control two or more Gates, draw a card.",
        "trigger": {"on": "enters", "what": "self"},
        "if": {"you_control": {"subtypes": ["Gate"]}, "at_least": 2},
        "effect": [{"op": "draw", "n": 1}]}])
    gate = card(types=["Land"], subtypes=["Gate"])
    g = game()
    g.add(creature(1, 1), "you", "library")
    g.add(gate, "you", "battlefield", alias="gate 1")
    g.add(keeper, "you", "hand", alias="keeper")
    g.enter("keeper")
    assert not g.state.stack  # one Gate: it doesn't trigger
    g.add(gate, "you", "battlefield", alias="gate 2")
    g.move("keeper", "hand")
    g.enter("keeper")
    g.move("gate 2", "graveyard")
    g.resolve()  # checked again: only one Gate now
    assert g.state.player("you").cards_drawn == 0


def test_leaves_the_battlefield_abilities_look_back_603_10a() -> None:
    g = game()
    g.add(creature(2, 2, keywords=["Undying"]), "you", "battlefield", alias="wolf")
    g.effect([{"op": "destroy", "who": "wolf"}], "you")
    g.resolve()
    assert g.obj("wolf").zone == "battlefield"
    assert g.obj("wolf").counters["+1/+1"] == 1  # 702.93a


def test_echo_triggers_after_control_changes_702_30a() -> None:
    jaguar = creature(2, 2, mana_cost="{G}", keywords=["Echo {G}"])
    g = game(step="untap")
    g.add(jaguar, "opponent", "battlefield", alias="jaguar")
    g.advance("upkeep")
    assert not g.state.stack  # the opponent's permanent: not yours
    g.gain_control("jaguar", "you")
    g.add(creature(1, 1), "you", "library")
    g.add(creature(1, 1), "opponent", "library")
    g.advance("upkeep", "you")
    assert len(g.state.stack) == 1
    with pytest.raises(IllegalAction, match="pay"):
        g.clone().resolve({})
    g.resolve({"pay": False})
    assert g.obj("jaguar").zone == "graveyard"


def test_delayed_trigger_refers_to_the_same_object_603_7() -> None:
    g = game()
    g.add(creature(2, 2), "you", "battlefield", alias="c")
    g.effect([{"op": "delayed", "at": "next end step", "refers": "c",
               "effect": [{"op": "destroy", "who": "referred"}]}], "you")
    g.advance("end")
    g.resolve()
    assert g.obj("c").zone == "graveyard"


def test_evolve_counts_once_even_with_more_counters_702_100() -> None:
    krasis = creature(1, 1, keywords=["Evolve"], abilities=[{
        "text": "Whenever this evolves, you gain 1 life.", "trigger": {"on": "evolves"},
        "effect": [{"op": "gain_life", "n": 1}]}])
    season = card(types=["Enchantment"], abilities=[{
        "text": "Counters doubled.", "replacement": {"counters_twice": True}}])
    g = game()
    g.add(krasis, "you", "battlefield", alias="k")
    g.add(season, "you", "battlefield")
    g.add(creature(3, 3), "you", "hand", alias="big")
    g.enter("big")
    g.resolve_all()
    assert g.obj("k").counters["+1/+1"] == 2
    assert g.state.player("you").life == 21
