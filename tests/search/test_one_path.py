"""One code path: ``kb search`` (a new searcher per process) and a long-lived ``Searcher`` (the
web's, after many queries) rank every query alike. Issue 23: the filter set was built only
on a searcher's second use of the same filters, and the first use ranked differently (a
version's search missed answers that the second call ranked first)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kb.cli import cli
from kb.search import Searcher
from tests.search.relevance import load

# Today's rules (one exact segment, no filter) and an older version's (its documents are
# filtered out of the segments they share with newer versions).
VERSIONS = (None, "2024-01-01")


def cli_ranking(index, query: str, version: str | None) -> list[tuple[str, float]]:
    args = ["--index", str(index), "search", "--json", query]
    result = CliRunner().invoke(cli, args + (["--version", version] if version else []))
    assert result.exit_code in (0, 1), result.output
    return [(t["id"], t["score"]) for h in json.loads(result.stdout)["hits"]
            for t in (h, *h["texts"])]


@pytest.mark.parametrize("version", VERSIONS)
def test_the_cli_and_a_warm_searcher_rank_every_query_alike(full_index, version):
    queries = [q.q for q in load()]
    with Searcher(full_index) as warm:
        for query in queries:  # warm: every filter set and cache is built
            warm.search(query, version=version)
        differ = []
        for query in queries:
            mine = [(t.id, t.score) for h in warm.search(query, version=version).hits
                    for t in (h, *h.texts)]
            if mine != cli_ranking(full_index, query, version):
                differ.append(query)
    assert not differ
