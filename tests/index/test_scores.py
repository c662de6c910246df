"""kb.index.scores: a question's words scored at its candidates as Whoosh's matchers score them.

The contract is Whoosh's own answer: every word a search scores at its candidates, for the
relevance set's questions and key words and a few queries of other shapes, in every rules
version the index holds, is also scored by Whoosh's matcher moved along the candidates
(``skip_to``, as the searcher did before), and the scores must be the same, to the bit."""

from __future__ import annotations

from pathlib import Path

import pytest
from whoosh import query as wq
from whoosh import scoring
from whoosh.filedb.filestore import FileStorage
from whoosh.util import make_weighted_tree

import kb.index.scores as scores
from kb.index.files import SEARCH_DIR
from kb.index.scores import BM25F, Postings
from kb.indexdir import IndexDir
from kb.search import Searcher
from tests.search.relevance import load

# A French question, a phrase, a required word, an exclusion, a prefix and filters: the kinds
# of node the relevance set's queries are not all made of.
MORE = ["quand est-ce que le piétinement s'applique", '"first strike" deathtouch',
        "+trample -flying", "regenera*", "lang:fr contact mortel", "kind:rule damage prevention",
        "rule:702.19* damage",
        "draw from an empty library", "card:\"Voice of Resurgence\" token"]


def search_everything(index: Path) -> None:
    """The relevance set's queries and ``MORE``, today, in 2023 and in every version."""
    with Searcher(index) as searcher:
        for version in (None, "2023-04-14", "all"):
            for query in [j.q for j in load()] + MORE:
                searcher.search(query, version=version)


def test_a_word_s_scores_at_the_candidates_are_whoosh_s(cr_index: Path, monkeypatch):
    differing: list[str] = []
    computed: list[wq.Query] = []  # scored from the postings, not moved along by Whoosh
    scored = Postings.at

    def checked(self: Postings, query: wq.Query, docnums: list[int]) -> dict:
        mine = scored(self, query, docnums)
        theirs = scores._skip_along(query.matcher(self.searcher, self.searcher.context()),
                                    sorted(docnums))
        if mine != theirs:
            differing.append(repr(query))
        if scores._skips_alike(query):
            computed.append(query)
        return mine

    monkeypatch.setattr(Postings, "at", checked)
    search_everything(cr_index)
    assert not differing
    assert len(computed) > 1000  # most words: 3 x 200 queries of several words


def test_the_best_documents_are_the_best_of_every_match(cr_index: Path, monkeypatch):
    """Whoosh's scores of a walk through every match (its UnlimitedCollector), best first:
    the same documents, order and scores."""
    differing: list[str] = []
    best = Postings.best

    def checked(self: Postings, query: wq.Query, limit: int) -> list:
        mine = best(self, query, limit)
        if scores._collects_alike(query):
            every = self.searcher.search(query, limit=None)
            if [(s.docnum, s.score) for s in mine] != [(h.docnum, h.score)
                                                      for h in every][:limit]:
                differing.append(repr(query))
        return mine

    monkeypatch.setattr(Postings, "best", checked)
    search_everything(cr_index)
    assert not differing


def test_a_term_s_postings_are_read_once_per_searcher(cr_index: Path, monkeypatch):
    """A long-lived searcher (the web's) reads a word's postings for its first query only."""
    with Searcher(cr_index) as searcher:
        searcher.search("trample damage assignment")
        reads = []
        walk = scores._walk
        monkeypatch.setattr(scores, "_walk", lambda m: reads.append(m) or walk(m))
        again = searcher.search("trample damage assignment")
    assert again.hits and not reads


def test_postings_read_a_block_at_a_time_score_as_whoosh_s_matchers(cr_index: Path):
    """kb's BM25F (field lengths held in memory) and its walk of a term's postings block by
    block give, for every posting of every term of the rules' English and French texts in
    each segment (one per rules version), the score Whoosh's own BM25F gives walking its
    matcher posting by posting: to the bit."""
    ix = FileStorage(str(IndexDir(cr_index).current() / SEARCH_DIR)).open_index()
    postings = differing = 0
    with ix.searcher(weighting=scoring.BM25F()) as whoosh, \
            ix.searcher(weighting=BM25F()) as kb:
        assert len(whoosh.leaf_searchers()) > 1
        for (theirs, _), (mine, _) in zip(whoosh.leaf_searchers(), kb.leaf_searchers(),
                                          strict=True):
            for field in ("en", "fr"):
                for text in list(theirs.reader().lexicon(field)):
                    expected = {}
                    matcher = theirs.postings(field, text)
                    while matcher.is_active():
                        expected[matcher.id()] = matcher.score()
                        matcher.next()
                    got = scores._walk(mine.postings(field, text))
                    postings += len(expected)
                    differing += got != expected
    assert postings > 100_000 and not differing


def test_a_whoosh_disjunction_max_counts_a_part_s_next_document():
    """Whoosh's DisjunctionMaxMatcher scores a document by the greatest of its parts'
    current scores, a part not on the document counting with its next one: 2.0 for document
    1 below, where only the first part holds it. kb ranks as Whoosh did; this is kept."""
    assert scores._current_max({1: 1.0, 5: 1.0}, {3: 2.0}) == {1: 2.0, 3: 2.0, 5: 1.0}


class _Matcher:
    """Compares as Whoosh's matchers do (whoosh.matching.mcore.Matcher): equal to, and less
    than, any matcher of its class."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return type(other) is self.__class__

    def __lt__(self, other: object) -> bool:
        return type(other) is self.__class__

    __hash__ = None  # type: ignore[assignment]


@pytest.mark.parametrize("weights", [[3, 1, 2], [1, 1, 1], [5, 1, 1, 1], [2, 2, 4, 1, 3, 2]])
def test_parts_are_paired_as_whoosh_pairs_its_matchers(weights):
    """The order of a sum's additions is Whoosh's (make_weighted_tree), ties included."""
    whoosh = make_weighted_tree(lambda a, b: _Matcher(f"({a.text}+{b.text})"),
                                [(w, _Matcher(f"{n}")) for n, w in enumerate(weights)])
    parts = [(w, {0: f"{n}"}) for n, w in enumerate(weights)]
    mine = scores._tree(lambda a, b: {0: f"({a[0]}+{b[0]})"}, parts)  # type: ignore[arg-type]
    assert mine[0] == whoosh.text


def _searcher(index: Path):  # noqa: ANN202 - Whoosh's Searcher
    ix = FileStorage(str(IndexDir(index).current() / SEARCH_DIR)).open_index()
    return ix.searcher(weighting=BM25F())


def test_a_compound_is_kept_when_asked_for_again(cr_index: Path, monkeypatch):
    """A word's query (its stems, fields and languages) comes back in query after query and
    is combined once; most compounds are one query's own, and are not kept on first use."""
    combined: list[wq.Query] = []
    compound = scores._Node._compound
    monkeypatch.setattr(scores._Node, "_compound",
                        lambda self, query: combined.append(query) or compound(self, query))
    word = wq.DisjunctionMax([wq.Term("en", "trampl"), wq.Term("en", "damag")])
    with _searcher(cr_index) as searcher:
        postings = Postings(searcher)
        answers = [postings.best(word, 10) for _ in range(3)]
    per_segment = len(searcher.leaf_searchers())
    assert len(combined) == 2 * per_segment  # the first use and the second, not the third
    assert answers[0] == answers[1] == answers[2] and answers[0]


def test_queries_whoosh_deems_equal_but_scores_apart_are_not_confused(cr_index: Path):
    """Whoosh's ``==`` leaves out a disjunction's tiebreak and an ``Or``'s scale: kept by
    equality, the second query would get the first's scores."""
    terms = [wq.Term("en", "trampl"), wq.Term("en", "damag")]
    pairs = [(wq.DisjunctionMax(terms), wq.DisjunctionMax(terms, tiebreak=0.5)),
             (wq.Or(terms), wq.Or(terms, scale=0.9))]
    with _searcher(cr_index) as searcher:
        postings = Postings(searcher)
        for plain, other in pairs:
            assert plain == other
            for _ in range(3):
                postings.best(plain, 10)
            mine = [(s.docnum, s.score) for s in postings.best(other, 10)]
            theirs = [(h.docnum, h.score) for h in searcher.search(other, limit=None)][:10]
            assert mine == theirs, repr(other)
