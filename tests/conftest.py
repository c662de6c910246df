"""Shared fixtures: where the shared corpus is, and a small index built once per session."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# Builds read the user's corpus folder too (where `kb fetch` stores files): point it nowhere,
# so that a developer's own folder never leaks into the tests' indexes.
os.environ["KB_CORPUS"] = str(REPO / "tests" / "no-user-corpus")
# Readers remember the index files they found whole in the user's cache folder: the tests'
# own, so that they never read or fill the developer's.
os.environ["KB_CACHE"] = tempfile.mkdtemp(prefix="kb-test-cache-")
# kb speaks the language of the locale (kb.i18n): the tests read English unless they ask for
# another, whatever the developer's own LANG says.
for _name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"
SHARED_CORPUS = Path(os.environ.get("KB_SHARED_CORPUS", REPO.parent / "shared" / "corpus"))
CR_EN = SHARED_CORPUS / "cr-en"


def cr_file(date: str) -> Path:
    """The shared CR file of that version (e.g. "20260417"); skip when the corpus is absent."""
    path = CR_EN / f"MagicCompRules {date}.txt"
    if not path.is_file():
        pytest.skip(f"shared corpus not found at {SHARED_CORPUS}: set KB_SHARED_CORPUS")
    return path


@pytest.fixture(scope="session")
def cr_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index of the embedded corpus, the shared CR files since 2013, the English Dragon's
    Maze FAQ and the MTGJSON Dragon's Maze set."""
    from kb.build import build
    from kb.corpus import embedded_corpus

    cr_file("20260417")
    folder = tmp_path_factory.mktemp("cr")
    for date in ("20130429", "20230414", "20250207", "20260417"):
        shutil.copyfile(cr_file(date), folder / f"MagicCompRules {date}.txt")
    for extra in ("faq-en/ormos_dgm_faq_2013-04-22.md", "rulings/mtgjson_v5.2.0_DGM.json"):
        shutil.copyfile(SHARED_CORPUS / extra, folder / extra.split("/")[1])
    index = tmp_path_factory.mktemp("index")
    build(index, [embedded_corpus(), folder])
    return index


@pytest.fixture(scope="session")
def full_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index of the embedded corpus and the whole shared corpus, built once (the search
    tests' relevance set was judged against it; the term table's every kind of evidence is
    in it)."""
    from kb.build import build
    from kb.corpus import embedded_corpus

    if not (SHARED_CORPUS / "SOURCES.md").is_file():
        pytest.skip(f"shared corpus not found at {SHARED_CORPUS}: set KB_SHARED_CORPUS")
    index = tmp_path_factory.mktemp("full")
    build(index, [embedded_corpus(), SHARED_CORPUS])
    return index


@pytest.fixture(scope="session")
def translations(tmp_path_factory: pytest.TempPathFactory):
    """An index of the Chinese (2022-06-10) and Korean (2021-11-19) whole-CR translations
    with the English rules of their dates (from the CR archive), and the build's report."""
    from kb.build import build
    from tests.translations import ARCHIVE, CHINESE, ENGLISH_OF, KOREAN, shared

    folder = tmp_path_factory.mktemp("translations")
    for path in (CHINESE, KOREAN):
        shared(path)
        shutil.copyfile(path, folder / path.name)
        english = ARCHIVE / f"{ENGLISH_OF[path.name]}.txt.gz"
        if not english.is_file():
            pytest.skip(f"CR archive not found at {ARCHIVE}: set KB_CR_ARCHIVE")
        shutil.copyfile(english, folder / english.name)
    index = tmp_path_factory.mktemp("translations-index")
    return index, build(index, [folder])


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: minutes of work (the whole CR archive); run with KB_SLOW=1 or -m slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slow tests run only when asked for: ``KB_SLOW=1``, or ``-m`` naming ``slow``."""
    if os.environ.get("KB_SLOW") == "1" or "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow: set KB_SLOW=1 or pass -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
