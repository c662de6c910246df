"""Mana that depends on other permanents (kb.engine.mana_abilities), from rules 106.5 and
106.7 (CR 2026-04-17)."""

from __future__ import annotations

import pytest

from kb.engine import IllegalAction
from kb.engine.mana_abilities import could_produce
from tests.engine.make import card, game

ORCHARD = card(name="Orchard", types=["Land"], abilities=[{
    "text": "{T}: Add one mana of any color that a land an opponent controls could produce.",
    "cost": "{T}", "effect": [{"op": "add_mana_of", "from": "opponents_lands_produce"}]}])
ISLAND = card(name="Island", types=["Land"], subtypes=["Island"])


def test_could_produce_looks_through_other_permanents_106_7() -> None:
    """106.7: "The type of mana a permanent could produce at any time includes any type of mana
    that an ability of that permanent would produce if the ability were to resolve at that
    time\""""
    g = game()
    g.add(ORCHARD, "you", "battlefield", alias="o")
    g.add(ISLAND, "opponent", "battlefield")
    assert could_produce(g.state, g.obj("o").id) == {"U"}
    with pytest.raises(IllegalAction, match="mana_color"):
        g.clone().activate("o", choices={"mana_color": "G"})
    g.activate("o", choices={"mana_color": "U"})  # a mana ability: no stack (605.3a)
    assert g.state.player("you").mana_pool["U"] == 1
