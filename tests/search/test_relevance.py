"""The relevance set, judged on the full corpus: a floor under the measured quality (the
benchmark prints the figures: python bench/bench_search.py)."""

from __future__ import annotations

from collections import Counter

from kb.search import Searcher
from tests.search.relevance import judge, load, scores

HIT3_FLOOR = 0.88  # measured 0.93 on 2026-11-21; the target is 0.9
MRR_FLOOR = 0.85


def test_the_set_is_bilingual_and_large_enough():
    queries = load()
    assert len(queries) >= 60
    by_language = Counter(q.lang for q in queries)
    assert abs(by_language["fr"] - by_language["en"]) <= 2
    kinds = {q.kind for q in queries}
    assert {"inflection", "accents", "typo", "cross-language", "elision", "prefix"} <= kinds


def test_every_expected_record_exists(full_index):
    with Searcher(full_index) as searcher:
        store = searcher.kb.store
        for query in load():
            for expected in query.expect:
                if not expected.startswith("rule "):
                    assert store.get(expected) is not None, (query.q, expected)


def test_quality_floor(full_index):
    with Searcher(full_index) as searcher:
        outcomes = [judge(searcher, q) for q in load()]
    measured = scores(outcomes)
    misses = [(o.query.q, o.got) for o in outcomes if not o.rank or o.rank > 3]
    assert measured.hit3 >= HIT3_FLOOR, misses
    assert measured.mrr10 >= MRR_FLOOR, misses
