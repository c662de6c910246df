"""The report as plain text: a summary table, the coverage figures, then the findings grouped by
category, each with its records (file:line and id), suggested fix and lookup command."""

from __future__ import annotations

from kb.i18n import _
from kb.labels import label
from kb.report.coverage import SectionCoverage
from kb.report.finding import CATEGORIES, SEVERITIES, Finding
from kb.report.run import Report


def render(report: Report) -> str:
    lines = summary_lines(report)
    if report.coverage:
        lines += ["", _("French coverage of the English rules:")]
        lines += ["  " + coverage_line(c) for c in report.coverage]
    if report.notes:
        lines += ["", *(_("Note: {note}").format(note=n) for n in report.notes)]
    for category in report.categories:
        found = [f for f in report.findings if f.category == category]
        if found:
            heading = _(CATEGORIES[category])
            lines += ["", f"== {heading} ({len(found)}) =="]
            for finding in found:
                lines += finding_lines(finding)
    return "\n".join(lines) + "\n"


def summary_lines(report: Report) -> list[str]:
    summary = report.summary()
    rows = [(_("category"), *map(label, SEVERITIES))]
    rows += [(_(CATEGORIES[c]), *(str(counts[s]) for s in SEVERITIES))
             for c, counts in summary.items()]
    rows.append((_("total"), *(str(sum(c[s] for c in summary.values())) for s in SEVERITIES)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                  for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
        for row in rows
    ]


def finding_lines(finding: Finding) -> list[str]:
    lines = [f"[{label(finding.severity)}] {finding.check}: {finding.message}"]
    lines += [f"    {r.where}  {r.id}" for r in finding.records]
    if finding.more:
        lines.append("    " + _("... and {count} more").format(count=finding.more))
    if finding.fix:
        lines.append("    " + _("fix: {fix}").format(fix=finding.fix))
    if finding.lookup:
        lines.append("    " + _("see: {command}").format(command=finding.lookup))
    return lines


def coverage_line(c: SectionCoverage) -> str:
    """One section's French coverage, as the text and HTML reports show it."""
    return _("{file}: {section} {title} (rules of {version}): {translated}/{total} in French "
             "({percent:.0f}%), {untranslated} left in English, {missing} missing").format(
        file=c.file, section=c.section, title=c.title or "", version=c.version,
        translated=len(c.translated), total=c.total, percent=c.percent,
        untranslated=len(c.untranslated), missing=len(c.missing))
