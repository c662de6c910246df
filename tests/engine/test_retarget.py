"""Changing a spell's targets (kb.engine.retarget), from rule 115.7 (CR 2026-04-17)."""

from __future__ import annotations

from kb.engine.retarget import change_targets
from tests.engine.make import card, creature, game

BOLT = card(name="Bolt", mana_cost="{R}", types=["Instant"], abilities=[{
    "text": "Bolt deals 3 damage to target creature.", "targets": [{"kind": "creature"}],
    "spell": [{"op": "damage", "to": "target", "amount": 3}]}])


def test_an_illegal_new_target_leaves_the_old_one_115_7() -> None:
    """115.7d: "the player may leave any number of the targets unchanged ... If the player
    chooses to change some or all of the targets, the new targets must be legal"."""
    g = game()
    g.add(creature(2, 2), "opponent", "battlefield", alias="first")
    g.add(creature(2, 2, keywords=["Shroud"]), "opponent", "battlefield", alias="shrouded")
    g.add(creature(2, 2), "opponent", "battlefield", alias="second")
    g.add(BOLT, "you", "hand", alias="bolt")
    g.state.player("you").mana_pool["R"] += 1
    spell = g.cast("bolt", targets=["first"])
    change_targets(g.state, spell.id, [["shrouded"]])
    assert spell.spell.targets == [[g.obj("first").id]]
    change_targets(g.state, spell.id, [["second"]])
    assert spell.spell.targets == [[g.obj("second").id]]
