import pytest

from kb.link.citations import find_citations


def targets(text: str) -> list[str]:
    return [c.target for c in find_citations("r", text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("See rule 704.", ["704"]),
        ("(see rule 709.4)", ["709.4"]),
        ("rules 601.2a-h", ["601.2a-601.2h"]),
        ("rules 103.4 and 103.5", ["103.4", "103.5"]),
        ("rules 702.45–702.47", ["702.45-702.47"]),
        ("See rules 508.1, 509.1, and 510.1c.", ["508.1", "509.1", "510.1c"]),
        ('See section 8, "Multiplayer Rules."', ["8"]),
        ("(voir règle 708, « Cartes doubles »)", ["708"]),
        ("cf. règle 110.5", ["110.5"]),
        ("(Voir règle 601.2e.)", ["601.2e"]),
        ("Veja a regra 702.19b.", ["702.19b"]),
    ],
)
def test_citation_forms(text, expected):
    assert targets(text) == expected


@pytest.mark.parametrize(
    "text", ["Each player sets their life total to 20.", "version 2.5 of the rules", "702.19b"]
)
def test_numbers_without_a_leading_word_are_not_citations(text):
    assert targets(text) == []


def test_written_form_is_kept():
    (c,) = find_citations("cr:en:x:702.100c", "(See rule 601.2e.)")
    assert (c.record_id, c.written, c.first, c.last) == ("cr:en:x:702.100c", "rule 601.2e",
                                                         "601.2e", "601.2e")
