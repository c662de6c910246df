"""Combat: attacking, blocking, combat damage (rules 506-511), trample (702.19)."""

from __future__ import annotations

import pytest

from kb.engine import Game, IllegalAction
from kb.engine.objects import Printed
from kb.engine.rules import VARIANTS
from tests.engine.make import card, creature, game

TRAMPLER = creature(5, 5, keywords=["Trample"])


def _blocked_trampler(g: Game, blocker: Printed | None = None) -> None:
    g.add(TRAMPLER, "you", "battlefield", alias="t")
    g.add(blocker or creature(2, 2), "opponent", "battlefield", alias="b")
    g.attack({"t": "opponent"})
    g.block({"b": ["t"]})


def test_unblocked_creature_hits_what_it_attacks_510_1b() -> None:
    g = game()
    g.add(creature(3, 3), "you", "battlefield", alias="c")
    g.attack({"c": "opponent"})
    g.combat_damage()
    assert g.state.player("opponent").life == 17


def test_blocked_creature_without_trample_damages_only_blockers_510_1c() -> None:
    g = game()
    g.add(creature(5, 5), "you", "battlefield", alias="t")
    g.add(creature(2, 2), "opponent", "battlefield", alias="b")
    g.attack({"t": "opponent"})
    g.block({"b": ["t"]})
    with pytest.raises(IllegalAction, match="510.1c"):
        g.combat_damage(assign={"t": {"b": 2, "opponent": 3}})


def test_trample_needs_lethal_damage_on_each_blocker_first_702_19b() -> None:
    g = game()
    _blocked_trampler(g)
    with pytest.raises(IllegalAction, match="702.19b"):
        g.combat_damage(assign={"t": {"b": 1, "opponent": 4}})
    g.combat_damage(assign={"t": {"b": 2, "opponent": 3}})
    assert g.state.player("opponent").life == 17


def test_damage_already_marked_counts_toward_lethal_702_19b() -> None:
    g = game()
    _blocked_trampler(g)
    g.obj("b").damage = 1
    g.combat_damage(assign={"t": {"b": 1, "opponent": 4}})
    assert g.state.player("opponent").life == 16


def test_prevention_doesnt_lower_the_lethal_requirement_702_19b() -> None:
    g = game()
    _blocked_trampler(g, creature(2, 2, keywords=["Protection from everything"]))
    with pytest.raises(IllegalAction, match="702.19b"):
        g.combat_damage(assign={"t": {"opponent": 5}})


def test_1998_trample_ignored_blockers_that_cant_be_dealt_damage() -> None:
    g = game(VARIANTS["trample-1998"])
    _blocked_trampler(g, creature(2, 2, keywords=["Protection from everything"]))
    g.combat_damage(assign={"t": {"opponent": 5}})
    assert g.state.player("opponent").life == 15


def test_assigned_damage_must_equal_power_510_1a() -> None:
    g = game()
    _blocked_trampler(g)
    with pytest.raises(IllegalAction, match="510.1a"):
        g.combat_damage(assign={"t": {"b": 2, "opponent": 1}})


def test_trample_over_planeswalkers_702_19c() -> None:
    g = game()
    g.add(creature(7, 7, keywords=["Trample over planeswalkers"]), "you", "battlefield",
          alias="t")
    g.add(card(types=["Planeswalker"], loyalty=3), "opponent", "battlefield", alias="pw")
    g.attack({"t": "pw"})
    with pytest.raises(IllegalAction, match="702.19c"):
        g.combat_damage(assign={"t": {"pw": 2, "opponent": 5}})
    g.combat_damage(assign={"t": {"pw": 3, "opponent": 4}})
    assert g.state.player("opponent").life == 16


def test_first_strike_damage_step_then_the_others_510_4() -> None:
    g = game()
    g.add(creature(2, 2, keywords=["First strike"]), "you", "battlefield", alias="fast")
    g.add(creature(3, 3), "you", "battlefield", alias="slow")
    g.add(creature(1, 1, keywords=["Double strike"]), "you", "battlefield", alias="double")
    g.attack({"fast": "opponent", "slow": "opponent", "double": "opponent"})
    g.combat_damage(first_strike=True)
    assert g.state.player("opponent").life == 17
    g.combat_damage()
    assert g.state.player("opponent").life == 13


def test_blocking_more_than_one_creature_needs_an_ability_509_1a() -> None:
    g = game()
    g.add(creature(1, 1), "you", "battlefield", alias="a")
    g.add(creature(1, 1), "you", "battlefield", alias="b")
    g.add(creature(2, 2), "opponent", "battlefield", alias="wall")
    g.attack({"a": "opponent", "b": "opponent"})
    with pytest.raises(IllegalAction):
        g.block({"wall": ["a", "b"]})


def test_attacking_taps_and_a_tapped_creature_cannot_attack_508_1() -> None:
    g = game()
    g.add(creature(1, 1), "you", "battlefield", alias="a", tapped=True)
    with pytest.raises(IllegalAction, match="tapped"):
        g.attack({"a": "opponent"})


def test_a_creature_that_stops_being_a_creature_leaves_combat_506_4() -> None:
    g = game()
    g.add(creature(1, 1), "you", "battlefield", alias="a")
    g.attack({"a": "opponent"})
    g.effect([{"op": "become", "who": "a", "types": ["Artifact"]}], "you")
    assert not g.state.combat.attacking(g.obj("a").id)


def test_attack_requirements_are_obeyed_as_far_as_restrictions_allow_508_1d() -> None:
    """508.1d: "If the number of requirements that are being obeyed is fewer than the maximum
    possible number of requirements that could be obeyed without disobeying any restrictions,
    the declaration of attackers is illegal"."""
    eager = creature(2, 2, name="Eager", keywords=["Attacks each combat if able"])

    def legal(attackers: list[str], *, tapped: bool = False, limit: int | None = None) -> bool:
        g = game(active="you", step="beginning of combat")
        g.add(eager, "you", "battlefield", alias="a", tapped=tapped)
        g.add(eager, "you", "battlefield", alias="b")
        if limit is not None:
            g.add(card(name="Pass", types=["Enchantment"], abilities=[{
                "text": "No more than N creatures can attack.",
                "static": {"max_attackers": limit}}]), "opponent", "battlefield")
        try:
            g.attack(dict.fromkeys(attackers, "opponent"))
        except IllegalAction:
            return False
        return True

    assert legal(["a", "b"]) and not legal(["a"])
    assert legal(["b"], tapped=True)  # a tapped creature can't obey its requirement
    assert legal(["a"], limit=1) and legal(["b"], limit=1) and not legal([], limit=1)


def test_the_first_strike_step_is_the_rules_choice_not_the_scenarios_510_4() -> None:
    """510.4: with a first striker in combat the first step is a first-strike step; a
    creature that had first strike as it began never deals damage in the next one, even with
    0 power then (702.7b); a claim that the step is otherwise is refused."""
    g = game()
    g.add(creature(0, 1, keywords=["First strike"]), "you", "battlefield", alias="fast")
    g.add(creature(2, 2), "you", "battlefield", alias="slow")
    g.attack({"fast": "opponent", "slow": "opponent"})
    with pytest.raises(IllegalAction, match="510.4"):
        g.clone().combat_damage(first_strike=False)
    g.combat_damage()
    g.effect([{"op": "pump", "who": "fast", "pt": [3, 0], "duration": "eot"}], "you")
    g.combat_damage()
    assert g.state.player("opponent").life == 18
    with pytest.raises(IllegalAction, match="510.4"):
        g.combat_damage()


def test_a_blocked_creature_whose_blocker_left_assigns_no_damage_510_1c() -> None:
    g = game()
    g.add(creature(3, 3), "you", "battlefield", alias="attacker")
    g.add(creature(1, 1), "opponent", "battlefield", alias="blocker")
    g.attack({"attacker": "opponent"})
    g.block({"blocker": ["attacker"]})
    g.move("blocker", "graveyard")
    with pytest.raises(IllegalAction, match="510.1"):
        g.clone().combat_damage(assign={"attacker": {"opponent": 3}})
    g.combat_damage()
    assert g.state.player("opponent").life == 20
