"""Continuous effects in layers (rule 613)."""

from __future__ import annotations

import pytest

from kb.engine import IllegalAction
from kb.engine.layers import ALL_CREATURE_TYPES, layer_of, with_sticker
from tests.engine.make import card, ch, creature, game

ANTHEM = {"text": "White creatures get +1/+1.",
          "static": {"affects": {"types": ["Creature"], "colors": ["white"]}, "pump": [1, 1]}}


def test_each_change_has_its_layer_613_1() -> None:
    assert [layer_of(m) for m in ("control", "text", "types", "colors", "grant", "set_pt",
                                  "pump", "switch")] == ["2", "3", "4", "5", "6", "7b", "7c",
                                                         "7d"]


def test_sublayers_apply_in_order_whatever_the_timestamps_613_4() -> None:
    g = game()
    g.add(creature(1, 3), "you", "battlefield", alias="c")
    g.effect([{"op": "switch_pt", "who": "c"}], "you")        # 7d, earliest
    g.effect([{"op": "pump", "who": "c", "pt": [0, 1]}], "you")  # 7c
    g.effect([{"op": "set_pt", "who": "c", "pt": [2, 5]}], "you")  # 7b, latest
    assert (ch(g, "c").power, ch(g, "c").toughness) == (6, 2)  # (2/5 +0/+1) switched


def test_counters_modify_power_and_toughness_in_7c_613_4c() -> None:
    g = game()
    g.add(creature(2, 2), "you", "battlefield", alias="c", counters={"+1/+1": 2, "-1/-1": 1})
    g.effect([{"op": "set_pt", "who": "c", "pt": [0, 1]}], "you")
    # 704.5q removes one +1/+1 and one -1/-1 counter; the rest still applies after 7b.
    assert (ch(g, "c").power, ch(g, "c").toughness) == (1, 2)


def test_characteristic_defining_abilities_apply_first_613_3() -> None:
    g = game()
    goyf = card(types=["Creature"], power="*", toughness="*", abilities=[{
        "text": "P/T = cards in your hand", "cda": {"power": "cards:hand:you",
                                                    "toughness": "cards:hand:you"}}])
    g.add(goyf, "you", "battlefield", alias="c")
    for _ in range(3):
        g.add(creature(1, 1), "you", "hand")
    g.effect([{"op": "pump", "who": "c", "pt": [1, 1]}], "you")
    assert (ch(g, "c").power, ch(g, "c").toughness) == (4, 4)


def test_an_ability_an_object_grants_itself_sets_pt_in_timestamp_order_604_3a() -> None:
    g = game()
    g.add(creature(1, 1), "you", "battlefield", alias="c")
    for _ in range(5):
        g.add(creature(1, 1), "you", "graveyard")
    grant = [{"text": "P/T = creature cards in your graveyard",
              "cda": {"power": "cards:graveyard:you:Creature",
                      "toughness": "cards:graveyard:you:Creature"}}]
    g.effect([{"op": "become", "who": "c", "grant": grant}], "you")
    assert ch(g, "c").power == 5
    g.effect([{"op": "set_pt", "who": "c", "pt": [3, 3]}], "you")  # later: it wins (7b)
    assert ch(g, "c").power == 3


def test_the_set_an_effect_applies_to_is_locked_by_its_first_layer_613_6() -> None:
    g = game()
    g.add(card(types=["Artifact"]), "you", "battlefield", alias="a")
    g.effect([{"op": "become", "who": {"each": {"types": ["Artifact"],
                                                 "not_types": ["Creature"]}},
               "types": ["Artifact", "Creature"], "pt": [2, 2]}], "you")
    assert ch(g, "a").types == ("Artifact", "Creature")
    assert (ch(g, "a").power, ch(g, "a").toughness) == (2, 2)


def test_a_filter_is_checked_with_the_values_of_earlier_layers_613_5() -> None:
    g = game()
    g.add(card(types=["Enchantment"], abilities=[ANTHEM]), "you", "battlefield")
    g.add(creature(2, 2, colors=["black"]), "you", "battlefield", alias="c")
    assert ch(g, "c").power == 2
    g.effect([{"op": "become", "who": "c", "colors": ["white"]}], "you")
    assert ch(g, "c").power == 3


def test_later_timestamp_wins_in_the_same_layer_613_7() -> None:
    g = game()
    g.add(creature(2, 2), "you", "battlefield", alias="c")
    g.effect([{"op": "become", "who": "c", "lose": ["flying"]}], "you")
    g.effect([{"op": "become", "who": "c", "grant": ["Flying"]}], "you")
    assert ch(g, "c").has("flying")
    g.effect([{"op": "become", "who": "c", "lose": ["flying"]}], "you")
    assert not ch(g, "c").has("flying")


def test_an_effect_that_removes_an_ability_stops_its_later_layers_613_6() -> None:
    # An anthem that loses its abilities in layer 6 never starts to apply in layer 7c.
    g = game()
    g.add(card(types=["Creature"], power=1, toughness=1, colors=["white"],
               abilities=[ANTHEM]), "you", "battlefield", alias="lord")
    assert ch(g, "lord").power == 2
    g.effect([{"op": "become", "who": "lord", "lose_all": True}], "you")
    assert ch(g, "lord").power == 1


def test_changeling_is_every_creature_type_702_73a() -> None:
    g = game()
    g.add(creature(1, 1, keywords=["Changeling"]), "you", "battlefield", alias="c")
    assert ALL_CREATURE_TYPES in ch(g, "c").subtypes


def test_control_changing_effect_613_1b() -> None:
    g = game()
    g.add(creature(2, 2), "opponent", "battlefield", alias="c")
    g.gain_control("c", "you")
    assert g.state.controller(g.obj("c").id) == "you"


def test_text_change_reaches_printed_words_only_612_2() -> None:
    g = game()
    g.add(creature(2, 2, keywords=["Protection from green"]), "you", "battlefield",
          alias="c")
    g.effect([{"op": "become", "who": "c", "text": {"from": "green", "to": "blue"}},
              {"op": "become", "who": "c", "grant": ["Protection from green"]}], "you")
    assert sorted(a.text for a in ch(g, "c").abilities) == ["Protection from blue",
                                                            "Protection from green"]


def test_basic_land_type_gives_its_mana_ability_305_6() -> None:
    g = game()
    g.add(card(name="Plains", types=["Land"], subtypes=["Plains"]), "you", "battlefield",
          alias="p")
    assert ch(g, "p").mana_produced == ("W",)
    g.effect([{"op": "become", "who": "p", "text": {"from": "Plains", "to": "Island"}}], "you")
    assert ch(g, "p").mana_produced == ("U",)
    assert ch(g, "p").name == "Plains"


def test_granted_ability_keeps_its_order_when_the_object_gets_a_timestamp_613_7a() -> None:
    g = game()
    hammer = card(name="Hammer", types=["Artifact"], subtypes=["Equipment"], abilities=[{
        "text": "Equipped creature loses flying.",
        "static": {"affects": "equipped", "lose": ["flying"]}}])
    rune = card(name="Rune", types=["Enchantment"], subtypes=["Aura"],
                keywords=["Enchant permanent"], abilities=[{
                    "text": "Grant", "static": {"affects": "enchanted", "grant": [{
                        "text": "Equipped creature has flying.",
                        "static": {"affects": "equipped", "grant": ["Flying"]}}]}}])
    g.add(hammer, "you", "battlefield", alias="hammer")
    g.add(rune, "you", "battlefield", alias="rune", attached_to="hammer")
    g.add(creature(1, 1), "you", "battlefield", alias="c")
    g.attach("hammer", "c")  # the Hammer's timestamp is now the latest
    assert ch(g, "c").has("flying")


def test_a_name_sticker_adds_its_word_after_that_many_words_123_6b_c() -> None:
    """123.6b: "added at the beginning of the object's name or after any number of the other
    words"; 123.6c: "If there are fewer words in the object's current name, the word on that
    sticker is added at the end of its name instead"; 123.6b: "If that object has no name, its
    name becomes the word added by the name sticker"."""
    assert with_sticker("Bear Cub", "Dark", 0) == "Dark Bear Cub"
    assert with_sticker("Bear Cub", "Dark", 1) == "Bear Dark Cub"
    assert with_sticker("Bear Cub", "Dark", 5) == "Bear Cub Dark"
    assert with_sticker(None, "Dark", 2) == "Dark"


def test_name_stickers_and_name_changes_apply_in_timestamp_order_123_6c() -> None:
    """123.6c: "apply each name sticker's effect and each other text-changing effect in
    timestamp order"."""
    g = game()
    g.add(creature(2, 2, name="Bear Cub"), "you", "battlefield", alias="cub")
    g.effect([{"op": "become", "who": "cub", "name": "Legit"},
              {"op": "name_sticker", "who": "cub", "word": "Dark", "after": 1}], "you")
    assert ch(g, "cub").name == "Legit Dark"
    g.effect([{"op": "become", "who": "cub", "name": "Plain Name"}], "you")
    assert ch(g, "cub").name == "Plain Name"


def test_a_name_sticker_goes_only_where_a_word_of_the_name_allows_123_6b() -> None:
    g = game()
    g.add(creature(2, 2, name="Bear Cub"), "you", "battlefield", alias="cub")
    with pytest.raises(IllegalAction, match="123.6b"):
        g.effect([{"op": "name_sticker", "who": "cub", "word": "Dark", "after": 3}], "you")


_VOICE = creature(2, 2, name="Voice", abilities=[
    {"text": "As this creature enters, choose a color.",
     "replacement": {"as_enters_choose": "color"}},
    {"text": "This creature has protection from the chosen color.",
     "static": {"affects": "self", "grant": ["Protection from the chosen color"]}}])


def test_protection_from_the_chosen_color_is_the_linked_choice_607_2a() -> None:
    g = game()
    g.add(_VOICE, "you", "battlefield", alias="voice", choices={"color": "red"})
    assert ch(g, "voice").has("protection from")
    assert any(a.text == "Protection from red" for a in ch(g, "voice").abilities)


def test_an_undefined_choice_grants_nothing_607_5a() -> None:
    """607.5a: "If an ability refers to an undefined choice, that part of the ability won't
    do anything" (a copy that never entered as the object)."""
    g = game()
    g.add(_VOICE, "you", "battlefield", alias="voice", choices={"color": "red"})
    g.add(creature(0, 1, name="Shifter"), "you", "battlefield", alias="shifter")
    g.effect([{"op": "become_copy", "who": "shifter", "of": "voice"}], "you")
    assert ch(g, "shifter").name == "Voice"
    assert not ch(g, "shifter").has("protection from")


def test_devotion_decides_an_as_long_as_type_change_700_5a() -> None:
    """700.5: devotion counts the colored mana symbols among the mana costs of permanents you
    control; 700.5a: "taking into account any effects that modify devotion"; the static
    ability applies only "as long as" its condition holds."""
    god = card(name="God", mana_cost="{3}{R}", types=["Enchantment", "Creature"], power=6,
               toughness=5, abilities=[{
                   "text": "As long as your devotion to red is less than five, it isn't a "
                           "creature.",
                   "static": {"affects": "self", "types": ["Enchantment"], "as_long_as": {
                       "less_than": {"amount": "devotion:R", "n": 5}}}}])
    altar = card(name="Altar", mana_cost="{3}", types=["Artifact"], abilities=[{
        "text": "Your devotion is increased by one.", "static": {"devotion_bonus": 1}}])
    hybrid = card(name="Hybrid", mana_cost="{R/G}{R/G}{R}", types=["Enchantment"])
    g = game()
    g.add(god, "you", "battlefield", alias="god")
    g.add(hybrid, "you", "battlefield")
    g.add(card(name="Theirs", mana_cost="{R}{R}", types=["Enchantment"]), "opponent",
          "battlefield")
    assert not ch(g, "god").is_a("Creature")  # 1 + 3: four
    g.add(altar, "you", "battlefield")
    assert ch(g, "god").is_a("Creature")  # five


def _land_setter(affects: dict[str, object], land_type: str) -> object:
    return card(name="Moon", types=["Enchantment"], abilities=[{
        "text": "Those lands are that type.",
        "static": {"affects": affects, "land_types": [land_type]}}])


def test_setting_a_land_type_removes_the_old_ones_and_their_abilities_305_7() -> None:
    g = game()
    pool = card(name="Pool", type_line="Land — Forest Island", abilities=[
        {"text": "{T}: Add {C}.", "cost": "{T}", "effect": [{"op": "add_mana", "mana": "{C}"}]}])
    g.add(pool, "you", "battlefield", alias="pool")
    g.add(_land_setter({"types": ["Land"]}, "Mountain"), "you", "battlefield")
    assert (ch(g, "pool").subtypes, ch(g, "pool").abilities) == (("Mountain",), ())
    assert ch(g, "pool").mana_produced == ("R",)


def test_an_effect_waits_for_one_that_would_change_what_it_applies_to_613_8() -> None:
    """613.8a-b: "All Forests are creatures" depends on "nonbasic lands are Mountains" (it
    changes which lands are Forests), so it applies after it, whatever the timestamps."""
    forests_live = card(name="Life", types=["Enchantment"], abilities=[{
        "text": "All Forests are 1/1 creatures.",
        "static": {"affects": {"subtypes": ["Forest"]}, "add_types": ["Creature"],
                   "set_pt": [1, 1]}}])
    for order in ((forests_live, _land_setter({"types": ["Land"]}, "Mountain")),
                  (_land_setter({"types": ["Land"]}, "Mountain"), forests_live)):
        g = game()
        g.add(card(name="Pool", type_line="Land — Forest Island"), "you", "battlefield",
              alias="pool")
        for enchantment in order:
            g.add(enchantment, "you", "battlefield")
        assert not ch(g, "pool").is_a("Creature")


def test_an_effect_whose_controller_another_changes_waits_for_it_613_8() -> None:
    """613.8a: "you control enchanted creature" depends on an effect that changes who "you"
    is (its Aura's controller)."""
    g = game()
    g.add(creature(2, 2), "you", "battlefield", alias="bear")
    g.add(card(name="Steal", types=["Enchantment"], subtypes=["Aura"],
               keywords=["Enchant creature"], abilities=[{
                   "text": "You control enchanted creature.",
                   "static": {"affects": "enchanted", "control": "you"}}]),
          "opponent", "battlefield", alias="steal", attached_to="bear")
    assert ch(g, "bear").controller == "opponent"
    g.effect([{"op": "become", "who": "steal", "control": "you"}], "you")
    assert ch(g, "bear").controller == "you"


def test_base_power_and_toughness_are_those_after_layer_7b_613_4b() -> None:
    g = game()
    g.add(creature(2, 2), "you", "battlefield", alias="bear", counters={"+1/+1": 1})
    g.effect([{"op": "set_pt", "who": "bear", "pt": [0, 4]},
              {"op": "pump", "who": "bear", "pt": [3, 0]}], "you")
    assert (ch(g, "bear").base_power, ch(g, "bear").base_toughness) == (0, 4)
    assert (ch(g, "bear").power, ch(g, "bear").toughness) == (4, 5)
