"""The Crystal Keep page "Additional Rules for Urza's Saga" (corpus/002), the 1998 rules insert.

Read off the page: 9 headings (the title and 8 sections), 22 paragraphs and bullets, 6
"Example:" paragraphs (4 of them quote a card's text on indented lines), 7 cards named.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.model import Card, Example, Fragment, Note, ParseResult
from kb.sources import crystal_keep
from kb.text.decode import decode
from tests.records import of

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
PAGE = CORPUS / "002_6c6ccf816af3a3ad.txt"
# Site chrome the parser strips (lines 1, 2 and 84 of the page).
BOILERPLATE = {
    "The Gaming Resource Library",
    "Go To: Home Page - Magic - Rules - Urza's Saga Rules",
    "Copyright 1994-2008, Crystal Keep (The Fine Print)",
}
HEADINGS = [
    "Additional Rules for Urza's Saga",
    "Cycling",
    "Echo",
    "New Enchantments",
    '"Sleeping" Enchantments',
    '"Growing" Enchantments',
    "Rules Changes for Urza's Saga",
    "Effect Duration",
    "Trample",
]


def read(path: Path) -> str:
    return decode(path.read_bytes()).text


@pytest.fixture(scope="module")
def page() -> ParseResult:
    return crystal_keep.parse(read(PAGE), PAGE.name)




def test_sniff_only_crystal_keep() -> None:
    assert crystal_keep.sniff(read(PAGE))
    for other in sorted(CORPUS.glob("00[0134]_*.txt")):
        assert not crystal_keep.sniff(read(other)), other.name


def test_metadata(page: ParseResult) -> None:
    assert page.format == "crystal_keep"
    assert page.language == "en"
    assert page.version == "1998-10-12"  # Urza's Saga release date: the page states none
    assert page.title == "Additional Rules for Urza's Saga"
    assert page.source_id == "crystalkeep:urza-s-saga"


def test_notes_per_section(page: ParseResult) -> None:
    notes = of(page, Note)
    assert len(notes) == 22
    per_topic = {h: sum(1 for n in notes if n.topic == h) for h in HEADINGS}
    assert per_topic == {
        "Additional Rules for Urza's Saga": 1,
        "Cycling": 3,
        "Echo": 3,
        "New Enchantments": 1,
        '"Sleeping" Enchantments': 3,
        '"Growing" Enchantments': 3,
        "Rules Changes for Urza's Saga": 1,
        "Effect Duration": 2,
        "Trample": 5,
    }
    assert all(n.language == "en" for n in notes)
    echo = [n for n in notes if n.topic == "Echo"]
    assert echo[1].text == (
        "The payment is required any time a permanent with echo comes under your control, "
        "not just when you play one from your hand."
    )
    assert echo[1].id == "crystalkeep:urza-s-saga:echo/2"


def test_trample_bullets(page: ParseResult) -> None:
    trample = [n for n in of(page, Note) if n.topic == "Trample"]
    assert [n.loc.line for n in trample] == [72, 74, 76, 78, 80]
    # The bullet marker "•" is dropped; the text is kept.
    assert trample[1].text == (
        "If the attacker is unblocked, it deals all its damage to the defending player."
    )
    assert trample[4].text.startswith("Blocking creatures that cannot receive combat damage")


def test_examples(page: ParseResult) -> None:
    examples = of(page, Example)
    assert [(e.rule, e.ordinal, e.loc.line) for e in examples] == [
        ("Cycling", 1, 12),
        ("Echo", 1, 23),
        ("Echo", 2, 27),
        ('"Sleeping" Enchantments', 1, 39),
        ('"Growing" Enchantments', 1, 50),
        ("Effect Duration", 1, 65),
    ]
    assert all(e.version == "1998-10-12" and e.language == "en" for e in examples)
    gargoyle = examples[3]
    assert gargoyle.id == "crystalkeep:urza-s-saga:sleeping-enchantments/ex1"
    assert gargoyle.text == (
        "Example: Opal Gargoyle is a white enchantment that reads:\n"
        "    When one of your opponents successfully casts a creature spell, if Opal Gargoyle "
        "is an enchantment, Opal Gargoyle becomes a 2/2 creature with flying that counts as a "
        "Gargoyle."
    )
    # An example quoting no card text is one line.
    assert examples[2].text == (
        "Example: You cast Control Magic on your opponent's Pouncing Jaguar. On your next "
        "upkeep, you must either pay {G} (which may be difficult if you're playing a pure blue "
        "deck!) or sacrifice the Pouncing Jaguar, just as if you had summoned it yourself."
    )


def test_cards(page: ParseResult) -> None:
    cards = {c.name: c for c in of(page, Card)}
    assert list(cards) == [
        "Rune of Protection: White",
        "Pouncing Jaguar",
        "Control Magic",
        "Opal Gargoyle",
        "Torch Song",
        "Enchantment Alteration",
        "Gaseous Form",
    ]
    (face,) = cards["Enchantment Alteration"].faces
    assert face.type_line == "Instant"
    assert face.text == (
        "Move target enchantment from one creature to another or from one land to another. "
        "(The enchantment's new target must be legal.)"
    )
    assert cards["Torch Song"].faces[0].text.startswith("During your upkeep, you may put")
    assert cards["Control Magic"].faces == ()
    assert cards["Gaseous Form"].loc.line == 80


def test_no_fragments_and_unique_ids(page: ParseResult) -> None:
    assert of(page, Fragment) == []
    ids = [r.id for r in page.records]
    assert len(ids) == len(set(ids)) == 22 + 6 + 7


def normalize(line: str) -> str:
    return " ".join(re.sub(r"^\s*•\s+", "", line).split())


def test_conservation(page: ParseResult) -> None:
    """Every line is in a record's text, is a heading (kept as the topic of the records under
    it), or is site chrome."""
    texts = [normalize(r.text) for r in page.records if not isinstance(r, Card)]
    topics = {r.topic for r in of(page, Note)} | {e.rule for e in of(page, Example)}
    assert topics == set(HEADINGS)
    for line in read(PAGE).split("\n"):
        stripped = line.strip()
        if not stripped or stripped in BOILERPLATE or stripped in topics:
            continue
        assert any(normalize(line) in text for text in texts), line


def test_empty() -> None:
    result = crystal_keep.parse("", "empty.txt")
    assert result.records == ()
    assert result.title is None


def test_truncated_after_a_heading() -> None:
    text = read(PAGE)
    cut = text[: text.index("Trample's effect")]  # ends with the "Trample" heading
    result = crystal_keep.parse(cut, PAGE.name)
    (fragment,) = of(result, Fragment)
    assert fragment.text == "Trample"
    assert fragment.reason == "heading with no text under it"
    assert fragment.loc.line == 70


def test_example_before_any_heading() -> None:
    text = "Example: Torch Song is a red enchantment that reads:\n    During your upkeep.\n"
    result = crystal_keep.parse(text, "x.txt")
    (fragment,) = of(result, Fragment)
    assert fragment.reason == "example outside any section"
    assert fragment.loc.line == 1
    assert fragment.text.endswith("\n    During your upkeep.")
