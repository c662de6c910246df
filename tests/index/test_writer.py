"""The search index is written with the store, and rewritten only for the sources that changed."""

from __future__ import annotations

import shutil
from pathlib import Path

from kb.build import build
from kb.corpus import embedded_corpus
from kb.search import Searcher


def ids(index: Path, query: str) -> list[str]:
    with Searcher(index) as searcher:
        return [h.id for h in searcher.search(query, limit=50).hits]


def test_unchanged_sources_keep_their_documents(tmp_path):
    corpus = tmp_path / "corpus"
    # The seeds (the embedded CR too would make this the ranking-stability case of issue 17).
    shutil.copytree(embedded_corpus(), corpus, ignore=shutil.ignore_patterns("MagicComp*"))
    index = tmp_path / "index"
    first = build(index, [corpus])
    assert first.search is not None and not first.search.reused_index
    before = ids(index, "écho")

    again = build(index, [corpus])
    assert again.search is not None and again.search.reused_index
    assert (again.search.added_sources, again.search.documents) == (0, 0)
    assert ids(index, "écho") == before

    # Seed 000 loses its last line: only its documents are redone.
    seed = corpus / "000_3e28a88beae8982b.txt"
    seed.write_text(seed.read_text(encoding="utf-8").rsplit("\n", 2)[0] + "\n",
                    encoding="utf-8")
    changed = build(index, [corpus])
    assert changed.search is not None and changed.search.added_sources == 1
    fresh = build(tmp_path / "fresh", [corpus])
    assert ids(index, "écho") == ids(tmp_path / "fresh", "écho")
    assert fresh.search is not None and changed.search.kept_sources == len(fresh.sources) - 1
