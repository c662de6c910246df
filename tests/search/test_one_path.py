"""One code path: ``kb search`` (a new searcher per process) and a long-lived ``Searcher`` (the
web's, after many queries) rank every query alike. Issue 23: the filter set was built only
on a searcher's second use of the same filters, and the first use ranked differently (a
version's search missed answers that the second call ranked first)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kb.cli import cli
from kb.query import QueryRefused
from kb.search import Searcher
from tests.search import players
from tests.search.relevance import load

# Today's rules (one exact segment, no filter) and an older version's (its documents are
# filtered out of the segments they share with newer versions).
VERSIONS = (None, "2024-01-01")


def cli_ranking(index, query: str, version: str | None) -> list[tuple[str, float]]:
    args = ["--index", str(index), "search", "--json", query]
    result = CliRunner().invoke(cli, args + (["--version", version] if version else []))
    assert result.exit_code in (0, 1, QueryRefused.exit_code), result.output
    if result.exit_code == QueryRefused.exit_code:
        return [("refused", 0.0)]
    return [(t["id"], t["score"]) for h in json.loads(result.stdout)["hits"]
            for t in (h, *h["texts"])]


def warm_ranking(warm: Searcher, query: str, version: str | None) -> list[tuple[str, float]]:
    try:
        hits = warm.search(query, version=version).hits
    except QueryRefused:  # the CLI's exit 2
        return [("refused", 0.0)]
    return [(t.id, t.score) for h in hits for t in (h, *h.texts)]


def differing(index, queries: list[str], version: str | None) -> list[str]:
    """The queries whose CLI ranking is not a warm searcher's (ids and scores, in order)."""
    with Searcher(index) as warm:
        for query in queries:  # warm: every filter set and cache is built
            warm_ranking(warm, query, version)
        return [query for query in queries
                if warm_ranking(warm, query, version) != cli_ranking(index, query, version)]


@pytest.mark.parametrize("version", VERSIONS)
def test_the_cli_and_a_warm_searcher_rank_every_query_alike(full_index, version):
    assert not differing(full_index, [q.q for q in load()], version)


@pytest.mark.slow  # 500 CLI runs: about 3 minutes of CPU
@pytest.mark.parametrize("half", sorted(players.HALVES))
def test_the_cli_and_a_warm_searcher_rank_every_players_question_alike(full_index, half):
    """Every query of both halves of the players' questions (whole questions and key words,
    English and French), today's rules: the queries the issue's figures are measured on."""
    queries = [q.text(form, lang) for q in players.load(half)
               for form in players.FORMS for lang in players.LANGS]
    assert len(queries) == 4 * len(players.load(half))
    assert not differing(full_index, queries, None)


def test_every_version_after_today_s_rules_with_the_same_filters(cr_index):
    """The web's searcher, asked for "trample" in English rules today and then in every
    version (tests/web/test_jsonapi.py after tests/web/test_pages.py), lost 2013's texts: the
    documents the filters allow were kept by filters alone, in the numbering of today's
    segments, and today's search leaves its version filter out, so both had the same key."""
    every = {"lang": "en", "kind": "rule", "version": "all"}
    with Searcher(cr_index) as fresh:
        expected = fresh.search("trample", **every).hits
    with Searcher(cr_index) as warm:
        warm.search("trample", lang="en", kind="rule")
        hits = warm.search("trample", **every).hits
    assert [(h.id, h.score) for h in hits] == [(h.id, h.score) for h in expected]
    # CR 2013-05-01: "702.18. Trample".
    assert "cr:en:2013-05-01:702.18" in {t.id for h in hits for t in (h, *h.texts)}
