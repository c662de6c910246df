"""The HTML rendering as a string: self-contained, corpus text escaped. (What a browser makes
of it: test_chromium.py.)"""

from __future__ import annotations

import re

from kb.report.render_html import render

from .helpers import sample_report

HOSTILE = "<script>document.title='pwned'</script>\" onmouseover=\"alert(1)\" <b>x</b>"


def test_corpus_text_is_escaped() -> None:
    page = render(sample_report(HOSTILE))
    assert "<script" not in page and "<b>x" not in page
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;&quot; onmouseover=" \
        in page
    assert not re.search(r"<[^>]*\sonmouseover=", page)


def test_self_contained_page() -> None:
    page = render(sample_report())
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(?:src|href)=["'](?!#)""", page)  # only in-page links
    assert "script-src 'none'" in page and "default-src 'none'" in page
    assert 'id="f-1"' in page and 'id="f-2"' in page
    assert "<code>kb rule 709</code>" in page
    for category in ("coverage", "agreement", "citations", "terminology", "examples", "ingest"):
        assert f'id="show-{category}"' in page and f'id="cat-{category}"' in page
