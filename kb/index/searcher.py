"""Answering a parsed query (:mod:`kb.query`) from a generation's search index.

Each word is searched in every language's fields with that language's analysis (a French
stem in the French fields, an English one in the English fields), widened by its stem family
or its prefix's words (:mod:`kb.index.vocabulary`), and by the other-language terms the caller
passes as ``alternatives`` (the term table's translations). A word no field knows is replaced
by the nearest indexed word, and the searcher says so. Filters become Whoosh filter queries.
The caller (:mod:`kb.search`) resolves versions, translations and presentation.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from msgspec import Struct, structs
from whoosh import index as whoosh_index
from whoosh import query as wq
from whoosh.filedb.filestore import FileStorage
from whoosh.index import TOC
from whoosh.matching import AndNotMatcher, Matcher
from whoosh.matching.wrappers import ConstantScoreWrapperMatcher, WrappingMatcher
from whoosh.reading import EmptyReader, MultiReader, SegmentReader
from whoosh.searching import Searcher

from kb.errors import KbError
from kb.i18n import _
from kb.index import game
from kb.index.analysis import LANGUAGES, fold, language, strip_elision
from kb.index.documents import UNVERSIONED
from kb.index.files import SEARCH_DIR, VIEWS_FILE, VOCABULARY_FILE
from kb.index.scores import BM25F, Postings
from kb.index.vocabulary import Words, load
from kb.mechanisms import ALL, Mechanisms
from kb.query import (
    And,
    CardName,
    Loose,
    Node,
    Not,
    Or,
    Phrase,
    Query,
    QueryRefused,
    Required,
    Word,
)
from kb.rulenum import RuleNumber

MAX_EXPANSION = 200  # indexed words one prefix may stand for before the query is refused
FAMILY_WEIGHT = 0.9  # a stem-family term against the word's own stem
MAX_PHRASE_VARIANTS = 4  # a phrase and its irregular verb forms ("left the battlefield")
TRANSLATION_WEIGHT = 0.8  # a translated term against the typed one
CARD_BOOST = 2.0  # a card named in a question: its rulings are answers
MIN_CORRECTED = 5  # letters a word needs before it is taken for a typo
NUMBER_BOOST = 8.0  # a typed rule number finds the rule of that number first
# A one-digit number is a section of the rules ("7. Additional Rules") in a query of its own or
# beside these words ("rule 7"); beside other words it is a count: "7 cards in hand" and "can I
# have 4 copies of a card" were answered first by the headings of sections 7 and 4.
SECTION_WORDS = frozenset({"rule", "rules", "regle", "regles", "section", "sections", "cr"})
# Added to every candidate's text score, so the share of a question's words it holds (a
# factor, kb.search) is not drowned by small BM25 gaps. A one-query process (``kb search``)
# always scored so, through Whoosh's ConstantScoreQuery(..., 0.0), which weighs 1 (0.0 is
# falsy there), while a long-lived searcher did not: the two now agree, and no relevance
# group is lower than without it.
TEXT_FLOOR = 1.0
CANDIDATES = 100  # hits scored by Whoosh before the caller groups them
RULE_CANDIDATES = 20  # the best rules, added to the candidates whatever the others scored
RULES_PRESENT = 5  # ... unless the candidates hold this many rules already
# A question's optional words: at most this many are searched, the most informative (fewest
# documents) first; the rest only made the query slower (a 40-word question took 1.2 s).
MAX_RANKED = 8
GENERATORS = 4  # the rarest words of a question choose its candidates; the rest rescore them
GENERATOR_SHARE = 0.1  # a word in more of the documents than this only rescores
QUESTION_UNITS = 3  # optional words from which a query is a question with a wider pool
RANKED_CANDIDATES = 300  # a question's hits kept for reranking by how many words they hold
FILLER_WEIGHT = 0.15  # a question word ("what", "comment") against a content word
# Words that make a question a question: they carry little weight in what a record holds.
_QUESTION_WORDS = """
what which who whom whose when where why how does do did happen happens happened mean means
meaning work works working way would should could can may might will get gets got say says
tell explain anyone someone something there here rule rules
que quoi quel quelle quels quelles comment quand pourquoi combien est ce passe passer
arrive-t-il devient dit disent fonctionne fonctionnent marche marchent veut dire signifie
signifient faut peut peuvent puis-je peut-on peux dois doit quelqu regle regles les si ils
elles lorsque alors donc dont cela ca
"""
QUESTION_WORDS = frozenset(_QUESTION_WORDS.split())


class TooBroadError(QueryRefused):
    """A prefix standing for more words than a query may search at once."""


class Hit(Struct, frozen=True):
    id: str
    score: float
    kind: str
    number: str
    language: str
    version: str  # the CR version of an official rules record, "" for the rest
    title: str  # a rule's title, a glossary term, a card name; "" for the rest
    matched: frozenset[int] = frozenset()  # the question's words it holds (Answer.words)


@dataclass
class Answer:
    hits: list[Hit]
    # What the searcher did to the words, for the user: "trampel -> trample".
    corrected: dict[str, str] = field(default_factory=dict)
    # The terms searched per language, for highlighting snippets.
    terms: dict[str, set[str]] = field(default_factory=dict)
    # The typed words' own terms (no stem family, no prefix words): what a title must be
    # made of to count as named ("defender" names 702.3 Defender, not 210 Defense).
    exact: dict[str, set[str]] = field(default_factory=dict)
    # A question's optional words as searched, with their weight (rare words weigh more,
    # question words little); Hit.matched indexes them. Empty for a strict query.
    words: list[tuple[str, float]] = field(default_factory=list)
    # Which of those are cards the question names: a record is measured against a card's
    # weight only if it holds the card (its rulings, its keywords' rules).
    cards: set[int] = field(default_factory=set)
    ignored: list[str] = field(default_factory=list)  # optional words left out (too many)
    absent: list[str] = field(default_factory=list)  # optional words no text searched holds


class Alternative(Struct, frozen=True):
    """Another language's words for a query word, searched in that language's fields only."""

    language: str
    words: tuple[str, ...]


class Filters(Struct, frozen=True):
    languages: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    rule: str | None = None  # "702.19b" exactly, or "702.19*" and below
    version: str | None = None  # a CR version; None: every version
    card: tuple[str, ...] = ()  # the index keys of a card and of its halves or faces


@dataclass
class _View:
    """A Whoosh searcher over the segments one rules version needs, and what it has read:
    document numbers are the view's own."""

    searcher: Any
    # Every versioned document it opens is of the version searched (the segments of today's
    # rules): the version filter would keep every document, and is left out.
    exact: bool = False
    # Stored fields of the documents answered so far (a few small strings each): the same
    # rules come back across a long-lived searcher's queries.
    stored: dict[int, dict[str, str]] = field(default_factory=dict)
    # The documents each set of filters allows, in this view's numbering (None: every one).
    allowed: dict[Filters, array | None] = field(default_factory=dict)
    # Queries scored as Whoosh scores them, from each term's postings read once (the same
    # game words come back in nearly every query).
    postings: Postings = field(init=False)

    def __post_init__(self) -> None:
        self.postings = Postings(self.searcher)


class IndexSearcher:
    """A searcher over one generation; keep it open to answer many queries quickly.

    A search of one rules version opens only the segments that can hold its documents: those
    of unversioned documents and of versions not older than it (a text is indexed once, in
    the segment of the last version of its run: :mod:`kb.index.spans`). Today's rules are
    then searched in one segment however many versions the index holds, and the statistics
    that rank them are those of the documents searched."""

    def __init__(self, generation: Path) -> None:
        folder = generation / SEARCH_DIR
        if not whoosh_index.exists_in(str(folder)):
            raise KbError(_("no search index in {folder}: run 'kb build'").format(
                folder=generation))
        self._folder = folder
        # Read through the files rather than mmap: Whoosh's mmap path copies each segment's
        # files into memory when a reader opens them, which a cold search paid for in full
        # (12 ms of ``kb search``); warm queries read as fast either way (bench/bench_search.py).
        self._ix = FileStorage(str(folder), supports_mmap=False).open_index()
        self._segment_versions = _segment_versions(folder)
        self._views: dict[str | None, _View] = {}
        self._vocabulary: dict[str, Words] | None = None
        # Typed word -> the word searched: the vocabulary is this generation's, so a
        # correction (a scan of the vocabulary) is made once for the searcher's life.
        self._corrections: dict[str, str] = {}
        self._card_keys: list[str] | None = None
        self._card_key_set: frozenset[str] = frozenset()
        self._card_words: frozenset[str] | None = None
        self._game_terms: frozenset[str] | None = None
        # Words that are never typos though no text holds them (set by the caller: the words
        # of the term table and of card names).
        self.protected: Callable[[str], bool] | None = None
        # Whether a question's word (or term) names something of the game: a rules or
        # glossary title's word, an official term's, a card's name (set by the caller). The
        # words that choose a question's candidates are taken among these first: a forum
        # post's "friday" or "store" is rarer than "trample", and tells nothing.
        self.telling: Callable[[str], bool] | None = None
        # (record id, version) -> the id of the record of that version with the same text
        # (set by the caller, from the store); None: hits keep their run's last record.
        self.same_text: Callable[[str, str], str | None] | None = None
        self.mechanisms: Mechanisms = ALL  # set by the caller (kb.search); all on but in the bench

    def close(self) -> None:
        for view in self._views.values():
            view.searcher.close()

    def _view(self, version: str | None) -> _View:
        """The searcher over the segments ``version`` needs (None: every segment;
        UNVERSIONED: those of unversioned documents, cards among them)."""
        view = self._views.get(version)
        if view is None:
            segments = TOC.read(self._ix.storage, self._ix.indexname).segments
            described = self._segment_versions or {}
            if version is not None and self._segment_versions is not None:
                segments = [s for s in segments
                            if _opens(described.get(s.segment_id()), version)]
            readers = [SegmentReader(self._ix.storage, self._ix.schema, s) for s in segments]
            reader = (EmptyReader(self._ix.schema) if not readers
                      else readers[0] if len(readers) == 1 else MultiReader(readers))
            exact = version is not None and all(
                _only(described.get(s.segment_id()), version) for s in segments)
            view = self._views[version] = _View(
                Searcher(reader, weighting=BM25F(), fromindex=self._ix), exact)
        return view

    def card_keys(self) -> list[str]:
        """Every card name the index holds (both languages, faces and halves), folded."""
        if self._card_keys is None:
            searcher = self._view(UNVERSIONED).searcher
            self._card_keys = [t.decode("utf-8") for t in searcher.lexicon("card")]
            self._card_key_set = frozenset(self._card_keys)
        return self._card_keys

    def cards(self, keys: Sequence[str]) -> list[str]:
        """The ids of the card records of these keys (every printing and language)."""
        searcher = self._view(UNVERSIONED).searcher
        query = wq.And([wq.Term("kind", "card"), wq.Or([wq.Term("card", k) for k in keys])])
        return [searcher.stored_fields(d)["id"] for d in query.docs(searcher)]

    def is_card(self, key: str) -> bool:
        """Whether a folded name is a card's (see :func:`card_keys`)."""
        self.card_keys()
        return key in self._card_key_set

    def is_card_word(self, word: str) -> bool:
        """Whether a folded word is a word of some card's name ("dreadbore", "zulaport")."""
        if self._card_words is None:
            self._card_words = frozenset(w for key in self.card_keys() for w in key.split())
        return word in self._card_words

    def rarity(self, text: str) -> tuple[bool, int]:
        """How telling a typed word is, rarest first: (unknown, documents holding it) in the
        language whose texts hold it least; a word no text holds comes last, as counting
        least (it is a typo or a word the literature does not use)."""
        counts = []
        for lang, words in self.vocabulary.items():
            pairs = language(lang).pairs(text)
            if pairs and all(w in words for w, _ in pairs):
                counts.append(max(words.count(w) for w, _ in pairs))
        return (not counts, min(counts, default=0))

    @property
    def game_terms(self) -> frozenset[str]:
        """The index terms of the game's own words (see :mod:`kb.index.game`)."""
        if self._game_terms is None:
            self._game_terms = game.load(self._folder / game.GAME_FILE)
        return self._game_terms

    @property
    def vocabulary(self) -> dict[str, Words]:
        if self._vocabulary is None:
            self._vocabulary = load(self._folder / VOCABULARY_FILE)
        return self._vocabulary

    def search(self, query: Query, filters: Filters,
               alternatives: Mapping[str, Sequence[Alternative]] | None = None,
               correct: bool = True, preferred: Sequence[str] = ()) -> Answer:
        """The hits of ``query``; each word is searched in the texts of the ``preferred``
        languages that hold it, in the other languages' only when none does and it is no
        French or English word (:meth:`_Builder.holders`)."""
        answer = Answer([])
        view = self._view(filters.version)
        builder = _Builder(self.vocabulary, alternatives or {}, correct, answer,
                           self._corrections, view.postings.statistics)
        builder.preferred = tuple(preferred)
        builder.protected = self.protected
        builder.irregular = self.mechanisms.irregular
        builder.sections = all(w.text.isdigit() or fold(w.text) in SECTION_WORDS
                               for w in query.words())
        builder.telling = self.telling
        text_query = builder.node(query.root) if query.root is not None else wq.Every()
        ranked = bool(builder.units)
        builder.alone = builder.alone and isinstance(query.root, Loose)
        kept = structs.replace(filters, version=None) if view.exact else filters
        allowed = self._allowed(kept, view)
        if allowed is not None:
            text_query = _Within(text_query, allowed)
        pool = RANKED_CANDIDATES if len(builder.units) >= QUESTION_UNITS else CANDIDATES
        results = view.postings.best(text_query, pool)
        if not filters.kinds:
            results = self._with_best_rules(results, text_query, view)
        answer.words = [(label, weight) for label, weight, _ in builder.units]
        held = self._held([r.docnum for r in results], builder, view) if ranked else {}
        answer.hits = []
        for r in results:
            stored = _fields(r, view)
            extra, matched = held.get(r.docnum, (0.0, frozenset()))
            record_id, cr = stored["id"], stored.get("cr", "")
            if filters.version and cr not in (UNVERSIONED, filters.version):
                # the last record of a run that spans the version searched: its copy there
                found = self.same_text(record_id, filters.version) if self.same_text else None
                record_id, cr = found or record_id, filters.version
            answer.hits.append(Hit(record_id, TEXT_FLOOR + r.score + extra, stored["kind"],
                                   stored.get("number", ""), stored["language"],
                                   "" if cr == UNVERSIONED else cr, stored.get("title", ""),
                                   matched))
        return answer

    def _with_best_rules(self, results: list, text_query: wq.Query, view: _View) -> list:
        """The pool is the best documents by Whoosh's score, but the caller ranks rules above
        rulings and notes of the same score (a prior per kind): a short ruling that repeats a
        word beats the rule by raw score, and a hundred of them ("destroy") would crowd the
        rule out of the pool, depending only on document order. So the best rules join the
        pool whatever the others scored."""
        held = sum(_fields(r, view)["kind"] == "rule" for r in results)
        if held >= RULES_PRESENT:  # rules are in the pool already (the common case)
            return results
        have = {r.docnum for r in results}
        rules = view.postings.best(
            wq.And([text_query, _Weightless(wq.Term("kind", "rule"))]), RULE_CANDIDATES)
        return results + [r for r in rules if r.docnum not in have]

    def _held(self, docnums: list[int], builder: _Builder, view: _View
              ) -> dict[int, tuple[float, frozenset[int]]]:
        """For each candidate: the score of the question's words that did not choose the
        candidates (they are too common to search every document for), and which words it
        holds: each word's scores at the candidates (kb.index.scores)."""
        if len(builder.unit_queries) == 1 and builder.generators == {0} and builder.alone:
            return dict.fromkeys(docnums, (0.0, frozenset({0})))  # every candidate holds it
        found: dict[int, set[int]] = {d: set() for d in docnums}
        extra: dict[int, float] = dict.fromkeys(docnums, 0.0)
        for index, query in enumerate(builder.unit_queries):
            scores = view.postings.at(query, docnums)
            generator = index in builder.generators
            for docnum, score in scores.items():
                found[docnum].add(index)
                if not generator:
                    extra[docnum] += score
        return {d: (extra[d], frozenset(found[d])) for d in docnums}

    def correct(self, text: str) -> str | None:
        """The indexed word a typed word stands for when no field knows it (None if known)."""
        builder = _Builder(self.vocabulary, {}, True, Answer([]), self._corrections)
        builder.protected = self.protected
        corrected = builder.correct(text)
        return None if corrected == text else corrected

    def _allowed(self, filters: Filters, view: _View) -> array | None:
        """The documents the filters allow (None: every one), computed once and kept: the
        same few (a rules version, a language) come back with nearly every query of a
        long-lived searcher. Computed on first use too, so that a one-query process
        (``kb search``) ranks exactly as a long-lived searcher: restricting the query itself
        on first use let Whoosh's top-N pool break ties differently (issue 23). Kept by view:
        document numbers are a view's own, and today's rules and every version can have the
        same filters (today's leaves its version filter out)."""
        if filters not in view.allowed:
            query = _filter_query(filters)
            view.allowed[filters] = (
                None if query is None else array("I", sorted(query.docs(view.searcher))))
        return view.allowed[filters]


class _Builder:
    """Turns the query tree into Whoosh queries, recording corrections and searched terms."""

    def __init__(self, vocabulary: dict[str, Words],
                 alternatives: Mapping[str, Sequence[Alternative]], correct: bool,
                 answer: Answer, corrections: dict[str, str],
                 searcher: object = None) -> None:
        self.vocabulary = vocabulary
        self.alternatives = alternatives
        self.correct_typos = correct
        self.answer = answer
        self.corrections = corrections
        self.searcher = searcher
        self.protected: Callable[[str], bool] | None = None
        self.irregular = True  # irregular verb forms searched too (kb.mechanisms)
        self.sections = True  # a one-digit number is a section's number (SECTION_WORDS)
        self.telling: Callable[[str], bool] | None = None
        self.preferred: tuple[str, ...] = ()  # languages whose texts a word is first looked in
        self.expanded: dict[str, int] = {}  # words each prefix stood for, all languages
        # A question's optional words: label, weight, the (field, term) pairs that hold it.
        self.units: list[tuple[str, float, frozenset[tuple[str, bytes]]]] = []
        self.unit_queries: list[wq.Query] = []
        self.generators: set[int] = set()  # the units the candidates are searched with
        self.alone = False  # the query is its optional words only (no required, no excluded)

    def node(self, node: Node) -> wq.Query:
        if isinstance(node, Word):
            return self.word(node)
        if isinstance(node, Phrase):
            return self.phrase(node.words)
        if isinstance(node, And):
            return self.conjunction(node.items)
        if isinstance(node, Loose):
            return self.loose(node.items)
        if isinstance(node, Required):
            return self.node(node.item)
        if isinstance(node, Or):
            return wq.Or([self.node(n) for n in node.items])
        if isinstance(node, CardName):
            return wq.Or([*(wq.Term("card", key) for key in node.keys),
                          *(wq.Term("rules", number) for number in node.rules)],
                         boost=CARD_BOOST)
        return wq.Not(self.node(node.item))  # a lone NOT inside OR: "a OR NOT b"

    def loose(self, items: tuple[Node, ...]) -> wq.Query:
        """Words side by side: phrases, ``+words`` and ``AND`` groups must match, the other
        words are optional and a record is ranked by how many of them it holds (the caller
        weighs ``Hit.matched``). Stop words are left out; question words weigh little; only
        the ``MAX_RANKED`` most informative words are searched (pruning keeps questions
        fast)."""
        required, excluded = [], []
        optional: list[tuple[bool, bool, int, str, wq.Query]] = []
        cards: list[tuple[str, wq.Query]] = []
        total = max(1, self.doc_count())
        seen: set[str] = set()
        for item in items:
            if isinstance(item, Required) and _stop_word(item.item):
                item = item.item  # "in the graveyard AND on the battlefield": "on" is no term
            if isinstance(item, Not):
                excluded.append(self.node(item.item))
            elif isinstance(item, Required | Phrase | And):
                required.append(self.node(item))
            elif _stop_word(item):
                continue
            else:
                label = _label(item)
                if isinstance(item, Word):  # a word said twice counts once
                    if fold(label) in seen:
                        continue
                    seen.add(fold(label))
                query = self.node(item)
                df = self.frequency(query)
                if query is wq.NullQuery or not df and self.searcher is not None:
                    # No text searched holds it (a word no dictionary corrects, a card the
                    # index lacks): the others answer, and the caller says so.
                    self.answer.absent.append(label)
                    continue
                if isinstance(item, CardName):
                    cards.append((label, query))
                    continue
                filler = isinstance(item, Word) and is_question_word(item.text)
                vague = not filler and self.telling is not None and not self.telling(label)
                optional.append((filler, vague, df, label, query))
        optional.sort(key=lambda o: o[:3])  # telling words first, the rarest first
        self.answer.ignored.extend(label for *_rest, label, _query in optional[MAX_RANKED:])
        parts = []
        for filler, _vague, _df, label, query in optional[:MAX_RANKED]:
            # Weighed, and allowed to choose the candidates, by its commonest term, as it
            # always was: the rarity of the whole orders the units, it does not outweigh.
            df = self.commonest(query)
            weight = _weight(df, total) * (FILLER_WEIGHT if filler else 1.0)
            terms = _unit_terms(query)
            if filler:
                query = wq.Or([query], boost=FILLER_WEIGHT)
            self.units.append((label, weight, terms))
            self.unit_queries.append(query)
            if not parts or (len(parts) < GENERATORS and not filler
                             and df <= GENERATOR_SHARE * total):
                self.generators.add(len(self.units) - 1)
                parts.append(query)
        for label, query in cards:
            # A card the question names: its rulings and its keywords' rules are candidates;
            # it takes no word's place (Answer.cards says how it counts).
            self.answer.cards.add(len(self.units))
            self.units.append((label, _weight(self.commonest(query), total), _unit_terms(query)))
            self.unit_queries.append(query)
            self.generators.add(len(self.units) - 1)
            parts.append(query)
        if not parts and not required:
            return wq.NullQuery
        self.alone = not required and not excluded
        query: wq.Query
        if required:
            query = required[0] if len(required) == 1 else wq.And(required)
            if parts:
                query = wq.AndMaybe(query, wq.Or(parts))
        else:
            query = parts[0] if len(parts) == 1 else wq.Or(parts)
        return _AndNot(query, wq.Or(excluded)) if excluded else query

    def doc_count(self) -> int:
        return self.searcher.doc_count() if self.searcher is not None else 0  # type: ignore[attr-defined]

    def commonest(self, query: wq.Query) -> int:
        """How many documents the commonest term of a query holds."""
        if self.searcher is None:
            return 0
        return max((self.searcher.doc_frequency(f, t)  # type: ignore[attr-defined]
                    for f, t in query.iter_all_terms()), default=0)

    def frequency(self, query: wq.Query) -> int:
        """About how many documents a query matches (at most): its cost, and how little it
        says. A phrase or a conjunction matches no more documents than its rarest part, an
        alternative as many as its commonest: "mal d'invocation" (or "summoning sickness")
        is a rare unit though "mal" is a common word, and a question's multi-word terms are
        no longer left out as if they were their commonest word."""
        if self.searcher is None:
            return 0
        df = self.searcher.doc_frequency  # type: ignore[attr-defined]
        if isinstance(query, wq.Term):
            return df(query.fieldname, query.text)
        if isinstance(query, wq.Phrase):
            return min((df(query.fieldname, w) for w in query.words), default=0)
        if isinstance(query, wq.And):
            return min((self.frequency(q) for q in query.subqueries), default=0)
        if isinstance(query, wq.AndMaybe | wq.AndNot):
            return self.frequency(query.a)
        if isinstance(query, wq.CompoundQuery):  # Or, DisjunctionMax
            return max((self.frequency(q) for q in query.subqueries), default=0)
        if isinstance(query, wq.WrappingQuery):
            return self.frequency(query.child)
        return self.commonest(query)

    def conjunction(self, items: tuple[Node, ...]) -> wq.Query:
        """Every item must match, except words that are stop words in some language ("de",
        "of", "une"): they are required in no language, as the texts that hold them may be
        written in the language that drops them, and only raise the score where present."""
        required, optional, excluded = [], [], []
        for item in items:
            if isinstance(item, Not):
                excluded.append(self.node(item.item))
            elif isinstance(item, Word) and not item.prefix and (
                    is_stop_word(item.text) or self.correct(item.text) != item.text):
                optional.append(self.word(item))  # a guessed word is never required
            else:
                required.append(self.node(item))
        if not required:
            required, optional = [wq.Or(optional)], []
        query = required[0] if len(required) == 1 else wq.And(required)
        if optional:
            query = wq.AndMaybe(query, wq.Or(optional))
        return _AndNot(query, wq.Or(excluded)) if excluded else query

    def correct(self, text: str) -> str:
        """The word itself when some field knows it, else the nearest indexed word (said).
        Never corrected: a capitalised word (a card name: ``Hardened``, ``Unsummon``), a
        word of the term table or of a card name (``protected``), a word shorter than
        ``MIN_CORRECTED`` letters (``voit`` is not ``void``)."""
        if not self.correct_typos or text[:1].isupper() or len(text) < MIN_CORRECTED:
            return text
        if text not in self.corrections:
            self.corrections[text] = (
                text if self.known(text) or self.protected is not None and self.protected(text)
                else self.correction(text) or text)
        corrected = self.corrections[text]
        if corrected != text:
            self.answer.corrected[text] = corrected
        return corrected

    def word(self, word: Word) -> wq.Query:
        text = word.text if word.prefix else self.correct(word.text)
        options = [self.in_languages(text, word.prefix)]
        for alt in self.alternatives.get(word.text, ()):
            options.append(wq.Or([self.all_words(alt.words, alt.language)],
                                 boost=TRANSLATION_WEIGHT))
        number = RuleNumber.try_parse(text.rstrip("."))
        if number is not None and any(c.isdigit() for c in text) and (
                number.depth or self.sections):
            options.append(wq.Term("number", str(number), boost=NUMBER_BOOST))
        return options[0] if len(options) == 1 else wq.Or(options)

    def known(self, text: str) -> bool:
        for lang in LANGUAGES:
            words = self.vocabulary.get(lang)
            pairs = language(lang).pairs(text)
            if not pairs or words is not None and all(words.known(w, t) for w, t in pairs):
                return True  # a stop word somewhere is known too
        return False

    def correction(self, text: str) -> str | None:
        """The nearest indexed word; a word with accents is French, and is corrected to a
        French word only (``priorité`` is not a typo for ``priority``)."""
        word = fold(text)
        best: tuple[int, int, str] | None = None
        for lang in ("fr",) if word != text.lower() else LANGUAGES:
            words = self.vocabulary.get(lang)
            for distance, candidate in (words.corrections(word) if words else [])[:1]:
                key = (distance, -words.count(candidate), candidate)  # type: ignore[union-attr]
                best = key if best is None or key < best else best
        return best[2] if best else None

    def in_languages(self, text: str, prefix: bool,
                     languages: Sequence[str] = LANGUAGES) -> wq.Query:
        """The word in the fields of the languages whose texts hold it, all its parts where
        analysis splits it; its terms (own stem first, family or prefix words after) count
        once per document. A French word is not searched as an English stem ("copie" is not
        "copy": the translation is searched instead)."""
        options: list[wq.Query] = []
        elided = strip_elision(text)  # "l'écho" is also "echo" to the English fields
        analyzed = {lang: language(lang).pairs(text if lang == "fr" else elided)
                    for lang in languages}
        for lang in prefix and languages or self.holders(analyzed, self.preferred, text):
            pairs = analyzed[lang]
            if not pairs:
                continue
            if len(pairs) > 1:
                # A word the analysis splits ("state-based", "mot-clé"): its parts, in any
                # order. A phrase query would check positions in thousands of texts for the
                # few where the parts are not side by side.
                terms = [t for _, t in pairs]
                self.answer.terms.setdefault(lang, set()).update(terms)
                self.answer.exact.setdefault(lang, set()).update(terms)
                options.append(wq.And([wq.Term(lang, t) for t in terms]))
                continue
            word, term = pairs[0]
            if not prefix:
                self.answer.exact.setdefault(lang, set()).add(term)
            weights = self.expand(lang, word, term, prefix)
            self.answer.terms.setdefault(lang, set()).update(weights)
            terms = [wq.Term(lang, t, boost=w) for t, w in weights.items()]
            options.append(terms[0] if len(terms) == 1 else wq.DisjunctionMax(terms))
        return wq.Or(options) if options else wq.NullQuery

    def all_words(self, words: Sequence[str], lang: str) -> wq.Query:
        """Every word of a term in one language's fields, stop words left out."""
        parts = [q for q in (self.in_languages(w, False, (lang,)) for w in words)
                 if q is not wq.NullQuery]
        if not parts:
            return wq.NullQuery
        return parts[0] if len(parts) == 1 else wq.And(parts)

    def holders(self, analyzed: dict[str, list[tuple[str, str]]],
                preferred: Sequence[str] = (), text: str = "") -> list[str]:
        """The languages to search a word in: those whose texts hold the word as typed, else
        those that hold its stem, else all of them (a word no text holds finds nothing).
        Among the ``preferred`` languages (the query's and the rules') first; the others only
        when none of those holds it and the word is no word of French or English
        (``protected``: a dictionary's or the term table's), as the Portuguese "mão" taken
        for French by its accent. A word of the query's language that only another
        language's text holds is a false friend there: the French "afin" (afin de, in
        order to) shares its stem with the Portuguese "afinidade"."""
        def holds(lang: str, exact: bool) -> bool:
            words, pairs = self.vocabulary.get(lang), analyzed[lang]
            if words is None or not pairs:
                return False
            return all(w in words if exact else words.known(w, t) for w, t in pairs)

        def holding(group: Sequence[str]) -> list[str]:
            for exact in (True, False):
                if found := [lang for lang in group if holds(lang, exact)]:
                    return found
            return []

        if own := [lang for lang in analyzed if lang in preferred]:
            # The dictionaries are asked only for a word the query's languages lack.
            found = holding(own)
            if found or self.protected is not None and self.protected(text):
                return found or own
        return holding(analyzed) or list(analyzed)

    def expand(self, lang: str, word: str, term: str, prefix: bool) -> dict[str, float]:
        words = self.vocabulary.get(lang)
        if prefix:
            matches = words.terms_with_prefix(word) if words else []
            self.expanded[word] = self.expanded.get(word, 0) + len(matches)
            if self.expanded[word] > MAX_EXPANSION:
                raise TooBroadError(
                    _("{word}* stands for more than {limit} words in the index: type more "
                      "letters").format(word=word, limit=MAX_EXPANSION))
            return dict.fromkeys(matches, 1.0)
        if words is None or not words.known(word, term):
            # A word this language does not hold gets no family here: "défenseur" must not
            # reach English "defense" through the English stemmer.
            return {term: 1.0}
        # "leaves" and "left"
        irregular = language(lang).irregular(term) if self.irregular else ()
        family = words.family(term) | {t for t in irregular if t in words.terms}
        weights = {member: FAMILY_WEIGHT * self.rarity_cap(lang, term, member)
                   for member in family}
        weights[term] = 1.0
        return weights

    def rarity_cap(self, lang: str, term: str, member: str) -> float:
        """At most 1: how much rarer a stem-family term may not count than the word's own
        term. A family member scores by its own rarity, so a rare one ("counterpart" in the
        family of "counter") outscored the word itself in every text that held it; scaled by
        the ratio of the two idfs, it weighs at most what the typed word would."""
        if self.searcher is None:
            return 1.0
        idf = self.searcher.idf  # type: ignore[attr-defined]
        own, other = idf(lang, term), idf(lang, member)
        return min(1.0, own / other) if other > 0 else 1.0

    def phrase(self, words: Iterable[str]) -> wq.Query:
        text = " ".join(words)
        options = []
        for lang in LANGUAGES:
            terms = [t for _, t in language(lang).pairs(text)]
            if terms:
                self.answer.terms.setdefault(lang, set()).update(terms)
                self.answer.exact.setdefault(lang, set()).update(terms)
                options.extend(self.phrase_in(lang, variant)
                               for variant in self.irregular_variants(lang, terms))
        return wq.Or(options) if options else wq.NullQuery

    def irregular_variants(self, lang: str, terms: list[str]) -> list[list[str]]:
        """A phrase's terms, and the same phrase with an irregular verb's other forms
        ("leaves the battlefield" is also "left the battlefield"), the index's terms only."""
        words = self.vocabulary.get(lang)
        variants = [terms]
        if not self.irregular:
            return variants
        for i, term in enumerate(terms):
            others = sorted(t for t in language(lang).irregular(term)
                            if t != term and words is not None and t in words.terms)
            variants += [[*v[:i], other, *v[i + 1:]] for v in variants for other in others]
        return variants[:MAX_PHRASE_VARIANTS]

    @staticmethod
    def phrase_in(lang: str, terms: list[str]) -> wq.Query:
        return wq.Term(lang, terms[0]) if len(terms) == 1 else wq.Phrase(lang, terms)


def _weight(df: int, total: int) -> float:
    """A question's unit's weight: the rarity of its commonest term (``df`` documents of
    ``total``)."""
    return math.log(1 + total / (1 + df))


def _unit_terms(query: wq.Query) -> frozenset[tuple[str, bytes]]:
    """The (field, term) pairs of a question's unit, as the index holds them."""
    return frozenset((f, t.encode("utf-8") if isinstance(t, str) else t)
                     for f, t in query.iter_all_terms())


def _label(item: Node) -> str:
    """How a question's word is named to the user ("contact mortel", not a query tree)."""
    if isinstance(item, Word):
        return item.text
    if isinstance(item, Phrase):
        return " ".join(item.words)
    if isinstance(item, CardName):
        return item.name
    if isinstance(item, Or | And | Loose):
        return _label(item.items[0])
    return _label(item.item)


def is_question_word(text: str) -> bool:
    """A word that makes a question ("what", "comment", "passe-t-il"): all its parts are
    question words or stop words."""
    parts = [p for p in re.split(r"[-'’]", fold(text)) if p]
    return bool(parts) and all(p in QUESTION_WORDS or p in ("t", "il", "elle", "on", "je")
                               or is_stop_word(p) for p in parts)


def _stop_word(node: Node) -> bool:
    return isinstance(node, Word) and not node.prefix and is_stop_word(node.text)


@lru_cache(maxsize=65536)
def is_stop_word(text: str) -> bool:
    """A stop word in some language ("de", "the"): never required, never a term, and not
    counted against the word limit. Kept: a question's words are asked about often."""
    return any(not language(lang).pairs(text) for lang in LANGUAGES)


class _AndNot(wq.AndNot):
    """``a NOT b``, with a matcher that stops when its first part is done: Whoosh's reads the
    first part's current document after skipping past its last one ("land graveyard NOT
    apply" was an internal error, IndexError, in a players' bug report, issue 23)."""

    def matcher(self, searcher, context=None):  # type: ignore[no-untyped-def]
        return _AndNotMatcher(self.a.matcher(searcher, context),
                              self.b.matcher(searcher, searcher.boolean_context()))


class _AndNotMatcher(AndNotMatcher):
    def _find_next(self) -> bool:
        return bool(self.a.is_active() and super()._find_next())


class _Weightless(wq.WrappingQuery):
    """A filter inside the query: it adds nothing to the score and its postings are skipped
    along the query's candidates. Whoosh's ConstantScoreQuery first reads every document it
    allows (60 ms of a one-query process for a version filter), and a zero boost divides by
    zero in block-quality skipping."""

    def _rewrap(self, child: wq.Query) -> wq.Query:
        return self.__class__(child)

    def matcher(self, searcher, context=None):  # type: ignore[no-untyped-def]
        return _WeightlessMatcher(self.child.matcher(searcher, searcher.boolean_context()))


class _WeightlessMatcher(ConstantScoreWrapperMatcher):
    def __init__(self, child: Matcher, score: float = 0.0) -> None:
        super().__init__(child, score)

    def supports_block_quality(self) -> bool:
        return False  # no quality to skip blocks by


class _Within(wq.WrappingQuery):
    """The query's documents among the allowed ones (sorted document numbers): the query's
    matcher is moved past the documents not allowed with its own skips. Whoosh's filter set
    lets the matcher visit, and the collector drop, every document of the other rules
    versions, half of what an English word matches."""

    def __init__(self, child: wq.Query, allowed: array) -> None:
        super().__init__(child)
        self.allowed = allowed

    def _rewrap(self, child: wq.Query) -> wq.Query:
        return self.__class__(child, self.allowed)

    def matcher(self, searcher, context=None):  # type: ignore[no-untyped-def]
        parent = searcher.get_parent()
        offset = 0 if parent is searcher else parent._offset_for_subsearcher(searcher)
        return _WithinMatcher(self.child.matcher(searcher, context), self.allowed, offset)


class _WithinMatcher(WrappingMatcher):
    """A matcher kept on allowed documents (global numbers, ``offset`` for its segment);
    scores and block qualities are its child's."""

    def __init__(self, child: Matcher, allowed: array, offset: int) -> None:
        super().__init__(child)
        self.allowed, self.offset, self.done = allowed, offset, False
        self._sync()

    def _sync(self) -> None:
        child, allowed, offset = self.child, self.allowed, self.offset
        while child.is_active():
            docnum = child.id() + offset
            i = bisect.bisect_left(allowed, docnum)
            if i == len(allowed):
                self.done = True
                return
            if allowed[i] == docnum:
                return
            child.skip_to(allowed[i] - offset)

    def copy(self) -> _WithinMatcher:
        return _WithinMatcher(self.child.copy(), self.allowed, self.offset)

    def _replacement(self, newchild: Matcher) -> _WithinMatcher:
        return _WithinMatcher(newchild, self.allowed, self.offset)

    def is_active(self) -> bool:
        return not self.done and self.child.is_active()

    def all_ids(self):  # type: ignore[no-untyped-def]
        while self.is_active():
            yield self.id()
            self.next()

    def next(self) -> None:
        self.child.next()
        self._sync()

    def skip_to(self, id: int) -> bool:  # noqa: A002 - Whoosh's name
        moved = self.child.skip_to(id)
        self._sync()
        return moved

    def skip_to_quality(self, minquality: float) -> int:
        skipped = self.child.skip_to_quality(minquality)
        self._sync()
        return skipped


def _fields(hit: Any, view: _View) -> dict[str, Any]:
    """A hit's stored fields, read once per view (each hit[...] unpickles them)."""
    stored = view.stored.get(hit.docnum)
    if stored is None:
        stored = view.stored[hit.docnum] = hit.fields()
    return stored


_Described = tuple[str | None, bool, str | None]  # newest version, unversioned?, oldest


def _segment_versions(folder: Path) -> dict[str, _Described] | None:
    """Segment id -> (the newest version it holds texts of, whether it holds unversioned
    documents, the oldest version); None for an index written before the file existed
    (every segment opens)."""
    try:
        views = json.loads((folder / VIEWS_FILE).read_text(encoding="utf-8"))
        return {segment: (newest, bool(others), oldest)
                for segment, (newest, others, oldest) in views.items()}
    except (OSError, ValueError, TypeError):
        return None


def _opens(info: _Described | None, version: str) -> bool:
    """Whether a search of ``version`` needs a segment (one not described: yes)."""
    if info is None:
        return True
    newest, others, _ = info
    if version == UNVERSIONED:
        return others
    return others or (newest is not None and newest >= version)


def _only(info: _Described | None, version: str) -> bool:
    """Whether every versioned document of a segment is of ``version`` (a segment holds
    the runs that end at its version, each begun at or before it: kb.index.spans)."""
    if info is None:
        return False
    newest, _, oldest = info
    return newest is None or newest == oldest == version


def _filter_query(filters: Filters) -> wq.Query | None:
    parts: list[wq.Query] = []
    if filters.languages:
        parts.append(wq.Or([wq.Term("language", v) for v in filters.languages]))
    if filters.kinds:
        parts.append(wq.Or([wq.Term("kind", v) for v in filters.kinds]))
    if filters.rule:
        if filters.rule.endswith("*"):
            parts.append(wq.Term("rules", filters.rule.rstrip("*")))
        else:
            parts.append(wq.Or([wq.Term("number", filters.rule), wq.Term("cites", filters.rule)]))
    if filters.version:  # a text's run spans the version (kb.index.spans), or it has none
        spans = wq.And([wq.TermRange("cr", filters.version, None),
                        wq.TermRange("crfrom", None, filters.version)])
        parts.append(wq.Or([wq.Term("cr", UNVERSIONED), spans]))
    if filters.card:
        parts.append(wq.Or([wq.Term("card", key) for key in filters.card]))
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else wq.And(parts)
