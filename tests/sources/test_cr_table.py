"""The French CR table scrape (seed 003): contents, rule 707 with its lost numbers, examples,
untranslated English paragraphs and stripped mana symbols.

The expected numbers were read from the English rules (MagicCompRules 20230414.txt, rule 707):
the unnumbered French paragraphs are, in order, 707.1-707.14 (the numbers with a final period),
and the French page has no 707.9a (Quirion Elves).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.model import Example, Fragment, ParseResult, Rule, TocEntry
from kb.rulenum import RuleNumber
from kb.sources import cr_table, cr_text
from kb.text.decode import decode
from tests.records import of

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "corpus" / "003_45f11bb513e6f443.txt"

# Deliberately stripped: the table-cell delimiter that ends every line, and the empty number
# cell ("|" alone) before an unnumbered paragraph.
CELL_DELIMITER = "|"


@pytest.fixture(scope="module")
def text() -> str:
    return decode(SEED.read_bytes()).text


@pytest.fixture(scope="module")
def result(text: str) -> ParseResult:
    return cr_table.parse(text, SEED.name)




def rules_by_number(result) -> dict[str, Rule]:
    return {r.number: r for r in of(result, Rule)}


# -- sniffing ----------------------------------------------------------------------------------


def test_sniff_claims_the_table_scrape_only(text: str) -> None:
    assert cr_table.sniff(text)
    assert not cr_text.sniff(text)
    for other in sorted((ROOT / "corpus").glob("*.txt")):
        if other != SEED:
            assert not cr_table.sniff(decode(other.read_bytes()).text), other.name
    assert not cr_table.sniff("Comprehensive Rules\n\n100.1. These Magic rules apply.\n")
    assert not cr_table.sniff("")


# -- metadata and contents ---------------------------------------------------------------------


def test_metadata(result) -> None:
    assert (result.format, result.language, result.version) == ("cr_table", "fr", "2024")
    assert result.source_id == "cr:fr:2024"
    assert all(r.id.startswith("cr:fr:2024:") for r in result.records)
    ids = [r.id for r in result.records]
    assert len(ids) == len(set(ids))


def test_contents_line_is_split_into_153_entries(result) -> None:
    toc = of(result, TocEntry)
    # 9 sections and 144 rules, as in the early-2024 English contents minus Glossary/Credits.
    assert len(toc) == 153
    assert sum(1 for t in toc if len(t.number) == 1) == 9
    assert (toc[0].number, toc[0].title) == ("1", "Concepts du jeu")
    assert (toc[2].number, toc[2].title) == ("101", "Règles d’or de Magic")
    titles = {t.number: t.title for t in toc}
    assert titles["208"] == "Force/Endurance"
    assert titles["308"] == "Tribal"
    assert titles["310"] == "Battles"
    assert titles["707"] == "Copier des objets"
    assert titles["719"] == "Case Cards"
    assert titles["725"] == "Rad Counters"
    assert titles["730"] == "Gérer les actions illégales"
    assert (toc[-1].number, toc[-1].title) == ("905", "Drafts Conspiracy")
    assert all(t.language == "fr" and t.loc.line == 1 for t in toc)


# -- rules, lost numbers and languages ---------------------------------------------------------

INFERRED = [
    "707.1", "707.2", "707.3", "707.4", "707.5", "707.6", "707.7",
    "707.8", "707.9", "707.10", "707.11", "707.12", "707.13", "707.14",
]
UNTRANSLATED = ["707.2", "707.8", "707.8a", "707.10f", "707.10g", "707.14"]


def test_rules_in_order_with_inferred_numbers(result) -> None:
    rules = of(result, Rule)
    assert [r.number for r in rules] == [
        "707.1", "707.2", "707.2a", "707.2b", "707.2c", "707.3", "707.4", "707.5", "707.6",
        "707.7", "707.8", "707.8a", "707.9", "707.9b", "707.9c", "707.9d", "707.9e", "707.9f",
        "707.9g", "707.10", "707.10a", "707.10b", "707.10c", "707.10d", "707.10e", "707.10f",
        "707.10g", "707.11", "707.12", "707.13", "707.14",
    ]
    assert [r.number for r in rules if r.inferred] == INFERRED
    assert "707.9a" not in rules_by_number(result)


def test_rule_texts_and_locations(result) -> None:
    rules = rules_by_number(result)
    first = rules["707.1"]
    assert first.text.startswith("Certains objets deviennent une « copie » d'un sort")
    assert first.text.endswith("qui ont reçu un nouveau texte dans l'Oracle.)")
    assert first.loc.line == 3  # the text line: its number cell is empty
    assert first.parent == "707"
    a = rules["707.2a"]
    assert a.loc.line == 10 and not a.inferred and a.parent == "707.2"
    assert a.text.startswith("Une copie acquiert les couleurs de l'objet qu'elle copie")
    assert rules["707.9"].text == (
        "Les effets de copie peuvent inclure des modifications ou des exceptions au processus "
        "de copie."
    )
    assert rules["707.13"].text.startswith("Une carte (Garth le borgne) demande")


def test_untranslated_english_paragraphs(result) -> None:
    rules = of(result, Rule)
    assert [r.number for r in rules if r.untranslated] == UNTRANSLATED
    assert all(r.language == "en" for r in rules if r.untranslated)
    assert all(r.language == "fr" for r in rules if not r.untranslated)
    assert rules_by_number(result)["707.14"].text.startswith(
        "One card (Magar of the Magic Strings) instructs"
    )


def test_citations(result) -> None:
    rules = rules_by_number(result)
    assert [c.target for c in rules["707.3"].citations] == ["110.5"]
    assert [c.written for c in rules["707.7"].citations] == ["règle 607"]
    assert [c.target for c in rules["707.9d"].citations] == ["604.3", "204"]
    assert [c.target for c in rules["707.10a"].citations] == ["704"]
    assert [c.target for c in rules["707.10f"].citations] == ["608.3f"]


# -- examples ----------------------------------------------------------------------------------


def test_examples_attach_to_their_rule(result) -> None:
    examples = of(result, Example)
    assert len(examples) == 21
    per_rule: dict[str, int] = {}
    for e in examples:
        per_rule[e.rule] = per_rule.get(e.rule, 0) + 1
    # The same counts as the English 707 (whose 707.9a example has no French counterpart).
    assert per_rule == {
        "707.2": 2, "707.3": 4, "707.4": 1, "707.5": 2, "707.6": 1, "707.8a": 2,
        "707.9b": 1, "707.9d": 2, "707.9e": 1, "707.9f": 1, "707.10": 3, "707.11": 1,
    }
    tomoya = next(e for e in examples if e.id == "cr:fr:2024:707.3/ex2")
    assert tomoya.ordinal == 2 and tomoya.loc.line == 21
    assert tomoya.text.startswith("Exemple : Tomoya le divulgateur")
    english = [e.id for e in examples if e.language == "en"]
    assert english == ["cr:fr:2024:707.8a/ex1", "cr:fr:2024:707.8a/ex2"]


# -- stripped mana symbols ---------------------------------------------------------------------


def test_stripped_symbols(text: str) -> None:
    gaps = [(g.line, g.rule, g.pattern) for g in cr_table.stripped_symbols(text)]
    # Each is a symbol of the English 2023 text: {X}: / {2}{B}{B} twice / morph {G}, for {G}
    # / {G} and {W} were spent / {G}: .
    assert gaps == [
        (7, "707.2", "quote opens on a colon"),
        (9, "707.2", "double space"),
        (9, "707.2", "double space"),
        (23, "707.3", "space before closing punctuation"),
        (23, "707.3", "space before closing punctuation"),
        (81, "707.10", "« si a » with no subject"),
        (81, "707.10", "« si a » with no subject"),
        (99, "707.11", "quote opens on a colon"),
    ]


# -- number inference --------------------------------------------------------------------------


def n(written: str) -> RuleNumber:
    return RuleNumber.parse(written)


@pytest.mark.parametrize(
    ("numbers", "expected"),
    [
        (["707.2", None, "707.4"], ["707.2", "707.3", "707.4"]),
        (["704.5k", None, "704.5n"], ["704.5k", "704.5m", "704.5n"]),  # no "l"
        (["704.5n", None, "704.5q"], ["704.5n", "704.5p", "704.5q"]),  # no "o"
        ([None, None, "707.2a"], ["707.1", "707.2", "707.2a"]),
        (["707.8a", None, "707.9b"], ["707.8a", "707.9", "707.9b"]),
        (["707.10g", None, None], ["707.10g", "707.11", "707.12"]),
        (["707.3", None, None, "707.5"], ["707.3", None, None, "707.5"]),  # ambiguous
        (["702.1", None, "702.1"], ["702.1", None, "702.1"]),  # no room
        ([None, None], [None, None]),  # nothing to count from
    ],
)
def test_infer_numbers(numbers: list[str | None], expected: list[str | None]) -> None:
    filled, inferred = cr_table.infer_numbers([n(x) if x else None for x in numbers])
    assert [str(x) if x else None for x in filled] == expected
    assert inferred == [x is None and y is not None for x, y in zip(numbers, expected,
                                                                    strict=True)]


def test_letters_skip_l_and_o() -> None:
    assert cr_table.letter_at(cr_table.letter_index("k") + 1) == "m"
    assert cr_table.letter_at(cr_table.letter_index("n") + 1) == "p"
    assert cr_table.letter_at(cr_table.letter_index("z") + 1) == "aa"


# -- conservation ------------------------------------------------------------------------------


def _norm(s: str) -> str:
    return " ".join(s.split())


def test_every_line_is_kept(text: str, result) -> None:
    texts = [_norm(r.text) for r in result.records if isinstance(r, (Rule, Example, Fragment))]
    toc_line = " ".join(f"{t.number}. {t.title}" for t in of(result, TocEntry))
    for i, raw in enumerate(text.split("\n"), 1):
        line = _norm(raw.rstrip().removesuffix(CELL_DELIMITER))
        if not line:
            continue  # blank, or an empty number cell
        if i == 1:
            assert line == _norm(toc_line)
        elif re.fullmatch(r"\d{3}\.\d{1,2}[a-z]", line):
            assert line in {r.number for r in of(result, Rule)}, i
        else:
            assert line in texts, i


# -- malformed input ---------------------------------------------------------------------------


def test_empty_text() -> None:
    result = cr_table.parse("", "empty.txt")
    assert result.records == ()


def test_truncated_text_keeps_everything(text: str) -> None:
    head = "\n".join(text.split("\n")[:10])  # stops on the number cell "707.2a |"
    result = cr_table.parse(head, "cut.txt")
    rules = of(result, Rule)
    assert [r.number for r in rules] == ["707.1", "707.2"]
    assert len(of(result, Example)) == 2
    (fragment,) = of(result, Fragment)
    assert fragment.text == "707.2a" and fragment.loc.line == 10


def test_paragraphs_without_any_number_become_fragments() -> None:
    text = "|\nUn paragraphe sans numéro. |\n|\nExemple : un exemple orphelin. |\n"
    result = cr_table.parse(text, "bad.txt")
    assert [type(r) for r in result.records] == [Fragment, Fragment]
    assert [r.loc.line for r in result.records] == [2, 4]
    assert result.records[1].text == "Exemple : un exemple orphelin."


def test_ambiguous_gap_becomes_fragments() -> None:
    text = "707.3 |\nA. |\n|\nB. |\n|\nC. |\n707.5 |\nD. |\n"
    result = cr_table.parse(text, "gap.txt")
    assert [type(r).__name__ for r in result.records] == ["Rule", "Fragment", "Fragment", "Rule"]
