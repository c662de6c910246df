"""Build small :class:`ReportData` inputs by hand, for the tests of each check."""

from __future__ import annotations

from kb.model import Link, Loc, Record, Rule, Source
from kb.report.data import ReportData


def source(source_id: str, *, fmt: str = "faq_fr", language: str | None = "fr",
           version: str | None = "2013-03-21", file: str | None = None) -> Source:
    return Source(source_id, file or f"{source_id}.txt", "/nowhere", "0" * 64, fmt, language,
                  version, "utf-8", "LF")


def cr(version: str, numbers: list[str], titles: dict[str, str] | None = None) -> tuple[
        Source, list[Record]]:
    """An English CR version holding rules ``numbers`` (texts are placeholders)."""
    titles = titles or {}
    src = source(f"cr:en:{version}", fmt="cr_text", language="en", version=version,
                 file=f"cr-{version}.txt")
    rules: list[Record] = [
        Rule(f"cr:en:{version}:{n}", n, titles.get(n, f"text of {n}"), "en", version,
             Loc(src.file, i + 1), title=titles.get(n))
        for i, n in enumerate(numbers)
    ]
    return src, rules


def data(*documents: tuple[Source, list[Record]], links: list[Link] | None = None) -> ReportData:
    return ReportData({s.id: s for s, _ in documents}, {s.id: list(r) for s, r in documents},
                      list(links or []))


def loc(file: str, line: int) -> Loc:
    return Loc(file, line)


def sample_report(text: str = "La Relâche peut cibler n'importe quel permanent."):
    """A report of two findings, one quoting ``text`` (a record excerpt and the message)."""
    from kb.report.finding import Finding, RecordRef
    from kb.report.run import Report

    ref = RecordRef("faq:fr:x:prise-relâche/1", "ruling", None, "fr", "2013-03-21", "fr.txt", 578,
                    text)
    return Report([
        Finding("agreement", "cards", "error", f"names differ in “{text}”", (ref,),
                language="fr", fix="name Prise", lookup='kb card "Catch // Release"'),
        Finding("citations", "renumbered", "warning", "“règle 708” is 709 today", (ref,),
                language="fr", fix="cite 709", lookup="kb rule 709", more=3),
    ])
