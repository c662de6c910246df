"""The report as JSON: ``summary`` (count per category and severity), ``totals``,
``coverage`` (per French rules document and section), ``notes`` and ``findings`` (list)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from kb.report.finding import SEVERITIES
from kb.report.run import Report


def as_data(report: Report) -> dict[str, Any]:
    summary = report.summary()
    return {
        "summary": summary,
        "totals": {s: sum(c[s] for c in summary.values()) for s in SEVERITIES},
        "coverage": [{**dataclasses.asdict(c), "percent": round(c.percent, 1)}
                     for c in report.coverage],
        "notes": report.notes,
        "findings": [dataclasses.asdict(f) for f in report.findings],
    }


def render(report: Report) -> str:
    return json.dumps(as_data(report), ensure_ascii=False, indent=2) + "\n"
