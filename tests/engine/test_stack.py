"""Casting spells, activating abilities, targets and resolution (rules 115, 601, 602, 608,
709, 702.102)."""

from __future__ import annotations

import pytest

from kb.engine import Game, IllegalAction
from kb.engine.objects import Printed
from tests.engine.make import card, ch, creature, game

SPLIT = card(layout="split", faces=[
    {"name": "Left", "mana_cost": "{3}{B}", "types": ["Sorcery"], "keywords": ["Fuse"],
     "abilities": [{"text": "Target creature gets +1/+1.", "targets": [{"kind": "creature"}],
                    "spell": [{"op": "pump", "who": "target:0", "pt": [1, 1]}]}]},
    {"name": "Right", "mana_cost": "{2}{G}", "types": ["Sorcery"], "keywords": ["Fuse"],
     "abilities": [{"text": "Target creature gets +2/+2.", "targets": [{"kind": "creature"}],
                    "spell": [{"op": "pump", "who": "target:1", "pt": [2, 2]}]}]}])


def _split_game() -> Game:
    g = game()
    g.add(SPLIT, "you", "hand", alias="split")
    g.add(creature(1, 1), "you", "battlefield", alias="c")
    g.state.player("you").mana_pool.update({"B": 1, "G": 1, "C": 5})
    return g


def test_a_fused_split_spell_costs_both_halves_and_has_their_mana_value_702_102() -> None:
    g = _split_game()
    spell = g.cast("split", fused=True, targets=["c", "c"])  # 115.3: one object per word
    assert spell.spell.total_cost == "{5}{B}{G}"
    assert ch(g, "split").mana_cost.mana_value() == 7
    g.resolve()
    assert (ch(g, "c").power, ch(g, "c").toughness) == (4, 4)  # left half, then right


def test_one_half_on_the_stack_has_only_that_half_709_3b() -> None:
    g = _split_game()
    assert ch(g, "split").names == ("Left", "Right")  # 709.4a: two names off the stack
    g.cast("split", half=1, targets=["c"])
    assert (ch(g, "split").name, ch(g, "split").colors) == ("Right", {"green"})


def test_fuse_only_from_the_hand_702_102a() -> None:
    g = _split_game()
    g.move("split", "graveyard")
    with pytest.raises(IllegalAction, match="702.102a"):
        g.cast("split", fused=True, targets=["c", "c"])


def test_a_split_card_needs_a_half_chosen_709_3() -> None:
    g = _split_game()
    with pytest.raises(IllegalAction, match="709.3"):
        g.cast("split", targets=["c"])


def test_spell_with_all_targets_illegal_doesnt_resolve_608_2b() -> None:
    bolt = card(types=["Instant"], abilities=[{"text": "3 damage to target creature.",
                                               "targets": [{"kind": "creature"}],
                                               "spell": [{"op": "damage", "to": "target",
                                                          "amount": 3}]}])
    g = game()
    g.add(bolt, "you", "hand", alias="bolt")
    g.add(creature(2, 2), "opponent", "battlefield", alias="c")
    g.cast("bolt", targets=["c"])
    g.move("c", "hand")
    g.resolve()
    assert g.obj("bolt").zone == "graveyard"
    assert any(e.kind == "countered_on_resolution" for e in g.state.events)


def test_hexproof_and_protection_stop_targeting_702_11b_702_16b() -> None:
    spell = card(types=["Instant"], colors=["white"], abilities=[{
        "text": "Tap target creature.", "targets": [{"kind": "creature"}],
        "spell": [{"op": "tap", "who": "target"}]}])
    g = game()
    g.add(spell, "you", "hand", alias="s")
    g.add(creature(1, 1, keywords=["Hexproof"]), "opponent", "battlefield", alias="hexproof")
    g.add(creature(1, 1, keywords=["Protection from white"]), "opponent", "battlefield",
          alias="pro")
    g.add(creature(1, 1, keywords=["Hexproof"]), "you", "battlefield", alias="mine")
    for target in ("hexproof", "pro"):
        with pytest.raises(IllegalAction, match="not a legal target"):
            g.clone().cast("s", targets=[target])
    g.cast("s", targets=["mine"])


def test_x_is_zero_when_cast_without_paying_107_3b() -> None:
    blaze = card(types=["Sorcery"], mana_cost="{X}{R}", abilities=[{
        "text": "X damage to any target.", "targets": [{"kind": "any"}],
        "spell": [{"op": "damage", "to": "target", "amount": "X"}]}])
    g = game()
    g.add(blaze, "you", "hand", alias="blaze")
    with pytest.raises(IllegalAction, match="107.3b"):
        g.clone().cast("blaze", x=2, without_paying=True, targets=["opponent"])
    spell = g.cast("blaze", x=0, without_paying=True, targets=["opponent"])
    assert spell.spell.total_cost == "{0}"


def test_sacrificing_as_an_additional_cost_keeps_its_power_601_2h_608_2h() -> None:
    fling = card(types=["Instant"], mana_cost="{1}{R}", abilities=[
        {"text": "Sacrifice a creature.", "spell": [],
         "additional_cost": {"sacrifice": {"types": ["Creature"]}}},
        {"text": "Damage equal to its power.", "targets": [{"kind": "any"}],
         "spell": [{"op": "damage", "to": "target", "amount": "sacrificed.power"}]}])
    g = game()
    g.add(fling, "you", "hand", alias="fling")
    g.add(creature(4, 4), "you", "battlefield", alias="c")
    g.state.player("you").mana_pool.update({"R": 2})
    g.cast("fling", targets=["opponent"], sacrifice=["c"])
    g.resolve()
    assert g.state.player("opponent").life == 16


def test_activated_ability_costs_tap_and_mana_602_2() -> None:
    pinger = creature(1, 1, abilities=[{"text": "{1}, {T}: 1 damage to any target.",
                                        "cost": "{1}, {T}", "targets": [{"kind": "any"}],
                                        "effect": [{"op": "damage", "to": "target",
                                                    "amount": 1}]}])
    g = game()
    g.add(pinger, "you", "battlefield", alias="p")
    g.state.player("you").mana_pool.update({"C": 2})
    g.activate("p", targets=["opponent"])
    assert g.obj("p").tapped
    with pytest.raises(IllegalAction, match="tapped"):
        g.clone().activate("p", targets=["opponent"])
    g.resolve()
    assert g.state.player("opponent").life == 19


def test_an_aura_spell_targets_what_it_will_enchant_303_4a() -> None:
    aura = card(types=["Enchantment"], subtypes=["Aura"], keywords=["Enchant creature"],
                abilities=[{"text": "You control enchanted creature.",
                            "static": {"affects": "enchanted", "control": "you"}}])
    g = game()
    g.add(aura, "you", "hand", alias="aura")
    g.add(creature(2, 2), "opponent", "battlefield", alias="c")
    g.cast("aura", targets=["c"])
    g.resolve()
    assert g.obj("aura").attached_to == g.obj("c").id
    assert g.state.controller(g.obj("c").id) == "you"


def test_an_additional_mana_cost_joins_the_total_cost_601_2f() -> None:
    kicked = card(types=["Sorcery"], mana_cost="{1}{R}", abilities=[
        {"text": "As an additional cost to cast this spell, pay {2}.", "spell": [],
         "additional_cost": {"mana": "{2}"}}])
    g = game()
    g.add(kicked, "you", "hand", alias="s")
    g.state.player("you").mana_pool.update({"R": 1, "C": 3})
    assert g.cast("s").spell.total_cost == "{3}{R}"


def test_a_spell_cast_bestowed_is_an_aura_spell_702_103b() -> None:
    """702.103b: "it becomes an Aura enchantment spell with enchant creature ... it is not a
    creature spell"; 702.103d: only those characteristics decide whether it can be cast."""
    naiad = creature(2, 2, name="Naiad", mana_cost="{2}{U}", subtypes=["Nymph"],
                     keywords=["Bestow {4}{U}"])
    g = game()
    g.add(creature(2, 2, name="Bear"), "you", "battlefield", alias="bear")
    g.add(naiad, "you", "hand", alias="naiad")
    g.state.player("you").mana_pool.update({"C": 4, "U": 1})
    spell = g.cast("naiad", alternative="{4}{U}", targets=["bear"])
    aura = g.state.characteristics(spell.id)
    assert aura.types == ("Enchantment",) and aura.subtypes == ("Aura",)
    assert aura.has("enchant")


def test_loyalty_costs_combine_into_one_606_5() -> None:
    """606.5: "those costs are combined into a single cost to add or remove loyalty
    counters"; 606.4: a negative cost needs that many counters."""
    def walker(loyalty: int) -> Printed:
        return card(name="Walker", types=["Planeswalker"], loyalty=loyalty, abilities=[
            {"text": "[+1]: -", "cost": "[+1]", "effect": []},
            {"text": "[−4]: -", "cost": "[−4]", "effect": []}])
    carth = card(name="Carth", types=["Creature"], power=3, toughness=5, abilities=[{
        "text": "Loyalty abilities cost an additional [+1].",
        "static": {"loyalty_cost": "[+1]"}}])
    g = game()
    g.add(walker(5), "you", "battlefield", alias="w")
    g.activate("w", 2)
    assert g.obj("w").counters["loyalty"] == 1
    g = game()
    g.add(carth, "you", "battlefield")
    g.add(walker(5), "you", "battlefield", alias="w")
    g.activate("w", 1)
    assert g.obj("w").counters["loyalty"] == 7
    g.resolve()
    g.add(walker(2), "you", "battlefield", alias="low")
    with pytest.raises(IllegalAction, match="606.4"):
        g.activate("low", 2)  # [−3] with two counters
