"""kb.mechanisms: each ranking mechanism can be switched off alone (the bench measures what
each adds, issue 23), and every one is on unless a caller says otherwise."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kb.mechanisms import ALL, Mechanisms
from kb.search import Searcher

# The mechanisms issue 23 names, and a query each one acts on (the language prior, the
# eighth, is gone: having a text in the query's language is no evidence of relevance).
PROBES = {
    "translation": "piétinement",
    "typos": "trampel",
    "synonyms": "what if both players lose at the same time",
    "irregular": '"left the battlefield"',
    "kind_priors": "destroy",
    "title_boosts": "trample",
    "cards": "[[Maze Sentinel]]",
}


def answers(index, query: str, mechanisms: Mechanisms = ALL) -> list[tuple[str, float]]:
    with Searcher(index, mechanisms) as searcher:
        return [(h.id, h.score) for h in searcher.search(query, limit=50).hits]


def test_every_mechanism_is_on_by_default(cr_index):
    # Semantic ranking acts only in an index built with a model: its probe is
    # tests/index/test_semantic.py's, on the tests' own model.
    assert set(Mechanisms.names()) == {*PROBES, "semantic"}
    with Searcher(cr_index) as searcher:
        assert searcher.mechanisms == Mechanisms()
        assert all(getattr(searcher.mechanisms, name) for name in Mechanisms.names())


@pytest.mark.parametrize("name", sorted(PROBES))
def test_switching_one_mechanism_off_changes_its_answers(cr_index, name):
    off = replace(ALL, **{name: False})
    assert answers(cr_index, PROBES[name], off) != answers(cr_index, PROBES[name])


def test_without_the_term_table_a_french_word_searches_no_english(cr_index):
    with Searcher(cr_index, replace(ALL, translation=False)) as searcher:
        assert searcher.search("piétinement").translations == []
    with Searcher(cr_index) as searcher:
        assert any("trample" in t.terms for t in searcher.search("piétinement").translations)


def test_without_typo_correction_a_mistyped_word_stays_as_typed(cr_index):
    with Searcher(cr_index, replace(ALL, typos=False)) as searcher:
        assert searcher.search("trampel").corrected == {}
    with Searcher(cr_index) as searcher:
        assert searcher.search("trampel").corrected == {"trampel": "trample"}


def test_without_card_detection_a_named_card_brings_no_keyword_rule(cr_index):
    """Maze Sentinel has vigilance (MTGJSON, Dragon's Maze): named, it brings 702.20."""
    groups = {hit.group for hit in Searcher(cr_index).search("[[Maze Sentinel]]").hits}
    assert "rule 702.20" in groups
    with Searcher(cr_index, replace(ALL, cards=False)) as searcher:
        assert "rule 702.20" not in {hit.group for hit in searcher.search("[[Maze Sentinel]]").hits}
