"""Transforming (kb.engine.transform), from rules 701.27 and 712 (CR 2026-04-17)."""

from __future__ import annotations

from kb.engine import card_from_data
from tests.engine.make import ch, creature, game

DFC = card_from_data({"layout": "transform", "faces": [
    {"name": "Front", "mana_cost": "{1}{G}", "types": ["Creature"], "power": 1,
     "toughness": 1},
    {"name": "Back", "color_indicator": ["green"], "types": ["Creature"], "power": 3,
     "toughness": 3}]}, "test")


def test_transform_turns_over_and_back_701_27a() -> None:
    """701.27a: "To transform a permanent, turn it over so that its other face is up.\""""
    g = game()
    g.add(DFC, "you", "battlefield", alias="d")
    g.effect([{"op": "transform", "who": "d"}], "you")
    assert (ch(g, "d").name, ch(g, "d").power) == ("Back", 3)
    g.effect([{"op": "transform", "who": "d"}], "you")
    assert ch(g, "d").name == "Front"


def test_only_a_double_faced_card_transforms_701_27c_701_27d() -> None:
    """701.27c: "If a spell or ability instructs a player to transform a permanent that isn't
    represented by a double-faced token or a double-faced card, nothing happens." 701.27d:
    nor if "the face that permanent would transform into is an instant or sorcery face".\""""
    g = game()
    g.add(creature(2, 2, name="Plain"), "you", "battlefield", alias="p")
    g.effect([{"op": "transform", "who": "p"}], "you")
    assert not g.obj("p").transformed
    assert not [e for e in g.state.events if e.kind == "transformed"]
    siege = card_from_data({"layout": "transform", "faces": [
        {"name": "Siege", "mana_cost": "{R}", "types": ["Battle"], "subtypes": ["Siege"],
         "defense": 3},
        {"name": "Spell Face", "types": ["Sorcery"]}]}, "test")
    g.add(siege, "you", "battlefield", alias="s", protector="opponent")
    g.effect([{"op": "transform", "who": "s"}], "you")
    assert not g.obj("s").transformed


def test_flipping_is_one_way_and_needs_a_flip_card_710_4() -> None:
    """710.4: "Flipping a permanent is a one-way process. Once a permanent is flipped, it's
    impossible for it to become unflipped.\""""
    flip_card = card_from_data({"layout": "flip", "faces": [
        {"name": "Top", "mana_cost": "{U}", "types": ["Creature"], "power": 1, "toughness": 1},
        {"name": "Bottom", "mana_cost": "{U}", "types": ["Creature"], "power": 2,
         "toughness": 2}]}, "test")
    g = game()
    g.add(flip_card, "you", "battlefield", alias="f")
    g.add(creature(2, 2, name="Plain"), "you", "battlefield", alias="p")
    g.effect([{"op": "flip", "who": "f"}, {"op": "flip", "who": "f"},
              {"op": "flip", "who": "p"}], "you")
    assert (ch(g, "f").name, g.obj("f").flipped, g.obj("p").flipped) == ("Bottom", True, False)
