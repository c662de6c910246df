"""Small accessors that parser tests share: records of a kind, a card, a card's rulings."""

from __future__ import annotations

from kb.model import Card, ParseResult, Rule, Ruling


def of(result: ParseResult, kind: type) -> list:
    """The records of one kind, in reading order."""
    return [r for r in result.records if isinstance(r, kind)]


def card(result: ParseResult, name: str) -> Card:
    return next(c for c in of(result, Card) if c.name == name)


def rulings(result: ParseResult, name: str) -> list[Ruling]:
    return [r for r in of(result, Ruling) if r.card == name]


def strings(record) -> list[str]:
    """Every piece of text a record holds, for the tests that check nothing was lost."""
    out = [getattr(record, f, None) for f in ("text", "topic", "name", "card_text")]
    for face in getattr(record, "faces", ()):
        out += [face.name, face.mana_cost, face.type_line, face.text]
        if face.power is not None:
            out.append(f"{face.power}/{face.toughness}")
    if isinstance(record, Rule):
        out += [f"{record.number} {record.text}", f"{record.number}. {record.text}"]
    return [s for s in out if s]
