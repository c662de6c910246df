"""One-shot instructions (rule 608.2c): fights, negative results, choices."""

from __future__ import annotations

from typing import Any

import pytest

from kb.engine import EngineError, Game, IllegalAction
from kb.engine.rules import VARIANTS
from tests.engine.make import card, ch, creature, game

ANIMIST = creature(2, 1, abilities=[{"text": "{3}: +X/+0 where X is its power.", "cost": "{3}",
                                     "effect": [{"op": "pump", "who": "self",
                                                 "pt": ["power", 0]}]}])


def test_each_fighter_deals_damage_equal_to_its_power_701_14() -> None:
    g = game()
    g.add(creature(3, 5), "you", "battlefield", alias="a")
    g.add(creature(2, 4), "opponent", "battlefield", alias="b")
    g.effect([{"op": "fight", "a": "a", "b": "b"}], "you")
    assert (g.obj("a").damage, g.obj("b").damage) == (2, 3)


def test_a_negative_result_becomes_zero_107_1b() -> None:
    g = game()
    g.add(ANIMIST, "you", "battlefield", alias="a")
    g.effect([{"op": "pump", "who": "a", "pt": [-5, 0]}], "you")  # a literal: -3/1
    g.state.player("you").mana_pool.update({"C": 3})
    g.activate("a")
    g.resolve()
    assert ch(g, "a").power == -3


def test_under_the_2013_rules_a_negative_result_modified_power_107_1b() -> None:
    g = game(VARIANTS["negative-values-2013"])
    g.add(ANIMIST, "you", "battlefield", alias="a")
    g.effect([{"op": "pump", "who": "a", "pt": [-5, 0]}], "you")
    g.state.player("you").mana_pool.update({"C": 3})
    g.activate("a")
    g.resolve()
    assert ch(g, "a").power == -6


def test_an_optional_instruction_needs_the_players_choice() -> None:
    g = game()
    g.add(creature(1, 1), "you", "library")
    with pytest.raises(IllegalAction, match="choice is needed: draw"):
        g.clone().effect([{"op": "draw", "n": 1, "may": "draw"}], "you")
    g.effect([{"op": "draw", "n": 1, "may": "draw"}], "you", choices={"draw": False})
    assert g.state.player("you").cards_drawn == 0


def test_doubling_counters_puts_as_many_again_of_each_kind() -> None:
    g = game()
    g.add(creature(1, 1), "you", "battlefield", alias="c", counters={"+1/+1": 3,
                                                                    "divinity": 1})
    g.effect([{"op": "double_counters", "who": "c"}], "you")
    assert (g.obj("c").counters["+1/+1"], g.obj("c").counters["divinity"]) == (6, 2)


def test_damage_to_each_creature_reaches_every_one_and_no_player() -> None:
    """'deals 2 damage to each creature' (Pyroclasm, 615.10's example): ``to`` a filter."""
    g = game()
    g.add(creature(2, 2), "you", "battlefield", alias="mine")
    g.add(creature(3, 3), "opponent", "battlefield", alias="theirs")
    g.add(creature(1, 1), "you", "battlefield", alias="source")
    g.effect([{"op": "damage", "source": "source", "to": {"each": {"types": ["Creature"]}},
               "amount": 2}], "you")
    assert (g.obj("theirs").damage, g.state.player("opponent").life) == (2, 20)
    assert g.state.find("mine").zone == "graveyard"


def _steal(g: Game, source: str) -> None:
    g.effect([{"op": "become", "who": "loot", "control": "you",
               "duration": "while_you_control_source"}], "you", source=source)


def test_for_as_long_as_lasts_while_it_holds_then_ends_611_2b() -> None:
    """611.2b: an effect "for as long as" you control its source applies while you do, and
    ends when you no longer do (it doesn't last forever)."""
    g = game()
    g.add(creature(2, 2, name="Thief"), "you", "battlefield", alias="thief")
    g.add(creature(1, 1, name="Loot"), "opponent", "battlefield", alias="loot")
    _steal(g, "thief")
    assert g.state.controller(g.obj("loot").id) == "you"
    g.gain_control("thief", "opponent")
    assert g.state.controller(g.obj("loot").id) == "opponent"
    g.gain_control("thief", "you")  # it doesn't begin again
    assert g.state.controller(g.obj("loot").id) == "opponent"


def test_a_duration_over_before_it_began_does_nothing_611_2b() -> None:
    """611.2b: "If the 'for as long as' duration never starts, the effect does nothing"."""
    g = game()
    g.add(creature(2, 2, name="Thief"), "opponent", "battlefield", alias="thief")
    g.add(creature(1, 1, name="Loot"), "opponent", "battlefield", alias="loot")
    _steal(g, "thief")
    assert g.state.controller(g.obj("loot").id) == "opponent"
    assert not g.state.effects


def test_a_token_created_by_name_is_the_named_card_111_11() -> None:
    """111.11: "that player uses the card with that name in the Oracle card reference to
    determine the characteristics of that token"."""
    g = game()
    g.state.card_reference["Goyf"] = creature(0, 1, name="Goyf", mana_cost="{1}{G}",
                                              subtypes=["Lhurgoyf"])
    g.effect([{"op": "create_token", "token": "Goyf", "as": "goyf"}], "you")
    assert g.obj("goyf").token
    assert ch(g, "goyf").name == "Goyf"
    assert list(ch(g, "goyf").subtypes) == ["Lhurgoyf"]
    clone = g.clone()
    assert clone.state.card_reference is g.state.card_reference  # reference data, shared


def test_a_token_named_after_no_known_card_is_an_error_111_11() -> None:
    g = game()
    with pytest.raises(EngineError):
        g.effect([{"op": "create_token", "token": "Nothing Known"}], "you")


def test_the_same_is_true_for_grants_every_variant_702_1c() -> None:
    """702.1c: "it grants each appropriate variant and variable of that keyword"."""
    g = game()
    g.add(creature(1, 1, name="W", keywords=["Swampwalk", "Protection from red"]), "you",
          "battlefield", alias="w")
    g.add(creature(1, 1, name="F", keywords=["Forestwalk", "Trample"]), "you", "battlefield")
    g.add(creature(1, 1, name="P"), "you", "battlefield", alias="p")
    g.add(creature(1, 1, name="O", keywords=["Flying"]), "opponent", "battlefield", alias="o")
    g.effect([{"op": "share_keywords", "keywords": ["flying", "landwalk", "protection"]}],
             "you")
    texts = {a.text for a in ch(g, "p").abilities}
    assert texts == {"Swampwalk", "Forestwalk", "Protection from red"}
    assert not ch(g, "o").abilities[1:]  # an opponent's creature neither gives nor gains
    g.advance("cleanup")
    assert not ch(g, "p").abilities


def test_a_cumulative_upkeep_of_draw_a_card_draws_per_age_counter_118_11() -> None:
    """702.24a with a cost of "Draw a card": paying it draws once per age counter; 118.11:
    "Even if they are [modified] ... the cost has still been paid"."""
    vortex = card(name="Vortex", types=["Enchantment"],
                  keywords=["Cumulative upkeep—Draw a card"])
    skip = card(name="Skip", types=["Enchantment"], abilities=[{
        "text": "If you would draw a card, skip that draw instead.",
        "replacement": {"event": "draw", "player": "you", "instead": []}}])
    for replaced in (False, True):
        g = game(active="opponent", step="end")
        g.add(vortex, "you", "battlefield", alias="vortex", counters={"age": 1})
        if replaced:
            g.add(skip, "you", "battlefield")
        for i in range(3):
            g.add(creature(1, 1, name=f"C{i}"), "you", "library")
        g.advance("upkeep", "you")
        g.resolve({"pay": True})
        assert g.state.player("you").cards_drawn == (0 if replaced else 2)
        assert g.obj("vortex").zone == "battlefield"


def test_mana_of_the_chosen_color_needs_a_choice_linked_to_it_607_5a() -> None:
    """607.5a: a choice made for another object's ability is not this ability's."""
    elves = creature(1, 1, name="Elves", abilities=[
        {"text": "As this creature enters, choose a color.",
         "replacement": {"as_enters_choose": "color"}},
        {"text": "{T}: Add one mana of the chosen color.", "cost": "{T}",
         "effect": [{"op": "add_mana", "n": 1, "color": "linked:color"}]}])
    g = game()
    g.add(elves, "you", "battlefield", alias="elves", choices={"color": "blue"})
    g.add(creature(1, 1, name="Other"), "you", "battlefield", alias="other",
          choices={"color": "red"})
    g.effect([{"op": "become_copy", "who": "other", "of": "elves"}], "you")
    g.activate("elves", 1)  # a mana ability: it resolves at once (605.3a)
    g.activate("other", 1)
    assert dict(g.state.player("you").mana_pool) == {"U": 1}
    assert not g.state.stack


def test_a_granted_keywords_variable_is_evaluated_as_it_is_used_702_1b() -> None:
    """702.1b: "the value of that variable is constantly reevaluated"."""
    hellion = creature(6, 5, name="Hellion", abilities=[{
        "text": "This creature has echo {X}, where X is your life total.",
        "static": {"affects": "self", "grant": [{"keyword": "Echo {X}", "x": "your_life"}]}}])
    g = game(active="opponent", step="end")
    g.add(hellion, "you", "hand", alias="h")
    g.enter("h")
    g.advance("upkeep", "you")
    g.state.player("you").life = 3
    g.state.player("you").mana_pool.update({"C": 4})
    g.resolve({"pay": True})
    assert g.obj("h").zone == "battlefield"
    assert g.state.player("you").mana_pool["C"] == 1


def test_a_keyword_with_a_variable_takes_only_its_definition() -> None:
    with pytest.raises(EngineError):
        card(name="Bad", types=["Creature"], abilities=[{
            "text": "-", "static": {"affects": "self",
                                    "grant": [{"keyword": "Echo {X}", "y": "your_life"}]}}])


_WINGS = card(name="Wings", mana_cost="{1}{U}", types=["Enchantment"], subtypes=["Aura"],
              keywords=["Enchant creature"], abilities=[
                  {"text": "Aura swap {2}{U}", "cost": "{2}{U}",
                   "effect": [{"op": "aura_swap"}]}])


def _swap(hand_card: Any, owner: str = "you") -> Game:
    g = game()
    g.add(creature(2, 2, name="Bear"), "you", "battlefield", alias="bear")
    g.add(_WINGS, owner, "battlefield", alias="wings", attached_to="bear", controller="you")
    g.add(hand_card, "you", "hand", alias="other")
    g.state.player("you").mana_pool.update({"C": 2, "U": 1})
    g.activate("wings", player="you")
    g.resolve({"swap": "other"})
    return g


def test_aura_swap_exchanges_the_aura_with_one_in_hand_702_65a() -> None:
    g = _swap(card(name="Strength", types=["Enchantment"], subtypes=["Aura"],
                   keywords=["Enchant creature"]))
    assert g.obj("wings").zone == "hand"
    assert g.obj("other").zone == "battlefield"
    assert g.obj("other").attached_to == g.obj("bear").id


def test_aura_swap_that_cant_be_completed_does_nothing_702_65b() -> None:
    """702.65b: "If either half of the exchange can't be completed, the ability has no
    effect"."""
    land_aura = card(name="Growth", types=["Enchantment"], subtypes=["Aura"],
                     keywords=["Enchant land"])
    creature_aura = card(name="Strength", types=["Enchantment"], subtypes=["Aura"],
                         keywords=["Enchant creature"])
    for g in (_swap(land_aura), _swap(creature_aura, owner="opponent")):
        assert g.obj("wings").zone == "battlefield"
        assert g.obj("other").zone == "hand"


def _hand(g: Game, n: int) -> None:
    for i in range(n):
        g.add(card(name=f"Card {i}", types=["Sorcery"]), "opponent", "hand", alias=f"c{i}")


def test_a_random_discard_is_seeded_so_a_replay_is_the_same_701_9b() -> None:
    def discarded(seed: int) -> list[str]:
        g = game()
        g.state.rng.seed(seed)
        _hand(g, 6)
        g.effect([{"op": "discard", "player": "opponent", "n": 2, "random": True}], "you")
        return sorted(o.printed.front.name or "" for o in g.state.in_zone("graveyard", "opponent"))

    assert discarded(0) == discarded(0) and len(discarded(0)) == 2
    assert len({tuple(discarded(seed)) for seed in range(8)}) > 1  # random, not fixed


def test_a_shuffle_is_an_event_even_with_nothing_moved_701_24d() -> None:
    g = game()
    g.effect([{"op": "shuffle", "player": "opponent"}], "you")
    assert [e.player for e in g.state.events if e.kind == "shuffled"] == ["opponent"]


def test_its_controller_is_the_one_it_had_as_it_left_608_2h() -> None:
    """Path to Exile: "Exile target creature. Its controller may search ..."."""
    g = game()
    g.add(creature(2, 2), "opponent", "battlefield", alias="bear")
    g.add(card(name="Forest", type_line="Basic Land — Forest"), "opponent", "library",
          alias="forest")
    g.add(card(name="Path", types=["Instant"], abilities=[{
        "text": "Exile target creature. Its controller may search ...",
        "targets": [{"kind": "creature"}],
        "spell": [{"op": "exile", "who": "target"},
                  {"op": "search", "player": "controller_of:target",
                   "filter": {"types": ["Land"], "supertypes": ["Basic"]},
                   "to": "battlefield", "tapped": True}]}]), "you", "hand", alias="path")
    g.cast("path", targets=["bear"])
    g.state.player("you").mana_pool.clear()
    g.resolve({"search": ["forest"]})
    assert (g.obj("forest").zone, g.state.controller(g.obj("forest").id)) == (
        "battlefield", "opponent")
    assert g.obj("forest").tapped


def test_a_delayed_trigger_on_that_creature_dying_this_turn_603_7() -> None:
    g = game()
    g.add(creature(2, 2), "opponent", "battlefield", alias="bear")
    g.effect([{"op": "delayed", "at": "dies", "refers": "bear", "duration": "eot",
               "effect": [{"op": "lose_life", "player": "opponent", "n": 2}]}], "you")
    g.effect([{"op": "destroy", "who": "bear"}], "you")
    g.resolve()
    assert g.state.player("opponent").life == 18
    g.add(creature(2, 2), "opponent", "battlefield", alias="other")
    g.advance("cleanup")
    assert not g.state.delayed


def test_an_emblem_functions_in_the_command_zone_114_4() -> None:
    g = game()
    g.add(creature(2, 2), "you", "battlefield", alias="bear")
    g.effect([{"op": "emblem", "abilities": [{
        "text": "Creatures you control get +1/+1.",
        "static": {"affects": {"types": ["Creature"], "controller": "you"},
                   "pump": [1, 1]}}]}], "you")
    assert ch(g, "bear").power == 3
    assert [o.zone for o in g.state.objects.values() if o.emblem] == ["command"]


def test_up_to_n_targets_and_hexproof_from_a_quality_115_1_702_11d() -> None:
    g = game()
    g.add(creature(2, 2, keywords=["Hexproof from red"]), "opponent", "battlefield",
          alias="warded")
    g.add(creature(2, 2), "opponent", "battlefield", alias="plain")
    spell = card(name="Sparks", mana_cost="{R}", types=["Sorcery"], abilities=[{
        "text": "1 damage to each of up to two target creatures.",
        "targets": [{"kind": "creature", "up_to": 2}],
        "spell": [{"op": "damage", "to": "target", "amount": 1}]}])
    g.add(spell, "you", "hand", alias="sparks")
    g.state.player("you").mana_pool.update({"R": 1})
    with pytest.raises(IllegalAction, match="not a legal target"):
        g.clone().cast("sparks", targets=[["warded"]])
    g.cast("sparks", targets=[[]])  # none of them: the spell still resolves (608.2b)
    g.resolve()
    assert g.obj("sparks").zone == "graveyard"
