"""The pages: what they show from the index, their links, the language order, the security
headers and the escaping of corpus text."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode

import pytest
from markupsafe import escape
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


def test_a_french_text_of_2013_cites_todays_rule_and_says_so(client: TestClient) -> None:
    # The French FAQ (001_*, line 34): 702.100a "(voir règle 708, « Cartes doubles »)"; split
    # cards are 708 in the rules of 2013 and 709 today.
    html = client.get("/rule/702.102a").text
    assert re.search(r'<a class="cite" href="/rule/709">règle 708</a> '
                     r'<span class="then">\(708 in 2013, today 709\)</span>', html)
    # The English of today cites 709 itself, in its own version: no note.
    assert html.count('class="then"') == 1


def test_a_picked_version_follows_the_rule(client: TestClient) -> None:
    """/rule/702.19b, 2013 in the picker: Trample was 702.18 in the rules of 2013-05-01."""
    html = client.get("/rule/702.19b?from=2026-04-17&version=2013-05-01").text
    assert "<h1><span class=\"num\">702.18b</span></h1>" in html
    assert "Trample: 702.19b of the rules of 2026-04-17 is numbered 702.18b" in html
    assert client.get("/rule/702.19b?version=2013-05-01").text.count("vigilance") > 0
    missing = client.get("/rule/702.190a?from=2026-04-17&version=2013-05-01")
    assert missing.status_code == 404


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
    return re.findall(r'<div class="col[^"]*" data-lang="(\w+)"', first_pair)[:2]


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


def test_card_page_shows_a_ruling_once_with_both_sources(client: TestClient) -> None:
    # The FAQ's Ætherling ruling (2013-03-21) and MTGJSON's Aetherling copy (2013-04-15).
    html = client.get("/card/aetherling").text
    assert html.count('class="pair ruling"') == 2
    assert html.count("left the battlefield in response to that ability") == 1
    # Each publication named by its document (file and line on hover), with the ruling's date
    # where it is not the document's own.
    faq = html.index('title="ormos_dgm_faq_2013-04-22.md:')
    assert html.index("Frequently Asked Questions</cite>, 2013-03-21", faq) > faq
    assert re.search(r"2013-04-15 · <cite[^>]*>MTGJSON 5.2.0\+20220425: Dragon&#39;s Maze", html)


def test_rule_page_shows_a_community_translation_labelled(translations) -> None:
    index, _ = translations
    with TestClient(create_app(index)) as local:
        html = local.get("/rule/702.19b?version=2022-06-10").text
    others = re.findall(r'<div class="other">.*?</div>', html, re.S)
    other = next(o for o in others if '<span lang="zh">' in o)
    assert "community translation, not official text" in other
    assert "702.19b · 2022-06-10 · " in other
    assert "具有践踏的攻击生物之操控者" in html


def test_search_page_filters_and_pages(client: TestClient) -> None:
    html = client.get("/search?q=trample&kind=rule&lang=en").text
    page = Tags(html)
    assert "<mark>" in html
    assert any(h.startswith("/rule/702.19") for h in page.hrefs())
    # Hundreds of English rules say "damage": a second page, numbered on from 11.
    assert any("page=2" in h for h in Tags(client.get("/search?q=damage&kind=rule&lang=en")
                                          .text).hrefs())
    second = client.get("/search?q=damage&kind=rule&lang=en&page=2").text
    assert 'start="11"' in second


def test_search_offers_a_next_page_only_when_it_has_answers(client: TestClient) -> None:
    # The English rules that say "trample": 702.19 and its subrules and a few others, fewer
    # than two pages; the last page has no "next" link, and a page past the end says so.
    pages, n = [], 1
    while True:
        html = client.get(f"/search?q=trample&kind=rule&lang=en&page={n}").text
        pages.append(html)
        if f"page={n + 1}" not in html:
            break
        n += 1
    assert 'class="result"' in pages[-1]
    past = client.get(f"/search?q=trample&kind=rule&lang=en&page={n + 1}").text
    assert 'class="result"' not in past and "No more results on this page." in past


def test_search_in_french_links_the_rule(client: TestClient) -> None:
    page = Tags(client.get("/search?q=pi%C3%A9tinement").text)
    assert any(h.startswith("/rule/702.19") for h in page.hrefs("result-head"))


def test_search_page_says_what_it_did(client: TestClient) -> None:
    """Issue 23: kb says what it did with a question, on the web as on the command line: a
    card no corpus holds and a word no text holds are named, and the rest is answered."""
    html = client.get("/search?q=casting+foo+%5B%5BZulaport+Cutthroat%5D%5D").text
    assert "No card named &#39;Zulaport Cutthroat&#39;: searched without it" in html
    assert "No text holds &#39;foo&#39;: searched without it" in html
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
    assert "702.18" in section and "Renumbered from 702.18" in section
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


# -- the pages a judge would choose (issue 22) ---------------------------------------------


def _main(html: str) -> str:
    return html.split('<main id="main"', 1)[1].split("</main>", 1)[0]


def test_rule_heading_has_its_chapter_path_and_neighbours(client: TestClient) -> None:
    # CR 2026-04-17: "7. Additional Rules", "702. Keyword Abilities", "702.19. Trample",
    # then 702.19a ... 702.19g; 702.18 is Shroud, 702.20 Vigilance.
    html = client.get("/rule/702.19b").text
    crumbs = html.split('class="crumbs"', 1)[1].split("</nav>", 1)[0]
    assert re.findall(r'href="(/rule/[^"]+)"[^>]*>([^<]+)<', crumbs) == [
        ("/rule/7", "7. Additional Rules"), ("/rule/702", "702. Keyword Abilities"),
        ("/rule/702.19", "702.19 Trample")]
    page = Tags(html)
    rel = {a.get("rel"): a.get("href") for t, a in page.tags if t == "a" and a.get("rel")}
    assert rel == {"prev": "/rule/702.19a", "next": "/rule/702.19c"}
    rel = {a.get("rel"): a.get("href") for t, a in Tags(client.get("/rule/702.19").text).tags
           if t == "a" and a.get("rel")}
    assert rel == {"prev": "/rule/702.18", "next": "/rule/702.20"}  # not 702.18f, 702.19a
    # the last subrule leads on to the next rule; the chapter path names an older version's
    rel = {a.get("rel"): a.get("href") for t, a in Tags(client.get("/rule/702.19g").text).tags
           if t == "a" and a.get("rel")}
    assert rel["next"] == "/rule/702.20"
    older = client.get("/rule/702.18b?version=2013-06-01").text  # trample was 702.18 in 2013
    assert ">702.18 Trample<" in older.split('class="crumbs"', 1)[1].split("</nav>", 1)[0]


def test_contents_lists_every_chapter_and_section(client: TestClient) -> None:
    # CR 2026-04-17, contents: "1. Game Concepts" ... "9. Casual Variants", "100. General",
    # "702. Keyword Abilities" (702.19 Trample among its rules) ... "905. Conspiracy Draft".
    html = client.get("/contents").text
    chapters = re.findall(r'<h2><a href="/rule/(\d)" lang="en">([^<]+)</a>', html)
    assert [n for n, _ in chapters] == [str(i) for i in range(1, 10)]
    assert chapters[0][1] == "1. Game Concepts" and chapters[-1][1] == "9. Casual Variants"
    for number, label in (("100", "100. General"), ("702", "702. Keyword Abilities"),
                          ("702.19", "702.19 Trample"), ("905", "905. Conspiracy Draft")):
        assert f'href="/rule/{number}" lang="en">{label}</a>' in html
    older = client.get("/contents?version=2013-06-01").text
    assert 'href="/rule/702.18?version=2013-05-01" lang="en">702.18 Trample</a>' in older


def test_a_section_says_no_french_text_once_and_lists_its_rules(client: TestClient) -> None:
    html = client.get("/rule/702").text
    # said once (it was said once per subrule, 754 times)
    assert _main(html).count('class="notice"') == 1
    assert 'href="/rule/702.19" lang="en">702.19 Trample</a>' in html
    # 702.19b's text is on its own page, not here
    assert "first assigns damage to the creature(s) blocking it" not in html
    whole = client.get("/rule/702?full=1").text
    assert "first assigns damage to the creature(s) blocking it" in whole
    assert _main(whole).count('class="notice"') == 1


def test_no_french_text_notice_is_not_marked_french(client: TestClient) -> None:
    import lxml.html

    for url in ("/rule/702.19b", "/rule/707.2"):
        tree = lxml.html.fromstring(client.get(url).text)
        notice = tree.xpath('//p[@class="notice"]')[0]
        langs = [e.get("lang") for e in notice.iterancestors() if e.get("lang")]
        assert notice.get("lang") in (None, "en") and langs[:1] in ([], ["en"])
        # every text of the rules carries its own language
        texts = tree.xpath('//section[starts-with(@id, "r-")]//p[@class="text"]')
        assert texts and all(any(e.get("lang") for e in t.iterancestors()) for t in texts)


def test_french_reader_sees_the_official_french_names_of_the_terms(client: TestClient) -> None:
    # 702.19b has no French text here; its English says "trample", "lethal damage",
    # "combat damage step", whose official French names are piétinement, blessures mortelles,
    # étape des blessures de combat (kb/link/official_terms.tsv).
    html = client.get("/rule/702.19b?first=fr").text
    box = html.split('class="french-names"', 1)[1].split("</section>", 1)[0]
    pairs = dict(re.findall(r'<dt lang="en">([^<]+)</dt><dd lang="fr">([^<]+)</dd>', box))
    assert pairs["trample"] == "piétinement"
    assert pairs["lethal damage"] == "blessures mortelles"
    assert pairs["combat damage step"] == "étape des blessures de combat"
    assert "french-names" not in client.get("/rule/702.19b?first=en").text  # English first


def test_sources_are_named_by_title_and_date(client: TestClient) -> None:
    # The French 707.2a comes from seed 003 (a French CR page of 2024 with no title of its
    # own); the English from the CR of 2026-04-17, titled "Magic: The Gathering
    # Comprehensive Rules".
    html = client.get("/rule/707.2a").text
    visible = re.sub(r'title="[^"]*"', "", _main(html))
    assert "003_45f11bb513e6f443.txt" not in visible
    assert "MagicCompRules 20260417.txt" not in visible
    assert "Magic: The Gathering Comprehensive Rules</cite>, 2026-04-17" in visible
    assert "Comprehensive Rules page</cite>, 2024" in visible
    record = client.get("/record/kw:fr:echo:note/1").text  # the record page keeps the file
    assert "000_3e28a88beae8982b.txt" in record


def test_history_in_plain_words_date_order_one_row_per_change(client: TestClient) -> None:
    # 702.19b: 702.18b in 2013-05-01 (the oldest version of this index); 702.19b and reworded
    # in 2023-04-14 ("any remaining damage" -> "any excess damage", "player, planeswalker, or
    # battle"); unchanged in 2025-02-07 and 2026-04-17: two rows for four versions.
    html = client.get("/rule/702.19b").text
    table = html.split('class="history-table"', 1)[1].split("</table>", 1)[0]
    for internal in ("first-held", "stale", "quote", "renumbered+changed"):
        assert internal not in table
    dates = re.findall(r'<tr class="\w+">\s*<td>(?:<a [^>]*>)?([\d-]+)', table)
    assert dates == sorted(dates) and dates == ["2013-05-01", "2023-04-14"]
    assert "Oldest text held" in table
    assert "Renumbered from 702.18b and reworded" in table and "to 2026-04-17" in table
    rows = re.findall(r"<tr class=.*?</tr>", table, re.S)
    assert len(rows) == len(set(rows))


def test_empty_search_says_what_to_type(client: TestClient) -> None:
    html = _main(client.get("/search").text)
    assert "Type a rule number, a word or a question" in html
    hrefs = Tags(html).hrefs()
    assert "/search?q=702.19b" in hrefs and "/help" in hrefs


def test_a_search_with_no_result_offers_spellings_and_the_syntax(client: TestClient) -> None:
    # No Portuguese document in this index: nothing, but the word without the filter, and
    # the glossary's Trample as a spelling near it.
    html = _main(client.get("/search?q=trample&lang=pt").text)
    assert "Nothing found for “trample”." in html
    hrefs = Tags(html).hrefs()
    assert "/search?q=trample" in hrefs  # the same words without the filter
    assert "/glossary?order=en&letter=T#g-trample" in hrefs  # the English glossary's entry
    assert "/help" in hrefs


def test_diff_without_dates_explains_and_gives_examples(client: TestClient) -> None:
    html = _main(client.get("/diff").text)
    assert "Choose two versions" in html
    assert "/diff?old=2025-02-07&amp;new=2026-04-17" in html  # the two newest held
    assert "/diff?old=2013-05-01&amp;new=2026-04-17&amp;section=702" in html


def test_a_missing_rule_links_its_nearest_rules(client: TestClient) -> None:
    # The last rules of the CR of 2026-04-17 are 905.5 and 905.6.
    response = client.get("/rule/999.99")
    assert response.status_code == 404
    hrefs = Tags(response.text).hrefs()
    assert "/rule/905.5?version=2026-04-17" in hrefs and "/rule/905.6?version=2026-04-17" in hrefs


def test_api_page_shows_each_endpoint_with_its_parameters(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    html = client.get("/api").text
    for path, item in spec["paths"].items():
        op = item["get"]
        section = html.split(f'id="{op["operationId"]}"', 1)[1].split("</section>", 1)[0]
        assert f"GET {path}" in section and str(escape(op["summary"])) in section
        names = re.findall(r'<th scope="row"><code>([^<]+)</code></th>', section)
        assert names == [p["name"] for p in op["parameters"]]
    assert "built-in method" not in html  # item.get once reached dict.get


def test_report_lists_errors_before_warnings(client: TestClient) -> None:
    html = client.get("/report").text
    order = ["error", "warning", "info"]
    severities = [order.index(s) for s in re.findall(r'class="finding sev-(\w+)"', html)]
    assert severities and severities == sorted(severities)


def test_search_syntax_help(client: TestClient) -> None:
    html = _main(client.get("/help").text)
    for example in ("rule:702.19*", "kind:rule trample", "lang:fr copie", "[[Aetherling]]",
                    "flying OR reach", "regenerat*"):
        assert f"/search?{urlencode({'q': example})}" in html.replace("&amp;", "&")
