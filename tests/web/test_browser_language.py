"""The site in French and English in Debian's Chromium (issue 22): the browser's language
chooses, the switch changes it for every page after, <html lang> follows, a French search shows
French texts first, errors speak the reader's language. With ``KB_SCREENSHOTS=DIR`` set, every
page is also photographed in both languages at desktop and phone widths, for a person to look
at (the test then checks only that nothing is wider than the screen)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .test_browser import DESKTOP, PHONE, browser, page, site  # noqa: F401 (fixtures)

FRENCH = {"locale": "fr-FR"}  # Chromium's Accept-Language and navigator.language


def _tab(browser: Any, **options: Any) -> Any:  # noqa: F811
    context = browser.new_context(viewport=DESKTOP, **options)
    return context, context.new_page()


def test_the_browser_language_chooses(site: str, browser: Any) -> None:  # noqa: F811
    context, tab = _tab(browser, **FRENCH)
    tab.goto(site + "/")
    assert tab.locator("html").get_attribute("lang") == "fr"
    assert tab.locator("h1").inner_text() == "Les règles de Magic, en français et en anglais"
    assert tab.locator("#home-q").get_attribute("placeholder").startswith("piétinement")
    tab.goto(site + "/rule/999.99")
    assert tab.locator("h1").inner_text() == "Introuvable"
    assert tab.locator("p.error").inner_text().startswith("Aucune règle 999.99 dans les règles")
    context.close()
    context, tab = _tab(browser, locale="en-US")
    tab.goto(site + "/")
    assert tab.locator("html").get_attribute("lang") == "en"
    assert tab.locator("h1").inner_text() == "The Magic rules, in French and English"
    context.close()


def test_the_switch_changes_the_language_of_every_page_after(site, page) -> None:  # noqa: F811
    page.goto(site + "/rule/702.19b")
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator("#ui-fr").click()
    page.wait_for_url("**/rule/702.19b?ui=fr")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("nav.crumbs").inner_text().startswith("Table des matières")
    page.locator("nav.menu a", has_text="Glossaire").click()  # a plain link: the cookie
    page.wait_for_url("**/glossary")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("h1").inner_text().startswith("Glossaire français")
    page.locator("#ui-en").click()
    page.wait_for_url("**/glossary?ui=en")
    assert page.locator("h1").inner_text().startswith("Glossary")


def test_a_french_search_shows_the_french_text_first(site, browser) -> None:  # noqa: F811
    context, tab = _tab(browser, **FRENCH)
    tab.goto(site + "/")
    tab.locator("#home-q").fill("copie capacités")
    tab.locator("#home-q").press("Enter")
    tab.wait_for_url("**/search?q=copie+capacit%C3%A9s")
    answer = tab.locator("li.result", has=tab.locator("a.result-head", has_text="707.2a"))
    first = answer.locator("p.snippet").first
    assert first.get_attribute("lang") == "fr"
    assert "capacités" in first.locator("mark").all_inner_texts()
    context.close()


PAGES = ["/", "/rule/702.19b", "/rule/707.2a", "/search?q=copie+capacit%C3%A9s",
         "/search?q=que+se+passe-t-il+quand+une+cr%C3%A9ature+avec+le+contact+mortel+bloque",
         "/glossary?letter=P", "/glossary?order=en&letter=T", "/terms", "/card/aetherling",
         "/diff?old=2025-02-07&section=702.19", "/history/702.102", "/report", "/check",
         "/versions", "/api", "/rule/999.99"]


@pytest.mark.skipif(not os.environ.get("KB_SCREENSHOTS"),
                    reason="screenshots only when KB_SCREENSHOTS names a folder")
@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_screenshots(site: str, browser: Any, language: str, width: str) -> None:  # noqa: F811
    folder = Path(os.environ["KB_SCREENSHOTS"])
    folder.mkdir(parents=True, exist_ok=True)
    viewport = DESKTOP if width == "desktop" else PHONE
    context = browser.new_context(viewport=viewport, is_mobile=width == "phone",
                                  locale="fr-FR" if language == "fr" else "en-US")
    tab = context.new_page()
    for n, url in enumerate(PAGES):
        tab.goto(site + url)
        assert tab.locator("html").get_attribute("lang") == language, url
        name = f"{n:02d}-{url.strip('/').split('?')[0].replace('/', '_') or 'home'}"
        tab.screenshot(path=folder / f"{name}-{language}-{width}.png", full_page=False)
        assert tab.evaluate("document.documentElement.scrollWidth") <= viewport["width"], url
    context.close()
