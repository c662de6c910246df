"""State-based actions (rule 704)."""

from __future__ import annotations

import pytest

from kb.engine import IllegalAction, sba
from tests.engine.make import card, creature, game


def test_a_player_at_zero_life_loses_704_5a() -> None:
    g = game()
    g.state.player("opponent").life = 0
    g.settle()
    assert g.state.player("opponent").lost


def test_drawing_from_an_empty_library_loses_704_5b() -> None:
    g = game()
    g.draw("you")
    assert g.state.player("you").lost


def test_one_replacement_replaces_both_losses_704_7() -> None:
    mirror = card(name="Mirror", types=["Artifact"], abilities=[{
        "text": "If you would lose the game, instead your life total becomes 20.",
        "replacement": {"instead_of_losing": [{"op": "set_life", "n": 20}]}}])
    g = game()
    g.add(mirror, "you", "battlefield")
    g.state.player("you").life = 0
    g.draw("you")
    assert not g.state.player("you").lost
    assert g.state.player("you").life == 20
    assert sum(1 for e in g.state.events if e.kind == "loss_replaced") == 1


def test_tokens_and_copies_outside_their_zones_cease_to_exist_704_5d_e() -> None:
    g = game()
    token = g.add(creature(1, 1), "you", "battlefield", alias="token", token=True)
    g.move("token", "graveyard")
    assert g.state.find("token") is None
    assert token.id not in g.state.objects


def test_toughness_zero_and_lethal_damage_704_5f_g() -> None:
    g = game()
    g.add(creature(1, 0), "you", "battlefield", alias="zero")
    g.add(creature(2, 2, keywords=["Indestructible"]), "you", "battlefield", alias="tough",
          damage=5)
    g.add(creature(2, 2), "you", "battlefield", alias="hurt", damage=2)
    g.settle()
    assert g.obj("zero").zone == "graveyard"
    assert g.obj("tough").zone == "battlefield"  # destroyed, but indestructible (702.12b)
    assert g.obj("hurt").zone == "graveyard"


def test_planeswalker_with_no_loyalty_704_5i() -> None:
    g = game()
    g.add(card(types=["Planeswalker"], loyalty=3), "you", "battlefield", alias="pw",
          counters={"loyalty": 0})
    g.settle()
    assert g.obj("pw").zone == "graveyard"


def test_legend_rule_704_5j() -> None:
    legend = creature(2, 2, name="Legend", supertypes=["Legendary"])
    g = game()
    g.add(legend, "you", "battlefield", alias="old")
    g.add(legend, "you", "battlefield", alias="new")
    g.settle()
    assert [g.obj("old").zone, g.obj("new").zone] == ["graveyard", "battlefield"]


def test_aura_without_a_legal_object_704_5m() -> None:
    aura = card(types=["Enchantment"], subtypes=["Aura"], keywords=["Enchant creature"])
    g = game()
    g.add(creature(1, 1), "you", "battlefield", alias="c")
    g.add(aura, "you", "battlefield", alias="aura", attached_to="c")
    g.settle()
    assert g.obj("aura").zone == "battlefield"
    g.effect([{"op": "become", "who": "c", "types": ["Artifact"]}], "you")
    assert g.obj("aura").zone == "graveyard"


def test_plus_and_minus_counters_annihilate_704_5q() -> None:
    g = game()
    g.add(creature(3, 3), "you", "battlefield", alias="c", counters={"+1/+1": 2, "-1/-1": 3})
    g.settle()
    assert (g.obj("c").counters["+1/+1"], g.obj("c").counters["-1/-1"]) == (0, 1)


def test_last_known_information_is_from_before_the_actions_704_8() -> None:
    wolf = creature(1, 1, keywords=["Undying"])
    g = game()
    g.add(wolf, "you", "battlefield", alias="wolf", counters={"+1/+1": 1, "-1/-1": 3})
    g.settle()
    assert g.obj("wolf").zone == "graveyard"  # died with its +1/+1 counter: no undying
    assert not [e for e in g.state.events if e.kind == "triggered"]


def test_no_state_based_actions_during_a_resolution_704_3() -> None:
    g = game()
    g.add(creature(1, 0), "you", "battlefield", alias="zero")
    g.state.resolving = 1
    assert sba.check(g.state) is False
    g.state.resolving = 0
    assert sba.check(g.state) is True


def _watcher() -> object:
    return creature(1, 1, name="Watcher", abilities=[{
        "text": "Whenever a creature dies, you gain 1 life.",
        "trigger": {"on": "dies", "what": {"types": ["Creature"]}},
        "effect": [{"op": "gain_life", "player": "you", "n": 1}]}])


def test_creatures_dying_at_once_all_trigger_a_watcher_dying_with_them_704_3() -> None:
    """704.3: state-based actions are one event, and a dies ability looks back in time
    (603.10a): the watcher sees the other creature die whatever the order they were placed."""
    for watcher_first in (True, False):
        g = game()
        if watcher_first:
            g.add(_watcher(), "you", "battlefield", alias="watcher", damage=1)
        g.add(creature(2, 2), "opponent", "battlefield", alias="other", damage=2)
        if not watcher_first:
            g.add(_watcher(), "you", "battlefield", alias="watcher", damage=1)
        g.settle()
        g.resolve_all()
        assert g.state.player("you").life == 22, watcher_first


def test_the_legend_rule_keeps_the_chosen_one_even_after_it_changed_zones_704_5j() -> None:
    """choices.legend_keep names the permanent by its scenario name, which follows the card
    across zones (it was ignored for an object that had changed zones, issue 24)."""
    legend = card(name="Legend", mana_cost="{1}", types=["Creature"],
                  supertypes=["Legendary"], power=1, toughness=1)
    g = game()
    g.add(legend, "you", "hand", alias="first")
    g.add(legend, "you", "hand", alias="second")
    for alias in ("first", "second"):
        g.state.player("you").mana_pool.update({"C": 1})
        g.cast(alias)
        g.state.choices = {"legend_keep": "first"}
        g.resolve()
    assert (g.obj("first").zone, g.obj("second").zone) == ("battlefield", "graveyard")
    g.add(creature(2, 2), "you", "battlefield", alias="bear")
    g.state.choices = {"legend_keep": "bear"}
    with pytest.raises(IllegalAction, match="704.5j"):
        g.add(legend, "you", "battlefield", alias="third")
        g.settle()
