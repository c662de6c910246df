"""Amounts abilities compute ("X", "its power", counts), and filters on objects."""

from __future__ import annotations

import pytest

from kb.engine import EngineError
from kb.engine.amounts import Ctx, evaluate
from kb.engine.filters import matches
from kb.engine.objects import SpellInfo
from tests.engine.make import card, ch, creature, game


def test_counts_and_adjustments() -> None:
    g = game()
    source = g.add(creature(2, 3), "you", "battlefield", counters={"verse": 2})
    g.add(creature(1, 1), "you", "graveyard")
    g.add(card(types=["Instant"]), "opponent", "graveyard")
    g.add(creature(1, 1), "you", "hand")
    ctx = Ctx(g.state, "you", source.id, spell=SpellInfo(x=4))
    assert [evaluate(e, ctx) for e in ("X", "power", "toughness+1", "counters:verse",
                                       "cards:hand:you", "cards:graveyard:all",
                                       "cards:graveyard:you:Creature",
                                       "card_types:graveyard:all", "3")] == \
        [4, 2, 4, 2, 1, 2, 1, 2, 3]


def test_unknown_amounts_are_refused() -> None:
    g = game()
    with pytest.raises(EngineError, match="unknown amount"):
        evaluate("luck", Ctx(g.state, "you"))


def test_filters_read_characteristics_and_controller() -> None:
    g = game()
    g.add(creature(1, 1, colors=["white"]), "you", "battlefield", alias="w")
    obj = g.obj("w")
    assert matches(obj, ch(g, "w"), {"types": ["Creature"], "colors": ["white"],
                                     "controller": "you"}, you="you")
    assert not matches(obj, ch(g, "w"), {"controller": "opponent"}, you="you",
                       opponents=("opponent",))
    with pytest.raises(EngineError, match="unknown filter keys"):
        matches(obj, ch(g, "w"), {"colour": ["white"]}, you="you")


def test_a_changeling_shares_a_creature_type_with_every_typed_creature_702_73a() -> None:
    """702.73a: changeling is every creature type, so it shares one with any creature that
    has a creature type (and none with a creature that has none)."""
    coat = card(name="Coat", types=["Artifact"], abilities=[{
        "text": "Each creature gets +1/+1 for each other creature that shares a type with it.",
        "static": {"affects": {"types": ["Creature"]},
                   "pump": ["others_sharing_creature_type", "others_sharing_creature_type"]}}])
    g = game()
    g.add(coat, "you", "battlefield")
    g.add(creature(1, 1, name="Shifter", keywords=["Changeling"]), "you", "battlefield",
          alias="shifter")
    g.add(creature(1, 1, name="Elf", subtypes=["Elf"]), "you", "battlefield", alias="elf")
    g.add(creature(1, 1, name="Goblin", subtypes=["Goblin"]), "opponent", "battlefield",
          alias="goblin")
    g.add(creature(1, 1, name="Blob"), "you", "battlefield", alias="blob")
    assert ch(g, "shifter").power == 3  # the Elf and the Goblin
    assert ch(g, "elf").power == 2  # the changeling only
    assert ch(g, "blob").power == 1  # no creature type: shares none
