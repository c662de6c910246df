"""One card across sources and spellings, one ruling across its publications (kb.link.cards).

The texts are the documents': the English Dragon's Maze FAQ of 2013-03-21 (shared
``faq-en/ormos_dgm_faq_2013-04-22.md``) prints "Ætherling" and its rulings; MTGJSON's DGM set
(shared ``rulings/``) prints "Aetherling" and the same rulings dated 2013-04-15, some of them
updated since (Oracle wording: "converted mana cost" became "mana value").
"""

from __future__ import annotations

import pytest

from kb.link.cards import (
    ABOUT_CARD,
    about_card,
    card_links,
    ruling_key,
    same_cards,
    same_rulings,
)
from kb.link.pairing import SAME_CARD, SAME_RULING
from kb.model import Card, CardFace, Loc, Ruling
from kb.sources import faq_md, mtgjson
from kb.text.decode import decode
from tests.link.test_pairing import shared

FAQ = "faq:en:dgm-2013-03-21"
LOC = Loc("test", 1)

FAQ_AETHERLING_1 = (
    "Ætherling’s first ability will return it to the battlefield only if that ability also "
    "exiled it. If Ætherling left the battlefield in response to that ability, it won’t "
    "return, even if it was exiled by another spell or ability.")
MTGJSON_AETHERLING_1 = (
    "Aetherling’s first ability will return it to the battlefield only if that ability also "
    "exiled it. If Aetherling left the battlefield in response to that ability, it won’t "
    "return, even if it was exiled by another spell or ability.")
# Gaze of Granite: the FAQ's ruling and MTGJSON's updated wording of it (an Oracle update).
FAQ_GAZE = ("The converted mana cost of a creature token is 0 unless that token is a copy of "
            "another creature, in which case it copies that creature’s mana cost.")
MTGJSON_GAZE = ("The mana value of a creature token is 0 unless that token is a copy of "
                "another creature, in which case it copies that creature’s mana cost.")


def card(card_id: str, name: str, text: str, language: str = "en") -> Card:
    return Card(card_id, name, language, LOC,
                (CardFace(name, "{4}{U}{U}", "Creature — Shapeshifter", text, "4", "5"),))


def ruling(ruling_id: str, text: str, card_name: str, day: str) -> Ruling:
    return Ruling(ruling_id, text, "en", LOC, card=card_name, date=day)


@pytest.fixture
def cards() -> list[Card]:
    return [
        card(f"{FAQ}:ætherling", "Ætherling", "{U}: Ætherling is unblockable this turn."),
        card("mtgjson:aetherling", "Aetherling", "{U}: Aetherling can't be blocked this turn."),
        card("mtgjson:gaze-of-granite", "Gaze of Granite", "Destroy each nonland permanent."),
    ]


def test_a_ruling_key_ignores_typography_and_spelling() -> None:
    assert ruling_key(FAQ_AETHERLING_1) == ruling_key(MTGJSON_AETHERLING_1)
    assert ruling_key("It can’t — “really”…") == ruling_key("It can't - \"really\"...")
    # A split card's halves joined with "&" (the FAQ), "//" or "/" (MTGJSON).
    said = "as a fused split spell, the Centaur creature token will count"
    faq, database = f"If you cast Alive & Well {said}", f"If you cast Alive // Well {said}"
    assert ruling_key(faq, "Alive // Well") == ruling_key(database, "Alive // Well")
    assert ruling_key(f"If you cast Catch/Release {said}", "Catch // Release") == \
        ruling_key(f"If you cast Catch & Release {said}", "Catch // Release")
    assert ruling_key(FAQ_GAZE) != ruling_key(MTGJSON_GAZE)


def test_one_card_across_spellings(cards) -> None:
    (pair,) = same_cards(cards)
    assert (pair.left, pair.right, pair.relation) == \
        (f"{FAQ}:ætherling", "mtgjson:aetherling", SAME_CARD)
    # The FAQ's "is unblockable" and the Oracle's "can't be blocked": one card, two texts.
    assert "names that fold alike (Ætherling = Aetherling)" in pair.evidence
    assert "their texts differ" in pair.evidence


def test_each_ruling_is_about_its_card(cards) -> None:
    rulings = [ruling(f"{FAQ}:ætherling/1", FAQ_AETHERLING_1, "Ætherling", "2013-03-21"),
               Ruling("rulings:004:1", "Aetherling can't be blocked.", "en", LOC,
                      card="Aetherling", date="2024-01-01")]
    about = {p.left: p for p in about_card(rulings, cards)}
    assert about[f"{FAQ}:ætherling/1"].right == f"{FAQ}:ætherling"
    # A rulings list names cards it does not print: the card database's card.
    assert about["rulings:004:1"].right == "mtgjson:aetherling"
    assert about["rulings:004:1"].relation == ABOUT_CARD


def test_one_ruling_however_many_places_publish_it(cards) -> None:
    rulings = [ruling(f"{FAQ}:ætherling/1", FAQ_AETHERLING_1, "Ætherling", "2013-03-21"),
               ruling("mtgjson:aetherling/1", MTGJSON_AETHERLING_1, "Aetherling", "2013-04-15"),
               ruling("mtgjson:aetherling/2", "Aetherling’s last ability can be activated.",
                      "Aetherling", "2013-04-15")]
    links = card_links(cards, rulings)
    same = [p for p in links if p.relation == SAME_RULING]
    assert [(p.left, p.right) for p in same] == [(f"{FAQ}:ætherling/1", "mtgjson:aetherling/1")]
    assert "published by faq on 2013-03-21 and by mtgjson on 2013-04-15" in same[0].evidence


def test_an_oracle_update_stays_apart(cards) -> None:
    gaze = [card(f"{FAQ}:gaze-of-granite", "Gaze of Granite", "Destroy each nonland permanent."),
            *cards]
    rulings = [ruling(f"{FAQ}:gaze-of-granite/2", FAQ_GAZE, "Gaze of Granite", "2013-03-21"),
               ruling("mtgjson:gaze-of-granite/2", MTGJSON_GAZE, "Gaze of Granite",
                      "2013-04-15")]
    about = list(about_card(rulings, gaze))
    assert same_rulings(rulings, about, same_cards(gaze), gaze) == []


def test_the_dragons_maze_faq_and_mtgjson() -> None:
    faq_path = shared("faq-en/ormos_dgm_faq_2013-04-22.md")
    faq = faq_md.parse(decode(faq_path.read_bytes()).text, faq_path.name)
    dgm_path = shared("rulings/mtgjson_v5.2.0_DGM.json")
    dgm = mtgjson.parse(decode(dgm_path.read_bytes()).text, dgm_path.name)
    records = [*faq.records, *dgm.records]
    cards = [r for r in records if isinstance(r, Card)]
    rulings = [r for r in records if isinstance(r, Ruling)]
    links = card_links(cards, rulings)
    same = {(p.left, p.right) for p in links if p.relation == SAME_RULING}
    # Ætherling's two rulings (FAQ lines 223 and 226), one each in MTGJSON.
    assert (f"{FAQ}:ætherling/1", "mtgjson:aetherling/1") in same
    assert (f"{FAQ}:ætherling/2", "mtgjson:aetherling/2") in same
    # Gaze of Granite's "converted mana cost" ruling, which MTGJSON words "mana value".
    gaze = next(r for r in rulings if r.id.startswith(f"{FAQ}:gaze-of-granite")
                and "converted mana cost of a creature token" in r.text)
    assert not any(left == gaze.id for left, _ in same)
    cards_same = {(p.left, p.right) for p in links if p.relation == SAME_CARD}
    assert (f"{FAQ}:ætherling", "mtgjson:aetherling") in cards_same
