"""The JSON rendering: ``summary`` (count per category and severity) and ``findings``."""

from __future__ import annotations

import json

from kb.report.render_json import render

from .helpers import sample_report


def test_summary_and_findings() -> None:
    data = json.loads(render(sample_report()))
    assert data["summary"]["agreement"] == {"error": 1, "warning": 0, "info": 0}
    assert data["summary"]["citations"] == {"error": 0, "warning": 1, "info": 0}
    assert data["totals"] == {"error": 1, "warning": 1, "info": 0}
    first = data["findings"][0]
    assert {k: first[k] for k in ("category", "check", "severity", "language", "lookup")} == {
        "category": "agreement", "check": "cards", "severity": "error", "language": "fr",
        "lookup": 'kb card "Catch // Release"'}
    assert first["records"][0] == {
        "id": "faq:fr:x:prise-relâche/1", "kind": "ruling", "number": None, "language": "fr",
        "version": "2013-03-21", "file": "fr.txt", "line": 578,
        "excerpt": "La Relâche peut cibler n'importe quel permanent."}
    assert data["findings"][1]["more"] == 3
