"""A rule's history table: one row per change, in date order, in plain words, each other
document's text labelled with its document's language.

The entries are those ``kb history 702.19b`` gives over the whole shared corpus: the English
rules of 2006, 2013, 2020 (the Brazilian site's English source), 2023, 2025 and 2026, and the
paragraph the two Portuguese documents of 2020-11-20 (the translation catalogue and the site's
702 page) left in English.
"""

from __future__ import annotations

from kb.history import HistoryEntry, Piece
from kb.web.documents import Document
from kb.web.timeline import rows

CR = "Magic: The Gathering Comprehensive Rules"
DOCUMENTS = {
    "cr-en/MagicCompRules 20061001.txt": Document(
        "cr-en/MagicCompRules 20061001.txt", CR, "cr_text", "en", "2006-10-01"),
    "cr-other/magicjudgesbr_comprehensive-rules_pt-BR_20201120.po": Document(
        "cr-other/magicjudgesbr_comprehensive-rules_pt-BR_20201120.po",
        "Magic: The Gathering Regras Abrangentes", "po_catalog", "pt", "2020-11-20"),
    "html/magicjudgesbr_regras_cr_7_702.html": Document(
        "html/magicjudgesbr_regras_cr_7_702.html", "702. Habilidades de Palavra-chave",
        "html_rules", "pt", "2020-11-20"),
}
# The first sentence of 702.19b in 2020-11-20 (the Portuguese documents kept it in English).
TEXT_2020 = ("The controller of an attacking creature with trample first assigns damage to the "
             "creature(s) blocking it.")


def _english(version: str, number: str, change: str, previous: str | None = None,
             text: str = TEXT_2020) -> HistoryEntry:
    return HistoryEntry("702.19b", version, number, "en", text, change,
                        source={"file": f"cr-en/MagicCompRules {version.replace('-', '')}.txt",
                                "line": 1}, previous=previous,
                        diff=[Piece("equal", text)] if "changed" in change else [])


def _portuguese(file: str, line: int) -> HistoryEntry:
    return HistoryEntry("702.19b", "2020-11-20", "702.19b", "en", TEXT_2020, "quote",
                        source={"file": file, "line": line}, corresponds_to="2020-11-20",
                        english_number="702.19b", basis="signals", stale=True)


ENTRIES = [
    _english("2006-10-01", "502.9b", "first-held"),
    _english("2013-05-01", "702.18b", "renumbered+changed", "502.9b"),
    _english("2020-11-20", "702.19b", "renumbered+changed", "702.18b"),
    _portuguese("cr-other/magicjudgesbr_comprehensive-rules_pt-BR_20201120.po", 5329),
    _portuguese("html/magicjudgesbr_regras_cr_7_702.html", 1389),
    _english("2023-04-14", "702.19b", "changed", "702.19b"),
    _english("2025-02-07", "702.19b", "unchanged", "702.19b"),
    _english("2026-04-17", "702.19b", "unchanged", "702.19b"),
]


def _document(file: str) -> Document:
    return DOCUMENTS.get(file) or Document(file, CR, "cr_text", "en", None)


def test_one_row_per_change_in_date_order() -> None:
    table = rows(ENTRIES, _document)
    assert [(r.date, r.until) for r in table] == [
        ("2006-10-01", None), ("2013-05-01", None), ("2020-11-20", None), ("2020-11-20", None),
        ("2023-04-14", "2026-04-17")]
    assert [r.english for r in table] == [True, True, True, False, True]
    assert table[-1].unchanged == 2


def test_plain_words() -> None:
    said = [r.what for r in rows(ENTRIES, _document)]
    assert said[:3] == ["Oldest text held", "Renumbered from 502.9b and reworded",
                        "Renumbered from 702.18b and reworded"]
    assert said[4] == "Reworded"
    assert said[3] == ("Left in English in this document: the English of 2020-11-20; "
                       "the English has changed since")


def test_portuguese_documents_are_pt_and_one_row_names_both() -> None:
    portuguese = [r for r in rows(ENTRIES, _document) if not r.english]
    assert len(portuguese) == 1
    row = portuguese[0]
    assert row.language == "pt" and row.text_language == "en"
    assert [(d.title, line) for d, line in row.documents] == [
        ("Magic: The Gathering Regras Abrangentes", 5329),
        ("702. Habilidades de Palavra-chave", 1389)]
    assert not row.show_text  # the same words as the English of 2020-11-20 just above


def test_a_translation_says_whether_the_english_moved_on() -> None:
    # Seed 003 (a French CR page, 2024) translates 707.2a as worded since 2023-04-14.
    french = HistoryEntry("707.2a", "2024", "707.2a", "fr", "Une copie acquiert les couleurs "
                          "de l'objet qu'elle copie.", "translation",
                          source={"file": "003_45f11bb513e6f443.txt", "line": 10},
                          corresponds_to="2023-04-14", english_number="707.2a", stale=False)
    page = Document("003_45f11bb513e6f443.txt", None, "cr_table", "fr", "2024")
    (row,) = rows([french], lambda file: page)
    assert row.language == "fr" and row.show_text
    assert row.what == ("French translation of the English of 2023-04-14; "
                        "the English has not changed since")
    assert page.label == "Comprehensive Rules page, 2024"
