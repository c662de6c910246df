"""``kb search``: ranked, grouped, bilingual answers to a query.

The index answers words (:mod:`kb.index`); this module adds what needs the store: the rules
version in force, the other language's terms from the derived term table (``piétinement`` also
searches ``trample``, and says so), a prior per kind of record, the grouping of a rule's texts
in every language under today's number, and the snippets.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct, structs

from kb.errors import KbError, NoIndexError
from kb.i18n import _, ngettext
from kb.index import IndexSearcher
from kb.index.analysis import LANGUAGES, language, strip_elision
from kb.index.documents import card_key
from kb.index.highlight import snippet
from kb.index.searcher import (
    QUESTION_WORDS,
    Alternative,
    Answer,
    Filters,
    Hit,
    is_question_word,
    is_stop_word,
)
from kb.index.semantic import WEIGHT, SemanticError, Vectors, blend
from kb.mechanisms import ALL, Mechanisms
from kb.model import TERM_EVIDENCE, Card, Rule, TermPair
from kb.query import (
    KINDS,
    And,
    CardName,
    Loose,
    Node,
    Or,
    Phrase,
    Query,
    QueryRefused,
    Word,
    parse,
)
from kb.reader import KnowledgeBase
from kb.rulenum import RuleNumber
from kb.store import record_number, record_text, record_title
from kb.text.contractions import restored
from kb.text.grammar import grammar_words
from kb.text.normal import fold as fold_name
from kb.text.spelling import dictionaries
from kb.text.synonyms import SYNONYMS

if TYPE_CHECKING:
    from concurrent.futures import Future  # imports logging: only with the model, on use

# Query words and the term table's texts are folded again and again (each run of a question's
# words is looked up as a term): kept, since folding is pure.
fold = lru_cache(maxsize=65536)(fold_name)

# How much a kind of record is worth as an answer, all else equal: a judge wants the rule
# first, then its glossary entry and examples, then rulings, notes and cards.
KIND_PRIOR = {"rule": 1.0, "glossary": 0.7, "example": 0.75, "ruling": 0.7, "note": 0.7,
              "card": 0.6}
# For a question (three words or more), rules answer; a card's text or a ruling that holds
# the same words is about one card.
QUESTION_PRIOR = {"rule": 1.0, "glossary": 0.75, "example": 0.6, "ruling": 0.45, "note": 0.45,
                  "card": 0.3}
QUESTION_WORDS_MIN = 3
# A heading (a rule that is a title and no more: "702.19. Trample", "117. Timing and Priority")
# answers a term searched alone, but holds no answer to a question of its own: its subrules
# do, and a question's heading took a place of the first three from them.
HEADING_PRIOR = 0.5
_FLAT_PRIOR = dict.fromkeys(KIND_PRIOR, 1.0)  # kind priors switched off (kb.mechanisms)
# Words that ask for rulings, cards or notes rather than rules.
RECORD_WORDS = frozenset({"ruling", "rulings", "faq", "oracle", "errata", "decision",
                          "decisions", "clarification", "clarifications"})
TITLE_MATCH = 1.5
# The links that make the records of one card, or of one ruling, one answer.
SAME_RECORD = {"card": "same-card", "ruling": "same-ruling"}
# Of a question's first LEADING_ANSWERS answers, at most LEADING_RECORDS are rulings, notes or
# cards (unless it asks for them or names a card in a few words: _wants_records).
LEADING_ANSWERS = 3
LEADING_RECORDS = 1
RECORD_KINDS = frozenset({"ruling", "note", "card"})
SECTION_TITLE = 1.25  # a subrule of a rule whose title the query names (702.19b for trample)
# How much a rule's words count from its siblings and parent. On players' questions (the
# development half, tests/search/players) a rule that holds the words itself is the answer
# more often than one whose family holds them: 0.4 -> 0.2 raised hit@3 on three of its four
# figures and lowered none (0.0-0.2 all did better than 0.4; the relevance set unchanged).
FAMILY_SHARE = 0.2
EXAMPLE_SHARE = 0.6  # what a rule's matching example adds to the rule's answer
COVERAGE_POWER = 1  # how much the share of the question's words a record holds counts
MAX_TRANSLATIONS = 3
# The rules' own language: every rule has a text in it, so a query written in it is not
# translated. Its translations only reached the other languages' texts, which a few rules have
# (707, 702.102, 702.30 in French): they were a second chance to match for those rules alone,
# and pulled English questions toward them (held-out players' questions, issue 23).
RULES_LANGUAGE = "en"
MAX_TERM_WORDS = 6  # the longest multi-word term looked up in a question, stop words included
CARD_SIMILARITY = 85  # rapidfuzz ratio a mistyped card name needs ("Voice of Resurgance")
CARD_EDITS = 2  # ... and at most this many letters off: a near-exact name, not a neighbour
CARD_CLEAR = 5  # ... and this much nearer than the next name: clearly the best
CARD_SUGGESTED = 60  # how near a name must be to be suggested ("did you mean")
SUGGESTED_CARDS = 3
MIN_CARD_WORD = 4  # letters a lone capitalised word needs to be looked up as a card's name
MAX_CARD_WORDS = 6  # the longest card name looked for in a question written plainly
# The words a question is searched by at most, its rarest (a pasted forum post of 200 words
# is carried by them; the index searches fewer still: kb.index.searcher.MAX_RANKED).
MAX_QUESTION_WORDS = 32
# Which evidence names a translation first: the official vocabulary, then a keyword or
# title, before a word pair read off parallel texts, and card names last.
_KIND_ORDER = {kind: rank for rank, kind in enumerate(TERM_EVIDENCE)}
_ALIGNED = {"parallel-text", "card-name"}  # pairs read off where words stand in two texts
DEFAULT_LIMIT = 10
# The words and runs of words a long-lived searcher keeps the translations of (each looked up
# in the term table once, not once per query: a question looks up every run of two to six of
# its words).
TRANSLATIONS_KEPT = 65536
RECORDS_KEPT = 16384  # records, and lists of links, a long-lived searcher keeps
# French key words reach the sentence model (an English one) as their English gloss: the
# term table's English terms, the words English texts hold, the names. Up to this many words:
# 150 of the development half's 162 French key words, 7 of its 162 French questions. The gloss
# of a long question is a bag of its terms without the sentence the model reads: glossing
# every French query, the held-out half's questions lost 8 answers from the first three and
# won 1 (key words won 12, lost 4). For the same reason a query that ends with a question
# mark is not glossed, however short: the relevance set's three short French questions that
# the gloss moved lost two answers from the first three and won none.
GLOSS_MAX_WORDS = 12
# The model's share of a French query's worth: its gloss says less than an English query's
# own words. Development half, 0.2 to 0.6 by tenths: French key words .586 .623 .654 .667
# .660 hit@3, French questions .407 up to 0.4 and .389 .364 above; 0.4 holds both.
GLOSS_WEIGHT = 0.4


class Translation(Struct, frozen=True):
    """A query word and the other-language terms searched with it, with their evidence."""

    word: str
    terms: tuple[str, ...]
    kinds: tuple[str, ...]


class SearchHit(Struct, frozen=True):
    """One answer's best text (a rule answer's is a text of the rule: it has the number),
    with the answer's other texts (other languages and documents, examples, the glossary
    entry pointing to it) in ``texts``; a text of ``texts`` has none of its own."""

    kind: str
    id: str
    number: str | None
    language: str
    version: str | None
    score: float
    snippet: str
    title: str | None
    group: str  # today's rule number for rule texts, else the record id
    source: dict[str, object]
    texts: tuple[SearchHit, ...] = ()


@dataclass
class SearchResult:
    query: str
    version: str | None  # the CR version searched, None for all
    hits: list[SearchHit] = field(default_factory=list)  # one per answer, best first
    corrected: dict[str, str] = field(default_factory=dict)
    translations: list[Translation] = field(default_factory=list)
    language: str | None = None  # the query's language, as decided from its words
    dropped: list[str] = field(default_factory=list)  # words the first answer does not hold
    # What was done to the question, said to the user: the words no text holds (searched
    # without them), the words left out as the least telling of a long question, and the
    # quoted fragments of a question searched as its other words are.
    absent: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    grammar: list[str] = field(default_factory=list)  # a French sentence's words, no keyword
    unquoted: list[str] = field(default_factory=list)
    operators_as_words: list[str] = field(default_factory=list)  # prose's "does NOT work"
    notes: list[str] = field(default_factory=list)  # how search ran, when not as it should
    # [[Names]] no card has (the question ran without them), with the nearest card names.
    unknown_cards: dict[str, list[str]] = field(default_factory=dict)
    # The query's language when no answer has a text in it (a French question answered by
    # rules the index holds in English only): said once, not per answer.
    missing_language: str | None = None
    # Whether a sentence model's nearness to today's English rules took part in the ranking
    # (an index built with kb build --model; kb.index.semantic).
    semantic: bool = False
    gloss: str = ""  # the English words a French query was given to the model as

    def said(self) -> list[str]:
        """What was done to the query besides corrections and translations, one line each
        (the command line and the web page show them)."""
        lines = [_("Note: {note}").format(note=note) for note in self.notes]
        for name, near in self.unknown_cards.items():
            line = _("No card named {name!r}: searched without it").format(name=name)
            if near:
                line += _("; did you mean: {names}?").format(names=", ".join(near))
            lines.append(line)
        if self.unquoted:
            lines.append(_("Quoted words searched as words of the question: {quoted}").format(
                quoted=", ".join(f'"{q}"' for q in self.unquoted)))
        if self.operators_as_words:
            lines.append(_("Read as words of the question, not as operators: {words}").format(
                words=", ".join(self.operators_as_words)))
        if self.absent:
            lines.append(ngettext("No text holds {words}: searched without it",
                                  "No text holds {words}: searched without them",
                                  len(self.absent)).format(
                words=", ".join(repr(w) for w in self.absent)))
        if self.ignored:
            lines.append(_("Left out as the least telling words: {words}").format(
                words=", ".join(self.ignored)))
        if self.grammar:
            lines.append(_("Read as French grammar, not as a keyword: {words}").format(
                words=", ".join(self.grammar)))
        if self.semantic and self.gloss:
            lines.append(_("Ranked with the sentence model too, in English: {gloss}").format(
                gloss=self.gloss))
        elif self.semantic:
            lines.append(_("Ranked with the sentence model too (kb build --model)"))
        return lines

    def groups(self) -> list[list[SearchHit]]:
        """Each answer's texts (a rule's texts in every language together), best answer
        first."""
        return [[hit, *hit.texts] for hit in self.hits]


class Searcher:
    """Search over one generation of an index; reuse it for many queries."""

    def __init__(self, index_root: Path | None = None,
                 mechanisms: Mechanisms = ALL) -> None:
        self.kb = KnowledgeBase(index_root)
        self.index = IndexSearcher(self.kb.generation)
        self.mechanisms = self.index.mechanisms = mechanisms  # all on but in the bench
        self._titles: dict[str, str] = {}  # record id -> title, for the section boost
        self._vetted: set[str] | None = None
        self._spelled = False  # a word was looked up in the dictionaries
        self._latest: dict[str, str] = {}  # rule id -> its number in the latest version
        self.index.protected = self._is_vetted
        self.index.telling = self._is_telling
        self.index.same_text = self.kb.store.same_text_in
        self._translations = lru_cache(maxsize=TRANSLATIONS_KEPT)(self._translations_of)
        # Records and links by id, read once (a generation's store does not change): the
        # same rules come back across a long-lived searcher's queries.
        self._record = lru_cache(maxsize=RECORDS_KEPT)(self.kb.store.get)
        self._links = lru_cache(maxsize=RECORDS_KEPT)(self.kb.store.links)
        # The term table's rows by key: the first stem of many runs of words is the same.
        self._term_rows = lru_cache(maxsize=TRANSLATIONS_KEPT)(self.kb.store.terms)
        # A card's or a ruling's answer, by record: the same rulings come back query after
        # query (emptied beyond RECORDS_KEPT).
        self._same_record: dict[str, str] = {}
        # The model's vectors of today's English rules, if the index was built with a model
        # (kb.index.semantic); None also once the model failed, said in that search's notes.
        self._vectors = Vectors.open(self.kb.generation) if mechanisms.semantic else None

    def close(self) -> None:
        if self._vectors is not None:
            self._vectors.close()
        self.index.close()
        self.kb.close()

    def __enter__(self) -> Searcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def search(self, text: str, *, lang: str | None = None, kind: str | None = None,
               limit: int = DEFAULT_LIMIT, version: str | None = None,
               translate: bool = True) -> SearchResult:
        """The ``limit`` best groups of hits for ``text`` (see :mod:`kb.query`)."""
        query = parsed = _flat(parse(text))
        filters = self._filters(query, lang, kind, version)
        result = SearchResult(query.text, filters.version,
                              operators_as_words=list(query.as_words))
        if (card := query.filters.get("card")) and not self.card_keys(card):
            result.unknown_cards[card] = self.card_suggestions(card)
        query = self._bounded(_unquoted(query, result), result)
        result.language = self._language(query)
        query = _contracted(query, result, self._language)
        query = _without_grammar(query, result)
        alternatives: dict[str, list[Alternative]] = {}
        if self.mechanisms.cards:
            query = self._with_cards(query, filters.version, result)
        if query.root is None and not query.filters:  # only an unknown [[card]]
            return result
        own = _own_words(query)
        heard: dict[str, set[str]] = {}  # the translations' words, by language
        if translate:
            query = self._translate(query, alternatives, result, heard)
        nearing = self._nearing(parsed, filters, result, text, heard.get("en", set()))
        answer = self.index.search(query, filters, alternatives,
                                   correct=self.mechanisms.typos,
                                   preferred=_preferred(result.language, filters))
        result.corrected = answer.corrected
        result.absent = answer.absent
        if self._spelled and (note := dictionaries().note()):
            result.notes.append(note)
        result.ignored += answer.ignored
        typed = _Typed(answer.exact, own | _folded(answer.corrected.values()),
                       {lang: _folded(words) for lang, words in heard.items()},
                       _wants_records(query, filters, answer))
        if self.mechanisms.title_boosts:
            self._with_glossary_rules(answer, typed)
        scores = self._scores(answer, typed)
        ranked = sorted(answer.hits, key=lambda h: -scores[h.id])
        self._read_same_records(ranked)
        keys = {hit.id: self._group(hit, filters.version) for hit in ranked}
        worth = _group_order(ranked, keys, scores)
        kinds = {keys[hit.id]: hit.kind for hit in reversed(ranked)}
        if nearing is not None and typed.wants_records:
            nearing.future.cancel()  # rulings or cards asked for: the model knows rules only
            nearing = None
        if nearing is not None:
            worth = self._with_nearness(nearing, worth, result)
            kinds.update((key, "rule") for key in worth if key not in kinds)
        order = list(worth)
        if self.mechanisms.kind_priors and not typed.wants_records:
            order = _rules_lead(order, kinds,
                                rule_first=len(answer.words) >= QUESTION_WORDS_MIN)
        order = order[:limit]
        if nearing is not None:
            order = self._with_rules_found(nearing.vectors, order, ranked, keys, scores)
        members: dict[str, list[Hit]] = {key: [] for key in order}
        for hit in ranked:
            if keys[hit.id] in members:
                members[keys[hit.id]].append(hit)
        # The query's language, unless the filters leave it out (lang:en, kind:ruling).
        wanted = (result.language if result.language
                  and result.language in (filters.languages or (result.language,)) else None)
        for key in order:
            texts = [self._hit(hit, key, answer.terms, scores[hit.id]) for hit in members[key]]
            if wanted and (not filters.kinds or "rule" in filters.kinds):
                texts += self._own_language(key, texts, wanted, answer.terms)
            result.hits.append(self._answer(key, texts, worth[key], result.language,
                                            answer.terms))
        if wanted and result.hits and all(t.language != wanted for h in result.hits
                                          for t in (h, *h.texts)):
            result.missing_language = wanted
        if ranked and answer.words:
            held = ranked[0].matched
            result.dropped = [w for i, (w, _) in enumerate(answer.words)
                              if i not in held and not is_question_word(w)]
        return result

    def _bounded(self, query: Query, result: SearchResult) -> Query:
        """A question of any length, carried by its ``MAX_QUESTION_WORDS`` rarest words of
        the game (:meth:`_is_telling`): the work is bounded, not the question. The others are
        left out (and said), question words first; stop words stay between two words kept
        ("champ de bataille")."""
        if not isinstance(query.root, Loose):
            return query
        items = query.root.items
        content = [i for i, item in enumerate(items) if isinstance(item, Word)
                   and not item.prefix and not is_stop_word(item.text)]
        distinct = {fold(items[i].text) for i in content}  # type: ignore[union-attr]
        if len(distinct) <= MAX_QUESTION_WORDS:
            return query
        rarity = self.index.rarity
        typed = {fold(items[i].text): items[i].text for i in content}  # type: ignore[union-attr]
        order = sorted(sorted(distinct),  # ties in alphabetical order, not a set's
                       key=lambda w: (is_question_word(w), not self._is_telling(typed[w]),
                                      rarity(w)))
        kept_words = set(order[:MAX_QUESTION_WORDS])
        kept = {i for i in content if fold(items[i].text) in kept_words}  # type: ignore[union-attr]
        left = [i for i in content if i not in kept]
        result.ignored += list(dict.fromkeys(items[i].text for i in left))  # type: ignore[union-attr]
        out = []
        for i, item in enumerate(items):
            if i in left:
                continue
            if i not in kept and isinstance(item, Word) and not item.prefix:  # a stop word
                before = next((j for j in range(i - 1, -1, -1) if j not in left), None)
                after = next((j for j in range(i + 1, len(items)) if j not in left), None)
                if before is None or after is None or before < i - 1 or after > i + 1:
                    continue  # not between two words kept side by side
            out.append(item)
        return Query(query.text, Loose(tuple(out)), query.filters, query.cards)

    # -- ranking -------------------------------------------------------------------------------

    def _scores(self, answer: Answer, typed: _Typed) -> dict[str, float]:
        """Each hit's score: the index's BM25F, by kind (rules first unless the query names
        a card or asks for rulings; for a question, a heading after the rules that say
        something), by title, and by the share of the question's words it
        holds (with its rule family: a concept spread over 702.19a-g meets; a card the
        question names counts only where the record or its family holds it). Not by its
        language: that a rule has a French text says nothing of its answering a French
        question (the few that have one, 707, 702.102, 702.30, were pulled to the top)."""
        weights = [w for _, w in answer.words]
        words = sum(w for i, w in enumerate(weights) if i not in answer.cards)
        family: dict[str, set[int]] = {}
        for hit in answer.hits:
            key = _family(hit)
            if key:
                family.setdefault(key, set()).update(hit.matched)
        scores = {}
        prior = KIND_PRIOR if typed.wants_records else QUESTION_PRIOR
        if not self.mechanisms.kind_priors:
            prior = _FLAT_PRIOR
        headings = self.mechanisms.kind_priors and len(weights) >= QUESTION_WORDS_MIN
        titles = self.mechanisms.title_boosts
        # A glossary entry's pointer names its rule; one of three pointers, a third as much.
        named: dict[tuple[str, str], float] = {}
        for entry, numbers in self._glossary_pointers(answer, typed) if titles else ():
            for number in numbers:
                boost = 1 + (TITLE_MATCH - 1) / len(numbers)
                named[entry.version, number] = max(boost, named.get((entry.version, number), 1))
        for hit in answer.hits:
            score = _rank_score(hit, typed, prior, titles)
            if headings and hit.kind == "rule" and hit.title:
                score *= HEADING_PRIOR
            if titles:
                score *= self._section_boost(hit, typed)
            if (hit.kind == "rule" and (hit.version, hit.number) in named
                    and not _names(hit, typed)):  # the title boost counts once
                score *= named[hit.version, hit.number]
            if weights:
                kin = family.get(_family(hit), hit.matched)
                total = (words + sum(weights[i] for i in answer.cards
                                     if i in hit.matched or i in kin)) or 1.0
                own = sum(weights[i] for i in hit.matched) / total
                near = sum(weights[i] for i in kin) / total
                score *= ((1 - FAMILY_SHARE) * own + FAMILY_SHARE * near) ** COVERAGE_POWER
            scores[hit.id] = score
        return scores

    def _glossary_pointers(self, answer: Answer,
                           typed: _Typed) -> list[tuple[Hit, tuple[str, ...]]]:
        """The glossary entries the query names, with the rule numbers each points to:
        "legend rule" names the glossary's Legend Rule, which says "See rule 704.5j", so
        704.5j is named as a rule whose title the query holds would be."""
        found = []
        for hit in answer.hits:
            if hit.kind == "glossary" and _names(hit, typed):
                record = self._record(hit.id)
                found.append((hit, tuple(c.first for c in
                                         getattr(record, "citations", ()) or ())))
        return found

    def _with_glossary_rules(self, answer: Answer, typed: _Typed) -> None:
        """The rules a named glossary entry points to are candidates, with the entry's text
        score: "command zone" names the glossary's Command ("See rule 408"), whose rule text
        is the one word "Command" and so never holds the whole phrase."""
        held = {hit.id for hit in answer.hits}
        if len(answer.words) >= QUESTION_WORDS_MIN:
            return  # a question's answer is a rule that holds its words, not a heading
        for entry, numbers in self._glossary_pointers(answer, typed):
            prefix = entry.id.split("glossary/")[0]
            for number in numbers:
                rule_id = prefix + number
                if rule_id in held or not prefix:
                    continue
                record = self._record(rule_id)
                if record is None or getattr(record, "number", None) != number:
                    continue
                held.add(rule_id)
                share = entry.score / len(numbers)  # one of three pointers: a third
                answer.hits.append(Hit(rule_id, share, "rule", number, entry.language,
                                       entry.version, record_title(record) or "",
                                       entry.matched))

    def _section_boost(self, hit: Hit, typed: _Typed) -> float:
        """``SECTION_TITLE`` for a subrule whose rule's title the query names."""
        number = RuleNumber.try_parse(hit.number) if hit.kind == "rule" else None
        if number is None or number.depth < 2 or not hit.id.endswith(hit.number):
            return 1.0
        parent = number.parent if number.depth == 3 else number
        parent = parent.parent if parent and parent.depth == 2 and number.depth == 2 else parent
        if parent is None or parent.depth < 1:
            return 1.0
        parent_id = hit.id[:-len(hit.number)] + str(parent)
        if parent_id not in self._titles:
            record = self._record(parent_id)
            self._titles[parent_id] = (record_title(record) or "") if record else ""
        title = self._titles[parent_id]
        lang = hit.language if hit.language in LANGUAGES else "en"
        return SECTION_TITLE if typed.holds(title, lang) else 1.0

    def _nearing(self, query: Query, filters: Filters, result: SearchResult, text: str,
                 english: set[str]) -> _Nearing | None:
        """The model's nearness to this search's text, started on its own thread
        (:meth:`Vectors.nearness_soon`) while kb ranks by words, if it ranks the answers
        too: for a phrase or a question of plain English words, or French key words (no
        question mark; a word or two name a thing, and kb finds it; an operator, a prefix or
        a rule number the model would not honour), answered by today's English rules. A
        French query is read by the model as its English gloss (:meth:`_gloss`; ``english``:
        the English terms its words were searched with), and weighs less. Whether a ruling
        or card is asked for is known after the search: the caller drops it then."""
        vectors = self._vectors
        root = query.root
        items = root.items if isinstance(root, Loose) else (root,)
        if vectors is None or len(items) < QUESTION_WORDS_MIN:
            return None
        if result.language != "en" and (result.language != "fr"
                                         or len(query.words()) > GLOSS_MAX_WORDS
                                         or query.text.rstrip().endswith("?")):
            return None
        try:
            version = vectors.version
        except SemanticError as exc:
            self._semantic_off(result, exc)
            return None
        plain = (filters.version == version and not filters.rule and not filters.card
                 and (not filters.kinds or "rule" in filters.kinds)
                 and (not filters.languages or "en" in filters.languages)
                 and all(isinstance(i, Word) and not i.prefix for i in items))
        if not plain:
            return None
        weight, gloss = WEIGHT, ""
        if result.language == "fr":
            text = gloss = self._gloss(text, result.translations, english)
            weight = GLOSS_WEIGHT
            if not text:
                return None
        return _Nearing(vectors, vectors.nearness_soon(text), weight, gloss)

    def _semantic_off(self, result: SearchResult, reason: SemanticError) -> None:
        """Said once, in the search that found the model unusable; kb ranks alone after."""
        if self._vectors is not None:
            self._vectors.close()
        self._vectors = None
        result.notes.append(_("semantic ranking is off: {reason}").format(reason=reason))

    def _with_nearness(self, nearing: _Nearing, worth: dict[str, float],
                       result: SearchResult) -> dict[str, float]:
        """The answers' worth blended with the model's nearness (kb.index.semantic.blend):
        a rule only the model found is an answer too (``"rule N"``), its text read only if
        it is among the answers shown (:meth:`_with_rules_found`)."""
        try:
            nearness = nearing.future.result()
        except SemanticError as exc:
            self._semantic_off(result, exc)
            return worth
        result.semantic = bool(nearness)
        result.gloss = nearing.gloss if nearness else ""
        return blend(worth, nearness, nearing.weight)

    def _gloss(self, text: str, translations: list[Translation], english: set[str]) -> str:
        """A French query's words in English, in their order: a word or run of words the
        term table translated as its first English term, a word English texts hold as
        itself ("commander"), a capitalised word within the query (a name); the other words
        are left out, each term said once. "règle des légendes même nom copie" is "legend
        rule Name copy"."""
        terms = {fold(t.word): en[0] for t in translations
                 if (en := [term for term in t.terms if term in english])}
        vocabulary = self.index.vocabulary.get(RULES_LANGUAGE)
        words = _GLOSSED.findall(text)
        out: list[str] = []
        i = 0
        while i < len(words):
            for n in range(min(MAX_TERM_WORDS, len(words) - i), 0, -1):
                term = terms.get(fold(" ".join(words[i:i + n])))
                if term is not None:
                    out.append(term)
                    i += n
                    break
            else:
                word = words[i]
                plain = fold(strip_elision(word))
                if not is_stop_word(word) and (
                        vocabulary is not None and plain in vocabulary
                        or i and word[:1].isupper()):
                    out.append(word if word[:1].isupper() else plain)
                i += 1
        return " ".join(dict.fromkeys(out))

    def _with_rules_found(self, vectors: Vectors, order: list[str], ranked: list[Hit],
                          keys: dict[str, str], scores: dict[str, float]) -> list[str]:
        """The answers shown, each rule only the model found given its English text as a
        hit (one the store lacks is no answer)."""
        held = set(keys.values())
        shown = []
        for key in order:
            if key not in held:
                hit = self._rule_hit(vectors.record_of(key.removeprefix("rule ")) or "")
                if hit is None:
                    continue
                ranked.append(hit)
                keys[hit.id] = key
                scores[hit.id] = 0.0
            shown.append(key)
        return shown

    def query_language(self, text: str) -> str | None:
        """The language a text is written in, decided as a query's is (None: it does not say;
        the search box's suggestions keep to it)."""
        try:
            return self._language(_flat(parse(text)))
        except KbError:
            return None

    def _language(self, query: Query) -> str | None:
        """French or English, from the query's words: accents, each language's stop words
        and question words, and which language's texts hold the other words more."""
        votes = {"fr": 0.0, "en": 0.0}
        vocabulary = self.index.vocabulary
        for word in query.words():
            raw = word.text.lower()
            folded = fold(raw)
            if folded != raw or "'" in raw or "’" in raw:
                votes["fr"] += 1
                continue
            stops = {lang: not language(lang).pairs(raw) for lang in votes}
            if stops["fr"] != stops["en"]:
                votes["fr" if stops["fr"] else "en"] += 1
                continue
            counts = {lang: vocabulary[lang].count(folded) if lang in vocabulary else 0
                      for lang in votes}
            sizes = {lang: len(vocabulary[lang].words) if lang in vocabulary else 1
                     for lang in votes}
            share = {lang: counts[lang] / max(1, sizes[lang]) for lang in votes}
            if share["fr"] > 2 * share["en"]:
                votes["fr"] += 0.5
            elif share["en"] > 2 * share["fr"]:
                votes["en"] += 0.5
        if votes["fr"] == votes["en"]:
            return None
        return max(votes, key=lambda lang: votes[lang])

    def _is_vetted(self, word: str) -> bool:
        """Whether a word no text holds is a word all the same, never a typo: a word of a
        term of the table or a card name in either language (``recto`` of "recto verso" is
        no typo for "resto"; read once, when a first such word is typed), or a word the
        English or French dictionary knows ("board", "explique": kb.text.spelling)."""
        if self._vetted is None:
            rows = self.kb.store.conn.execute("SELECT french, english FROM terms")
            synonyms = [(pair.one, pair.other) for pair in SYNONYMS]
            self._vetted = {w for row in [*rows, *synonyms] for text in row
                            for w in _WORDS.findall(fold(text))}
        if fold(word) in self._vetted:
            return True
        self._spelled = True
        return dictionaries().knows(word)

    def _is_telling(self, text: str) -> bool:
        """Whether a question's word or term names something of the game: each of its
        words (stop words aside) is, in some language, a word of a rule's or glossary
        entry's title or of an official term ("blocker", "trample", "mal d'invocation"); or
        it is capitalised and each of its words is a card name's ("Dreadbore"). The words
        of the game are worked out at build time (:mod:`kb.index.game`)."""
        for lang in LANGUAGES:
            pairs = language(lang).pairs(text)
            if pairs and all(term in self.index.game_terms for _, term in pairs):
                return True
        return text[:1].isupper() and all(self.index.is_card_word(w)
                                           for w in fold(text).split())

    # -- cards --------------------------------------------------------------------------------

    def card_keys(self, name: str) -> tuple[str, ...]:
        """The index keys of a card named in either language, on strong evidence only: the
        name, or a near-exact one that is clearly the best ("Voice of Resurgance", one
        letter off; "Zulaport Cutthroat" is not Zulaport Enforcer); with its other-language
        name (term table), the whole split card of a half (``Catch`` -> "catch // release")
        and its halves. Empty if no card is that near."""
        keys = self.index.card_keys()
        key = card_key(name)
        if not self.index.is_card(key):
            from rapidfuzz import fuzz, process  # only for a name the index lacks
            from rapidfuzz.distance import Levenshtein

            near = process.extract(key, keys, scorer=fuzz.ratio, limit=2,
                                   score_cutoff=CARD_SIMILARITY)
            if not near or Levenshtein.distance(key, near[0][0]) > CARD_EDITS or (
                    len(near) > 1 and near[0][1] - near[1][1] < CARD_CLEAR):
                return ()
            key = near[0][0]
        wanted = {key}
        for pair in self.kb.store.terms(fold(key)):
            if pair.kind == "card-name":
                wanted |= {card_key(pair.french), card_key(pair.english)}
        halves = {half for k in wanted for half in k.split(" // ")}
        wanted |= {k for k in keys if " // " in k and halves & set(k.split(" // "))}
        return tuple(sorted(k for k in wanted | halves if self.index.is_card(k)))

    def card_suggestions(self, name: str) -> list[str]:
        """The names of the cards nearest a name no card has, for "did you mean"."""
        from rapidfuzz import fuzz, process

        near = process.extract(card_key(name), self.index.card_keys(), scorer=fuzz.ratio,
                               limit=SUGGESTED_CARDS, score_cutoff=CARD_SUGGESTED)
        names = []
        for key in (match[0] for match in near):
            card = next((c for i in self.index.cards((key,))
                         if isinstance(c := self._record(i), Card)), None)
            names.append(card.name if card is not None else key)
        return list(dict.fromkeys(names))

    def _with_cards(self, query: Query, version: str | None,
                    result: SearchResult) -> Query:
        """Cards named in a question, ``[[Doubling Season]]`` or written plainly (capitalised
        words that are a card's name exactly, or one such word inside the question:
        "Dreadbore"), as optional items: the card's rulings in both languages are candidates,
        and so are the rules its keywords name (a question about a card with trample may be
        answered by 702.19). A ``[[name]]`` no card has is said, with the nearest names, and
        its words are left out: the question runs without it."""
        if query.root is None:
            return query
        items = list(query.root.items) if isinstance(query.root, Loose) else [query.root]
        names = list(query.cards)
        run: list[str] = []
        for n, item in enumerate([*items, None]):
            if isinstance(item, Word) and (item.text[:1].isupper()
                                           or run and is_stop_word(item.text)):
                run.append(item.text)  # "Voice of Resurgence", "Voix du renouveau"
                continue
            if len(run) >= 2:
                names += self._plain_names(run)
            elif len(run) == 1 and n > 1 and self._one_word_card(run[0]):
                names.append(run[0])  # "can Dreadbore destroy ...": not a sentence's first
            run = []
        cards = []
        for name in dict.fromkeys(names):
            keys = self.card_keys(name) if name in query.cards else self._exact_card(name)
            if keys:
                cards.append(CardName(name, keys, self._keyword_rules(keys, version)))
            elif name in query.cards:
                result.unknown_cards[name] = self.card_suggestions(name)
                items = _without_words(items, name.split())
        if not cards and not result.unknown_cards:
            return query
        if not items and not cards:
            return Query(query.text, None, query.filters, query.cards)
        root = Loose((*items, *cards)) if len(items) + len(cards) > 1 else (*items, *cards)[0]
        return Query(query.text, root, query.filters, query.cards)

    def _one_word_card(self, word: str) -> bool:
        """Whether one capitalised word is a card's whole name and no word of the rules'
        titles or terms ("Dreadbore" is a card; "Flying" is not one; "I" is not looked up)."""
        return (len(word) >= MIN_CARD_WORD and not is_question_word(word)
                and not self._is_telling(word.lower()) and self.index.is_card(card_key(word)))

    def _keyword_rules(self, keys: tuple[str, ...], version: str | None) -> tuple[str, ...]:
        """The rule numbers (in ``version``) of the keywords the named card's records list,
        as the glossary names them (``Flying`` -> 702.9); a keyword no rule is named for
        (an ability word) adds nothing."""
        keywords = {word for card_id in self.index.cards(keys)
                    if isinstance(card := self._record(card_id), Card)
                    for word in card.keywords}
        numbers = []
        for word in sorted(keywords):
            try:
                numbers.append(self.kb.lookup_word(word, version).rule)
            except KbError:
                continue
        return tuple(dict.fromkeys(numbers))

    def _plain_names(self, words: list[str]) -> list[str]:
        """The longest runs of capitalised words that are card names exactly."""
        found, i = [], 0
        while i < len(words):
            for size in range(min(MAX_CARD_WORDS, len(words) - i), 1, -1):
                name = " ".join(words[i:i + size])
                if self.index.is_card(card_key(name)):
                    found.append(name)
                    i += size
                    break
            else:
                i += 1
        return found

    def _exact_card(self, name: str) -> tuple[str, ...]:
        return self.card_keys(name) if self.index.is_card(card_key(name)) else ()

    # -- filters -----------------------------------------------------------------------------

    def _filters(self, query: Query, lang: str | None, kind: str | None,
                 version: str | None) -> Filters:
        wanted = dict(query.filters)
        for name, value in (("lang", lang), ("kind", kind), ("version", version)):
            if value is not None:
                wanted.setdefault(name, value)
        languages = _choices(wanted.get("lang"), LANGUAGES, "lang")
        kinds = _choices(wanted.get("kind"), KINDS, "kind")
        rule = wanted.get("rule")
        if rule is not None and RuleNumber.try_parse(rule.rstrip("*").rstrip(".")) is None:
            raise QueryRefused(_("rule:{rule} is not a rule number (try rule:702.19 or "
                                 "rule:702.19*)").format(rule=rule))
        if rule is not None:
            star = "*" if rule.endswith("*") else ""
            rule = str(RuleNumber.parse(rule.rstrip("*").rstrip("."))) + star
        wanted_version = wanted.get("version")
        try:
            resolved = None if wanted_version == "all" else (
                self.kb.resolve_version(wanted_version) if self.kb.store.versions() else None)
        except NoIndexError:
            raise
        except KbError as exc:  # "version:2020": a query kb will not run, as kind:foo
            raise QueryRefused(str(exc)) from exc
        card = wanted.get("card")
        return Filters(languages, kinds, rule, resolved,
                       (self.card_keys(card) or (card_key(card),)) if card else ())

    # -- translation ---------------------------------------------------------------------------

    def _translate(self, query: Query, alternatives: dict[str, list[Alternative]],
                   result: SearchResult, heard: dict[str, set[str]]) -> Query:
        if isinstance(query.root, Loose):
            root = self._terms_first(query.root, result, heard)
            query = Query(query.text, root, query.filters, query.cards)
        elif isinstance(query.root, Word):  # "fizzle" alone is searched as in a question
            query = Query(query.text, self._with_synonyms(query.root, result), query.filters,
                          query.cards)
        translated = {w.text for item in _walk_terms(query.root) for w in item}
        question = isinstance(query.root, Loose) and len(query.root.items) >= QUESTION_WORDS_MIN
        for word in query.words():
            if word.prefix or word.text in alternatives or word.text in translated:
                continue
            # A lower-case word of a question is no card's name ("vide" is not Void).
            names = not question or word.text[:1].isupper()
            other = self._other_language(word.text, result, heard, names)
            if not other and self.mechanisms.typos:
                other = self._other_language(self.index.correct(word.text) or "", result,
                                             heard, names)
            if other:
                alternatives[word.text] = [Alternative(lang, tuple(t.split()))
                                           for lang, t in other]
        words = query.words()
        if (isinstance(query.root, And) and len(words) > 1
                and not any(w.prefix for w in words)):
            other = self._other_language(" ".join(w.text for w in words), result, heard)
            if other:
                extra = tuple(And(tuple(Word(w) for w in t.split())) for _, t in other)
                return Query(query.text, Or((query.root, *extra)), query.filters)
        return query

    def _terms_first(self, root: Loose, result: SearchResult,
                     heard: dict[str, set[str]]) -> Loose:
        """Multi-word terms of a question, longest first (``piétinement contact mortel``:
        ``contact mortel`` is one term, searched as itself or as ``deathtouch``), each made
        one optional item: the words of a term count once, and its translation stands for
        all of them."""
        items = list(root.items)
        out: list[Node] = []
        i = 0
        while i < len(items):
            merged = None
            for size in range(min(MAX_TERM_WORDS, len(items) - i), 1, -1):
                run = items[i:i + size]
                if not all(isinstance(w, Word) and not w.prefix for w in run):
                    continue
                texts = [w.text for w in run if isinstance(w, Word)]
                if is_stop_word(texts[0]) or is_stop_word(texts[-1]):
                    continue
                other = self._other_language(" ".join(texts), result, heard)
                same = _synonyms(texts) if self.mechanisms.synonyms else []
                _said_synonyms(" ".join(texts), same, result)
                # The other phrasing is a term too: "coût converti de mana" is searched as
                # "valeur de mana", and so as its translation, "mana value" (its words are
                # not translated one by one: kb.search._walk_terms).
                other += [pair for term in same
                          for pair in self._other_language(term, result, heard)
                          if pair not in other]
                if other or same:
                    merged = Or((Phrase(tuple(texts)),
                                 *(And(tuple(Word(t) for t in term.split()))
                                   for term in [*same, *(term for _, term in other)])))
                    i += size
                    break
            if merged is not None:
                out.append(merged)
                continue
            out.append(self._with_synonyms(items[i], result))
            i += 1
        return Loose(tuple(out))

    def _with_synonyms(self, item: Node, result: SearchResult) -> Node:
        """A word and its other phrasings in its language ("simultaneously": "same time"
        too; "fizzle": "doesn't resolve"), said in ``result``; any other item as it is."""
        if isinstance(item, Word) and not item.prefix and self.mechanisms.synonyms and (
                same := _synonyms([item.text])):
            _said_synonyms(item.text, same, result)
            return Or((item, *(And(tuple(Word(t) for t in term.split())) for term in same)))
        return item

    def _other_language(self, text: str, result: SearchResult,
                        heard: dict[str, set[str]] | None = None,
                        names: bool = True) -> list[tuple[str, str]]:
        """The other-language terms of a word or phrase, found in the term table by its
        folded form, its form without elision, or a term of the same stem (``piétinements``);
        recorded in ``result`` for the user."""
        if not self.mechanisms.translation or result.language == RULES_LANGUAGE:
            return []
        chosen, kinds = self._translations(text, names)
        for lang, term in chosen if heard is not None else ():
            heard.setdefault(lang, set()).add(term)
        if chosen and all(t.word != text for t in result.translations):  # said once
            result.translations.append(
                Translation(text, tuple(t for _, t in chosen), kinds))
        return list(chosen)

    def _translations_of(self, text: str, names: bool
                         ) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
        """The (language, term) translations of a text, with the kinds of their evidence:
        the same for the generation's life, so kept by the searcher (``_translations``)."""
        found: dict[tuple[str, str], set[str]] = {}
        shown: dict[tuple[str, tuple[str, ...]], tuple[str, str]] = {}
        if fold(text) in QUESTION_WORDS or is_stop_word(text):
            return (), ()  # "fait" -> "does", "can" -> "peut": function words are not terms
        exact = self._term_rows(fold(text))
        for lang, other_lang in (("fr", "en"), ("en", "fr")):
            analyzed = language(lang).terms_of(text)
            pairs = sorted(exact or self._pairs(text, lang),
                           key=lambda p: _KIND_ORDER.get(p.kind, 9))
            for pair in pairs:
                mine, other = ((pair.french, pair.english) if lang == "fr"
                               else (pair.english, pair.french))
                other_terms = language(other_lang).terms_of(other)
                # The same word in both languages ("vigilance") needs no translation; the
                # same stem does ("exil" is French, "exile" English: each field is searched
                # only in the languages whose texts hold the word as typed).
                # French Snowball may stem an inflection apart ("exilées" -> exile, "exilé"
                # -> exil): the word-by-word inflection check (_same_term) is the evidence.
                if (language(lang).terms_of(mine) != analyzed and lang != "fr"
                        or fold(other) == fold(mine) or not _same_term(text, mine, lang)
                        or pair.kind == "section-title" and not _same_heading(text, mine)
                        or fold(other) in QUESTION_WORDS or is_stop_word(other)):
                    continue
                # one entry per analyzed form: "Trample" (keyword) and "trample" (texts)
                key = shown.setdefault((other_lang, other_terms), (other_lang, other))
                found.setdefault(key, set()).add(pair.kind)
        generic = {t: k for t, k in found.items() if k != {"card-name"}}
        # Parallel texts pair words by where they stand, and may pair a word with its
        # neighbour ("déclenchement" with "entering": "creatures entering the battlefield
        # don't cause abilities to trigger"); where stronger evidence names the term as typed,
        # they add nothing of their own. An inflection is no such evidence: "regarder" (look)
        # is not the table's "regard" (scry).
        if exact and any(k - _ALIGNED for k in generic.values()):
            generic = {t: k for t, k in generic.items() if k - _ALIGNED}
        ranked = list(generic or (found if names else {}))
        # "mortel" read off parallel texts says less than "contact mortel", which holds it.
        chosen = [t for t in ranked if not any(
            t != o and t[0] == o[0] and set(fold(t[1]).split()) < set(fold(o[1]).split())
            for o in ranked)][:MAX_TRANSLATIONS]
        return tuple(chosen), tuple(sorted(set().union(*(found[t] for t in chosen))))

    def _pairs(self, text: str, lang: str) -> list[TermPair]:
        """Term pairs for a text the table does not hold as written: by its words after
        ``lang``'s analysis (elision gone), else by terms starting with its first stem
        (``piétinements``), which :func:`_same_term` then checks word by word."""
        words = language(lang).pairs(text)
        if not words:
            return []
        return (self._term_rows(" ".join(w for w, _ in words))
                or self._term_rows(words[0][1], prefix=True))

    # -- presentation -------------------------------------------------------------------------

    def _own_language(self, key: str, texts: list[SearchHit], wanted: str,
                      terms: dict[str, set[str]]) -> list[SearchHit]:
        """The texts in the query's language of a rule answer that has none among its texts,
        read from the links to its English rule ("current" and "counterpart"), though the
        index did not rank them: a French reader reads French first wherever it exists
        ("copie capacités": 707.2a's French text holds both words, yet only its English
        ranked among the answers)."""
        if not key.startswith("rule ") or any(t.language == wanted for t in texts):
            return []
        number = key.removeprefix("rule ").split(" (")[0]
        rule_id = next((t.id.split("/")[0] for t in texts if t.id.startswith("cr:en:")
                        and t.id.split("/")[0].rsplit(":", 1)[-1] == number), None)
        if rule_id is None:
            return []
        added: list[SearchHit] = []
        for link in (self._links(to_id=rule_id, relation="current")
                     + self._links(to_id=rule_id, relation="counterpart")):
            record = self._record(link.from_id)
            if (isinstance(record, Rule) and record.language == wanted
                    and not record.untranslated and all(t.id != record.id for t in added)):
                hit = Hit(record.id, texts[0].score, "rule", record.number, wanted, "",
                          record_title(record) or "")
                added.append(self._hit(hit, key, terms, texts[0].score))
        return added

    def _group(self, hit: Hit, version: str | None) -> str:
        """Today's rule number for every text of a rule (any language, any document), the
        number and version for an English rule of another version, a glossary entry that
        points to one rule ("Split Second: ... See rule 702.61") as that rule, a card or a
        ruling of any source or language as the English one, else the record itself."""
        if hit.kind == "glossary":
            return self._glossary_group(hit, version) or hit.id
        if hit.kind in SAME_RECORD:
            return self._same_record[hit.id]
        if hit.kind not in ("rule", "example") or RuleNumber.try_parse(hit.number) is None:
            return hit.id
        if hit.version:
            if hit.version == version:
                return f"rule {hit.number}"
            if version is None:  # --version all: a rule's versions are one answer
                return f"rule {self._latest_number(hit)}"
            return f"rule {hit.number} ({hit.version})"
        rule_id = hit.id.split("/")[0] if hit.kind == "example" else hit.id
        current = self._links(from_id=rule_id, relation="current")
        if current:
            return "rule " + current[0].to_id.rsplit(":", 1)[-1]
        return f"rule {hit.number}"

    def _read_same_records(self, hits: list[Hit]) -> None:
        """One answer for a card or a ruling, whichever source or language printed it: the
        records its ``same-card`` or ``same-ruling`` links join, as ``kb card`` shows them,
        named by the first of their ids. Blood Baron of Vizkopa was two answers of three, the
        FAQ's and MTGJSON's, and its first ruling three more. Every candidate's group is read
        in one query per relation."""
        for kind, relation in SAME_RECORD.items():
            todo = [hit.id for hit in hits if hit.kind == kind and hit.id not in self._same_record]
            if not todo:
                continue
            if len(self._same_record) + len(todo) > RECORDS_KEPT:
                self._same_record.clear()
            for start, group in self.kb.store.linked(todo, relation).items():
                self._same_record[start] = min(group)

    def _glossary_group(self, hit: Hit, version: str | None) -> str | None:
        """The answer a glossary entry belongs to: the one rule it points to, of its own
        rules version (an entry citing several rules, or none, is an answer of its own)."""
        record = self._record(hit.id)
        citations = getattr(record, "citations", ()) or ()
        prefix = hit.id.split("glossary/")[0]
        if len(citations) != 1 or not prefix or not hit.version:
            return None
        number = citations[0].first
        rule_id = prefix + number
        if number != citations[0].last or self._record(rule_id) is None:
            return None
        if hit.version == version:
            return f"rule {number}"
        if version is None:
            return f"rule {self._latest_of(rule_id)}"
        return f"rule {number} ({hit.version})"

    def _latest_number(self, hit: Hit) -> str:
        """The number an English rule text has in the latest version, following its
        ``next-version`` links (702.19b of 2013 is 702.20b in 2020): numbers move."""
        return self._latest_of(hit.id.split("/")[0] if hit.kind == "example" else hit.id)

    def _latest_of(self, rule_id: str) -> str:
        if rule_id not in self._latest:
            chain = self.kb.store.chain(rule_id, "next-version")
            self._latest[rule_id] = (chain[-1] if chain else rule_id).rsplit(":", 1)[-1]
        return self._latest[rule_id]

    def _answer(self, key: str, texts: list[SearchHit], worth: float, lang: str | None,
                terms: dict[str, set[str]]) -> SearchHit:
        """An answer as its head text carrying the others: texts in the query's language
        first; a rule's answer headed by a text of the rule (the rule record itself when only
        its glossary entry matched), so that its number is never missing."""
        texts.sort(key=lambda t: t.language != lang)  # stable: by score otherwise
        head = texts[0]
        if key.startswith("rule "):
            numbered = [t for t in texts if t.kind == "rule"] or [
                t for t in texts if t.number is not None]
            if numbered:
                head = numbered[0]
            elif (rule := self._pointed_rule(texts[0])) is not None:
                head = self._hit(rule, key, terms, worth)
                texts.insert(0, head)
        others = tuple(t for t in texts if t is not head)
        return structs.replace(head, score=round(worth, 4), texts=others)

    def _pointed_rule(self, entry: SearchHit) -> Hit | None:
        """The rule a glossary entry of a rule's answer points to, as a hit."""
        prefix = entry.id.split("glossary/")[0]
        number = entry.group.removeprefix("rule ").split(" (")[0]
        return self._rule_hit(prefix + number) if prefix else None

    def _rule_hit(self, rule_id: str) -> Hit | None:
        """A rule record as a hit of no score of its own (its answer's worth is elsewhere)."""
        record = self._record(rule_id)
        if not isinstance(record, Rule):
            return None
        return Hit(record.id, 0.0, "rule", record.number, record.language, record.version,
                   record_title(record) or "")

    def _hit(self, hit: Hit, group: str, terms: dict[str, set[str]],
             score: float) -> SearchHit:
        record = self._record(hit.id)
        if record is None:  # the index and the store come from one generation
            raise KbError(_("the index names {id}, which the store does not hold: run 'kb "
                            "build'").format(id=hit.id))
        lang = hit.language if hit.language in LANGUAGES else "en"
        title = record_title(record)
        loc = getattr(record, "loc", None)
        return SearchHit(
            kind=hit.kind, id=hit.id, number=record_number(record), language=hit.language,
            version=hit.version or getattr(record, "version", None) or getattr(record, "date",
                                                                                None),
            score=round(score, 4),
            snippet=snippet(record_text(record), lang, terms.get(lang, set())),
            title=title, group=group,
            source={"file": loc.file, "line": loc.line} if loc else {},
        )


def _preferred(lang: str | None, filters: Filters) -> tuple[str, ...]:
    """The languages whose texts a query's words are looked for in first: the query's and
    the rules' (and those its ``lang:`` asks for); a word none of their texts holds, and no
    French or English word, is looked for in the others' (a Portuguese "mão" is taken for
    French by its accent: kb.index.searcher._Builder.holders). A word of
    another language's text that only looks like the query's is a false friend: a French
    question's "monter" (to build a deck) brought the Portuguese glossary's "montar" (mount)
    among its first answers. No preference when the query's language is not known."""
    if lang is None:
        return ()
    wanted = {lang, RULES_LANGUAGE, *filters.languages}
    return tuple(code for code in LANGUAGES if code in wanted)


def _rules_lead(order: list[str], kinds: dict[str, str], rule_first: bool) -> list[str]:
    """The answers in order, except that at most ``LEADING_RECORDS`` of the first
    ``LEADING_ANSWERS`` are rulings, notes or cards (the others wait just behind them), and,
    ``rule_first`` (a question: ``QUESTION_WORDS_MIN`` words or more), none of them first: a
    question is answered by the rules, and a card's record stands beside the rule, not before
    it. A word or two may be a card's name mistyped ("Ætherlin"), whose record leads. On the
    development half, a rule first raised hit@1 on questions from .17 to .18 (English) and .22
    to .24 (French), hit@3 unchanged; on the held-out half, each of the four cells by two or
    three questions."""
    head: list[str] = []
    held: list[str] = []
    records = 0
    for key in order:
        if len(head) == LEADING_ANSWERS:
            break
        if kinds[key] in RECORD_KINDS:
            if records == LEADING_RECORDS:
                held.append(key)
                continue
            records += 1
        head.append(key)
    if rule_first and head and kinds[head[0]] in RECORD_KINDS:
        rule = next((key for key in head if kinds[key] not in RECORD_KINDS), None)
        if rule is not None:
            head.remove(rule)
            head.insert(0, rule)
    placed = set(head) | set(held)
    return head + held + [key for key in order if key not in placed]


def _group_order(ranked: list[Hit], keys: dict[str, str],
                 scores: dict[str, float]) -> dict[str, float]:
    """The answers and their worth, best first: an answer is worth its best text, plus
    ``EXAMPLE_SHARE`` of each other example of the rule that matches (a rule whose examples
    illustrate the question, 702.19b's two trample blocks, is scored together with them)."""
    worth: dict[str, float] = {}
    for hit in ranked:  # best first: the first hit of a group is its best
        key = keys[hit.id]
        if key not in worth:
            worth[key] = scores[hit.id]
        elif hit.kind == "example":
            worth[key] += EXAMPLE_SHARE * scores[hit.id]
    return dict(sorted(worth.items(), key=lambda item: -item[1]))


def _flat(query: Query) -> Query:
    """A question with its parenthesised asides as words of its own ("... ce tour-ci (mal
    d'invocation) ?"): the words of a group of plain words side by side are optional like
    the others, and multi-word terms are found across it."""
    if not isinstance(query.root, Loose):
        return query
    return structs.replace(query, root=Loose(tuple(_spread(query.root.items))))


def _without_words(items: list[Node], words: list[str]) -> list[Node]:
    """The items without the first run of these words (a card's name, as typed)."""
    for i in range(len(items) - len(words) + 1):
        run = items[i:i + len(words)]
        if all(isinstance(w, Word) and w.text == t for w, t in zip(run, words, strict=True)):
            return items[:i] + items[i + len(words):]
    return items


def _contracted(query: Query, result: SearchResult,
                decide: Callable[[Query], str | None]) -> Query:
    """English contractions typed without apostrophe ("cant", "doesnt") read as such, unless
    the question is French ("dont"): its language is decided by its other words."""
    words = query.words()
    mapping = {w.text: r for w in words if (r := restored(w.text))}
    if not mapping:
        return query
    others = Query(query.text, Loose(tuple(w for w in words if w.text not in mapping)))
    if decide(others) == "fr":
        return query

    def rewrite(node: Node) -> Node:
        if isinstance(node, Word) and node.text in mapping and not node.prefix:
            return Word(mapping[node.text])  # type: ignore[arg-type]
        if isinstance(node, Loose | And | Or):
            return type(node)(tuple(rewrite(n) for n in node.items))
        return node

    result.language = "en"
    return Query(query.text, rewrite(query.root) if query.root else None, query.filters,
                 query.cards)


def _without_grammar(query: Query, result: SearchResult) -> Query:
    """A French question without the words its sentences use as grammar that are also
    keywords' French names ("grâce à" is no Bestow, "encore" no Encore: kb.text.grammar),
    said in ``result``. Key words are left as typed: there, "encore" is the keyword."""
    if result.language != "fr" or not isinstance(query.root, Loose):
        return query
    items = query.root.items
    if sum(isinstance(i, Word) and not is_stop_word(i.text) for i in items) < QUESTION_WORDS_MIN:
        return query
    left = set(grammar_words([i.text if isinstance(i, Word) and not i.prefix else None
                              for i in items]))
    if not left:
        return query
    result.grammar = list(dict.fromkeys(items[n].text for n in sorted(left)))  # type: ignore[union-attr]
    return Query(query.text, Loose(tuple(i for n, i in enumerate(items) if n not in left)),
                 query.filters, query.cards)


def _unquoted(query: Query, result: SearchResult) -> Query:
    """A question's quoted fragments ("what happens when "this creature" dies?") as its
    other words: quoting a card's text is no request that every answer hold it word for
    word (a rule never does). Key words with a phrase keep it required."""
    if not isinstance(query.root, Loose):
        return query
    items = query.root.items
    words = [i for i in items if isinstance(i, Word) and not i.prefix]
    if len(words) < QUESTION_WORDS_MIN or not any(isinstance(i, Phrase) for i in items):
        return query
    result.unquoted = [" ".join(i.words) for i in items if isinstance(i, Phrase)]
    spread = [w for item in items
              for w in ([Word(t) for t in item.words] if isinstance(item, Phrase) else [item])]
    return Query(query.text, Loose(tuple(spread)), query.filters, query.cards)


def _spread(items: tuple[Node, ...]) -> list[Node]:
    return [part for item in items
            for part in (_spread(item.items) if isinstance(item, Loose) else (item,))]


@cache
def _synonym_table() -> dict[tuple[str, tuple[str, ...]], tuple[str, ...]]:
    """The synonyms (kb.text.synonyms) by the analyzed terms of each side, per language."""
    table: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for pair in SYNONYMS:
        analysis = language(pair.language)
        ways = ((pair.one, pair.other),) if pair.one_way else (
            (pair.one, pair.other), (pair.other, pair.one))
        for mine, other in ways:
            table.setdefault((pair.language, analysis.terms_of(mine)), []).append(other)
    return {key: tuple(others) for key, others in table.items()}


def _synonyms(texts: list[str]) -> list[str]:
    """The other phrasings of a run of a question's words, in its language ("same time",
    "at the same time": "simultaneously"). An abbreviation's plural is the abbreviation:
    the stemmer drops a final "s" only after a vowel it does not follow ("SBAs", "MDFCs"
    keep theirs)."""
    table = _synonym_table()
    found: list[str] = []
    for lang in ("en", "fr"):
        terms = language(lang).terms_of(" ".join(texts))
        if (lang, terms) not in table and len(terms) == 1 and terms[0].endswith("s"):
            terms = (terms[0][:-1],)
        found += [t for t in table.get((lang, terms), ()) if t not in found] if terms else []
    return found


def _said_synonyms(text: str, same: list[str], result: SearchResult) -> None:
    """Record the other phrasings searched for a run of words, as a translation is."""
    if same and all(t.word != text for t in result.translations):
        result.translations.append(Translation(text, tuple(same), ("synonym",)))


def _wants_records(query: Query, filters: Filters, answer: Answer) -> bool:
    """Whether rulings, cards and notes answer as well as rules: the query names a card in
    a few words of its own ("[[Voice of Resurgence]]", "Blood Baron of Vizkopa", a card:
    filter) or asks for rulings ("ruling", "FAQ"). A question answers with the rules first,
    even when it names a card. The card's own words are not the query's: "Blood Baron of
    Vizkopa" is a card looked up, not a question of four words."""
    items = query.root.items if isinstance(query.root, Loose) else (query.root,)
    cards = [item for item in items if isinstance(item, CardName)]
    named = {fold(word) for card in cards for word in _WORDS.findall(card.name)}
    own = [label for i, (label, _) in enumerate(answer.words)
           if i not in answer.cards and fold(label) not in named]
    return bool((filters.card or cards) and len(own) < QUESTION_WORDS_MIN
                or {fold(w.text) for w in query.words()} & RECORD_WORDS)


def _walk_terms(root: Node | None) -> list[list[Word]]:
    """The words of the translations :meth:`Searcher._terms_first` put in a question (they
    are not translated back)."""
    if not isinstance(root, Loose):
        return []
    return [[w for part in item.items[1:] if isinstance(part, And)
             for w in part.items if isinstance(w, Word)]
            for item in root.items if isinstance(item, Or) and isinstance(item.items[0], Phrase)]


def _same_term(typed: str, term: str, lang: str) -> bool:
    """Whether a typed text is a term of the table as written, or an inflection of it in
    the term's language ``lang``: the same number of words, each the term's word or that word
    with a plural or feminine ending. A shared stem is not enough evidence: ``lancé`` is not
    "Lancer un dé", ``fusionné`` (meld) is not "Fusion" (fuse), ``récupère`` is not
    "Récupération", and "planeswalker" (the card type, in French too) is not "planeswalk"
    (se transplaner): "-er" is a French verb's ending, not an English one."""
    return _word_by_word(typed, term, lambda mine, theirs: _inflected(theirs, mine, lang))


def _same_heading(typed: str, heading: str) -> bool:
    """Whether a typed text is a heading of the contents as written or in the plural: a
    section's title is a noun, and the contents' "407. Mise" (ante) is no form of "mis"
    (put), which French questions write all the time."""
    return _word_by_word(typed, heading, _plural)


def _word_by_word(typed: str, term: str, same: Callable[[str, str], bool]) -> bool:
    """Whether two texts have as many words, each pair ``same`` (folded, elision gone)."""
    mine = [strip_elision(w) for w in _WORDS.findall(fold(typed))]
    theirs = [strip_elision(w) for w in _WORDS.findall(fold(term))]
    return len(mine) == len(theirs) and all(same(a, b)
                                            for a, b in zip(mine, theirs, strict=True))


def _plural(a: str, b: str) -> bool:
    longer, shorter = (a, b) if len(a) >= len(b) else (b, a)
    return a == b or longer[:-1] == shorter and longer[-1] in "sx"


def _inflections(a: str, b: str) -> bool:
    """Whether two words are one root with an ending each (either may be none). A word
    that is its bare root inflects only into its plural and feminine ("détruit",
    "détruites"), not into a verb's forms: "volée" (stolen) is no form of "vol" (flying),
    nor "sortir" (to go out) of "sort" (spell)."""
    if a == b:
        return True
    shared = len(os.path.commonprefix([a, b]))
    return any(a[cut:] in _ENDINGS and b[cut:] in _ENDINGS
               and (a[cut:] and b[cut:] or a[cut:] + b[cut:] in _NOUN_ENDINGS)
               for cut in range(max(MIN_ROOT, shared - _LONGEST_ENDING), shared + 1))


# Endings of one word's forms, folded: plural and feminine ("exilées"), English verb forms
# ("leaves"), French verb forms ("lancez", "choisissez", "lancé" folded "lance").
_ENDINGS = frozenset({"", "s", "x", "e", "es", "ee", "ees", "er", "ez", "d", "ed", "ing",
                      "ent", "ir", "is", "it", "issez", "issent", "ons"})
_LONGEST_ENDING = max(map(len, _ENDINGS))
_NOUN_ENDINGS = frozenset({"s", "x", "e", "es"})  # what a bare root takes (_inflections)
MIN_ROOT = 3  # letters two forms must share before their endings
_WORDS = re.compile(r"[\w'’]+")
_GLOSSED = re.compile(r"[\w'’-]+")  # a query's words as the gloss reads them ("est-ce")


def _family(hit: Hit) -> str:
    """The rule a text belongs with for scoring: 702.19 for 702.19b, else nothing."""
    if hit.kind not in ("rule", "example"):
        return ""
    number = RuleNumber.try_parse(hit.number)
    if number is None or number.depth < 2:
        return ""
    return f"{hit.version}:{number.parent if number.depth == 3 else number}"


class _Nearing(Struct, frozen=True):
    """The model's nearness to a query, being computed (``future``), and how it weighs."""

    vectors: Vectors
    future: Future[dict[str, float]]
    weight: float
    gloss: str  # the English gloss the model read for a French query ("" for English)


class _Typed(Struct, frozen=True):
    """What the query names: the typed words' own terms per language (no stem family), the
    words typed (folded, any language) and the words of their translations (by language)."""

    exact: dict[str, set[str]]
    words: frozenset[str]
    heard: dict[str, frozenset[str]] = field(default_factory=dict)
    wants_records: bool = False  # rulings, cards and notes answer as well as rules

    def holds(self, title: str, lang: str) -> bool:
        """Whether the query names a title: each of its words is a typed word or a word of
        a translation into the title's language, or that word inflected ("tramples",
        "sacrificed"); a shared stem is not enough ("command" does not name "Commander",
        "defender" not "Defense")."""
        pairs = language(lang).pairs(title)
        terms = self.exact.get(lang, set())
        if not pairs or any(term not in terms for _, term in pairs):
            return False  # the common case, before the words are gathered
        words = self.words | self.heard.get(lang, frozenset())
        return all(any(_inflected(word, typed, lang) for typed in words) for word, _ in pairs)


_EN_ENDINGS = frozenset({"s", "es", "ed", "d", "ing"})


def _inflected(word: str, typed: str, lang: str) -> bool:
    """Whether a title's word and a typed word are one word, inflected (regularly)."""
    if word == typed:
        return True
    if lang != "en":
        return _inflections(word, typed)
    longer, shorter = (word, typed) if len(word) >= len(typed) else (typed, word)
    if longer.endswith("ies") and shorter.endswith("y"):
        return longer[:-3] == shorter[:-1]  # copies, copy
    if longer.startswith(shorter) and longer[len(shorter):] in _EN_ENDINGS:
        return True
    stem = shorter[:-1] if shorter.endswith("e") else shorter  # sacrifice, sacrificing
    return longer.startswith(stem) and longer[len(stem):] in _EN_ENDINGS


def _own_words(query: Query) -> frozenset[str]:
    """The words the user typed (words and phrases), folded, without elision."""
    texts = [w.text for w in query.words()]
    texts += [w for phrase in query.phrases() for w in phrase.words]
    return _folded(texts)


def _folded(texts: Iterable[str]) -> frozenset[str]:
    """Every word of the texts, folded, with and without an elided article."""
    return frozenset(fold(strip_elision(part)) for text in texts
                     for part in _WORDS.findall(text.replace("-", " ")))


def _names(hit: Hit, typed: _Typed) -> bool:
    """Whether the query names a record's title (a rule's, a glossary entry's)."""
    if not hit.title:
        return False
    return typed.holds(hit.title, hit.language if hit.language in LANGUAGES else "en")


def _rank_score(hit: Hit, typed: _Typed, prior: dict[str, float] = KIND_PRIOR,
                titles: bool = True) -> float:
    """The index's score weighed by the kind prior, and by ``TITLE_MATCH`` for a rule whose
    whole title is what was searched (the "Trample" rule for ``trample``, not 702.19c)."""
    score = hit.score * prior.get(hit.kind, 0.5)
    # the card named, not its rulings
    if titles and hit.kind in ("rule", "card") and _names(hit, typed):
        score *= TITLE_MATCH
    return score


def _choices(value: str | None, allowed: Sequence[str], name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    chosen = tuple(v.strip().lower() for v in value.split(",") if v.strip())
    wrong = [v for v in chosen if v not in allowed]
    if wrong:
        raise QueryRefused(_("{name}:{wrong} is not one of {valid}").format(
            name=name, wrong=",".join(wrong), valid=", ".join(allowed)))
    return chosen
