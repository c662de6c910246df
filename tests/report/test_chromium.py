"""The HTML report as a browser sees it: headless Chromium renders the page, dumps its DOM and
takes a screenshot. Skipped when Chromium is absent, except under CI (env CI set): there it must
be installed, and its absence fails the test."""

from __future__ import annotations

import os
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.build import build
from kb.cli import cli
from kb.corpus import embedded_corpus
from kb.report.data import ReportData
from kb.report.render_html import render
from kb.report.run import run

from .conftest import CR_FR

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WIDTH, HEIGHT = 1200, 1600
# A blank page of that size makes a PNG of about 9 KB (measured with this Chromium, 150); the
# report's first screen, text and tables, about 200 KB.
MIN_PNG_BYTES = 50_000
TITLE = "kb consistency report"


@pytest.fixture
def chromium() -> Path:
    if not CHROMIUM.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium is required under CI and {CHROMIUM} is missing")
        pytest.skip(f"Chromium not installed at {CHROMIUM}")
    return CHROMIUM


def _chromium(chromium: Path, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(chromium), *FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120, check=True)


class _Page(HTMLParser):
    """What a dumped DOM holds: visible text, the title, every tag and its attributes."""

    def __init__(self, dom: str) -> None:
        super().__init__()
        self.text: list[str] = []
        self.title = ""
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self._in: list[str] = []
        self.feed(dom)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._in:
            del self._in[len(self._in) - 1 - self._in[::-1].index(tag):]

    def handle_data(self, data: str) -> None:
        if "title" in self._in:
            self.title += data
        elif "style" not in self._in:
            self.text.append(data)

    @property
    def visible(self) -> str:
        return " ".join(" ".join(self.text).split())


def _dom(chromium: Path, page: Path, tmp_path: Path) -> _Page:
    done = _chromium(chromium, tmp_path / "profile-dom", "--dump-dom", page.as_uri())
    return _Page(done.stdout)


def _png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR"
    return struct.unpack(">II", header[16:24])


def test_the_report_renders(chromium: Path, cr_data: ReportData, tmp_path: Path) -> None:
    report = run(cr_data)
    page = tmp_path / "report.html"
    page.write_text(render(report), encoding="utf-8")
    dom = _dom(chromium, page, tmp_path)
    totals = {s: sum(c[s] for c in report.summary().values()) for s in ("error", "warning")}
    assert dom.title == TITLE
    text = dom.visible
    assert f"{totals['error']} errors, {totals['warning']} warnings" in text
    agreement = len([f for f in report.findings if f.category == "agreement"])
    assert f"Translation agreement ({agreement})" in text
    assert "Relâche where the English has Catch" in text
    assert "Look up: kb rule 702.102" in text
    assert f"{CR_FR}: 707 Copying Objects (rules of 2023-04-14): 25/32 in French" in text
    shot = tmp_path / "report.png"
    _chromium(chromium, tmp_path / "profile-shot", f"--window-size={WIDTH},{HEIGHT}",
              f"--screenshot={shot}", page.as_uri())
    assert _png_size(shot) == (WIDTH, HEIGHT)
    assert shot.stat().st_size > MIN_PNG_BYTES


HOSTILE = ("<script>document.title='pwned'</script> (Magar \" onmouseover=\"document.title="
           "'hover'\" of the Magic Strings)")


def test_corpus_text_cannot_run_scripts(chromium: Path, tmp_path: Path) -> None:
    """A corpus document carrying a script and an attribute injection, built and reported: the
    page shows the text and runs nothing."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    seed = (embedded_corpus() / CR_FR).read_text(encoding="utf-8")
    # Line 105, 707.14, left in English: "One card (Magar of the Magic Strings) instructs..."
    assert "One card (Magar of the Magic Strings)" in seed
    (corpus / CR_FR).write_text(seed.replace("(Magar of the Magic Strings)", HOSTILE),
                                encoding="utf-8")
    index = tmp_path / "index"
    build(index, [corpus])
    page = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["--index", str(index), "report", "--format", "html",
                                      "--out", str(page)])
    assert result.exit_code == 0, result.output
    assert "One card <script>" not in page.read_text(encoding="utf-8")
    dom = _dom(chromium, page, tmp_path)
    assert dom.title == TITLE  # the script would have renamed the page
    assert not [tag for tag, _ in dom.tags if tag == "script"]
    assert not [attrs for _, attrs in dom.tags if any(a.startswith("on") for a in attrs)]
    assert f"One card {HOSTILE} instructs" in dom.visible
