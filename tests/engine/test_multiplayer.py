"""Multiplayer basics (kb.engine.multiplayer), from the rules' text (CR 2026-04-17)."""

from __future__ import annotations

import pytest

from kb.engine import Game, IllegalAction
from kb.engine.multiplayer import (
    Multiplayer,
    MultiplayerError,
    alternating_seating,
    emperor_ranges,
    turn_markers,
    within_seats,
)
from tests.engine.make import card, ch, creature, game

SIX = ("a", "b", "c", "d", "e", "f")


def test_range_counts_seats_both_ways_and_includes_the_player_801_2_801_2b() -> None:
    """801.2: "Players within that many seats of the player are within that player's range of
    influence." 801.2b: "A player is always within their own range of influence.\""""
    assert within_seats(SIX, "a", 1) == {"f", "a", "b"}
    assert within_seats(SIX, "a", 2) == {"e", "f", "a", "b", "c"}


def test_ranges_are_determined_as_each_turn_begins_801_2c() -> None:
    """801.2c: "The particular players within each player's range of influence are determined
    as each turn begins.\""""
    shared = Multiplayer.from_options(SIX, {"range": 1})
    assert not shared.in_range("a", "c")
    shared.begin_turn(p for p in SIX if p != "b")
    assert shared.in_range("a", "c")


def test_unlimited_range_and_unknown_options() -> None:
    assert Multiplayer.from_options(SIX, {}).in_range("a", "d")
    with pytest.raises(MultiplayerError, match="unknown"):
        Multiplayer.from_options(SIX, {"rang": 1})
    with pytest.raises(MultiplayerError, match="every player"):
        Multiplayer.from_options(SIX, {"teams": [["a", "b"]]})


def test_turn_markers_807_4a() -> None:
    """807.4a: "There is one turn marker for each full four players in the game.\""""
    assert [turn_markers(n) for n in (3, 4, 7, 8, 10)] == [0, 1, 1, 2, 2]


def test_alternating_seating_811_3() -> None:
    """811.3: "players are seated so that no one is next to a teammate and each team is
    equally spaced out.\""""
    assert alternating_seating([["a1", "a2"], ["b1", "b2"]]) == ("a1", "b1", "a2", "b2")
    with pytest.raises(MultiplayerError):
        alternating_seating([["a1", "a2"], ["b1"]])


def test_emperor_ranges_three_per_team_809_3() -> None:
    """With teams of three (809.1), each general reaches an opposing general at range 1 and
    each emperor reaches two at range 2 (809.6a's minimum numbers)."""
    seating = ("g1", "e1", "g2", "h1", "e2", "h2")
    ranges = emperor_ranges(seating, [("g1", "e1", "g2"), ("h1", "e2", "h2")], ("e1", "e2"))
    assert ranges == {"g1": 1, "e1": 2, "g2": 1, "h1": 1, "e2": 2, "h2": 1}


def test_effects_and_targets_stop_at_the_range_801_4_801_10() -> None:
    """801.10: "Spells and abilities can't affect objects or players outside their controller's
    range of influence." 801.4: they "can't be the targets of spells or abilities that player
    controls.\""""
    g = game(players=SIX)
    g.state.multiplayer = Multiplayer.from_options(SIX, {"range": 1})
    for player in SIX:
        g.add(creature(3, 3), player, "battlefield", alias=f"{player}_creature")
    g.effect([{"op": "destroy", "who": {"each": {"types": ["Creature"]}}}], "a")
    zones = {p: g.obj(f"{p}_creature").zone for p in SIX}
    assert zones == {"a": "graveyard", "b": "graveyard", "c": "battlefield",
                     "d": "battlefield", "e": "battlefield", "f": "graveyard"}
    bolt = card(name="Bolt", mana_cost="{R}", types=["Instant"], abilities=[{
        "text": "Bolt deals 3 damage to any target.", "targets": [{"kind": "any"}],
        "spell": [{"op": "damage", "to": "target", "amount": 3}]}])
    g.add(bolt, "a", "hand", alias="bolt")
    g.state.player("a").mana_pool["R"] += 1
    with pytest.raises(Exception, match="not a legal target"):
        g.clone().cast("bolt", targets=["d"])
    g.cast("bolt", targets=["b"])


def test_a_team_shares_its_life_and_loses_together_810_8a_810_9() -> None:
    """810.9: "Damage, loss of life, and gaining life happen to each player individually. The
    result is applied to the team's shared life total." 810.8a: "If either player on a team
    loses the game, the team loses the game.\""""
    players = ("a", "x", "b", "y")
    g = game(players=players, life=30)
    g.state.multiplayer = Multiplayer.from_options(
        players, {"teams": [["a", "b"], ["x", "y"]], "shared_life": True})
    g.effect([{"op": "lose_life", "player": "a", "n": 4},
              {"op": "gain_life", "player": "b", "n": 1}], "x")
    assert [g.state.player(p).life for p in players] == [27, 30, 27, 30]
    g.effect([{"op": "lose_life", "player": "b", "n": 27}], "x")
    assert (g.state.player("a").lost, g.state.player("b").lost, g.state.player("x").lost) \
        == (True, True, False)


def _emperor_game(active: str) -> Game:
    players = ("a1", "a_emp", "a2", "b1", "b_emp", "b2")
    g = game(players=players, active=active, step="declare attackers")
    g.state.multiplayer = Multiplayer.from_options(players, {
        "range": "emperor", "emperors": ["a_emp", "b_emp"],
        "teams": [["a1", "a_emp", "a2"], ["b1", "b_emp", "b2"]]})
    g.add(creature(2, 2, name="Bear"), active, "battlefield", alias="bear")
    return g


def test_only_an_opponent_seated_next_to_you_can_be_attacked_809_3c() -> None:
    """809.3c: "A player can attack only an opponent seated immediately next to them"."""
    general = _emperor_game("a1")
    general.attack({"bear": "b2"})  # seated next to a1 (the table is a circle)
    assert general.state.combat.attackers
    far = _emperor_game("a1")
    with pytest.raises(IllegalAction, match="809.3c"):
        far.attack({"bear": "b1"})
    emperor = _emperor_game("a_emp")
    with pytest.raises(IllegalAction, match="809.3c"):
        emperor.attack({"bear": "b1"})


def test_an_ability_counts_only_what_its_controllers_range_holds_801_11() -> None:
    """801.11: "It doesn't see objects or events outside its controller's range of
    influence" (a count of creatures sharing a creature type with the one it boosts)."""
    coat = card(name="Coat", types=["Artifact"], abilities=[{
        "text": "Each creature gets +1/+1 for each other creature that shares a type with it.",
        "static": {"affects": {"types": ["Creature"]},
                   "pump": ["others_sharing_creature_type", "others_sharing_creature_type"]}}])
    g = game(players=SIX)
    g.state.multiplayer = Multiplayer.from_options(SIX, {"range": 1})
    g.add(coat, "a", "battlefield")
    soldier = creature(1, 1, name="Soldier", subtypes=["Soldier"])
    for owner, alias in (("a", "mine"), ("b", "left"), ("d", "far"), ("f", "right")):
        g.add(soldier, owner, "battlefield", alias=alias)
    g.add(creature(1, 1, name="Elf", subtypes=["Elf"]), "b", "battlefield")
    assert (ch(g, "mine").power, ch(g, "right").toughness) == (3, 3)
    g.state.multiplayer = None  # everyone in range: the far Soldier counts too
    g.state.touch()
    assert ch(g, "mine").power == 4


def test_a_target_of_an_opponents_choice_is_within_both_ranges_801_5a() -> None:
    """801.5a: "If a player is asked to choose an object or player, they must choose one
    within their range of influence"."""
    witches = creature(1, 3, name="Witches", abilities=[{
        "text": "{T}: 1 damage to any target of an opponent's choice.", "cost": "{T}",
        "targets": [{"kind": "any", "chooser": "opponent"}],
        "effect": [{"op": "damage", "to": "target", "amount": 1}]}])

    def tried(target: str, chooser: str | None) -> bool:
        g = game(players=SIX, active="a")
        g.state.multiplayer = Multiplayer.from_options(SIX, {"range": 1})
        g.add(witches, "a", "battlefield", alias="w")
        try:
            g.activate("w", targets=[target], chooser=chooser)
        except IllegalAction:
            return False
        return True

    assert tried("a", "b")  # b chooses a: in both ranges
    assert not tried("c", "b")  # in b's range, not in a's (801.4)
    assert not tried("f", "b")  # in a's range, not in b's
    assert not tried("a", None)  # someone must choose
    assert not tried("a", "d")  # d is out of a's range: a can't ask d


def test_with_no_one_in_range_the_closest_to_the_left_chooses_801_5c() -> None:
    """801.5c: "the closest appropriate player to its controller's left makes that
    choice"."""
    game_ = Multiplayer.from_options(SIX, {"range": 1, "teams": [["a", "b", "c"],
                                                                 ["d", "e", "f"]]})
    assert game_.chooser("b", ["d", "e", "f"]) == "d"  # none in b's range: d, to b's left
    assert game_.chooser("c", ["d", "e", "f"]) == "d"  # d is within c's range
    assert game_.chooser("a", ["d", "e", "f"]) == "f"  # f, to a's right, is within range
    assert game_.chooser("a", ["b"]) is None  # a teammate never makes an opponent's choice
