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
    suggestion = page.locator("ul.suggest a", has_text="Ætherlin")
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
