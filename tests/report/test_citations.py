"""Category 3, citations: the stale references of the French FAQ (read in 001_* and in the rules
of 2013 and 2026), and citations that resolve. The report reads how the build's link stage read
each document: the FAQ of 2013-03-21 cites the rules in force that day, those of 2012-10-01
(cr-archive/2012-10-01.txt.gz: "708. Split Cards", "601.2e"), and quotes Fuse as the rules of
2013-05-01 number it (702.100)."""

from __future__ import annotations

from kb.model import Citation, Link, Loc, Note, Rule
from kb.report import citations
from kb.report.data import ReportData

from .conftest import FAQ_FR, KEYWORD_PAGE
from .helpers import cr, data, source


def test_stale_references_of_the_french_faq(cr_data: ReportData) -> None:
    found = list(citations.check(cr_data))
    faq = [f for f in found if f.records[0].file == FAQ_FR]
    by_check: dict[str, list[str]] = {}
    for f in faq:
        by_check.setdefault(f.check, []).append(f.message)
    assert sorted(by_check) == ["removed", "renumbered"]
    # Line 33 "702.100. Fusion" quotes Fuse, 702.100 in the rules of 2013 and 702.102 in those
    # of 2026 (MagicCompRules 20260417.txt: "702.102. Fuse"), its subrules a, c, d with it.
    # Today's 702.100 is "702.100. Evolve" (MagicCompRules 20260417.txt line 4710).
    assert ("quoted rule 702.100 Fuse (rules of 2013-05-01: 702.100) is 702.102 today "
            "(2026-04-17) (with 702.100a→702.102a, 702.100c→702.102c, 702.100d→702.102d); "
            "today's 702.100 is Evolve") in by_check["renumbered"]
    # Line 34 "(voir règle 708, « Cartes doubles »)": split cards are 708 in 2013, 709 today.
    assert ("“règle 708” means 708 Split Cards of the rules of 2012-10-01, which is 709 today "
            "(2026-04-17)") in by_check["renumbered"]
    # Line 36 "(Voir règle 601.2e)": paying the total cost is 601.2f today.
    assert ("“règle 601.2e” means 601.2e of the rules of 2012-10-01, which is 601.2f today "
            "(2026-04-17)") in by_check["renumbered"]
    assert len(by_check["renumbered"]) == 3
    # Line 35, 702.100b "deux séries de caractéristiques et un coût converti de mana": today's
    # 702.102b says a fused split spell has the combined characteristics of its halves.
    (removed,) = by_check["removed"]
    assert removed.startswith("quoted rule 702.100b means 702.100b of the rules of 2013-05-01,"
                              " which has no counterpart in the rules of")
    lines = {f.check: sorted(r.line for r in f.records) for f in faq if f.check == "removed"}
    assert lines == {"removed": [35]}


def test_keyword_page_and_official_rules(cr_data: ReportData) -> None:
    found = list(citations.check(cr_data))
    # The keyword page quotes Echo as 702.27, the number of the rules of 2009-07-11 to 2011;
    # it is 702.30 today.
    (echo,) = [f for f in found if f.records[0].file == KEYWORD_PAGE]
    assert echo.message.startswith("quoted rule 702.27 Echo (rules of 2009-07-11: 702.27) is "
                                   "702.30 today")
    assert "702.27a→702.30a, 702.27b→702.30b" in echo.message
    # The glossary entry "Map" of the rules of 2025-02-07 (line 7987) ends "see rule 110.10":
    # predefined tokens are 111.10, and that version has no rule 110.10.
    (unresolved,) = [f for f in found if f.check == "unresolved"]
    assert unresolved.records[0].file.endswith("MagicCompRules 20250207.txt")
    assert unresolved.message == ("“rule 110.10” cites 110.10, which is no rule of the rules of "
                                  "2025-02-07")
    assert unresolved.severity == "error"


def _faq_citing(written: str, first: str, last: str) -> ReportData:
    """A FAQ note citing ``written``, and the links the build's stage makes for it: read in the
    rules of 2013-05-01 when they hold ``first`` (``cites-then``), followed to today's number
    (``current``)."""
    old = cr("2013-05-01", ["601", "601.2", "601.2a", "601.2b", "601.2c", "708", "708.1"],
             {"708": "Split Cards"})
    new = cr("2026-04-17", ["601", "601.2", "601.2a", "601.2b", "601.2c", "709", "709.1"],
             {"709": "Split Cards"})
    today = {"601": "601", "601.2": "601.2", "601.2a": "601.2a", "601.2b": "601.2b",
             "601.2c": "601.2c", "708": "709", "708.1": "709.1"}
    faq = source("faq:fr:x", file="faq.txt")
    note = Note("faq:fr:x:note/1", f"Voir {written}.", "fr", Loc("faq.txt", 4),
                citations=(Citation("faq:fr:x:note/1", written, first, last),))
    links = []
    if first in today:
        then = f"cr:en:2013-05-01:{first}"
        links = [Link(note.id, then, "cites-then", 0.7, "", "citation"),
                 Link(then, f"cr:en:2026-04-17:{today[first]}", "current", 1.0, "")]
    return data(old, new, (faq, [note]), links=links)


def test_citations_that_hold_yield_nothing() -> None:
    assert list(citations.check(_faq_citing("règle 601.2b", "601.2b", "601.2b"))) == []
    assert list(citations.check(_faq_citing("règles 601.2a-c", "601.2a", "601.2c"))) == []


def test_renumbered_unresolved_and_range_past_end() -> None:
    (moved,) = citations.check(_faq_citing("règle 708.1", "708.1", "708.1"))
    assert (moved.check, moved.lookup) == ("renumbered", "kb rule 709.1")
    (missing,) = citations.check(_faq_citing("règle 708.9", "708.9", "708.9"))
    assert (missing.check, missing.severity) == ("unresolved", "error")
    (past,) = citations.check(_faq_citing("règles 601.2a-h", "601.2a", "601.2h"))
    assert past.check == "range-past-end"
    assert past.message.endswith("the rules of 2013-05-01 stop at 601.2c")


def test_no_rules_no_findings() -> None:
    faq = source("faq:fr:x", file="faq.txt")
    quoted = Rule("faq:fr:x:rule/702.100", "702.100", "Fusion", "fr", "2013-03-21",
                  Loc("faq.txt", 3))
    assert list(citations.check(data((faq, [quoted])))) == []
