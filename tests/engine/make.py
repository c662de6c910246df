"""Small builders the engine tests share: cards from keyword arguments, a two-player game."""

from __future__ import annotations

from typing import Any

from kb.engine import Game, card_from_data
from kb.engine.objects import Printed
from kb.engine.rules import CURRENT, RuleSet


def card(**data: Any) -> Printed:
    """A card from its definition's fields (see kb/engine/cards.py)."""
    return card_from_data(data, "test card")


def creature(power: int, toughness: int, **data: Any) -> Printed:
    return card(types=["Creature"], power=power, toughness=toughness, **data)


def game(rules: RuleSet = CURRENT, players: tuple[str, ...] = ("you", "opponent"),
         **options: Any) -> Game:
    return Game(players, rules, **options)


def ch(g: Game, alias: str) -> Any:
    """The characteristics of the object called ``alias`` now."""
    return g.state.characteristics(g.obj(alias).id)
