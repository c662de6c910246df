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


def test_searching_hidden_zones_may_find_fewer_701_23b() -> None:
    """701.23b: "If a player is searching a hidden zone for cards with a stated quality ...
    that player isn't required to find some or all of those cards even if they're present in
    that zone." The graveyard is not hidden: what is there is found."""
    g = game()
    named = card(name="Mine", types=["Artifact"])
    g.add(named, "opponent", "battlefield", alias="artifact")
    g.add(named, "opponent", "graveyard", alias="g")
    g.add(named, "opponent", "library", alias="l1")
    g.add(named, "opponent", "library", alias="l2")
    search = [{"op": "exile_same_name", "player": "opponent", "like": "artifact"}]
    g.effect(search, "you", choices={"found": []})
    assert [g.obj(a).zone for a in ("g", "l1", "l2")] == ["exile", "library", "library"]
    g.effect(search, "you")
    assert [g.obj(a).zone for a in ("l1", "l2")] == ["exile", "exile"]
