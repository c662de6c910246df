"""Small accessors that parser tests share: records of a kind, a card, a card's rulings."""

from __future__ import annotations

from kb.model import Card, ParseResult, Ruling


def of(result: ParseResult, kind: type) -> list:
    """The records of one kind, in reading order."""
    return [r for r in result.records if isinstance(r, kind)]


def card(result: ParseResult, name: str) -> Card:
    return next(c for c in of(result, Card) if c.name == name)


def rulings(result: ParseResult, name: str) -> list[Ruling]:
    return [r for r in of(result, Ruling) if r.card == name]
