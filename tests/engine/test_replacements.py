"""Replacement and prevention effects (614, 615, 616): the general system."""

from __future__ import annotations

from typing import Any

import pytest

from kb.engine import EngineError
from kb.engine.multiplayer import Multiplayer
from kb.engine.replacements import check_replacement, normalized
from tests.engine.make import card, creature, game

DOUBLER = card(name="Doubler", types=["Enchantment"], abilities=[{
    "text": "If a source would deal damage to you, it deals double that damage instead.",
    "replacement": {"event": "damage", "to": "you", "multiply": 2}}])
PREVENT_3 = card(name="Ward Off", types=["Enchantment"], abilities=[{
    "text": "If a source would deal damage to you, prevent 3 of that damage.",
    "replacement": {"event": "damage", "to": "you", "prevent": 3}}])


@pytest.mark.parametrize(("order", "life"), [
    (["Doubler", "Ward Off"], 19),  # 2 doubled to 4, then 3 prevented: 1 dealt
    (["Ward Off", "Doubler"], 20),  # 2 prevented to 0: nothing left to double
])
def test_the_affected_player_orders_the_replacements_616_1(order: list[str],
                                                          life: int) -> None:
    g = game()
    g.add(DOUBLER, "you", "battlefield", alias="Doubler")
    g.add(PREVENT_3, "you", "battlefield", alias="Ward Off")
    g.add(creature(2, 2), "opponent", "battlefield", alias="source")
    g.state.choices = {"replacement_order": order}  # the affected player's choice
    g.effect([{"op": "damage", "source": "source", "to": "you", "amount": 2}], "you")
    assert g.state.player("you").life == life


def test_a_self_replacement_applies_first_616_1a() -> None:
    g = game()
    g.add(DOUBLER, "you", "battlefield", alias="Doubler")
    self_prevent = card(name="Self", types=["Enchantment"], abilities=[{
        "text": "prevent 1 of it (a self-replacement effect)",
        "replacement": {"event": "damage", "to": "you", "prevent": 1,
                        "self_replacement": True}}])
    g.add(self_prevent, "you", "battlefield", alias="Self")
    g.add(creature(2, 2), "opponent", "battlefield", alias="source")
    g.state.choices = {"replacement_order": ["Doubler"]}  # asked first, yet applied second
    g.effect([{"op": "damage", "source": "source", "to": "you", "amount": 2}], "you")
    assert g.state.player("you").life == 18  # (2 - 1) * 2, not 2 * 2 - 1


def test_damage_redirected_to_the_effects_controller() -> None:
    g = game()
    redirect = card(name="Redirect", types=["Enchantment"], abilities=[{
        "text": "If a source would deal damage to a creature you control, it deals that "
                "damage to you instead.",
        "replacement": {"event": "damage", "to": {"types": ["Creature"],
                                                  "controller": "you"}, "redirect": "you"}}])
    g.add(redirect, "you", "battlefield")
    g.add(creature(2, 2), "you", "battlefield", alias="bear")
    g.add(creature(2, 2), "opponent", "battlefield", alias="source")
    g.effect([{"op": "damage", "source": "source", "to": "bear", "amount": 2}], "opponent")
    assert (g.obj("bear").damage, g.state.player("you").life) == (0, 18)


def test_a_shield_prevents_only_the_next_n_damage_615_7() -> None:
    g = game()
    g.add(creature(5, 5), "you", "battlefield", alias="bear")
    g.add(creature(2, 2), "opponent", "battlefield", alias="source")
    g.effect([{"op": "shield", "who": "bear", "next": 3,
               "replacement": {"event": "damage", "to": "any", "prevent": True}}], "you")
    hit = [{"op": "damage", "source": "source", "to": "bear", "amount": 2}]
    g.effect(hit, "opponent")
    g.effect(hit, "opponent")
    assert g.obj("bear").damage == 1  # 2 prevented, then 1 of 2


def test_enters_tapped_for_any_filter_but_its_own_source_614_12() -> None:
    g = game()
    g.add(card(name="Tapper", types=["Artifact"], abilities=[{
        "text": "Creatures your opponents control enter tapped.",
        "replacement": {"event": "enter", "what": {"types": ["Creature"],
                                                   "controller": "opponent"},
                        "tapped": True}}]), "you", "battlefield")
    g.add(creature(1, 1), "opponent", "hand", alias="theirs")
    g.add(creature(1, 1), "you", "hand", alias="mine")
    g.move("theirs", "battlefield")
    g.move("mine", "battlefield")
    assert (g.obj("theirs").tapped, g.obj("mine").tapped) == (True, False)


def test_life_gain_multiplied() -> None:
    g = game()
    g.add(card(name="Boon", types=["Enchantment"], abilities=[{
        "text": "If you would gain life, you gain twice that much life instead.",
        "replacement": {"event": "gain_life", "player": "you", "multiply": 2}}]),
        "you", "battlefield")
    g.effect([{"op": "gain_life", "player": "you", "n": 3}], "you")
    assert g.state.player("you").life == 26


def test_the_round_1_flags_are_cases_of_the_general_form() -> None:
    assert normalized({"tokens_twice": True}) == [
        {"event": "tokens", "player": "you", "multiply": 2}]
    assert normalized({"enters_tapped": True, "enters_with": {"+1/+1": 2}}) == [
        {"event": "enter", "what": "self", "tapped": True},
        {"event": "enter", "what": "self", "counters": {"+1/+1": 2}}]


@pytest.mark.parametrize(("spec", "message"), [
    ({"event": "dying", "prevent": True}, "unknown replacement event 'dying'"),
    ({"event": "damage", "to": "you", "double": True}, r"unknown keys \['double'\]"),
    ({"event": "damage", "to": "you"}, "says how it modifies"),
    ({"event": "draw", "multiply": 2}, r"unknown keys \['multiply'\]"),
    ({"event": "damage", "to": {"colour": "red"}, "prevent": True}, "unknown filter keys"),
    ({"damage_twice": True}, "unknown kind of replacement 'damage_twice'"),
])
def test_unknown_replacements_are_refused(spec: dict[str, object], message: str) -> None:
    with pytest.raises(EngineError, match=message):
        check_replacement(spec, "here")


def test_a_replaced_gain_is_carried_out_by_the_action_under_way_614_1a() -> None:
    """"Your life total becomes 25" from 20 is a gain of 5 (119.5); replaced by "draw that
    many cards instead", the five draws happen within the same instruction."""
    g = game()
    g.add(card(name="Gain to Draw", types=["Enchantment"], abilities=[{
        "text": "If you would gain life, draw that many cards instead.",
        "replacement": {"event": "gain_life", "player": "you",
                        "instead": [{"op": "draw", "player": "you", "n": "extra.amount"}]}}]),
        "you", "battlefield")
    for i in range(6):
        g.add(creature(1, 1), "you", "library", alias=f"card{i}")
    g.effect([{"op": "set_life", "player": "you", "n": 25}], "you")
    assert (g.state.player("you").life, g.state.player("you").cards_drawn) == (20, 5)
    assert not g.state.deferred


def test_damage_prevented_and_replaced_by_a_gain_of_that_much_life() -> None:
    """"prevent that damage; you gain life equal to the damage prevented this way" (Awe
    Strike, 120.4d's example), as instructions done instead of the damage."""
    g = game()
    g.add(creature(5, 5), "opponent", "battlefield", alias="attacker")
    g.effect([{"op": "shield", "who": "you", "replacement": {
        "event": "damage", "from": {"types": ["Creature"]}, "to": "you",
        "instead": [{"op": "gain_life", "player": "you", "n": "extra.amount"}]}}], "you")
    g.effect([{"op": "damage", "source": "attacker", "to": "you", "amount": 5}], "you")
    assert g.state.player("you").life == 25


def _maneuver(players: tuple[str, ...], multiplayer: dict[str, Any] | None) -> Any:
    g = game(players=players, active=players[0])
    if multiplayer is not None:
        g.state.multiplayer = Multiplayer.from_options(players, multiplayer)
    axe = card(name="Axe", mana_cost="{R}", types=["Sorcery"], abilities=[{
        "text": "5 damage to target player.", "targets": [{"kind": "player"}],
        "spell": [{"op": "damage", "to": "target", "amount": 5}]}])
    maneuver = card(name="Maneuver", mana_cost="{X}{W}", types=["Instant"], abilities=[{
        "text": "The next X damage to target is dealt to another target instead.",
        "targets": [{"kind": "any"}, {"kind": "any"}],
        "spell": [{"op": "shield", "who": "target", "next": "X", "replacement": {
            "event": "damage", "to": "any", "redirect": "target:1"}}]}])
    g.add(axe, players[0], "hand", alias="axe")
    g.add(maneuver, players[1], "hand", alias="maneuver")
    g.state.player(players[0]).mana_pool.update({"R": 1})
    g.cast("axe", targets=[players[1]])
    g.state.player(players[1]).mana_pool.update({"C": 3, "W": 1})
    g.cast("maneuver", x=3, targets=[players[1], players[2]])
    g.resolve_all()
    return g


def test_the_next_n_damage_is_dealt_to_another_target_instead_615() -> None:
    g = _maneuver(("you", "opponent", "third"), None)
    assert g.state.player("opponent").life_lost_total == 2
    assert g.state.player("third").life_lost_total == 3


def test_a_redirection_out_of_range_does_nothing_801_13a() -> None:
    """801.13a: "If a replacement effect tries to cause a spell or ability to affect an object
    or player outside its controller's range of influence, that portion of the event does
    nothing"."""
    five = ("alex", "rob", "carissa", "dana", "erin")
    g = _maneuver(five, {"range": 1})
    assert g.state.player("rob").life_lost_total == 2
    assert g.state.player("carissa").life_lost_total == 0


def test_a_creature_enters_under_the_replacements_controller_instead_614_1c() -> None:
    """614.1c: an effect that says how something enters: "it enters under your control
    instead" (Gather Specimens)."""
    g = game()
    g.effect([{"op": "shield", "duration": "eot", "replacement": {
        "event": "enter", "what": {"types": ["Creature"], "controller": "opponent"},
        "under": "you"}}], "opponent")
    g.add(creature(2, 2, name="Bear"), "you", "hand", alias="bear")
    g.enter("bear", "you")
    assert g.state.controller(g.obj("bear").id) == "opponent"


def test_turned_face_up_triggers_the_abilities_it_now_has_708_8() -> None:
    """708.8: a permanent turned face up has its abilities; "when this creature is turned
    face up" triggers."""
    morph = creature(1, 1, name="Plasm", keywords=["Morph {1}"], abilities=[{
        "text": "When this creature is turned face up, you gain 2 life.",
        "trigger": {"on": "turned_face_up"},
        "effect": [{"op": "gain_life", "player": "you", "n": 2}]}])
    g = game()
    g.add(morph, "you", "battlefield", alias="plasm", face_down=True)
    g.state.player("you").mana_pool.update({"C": 1})
    g.turn_face_up("plasm", "you")
    g.resolve_all()
    assert g.state.player("you").life == 22
