"""Readers follow ``kb build``: a request after a new generation is published is answered from
it, and requests made while a build publishes all succeed."""

from __future__ import annotations

import threading
from pathlib import Path

from starlette.testclient import TestClient

from kb.build import build
from kb.corpus import embedded_corpus
from kb.indexdir import IndexDir
from kb.web.app import create_app
from kb.web.data import slug

from .conftest import EVIL, write_evil_set


def _generation(client: TestClient) -> str:
    html = client.get("/").text
    return html.rsplit("index ", 1)[1].split(".</footer>", 1)[0]


def test_a_new_build_is_served_without_restart(tmp_path: Path) -> None:
    index = tmp_path / "index"
    build(index, [embedded_corpus()])
    with TestClient(create_app(index, threads=2)) as client:
        before = _generation(client)
        assert before == IndexDir(index).current().name
        card = f"/api/cards/{slug(EVIL)}"
        assert client.get(card).status_code == 404
        extra = tmp_path / "extra"
        extra.mkdir()
        write_evil_set(extra)
        build(index, [embedded_corpus(), extra])
        after = _generation(client)
        assert after == IndexDir(index).current().name != before
        assert client.get(card).json()["name"] == EVIL  # only the new generation holds it


def test_requests_during_builds_all_succeed(tmp_path: Path) -> None:
    index = tmp_path / "index"
    build(index, [embedded_corpus()])
    statuses: list[int] = []
    done = threading.Event()
    with TestClient(create_app(index, threads=3)) as client:
        def hammer() -> None:
            urls = ["/", "/search?q=fusion", "/api/search?q=echo", "/card/aetherlin",
                    "/api/versions", "/terms"]
            n = 0
            while not done.is_set():
                statuses.append(client.get(urls[n % len(urls)]).status_code)
                n += 1

        workers = [threading.Thread(target=hammer) for _ in range(3)]
        for w in workers:
            w.start()
        try:
            for _ in range(3):  # three publishes: the first generation's folder is removed
                build(index, [embedded_corpus()])
        finally:
            done.set()
            for w in workers:
                w.join()
    assert statuses and set(statuses) == {200}


def _counting(monkeypatch, owner, name: str) -> list:
    """The calls made to ``owner.name`` from now on."""
    calls: list = []
    real = getattr(owner, name, None)

    def counted(*args, **kwargs):
        calls.append(args[1:])
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted, raising=False)
    return calls


def test_expensive_answers_are_made_once_whatever_else_the_address_holds(cr_index, monkeypatch):
    """Issue 25, case 14: answers were kept under their raw query string, so junk parameters
    made /history/702?junk=... and /api/report?lang=en,<random> be computed again each time
    (3.4 s each: four such clients pushed rule pages from 0.05 s to 4-11 s)."""
    from kb import api
    from kb.web import data

    histories = _counting(monkeypatch, data, "history_of")
    diffs = _counting(monkeypatch, data, "version_changes")
    reports = _counting(monkeypatch, api, "consistency_report")
    with TestClient(create_app(cr_index, threads=2)) as client:
        # Every date from 2023-04-14 to 2025-02-06 has the rules of 2023-04-14 in force.
        for junk, day in (("a", "2024-01-01"), ("b", "2024-06-01"), ("c", "2023-04-14")):
            page = client.get(f"/history/702.19?junk={junk}&version={day}")
            assert page.status_code == 200 and "junk" not in page.text
        assert client.get("/api/history/702.19?version=2023-05-01").status_code == 200
        assert client.get("/api/history/702.19?version=2024-12-31").status_code == 200
        assert len(histories) == 1
        for url in ("/api/report", "/api/report?lang=en", "/api/report?lang=fr,en",
                    "/api/report?category=coverage&lang=fr", "/report?category=ingest"):
            assert client.get(url).status_code == 200
        assert client.get("/api/report?lang=en,x7f3a").status_code == 400
        assert len(reports) == 1
        for old in ("2023-05-01", "2024-01-01", "2025-01-31"):  # all in force: 2023-04-14
            assert client.get(f"/api/diff?old={old}&new=2025-03-01").status_code == 200
            assert client.get(f"/diff?old={old}&new=2025-03-01&utm=x").status_code == 200
        assert len(diffs) == 1
