"""The report as plain text: a summary table, the coverage figures, then the findings grouped by
category, each with its records (file:line and id), suggested fix and lookup command."""

from __future__ import annotations

from kb.report.finding import CATEGORIES, SEVERITIES, Finding
from kb.report.run import Report


def render(report: Report) -> str:
    lines = summary_lines(report)
    if report.coverage:
        lines += ["", "French coverage of the English rules:"]
        lines += [f"  {c.file}: {c.section} {c.title or ''} (rules of {c.version}): "
                  f"{len(c.translated)}/{c.total} in French ({c.percent:.0f}%), "
                  f"{len(c.untranslated)} left in English, {len(c.missing)} missing"
                  for c in report.coverage]
    if report.notes:
        lines += ["", *(f"Note: {n}" for n in report.notes)]
    for category in report.categories:
        found = [f for f in report.findings if f.category == category]
        if found:
            lines += ["", f"== {CATEGORIES[category]} ({len(found)}) =="]
            for finding in found:
                lines += finding_lines(finding)
    return "\n".join(lines) + "\n"


def summary_lines(report: Report) -> list[str]:
    summary = report.summary()
    rows = [("category", *SEVERITIES)]
    rows += [(CATEGORIES[c], *(str(counts[s]) for s in SEVERITIES))
             for c, counts in summary.items()]
    rows.append(("total", *(str(sum(c[s] for c in summary.values())) for s in SEVERITIES)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                  for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
        for row in rows
    ]


def finding_lines(finding: Finding) -> list[str]:
    lines = [f"[{finding.severity}] {finding.check}: {finding.message}"]
    lines += [f"    {r.where}  {r.id}" for r in finding.records]
    if finding.more:
        lines.append(f"    ... and {finding.more} more")
    if finding.fix:
        lines.append(f"    fix: {finding.fix}")
    if finding.lookup:
        lines.append(f"    see: {finding.lookup}")
    return lines
