"""Category 6, ingest: the typos of the 2006 rules (read in the file), fragments, and clean
documents."""

from __future__ import annotations

from kb.model import Fragment, Loc, Rule
from kb.report import ingest
from kb.sources import cr_text
from kb.text.decode import decode
from tests.conftest import cr_file

from .helpers import data, source


def test_typos_of_the_rules_of_2006() -> None:
    path = cr_file("20061001")
    result = cr_text.parse(decode(path.read_bytes()).text, path.name)
    src = source(result.source_id, fmt="cr_text", language="en", version=result.version,
                 file=path.name)
    found = list(ingest.check(data((src, list(result.records)))))
    # Line 1404 is numbered "432.2b" between 423.2a (1402) and 423.3. (1406): a typo for 423.2b.
    # Line 2317 reads "606. 8b Players win and lose the game only as a team": the parser
    # reads rule 606.8b (a stray space), flags it inferred and reports it, so no duplicate 606.
    assert {(f.check, tuple(r.line for r in f.records)) for f in found} == {
        ("out-of-order", (1404, 1406)),
    }
    assert result.problems == (
        "line 2317: '606. 8b' read as rule 606.8b (a typo in the source; the rule is flagged "
        "inferred)",)
    assert {f.severity for f in found} == {"warning"}


def _rules(numbers: list[str], language: str = "en") -> list[Rule]:
    return [Rule(f"doc:{language}:{n}", n, "text", language, "2024", Loc("doc.txt", i + 1))
            for i, n in enumerate(numbers)]


def test_ordered_unique_rules_yield_nothing() -> None:
    doc = source("doc", fmt="keyword_page", version="2009-07-11", file="doc.txt")
    # A bilingual page: each language has its own sequence, and 702.27 in both is no duplicate.
    records = [*_rules(["702.27", "702.27a", "702.27b"], "fr"),
               *_rules(["702.27", "702.27a", "702.27b"], "en")]
    assert list(ingest.check(data((doc, records)))) == []


def test_fragments_are_reported_per_document() -> None:
    doc = source("doc", fmt="cr_table", version="2024", file="doc.txt")
    fragments = [Fragment("doc:unparsed/L3", "| |", "number cell with no text cell",
                          Loc("doc.txt", 3)),
                 Fragment("doc:unparsed/L9", "???", "example with no numbered rule above it",
                          Loc("doc.txt", 9))]
    (found,) = ingest.check(data((doc, fragments)))
    assert found.check == "unparsed"
    assert found.message == ("doc.txt: 2 unparsed fragments (example with no numbered rule "
                             "above it; number cell with no text cell)")
    assert [r.line for r in found.records] == [3, 9]
