"""What a long-lived ``Searcher`` (the web's) keeps between queries: a word's translations,
the term table's rows, records and links are read for the first query that needs them, not
again (issue 23: warm speed); the answers are the same."""

from __future__ import annotations

from pathlib import Path

from kb.search import Searcher
from kb.store import Store

QUESTION = "quand est-ce que le piétinement et le contact mortel s'appliquent aux bloqueurs"


def test_the_second_asking_reads_no_term_table_row_nor_record(cr_index: Path, monkeypatch):
    read: list[str] = []
    for name in ("terms", "get", "links"):
        method = getattr(Store, name)
        monkeypatch.setattr(Store, name, lambda self, *a, _m=method, _n=name, **k:
                            read.append(_n) or _m(self, *a, **k))
    with Searcher(cr_index) as searcher:
        first = searcher.search(QUESTION)
        assert {"terms", "get"} <= set(read)  # the first asking reads them
        read.clear()
        again = searcher.search(QUESTION)
    assert not read
    assert [(h.id, h.score) for h in again.hits] == [(h.id, h.score) for h in first.hits]
    assert again.translations == first.translations and again.hits
