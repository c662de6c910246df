"""Costs of spells (118, 601.2f-h): increases, reductions, convoke, delve, commander tax."""

from __future__ import annotations

import pytest

from kb.engine import Game, IllegalAction
from tests.engine.make import card, creature, game

BEAR = creature(2, 2, name="Bear", mana_cost="{1}{G}")


def _taxing(caster: str) -> object:
    return card(name="Thalia", types=["Creature"], power=2, toughness=1, abilities=[{
        "text": "Noncreature spells cost {1} more to cast.", "static": {"cost_change": {
            "spells": {"not_types": ["Creature"]}, "caster": caster, "more": "{1}"}}}])


@pytest.mark.parametrize(("caster", "paid"), [("opponent", 3), ("you", 2), ("any", 3)])
def test_a_cost_increase_counts_for_the_casters_it_names_601_2f(caster: str,
                                                                paid: int) -> None:
    g = game(active="opponent")
    g.add(_taxing(caster), "you", "battlefield")
    g.add(card(name="Shock", mana_cost="{1}{R}", types=["Sorcery"],
               abilities=[{"text": "x", "spell": []}]), "opponent", "hand", alias="shock")
    g.state.player("opponent").mana_pool.update({"R": 3})
    g.cast("shock")
    assert 3 - sum(g.state.player("opponent").mana_pool.values()) == paid


def test_a_reduction_never_goes_below_zero_and_spares_colored_mana_601_2f() -> None:
    g = game()
    g.add(card(name="Cheap", types=["Enchantment"], abilities=[{
        "text": "Creature spells you cast cost {3} less.", "static": {"cost_change": {
            "spells": {"types": ["Creature"]}, "less": "{3}"}}}]), "you", "battlefield")
    g.add(BEAR, "you", "hand", alias="bear")
    g.state.player("you").mana_pool.update({"G": 1})
    assert g.cast("bear").spell.total_cost == "{G}"


def test_delve_exiles_cards_to_pay_generic_mana_702_66a() -> None:
    g = game()
    g.add(card(name="Treasure Cruise", mana_cost="{7}{U}", types=["Sorcery"],
               keywords=["Delve"], abilities=[{"text": "x", "spell": []}]), "you", "hand",
          alias="cruise")
    for i in range(3):
        g.add(BEAR, "you", "graveyard", alias=f"dead{i}")
    g.state.player("you").mana_pool.update({"U": 1, "C": 4})
    g.cast("cruise", delve=["dead0", "dead1", "dead2"])
    assert [g.obj(f"dead{i}").zone for i in range(3)] == ["exile"] * 3
    assert not +g.state.player("you").mana_pool


def test_delve_pays_no_colored_mana_and_needs_the_keyword_702_66a() -> None:
    g = game()
    g.add(BEAR, "you", "hand", alias="bear")
    g.add(BEAR, "you", "graveyard", alias="dead")
    g.state.player("you").mana_pool.update({"G": 2})
    with pytest.raises(IllegalAction, match="delve"):
        g.clone().cast("bear", delve=["dead"])


def test_convoke_taps_untapped_creatures_only_702_51a() -> None:
    g = game()
    g.add(card(name="Convoker", mana_cost="{2}{G}", types=["Creature"], power=1,
               toughness=1, keywords=["Convoke"]), "you", "hand", alias="spell")
    g.add(creature(1, 1), "you", "battlefield", alias="tapped one", tapped=True)
    with pytest.raises(IllegalAction, match="untapped creature"):
        g.clone().cast("spell", convoke=["tapped one"])


def test_commander_tax_adds_2_per_previous_cast_from_the_command_zone_903_8() -> None:
    g = game()
    g.add(BEAR, "you", "command", alias="commander")
    g.state.player("you").mana_pool.update({"G": 12})
    first = g.cast("commander").spell.total_cost
    g.move("commander", "command")
    second = g.cast("commander").spell.total_cost
    g.move("commander", "command")
    third = g.cast("commander").spell.total_cost
    assert (first, second, third) == ("{1}{G}", "{3}{G}", "{5}{G}")


def test_hybrid_symbols_are_paid_with_either_color_107_4e() -> None:
    g = game()
    g.add(card(name="Hybrid", mana_cost="{G/W}{G/W}", types=["Sorcery"],
               abilities=[{"text": "x", "spell": []}]), "you", "hand", alias="spell")
    g.state.player("you").mana_pool.update({"G": 1, "W": 1})
    g.cast("spell")
    assert not +g.state.player("you").mana_pool


_WATERBEND = card(name="Waterbender", mana_cost="{1}{U}", types=["Sorcery"], abilities=[{
    "text": "As an additional cost to cast this spell, waterbend {2}.",
    "additional_cost": {"waterbend": "{2}"}, "spell": []}])


def _waterbend_game() -> Game:
    g = game()
    g.add(_WATERBEND, "you", "hand", alias="spell")
    for alias in ("x", "y", "z"):
        g.add(creature(1, 1, name="Bear"), "you", "battlefield", alias=alias)
    return g


def test_waterbend_taps_for_the_generic_mana_of_its_cost_701_67a() -> None:
    """701.67a: "for each generic mana in that cost, you may tap an untapped artifact or
    creature you control rather than pay that mana"."""
    g = _waterbend_game()
    g.state.player("you").mana_pool.update({"C": 1, "U": 1})
    g.cast("spell", waterbend=["x", "y"])
    assert g.obj("x").tapped and g.obj("y").tapped
    assert not g.state.player("you").mana_pool


def test_waterbend_never_pays_the_rest_of_the_total_cost_701_67b() -> None:
    """701.67b: "only to pay for the amount of generic mana in the waterbend cost"."""
    g = _waterbend_game()
    g.state.player("you").mana_pool.update({"U": 1})
    with pytest.raises(IllegalAction, match="701.67b"):
        g.cast("spell", waterbend=["x", "y", "z"])


def test_waterbend_taps_only_untapped_artifacts_and_creatures_701_67a() -> None:
    g = _waterbend_game()
    g.obj("x").tapped = True
    g.state.player("you").mana_pool.update({"C": 1, "U": 1})
    with pytest.raises(IllegalAction, match="701.67a"):
        g.cast("spell", waterbend=["x"])


def test_for_each_creature_attacked_with_looks_back_608_2i() -> None:
    """608.2i: a look back at "each creature you attacked with this turn" counts a creature
    that is no longer one (the reduction is 601.2f's)."""
    captain = creature(2, 3, name="Captain", mana_cost="{3}{W}", abilities=[{
        "text": "This spell costs {1} less to cast for each creature you attacked with this "
                "turn.", "static": {"cost_change": {"spells": "self", "less": "{1}",
                                                    "per": "attacked_with"}}}])
    g = game(active="you")
    for alias in ("a", "b"):
        g.add(creature(1, 1, name="Cub"), "you", "battlefield", alias=alias)
    g.add(captain, "you", "hand", alias="captain")
    g.attack({"a": "opponent", "b": "opponent"})
    g.advance("postcombat main")
    g.effect([{"op": "become", "who": "a", "types": ["Artifact"]}], "you")
    g.state.player("you").mana_pool.update({"C": 1, "W": 1})
    spell = g.cast("captain")
    assert spell.spell.total_cost == "{1}{W}"


def test_a_spells_own_cost_change_is_for_it_alone_601_2f() -> None:
    cheap = card(name="Cheap", mana_cost="{2}{R}", types=["Sorcery"], abilities=[
        {"text": "This spell costs {1} less.", "static": {"cost_change": {
            "spells": "self", "less": "{1}"}}}, {"text": "-", "spell": []}])
    g = game()
    g.add(cheap, "you", "hand", alias="c")
    g.add(BEAR, "you", "hand", alias="bear")
    g.state.player("you").mana_pool.update({"C": 2, "R": 1, "G": 1})
    assert g.cast("c").spell.total_cost == "{1}{R}"
    g.resolve()
    assert g.cast("bear").spell.total_cost == "{1}{G}"
