"""Color identity (kb.engine.commander), from rule 903.4's text (CR 2026-04-17)."""

from __future__ import annotations

from kb.engine import card_from_data
from kb.engine.commander import color_identity, may_include
from tests.engine.make import card


def test_identity_counts_rules_text_symbols_but_not_reminder_text_903_4_903_4c() -> None:
    """903.4: "the color or colors of any mana symbols in that card's mana cost or rules text";
    903.4c: "Reminder text is ignored when determining a card's color identity.\""""
    hybrid = card(name="H", mana_cost="{1}{W/U}", types=["Instant"])
    text = card(name="T", types=["Artifact"], abilities=[
        {"text": "{T}: Add {G}. (Reminder: {B} isn't counted.)", "cost": "{T}",
         "effect": [{"op": "add_mana", "mana": "{G}"}]}])
    assert color_identity(hybrid) == {"white", "blue"}
    assert color_identity(text) == {"green"}


def test_back_face_color_indicator_counts_903_4d() -> None:
    """903.4d: "The back face of a double-faced card ... is included when determining a card's
    color identity.\""""
    dfc = card_from_data({"layout": "transform", "faces": [
        {"name": "Front", "mana_cost": "{G}", "types": ["Creature"], "power": 1,
         "toughness": 1},
        {"name": "Back", "color_indicator": ["black"], "types": ["Creature"], "power": 2,
         "toughness": 2}]}, "test")
    assert color_identity(dfc) == {"green", "black"}


def test_deck_construction_903_5c_903_5d() -> None:
    """903.5c: "every color in its color identity is also found in the color identity of the
    deck's commander"; 903.5d: "each color of mana it could produce".\""""
    commander = card(name="C", mana_cost="{U}", types=["Creature"], power=1, toughness=1)
    island = card(name="Island", types=["Land"], subtypes=["Island"])
    swamp = card(name="Swamp", types=["Land"], subtypes=["Swamp"])
    assert may_include(commander, island)
    assert not may_include(commander, swamp)
    assert may_include(commander, card(name="Rock", mana_cost="{3}", types=["Artifact"]))


def test_commander_is_an_attribute_of_the_card_903_3() -> None:
    """903.3: "This designation is not a characteristic of the object represented by the card;
    rather, it is an attribute of the card itself. The card retains this designation even when
    it changes zones.\""""
    from kb.engine.commander import is_commander
    from tests.engine.make import game

    g = game()
    g.add(card(name="C", mana_cost="{U}", types=["Creature"], power=1, toughness=1), "you",
          "hand", alias="c")
    g.state.commanders[g.state.aliases["c"]] = "you"
    g.enter("c")
    assert is_commander(g.state, g.obj("c"))
    g.add(card(name="D", types=["Creature"], power=1, toughness=1), "you", "battlefield",
          alias="d")
    g.effect([{"op": "become_copy", "who": "d", "of": "c"}], "you")
    assert not is_commander(g.state, g.obj("d"))
