"""Reflexive triggered abilities (kb.engine.reflexive), from rule 603.12 (CR 2026-04-17)."""

from __future__ import annotations

from kb.engine import Game
from tests.engine.make import creature, game

MANTICORE = creature(4, 3, name="Manticore", abilities=[{
    "text": "When this creature enters, you may sacrifice another creature. When you do, ...",
    "trigger": {"on": "enters"},
    "effect": [{"op": "reflexive", "text": "When you do, it deals damage.",
                "do": [{"op": "sacrifice", "who": "choice:sacrificed", "may": "sacrifice"}],
                "targets": [{"kind": "any"}],
                "then": [{"op": "damage", "to": "target", "amount": "extra.done_power"}]}]}])


def _play(choices: dict[str, object]) -> Game:
    g = game()
    g.add(MANTICORE, "you", "hand", alias="m")
    g.add(creature(3, 3), "you", "battlefield", alias="victim")
    g.enter("m")
    g.trigger_targets = {"m": [["opponent"]]}
    g.resolve(choices)
    g.resolve_all()
    return g


def test_when_you_do_triggers_only_if_it_was_done_603_12() -> None:
    """603.12: "A resolving spell or ability may allow or instruct a player to take an action
    and create a triggered ability that triggers 'when [a player] [does or doesn't]' take that
    action.\""""
    done = _play({"sacrifice": True, "sacrificed": "victim"})
    assert done.state.player("opponent").life == 17
    declined = _play({"sacrifice": False})
    assert declined.state.player("opponent").life == 20
    assert declined.obj("victim").zone == "battlefield"
