"""Fixtures of the web tests: the application over the shared test index, and a small corpus
whose card names and rulings carry markup and script."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kb.web.app import create_app

# A card whose every text tries to run script or inject markup, in an MTGJSON v5 set file.
EVIL = "<script>window.kbPwned = 1</script>Evil <b>Fiend</b>"
EVIL_FR = "<img src=x onerror=\"window.kbPwned=2\">Démon"
EVIL_RULING = "</p><script>window.kbPwned = 3</script> See rule 702.19 & \"quotes\"."


@pytest.fixture(scope="session")
def client(cr_index: Path) -> Iterator[TestClient]:
    with TestClient(create_app(cr_index)) as test_client:
        yield test_client


def write_evil_set(folder: Path) -> Path:
    card = {
        "name": EVIL, "manaCost": "{2}{B}", "type": "Creature — Demon", "text": EVIL,
        "power": "1", "toughness": "1", "keywords": [], "layout": "normal",
        "rulings": [{"date": "2013-04-15", "text": EVIL_RULING}],
        "foreignData": [{"language": "French", "name": EVIL_FR, "type": "Créature : démon",
                         "text": EVIL_FR}],
    }
    data = {"meta": {"date": "2024-01-01", "version": "5.2.0"},
            "data": {"code": "EVL", "name": "Evil set", "cards": [card], "tokens": []}}
    path = folder / "evil.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def small_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The embedded corpus alone: what a fresh install serves (quick to build, for the tests
    of the server rather than of the pages)."""
    from kb.build import build
    from kb.corpus import embedded_corpus

    index = tmp_path_factory.mktemp("small-index")
    build(index, [embedded_corpus()])
    return index


@pytest.fixture(scope="session")
def evil_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The embedded corpus and a set file whose card carries script in every text."""
    from kb.build import build
    from kb.corpus import embedded_corpus

    folder = tmp_path_factory.mktemp("evil-corpus")
    write_evil_set(folder)
    index = tmp_path_factory.mktemp("evil-index")
    build(index, [embedded_corpus(), folder])
    return index
