"""End to end in Debian's Chromium, driven by Playwright for Python (pointed at
/usr/bin/chromium: Playwright's own browser download cannot run here). Skipped when Chromium
or Playwright is absent, except under CI (env CI set), where their absence fails."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kb.web.app import create_app
from kb.web.data import slug

from .conftest import EVIL, EVIL_FR

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"required under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.is_file():
        _missing(f"Chromium not installed at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright not installed (pip install '.[test]')")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def axe() -> Any:
    """axe-core, as the axe-playwright-python package bundles it (no browser download)."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        _missing("axe-playwright-python not installed (pip install '.[test]')")
    return Axe()


def _serve(index: Path) -> Iterator[str]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(index), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def site(cr_index: Path) -> Iterator[str]:
    yield from _serve(cr_index)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield tab
    context.close()
    assert errors == []  # no script error, no CSP violation


def test_search_in_french_with_suggestions(site: str, page: Any) -> None:
    page.goto(site + "/")
    box = page.locator("#home-q")
    box.press_sequentially("piétin", delay=30)
    page.locator("ul.suggest li").first.wait_for(timeout=10_000)
    box.fill("piétinement")
    box.press("Enter")
    page.wait_for_url("**/search?q=pi%C3%A9tinement*")
    first = page.locator("a.result-head").first
    assert first.inner_text().startswith("702.19")
    first.click()
    page.wait_for_url("**/rule/702.19*")
    assert "Trample" in page.locator("h1").inner_text()


def test_follow_a_citation(site: str, page: Any) -> None:
    # CR 2026-04-17, 702.102b: "... (See rule 709.4.)"
    page.goto(site + "/rule/702.102b")
    page.locator("a.cite", has_text="rule 709.4").first.click()
    page.wait_for_url("**/rule/709.4")
    assert page.locator("h1").inner_text().startswith("709.4")


def test_switch_version(site: str, page: Any) -> None:
    page.goto(site + "/rule/702.102")
    # the picker submits itself (a little script); the page works with the button too
    with page.expect_navigation():
        page.select_option("#version-picker", "2023-04-14")
    assert "/rule/702.102?" in page.url and "version=2023-04-14" in page.url
    assert page.locator("h1").inner_text() == "702.102 Fuse"
    # the rule's number in 2013: "702.100. Fuse"
    page.locator("a.ver", has_text="702.100").click()
    page.wait_for_url("**/rule/702.100?version=2013-05-01")
    assert page.locator("h1").inner_text() == "702.100 Fuse"


def test_the_version_picker_follows_the_rule_not_the_number(site: str, page: Any) -> None:
    """Trample is 702.19 today (MagicCompRules 20260417.txt line 4073) and 702.18 in the rules
    of 2013-05-01 (MagicCompRules 20130429.txt line 2863), whose 702.19b is Vigilance's."""
    page.goto(site + "/rule/702.19b")
    with page.expect_navigation():
        page.select_option("#version-picker", "2013-05-01")
    assert page.locator("h1").inner_text().startswith("702.18b")
    note = page.locator("#number-then").inner_text()
    assert note == ("Trample: 702.19b of the rules of 2026-04-17 is numbered 702.18b in the "
                    "rules of 2013-05-01.")
    body = page.locator("main").inner_text()
    assert "The controller of an attacking creature with trample first assigns damage" in body
    assert "Attacking doesn't cause creatures with vigilance to tap" not in body
    # and back: from 2013's 702.18b, today's rules show 702.19b
    with page.expect_navigation():
        page.select_option("#version-picker", "2026-04-17")
    assert page.locator("h1").inner_text().startswith("702.19b")


def test_open_a_card_by_its_french_name(site: str, page: Any) -> None:
    page.goto(site + "/")
    page.locator("#home-q").press_sequentially("Ætherl", delay=30)
    suggestion = page.locator("ul.suggest li", has_text="Ætherlin")
    suggestion.first.wait_for(timeout=10_000)
    suggestion.first.click()
    page.wait_for_url("**/card/aetherlin")
    assert page.locator("h1").inner_text() == "Aetherling"
    assert page.locator(".card-name", has_text="Ætherlin").count() >= 1


@pytest.mark.parametrize("url", ["/", "/rule/702.19", "/rule/707.2c",
                                 "/search?q=trample+damage", "/card/aetherling",
                                 "/diff?old=2025-02-07&section=702.19", "/glossary",
                                 "/terms", "/report", "/check", "/api"])
def test_phone_layout(site: str, browser: Any, url: str) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    tab = context.new_page()
    tab.goto(site + url)
    width = tab.evaluate("document.documentElement.scrollWidth")
    columns = tab.evaluate("[...document.querySelectorAll('.pair')].map("
                           "p => getComputedStyle(p).gridTemplateColumns.split(' ').length)")
    context.close()
    assert width <= PHONE["width"]  # nothing wider than the screen
    assert all(n == 1 for n in columns)  # French and English stacked


def test_desktop_puts_languages_side_by_side(site: str, page: Any) -> None:
    page.goto(site + "/rule/707.2c")
    boxes = [page.locator(".pair").first.locator(".col").nth(i).bounding_box()
             for i in range(2)]
    assert boxes[0]["y"] == boxes[1]["y"] and boxes[0]["x"] < boxes[1]["x"]


@pytest.fixture(scope="module")
def evil_site(evil_index: Path) -> Iterator[str]:
    yield from _serve(evil_index)


def test_script_in_a_card_name_runs_no_script(evil_site: str, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    tab = context.new_page()
    dialogs: list[str] = []
    tab.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    for url in (f"/card/{slug(EVIL)}", "/search?q=fiend", "/search?q=kbpwned"):
        tab.goto(evil_site + url)
        assert tab.evaluate("window.kbPwned") is None
    tab.goto(evil_site + f"/card/{slug(EVIL)}")
    assert "<script>window.kbPwned = 1</script>Evil" in tab.locator("h1").inner_text()
    # typed into the search box, the name comes back as text in the suggestions too
    tab.locator("header input[name=q]").press_sequentially("kbpwned", delay=20)
    shown = tab.locator("ul.suggest li .label").first
    shown.wait_for(timeout=10_000)
    labels = tab.locator("ul.suggest li .label").all_inner_texts()
    assert {EVIL, EVIL_FR} <= set(labels)
    assert tab.evaluate("window.kbPwned") is None
    context.close()
    assert dialogs == []


# -- accessibility: axe-core on every page, both widths, both languages ----------------------

# Every kind of page the site has, with its empty states and an error page.
EVERY_PAGE = ["/", "/contents", "/rule/702.19b", "/rule/702", "/rule/707.2", "/history/702.19",
              "/search", "/search?q=trample", "/search?q=qqxqzzv",
              "/search?q=trample&kind=rule&lang=en&page=9", "/card/aetherling",
              "/diff", "/diff?old=2025-02-07&section=702.19", "/glossary",
              "/glossary?order=fr&letter=P", "/terms", "/terms?q=qqxq", "/report", "/check",
              "/versions", "/record/kw:fr:echo:note/1", "/api", "/help", "/rule/999.99"]
# A French reader: the browser asks for French, and French comes first (the cookie the
# language switch sets).
LANGUAGES = {"en": ({"Accept-Language": "en"}, None),
             "fr": ({"Accept-Language": "fr-FR,fr;q=0.9"}, "fr")}


def _context(browser: Any, site: str, width: str, language: str) -> Any:
    headers, first = LANGUAGES[language]
    context = browser.new_context(viewport=PHONE if width == "phone" else DESKTOP,
                                  is_mobile=width == "phone", extra_http_headers=headers,
                                  locale="fr-FR" if language == "fr" else "en-US")
    if first:
        context.add_cookies([{"name": "kb_first", "value": first, "url": site}])
    return context


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_every_page_has_no_accessibility_violation(site: str, browser: Any, axe: Any,
                                                   width: str, language: str) -> None:
    """axe-core's rules, every impact (moderate ones such as landmark-unique and heading-order
    included), on every page. With KB_SCREENSHOTS=folder, each page is also saved as a PNG to
    look at."""
    shots = os.environ.get("KB_SCREENSHOTS")
    context = _context(browser, site, width, language)
    tab = context.new_page()
    found = {}
    for url in EVERY_PAGE:
        tab.goto(site + url)
        violations = axe.run(tab).response["violations"]
        if violations:
            found[url] = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
                          for v in violations]
        if shots:
            name = url.strip("/").translate(str.maketrans("/?&=", "____")) or "home"
            Path(shots).mkdir(parents=True, exist_ok=True)
            tab.screenshot(path=f"{shots}/{name}.{language}.{width}.png", full_page=True)
    context.close()
    assert found == {}


# -- the keyboard and the search box --------------------------------------------------------


def test_keyboard_only_from_home_to_a_result_in_four_tabs(site: str, page: Any) -> None:
    page.goto(site + "/")
    assert page.evaluate("document.activeElement.id") == "home-q"  # the box has the focus
    page.keyboard.type("trample")
    page.keyboard.press("Escape")  # close the suggestions; the query stays
    page.keyboard.press("Enter")
    page.wait_for_url("**/search?q=trample*")
    tabs = 0
    while tabs < 4:
        page.keyboard.press("Tab")
        tabs += 1
        focused = page.evaluate("[document.activeElement.className, "
                                "document.activeElement.getAttribute('href')]")
        if focused[0] == "skip":
            assert focused[1] == "#results"
            page.keyboard.press("Enter")  # skip to the results
        if focused[0] == "result-head":
            break
    assert focused[0] == "result-head", f"after {tabs} Tabs the focus is on {focused}"
    page.keyboard.press("Enter")
    page.wait_for_url("**/rule/702.19*")


def test_suggestions_are_an_aria_combobox(site: str, page: Any) -> None:
    page.goto(site + "/")
    box = page.locator("#home-q")
    assert box.get_attribute("role") == "combobox"
    assert box.get_attribute("aria-expanded") == "false"
    box.press_sequentially("pi", delay=30)  # no language said yet: French and English
    listbox = page.locator("#" + box.get_attribute("aria-controls"))
    listbox.locator("[role=option]").first.wait_for(timeout=10_000)
    assert listbox.get_attribute("role") == "listbox"
    assert box.get_attribute("aria-expanded") == "true"
    assert box.get_attribute("aria-activedescendant") is None
    box.press("ArrowDown")
    first = listbox.locator("[role=option]").first
    assert box.get_attribute("aria-activedescendant") == first.get_attribute("id")
    assert first.get_attribute("aria-selected") == "true"
    box.press("ArrowDown")
    second = listbox.locator("[role=option]").nth(1)
    assert box.get_attribute("aria-activedescendant") == second.get_attribute("id")
    assert first.get_attribute("aria-selected") == "false"
    # Escape closes the list and keeps the query (a search field would also empty itself)
    box.press("Escape")
    assert box.input_value() == "pi"
    assert listbox.is_hidden()
    assert box.get_attribute("aria-expanded") == "false"
    assert box.get_attribute("aria-activedescendant") is None
    # the list comes back with more typing; Enter opens the active option
    box.press_sequentially("étinement", delay=30)
    option = listbox.locator("[role=option]", has_text="piétinement").first
    option.wait_for(timeout=10_000)
    while box.get_attribute("aria-activedescendant") != option.get_attribute("id"):
        box.press("ArrowDown")
    box.press("Enter")
    page.wait_for_url("**/search?q=pi%C3%A9tinement")


def test_skip_link_is_first_and_shown_when_focused(site: str, page: Any) -> None:
    page.goto(site + "/rule/702.19b")
    page.keyboard.press("Tab")
    skip = page.locator("a.skip")
    assert page.evaluate("document.activeElement.className") == "skip"
    box = skip.bounding_box()
    assert box is not None and box["x"] >= 0 and box["y"] >= 0  # on screen once focused
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"


def test_a_section_page_is_a_contents_not_a_wall(site: str, page: Any) -> None:
    # /rule/702 was 161,807 px tall: 754 rules, each with "No French text..."
    page.goto(site + "/rule/702")
    assert page.evaluate("document.documentElement.scrollHeight") < 10_000
    assert page.get_by_text("No French text", exact=False).count() == 1
    page.locator("ul.toc a", has_text="702.19 Trample").click()
    page.wait_for_url("**/rule/702.19")
    page.locator("a[rel=next]").click()
    page.wait_for_url("**/rule/702.20")
    assert page.locator("h1").inner_text() == "702.20 Vigilance"
