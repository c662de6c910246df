"""Instructions in which each player chooses (kb.engine.choices), from rule 101.4 (CR
2026-04-17)."""

from __future__ import annotations

import pytest

from kb.engine import IllegalAction
from tests.engine.make import card, creature, game


def test_each_player_sacrifices_their_choice_101_4() -> None:
    """101.4: "each player, in APNAP order, makes any choices required, after which those
    actions happen simultaneously"; a player with nothing to sacrifice sacrifices nothing."""
    g = game(players=("you", "opponent", "third"))
    g.add(creature(1, 1), "you", "battlefield", alias="a")
    g.add(creature(1, 1), "you", "battlefield", alias="b")
    g.add(card(types=["Artifact"]), "opponent", "battlefield", alias="rock")
    edict = [{"op": "each_sacrifices", "filter": {"types": ["Creature"]}}]
    with pytest.raises(IllegalAction, match="choices.sacrificed"):
        g.clone().effect(edict, "you", choices={"sacrificed": {"you": "rock"}})
    g.effect(edict, "you", choices={"sacrificed": {"you": "b"}})
    assert (g.obj("a").zone, g.obj("b").zone, g.obj("rock").zone) \
        == ("battlefield", "graveyard", "battlefield")
