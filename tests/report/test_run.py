"""The runner: categories, languages, summary counts, and what it says it could not check."""

from __future__ import annotations

from kb.model import Loc, Note
from kb.report.data import ReportData
from kb.report.finding import CATEGORIES
from kb.report.run import run

from .helpers import data, source


def test_summary_counts_every_finding(cr_data: ReportData) -> None:
    report = run(cr_data)
    summary = report.summary()
    assert list(summary) == list(CATEGORIES)
    assert sum(sum(c.values()) for c in summary.values()) == len(report.findings)
    assert summary["agreement"]["error"] == len(
        [f for f in report.findings if f.category == "agreement" and f.severity == "error"])
    assert report.has_errors
    assert report.notes == ["examples not checked: no results from kb check were given"]
    # Findings come category by category, errors first within each.
    order = [(list(CATEGORIES).index(f.category), f.severity != "error") for f in report.findings]
    assert order == sorted(order)


def test_categories_and_languages(cr_data: ReportData) -> None:
    only = run(cr_data, categories=["citations", "ingest"])
    assert {f.category for f in only.findings} == {"citations"}
    assert list(only.summary()) == ["citations", "ingest"]
    assert only.coverage == [] and only.notes == []
    french = run(cr_data, languages=["fr"])
    assert french.findings and all(f.language == "fr" for f in french.findings)
    english = run(cr_data, languages=["en"])
    assert english.coverage == []
    assert {f.check for f in english.findings} >= {"unresolved", "renumbered", "outdated"}
    assert not [f for f in english.findings if f.category == "agreement"]


def test_without_english_rules_it_says_so() -> None:
    faq = source("faq:fr:x", file="faq.txt")
    report = run(data((faq, [Note("faq:fr:x:n", "Une note.", "fr", Loc("faq.txt", 1))])),
                 check_results=[])
    assert report.findings == []
    assert report.notes == ["no English Comprehensive Rules in the index: citations, sections "
                            "and rules translations were not checked (build with --corpus "
                            "naming CR files)"]


def test_a_narrowed_report_is_the_report_of_those_categories_and_languages(
        cr_data: ReportData) -> None:
    """A server runs the whole report once and narrows it for each question (issue 25): what
    it answers must be what a run of those categories and languages finds."""
    from kb.report.render_json import as_data
    from kb.report.run import narrow

    whole = run(cr_data)
    for categories, languages in [(None, ["fr"]), (["citations", "ingest"], None),
                                  (["coverage"], ["en"]), (["coverage", "examples"], ["fr"]),
                                  (["terminology"], ["pt", "fr"]), (["agreement"], ["en"])]:
        assert as_data(narrow(whole, categories, languages)) == as_data(
            run(cr_data, categories, languages)), (categories, languages)
