"""Exchanging control (kb.engine.exchange), from rule 701.12 (CR 2026-04-17)."""

from __future__ import annotations

from kb.engine.exchange import exchange_control
from tests.engine.make import creature, game


def test_exchange_is_all_or_nothing_701_12b() -> None:
    """701.12b: "each of those players simultaneously gains control of the permanent that was
    controlled by the other player. If, on the other hand, those permanents are controlled by
    the same player, the exchange effect does nothing"; 701.12a: nor if one of them is gone."""
    g = game()
    g.add(creature(1, 1), "you", "battlefield", alias="a")
    g.add(creature(1, 1), "you", "battlefield", alias="b")
    g.add(creature(1, 1), "opponent", "battlefield", alias="c")
    state = g.state
    assert not exchange_control(state, g.obj("a").id, g.obj("b").id)
    assert not exchange_control(state, g.obj("a").id, None)
    assert exchange_control(state, g.obj("a").id, g.obj("c").id)
    assert (state.controller(g.obj("a").id), state.controller(g.obj("c").id)) \
        == ("opponent", "you")
