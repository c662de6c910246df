"""Zones, entering the battlefield, tokens and drawing (rules 400.7, 111, 121, 614)."""

from __future__ import annotations

from typing import Any

from tests.engine.make import card, ch, creature, game


def test_a_zone_change_makes_a_new_object_400_7() -> None:
    g = game()
    old = g.add(creature(2, 2), "you", "battlefield", alias="c", counters={"+1/+1": 1})
    g.effect([{"op": "pump", "who": "c", "pt": [3, 3]}], "you")
    g.move("c", "hand")
    g.enter("c")
    new = g.obj("c")
    assert new.id != old.id and new.card == old.card
    assert (ch(g, "c").power, new.counters["+1/+1"]) == (2, 0)
    assert g.state.last_known[old.id].ch.power == 6  # 608.2h


def test_enters_with_counters_and_tapped_614_1c() -> None:
    fading = creature(3, 3, keywords=["Fading 2"], abilities=[
        {"text": "This creature enters tapped.", "replacement": {"enters_tapped": True}}])
    g = game()
    g.add(fading, "you", "hand", alias="f")
    g.enter("f")
    assert g.obj("f").tapped and g.obj("f").counters["fade"] == 2  # 702.32a


def test_counter_and_token_doubling_replacements_614() -> None:
    season = card(types=["Enchantment"], abilities=[
        {"text": "Tokens doubled.", "replacement": {"tokens_twice": True}},
        {"text": "Counters doubled.", "replacement": {"counters_twice": True}}])
    g = game()
    g.add(season, "you", "battlefield")
    g.add(creature(1, 1), "you", "battlefield", alias="c")
    g.effect([{"op": "put_counters", "who": "c", "kind": "+1/+1", "n": 1},
              {"op": "create_token", "token": {"name": "Spirit", "types": ["Creature"],
                                               "power": 1, "toughness": 1}}], "you")
    assert g.obj("c").counters["+1/+1"] == 2
    assert sum(1 for o in g.state.battlefield() if o.token) == 2


def test_a_draw_replacement_applies_once_to_an_event_614_5() -> None:
    scrivener = creature(2, 1, abilities=[{
        "text": "If you would draw a card while you have no cards in hand, instead you draw two "
                "cards and you lose 1 life.",
        "replacement": {"draw_if_hand_empty": [{"op": "draw", "n": 2},
                                               {"op": "lose_life", "n": 1}]}}])
    g = game()
    g.add(scrivener, "you", "battlefield")
    for _ in range(5):
        g.add(creature(1, 1), "you", "library")
    g.draw("you", 2)  # 121.2: one at a time
    assert (g.state.player("you").cards_drawn, g.state.player("you").life) == (3, 19)


def test_a_copy_makes_its_own_as_enters_choice_707_6() -> None:
    chooser = creature(2, 2, name="Chooser", abilities=[{
        "text": "As this creature enters, choose a creature type.",
        "replacement": {"as_enters_choose": "creature_type"}}])
    clone = card(types=["Creature"], power=0, toughness=0, abilities=[{
        "text": "Copy.", "replacement": {"enter_as_copy": {"choose": {"types": ["Creature"]}}}}])
    g = game()
    g.add(chooser, "you", "battlefield", alias="a", choices={"creature_type": "Elf"})
    g.add(clone, "you", "hand", alias="clone")
    g.enter("clone", choices={"copy": "a", "creature_type": "Goblin"})
    assert g.obj("clone").choices == {"creature_type": "Goblin"}


_WATCHER = card(name="Watcher", types=["Enchantment"], abilities=[{
    "text": "Whenever an enchantment enters, you gain 1 life.",
    "trigger": {"on": "enters", "what": {"types": ["Enchantment"]}},
    "effect": [{"op": "gain_life", "player": "you", "n": 1}]}])


def test_a_permanent_that_is_an_enchantment_enters_as_one_611_2e() -> None:
    """611.2e: "that continuous effect applies simultaneously with the permanent entering"."""
    g = game()
    g.add(_WATCHER, "you", "battlefield")
    g.add(creature(2, 2, name="Bear"), "you", "library", alias="bear")
    g.effect([{"op": "return_to_battlefield", "who": "bear",
               "is": {"add_types": ["Enchantment"]}}], "you")
    g.resolve_all()
    assert g.state.player("you").life == 21


def test_a_permanent_that_becomes_an_enchantment_did_not_enter_as_one_611_2e() -> None:
    """611.2e: "If the continuous effect says the permanent 'becomes [characteristic]' ...
    that effect applies after the permanent is on the battlefield"."""
    g = game()
    g.add(_WATCHER, "you", "battlefield")
    g.add(creature(2, 2, name="Bear"), "you", "library", alias="bear")
    g.effect([{"op": "return_to_battlefield", "who": "bear"},
              {"op": "become", "who": "bear", "add_types": ["Enchantment"]}], "you")
    g.resolve_all()
    assert "Enchantment" in ch(g, "bear").types
    assert g.state.player("you").life == 20


_WORMS = card(name="Worms", types=["Enchantment"], abilities=[{
    "text": "Lands can't enter the battlefield.", "static": {"cant_enter": {"types": ["Land"]}}}])


def test_a_permanent_spell_that_cant_enter_goes_to_the_graveyard_608_3e() -> None:
    """608.3e: "If a permanent spell resolves but its controller can't put it onto the
    battlefield, that player puts it into its owner's graveyard"."""
    clone = creature(0, 0, name="Clone", mana_cost="{U}", abilities=[{
        "text": "You may have this creature enter as a copy of any creature.",
        "replacement": {"enter_as_copy": {"choose": {"types": ["Creature"]}}}}])
    arbor = card(name="Arbor", types=["Land", "Creature"], power=1, toughness=1)
    g = game()
    g.add(_WORMS, "you", "battlefield")
    g.add(arbor, "opponent", "battlefield", alias="arbor")
    g.add(creature(2, 2, name="Bear"), "opponent", "battlefield", alias="bear")
    for alias in ("land_copy", "bear_copy"):
        g.add(clone, "you", "hand", alias=alias)
    g.state.player("you").mana_pool.update({"U": 2})
    g.cast("land_copy")
    g.resolve({"copy": "arbor"})
    assert g.obj("land_copy").zone == "graveyard"
    g.cast("bear_copy")
    g.resolve({"copy": "bear"})
    assert g.obj("bear_copy").zone == "battlefield"


def test_a_land_an_effect_would_put_onto_the_battlefield_stays_where_it_was() -> None:
    g = game()
    g.add(_WORMS, "you", "battlefield")
    g.add(card(name="Forest", types=["Land"]), "you", "hand", alias="forest")
    g.enter("forest")
    assert g.obj("forest").zone == "hand"


def _exiler() -> Any:
    return creature(3, 4, name="Exiler", abilities=[{
        "text": "If a creature an opponent controls would die, exile it instead.",
        "replacement": {"event": "zone_change", "what": {"types": ["Creature"],
                                                         "controller": "opponent"},
                        "out_of": "battlefield", "into": "graveyard", "zone": "exile",
                        "also": [{"op": "gain_life", "player": "you", "n": 1}]}}])


def test_moving_many_objects_is_one_event_with_its_replacements_applied_first_614_1() -> None:
    """701.8, 614.1: "destroy all" is one event; a replacement effect whose source is
    destroyed with the others applies to all of them, and its "also" happens once per
    object it applied to."""
    g = game()
    g.add(_exiler(), "you", "battlefield", alias="exiler")
    for alias in ("a", "b"):
        g.add(creature(2, 2), "opponent", "battlefield", alias=alias)
    g.effect([{"op": "destroy", "who": {"each": {"types": ["Creature"]}}}], "you")
    assert [g.obj(a).zone for a in ("exiler", "a", "b")] == ["graveyard", "exile", "exile"]
    assert g.state.player("you").life == 22


def test_returning_it_finds_only_the_object_the_event_made_400_7() -> None:
    """400.7: "return that card" finds the new object the card became in the graveyard, not
    the card once it has moved on."""
    g = game()
    g.add(creature(2, 2, keywords=["Undying"]), "you", "battlefield", alias="u")
    g.effect([{"op": "destroy", "who": "u"}], "you")
    g.move("u", "exile")
    g.resolve()
    assert g.obj("u").zone == "exile"


def test_permanents_entering_together_dont_modify_each_others_entering_614_12() -> None:
    doubler = creature(1, 1, name="Doubler", abilities=[{
        "text": "Creatures you control get twice that many +1/+1 counters.",
        "replacement": {"event": "counters", "on": {"types": ["Creature"],
                                                    "controller": "you"},
                        "kind": "+1/+1", "multiply": 2}}])
    giver = creature(1, 1, name="Giver", abilities=[{
        "text": "It enters with a +1/+1 counter.",
        "replacement": {"event": "enter", "what": "self", "counters": {"+1/+1": 1}}}])
    g = game()
    g.add(doubler, "you", "graveyard", alias="doubler")
    g.add(giver, "you", "graveyard", alias="giver")
    g.effect([{"op": "return_to_battlefield", "who": "doubler"},
              {"op": "return_to_battlefield", "who": "giver"}], "you")
    assert g.obj("giver").counters["+1/+1"] == 2  # the doubler was there first
    g2 = game()
    g2.add(doubler, "you", "graveyard", alias="doubler")
    g2.add(giver, "you", "graveyard", alias="giver")
    g2.effect([{"op": "return_to_battlefield",
                "who": {"each": {"types": ["Creature"], "zone": "graveyard"}}}], "you")
    assert g2.obj("giver").counters["+1/+1"] == 1  # together: it isn't there yet
