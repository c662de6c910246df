"""``kb search``: ranked, grouped, bilingual answers to a query.

The index answers words (:mod:`kb.index`); this module adds what needs the store: the rules
version in force, the other language's terms from the derived term table (``piétinement`` also
searches ``trample``, and says so), a prior per kind of record, the grouping of a rule's texts
in every language under today's number, and the snippets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kb.api import KnowledgeBase
from kb.errors import KbError
from kb.index import IndexSearcher
from kb.index.analysis import LANGUAGES, language
from kb.index.highlight import snippet
from kb.index.searcher import Alternative, Filters, Hit
from kb.link.pairing import fold
from kb.model import TermPair
from kb.query import KINDS, And, Or, Query, Word, parse
from kb.rulenum import RuleNumber
from kb.store import record_number, record_text, record_title

# How much a kind of record is worth as an answer, all else equal: a judge wants the rule
# first, then its glossary entry and examples, then rulings, notes and cards.
KIND_PRIOR = {"rule": 1.0, "glossary": 0.7, "example": 0.75, "ruling": 0.7, "note": 0.7,
              "card": 0.6}
TITLE_MATCH = 1.5
MAX_TRANSLATIONS = 3
# Which evidence names a translation first: an official keyword or title before a word pair
# read off parallel texts, and card names last.
_KIND_ORDER = {"keyword": 0, "rule-title": 1, "section-title": 2, "parallel-text": 3,
               "card-name": 4}  # other-language terms added per word
DEFAULT_LIMIT = 10


@dataclass(frozen=True, slots=True)
class Translation:
    """A query word and the other-language terms searched with it, with their evidence."""

    word: str
    terms: tuple[str, ...]
    kinds: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SearchHit:
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


@dataclass
class SearchResult:
    query: str
    version: str | None  # the CR version searched, None for all
    hits: list[SearchHit] = field(default_factory=list)
    corrected: dict[str, str] = field(default_factory=dict)
    translations: list[Translation] = field(default_factory=list)

    def groups(self) -> list[list[SearchHit]]:
        """The hits grouped (a rule's texts in every language together), best group first."""
        by_key: dict[str, list[SearchHit]] = {}
        for hit in self.hits:
            by_key.setdefault(hit.group, []).append(hit)
        return list(by_key.values())


class Searcher:
    """Search over one generation of an index; reuse it for many queries."""

    def __init__(self, index_root: Path | None = None) -> None:
        self.kb = KnowledgeBase(index_root)
        self.index = IndexSearcher(self.kb.generation)

    def close(self) -> None:
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
        query = parse(text)
        filters = self._filters(query, lang, kind, version)
        result = SearchResult(query.text, filters.version)
        alternatives: dict[str, list[Alternative]] = {}
        if translate:
            query = self._translate(query, alternatives, result)
        answer = self.index.search(query, filters, alternatives)
        result.corrected = answer.corrected
        ranked = sorted(answer.hits, key=lambda h: -_rank_score(h, answer.terms))
        groups: dict[str, int] = {}
        for hit in ranked:
            group = self._group(hit, filters.version)
            if group not in groups and len(groups) == limit:
                continue
            groups.setdefault(group, len(groups))
            result.hits.append(self._hit(hit, group, answer.terms))
        result.hits.sort(key=lambda h: groups[h.group])
        return result

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
            raise KbError(f"rule:{rule} is not a rule number (try rule:702.19 or rule:702.19*)")
        if rule is not None:
            star = "*" if rule.endswith("*") else ""
            rule = str(RuleNumber.parse(rule.rstrip("*").rstrip("."))) + star
        wanted_version = wanted.get("version")
        resolved = None if wanted_version == "all" else (
            self.kb.resolve_version(wanted_version) if self.kb.store.versions() else None)
        return Filters(languages, kinds, rule, resolved, wanted.get("card"))

    # -- translation ---------------------------------------------------------------------------

    def _translate(self, query: Query, alternatives: dict[str, list[Alternative]],
                   result: SearchResult) -> Query:
        for word in query.words():
            if word.prefix or word.text in alternatives:
                continue
            other = self._other_language(self.index.correct(word.text) or word.text, result)
            if other:
                alternatives[word.text] = [Alternative(lang, tuple(t.split()))
                                           for lang, t in other]
        words = query.words()
        if query.root is not None and len(words) > 1 and not any(w.prefix for w in words):
            other = self._other_language(" ".join(w.text for w in words), result)
            if other:
                extra = tuple(And(tuple(Word(w) for w in t.split())) for _, t in other)
                return Query(query.text, Or((query.root, *extra)), query.filters)
        return query

    def _other_language(self, text: str, result: SearchResult) -> list[tuple[str, str]]:
        """The other-language terms of a word or phrase, found in the term table by its
        folded form, its form without elision, or a term of the same stem (``piétinements``);
        recorded in ``result`` for the user."""
        found: dict[tuple[str, str], set[str]] = {}
        shown: dict[tuple[str, tuple[str, ...]], tuple[str, str]] = {}
        exact = self.kb.store.terms(fold(text))
        for lang, other_lang in (("fr", "en"), ("en", "fr")):
            analyzed = language(lang).terms_of(text)
            pairs = sorted(exact or self._pairs(text, lang),
                           key=lambda p: _KIND_ORDER.get(p.kind, 9))
            for pair in pairs:
                mine, other = ((pair.french, pair.english) if lang == "fr"
                               else (pair.english, pair.french))
                other_terms = language(other_lang).terms_of(other)
                if language(lang).terms_of(mine) != analyzed or other_terms == analyzed:
                    continue
                # one entry per analyzed form: "Trample" (keyword) and "trample" (texts)
                key = shown.setdefault((other_lang, other_terms), (other_lang, other))
                found.setdefault(key, set()).add(pair.kind)
        generic = {t: k for t, k in found.items() if k != {"card-name"}}
        chosen = list(generic or found)[:MAX_TRANSLATIONS]
        if chosen:
            kinds = sorted(set().union(*(found[t] for t in chosen)))
            result.translations.append(
                Translation(text, tuple(t for _, t in chosen), tuple(kinds)))
        return chosen

    def _pairs(self, text: str, lang: str) -> list[TermPair]:
        """Term pairs for a text the table does not hold as written: by its words after
        ``lang``'s analysis (elision gone), else by terms starting with its first stem."""
        words = language(lang).pairs(text)
        if not words:
            return []
        store = self.kb.store
        return (store.terms(" ".join(w for w, _ in words))
                or store.terms(words[0][1], prefix=True))

    # -- presentation -------------------------------------------------------------------------

    def _group(self, hit: Hit, version: str | None) -> str:
        """Today's rule number for every text of a rule (any language, any document), the
        number and version for an English rule of another version, else the record itself."""
        if hit.kind not in ("rule", "example") or RuleNumber.try_parse(hit.number) is None:
            return hit.id
        if hit.version:
            if hit.version == version:
                return f"rule {hit.number}"
            return f"rule {hit.number} ({hit.version})"
        rule_id = hit.id.split("/")[0] if hit.kind == "example" else hit.id
        current = self.kb.store.links(from_id=rule_id, relation="current")
        if current:
            return "rule " + current[0].to_id.rsplit(":", 1)[-1]
        return f"rule {hit.number}"

    def _hit(self, hit: Hit, group: str, terms: dict[str, set[str]]) -> SearchHit:
        record = self.kb.store.get(hit.id)
        if record is None:  # the index and the store come from one generation
            raise KbError(f"the index names {hit.id}, which the store does not hold: "
                          "run 'kb build'")
        lang = hit.language if hit.language in LANGUAGES else "en"
        title = record_title(record)
        loc = getattr(record, "loc", None)
        return SearchHit(
            kind=hit.kind, id=hit.id, number=record_number(record), language=hit.language,
            version=hit.version or getattr(record, "version", None) or getattr(record, "date",
                                                                                None),
            score=round(_rank_score(hit, terms), 4),
            snippet=snippet(record_text(record), lang, terms.get(lang, set())),
            title=title, group=group,
            source={"file": loc.file, "line": loc.line} if loc else {},
        )


def _rank_score(hit: Hit, terms: dict[str, set[str]]) -> float:
    """The index's score weighed by the kind prior, and by ``TITLE_MATCH`` for a rule whose
    whole title is what was searched (the "Trample" rule for ``trample``, not 702.19c)."""
    score = hit.score * KIND_PRIOR.get(hit.kind, 0.5)
    if hit.kind == "rule" and hit.title:
        lang = hit.language if hit.language in LANGUAGES else "en"
        title = set(language(lang).terms_of(hit.title))
        if title and title <= terms.get(lang, set()):
            score *= TITLE_MATCH
    return score


def _choices(value: str | None, allowed: Sequence[str], name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    chosen = tuple(v.strip().lower() for v in value.split(",") if v.strip())
    wrong = [v for v in chosen if v not in allowed]
    if wrong:
        raise KbError(f"{name}:{','.join(wrong)} is not one of {', '.join(allowed)}")
    return chosen
