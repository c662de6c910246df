"""One card across sources and spellings, one ruling however many places publish it.

The Dragon's Maze FAQ (2013-03-21) prints "Ætherling" and its rulings; MTGJSON prints
"Aetherling" and the same rulings, dated 2013-04-15, with straight or curly apostrophes as
each source writes them. Decided once, in the link stage:

- ``same-card``: an English card of one source -> the English card of the same name in the
  reference source (the source holding the most English cards, the card database), names
  compared folded (:func:`kb.text.normal.fold`: accents, Æ/ae, Œ/oe, apostrophes, case). Its
  evidence says what the two printings share (mana cost, types, P/T) and whether their texts
  differ: the FAQ's "is unblockable" and the Oracle text's "can't be blocked" are one card
  whose two texts are both kept, each with its source's date.
- ``about-card``: every ruling -> the card it is about: its own card in its source (a
  ruling's id is its card's id and an ordinal), else the card its ``card`` field names, in
  the reference source first (a dated rulings list names cards it does not print).
- ``same-ruling`` between English rulings: a ruling -> the ruling of the reference source
  that says the same once typography and spelling are normalised (:func:`ruling_key`), about
  the same card. Texts that differ in any word stay apart, each with its date: an Oracle
  erratum ("is unblockable" / "can't be blocked") is another ruling. A French ruling paired
  with one of them (:func:`kb.link.pairing.pair_rulings`) is so paired with all of them.

All functions are pure: records in, pairs out.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence

from kb.link.pairing import (
    ENGLISH,
    SAME_CARD,
    SAME_RULING,
    Pair,
    by_language,
    card_differences,
    reference_first,
    ruling_card,
    source_family,
)
from kb.model import Card, Ruling
from kb.text.normal import fold

ABOUT_CARD = "about-card"
# Dashes and the ellipsis are typography: folded like quotes, so that only words compare.
_TYPOGRAPHY = str.maketrans({"—": "-", "–": "-", "‐": "-", "‑": "-", "−": "-", "…": "...",
                             "“": '"', "”": '"', "«": '"', "»": '"', "\u00a0": " "})
_NOT_WORD = re.compile(r"[^\w{}+\-/]+")


def card_links(cards: Sequence[Card], rulings: Sequence[Ruling]) -> list[Pair]:
    """Every pair of this module: ``same-card``, ``about-card``, ``same-ruling``."""
    cards_same = same_cards(cards)
    about = list(about_card(rulings, cards))
    return [*cards_same, *about, *same_rulings(rulings, about, cards_same, cards)]


def ruling_key(text: str, name: str | None = None) -> str:
    """What a ruling says, without its typography or spelling: :func:`fold` (accents, Æ/ae,
    apostrophes, case), dashes and quotes made plain, a split card's name ``name`` however
    its halves are joined ("Alive & Well", "Alive // Well", "Alive/Well"), punctuation
    dropped, spaces collapsed. "Ætherling’s first ability" and "Aetherling's first ability"
    have one key."""
    folded = fold(unicodedata.normalize("NFKC", text).translate(_TYPOGRAPHY))
    halves = fold(name).split(" // ") if name else []
    if len(halves) > 1:
        joined = r"\s*(?:&|//|/)\s*".join(re.escape(h) for h in halves)
        folded = re.sub(joined, " // ".join(halves), folded)
    return " ".join(_NOT_WORD.sub(" ", folded).split())


def same_cards(cards: Iterable[Card]) -> list[Pair]:
    """``same-card`` pairs between English cards of different sources (module docstring)."""
    _, english = by_language(cards)
    by_key: dict[str, list[Card]] = defaultdict(list)
    for card in reference_first(english):
        by_key[fold(card.name)].append(card)
    pairs = []
    for group in by_key.values():
        reference = group[0]
        for card in group[1:]:
            if source_family(card.id) == source_family(reference.id):
                continue  # one source's two cards of a name are its own business
            pairs.append(_card_pair(card, reference))
    return pairs


def _card_pair(card: Card, reference: Card) -> Pair:
    spelled = ("the same name" if card.name == reference.name
               else f"names that fold alike ({card.name} = {reference.name})")
    differ = card_differences(card, reference)
    texts = [f.text for f in card.faces], [f.text for f in reference.faces]
    texts_differ = [ruling_key(t or "") for t in texts[0]] != \
        [ruling_key(t or "") for t in texts[1]]
    evidence = f"one card: {spelled}"
    confidence = 0.95 if card.name == reference.name else 0.9
    if differ:
        evidence += f"; but {', '.join(differ)} differ"
        confidence *= 0.5
    elif card.faces and reference.faces:
        evidence += "; same mana cost, types and power/toughness"
    if texts_differ:
        evidence += "; their texts differ (a printed text and its later Oracle wording)"
    return Pair(card.id, reference.id, SAME_CARD, evidence, round(confidence, 3))


def about_card(rulings: Iterable[Ruling], cards: Iterable[Card]) -> Iterator[Pair]:
    """``about-card`` pairs: each ruling and its card (module docstring)."""
    cards = list(cards)
    ids = {c.id for c in cards}
    by_name: dict[tuple[str, str], str] = {}
    for card in reference_first([c for c in cards if c.language == ENGLISH]) + \
            [c for c in cards if c.language != ENGLISH]:
        by_name.setdefault((card.language, fold(card.name)), card.id)
        by_name.setdefault(("", fold(card.name)), card.id)
    for ruling in rulings:
        own = ruling_card(ruling)
        if own in ids:
            yield Pair(ruling.id, own, ABOUT_CARD, "the card it is printed under", 1.0)
        elif ruling.card:
            key = fold(ruling.card)
            card_id = by_name.get((ruling.language, key)) or by_name.get(("", key))
            if card_id is not None:
                how = "inferred from its page" if ruling.card_inferred else "names the card"
                yield Pair(ruling.id, card_id, ABOUT_CARD, f"{how}: {ruling.card}",
                           0.8 if ruling.card_inferred else 0.9)


def same_rulings(rulings: Sequence[Ruling], about: Iterable[Pair],
                 card_pairs: Iterable[Pair], cards: Iterable[Card]) -> list[Pair]:
    """``same-ruling`` pairs between English rulings of one card that say the same
    (module docstring); ``about`` are the ``about-card`` pairs, ``card_pairs`` the
    ``same-card`` pairs between English cards."""
    reference_of = {p.left: p.right for p in card_pairs if p.relation == SAME_CARD}
    card_of = {p.left: reference_of.get(p.right, p.right) for p in about}
    names = {c.id: c.name for c in cards}
    order = {r.id: n for n, r in enumerate(_reference_rulings(rulings))}
    groups: dict[tuple[str, str], list[Ruling]] = defaultdict(list)
    for ruling in rulings:
        if ruling.language == ENGLISH and ruling.id in card_of:
            card = card_of[ruling.id]
            groups[(card, ruling_key(ruling.text, names.get(card)))].append(ruling)
    pairs = []
    for same in groups.values():
        same.sort(key=lambda r: order[r.id])
        reference = same[0]
        for ruling in same[1:]:
            if source_family(ruling.id) == source_family(reference.id):
                continue
            pairs.append(Pair(ruling.id, reference.id, SAME_RULING,
                              "one ruling: the same text once typography and spelling are "
                              f"normalised, published {_where(ruling)} and {_where(reference)}",
                              1.0))
    return pairs


def _reference_rulings(rulings: Sequence[Ruling]) -> list[Ruling]:
    """Rulings of the source holding the most of them first (the card database), then by
    date: a group's first ruling is the one the others point to."""
    sizes: dict[str, int] = defaultdict(int)
    for ruling in rulings:
        sizes[source_family(ruling_card(ruling) or ruling.id)] += 1
    return sorted(rulings, key=lambda r: (-sizes[source_family(ruling_card(r) or r.id)],
                                          r.date or "", r.id))


def _where(ruling: Ruling) -> str:
    source = ruling.id.split(":", 1)[0]
    return f"by {source} on {ruling.date}" if ruling.date else f"by {source}"
