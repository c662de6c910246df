"""The search index is written with the store, one segment per source (the small sources
share one): unchanged sources keep their segment (shared with the previous generation), and
the ranking does not depend on how the index was built."""

from __future__ import annotations

import shutil
from pathlib import Path

from kb.build import build
from kb.corpus import embedded_corpus
from kb.index.writer import SEARCH_DIR
from kb.indexdir import IndexDir
from kb.search import Searcher
from tests.conftest import cr_file

QUERIES = ("écho", "trample", "sacrifiez", "counter spell", "combat damage")


def ranked(index: Path, query: str) -> list[tuple[str, float]]:
    with Searcher(index) as searcher:
        return [(h.id, round(h.score, 6)) for h in searcher.search(query, limit=50).hits]


def segments(generation: Path) -> dict[str, int]:
    """Segment file name -> inode."""
    return {p.name: p.stat().st_ino for p in (generation / SEARCH_DIR).glob("*.seg")}


def test_unchanged_sources_keep_their_segments_and_rankings_match_a_fresh_build(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(embedded_corpus(), corpus)  # the seeds and the 2026 CR
    index = tmp_path / "index"
    first = build(index, [corpus])
    assert first.search is not None and not first.search.reused_index
    first_generation = IndexDir(index).current()
    assert first_generation is not None
    before = {q: ranked(index, q) for q in QUERIES}
    assert all(before.values())
    # The five seeds are small: one segment together; the CR has its own.
    assert len(segments(first_generation)) == 2

    # Seed 000 loses its last line: the seeds' segment is written again; the CR's is the
    # previous generation's file (a hard link), and the answers are a fresh build's.
    seed = corpus / "000_3e28a88beae8982b.txt"
    seed.write_text(seed.read_text(encoding="utf-8").rsplit("\n", 2)[0] + "\n",
                    encoding="utf-8")
    changed = build(index, [corpus])
    assert changed.search is not None and changed.search.reused_index
    assert (changed.search.added_sources, changed.search.kept_sources) == (5, 1)
    old, new = segments(first_generation), segments(IndexDir(index).current())
    shared = old.keys() & new.keys()
    assert len(shared) == 1 and all(old[n] == new[n] for n in shared)
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
                          None, [("cr:en:2026-04-17", None)]))
    assert written.error and written.segment is None and not written.disk_full
    assert capfd.readouterr().err == ""


def test_a_middle_version_changed_gives_a_fresh_builds_answers(tmp_path):
    """Three CR versions; 702.19a reads the same in all three until the middle one is
    edited: its one document splits into three runs, and every version's answers are those
    of a fresh build (the texts moved between the segments of the versions around it)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for date in ("20230414", "20250207", "20260417"):
        shutil.copyfile(cr_file(date), corpus / f"MagicCompRules {date}.txt")
    index = tmp_path / "index"
    build(index, [corpus])
    middle = corpus / "MagicCompRules 20250207.txt"
    text = middle.read_text(encoding="utf-8")
    assert text.count("702.19a Trample is a static ability") == 1
    middle.write_text(text.replace("702.19a Trample is a static ability",
                                   "702.19a Trample is a static keyword ability"),
                      encoding="utf-8")
    build(index, [corpus])
    fresh = tmp_path / "fresh"
    build(fresh, [corpus])
    for version in ("2023-04-14", "2025-02-07", "2026-04-17"):
        with Searcher(index) as a, Searcher(fresh) as b:
            got = [(h.id, round(h.score, 6)) for h in a.search("trample static", limit=20,
                                                                 version=version).hits]
            want = [(h.id, round(h.score, 6)) for h in b.search("trample static", limit=20,
                                                                  version=version).hits]
        assert got == want, version
        assert f"cr:en:{version}:702.19a" in [i for i, _ in got], version


def test_a_new_version_gives_a_fresh_builds_answers(tmp_path):
    """The newest version has a segment of its own and the older ones share one per year:
    adding 2026 moves 2025's texts into the 2025 group and answers as a fresh build does."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for date in ("20230414", "20250207"):
        shutil.copyfile(cr_file(date), corpus / f"MagicCompRules {date}.txt")
    index = tmp_path / "index"
    build(index, [corpus])
    shutil.copyfile(cr_file("20260417"), corpus / "MagicCompRules 20260417.txt")
    build(index, [corpus])
    fresh = tmp_path / "fresh"
    build(fresh, [corpus])
    assert len(segments(IndexDir(index).current())) == len(segments(IndexDir(fresh).current()))
    for version in ("2023-04-14", "2025-02-07", "2026-04-17", "all"):
        with Searcher(index) as a, Searcher(fresh) as b:
            got = [(h.id, round(h.score, 6)) for h in a.search("battle protector", limit=20,
                                                                 version=version).hits]
            want = [(h.id, round(h.score, 6)) for h in b.search("battle protector", limit=20,
                                                                  version=version).hits]
        assert got and got == want, version
