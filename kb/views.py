"""What ``kb rule`` and ``kb card`` show: a rule with its texts, citations and versions, a
card with its texts and rulings (plain dataclasses, made by :class:`kb.reader.KnowledgeBase`).

Apart from :mod:`kb.reader` because a search shows none of them: a cold ``kb search`` does not
create their classes (a dataclass costs about a millisecond to create; these, ten).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kb.codec import to_dict
from kb.i18n import _
from kb.model import Card, Ruling


@dataclass(frozen=True)
class CitingRecord:
    id: str
    kind: str
    number: str | None
    written: str
    language: str = ""  # of the record; "pt" for every record of a Portuguese document
    file: str = ""


@dataclass(frozen=True)
class WordMatch:
    """The rule a word was taken to name, and why (a glossary entry or a rule title)."""

    word: str
    rule: str
    term: str
    definition: str | None
    via: str  # the record id that named it


@dataclass(frozen=True)
class RuleText:
    """One document's text of a rule: what :class:`RuleView` (the rule asked for) and
    :class:`LinkedText` (the same rule in another language or document) both begin with."""

    id: str
    number: str
    language: str
    version: str
    title: str | None
    text: str
    source: dict[str, Any]


@dataclass(frozen=True)
class RuleView(RuleText):
    """A rule as ``kb rule`` shows it."""

    examples: list[str] = field(default_factory=list)
    children: list[str] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)
    cited_by: list[CitingRecord] = field(default_factory=list)
    # The same rule in other languages and documents (a French translation, an older
    # version's number quoted by a FAQ), linked by the rule's identity across versions.
    texts: list[LinkedText] = field(default_factory=list)
    # The rule's number in every ingested CR version where it has a counterpart.
    versions: dict[str, str] = field(default_factory=dict)
    # Languages asked for (--lang fr) that no text of this rule is in.
    missing: list[str] = field(default_factory=list)
    # The title of the rule or of its nearest titled ancestor in the same document: a heading
    # says number, title and version (702.19b, Trample, 2026-04-17).
    heading: str | None = None


@dataclass(frozen=True)
class CitedRule:
    """A rule another document's text cites, read as the build read it: the number as
    written in the text (``number``), in the rules ``version`` the text is read against, and
    that rule's number ``today`` (None once it is gone): "règle 708" of the 2013 FAQ is 708 of
    2012-10-01, today 709."""

    written: str
    number: str
    version: str | None
    date: str | None  # the text's own date (a year alone for some documents)
    today: str | None
    note: str | None = None  # "708 in 2013, today 709" when the number changed since

    @classmethod
    def of(cls, written: str, number: str, version: str | None, day: str | None,
           today: str | None) -> CitedRule:
        note = None
        if version is not None and today != number:
            when = (day or version)[:4]
            note = (_("{number} in {year}, today {today}").format(
                number=number, year=when, today=today) if today
                else _("{number} in {year}, no rule today").format(number=number, year=when))
        return cls(written, number, version, day, today, note)


@dataclass(frozen=True)
class LinkedText(RuleText):
    untranslated: bool
    inferred: bool
    evidence: str
    examples: list[str] = field(default_factory=list)
    # A community translation of the whole rules (never official text: WotC publishes the
    # Comprehensive Rules in English only).
    community: bool = False
    basis: str = ""  # what the build paired it on (see kb.model.Link)
    cites: list[CitedRule] = field(default_factory=list)


@dataclass(frozen=True)
class CardText:
    id: str
    name: str
    language: str
    faces: list[dict[str, Any]]
    card_text: str | None
    source: dict[str, Any]
    date: str | None = None  # of its source: a FAQ's printed text, a database's Oracle text


@dataclass(frozen=True)
class RulingText:
    id: str
    language: str
    date: str | None
    text: str
    source: dict[str, Any]


@dataclass(frozen=True)
class RulingPair:
    """A ruling and its translation; either side may be missing. ``sources``: every
    publication of the English ruling, oldest first (the FAQ of 2013-03-21, MTGJSON's copy
    of 2013-04-15), ``en`` being the latest."""

    en: RulingText | None
    fr: RulingText | None
    evidence: str | None
    sources: list[RulingText] = field(default_factory=list)


@dataclass(frozen=True)
class CardView:
    """A card as ``kb card`` shows it: every source's text, rulings side by side, rules."""

    name: str
    texts: list[CardText]
    rulings: list[RulingPair]
    rules: list[str]


def card_text(card: Card, dates: dict[str, str | None]) -> CardText:
    """A card's text, dated by its source (``dates``: file -> the source's date)."""
    return CardText(card.id, card.name, card.language, [to_dict(f) for f in card.faces],
                    card.card_text, {"file": card.loc.file, "line": card.loc.line},
                    dates.get(card.loc.file))


def publication_order(ruling: Ruling) -> tuple[str, str]:
    return ruling.date or "", ruling.id


def ruling_text(ruling: Ruling) -> RulingText:
    return RulingText(ruling.id, ruling.language, ruling.date, ruling.text,
                      {"file": ruling.loc.file, "line": ruling.loc.line})
