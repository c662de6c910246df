"""Who may cast a spell from where and when (601.3, 307.1, 702.8, 702.34, 702.37c, 715),
kicker and modes (702.33, 700.2), splice onto Arcane (702.47), and mana abilities off the
stack (605)."""

from __future__ import annotations

from typing import Any

import pytest

from kb.engine import Game, IllegalAction
from tests.engine.make import card, ch, creature, game

BEARS = creature(2, 2, name="Bears", mana_cost="{1}{G}")
BOLT = card(name="Bolt", mana_cost="{R}", types=["Instant"], abilities=[{
    "text": "Bolt deals 3 damage to any target.", "targets": [{"kind": "any"}],
    "spell": [{"op": "damage", "to": "target:0", "amount": 3}]}])
ANALYSIS = card(name="Analysis", mana_cost="{3}{U}", types=["Sorcery"],
                keywords=["Flashback {1}{U}"], abilities=[{
                    "text": "Draw two cards.", "spell": [{"op": "draw", "n": 2}]}])


def _with_mana(g: Game, player: str = "you", **mana: int) -> Game:
    g.state.player(player).mana_pool.update(mana)
    return g


def test_a_creature_spell_waits_for_a_main_phase_of_its_casters_turn_and_an_empty_stack_307_1(
) -> None:
    g = _with_mana(game(active="opponent"), G=2, C=2, R=1)
    g.add(BEARS, "you", "hand", alias="bears")
    g.add(BOLT, "you", "hand", alias="bolt")
    with pytest.raises(IllegalAction, match="main phase of their turn"):
        g.clone().cast("bears")
    g.cast("bolt", targets=["opponent"])  # an instant: any time
    g2 = _with_mana(game(), G=2, C=2, R=1)
    g2.add(BEARS, "you", "hand", alias="bears")
    g2.add(BOLT, "you", "hand", alias="bolt")
    g2.cast("bolt", targets=["opponent"])
    with pytest.raises(IllegalAction, match="stack is empty"):
        g2.cast("bears")


def test_flash_and_as_though_it_had_flash_702_8a() -> None:
    g = _with_mana(game(active="opponent"), G=4, C=4)
    g.add(creature(1, 1, name="Quick", mana_cost="{G}", keywords=["Flash"]), "you", "hand",
          alias="quick")
    g.add(BEARS, "you", "hand", alias="bears")
    g.cast("quick")
    with pytest.raises(IllegalAction):
        g.clone().cast("bears")
    g.add(card(name="Orrery", types=["Artifact"], abilities=[{
        "text": "You may cast spells as though they had flash.",
        "static": {"cast_as_though_flash": {}}}]), "you", "battlefield")
    g.cast("bears")


def test_a_spell_is_cast_from_its_owners_hand_unless_something_allows_another_zone_601_3(
) -> None:
    g = _with_mana(game(), G=2, C=2)
    g.add(BEARS, "you", "graveyard", alias="bears")
    with pytest.raises(IllegalAction, match="from the graveyard"):
        g.clone().cast("bears")
    g.add(BEARS, "you", "library", alias="top")
    with pytest.raises(IllegalAction, match="from the library"):
        g.clone().cast("top")
    g.add(card(name="Horde", types=["Enchantment"], abilities=[{
        "text": "You may cast creature spells from the top of your library.",
        "static": {"may_cast": {"from": "library_top", "spells": {"types": ["Creature"]}}}}]),
        "you", "battlefield")
    g.cast("top")


def test_only_the_top_card_of_the_library_is_cast_with_may_cast() -> None:
    g = _with_mana(game(), G=2, C=2)
    g.add(card(name="Horde", types=["Enchantment"], abilities=[{
        "text": "You may cast creature spells from the top of your library.",
        "static": {"may_cast": {"from": "library_top", "spells": {"types": ["Creature"]}}}}]),
        "you", "battlefield")
    g.add(BEARS, "you", "library", alias="top")
    g.add(BEARS, "you", "library", alias="second")
    with pytest.raises(IllegalAction):
        g.cast("second")


def test_flashback_from_its_owners_graveyard_then_exiled_702_34a() -> None:
    g = _with_mana(game(), U=2, C=4)
    g.add(ANALYSIS, "you", "graveyard", alias="analysis")
    g.add(creature(1, 1), "you", "library")
    g.add(creature(1, 1), "you", "library")
    spell = g.cast("analysis", alternative="flashback")
    assert spell.spell.total_cost == "{1}{U}"
    g.resolve()
    assert g.obj("analysis").zone == "exile"
    assert g.state.player("you").cards_drawn == 2


def test_flashback_is_cast_only_from_a_graveyard_and_only_with_flashback() -> None:
    g = _with_mana(game(), U=2, C=4)
    g.add(ANALYSIS, "you", "hand", alias="in hand")
    with pytest.raises(IllegalAction, match="702.34a"):
        g.cast("in hand", alternative="flashback")
    g.add(card(name="Plain", mana_cost="{U}", types=["Sorcery"], abilities=[{
        "text": "Draw a card.", "spell": [{"op": "draw", "n": 1}]}]), "you", "graveyard",
        alias="plain")
    with pytest.raises(IllegalAction, match="702.34a"):
        g.cast("plain", alternative="flashback")


def test_another_players_graveyard_needs_as_though_in_your_graveyard_609_4a() -> None:
    g = _with_mana(game(), U=2, C=4)
    g.add(ANALYSIS, "opponent", "graveyard", alias="theirs")
    with pytest.raises(IllegalAction, match="graveyard"):
        g.clone().cast("theirs", "you", alternative="flashback")
    g.effect([{"op": "player_rule", "player": "you", "rule": "graveyards_as_yours"}], "you")
    g.cast("theirs", "you", alternative="flashback")


def test_a_granted_flashback_equal_to_its_mana_cost_is_the_half_cast_702_1b() -> None:
    g = _with_mana(game(), R=1, C=1)
    g.add(card(layout="split", faces=[
        {"name": "Fire", "mana_cost": "{1}{R}", "types": ["Instant"], "abilities": [{
            "text": "Fire deals 2 damage to any target.", "targets": [{"kind": "any"}],
            "spell": [{"op": "damage", "to": "target:0", "amount": 2}]}]},
        {"name": "Ice", "mana_cost": "{1}{U}", "types": ["Instant"], "abilities": [{
            "text": "Draw a card.", "spell": [{"op": "draw", "n": 1}]}]}]),
        "you", "graveyard", alias="fire ice")
    g.effect([{"op": "become", "who": "fire ice", "duration": "eot",
               "grant": [{"keyword": "Flashback", "cost": "mana_cost"}]}], "you")
    assert any(a.text == "Flashback {2}{U}{R}" for a in ch(g, "fire ice").abilities)
    spell = g.cast("fire ice", half=0, alternative="flashback", targets=["opponent"])
    assert spell.spell.total_cost == "{1}{R}"


def test_a_card_with_morph_cast_face_down_is_a_2_2_creature_spell_for_3_702_37c() -> None:
    g = _with_mana(game(), C=3)
    g.add(card(name="Field", mana_cost="{1}{W}", types=["Enchantment"],
               keywords=["Morph {1}{W}"]), "you", "hand", alias="field")
    g.add(BEARS, "you", "hand", alias="bears")
    with pytest.raises(IllegalAction, match="morph"):
        g.clone().cast("bears", face_down=True)
    spell = g.cast("field", face_down=True)
    assert spell.spell.total_cost == "{3}"
    assert ch(g, "field").types == ("Creature",)
    g.resolve()
    assert g.obj("field").face_down and g.obj("field").zone == "battlefield"
    assert (ch(g, "field").power, ch(g, "field").toughness) == (2, 2)


ADVENTURER = card(layout="adventure", faces=[
    {"name": "Killer", "mana_cost": "{W}", "types": ["Creature"], "power": 1, "toughness": 2},
    {"name": "Chop", "mana_cost": "{2}{W}", "types": ["Instant"], "subtypes": ["Adventure"],
     "abilities": [{"text": "Destroy target creature.", "targets": [{"kind": "creature"}],
                    "spell": [{"op": "destroy", "who": "target"}]}]}])


def test_an_adventure_resolves_into_exile_and_the_creature_is_cast_from_there_715_3d() -> None:
    g = _with_mana(game(), W=2, C=2)
    g.add(ADVENTURER, "you", "hand", alias="killer")
    g.add(BEARS, "opponent", "battlefield", alias="bears")
    g.cast("killer", half=1, targets=["bears"])
    assert ch(g, "killer").name == "Chop" and ch(g, "killer").types == ("Instant",)
    g.resolve()
    assert g.obj("bears").zone == "graveyard"
    assert g.obj("killer").zone == "exile" and ch(g, "killer").name == "Killer"
    with pytest.raises(IllegalAction, match="exile"):
        g.clone().cast("killer", half=1, targets=["killer"])  # not as an Adventure again
    g.cast("killer")
    g.resolve()
    assert g.obj("killer").zone == "battlefield"


INSCRIPTION = card(name="Inscription", mana_cost="{1}{G}", types=["Instant"],
                   keywords=["Kicker {2}{G}"], abilities=[{
                       "text": "Choose one. If this spell was kicked, choose any number "
                               "instead.", "spell": [], "kicked_modes": "any", "modes": [
                           {"targets": [{"kind": "creature"}], "effect": [
                               {"op": "put_counters", "who": "target:0", "kind": "+1/+1",
                                "n": 2}]},
                           {"targets": [{"kind": "player"}], "effect": [
                               {"op": "gain_life", "player": "target:0", "n": 3}]}]}])


def test_kicked_any_number_of_modes_in_printed_order_with_their_own_targets_601_4() -> None:
    g = _with_mana(game(), G=2, C=3)
    g.add(INSCRIPTION, "you", "hand", alias="inscription")
    g.add(BEARS, "you", "battlefield", alias="bears")
    with pytest.raises(IllegalAction, match="one mode"):
        g.clone().cast("inscription", mode=[1, 2], targets=["bears", "you"])
    with pytest.raises(IllegalAction, match="each once"):
        g.clone().cast("inscription", kicked=True, mode=[1, 1], targets=["bears", "bears"])
    spell = g.cast("inscription", kicked=True, mode=[2, 1], targets=["bears", "you"])
    assert spell.spell.total_cost == "{3}{G}{G}"
    g.resolve()
    assert g.obj("bears").counters["+1/+1"] == 2
    assert g.state.player("you").life == 23


def test_kicked_is_a_condition_and_needs_a_kicker_cost_702_33() -> None:
    g = _with_mana(game(), G=3, C=3)
    g.add(card(name="Kicked Growth", mana_cost="{G}", types=["Instant"],
               keywords=["Kicker {1}{G}"], abilities=[{
                   "text": "You gain 1 life. If this spell was kicked, you gain 4 life "
                           "instead.", "spell": [
                       {"op": "gain_life", "n": 1, "if": {"kicked": False}},
                       {"op": "gain_life", "n": 4, "if": {"kicked": True}}]}]),
          "you", "hand", alias="growth")
    g.add(BOLT, "you", "hand", alias="bolt")
    with pytest.raises(IllegalAction, match="kicker"):
        g.clone().cast("bolt", kicked=True, targets=["opponent"])
    g.cast("growth", kicked=True)
    g.resolve()
    assert g.state.player("you").life == 24


RAY = card(name="Ray", mana_cost="{1}{R}", types=["Instant"], subtypes=["Arcane"],
           keywords=["Splice onto Arcane {1}{R}"], abilities=[{
               "text": "Ray deals 2 damage to any target.", "targets": [{"kind": "any"}],
               "spell": [{"op": "damage", "to": "target:0", "amount": 2}]}])


def test_a_spliced_card_adds_its_text_stays_in_hand_and_the_spell_deals_the_damage_702_47(
) -> None:
    g = _with_mana(game(), U=1, R=1, C=1)
    g.add(card(name="Mists", mana_cost="{U}", types=["Instant"], subtypes=["Arcane"],
               abilities=[{"text": "You gain 1 life.", "spell": [{"op": "gain_life", "n": 1}]}]),
          "you", "hand", alias="mists")
    g.add(RAY, "you", "hand", alias="ray")
    g.add(creature(2, 2, keywords=["Protection from red"]), "opponent", "battlefield",
          alias="warder")
    spell = g.cast("mists", splice=["ray"], targets=["warder"])
    assert spell.spell.total_cost == "{1}{U}{R}"
    assert ch(g, "mists").colors == frozenset({"blue"})
    g.resolve()
    assert g.obj("warder").zone == "graveyard"  # a blue source: protection from red can't stop
    assert g.obj("ray").zone == "hand" and g.state.player("you").life == 21


def test_splice_only_onto_arcane_from_the_hand_702_47a() -> None:
    g = _with_mana(game(), R=3, C=3)
    g.add(BOLT, "you", "hand", alias="bolt")
    g.add(RAY, "you", "hand", alias="ray")
    with pytest.raises(IllegalAction, match="Arcane"):
        g.clone().cast("bolt", splice=["ray"], targets=["opponent", "opponent"])
    g.add(RAY, "you", "graveyard", alias="dead ray")
    g.add(RAY, "you", "hand", alias="second")
    with pytest.raises(IllegalAction, match="hand"):
        g.cast("second", splice=["dead ray"], targets=["opponent", "opponent"])


def test_a_discard_cost_is_paid_with_a_card_in_hand_601_2h() -> None:
    g = _with_mana(game(), U=1, C=1)
    g.add(card(name="Bargain", mana_cost="{1}{U}", types=["Instant"], abilities=[{
        "text": "As an additional cost to cast this spell, discard a card. You gain 2 life.",
        "additional_cost": {"discard": {}}, "spell": [{"op": "gain_life", "n": 2}]}]),
        "you", "hand", alias="bargain")
    g.add(BEARS, "you", "hand", alias="bears")
    with pytest.raises(IllegalAction, match="discard one card"):
        g.clone().cast("bargain")
    g.cast("bargain", discard=["bears"])
    assert g.obj("bears").zone == "graveyard"


FOREST = card(name="Forest", type_line="Basic Land — Forest")
FLARE = card(name="Flare", types=["Enchantment"], abilities=[{
    "text": "Whenever a player taps a land for mana, that player adds one mana of any type "
            "that land produced.", "trigger": {"on": "tapped_for_mana"},
    "effect": [{"op": "add_mana", "player": "event.player", "mana": "event.mana"}]}])


def test_a_mana_ability_and_the_triggered_mana_ability_it_triggers_skip_the_stack_605(
) -> None:
    g = game()
    g.add(FOREST, "you", "battlefield", alias="forest")
    g.add(FLARE, "opponent", "battlefield")
    g.activate("forest")  # 305.6: its intrinsic "{T}: Add {G}."
    assert not g.state.stack
    assert dict(g.state.player("you").mana_pool) == {"G": 2}
    assert g.obj("forest").tapped


def test_an_ability_with_a_target_is_no_mana_ability_605_5a() -> None:
    g = game()
    g.add(creature(1, 1, abilities=[{
        "text": "{T}: Target player adds {G}.", "cost": "{T}", "targets": [{"kind": "player"}],
        "effect": [{"op": "add_mana", "player": "target:0", "mana": "{G}"}]}]),
        "you", "battlefield", alias="elf")
    g.activate("elf", targets=["you"])
    assert len(g.state.stack) == 1


def _sacrificing(g: Game) -> Any:
    return g.add(creature(1, 1, name="Dane", abilities=[{
        "text": "{1}, Sacrifice another creature: Dane becomes a copy of the sacrificed "
                "creature, except it has this ability.", "cost": "{1}, Sacrifice another creature",
        "effect": [{"op": "become_copy", "who": "self", "of": "sacrificed",
                    "except": {"abilities": ["this"]}}]}]), "you", "battlefield", alias="dane")


def test_sacrifice_another_creature_and_become_a_copy_of_it() -> None:
    g = _with_mana(game(), C=2)
    _sacrificing(g)
    g.add(BEARS, "you", "battlefield", alias="bears")
    with pytest.raises(IllegalAction, match="can't be sacrificed"):
        g.clone().activate("dane", sacrifice=["dane"])
    with pytest.raises(IllegalAction, match="name the permanent"):
        g.clone().activate("dane")
    g.activate("dane", sacrifice=["bears"])
    g.resolve()
    assert ch(g, "dane").name == "Bears" and g.obj("bears").zone == "graveyard"
    assert len([a for a in ch(g, "dane").abilities if a.kind == "activated"]) == 1
