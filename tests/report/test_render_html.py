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


def test_it_reads_on_a_phone() -> None:
    page = render(sample_report())
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "overflow-wrap: anywhere" in page


def test_french_quotes_say_they_are_french() -> None:
    page = render(sample_report())  # the sample's record is a French ruling
    assert page.count('<q class="excerpt" lang="fr">') == 2
    assert '<html lang="en">' in page


def rule_report():
    from kb.report.finding import Finding, RecordRef
    from kb.report.run import Report

    ref = RecordRef("cr:fr:2024:707.10", "rule", "707.10", "fr", "2024", "003.txt", 75, "Copier")
    return Report([
        Finding("citations", "stale", "warning", "cites 702.19b and 707.10 (of 2024, 3 rules)",
                (ref,)),
        Finding("coverage", "missing", "info", "no French text of 702.19b"),
    ])


def test_rule_numbers_link_to_the_pages_list_of_rules() -> None:
    page = render(rule_report())
    assert page.count('<a class="rule" href="#rule-702.19b">702.19b</a>') == 2
    assert page.count('<a class="rule" href="#rule-707.10">707.10</a>') == 2  # message, record
    assert "3 rules" in page and "2024" in page  # a count and a year stay text
    rules = page[page.index('<section id="rules">'):]
    assert ('<li id="rule-702.19b"><code>kb rule 702.19b</code>: <a href="#f-1">finding 1</a>, '
            '<a href="#f-2">finding 2</a></li>') in rules
    assert rules.index('id="rule-702.19b"') < rules.index('id="rule-707.10"')


def test_a_server_links_rule_numbers_to_its_pages() -> None:
    page = render(rule_report(), rule_href=lambda n: f"/rule/{n}")
    assert '<a class="rule" href="/rule/702.19b">702.19b</a>' in page
    assert '<section id="rules">' not in page
