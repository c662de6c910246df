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


MELD = [card_from_data({"layout": "meld", "faces": [
    {"name": front, "mana_cost": "{B}", "types": ["Creature"], "power": 1, "toughness": 1},
    {"name": "Host", "types": ["Creature"], "power": 5, "toughness": 6}]}, "test")
    for front in ("Left", "Right")]


def test_meld_a_pair_and_refuse_others_701_42a_701_42c() -> None:
    """701.42a: "put them onto the battlefield with their back faces up and combined. The
    resulting permanent is a single object represented by two cards." 701.42c: "If an effect
    instructs a player to meld objects that can't be melded, they stay in their current
    zone.\""""
    g = game()
    g.add(MELD[0], "you", "battlefield", alias="l")
    g.add(MELD[1], "you", "battlefield", alias="r")
    g.add(MELD[0], "you", "battlefield", alias="l2")
    g.effect([{"op": "meld", "who": "l", "with": "r"}], "you")
    assert (ch(g, "l").name, g.obj("l").zone, g.state.find("r")) == ("Host", "battlefield", None)
    g.effect([{"op": "transform", "who": "l"}], "you")  # 712.4c: ignored
    assert ch(g, "l").name == "Host"
    g.effect([{"op": "bounce", "who": "l"}], "you")  # 712.21: two cards go to the hand
    assert (g.obj("l").zone, g.obj("r").zone) == ("hand", "hand")
    g.add(MELD[0], "you", "battlefield", alias="l3")
    g.effect([{"op": "meld", "who": "l2", "with": "l3"}], "you")  # not a pair
    assert (g.obj("l2").zone, g.obj("l3").zone) == ("exile", "exile")
