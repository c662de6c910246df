"""The report tests' view of the session index (``cr_index``: the embedded corpus, the CR of
2013, 2023, 2025 and 2026, the English Dragon's Maze FAQ and the MTGJSON Dragon's Maze set)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.indexdir import IndexDir
from kb.report.data import ReportData
from kb.report.pairs import Pairs
from kb.store import Store

FAQ_FR = "001_f4c4515b1d59e611.txt"
CR_FR = "003_45f11bb513e6f443.txt"
KEYWORD_PAGE = "000_3e28a88beae8982b.txt"
FAQ_EN = "ormos_dgm_faq_2013-04-22.md"


@pytest.fixture(scope="session")
def cr_data(cr_index: Path) -> ReportData:
    path = IndexDir(cr_index).current_store()
    assert path is not None
    store = Store.open(path)
    try:
        return ReportData.from_store(store)
    finally:
        store.close()


@pytest.fixture(scope="session")
def cr_pairs(cr_data: ReportData) -> Pairs:
    return Pairs(cr_data)
