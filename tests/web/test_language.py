"""The site in French and English (issue 22): the browser's Accept-Language, else English; the
switch, kept in a cookie and in the address; <html lang> following; rendered pages kept per
language; JSON errors in the reader's language with their codes unchanged; the French glossary
of the official vocabulary; the terms page's order."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kb.web.app import create_app

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.8"}
ENGLISH = {"Accept-Language": "en-US,en;q=0.9"}


@pytest.fixture
def fresh(cr_index: Path) -> Iterator[TestClient]:
    """A client of its own: cookies and rendered pages start empty."""
    with TestClient(create_app(cr_index)) as test_client:
        yield test_client


def lang(html: str) -> str:
    found = re.search(r'<html lang="([^"]*)"', html)
    assert found, html[:200]
    return found.group(1)


def h1(html: str) -> str:
    found = re.search(r"<h1>(.*?)</h1>", html, re.S)
    assert found
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


@pytest.mark.parametrize(("url", "french", "english"), [
    ("/", "Les règles de Magic, en français et en anglais",
     "The Magic rules, in French and English"),
    ("/search?q=trample", "Résultats pour", "Results for"),
    ("/glossary", "Glossaire français", "Glossary"),
    ("/terms", "Termes français / anglais", "French / English terms"),
    ("/versions", "Versions des règles complètes", "Comprehensive Rules versions"),
    ("/diff", "Ce qui a changé entre deux versions", "What changed between two versions"),
])
def test_accept_language_chooses_and_html_lang_follows(client: TestClient, url: str,
                                                        french: str, english: str) -> None:
    page = client.get(url, headers=FRENCH)
    assert page.status_code == 200 and lang(page.text) == "fr"
    assert h1(page.text).startswith(french)
    assert "Accept-Language" in page.headers["vary"]
    for headers in (ENGLISH, {"Accept-Language": "de-DE,de;q=0.9"}, {}):
        page = client.get(url, headers=headers)
        assert lang(page.text) == "en" and h1(page.text).startswith(english)


def test_a_rule_page_in_french(fresh: TestClient) -> None:
    # A client of its own: another test's "first" switch leaves a cookie in the shared one.
    client = fresh
    page = client.get("/rule/707.2a", headers=FRENCH).text
    assert lang(page) == "fr"
    assert "Règles du" in page and "Cité par" in page or "Historique" in page
    # a French reader reads French first: the French column before the English one
    columns = re.findall(r'<div class="col[^"]*" data-lang="(\w+)"', page)
    assert columns[:2] == ["fr", "en"]
    assert '<h3 class="lang-head">Français</h3>' in page
    english = client.get("/rule/707.2a", headers=ENGLISH).text
    assert re.findall(r'<div class="col[^"]*" data-lang="(\w+)"', english)[:2] == ["en", "fr"]


def test_the_switch_keeps_the_language_in_a_cookie_and_in_the_address(fresh: TestClient) -> None:
    assert lang(fresh.get("/rule/702.19b", headers=ENGLISH).text) == "en"
    switch = fresh.get("/prefs?ui=fr&next=/rule/702.19b%3Fversion%3D2013-06-01",
                       follow_redirects=False)
    assert switch.status_code == 303
    assert switch.headers["location"] == "/rule/702.19b?version=2013-06-01&ui=fr"
    assert "kb_ui=fr" in switch.headers["set-cookie"]
    # the cookie wins over the browser's languages, on any page
    assert lang(fresh.get("/glossary", headers=ENGLISH).text) == "fr"
    # the address wins over the cookie (a link in a language keeps it)
    assert lang(fresh.get("/glossary?ui=en", headers=FRENCH).text) == "en"
    # the switch's own links lead back to the same page, without the old choice
    page = fresh.get("/search?q=trample&ui=fr").text
    assert 'href="/prefs?ui=en&amp;next=/search%3Fq%3Dtrample"' in page
    back = fresh.get("/prefs?ui=en&next=/search%3Fq%3Dtrample", follow_redirects=False)
    assert back.headers["location"] == "/search?q=trample&ui=en"
    assert lang(fresh.get("/", headers=FRENCH).text) == "en"


def test_rendered_pages_are_kept_per_language(fresh: TestClient) -> None:
    """The rendered-answer cache keys on the language: the same address asked in English,
    then in French, then in English again, answers each in its own."""
    for _ in range(2):
        assert lang(fresh.get("/rule/702.19b", headers=ENGLISH).text) == "en"
        assert lang(fresh.get("/rule/702.19b", headers=FRENCH).text) == "fr"
        assert fresh.get("/api/suggest?q=702.19", headers=FRENCH).json()[0]["tag"] == "règle"
        assert fresh.get("/api/suggest?q=702.19", headers=ENGLISH).json()[0]["tag"] == "rule"


def test_a_french_search_shows_french_first_and_says_when_there_is_none(
        client: TestClient) -> None:
    page = client.get("/search?q=copie+capacit%C3%A9s", headers=FRENCH).text
    assert "Également cherché" in page
    answer = page[page.index('href="/rule/707.2a"'):]
    answer = answer[:answer.index("</li>")]
    snippets = re.findall(r'<p class="snippet" lang="(\w+)">(.*?)</p>', answer, re.S)
    assert snippets[0][0] == "fr" and "<mark>capacités</mark>" in snippets[0][1]
    none = client.get("/search?q=que+se+passe-t-il+quand+une+cr%C3%A9ature+avec+le+contact"
                      "+mortel+bloque", headers=FRENCH).text
    assert none.count('id="missing-language"') == 1
    assert "Aucune de ces réponses n’a de texte en français dans l’index" in none


def test_errors_in_french_with_their_statuses_and_codes(client: TestClient) -> None:
    page = client.get("/rule/999.99", headers=FRENCH)
    assert page.status_code == 404 and lang(page.text) == "fr"
    assert h1(page.text) == "Introuvable" and "Aucune règle 999.99" in page.text
    assert client.get("/rule/999.99", headers=ENGLISH).text.count("No rule 999.99") == 1
    missing = client.get("/nowhere", headers=FRENCH)
    assert missing.status_code == 404 and "Aucune page à l’adresse /nowhere" in missing.text
    api = client.get("/api/rules/999.99", headers=FRENCH)
    assert api.status_code == 404
    error = api.json()["error"]
    assert error["code"] == 1 and error["kind"] == "not-found"
    assert error["message"].startswith("aucune règle 999.99 dans les règles du 2026-04-17")
    usage = client.get("/api/search?q=trample&limit=0", headers=FRENCH).json()["error"]
    assert usage["code"] == 2 and usage["message"] == "limit\u00a0: 0 est hors limites (1-200)"
    english = client.get("/api/search?q=trample&limit=0").json()["error"]
    assert english["code"] == 2 and english["message"] == "limit: 0 is out of range (1-200)"


def test_the_french_glossary_is_the_official_vocabulary(client: TestClient) -> None:
    """official_terms.tsv: "piétinement" / "trample", "cimetière" / "graveyard"; each with the
    English glossary's entry of its English term, the French in French alphabetical order."""
    page = client.get("/glossary?letter=P", headers=FRENCH).text
    entry = page[page.index('id="g-pietinement"'):]
    assert entry.startswith('id="g-pietinement"><span lang="fr">piétinement</span>')
    assert '<span class="en" lang="en">· trample</span>' in entry[:200]
    assert "A keyword ability that modifies how a creature assigns combat damage" in entry[:600]
    terms = re.findall(r'<dt id="g-[^"]*"><span lang="fr">([^<]*)</span>', page)
    assert terms == sorted(terms, key=lambda t: t.lower().replace("é", "e").replace("è", "e")
                           .replace("ê", "e").replace("î", "i").replace("ô", "o"))
    assert "piétinement" in terms and "protection" in terms
    graveyard = client.get("/glossary?letter=C", headers=FRENCH).text
    assert '<span lang="fr">cimetière</span>' in graveyard
    assert "cimetiere" not in re.sub(r'id="[^"]*"', "", graveyard)  # no folded form shown
    # the English glossary names each term's official French forms, not parallel-text guesses
    english = client.get("/glossary?letter=G&order=en", headers=FRENCH).text
    row = english[english.index('id="g-graveyard"'):]
    assert '<span class="fr" lang="fr">· cimetière</span>' in row[:300]


def test_the_terms_page_puts_the_official_vocabulary_first(client: TestClient) -> None:
    page = client.get("/terms", headers=FRENCH).text
    rows = re.findall(r"<tr><td lang=\"fr\"><a [^>]*>([^<]*)</a></td><td lang=\"en\"><a [^>]*>"
                      r"([^<]*)</a></td><td>([^<]*)</td>", page)
    assert rows and rows[0][2].startswith("officiel")
    assert ("quand", "when") not in {(f, e) for f, e, _ in rows}
    found = client.get("/terms?q=cimeti%C3%A8re", headers=FRENCH).text
    (row,) = re.findall(r"<tr><td lang=\"fr\">.*?</tr>", found)  # one row, every evidence
    assert ">cimetière<" in row and "officiel" in row and "textes parallèles" in row


def test_the_record_page_and_the_report_in_french(client: TestClient) -> None:
    """Issue 22: the record page names its fields and the report page words its findings in
    the reader's language; identifiers and quoted texts stay as they are."""
    record = client.get("/record/kw:fr:echo:note/1", headers=FRENCH).text
    fields = re.findall(r'<th scope="row">([^<]+)</th>', record)
    assert "fichier" in fields and "langue" in fields and "language" not in fields
    english = client.get("/record/kw:fr:echo:note/1", headers=ENGLISH).text
    assert "language" in re.findall(r'<th scope="row">([^<]+)</th>', english)
    report = client.get("/report?category=coverage", headers=FRENCH).text
    assert "est laissée en anglais dans le texte français de" in report
    assert "is left in English" not in report
    assert "is left in English in the French text of" in client.get(
        "/report?category=coverage", headers=ENGLISH).text


def test_the_check_page_keeps_its_results_in_english_whoever_asks_first(
        fresh: TestClient) -> None:
    """kb check is played once for every reader: a French reader asking first must not leave
    French words in the results an English reader gets (the page shows them as English
    data, lang="en"); the page's own words follow each reader."""
    url = "/check?status=not+checkable"
    french = fresh.get(url, headers=FRENCH).text
    english = fresh.get(url, headers=ENGLISH).text
    assert "non vérifiable (" not in english
    assert re.search(r'<span lang="en">not checkable \((timing|randomness|definition)\): ',
                     english)
    assert re.search(r'<span lang="en">not checkable \((timing|randomness|definition)\): ',
                     french)
    assert lang(french) == "fr" and lang(english) == "en"
