"""Run the checks of every category and gather their findings into a :class:`Report`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kb.i18n import _
from kb.report import agreement, citations, coverage, examples, ingest, terminology
from kb.report.coverage import SectionCoverage
from kb.report.data import ReportData
from kb.report.finding import CATEGORIES, ERROR, SEVERITIES, Finding
from kb.report.pairs import Pairs


@dataclass
class Report:
    """The findings of one run, in report order, with the coverage figures and notes on what
    could not be checked."""

    findings: list[Finding]
    coverage: list[SectionCoverage] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    categories: tuple[str, ...] = tuple(CATEGORIES)
    # The categories each note is about (a note is kept by :func:`narrow` when one is chosen).
    note_categories: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def summary(self) -> dict[str, dict[str, int]]:
        """Category -> severity -> count, every category and severity present (zeros too)."""
        counts = {c: dict.fromkeys(SEVERITIES, 0) for c in self.categories}
        for finding in self.findings:
            counts[finding.category][finding.severity] += 1
        return counts

    @property
    def has_errors(self) -> bool:
        return any(f.severity == ERROR for f in self.findings)


def run(data: ReportData, categories: Iterable[str] | None = None,
        languages: Iterable[str] | None = None,
        check_results: list[Mapping[str, Any] | Any] | None = None) -> Report:
    """Findings of the chosen categories (all by default) about the chosen languages (all by
    default). ``check_results`` are ``kb check``'s per-example results; without them the
    examples category says it was not checked."""
    chosen = tuple(c for c in CATEGORIES if categories is None or c in set(categories))
    pairs = Pairs(data)
    notes: dict[str, tuple[str, ...]] = {}
    found: list[Finding] = []
    if not data.versions and {"coverage", "agreement", "citations"} & set(chosen):
        notes[_("no English Comprehensive Rules in the index: citations, sections and rules "
                "translations were not checked (build with --corpus naming CR files)")] = (
            "coverage", "agreement", "citations")
    for category in chosen:
        if category == "coverage":
            found += coverage.check(data, pairs)
        elif category == "agreement":
            found += agreement.check(data, pairs)
        elif category == "citations":
            found += citations.check(data)
        elif category == "terminology":
            found += terminology.check(data)
        elif category == "examples":
            if check_results is None:
                notes[_("examples not checked: no results from kb check were given")] = (
                    "examples",)
            else:
                found += examples.findings_from_check(data, check_results, pairs)
        elif category == "ingest":
            found += ingest.check(data)
    table = coverage.sections(data) if "coverage" in chosen else []
    return narrow(Report(found, table, list(notes), chosen, notes), None, languages)


def narrow(report: Report, categories: Iterable[str] | None = None,
           languages: Iterable[str] | None = None) -> Report:
    """What :func:`run` would have found for these categories (of those ``report`` holds) and
    languages: a server runs the whole report once per index and answers every choice of
    categories and languages from it."""
    chosen = tuple(c for c in report.categories if categories is None or c in set(categories))
    wanted = set(languages) if languages else None
    found = [f for f in report.findings if f.category in chosen
             and (wanted is None or _about_language(f, wanted))]
    found.sort(key=_order)
    table = report.coverage if "coverage" in chosen and (wanted is None or "fr" in wanted) else []
    notes = {n: about for n, about in report.note_categories.items() if set(about) & set(chosen)}
    return Report(found, table, list(notes), chosen, notes)


def _about_language(finding: Finding, languages: set[str]) -> bool:
    """A finding is about the language of the text at fault; failing that, of its records."""
    if finding.language is not None:
        return finding.language in languages
    return any(r.language in languages for r in finding.records)


def _order(finding: Finding) -> tuple[int, int, str, int]:
    first = finding.records[0] if finding.records else None
    return (list(CATEGORIES).index(finding.category), SEVERITIES.index(finding.severity),
            first.file if first else "", first.line if first else 0)
