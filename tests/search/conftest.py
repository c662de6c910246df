"""An index of the embedded corpus and the whole shared corpus, built once for the search tests
(the relevance set was judged against it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED_CORPUS


@pytest.fixture(scope="session")
def full_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from kb.build import build
    from kb.corpus import embedded_corpus

    if not (SHARED_CORPUS / "SOURCES.md").is_file():
        pytest.skip(f"shared corpus not found at {SHARED_CORPUS}: set KB_SHARED_CORPUS")
    index = tmp_path_factory.mktemp("full")
    build(index, [embedded_corpus(), SHARED_CORPUS])
    return index
