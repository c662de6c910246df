"""The site's outer layer (issue 25): the Host check, relative redirects, security headers on
every answer (500s included), no server paths in answers, 503 for a damaged index on every
page, and the concurrency limit."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kb.build import build
from kb.corpus import embedded_corpus
from kb.indexdir import STORE_FILE, IndexDir
from kb.web import data
from kb.web.app import create_app

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")  # what kb serve answers to by default
SECURITY = {"x-content-type-options": "nosniff", "x-frame-options": "DENY",
            "referrer-policy": "no-referrer"}


def has_security_headers(response) -> bool:
    """The site's Content-Security-Policy (no script but its own file, nothing from outside)
    and its companions."""
    policy = response.headers.get("content-security-policy", "")
    return (policy.startswith("default-src 'none'; script-src 'self'")
            and all(response.headers.get(k) == v for k, v in SECURITY.items()))


@pytest.fixture(scope="module")
def local(cr_index: Path):
    """The site as kb serve runs it: answering the localhost names only."""
    with TestClient(create_app(cr_index, hosts=LOCAL_HOSTS), base_url="http://localhost",
                    follow_redirects=False) as client:
        yield client


@pytest.mark.parametrize("path", ["/search/", "/api/", "/static", "/rule/702.19b"])
def test_another_host_name_is_refused_and_never_redirected_to(local, path):
    """Issue 25, case 8: `Host: evil.example` on /search/, /api/ or /static got a 307 to
    http://evil.example/...: no Host check, so DNS rebinding reached a local server."""
    response = local.get(path, headers={"host": "evil.example"})
    assert response.status_code == 400 and "location" not in response.headers
    assert has_security_headers(response)
    for name in ("localhost:8765", "127.0.0.1", "[::1]:8765"):
        assert local.get(path, headers={"host": name}).status_code in (200, 307)


@pytest.mark.parametrize(("path", "target"), [("/search/", "/search"), ("/static", "/static/"),
                                              ("/api/", "/api")])
def test_redirects_are_relative(local, path, target):
    response = local.get(path, headers={"host": "localhost:8765"})
    assert response.status_code == 307
    assert response.headers["location"] == target


def test_host_names_and_patterns():
    from kb.web.guard import Hosts, host_of

    hosts = Hosts([*LOCAL_HOSTS, "*.example.org", "rules.example.com"])
    assert host_of("[::1]:8765") == "::1" and host_of("LocalHost.:80") == "localhost"
    for good in ("localhost", "127.0.0.1:8765", "[::1]", "a.example.org", "rules.example.com"):
        assert hosts.allows(good), good
    for bad in ("evil.example", "example.org.evil", "localhost.evil", "", "127.0.0.2",
                "rules.example.com.evil"):
        assert not hosts.allows(bad), bad
    assert Hosts(["*"]).allows("anything.at.all")


def test_a_500_carries_the_security_headers_and_no_traceback(cr_index, monkeypatch):
    """Issue 25, case 10: 500 answers had no CSP, nosniff, X-Frame-Options or
    Referrer-Policy."""
    def broken(reader, address):
        raise RuntimeError(f"a bug, in {cr_index}")

    monkeypatch.setattr(data, "card", broken)
    with TestClient(create_app(cr_index), raise_server_exceptions=False) as client:
        for path in ("/card/aetherling", "/api/cards/aetherling"):
            response = client.get(path)
            assert response.status_code == 500 and has_security_headers(response)
            assert "RuntimeError" in response.text and "Traceback" not in response.text
            assert str(cr_index) not in response.text


def test_every_answer_carries_the_headers_once(local):
    for path in ("/", "/api/versions", "/no/such/page", "/api/rules/999.9", "/static/kb.css",
                 "/search/"):
        response = local.get(path)
        assert has_security_headers(response), path
        assert len(response.headers.get_list("content-security-policy")) == 1


# Every kind of page and answer the site has (issue 25, case 12: with a damaged store, 7 of
# these 15 answered 500 "internal error: DatabaseError").
ENDPOINTS = ["/", "/search?q=trample", "/rule/702.27", "/history/702.27", "/card/aetherling",
             "/diff?old=2024-01-01", "/glossary", "/terms", "/report", "/check", "/versions",
             "/api/rules/702.27", "/api/search?q=trample", "/api/versions", "/api/report"]


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    """A small index whose store has lost pages (same size: readers that check sizes only
    would open it)."""
    index = tmp_path / "index"
    build(index, [embedded_corpus()])
    store = IndexDir(index).current() / STORE_FILE
    raw = bytearray(store.read_bytes())
    page = 4096
    for start in range(page * 2, len(raw) - page, page * 3):
        raw[start + 100:start + 200] = b"\xff" * 100
    store.write_bytes(bytes(raw))
    return index


def test_a_damaged_index_is_503_damaged_on_every_page_and_no_path(damaged: Path):
    with TestClient(create_app(damaged), raise_server_exceptions=False) as client:
        for path in ENDPOINTS:
            response = client.get(path)
            assert response.status_code == 503, (path, response.text[:300])
            assert "damaged" in response.text and "kb build" in response.text
            assert str(damaged) not in response.text and str(damaged.resolve()) not in \
                response.text
            assert has_security_headers(response)
            if path.startswith("/api/"):
                assert response.json()["error"]["kind"] == "damaged"
    shutil.rmtree(damaged)


def test_a_damaged_file_found_while_serving_is_503(tmp_path: Path):
    """A file altered after the generation was checked: the first error it causes is
    answered as damage, not as a bug."""
    index = tmp_path / "index"
    build(index, [embedded_corpus()])
    with TestClient(create_app(index), raise_server_exceptions=False) as client:
        assert client.get("/api/search?q=trample").status_code == 200
        store = IndexDir(index).current() / STORE_FILE
        raw = bytearray(store.read_bytes())
        raw[4096 * 3:len(raw) - 4096] = b"\xee" * (len(raw) - 4096 * 4)
        store.write_bytes(bytes(raw))
        response = client.get("/api/rules/702.19b")
        assert response.status_code == 503 and response.json()["error"]["kind"] == "damaged"


def test_past_the_concurrency_limit_a_request_is_503_at_once():
    from kb.web.guard import Guard

    release = asyncio.Event()

    async def slow(scope, receive, send):
        await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def scenario() -> list[tuple[int, dict]]:
        guard = Guard(slow, max_requests=2)
        answers: list[tuple[int, dict]] = []

        async def request() -> None:
            head: dict = {}

            async def send(message):
                if message["type"] == "http.response.start":
                    head.update(status=message["status"], headers=dict(message["headers"]))

            async def receive():
                return {"type": "http.request", "body": b""}

            await guard({"type": "http", "path": "/", "headers": []}, receive, send)
            answers.append((head["status"], head["headers"]))

        waiting = [asyncio.create_task(request()) for _ in range(2)]
        await asyncio.sleep(0.05)
        await request()  # the third, while two are answered
        release.set()
        await asyncio.gather(*waiting)
        return answers

    answers = asyncio.run(scenario())
    assert [status for status, _ in answers] == [503, 200, 200]
    assert answers[0][1][b"retry-after"] == b"1"
