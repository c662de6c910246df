"""The pages: what they show from the index, their links, the language order, the security
headers and the escaping of corpus text."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kb.web.app import create_app
from kb.web.data import slug

from .conftest import EVIL, EVIL_FR, EVIL_RULING


class Tags(HTMLParser):
    """Every start tag with its attributes, and the text of <script> elements."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.script_text: list[str] = []
        self._in_script = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.script_text.append(data)

    def hrefs(self, cls: str | None = None) -> list[str]:
        return [a.get("href") or "" for t, a in self.tags
                if t == "a" and (cls is None or cls in (a.get("class") or "").split())]


PAGES = ["/", "/rule/702.19b", "/history/702.19", "/rule/702.19b?version=2013-06-01", "/rule/707.2",
         "/search?q=pi%C3%A9tinement", "/search?q=trample&kind=rule&lang=en&page=2",
         "/card/aetherlin", "/card/aetherling", "/diff?old=2025-02-07&section=702",
         "/glossary", "/glossary?letter=T", "/glossary?order=fr&letter=F", "/terms",
         "/terms?q=fus", "/report", "/report?category=citations", "/check",
         "/check?status=verified", "/versions", "/record/kw:fr:echo:note/1", "/api"]


@pytest.mark.parametrize("url", PAGES)
def test_pages_answer_with_a_policy_and_no_inline_script(client: TestClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200, response.text
    policy = response.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    page = Tags(response.text)
    scripts = [a for t, a in page.tags if t == "script"]
    assert scripts == [{"src": "/static/kb.js", "defer": None}]
    assert page.script_text == []
    assert not any(k.startswith("on") for _, a in page.tags for k in a)
    assert not any(a.get("style") for _, a in page.tags)  # the CSP forbids inline style


def test_rule_page_links_its_citations(client: TestClient) -> None:
    # CR 2026-04-17, 702.102b: "... (See rule 709.4.)"
    page = Tags(client.get("/rule/702.102b").text)
    assert "/rule/709.4" in page.hrefs("cite")
    assert client.get("/rule/709.4").status_code == 200


def test_rule_page_of_an_older_version_links_in_that_version(client: TestClient) -> None:
    # The 2013-05-01 rules: "702.100b A fused split spell ... (See rule 601.2e.)" is in
    # 702.100c: "The total cost of a fused split spell includes ... (See rule 601.2e.)"
    html = client.get("/rule/702.100?version=2013-06-01").text
    assert "/rule/601.2e?version=2013-05-01" in Tags(html).hrefs("cite")
    assert "Fuse" in html


def test_rule_page_numbers_in_every_version(client: TestClient) -> None:
    hrefs = Tags(client.get("/rule/702.102").text).hrefs("ver")
    assert "/rule/702.100?version=2013-05-01" in hrefs
    assert "/rule/702.102" in hrefs


def test_rule_page_history_shows_word_diffs(client: TestClient) -> None:
    # 2013-05-01, 702.18b: "... among those blocking creatures and the player or planeswalker
    # the creature is attacking"; 2023-04-14, 702.19b: "... and the player, planeswalker, or
    # battle the creature is attacking".
    html = client.get("/rule/702.19b").text
    history = html.split('class="history"', 1)[1]
    assert "702.18b" in history
    assert re.search(r"<ins>[^<]*battle[^<]*</ins>", history)


def _columns(html: str) -> list[str]:
    """The languages of the first pair of columns, in page order."""
    first_pair = html.split('<div class="pair">', 1)[1]
    return re.findall(r'<div class="col[^"]*" lang="(\w+)"', first_pair)[:2]


def test_french_beside_english_in_the_chosen_order(client: TestClient) -> None:
    # Seed 003 (a French CR page, 2024) holds 707.2c: "Si une capacité statique génère un
    # effet continu qui est un effet de copie, ..."
    html = client.get("/rule/707.2c").text
    assert "Si une capacité statique génère un effet continu" in html
    assert _columns(html) == ["en", "fr"]
    assert _columns(client.get("/rule/707.2c?first=fr").text) == ["fr", "en"]
    response = client.get("/prefs?first=fr&next=/rule/707.2c", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/rule/707.2c"
    assert _columns(client.get("/rule/707.2c", headers={"cookie": "kb_first=fr"}).text) == [
        "fr", "en"]
    versioned = Tags(client.get("/rule/707.2c?version=2025-03-01").text)
    assert any(h.endswith("&next=/rule/707.2c%3Fversion%3D2025-03-01")
               for h in versioned.hrefs())
    for outside in ("//evil.example/", "/%5Cevil.example/", "https://evil.example/"):
        response = client.get(f"/prefs?first=fr&next={outside}", follow_redirects=False)
        assert response.headers["location"] == "/"


def test_rule_page_examples_carry_their_check_status(client: TestClient) -> None:
    check = client.get("/api/check").json()
    statuses = {e["id"]: e["status"] for e in check["examples"]}
    example = next(i for i, s in statuses.items() if i.startswith("cr:en:2026-04-17:702.19")
                   and s == "verified")
    number = example.split(":")[3].split("/")[0]
    html = client.get(f"/rule/{number}").text
    assert 'class="status st-verified"' in html


def test_card_page_pairs_rulings_and_draws_mana(client: TestClient) -> None:
    # MTGJSON DGM: Aetherling costs {4}{U}{U}; the French FAQ calls it Ætherlin.
    html = client.get("/card/aetherlin").text
    assert "Ætherlin" in html and "Aetherling" in html
    assert html.count('class="ms ms-u" title="{U}"') >= 2
    assert 'class="pair ruling"' in html


def test_search_page_filters_and_pages(client: TestClient) -> None:
    html = client.get("/search?q=trample&kind=rule&lang=en").text
    page = Tags(html)
    assert "<mark>" in html
    assert any(h.startswith("/rule/702.19") for h in page.hrefs())
    assert any("page=2" in h for h in page.hrefs())
    second = client.get("/search?q=trample&kind=rule&lang=en&page=2").text
    assert 'start="11"' in second


def test_search_in_french_links_the_rule(client: TestClient) -> None:
    page = Tags(client.get("/search?q=pi%C3%A9tinement").text)
    assert any(h.startswith("/rule/702.19") for h in page.hrefs("result-head"))


def test_search_page_says_what_it_did(client: TestClient) -> None:
    """Issue 23: kb says what it did with a question, on the web as on the command line: a
    card no corpus holds and a word no text holds are named, and the rest is answered."""
    html = client.get("/search?q=casting+foo+%5B%5BZulaport+Cutthroat%5D%5D").text
    assert "No card named &#39;Zulaport Cutthroat&#39;: searched without it" in html
    assert "No text holds &#39;foo&#39;: searched without them" in html
    assert 'class="result-head"' in html


def test_pages_for_missing_things_are_404(client: TestClient) -> None:
    assert client.get("/rule/999.9").status_code == 404
    assert client.get("/card/nothing-of-the-kind").status_code == 404
    assert client.get("/record/no:such:id").status_code == 404
    assert client.get("/no/such/page").status_code == 404
    assert client.get("/rule/702.19?version=someday").status_code == 400
    assert client.get("/search?q=trample&page=x").status_code == 400


def test_corpus_markup_is_escaped(evil_index: Path) -> None:
    with TestClient(create_app(evil_index)) as client:
        html = client.get(f"/card/{slug(EVIL)}").text
        for raw in (EVIL, EVIL_FR, EVIL_RULING):
            assert raw not in html
        assert "&lt;script&gt;window.kbPwned = 1&lt;/script&gt;Evil &lt;b&gt;Fiend&lt;/b&gt;" \
            in html
        assert Tags(html).script_text == []
        results = client.get("/search?q=fiend").text
        assert "<script>window" not in results and "<b>Fiend</b>" not in results
        assert "kbPwned" in results  # shown, as text


def test_history_page_follows_renumbering(client: TestClient) -> None:
    # Trample: 702.18 in the 2013-05-01 rules, 702.19 since 2023-04-14.
    html = client.get("/history/702.19").text
    section = html.split('id="h-702.19"', 1)[1].split("</section>", 1)[0]
    assert "702.18" in section and "renumbered from 702.18" in section
    assert 'id="h-702.19a"' in html  # and its subrules
    assert client.get("/history/999.9").status_code == 404


def test_a_section_links_its_history_instead_of_inlining_it(client: TestClient) -> None:
    html = client.get("/rule/702").text
    assert 'href="/history/702?version=' in html
    assert "history-table" not in html


def test_rule_page_lists_what_cites_it(client: TestClient) -> None:
    # 702.102b says "(See rule 709.4.)": 709.4 is cited by it.
    html = client.get("/rule/709.4").text
    cited_by = html.split('class="cited-by"', 1)[1].split("</section>", 1)[0]
    assert 'href="/rule/702.102b"' in cited_by
