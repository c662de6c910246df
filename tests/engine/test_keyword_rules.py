"""The keyword abilities of kb.engine.keywords, each tested from its rule's text (CR 2026-04-17,
quoted in the docstrings): blocking restrictions, damage results, targeting, counters on
entering, and the triggered abilities keywords stand for."""

from __future__ import annotations

import pytest

from kb.engine import EngineError, Game, IllegalAction
from kb.engine.objects import keyword
from tests.engine.make import card, ch, creature, game

FOREST = card(name="Forest", types=["Land"], supertypes=["Basic"], subtypes=["Forest"])
SNOW_FOREST = card(name="Snow-Covered Forest", types=["Land"], supertypes=["Basic", "Snow"],
                   subtypes=["Forest"])


def _block(g: Game, attacker: str, *blockers: str) -> None:
    g.attack({attacker: "opponent"})
    g.block({b: [attacker] for b in blockers})


def _blocks(attacker_keywords: list[str], blocker: object, **attacker: object) -> bool:
    g = game()
    g.add(creature(2, 2, keywords=attacker_keywords, **attacker), "you", "battlefield",
          alias="a")
    g.add(blocker, "opponent", "battlefield", alias="b")  # type: ignore[arg-type]
    try:
        _block(g, "a", "b")
    except IllegalAction:
        return False
    return True


# -- reading keywords ----------------------------------------------------------------------


def test_keywords_with_numbers_and_landwalk_are_read() -> None:
    assert keyword("Toxic 2").arg == "2"
    assert keyword("Snow forestwalk").keyword == "landwalk"
    assert keyword("Snow forestwalk").arg == "snow forest"
    assert keyword("Swampwalk").arg == "swamp"
    with pytest.raises(EngineError):
        keyword("Bushido two")


# -- blocking (509.1b) ----------------------------------------------------------------------


def test_shadow_702_28b() -> None:
    """"A creature with shadow can't be blocked by creatures without shadow, and a creature
    without shadow can't be blocked by creatures with shadow.\""""
    assert not _blocks(["Shadow"], creature(2, 2))
    assert _blocks(["Shadow"], creature(2, 2, keywords=["Shadow"]))
    assert not _blocks([], creature(2, 2, keywords=["Shadow"]))


def test_menace_702_111b() -> None:
    """"A creature with menace can't be blocked except by two or more creatures.\""""
    g = game()
    g.add(creature(2, 2, keywords=["Menace"]), "you", "battlefield", alias="a")
    g.add(creature(1, 1), "opponent", "battlefield", alias="b1")
    g.add(creature(1, 1), "opponent", "battlefield", alias="b2")
    g.attack({"a": "opponent"})
    with pytest.raises(IllegalAction, match="702.111b"):
        g.clone().block({"b1": ["a"]})
    g.block({"b1": ["a"], "b2": ["a"]})
    assert g.state.combat.blocked == {g.obj("a").id}


def test_fear_702_36b() -> None:
    """"A creature with fear can't be blocked except by artifact creatures and/or black
    creatures.\""""
    assert not _blocks(["Fear"], creature(2, 2, mana_cost="{G}"))
    assert _blocks(["Fear"], creature(2, 2, mana_cost="{B}"))
    assert _blocks(["Fear"], card(types=["Artifact", "Creature"], power=1, toughness=1))


def test_intimidate_702_13b() -> None:
    """"A creature with intimidate can't be blocked except by artifact creatures and/or
    creatures that share a color with it.\""""
    assert not _blocks(["Intimidate"], creature(2, 2, mana_cost="{G}"), mana_cost="{R}")
    assert _blocks(["Intimidate"], creature(2, 2, mana_cost="{R}{G}"), mana_cost="{R}")


def test_horsemanship_702_31b() -> None:
    """"A creature with horsemanship can't be blocked by creatures without horsemanship.\""""
    assert not _blocks(["Horsemanship"], creature(2, 2))
    assert _blocks(["Horsemanship"], creature(2, 2, keywords=["Horsemanship"]))
    assert _blocks([], creature(2, 2, keywords=["Horsemanship"]))


def test_skulk_702_118b() -> None:
    """"A creature with skulk can't be blocked by creatures with greater power.\""""
    assert not _blocks(["Skulk"], creature(3, 3))
    assert _blocks(["Skulk"], creature(2, 5))


def test_reach_blocks_flying_702_17b() -> None:
    """"A creature with flying can't be blocked except by creatures with flying and/or
    reach.\""""
    assert not _blocks(["Flying"], creature(1, 4))
    assert _blocks(["Flying"], creature(1, 4, keywords=["Reach"]))


@pytest.mark.parametrize(("walk", "land", "blockable"), [
    ("Forestwalk", FOREST, False), ("Islandwalk", FOREST, True),
    ("Snow forestwalk", FOREST, True), ("Snow forestwalk", SNOW_FOREST, False),
])
def test_landwalk_702_14c(walk: str, land: object, blockable: bool) -> None:
    """"A creature with landwalk can't be blocked as long as the defending player controls at
    least one land with the specified land type (as in "islandwalk")\""""
    g = game()
    g.add(creature(2, 2, keywords=[walk]), "you", "battlefield", alias="a")
    g.add(creature(2, 2), "opponent", "battlefield", alias="b")
    g.add(land, "opponent", "battlefield")  # type: ignore[arg-type]
    g.attack({"a": "opponent"})
    try:
        g.block({"b": ["a"]})
        blocked = True
    except IllegalAction:
        blocked = False
    assert blocked is blockable


def test_unleash_702_98a() -> None:
    """"You may have this permanent enter with an additional +1/+1 counter on it" and "This
    permanent can't block as long as it has a +1/+1 counter on it.\""""
    g = game()
    g.add(creature(2, 2), "you", "battlefield", alias="a")
    unleashed = creature(2, 2, keywords=["Unleash"])
    g.add(unleashed, "opponent", "hand", alias="b")
    g.add(unleashed, "opponent", "hand", alias="c")
    g.state.objects[g.obj("b").id].controller = "opponent"
    g.enter("b", "opponent", {"unleash": True})
    g.enter("c", "opponent", {"unleash": False})
    assert g.obj("b").counters["+1/+1"] == 1
    g.attack({"a": "opponent"})
    with pytest.raises(IllegalAction, match="702.98a"):
        g.clone().block({"b": ["a"]})
    g.block({"c": ["a"]})


# -- damage results (120.3) -----------------------------------------------------------------


def test_lifelink_702_15b() -> None:
    """"Damage dealt by a source with lifelink causes that source's controller ... to gain that
    much life (in addition to any other results that damage causes).\""""
    g = game()
    g.add(creature(3, 3, keywords=["Lifelink"]), "you", "battlefield", alias="a")
    g.attack({"a": "opponent"})
    g.combat_damage()
    assert (g.state.player("you").life, g.state.player("opponent").life) == (23, 17)


def test_wither_and_infect_damage_creatures_as_counters_702_80c_702_90c() -> None:
    """702.90c: "Damage dealt to a creature by a source with infect isn't marked on that
    creature. Rather, it causes that source's controller to put that many -1/-1 counters on
    that creature.\""""
    for word in ("Wither", "Infect"):
        g = game()
        g.add(creature(2, 2, keywords=[word]), "you", "battlefield", alias="a")
        g.add(creature(3, 3), "opponent", "battlefield", alias="b")
        _block(g, "a", "b")
        g.combat_damage()
        assert (g.obj("b").damage, g.obj("b").counters["-1/-1"], ch(g, "b").toughness) \
            == (0, 2, 1)


def test_infect_gives_poison_instead_of_life_loss_702_90b() -> None:
    """"Damage dealt to a player by a source with infect doesn't cause that player to lose
    life. Rather, it causes that source's controller to give the player that many poison
    counters.\""""
    g = game()
    g.add(creature(4, 4, keywords=["Infect"]), "you", "battlefield", alias="a")
    g.attack({"a": "opponent"})
    g.combat_damage()
    assert (g.state.player("opponent").life, g.state.player("opponent").poison) == (20, 4)


def test_ten_poison_counters_lose_704_5c() -> None:
    """"If a player has ten or more poison counters, that player loses the game.\""""
    g = game()
    g.state.player("opponent").poison = 7
    g.add(creature(3, 3, keywords=["Infect"]), "you", "battlefield", alias="a")
    g.attack({"a": "opponent"})
    g.combat_damage()
    assert g.state.player("opponent").lost


def test_toxic_adds_total_toxic_value_702_164c() -> None:
    """"Combat damage dealt to a player by a creature with toxic causes that creature's
    controller to give the player a number of poison counters equal to that creature's total
    toxic value, in addition to the damage's other results.\""""
    g = game()
    g.add(creature(2, 2, keywords=["Toxic 2", "Toxic 1"]), "you", "battlefield", alias="a")
    g.attack({"a": "opponent"})
    g.combat_damage()
    assert (g.state.player("opponent").life, g.state.player("opponent").poison) == (18, 3)


def test_absorb_702_64a() -> None:
    """"If a source would deal damage to this creature, prevent N of that damage.\""""
    g = game()
    g.add(creature(3, 3), "you", "battlefield", alias="a")
    g.add(creature(2, 4, keywords=["Absorb 2"]), "opponent", "battlefield", alias="b")
    _block(g, "a", "b")
    g.combat_damage()
    assert g.obj("b").damage == 1


# -- targeting ------------------------------------------------------------------------------


def test_shroud_702_18a() -> None:
    """"This permanent or player can't be the target of spells or abilities.\""""
    g = game()
    g.add(creature(2, 2, keywords=["Shroud"]), "you", "battlefield", alias="mine")
    bolt = card(name="Bolt", mana_cost="{R}", types=["Instant"], abilities=[{
        "text": "Bolt deals 3 damage to any target.", "targets": [{"kind": "any"}],
        "spell": [{"op": "damage", "to": "target", "amount": 3}]}])
    g.add(bolt, "you", "hand", alias="bolt")
    g.state.player("you").mana_pool["R"] += 1
    with pytest.raises(IllegalAction, match="not a legal target"):
        g.cast("bolt", targets=["mine"])


# -- triggered abilities ---------------------------------------------------------------------


def _attack_and_resolve(g: Game, attacks: dict[str, str], blocks: dict[str, list[str]] | None
                        = None) -> None:
    g.attack(attacks)
    g.resolve_all()
    if blocks is not None:
        g.block(blocks)
        g.resolve_all()


def test_poisonous_702_70a() -> None:
    """"Whenever this creature deals combat damage to a player, that player gets N poison
    counters.\""""
    g = game()
    g.add(creature(1, 1, keywords=["Poisonous 2"]), "you", "battlefield", alias="a")
    g.attack({"a": "opponent"})
    g.combat_damage()
    g.resolve_all()
    assert (g.state.player("opponent").life, g.state.player("opponent").poison) == (19, 2)


def test_flanking_702_25a() -> None:
    """"Whenever this creature becomes blocked by a creature without flanking, the blocking
    creature gets -1/-1 until end of turn.\""""
    g = game()
    g.add(creature(2, 2, keywords=["Flanking"]), "you", "battlefield", alias="a")
    g.add(creature(1, 1), "opponent", "battlefield", alias="b")
    g.add(creature(2, 2, keywords=["Flanking"]), "opponent", "battlefield", alias="c")
    _attack_and_resolve(g, {"a": "opponent"}, {"b": ["a"], "c": ["a"]})
    assert g.obj("b").zone == "graveyard"
    assert ch(g, "c").toughness == 2


def test_bushido_702_45a() -> None:
    """"Whenever this creature blocks or becomes blocked, it gets +N/+N until end of turn.\""""
    g = game()
    g.add(creature(2, 2, keywords=["Bushido 2"]), "you", "battlefield", alias="a")
    g.add(creature(1, 1), "opponent", "battlefield", alias="b")
    _attack_and_resolve(g, {"a": "opponent"}, {"b": ["a"]})
    assert (ch(g, "a").power, ch(g, "a").toughness) == (4, 4)


def test_exalted_702_83a() -> None:
    """"Whenever a creature you control attacks alone, that creature gets +1/+1 until end of
    turn.\" Two instances trigger twice; attacking with two creatures triggers nothing."""
    g = game()
    g.add(card(types=["Enchantment"], keywords=["Exalted"]), "you", "battlefield")
    g.add(creature(1, 1, keywords=["Exalted"]), "you", "battlefield", alias="a")
    _attack_and_resolve(g, {"a": "opponent"})
    assert ch(g, "a").power == 3
    g = game()
    g.add(creature(1, 1, keywords=["Exalted"]), "you", "battlefield", alias="a")
    g.add(creature(1, 1), "you", "battlefield", alias="b")
    _attack_and_resolve(g, {"a": "opponent", "b": "opponent"})
    assert ch(g, "a").power == 1


def test_afflict_702_130a() -> None:
    """"Whenever this creature becomes blocked, defending player loses N life.\""""
    g = game()
    g.add(creature(2, 2, keywords=["Afflict 2"]), "you", "battlefield", alias="a")
    g.add(creature(1, 1), "opponent", "battlefield", alias="b")
    g.add(creature(1, 1), "opponent", "battlefield", alias="c")
    _attack_and_resolve(g, {"a": "opponent"}, {"b": ["a"], "c": ["a"]})
    assert g.state.player("opponent").life == 18


def test_dethrone_702_105a() -> None:
    """"Whenever this creature attacks the player with the most life or tied for most life,
    put a +1/+1 counter on this creature.\""""
    g = game()
    g.add(creature(2, 2, keywords=["Dethrone"]), "you", "battlefield", alias="a")
    _attack_and_resolve(g, {"a": "opponent"})
    assert g.obj("a").counters["+1/+1"] == 1
    g = game()
    g.state.player("you").life = 25
    g.add(creature(2, 2, keywords=["Dethrone"]), "you", "battlefield", alias="a")
    _attack_and_resolve(g, {"a": "opponent"})
    assert g.obj("a").counters["+1/+1"] == 0


def test_training_702_149a() -> None:
    """"Whenever this creature and at least one other creature with power greater than this
    creature's power attack, put a +1/+1 counter on this creature.\""""
    g = game()
    g.add(creature(1, 1, keywords=["Training"]), "you", "battlefield", alias="a")
    g.add(creature(1, 1), "you", "battlefield", alias="b")
    g.add(creature(3, 3), "you", "battlefield", alias="c")
    _attack_and_resolve(g, {"a": "opponent", "b": "opponent"})
    assert g.obj("a").counters["+1/+1"] == 0
    g = game()
    g.add(creature(1, 1, keywords=["Training"]), "you", "battlefield", alias="a")
    g.add(creature(3, 3), "you", "battlefield", alias="c")
    _attack_and_resolve(g, {"a": "opponent", "c": "opponent"})
    assert g.obj("a").counters["+1/+1"] == 1


def test_frenzy_702_68a() -> None:
    """"Whenever this creature attacks and isn't blocked, it gets +N/+0 until end of turn.\""""
    g = game()
    g.add(creature(1, 1, keywords=["Frenzy 2"]), "you", "battlefield", alias="a")
    g.add(creature(1, 1, keywords=["Frenzy 2"]), "you", "battlefield", alias="b")
    g.add(creature(1, 1), "opponent", "battlefield", alias="c")
    _attack_and_resolve(g, {"a": "opponent", "b": "opponent"}, {"c": ["b"]})
    assert (ch(g, "a").power, ch(g, "b").power) == (3, 1)


def test_renown_702_112a() -> None:
    """"When this creature deals combat damage to a player, if it isn't renowned, put N +1/+1
    counters on it and it becomes renowned.\""""
    g = game()
    g.add(creature(1, 1, keywords=["Renown 2"]), "you", "battlefield", alias="a")
    for _ in range(2):
        g.attack({"a": "opponent"})
        g.combat_damage()
        g.resolve_all()
        g.obj("a").tapped = False
    assert g.obj("a").counters["+1/+1"] == 2
    assert g.state.player("opponent").life == 16


def test_persist_702_79a() -> None:
    """"When this permanent is put into a graveyard from the battlefield, if it had no -1/-1
    counters on it, return it to the battlefield under its owner's control with a -1/-1 counter
    on it.\""""
    g = game()
    g.add(creature(3, 3, keywords=["Persist"]), "you", "battlefield", alias="a")
    kill = [{"op": "destroy", "who": "a"}]
    g.effect(kill, "you")
    g.resolve_all()
    assert (g.obj("a").zone, g.obj("a").counters["-1/-1"], ch(g, "a").power) \
        == ("battlefield", 1, 2)
    g.effect(kill, "you")
    g.resolve_all()
    assert g.obj("a").zone == "graveyard"


def test_afterlife_702_135a() -> None:
    """"When this permanent is put into a graveyard from the battlefield, create N 1/1 white
    and black Spirit creature tokens with flying.\""""
    g = game()
    g.add(creature(1, 1, keywords=["Afterlife 2"]), "you", "battlefield", alias="a")
    g.effect([{"op": "destroy", "who": "a"}], "you")
    g.resolve_all()
    spirits = [o for o in g.state.battlefield() if o.token]
    assert len(spirits) == 2
    assert g.state.characteristics(spirits[0].id).has("flying")


def test_prowess_702_108a() -> None:
    """"Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.\""""
    g = game()
    g.add(creature(1, 1, keywords=["Prowess"]), "you", "battlefield", alias="a")
    g.add(card(name="Opt", mana_cost="{U}", types=["Instant"]), "you", "hand", alias="opt")
    g.add(creature(1, 1, mana_cost="{G}"), "you", "hand", alias="elf")
    g.state.player("you").mana_pool.update({"U": 1, "G": 1})
    g.cast("opt")
    g.resolve_all()
    g.cast("elf")
    g.resolve_all()
    assert ch(g, "a").power == 2


def test_vanishing_702_63a() -> None:
    """"This permanent enters with N time counters on it," "At the beginning of your upkeep,
    ... remove a time counter from it," and "When the last time counter is removed from this
    permanent, sacrifice it.\""""
    g = game()
    g.add(creature(2, 2, keywords=["Vanishing 2"]), "you", "hand", alias="a")
    g.enter("a")
    assert g.obj("a").counters["time"] == 2
    for _ in range(2):
        g.advance("upkeep", "you")
        g.resolve_all()
    assert g.obj("a").zone == "graveyard"


def test_modular_702_43a() -> None:
    """"This permanent enters with N +1/+1 counters on it" and "When this permanent is put
    into a graveyard from the battlefield, you may put a +1/+1 counter on target artifact
    creature for each +1/+1 counter on this permanent.\""""
    g = game()
    robot = card(types=["Artifact", "Creature"], power=0, toughness=0, keywords=["Modular 2"])
    g.add(robot, "you", "hand", alias="a")
    g.add(card(types=["Artifact", "Creature"], power=1, toughness=1), "you", "battlefield",
          alias="b")
    g.enter("a")
    assert ch(g, "a").power == 2
    g.trigger_targets = {"a": [["b"]]}
    g.effect([{"op": "destroy", "who": "a"}], "you")
    g.resolve_all()
    assert g.obj("b").counters["+1/+1"] == 2


def test_mentor_702_134a() -> None:
    """"Whenever this creature attacks, put a +1/+1 counter on target attacking creature with
    power less than this creature's power.\""""
    g = game()
    g.add(creature(3, 3, keywords=["Mentor"]), "you", "battlefield", alias="a")
    g.add(creature(1, 1), "you", "battlefield", alias="b")
    g.trigger_targets = {"a": [["b"]]}
    _attack_and_resolve(g, {"a": "opponent", "b": "opponent"})
    assert g.obj("b").counters["+1/+1"] == 1


def test_decayed_702_147a() -> None:
    """"This creature can't block" and "When this creature attacks, sacrifice it at end of
    combat.\""""
    g = game()
    g.add(creature(2, 2, keywords=["Decayed"]), "you", "battlefield", alias="a")
    g.add(creature(2, 2), "opponent", "battlefield", alias="o")
    _attack_and_resolve(g, {"a": "opponent"})
    g.combat_damage()
    g.advance("end of combat")
    g.resolve_all()
    assert g.obj("a").zone == "graveyard"
    g = game(active="opponent")
    g.add(creature(2, 2, keywords=["Decayed"]), "you", "battlefield", alias="d")
    g.add(creature(2, 2), "opponent", "battlefield", alias="o")
    g.attack({"o": "you"})
    with pytest.raises(IllegalAction, match="702.147a"):
        g.block({"d": ["o"]})


def test_cumulative_upkeep_702_24a() -> None:
    """702.24a: "At the beginning of your upkeep, if this permanent is on the battlefield, put
    an age counter on this permanent. Then you may pay [cost] for each age counter on it. If
    you don't, sacrifice it.\""""
    g = game(active="opponent", step="end")
    g.add(creature(2, 2, keywords=["Cumulative upkeep {1}"]), "you", "battlefield", alias="a")
    g.add(creature(2, 2, keywords=["Cumulative upkeep—Pay 2 life"]), "you", "battlefield",
          alias="b")
    g.advance("upkeep", "you")
    g.state.player("you").mana_pool["C"] += 1
    g.resolve({"pay": True})  # b's, put on the stack last
    g.resolve({"pay": True})
    assert (g.obj("a").zone, g.obj("b").zone, g.state.player("you").life) \
        == ("battlefield", "battlefield", 18)
    g.advance("upkeep", "you")
    g.resolve({"pay": False})
    g.resolve({"pay": True})  # {1}{1} with no mana: it can't be paid
    assert (g.obj("a").zone, g.obj("b").zone) == ("graveyard", "graveyard")
