"""Copying objects (rule 707)."""

from __future__ import annotations

from kb.engine.amounts import Ctx
from kb.engine.copy import copiable_values, with_exceptions
from kb.engine.objects import FACE_DOWN
from tests.engine.make import card, ch, creature, game

CLONE = card(name="Clone", types=["Creature"], power=0, toughness=0, mana_cost="{3}{U}",
             abilities=[{"text": "Enter as a copy of any creature.",
                         "replacement": {"enter_as_copy": {"choose": {"types": ["Creature"]}}}}])
BEAR = creature(2, 2, name="Bear", mana_cost="{1}{G}", subtypes=["Bear"])


def test_copiable_values_ignore_other_effects_and_counters_707_2() -> None:
    g = game()
    g.add(BEAR, "opponent", "battlefield", alias="bear", counters={"+1/+1": 1}, tapped=True)
    g.effect([{"op": "become", "who": "bear", "colors": ["blue"], "pump": [3, 3]}], "you")
    g.add(CLONE, "you", "hand", alias="clone")
    g.enter("clone", choices={"copy": "bear"})
    clone = ch(g, "clone")
    assert (clone.name, clone.power, clone.toughness, clone.colors) == ("Bear", 2, 2, {"green"})
    assert not g.obj("clone").tapped and not g.obj("clone").counters["+1/+1"]


def test_copy_of_a_copy_uses_the_copy_effect_707_3() -> None:
    g = game()
    g.add(BEAR, "opponent", "battlefield", alias="bear")
    g.add(CLONE, "you", "hand", alias="first")
    g.add(CLONE, "you", "hand", alias="second")
    g.enter("first", choices={"copy": "bear"})
    g.enter("second", choices={"copy": "first"})
    assert ch(g, "second").name == "Bear"


def test_face_down_object_is_copied_as_face_down_707_2() -> None:
    g = game()
    g.add(BEAR, "opponent", "battlefield", alias="bear", face_down=True)
    assert copiable_values(g.state, g.obj("bear")).front == FACE_DOWN


def test_double_faced_permanent_gives_the_face_that_is_up_707_8() -> None:
    dfc = card(layout="transform", faces=[
        {"name": "Front", "types": ["Creature"], "power": 1, "toughness": 1},
        {"name": "Back", "types": ["Creature"], "power": 3, "toughness": 3}])
    g = game()
    g.add(dfc, "you", "battlefield", alias="dfc", transformed=True)
    assert [f.name for f in copiable_values(g.state, g.obj("dfc")).faces] == ["Back"]
    assert len(copiable_values(g.state, g.obj("dfc"), keep_faces=True).faces) == 2  # 707.8a


def test_setting_pt_drops_the_ability_defining_it_707_9d() -> None:
    goyf = card(name="Goyf", types=["Creature"], power="*", toughness="*", abilities=[
        {"text": "P/T", "cda": {"power": "1", "toughness": "2"}}])
    g = game()
    g.add(goyf, "you", "battlefield", alias="goyf")
    values, extras = with_exceptions(copiable_values(g.state, g.obj("goyf")), {"pt": [7, 7]},
                                     copier=None, this=None, ctx=Ctx(g.state, "you"))
    assert (values.front.power, values.front.abilities, extras) == (7, (), {})


def test_keeping_the_color_keeps_the_copiers_own_707_9c() -> None:
    blue = card(name="Doppel", types=["Creature"], mana_cost="{3}{U}{U}", power=0,
                toughness=0)
    g = game()
    g.add(BEAR, "you", "battlefield", alias="bear")
    values, _ = with_exceptions(copiable_values(g.state, g.obj("bear")), {"keep_color": True},
                                copier=blue, this=None, ctx=Ctx(g.state, "you"))
    assert values.front.colors == {"blue"}
    assert str(values.front.mana_cost) == "{1}{G}"


def test_conditional_exception_looks_at_the_copy_without_it_707_9f() -> None:
    g = game()
    g.add(card(name="Land", types=["Land"]), "you", "battlefield", alias="land")
    g.add(creature(1, 1), "you", "battlefield", alias="c")
    exc = {"add_supertypes": ["Legendary"],
           "if_creature": {"counters": {"+1/+1": 2}, "abilities": ["Changeling"]}}
    ctx = Ctx(g.state, "you")
    land, land_extra = with_exceptions(copiable_values(g.state, g.obj("land")), exc,
                                       copier=None, this=None, ctx=ctx)
    beast, beast_extra = with_exceptions(copiable_values(g.state, g.obj("c")), exc,
                                         copier=None, this=None, ctx=ctx)
    assert (land_extra, [a.keyword for a in land.front.abilities]) == ({}, [])
    assert (beast_extra, [a.keyword for a in beast.front.abilities]) == ({"+1/+1": 2},
                                                                         ["changeling"])


def test_becoming_a_copy_keeps_other_effects_707_4() -> None:
    g = game()
    g.add(creature(0, 1), "you", "battlefield", alias="shifter")
    g.add(BEAR, "opponent", "battlefield", alias="bear")
    g.effect([{"op": "pump", "who": "shifter", "pt": [3, 3]}], "you")
    g.effect([{"op": "become_copy", "who": "shifter", "of": "bear"}], "you")
    assert (ch(g, "shifter").name, ch(g, "shifter").power) == ("Bear", 5)


def test_only_the_last_copy_effects_extra_counters_happen_707_9e() -> None:
    ego = card(name="Ego", types=["Creature"], power=0, toughness=0, abilities=[{
        "text": "Enter as a copy, with two more counters.",
        "replacement": {"enter_as_copy": {"choose": {"types": ["Creature"]},
                                          "except": {"counters": {"+1/+1": 2}}}}}])
    g = game()
    g.add(CLONE, "you", "battlefield", alias="clone", counters={"+1/+1": 1})
    g.add(BEAR, "opponent", "battlefield", alias="bear")
    g.add(ego, "you", "hand", alias="ego")
    g.add(ego, "you", "hand", alias="ego 2")
    g.enter("ego", choices={"copy": ["clone", "bear"]})
    g.enter("ego 2", choices={"copy": "bear"})
    assert g.obj("ego").counters["+1/+1"] == 0
    assert g.obj("ego 2").counters["+1/+1"] == 2


def test_copy_of_a_spell_copies_choices_but_not_mana_707_10() -> None:
    spell = card(name="Growth", types=["Instant"], mana_cost="{X}{G}", abilities=[{
        "text": "Gain X life if {G} was spent.",
        "spell": [{"op": "gain_life", "n": "X", "if": {"spent": "G"}}]}])
    g = game()
    g.add(spell, "you", "hand", alias="s")
    g.state.player("you").mana_pool.update({"G": 4})
    g.cast("s", x=3)
    copy = g.copy_spell("s", "you")
    assert (copy.spell.x, copy.spell.mana_spent, copy.spell_copy) == (3, {}, True)
    g.resolve()
    assert g.state.player("you").life_gained_total == 0
    g.resolve()
    assert g.state.player("you").life_gained_total == 3
