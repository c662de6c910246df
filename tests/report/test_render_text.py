"""The text rendering: summary table, then findings grouped by category."""

from __future__ import annotations

from kb.report.render_text import render

from .helpers import sample_report


def test_summary_table_then_findings() -> None:
    lines = render(sample_report()).splitlines()
    assert lines[:8] == [
        "category               error  warning  info",
        "Translation coverage       0        0     0",
        "Translation agreement      1        0     0",
        "Citations                  0        1     0",
        "Terminology drift          0        0     0",
        "Examples                   0        0     0",
        "Ingest                     0        0     0",
        "total                      1        1     0",
    ]
    assert lines[8:] == [
        "",
        "== Translation agreement (1) ==",
        "[error] cards: names differ in “La Relâche peut cibler n'importe quel permanent.”",
        "    fr.txt:578  faq:fr:x:prise-relâche/1",
        "    fix: name Prise",
        '    see: kb card "Catch // Release"',
        "",
        "== Citations (1) ==",
        "[warning] renumbered: “règle 708” is 709 today",
        "    fr.txt:578  faq:fr:x:prise-relâche/1",
        "    ... and 3 more",
        "    fix: cite 709",
        "    see: kb rule 709",
    ]
