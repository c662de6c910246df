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
