"""The search index is written with the store, one segment per source: unchanged sources keep
their segment (shared with the previous generation), and the ranking does not depend on how
the index was built."""

from __future__ import annotations

import shutil
from pathlib import Path

from kb.build import build
from kb.corpus import embedded_corpus
from kb.index.writer import SEARCH_DIR
from kb.indexdir import IndexDir
from kb.search import Searcher

QUERIES = ("écho", "trample", "sacrifiez", "counter spell", "combat damage")


def ranked(index: Path, query: str) -> list[tuple[str, float]]:
    with Searcher(index) as searcher:
        return [(h.id, round(h.score, 6)) for h in searcher.search(query, limit=50).hits]


def segments(generation: Path) -> dict[str, int]:
    """Segment file name -> inode."""
    return {p.name: p.stat().st_ino for p in (generation / SEARCH_DIR).glob("*.seg")}


def test_unchanged_sources_keep_their_segments_and_rankings_match_a_fresh_build(tmp_path):
    corpus = tmp_path / "corpus"
    # The seeds (the embedded CR too would make this the ranking-stability case of issue 17).
    shutil.copytree(embedded_corpus(), corpus, ignore=shutil.ignore_patterns("MagicComp*"))
    index = tmp_path / "index"
    first = build(index, [corpus])
    assert first.search is not None and not first.search.reused_index
    first_generation = IndexDir(index).current()
    assert first_generation is not None
    before = {q: ranked(index, q) for q in QUERIES}
    assert all(before.values())

    # Seed 000 loses its last line: only its segment is written again; the others are the
    # previous generation's files (hard links), and the answers are a fresh build's.
    seed = corpus / "000_3e28a88beae8982b.txt"
    seed.write_text(seed.read_text(encoding="utf-8").rsplit("\n", 2)[0] + "\n",
                    encoding="utf-8")
    changed = build(index, [corpus])
    assert changed.search is not None and changed.search.reused_index
    assert changed.search.added_sources == 1
    assert changed.search.kept_sources == len(changed.sources) - 1
    old, new = segments(first_generation), segments(IndexDir(index).current())
    shared = old.keys() & new.keys()
    assert len(shared) == len(old) - 1 and all(old[n] == new[n] for n in shared)
    fresh = tmp_path / "fresh"
    build(fresh, [corpus])
    for query in QUERIES:
        assert ranked(index, query) == ranked(fresh, query), query


def test_two_fresh_builds_rank_identically(tmp_path):
    build(tmp_path / "a", [embedded_corpus()])
    build(tmp_path / "b", [embedded_corpus()])
    for query in QUERIES:
        assert ranked(tmp_path / "a", query) == ranked(tmp_path / "b", query), query


def test_a_rebuild_with_nothing_changed_writes_nothing(tmp_path):
    index = tmp_path / "index"
    build(index, [embedded_corpus()])
    generation = IndexDir(index).current()
    again = build(index, [embedded_corpus()])
    assert again.unchanged and again.search is None
    assert IndexDir(index).current() == generation
    assert [p.name for p in (index / "builds").iterdir()] == [generation.name]
    assert len(again.sources) == 6 and all(s.reused for s in again.sources)  # 5 seeds + the CR


def test_a_worker_reports_its_failure_instead_of_printing_it(tmp_path, capfd):
    # What a worker process runs, given a store it cannot read: an error returned to the
    # build (which names it in one message), nothing on stderr.
    from kb.index.writer import _write_one

    (tmp_path / "words").mkdir()
    written = _write_one((str(tmp_path / "missing.sqlite"), str(tmp_path), "cr:en:2026-04-17",
                          None))
    assert written.error and written.segment is None and not written.disk_full
    assert capfd.readouterr().err == ""
