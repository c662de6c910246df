"""``kb report``: formats, output file, filters, --strict and errors."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kb.cli import cli


def _report(index: Path, *args: str):
    return CliRunner().invoke(cli, ["--index", str(index), "report", *args])


def test_help() -> None:
    result = CliRunner().invoke(cli, ["report", "--help"])
    assert result.exit_code == 0
    for option in ("--format", "--out", "--category", "--lang", "--strict", "--json"):
        assert option in result.output


def test_text_json_and_html(cr_index: Path, tmp_path: Path) -> None:
    text = _report(cr_index)
    assert text.exit_code == 0
    assert text.output.startswith("category               error  warning  info\n")
    assert "== Citations (" in text.output
    data = json.loads(_report(cr_index, "--json").output)
    assert set(data) == {"summary", "totals", "coverage", "notes", "findings"}
    assert data == json.loads(_report(cr_index, "--format", "json").output)
    out = tmp_path / "report.html"
    html = _report(cr_index, "--format", "html", "--out", str(out))
    assert html.exit_code == 0 and html.stdout == ""
    assert html.stderr.startswith("Wrote the report (")
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert not (tmp_path / "report.html.partial").exists()


def test_filters(cr_index: Path) -> None:
    data = json.loads(_report(cr_index, "--json", "--category", "citations,ingest").output)
    assert list(data["summary"]) == ["citations", "ingest"]
    assert {f["category"] for f in data["findings"]} == {"citations"}
    french = json.loads(_report(cr_index, "--json", "--lang", "fr", "--category",
                                "coverage").output)
    assert french["findings"] and {f["language"] for f in french["findings"]} == {"fr"}


def test_strict(cr_index: Path) -> None:
    # The agreement check finds errors in the French FAQ; the coverage check only warnings.
    assert _report(cr_index, "--strict", "--category", "agreement").exit_code == 1
    assert _report(cr_index, "--strict", "--category", "coverage").exit_code == 0
    assert _report(cr_index, "--category", "agreement").exit_code == 0


def test_usage_and_domain_errors(cr_index: Path, tmp_path: Path) -> None:
    unknown = _report(cr_index, "--category", "spelling")
    assert unknown.exit_code == 2 and "'spelling' is not one of" in unknown.output
    both = _report(cr_index, "--json", "--format", "html")
    assert both.exit_code == 2
    missing = _report(tmp_path / "nothing")
    assert missing.exit_code == 1
    assert "run 'kb build' first" in missing.output and "Traceback" not in missing.output
