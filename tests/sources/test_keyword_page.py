"""The French keyword page about Echo (corpus/000): rules quoted in French and English, notes.

Counts and texts below were read off the page (12 lines): an introduction line, a French
quotation marker, 3 French rule lines (702.27 Écho, 702.27a, 702.27b), 3 "-" bullets, an English
quotation marker, 3 English rule lines.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.model import Fragment, Note, ParseResult, Rule
from kb.sources import keyword_page
from kb.text.decode import decode

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
PAGE = CORPUS / "000_3e28a88beae8982b.txt"
# The two quotation markers are not kept as records: they only set the language of the rules
# that follow them.
BOILERPLATE = {
    "La traduction française des règles a dit :",
    "La version originale officielle des règles a dit :",
}


def read(path: Path) -> str:
    return decode(path.read_bytes()).text


@pytest.fixture(scope="module")
def page() -> ParseResult:
    return keyword_page.parse(read(PAGE), PAGE.name)


def rules(result: ParseResult, language: str) -> dict[str, Rule]:
    return {r.number: r for r in result.records if isinstance(r, Rule) and r.language == language}


def notes(result: ParseResult) -> list[Note]:
    return [r for r in result.records if isinstance(r, Note)]


def test_sniff_only_the_keyword_page() -> None:
    assert keyword_page.sniff(read(PAGE))
    for other in sorted(CORPUS.glob("00[1-4]_*.txt")):
        assert not keyword_page.sniff(read(other)), other.name


def test_metadata(page: ParseResult) -> None:
    assert page.format == "keyword_page"
    assert page.language == "fr"
    assert page.source_id == "kw:fr:echo"
    assert page.title == "Écho"
    # 702.27 is Echo's number in the rules of Magic 2010 (2009-07-11) to Magic 2012.
    assert page.version == "2009-07-11"


def test_french_rules(page: ParseResult) -> None:
    fr = rules(page, "fr")
    assert sorted(fr) == ["702.27", "702.27a", "702.27b"]
    assert fr["702.27"].title == fr["702.27"].text == "Écho"
    assert fr["702.27a"].text == (
        "L'écho est une capacité déclenchée. « Écho [coût] » signifie « Au début de votre "
        "entretien, si ce permanent est passé sous votre contrôle depuis le début de votre "
        "dernier entretien, sacrifiez le à moins que vous ne payiez son coût d'écho. »"
    )
    assert fr["702.27b"].text.startswith("Les cartes du bloc d'Urza avec l'écho")
    assert fr["702.27a"].parent == "702.27"
    assert fr["702.27"].parent == "702"
    assert fr["702.27a"].id == "kw:fr:echo:fr:702.27a"
    assert fr["702.27"].loc.line == 3
    assert all(r.version == "2009-07-11" for r in fr.values())


def test_english_rules(page: ParseResult) -> None:
    en = rules(page, "en")
    assert sorted(en) == ["702.27", "702.27a", "702.27b"]
    assert en["702.27"].title == "Echo"
    assert en["702.27a"].text == (
        "Echo is a triggered ability. “Echo [cost]” means “At the beginning of your upkeep, "
        "if this permanent came under your control since the beginning of your last upkeep, "
        "sacrifice it unless you pay [cost].”"
    )
    assert en["702.27b"].text.endswith("each one now has an echo cost equal to its mana cost.")
    assert en["702.27a"].id == "kw:fr:echo:en:702.27a"
    assert en["702.27a"].loc.line == 11
    assert not any(r.untranslated for r in en.values())


def test_notes(page: ParseResult) -> None:
    found = notes(page)
    assert len(found) == 4  # the introduction and the three bullets
    assert all(n.language == "fr" and n.topic == "Écho" for n in found)
    assert [n.loc.line for n in found] == [1, 6, 7, 8]
    assert "Spirale Temporelle" in found[0].text
    assert found[2].text == (
        "Payer l'écho est toujours optionnel. Quand la Capacité déclenchée de l'écho se résout, "
        "si le Contrôleur du permanent ne peut pas payer son coût d'écho, ou choisit de ne pas "
        "le faire, ce joueur sacrifie ce permanent."
    )
    assert [len(n.claims) for n in found] == [1, 3, 2, 1]
    assert found[1].claims[2] == "Pour toutes les cartes anciennes, ces deux coûts sont identiques."
    assert found[2].claims[0] == "Payer l'écho est toujours optionnel."


def test_no_fragments_and_unique_ids(page: ParseResult) -> None:
    assert not [r for r in page.records if isinstance(r, Fragment)]
    ids = [r.id for r in page.records]
    assert len(ids) == len(set(ids)) == 10


def normalize(line: str) -> str:
    return " ".join(re.sub(r"^\s*-\s+", "", line).split())


def test_conservation(page: ParseResult) -> None:
    texts = [normalize(r.text) for r in page.records]
    for line in read(PAGE).split("\n"):
        if not line.strip() or line.strip() in BOILERPLATE:
            continue
        body = normalize(re.sub(r"^\d{3}\.\d+[a-z]?\.?\s+", "", line))
        assert any(body in text for text in texts), line


def test_citations_in_notes() -> None:
    text = "La traduction française des règles a dit :\n702.27. Écho\n- Voir règle 702.27a.\n"
    result = keyword_page.parse(text, "x.txt")
    (note,) = notes(result)
    assert [c.first for c in note.citations] == ["702.27a"]


def test_empty() -> None:
    result = keyword_page.parse("", "empty.txt")
    assert result.records == ()
    assert result.version is None


def test_truncated_mid_rule() -> None:
    text = read(PAGE)
    cut = text[: text.index("sacrifiez le")]  # inside 702.27a, line 4
    result = keyword_page.parse(cut, PAGE.name)
    fr = rules(result, "fr")
    assert sorted(fr) == ["702.27", "702.27a"]
    assert fr["702.27a"].text.endswith("dernier entretien,")


def test_marker_without_rules_and_number_without_text() -> None:
    text = "702.27. Écho\n702.27c\nLa version originale officielle des règles a dit :\n"
    result = keyword_page.parse(text, "x.txt")
    fragments = [r for r in result.records if isinstance(r, Fragment)]
    assert [(f.loc.line, f.reason) for f in fragments] == [
        (2, "rule number without text"),
        (3, "rules quotation marker with no rule after it"),
    ]
    assert fragments[0].text == "702.27c"
