"""Regeneration (701.19), searches replaced (701.23f), shuffling named objects (701.24c-d),
mulligans (103.5), haunt (702.55), additional upkeep steps (500.10), "as this enters, exile"
(614.13a), a token naming its creator (201.5a), gaining another object's abilities (201.5b),
stickers across zones (123.5)."""

from __future__ import annotations

import pytest

from kb.engine import IllegalAction
from tests.engine.make import card, ch, creature, game

SKELETON = creature(1, 1, name="Skeleton", abilities=[{
    "text": "{B}: Regenerate this creature.", "cost": "{B}",
    "effect": [{"op": "regenerate"}]}])


def shielded_skeleton():
    """A game where your Skeleton's regeneration ability ({B}) has resolved: one shield."""
    g = game()
    g.add(SKELETON, "you", "battlefield", alias="skeleton")
    g.state.player("you").mana_pool.update({"B": 1})
    g.activate("skeleton")
    g.resolve()
    return g


def test_a_regeneration_shield_replaces_one_destruction_this_turn_701_19a() -> None:
    g = game(step="declare attackers")
    g.add(SKELETON, "you", "battlefield", alias="skeleton", damage=0)
    g.state.player("you").mana_pool.update({"B": 1})
    g.attack({"skeleton": "opponent"})
    g.activate("skeleton")
    g.resolve()
    g.obj("skeleton").damage = 1
    g.effect([{"op": "destroy", "who": "skeleton"}], "opponent")
    skeleton = g.obj("skeleton")
    assert skeleton.zone == "battlefield" and skeleton.tapped and skeleton.damage == 0
    assert skeleton.id not in g.state.combat.attackers  # removed from combat
    g.effect([{"op": "destroy", "who": "skeleton"}], "opponent")  # the shield is used up
    assert g.obj("skeleton").zone == "graveyard"


def test_lethal_damage_is_destruction_regeneration_replaces_704_5g() -> None:
    g = shielded_skeleton()
    g.effect([{"op": "damage", "to": "skeleton", "amount": 3}], "opponent")
    assert g.obj("skeleton").zone == "battlefield"
    g.effect([{"op": "set_pt", "who": "skeleton", "pt": [0, 0], "duration": "eot"}], "opponent")
    assert g.obj("skeleton").zone == "graveyard"  # 0 toughness isn't destruction (704.5f)


def test_a_sacrifice_is_no_destruction_701_19c() -> None:
    g = shielded_skeleton()
    g.effect([{"op": "sacrifice", "who": "skeleton"}], "you")
    assert g.obj("skeleton").zone == "graveyard"


def test_a_search_replaced_by_the_top_cards_still_shuffles_the_library_701_23f() -> None:
    g = game()
    g.add(card(name="Censor", types=["Enchantment"], abilities=[{
        "text": "If an opponent would search a library, that player searches the top four "
                "cards of that library instead.",
        "replacement": {"event": "search", "player": "opponent", "top": 2}}]),
        "you", "battlefield")
    land = card(name="Plains", type_line="Basic Land — Plains")
    g.add(creature(1, 1), "opponent", "library")
    g.add(land, "opponent", "library", alias="second")
    g.add(land, "opponent", "library", alias="third")
    search = [{"op": "search", "player": "opponent", "filter": {"types": ["Land"]}}]
    with pytest.raises(IllegalAction, match="top 2"):
        g.clone().effect(search, "you", choices={"search": ["third"]})
    g.effect(search, "you", choices={"search": ["second"]})
    assert g.obj("second").zone == "hand"
    assert sum(1 for e in g.state.events if e.kind == "shuffled") == 1


def test_shuffling_objects_in_shuffles_even_with_none_there_701_24c() -> None:
    g = game()
    g.add(creature(1, 1), "you", "graveyard", alias="gone")
    g.add(creature(1, 1), "you", "graveyard", alias="there")
    g.effect([{"op": "exile", "who": "gone"}], "you")
    g.state.events.clear()
    g.effect([{"op": "shuffle", "who": ["there"]}], "you")
    assert g.obj("there").zone == "library"
    g.effect([{"op": "shuffle", "who": []}], "you")
    assert sum(1 for e in g.state.events if e.kind == "shuffled") == 2


def test_a_mulligan_draws_a_new_hand_and_puts_that_many_on_the_bottom_103_5() -> None:
    g = game()
    for i in range(20):
        g.add(creature(1, 1), "you", "library", alias=f"card{i}")
    for i in range(7):
        g.add(creature(1, 1), "you", "hand", alias=f"hand{i}")
    g.mulligan("you")
    assert len(g.state.in_zone("hand", "you")) == 6
    g.state.rng.seed(1)
    names = {card: alias for alias, card in g.state.aliases.items()}
    clone = g.clone()
    clone.state.rng.seed(1)
    clone.mulligan("you")  # the same shuffle: the same new hand
    drawn = [names[o.card] for o in clone.state.in_zone("hand", "you")]
    g.mulligan("you", bottom=drawn[:2])
    assert len(g.state.in_zone("hand", "you")) == 5
    assert [g.obj(a).zone for a in drawn[:2]] == ["library", "library"]
    assert g.state.libraries["you"][-2:] == [g.obj(a).id for a in drawn[:2]]
    assert g.state.player("you").cards_drawn == 14


def test_the_first_mulligan_of_a_multiplayer_game_is_free_103_5c() -> None:
    g = game(players=("a", "b", "c"))
    for _ in range(20):
        g.add(creature(1, 1), "a", "library")
    for _ in range(7):
        g.add(creature(1, 1), "a", "hand")
    g.mulligan("a")
    assert len(g.state.in_zone("hand", "a")) == 7
    g.mulligan("a")
    assert len(g.state.in_zone("hand", "a")) == 6


def test_a_mulligan_puts_exactly_that_many_on_the_bottom() -> None:
    g = game()
    for _ in range(10):
        g.add(creature(1, 1), "you", "library")
    g.add(creature(1, 1), "you", "hand", alias="kept")
    with pytest.raises(IllegalAction, match="bottom"):
        g.mulligan("you", bottom=[])


THRULL = creature(2, 3, name="Thrull", keywords=["Haunt"], abilities=[{
    "text": "When the creature it haunts dies, you gain 3 life.",
    "trigger": {"on": "dies", "what": "haunted", "zone": "exile"},
    "effect": [{"op": "gain_life", "n": 3}]}])


def test_haunt_exiles_the_card_haunting_a_creature_whose_death_it_sees_from_exile_702_55(
) -> None:
    g = game()
    g.add(THRULL, "you", "battlefield", alias="thrull")
    g.add(creature(2, 2), "opponent", "battlefield", alias="haunted")
    g.add(creature(2, 2), "opponent", "battlefield", alias="other")
    g.trigger_targets = {"thrull": [["haunted"]]}
    g.effect([{"op": "destroy", "who": "thrull"}], "opponent")
    g.resolve()
    assert g.obj("thrull").zone == "exile"
    g.effect([{"op": "destroy", "who": "other"}], "you")
    assert not g.state.stack
    g.effect([{"op": "destroy", "who": "haunted"}], "you")
    g.resolve()
    assert g.state.player("you").life == 23


def test_additional_upkeep_steps_come_after_this_phase_without_untap_or_draw_500_10() -> None:
    g = game(step="precombat main")
    g.add(creature(1, 1), "you", "library")
    g.add(creature(1, 1), "you", "battlefield", alias="tapped", tapped=True)
    g.effect([{"op": "additional_upkeeps", "n": 2}], "you")
    g.advance("upkeep")
    assert g.state.step == "upkeep" and g.state.turn == 1
    g.advance("upkeep")
    assert g.state.turn == 1
    g.advance("beginning of combat")
    assert g.state.turn == 1 and g.obj("tapped").tapped
    assert g.state.player("you").cards_drawn == 0


GHOUL = card(name="Ghoul", types=["Creature"], power="*", toughness="*", abilities=[
    {"text": "As this creature enters, exile any number of creature cards from your graveyard.",
     "replacement": {"as_enters_exile": {"filter": {"types": ["Creature"]}, "link": "ghoul"}}},
    {"text": "Its power and toughness are the total of the exiled cards'.",
     "cda": {"power": "linked_power:ghoul", "toughness": "linked_toughness:ghoul"}}])


def test_as_it_enters_it_exiles_cards_from_the_graveyard_but_not_those_entering_614_13a(
) -> None:
    g = game()
    g.add(GHOUL, "you", "graveyard", alias="ghoul")
    g.add(creature(2, 2), "you", "graveyard", alias="bear")
    g.add(creature(3, 4), "you", "graveyard", alias="giant")
    back = [{"op": "return_to_battlefield", "who": ["ghoul", "bear"]}]
    with pytest.raises(IllegalAction, match="614.13a"):
        g.clone().effect(back, "you", choices={"exiled": ["bear"]})
    g.effect(back, "you", choices={"exiled": ["giant"]})
    assert (ch(g, "ghoul").power, ch(g, "ghoul").toughness) == (3, 4)
    assert g.obj("giant").zone == "exile"


def test_a_tokens_ability_counts_the_counters_on_the_object_that_created_it_201_5a() -> None:
    maker = card(name="Grime", types=["Enchantment"], abilities=[{
        "text": "{0}: Create an Ooze with power and toughness equal to the slime counters on "
                "Grime.", "cost": "{0}", "effect": [{"op": "create_token", "as": "ooze", "token": {
                    "name": "Ooze", "types": ["Creature"], "abilities": [{
                        "text": "P/T equal to the slime counters on Grime.",
                        "cda": {"power": "creator.counters:slime",
                                "toughness": "creator.counters:slime"}}]}}]}])
    g = game()
    g.add(maker, "you", "battlefield", alias="first", counters={"slime": 2})
    g.add(maker, "you", "battlefield", alias="second", counters={"slime": 5})
    g.activate("first")
    g.resolve()
    assert ch(g, "ooze").power == 2
    g.effect([{"op": "put_counters", "who": "first", "kind": "slime", "n": 2}], "you")
    assert ch(g, "ooze").power == 4


def test_gained_activated_abilities_refer_to_the_object_that_has_them_201_5b() -> None:
    g = game()
    g.add(creature(3, 4, name="Quicksilver", abilities=[{
        "text": "{0}: This creature gains all activated abilities of target creature until end "
                "of turn.", "cost": "{0}", "targets": [{"kind": "creature"}],
        "effect": [{"op": "gain_abilities_of", "who": "self", "of": "target",
                    "duration": "eot"}]}]), "you", "battlefield", alias="quicksilver")
    g.add(creature(1, 1, name="Pumper", abilities=[{
        "text": "{0}: This creature gets +1/+1 until end of turn.", "cost": "{0}",
        "effect": [{"op": "pump", "who": "self", "pt": [1, 1], "duration": "eot"}]}]),
        "opponent", "battlefield", alias="pumper")
    g.activate("quicksilver", targets=["pumper"])
    g.resolve()
    g.activate("quicksilver", 2)
    g.resolve()
    assert ch(g, "quicksilver").power == 4 and ch(g, "pumper").power == 1


def test_a_name_sticker_stays_on_a_card_moving_to_a_public_zone_not_a_hidden_one_123_5(
) -> None:
    g = game()
    g.add(creature(1, 1, name="Fae of Wishes"), "you", "battlefield", alias="fae")
    g.effect([{"op": "name_sticker", "who": "fae", "word": "Mana", "after": 2}], "you")
    g.effect([{"op": "exile", "who": "fae"}], "you")
    assert ch(g, "fae").name == "Fae of Mana Wishes"
    g.effect([{"op": "bounce", "who": "fae"}], "you")
    assert ch(g, "fae").name == "Fae of Wishes"
