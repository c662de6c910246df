"""The relevance set, judged on the full corpus: a floor under the measured quality (the
benchmark prints the figures: python bench/bench_search.py)."""

from __future__ import annotations

from collections import Counter, defaultdict

from kb.search import Searcher
from tests.search.relevance import Outcome, judge, load, scores

# hit@3 per group, a little under what was measured on 2026-11-25 with the 189 queries (en
# words 1.0, fr words 1.0, en questions 0.842, fr questions 0.865 once a search of today's rules
# ranks with the statistics of today's documents, not of every version's: 0.919 before; the
# issue asks 0.9 for key words, 0.75 for whole questions; bench/bench_search.py prints them).
HIT3_FLOOR = {"en words": 0.97, "fr words": 0.97, "en questions": 0.81, "fr questions": 0.84}


def test_the_set_has_every_group_and_is_large_enough():
    queries = load()
    by_group = Counter(q.group for q in queries)
    assert set(by_group) == set(HIT3_FLOOR)
    assert by_group["en questions"] + by_group["fr questions"] >= 60
    assert sum(n for g, n in by_group.items() if g.startswith("fr")) >= 60 + 33
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
    by_group: dict[str, list[Outcome]] = defaultdict(list)
    with Searcher(full_index) as searcher:
        for query in load():
            by_group[query.group].append(judge(searcher, query))
    for group, outcomes in by_group.items():
        misses = [(o.query.q, o.got) for o in outcomes if not o.rank or o.rank > 3]
        assert scores(outcomes).hit3 >= HIT3_FLOOR[group], (group, misses)
