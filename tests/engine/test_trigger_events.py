"""Trigger events beyond the seeds' (kb.engine.trigger_events), each from its rule's text (CR
2026-04-17)."""

from __future__ import annotations

from kb.engine import Game
from tests.engine.make import card, creature, game


def _watcher(trigger: dict[str, object]) -> object:
    return card(name="Watcher", types=["Enchantment"], abilities=[{
        "text": "watch", "trigger": trigger,
        "effect": [{"op": "gain_life", "player": "you", "n": 1}]}])


def _count(g: Game) -> int:
    card_id = g.state.aliases["w"]
    return sum(1 for e in g.state.events if e.kind == "triggered" and e.card == card_id)


def test_zone_change_with_filters_603_6() -> None:
    """603.6a: "Enters-the-battlefield abilities trigger when a permanent enters the
    battlefield"; 603.6c: "Leaves-the-battlefield abilities trigger when a permanent moves
    from the battlefield to another zone" (here: into exile, from a filter on artifacts)."""
    g = game()
    g.add(_watcher({"on": "zone_change", "from": "battlefield", "to": "exile",
                    "what": {"types": ["Artifact"]}}), "you", "battlefield", alias="w")
    g.add(card(types=["Artifact"]), "opponent", "battlefield", alias="rock")
    g.add(creature(1, 1), "you", "battlefield", alias="c")
    g.effect([{"op": "exile", "who": "rock"}, {"op": "exile", "who": "c"}], "you")
    assert _count(g) == 1


def test_life_gained_and_lost_by_whom_603_2() -> None:
    """603.2: "Whenever a game event or game state matches a triggered ability's trigger
    event, that ability automatically triggers" ("whenever an opponent loses life")."""
    g = game()
    g.add(_watcher({"on": "life_lost", "whose": "opponent"}), "you", "battlefield", alias="w")
    g.effect([{"op": "lose_life", "player": "you", "n": 1},
              {"op": "lose_life", "player": "opponent", "n": 2}], "you")
    assert _count(g) == 1


def test_expend_counts_mana_spent_on_spells_this_turn_700_14() -> None:
    """700.14: "A player expends N if they pay a cost to cast a spell and the amount of mana
    that player spent this turn to cast spells prior to paying that cost was less than N and
    became at least N after paying that cost.\""""
    g = game()
    g.add(_watcher({"on": "expend", "n": 2}), "you", "battlefield", alias="w")
    for i in range(3):
        g.add(card(name=f"Opt {i}", mana_cost="{U}", types=["Instant"]), "you", "hand",
              alias=f"opt{i}")
    g.state.player("you").mana_pool["U"] += 3
    counts = []
    for i in range(3):
        g.cast(f"opt{i}")
        counts.append(_count(g))
        g.resolve_all()
    assert counts == [0, 1, 1]


def test_a_trigger_event_out_of_range_triggers_nothing_801_7() -> None:
    """801.7: "A triggered ability doesn't trigger unless its trigger event happens entirely
    within the range of influence of its source's controller.\""""
    from kb.engine.multiplayer import Multiplayer

    seats = ("a", "b", "c", "d", "e")
    g = game(players=seats)
    g.state.multiplayer = Multiplayer.from_options(seats, {"range": 1})
    g.add(_watcher({"on": "life_lost", "whose": "any"}), "a", "battlefield", alias="w")
    g.effect([{"op": "lose_life", "player": "b", "n": 1}], "b")  # b sits next to a
    g.effect([{"op": "lose_life", "player": "c", "n": 1}], "c")  # c is two seats away
    assert _count(g) == 1
