"""A Whoosh query's scores as Whoosh's own matchers compute them, from postings read once.

Whoosh answers a query by walking a tree of matchers document by document, in pure Python: a
question's candidates cost about a hundred method calls each, and the same few hundred game
words are read, decompressed and scored again for every query. :class:`Postings` keeps each
term's scores per segment (Whoosh's BM25F scorer, read once per searcher) and combines them
per query node into a mapping document -> score, as the matcher Whoosh would build for that
node combines them: the same kind of matcher (an ``Or`` of two, or over a segment of more than
5000 documents, is a tree of unions, built as :func:`whoosh.util.make_weighted_tree` builds
it; otherwise an array union, each score times the boost as it is added), the same order of
additions (floating-point sums depend on it), ``DisjunctionMax`` as Whoosh's matcher scores
it (the greatest of its parts' *current* scores: a part not on the document counts with its
next document's score), a boost on a compound of one part ignored as Whoosh ignores it. A node
of any other kind (a phrase, ``Every``, ``Not``) is answered by its own Whoosh matcher, walked
to the end. The best ``limit`` are the best by those scores (then by document number) of
every match: Whoosh's collector, which skips blocks by an estimate of their best score that
its scores sometimes exceed, misses some (2 of the tests' 591 CR rankings differ from main's).
"""

from __future__ import annotations

import heapq
from bisect import insort
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from msgspec import Struct
from whoosh import query as wq
from whoosh import scoring
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher, _lenfield
from whoosh.util.numeric import byte_to_length

Scores = dict[int, float]  # document number (of the searcher evaluated) -> score
# How many (document, score) pairs a searcher keeps (a term's scores in a segment, a phrase's, a
# compound's asked for twice): about 180 MB at most (90 bytes a pair); the held-out players' 492
# queries keep 1.6 million. At a million, the compounds pushed the terms out query after query.
POSTINGS_KEPT = 2_000_000
SEEN_KEPT = 50_000  # keys of values asked for once, to keep a value asked for again
_UNION_ARRAY_MAX = 5000  # Whoosh's Or: an array union over a segment of at most this many
_TOO_MANY_CLAUSES = 1024  # ... and fewer parts than this (wq.Or.TOO_MANY_CLAUSES)


class Scored(Struct, frozen=True):
    """One of the best documents, as a Whoosh hit gives it (number, score, stored fields)."""

    docnum: int
    score: float
    searcher: Any

    def fields(self) -> dict[str, Any]:
        return self.searcher.stored_fields(self.docnum)


class Postings:
    """The scores of queries over one Whoosh searcher (one view of an index generation)."""

    def __init__(self, searcher: Any) -> None:
        self.searcher = searcher
        self.segments = list(searcher.leaf_searchers())  # (searcher, offset) per segment
        # (segment, field, term) -> scores, segment -1 for the whole searcher's numbering;
        # (segment, phrase query, scored?) -> scores; ("df", segment, field, term) -> count.
        self._kept: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._postings = 0  # the pairs kept
        self._seen: set[tuple[Any, ...]] = set()  # the keys kept_again saw once
        self.statistics = Statistics(searcher)
        self._allowed: dict[int, tuple[Any, frozenset[int]]] = {}  # id -> (array, its set)

    def best(self, query: wq.Query, limit: int) -> list[Scored]:
        """The ``limit`` best documents by Whoosh's scores, best first (then by document
        number). Whoosh's own collector (``searcher.search(query, limit)``) skips blocks of
        postings by an estimate of their best score that its scores sometimes exceed, and
        misses documents that score higher than some it keeps: these are the best of every
        match. A query some part of which a walk moves by ``skip_to`` over an ``AndMaybe``
        (see :meth:`at`: those scores depend on the path) is searched by Whoosh."""
        if not _collects_alike(query):
            return [Scored(hit.docnum, hit.score, self.searcher)
                    for hit in self.searcher.search(query, limit=limit)]
        found: Scores = {}
        context = self.searcher.context()  # what Whoosh's collector builds its matchers with
        for segment, (searcher, offset) in enumerate(self.segments):
            scores = _Node(self, searcher, segment, context).scores(query)
            found.update((docnum + offset, score) for docnum, score in scores.items())
        best = heapq.nsmallest(limit, found.items(), key=lambda item: (-item[1], item[0]))
        return [Scored(docnum, score, self.searcher) for docnum, score in best]

    def at(self, query: wq.Query, docnums: list[int]) -> Scores:
        """The scores of those of ``docnums`` the query matches, as the matcher Whoosh builds
        on the whole searcher gives them when moved along them (``skip_to``). That is the
        scores of every match, but for Whoosh's ``AndMaybe``, whose optional part is not
        moved with the required one when a skip overshoots (the same document scores less
        than in a walk through all): a query holding one is moved along by Whoosh."""
        context = self.searcher.context()
        if not _skips_alike(query):
            return _skip_along(query.matcher(self.searcher, context), sorted(docnums))
        segment = 0 if self.searcher.is_atomic() else None
        scores = _Node(self, self.searcher, segment, context).scores(query)
        return {d: scores[d] for d in docnums if d in scores}

    def allowed(self, docnums: Any) -> frozenset[int]:
        """A filter's sorted document numbers as a set, made once per array (the searcher
        keeps each filter's array for its life)."""
        kept = self._allowed.get(id(docnums))
        if kept is None or kept[0] is not docnums:
            kept = self._allowed[id(docnums)] = (docnums, frozenset(docnums))
        return kept[1]

    def term(self, segment: int, fieldname: str, text: bytes) -> Scores:
        """One term's scores in one segment (its own document numbers), read once; segment
        -1: every segment's, in the whole searcher's numbering (Whoosh's MultiMatcher)."""
        if segment >= 0:
            def read() -> Scores:
                searcher = self.segments[segment][0]
                if (fieldname, text) not in searcher.reader():
                    return {}
                return _walk(searcher.postings(fieldname, text, weighting=searcher.weighting))
        else:
            def read() -> Scores:
                return {d + offset: s for n, (_, offset) in enumerate(self.segments)
                        for d, s in self.term(n, fieldname, text).items()}
        return self.kept((segment, fieldname, text), read)

    def kept_again(self, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        """:meth:`kept` for a value asked for a second time: most compounds are one query's
        own (its words together), and keeping them would push out the terms that come back."""
        if key in self._kept or key in self._seen:
            return self.kept(key, compute)
        if len(self._seen) >= SEEN_KEPT:
            self._seen.clear()
        self._seen.add(key)
        return compute()

    def kept(self, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        """A value of the searcher's life (a term's scores, a phrase's, a document count),
        computed on first use; the least recently used go beyond ``POSTINGS_KEPT``."""
        value = self._kept.get(key)
        if value is None:
            value = self._kept[key] = compute()
            self._postings += _size(value)
            while self._postings > POSTINGS_KEPT and len(self._kept) > 1:
                self._postings -= _size(self._kept.popitem(last=False)[1])
        else:
            self._kept.move_to_end(key)
        return value


class BM25F(scoring.BM25F):
    """Whoosh's BM25F, whose scorers read a document's field length from memory: each
    segment's lengths of a field are read from its file once (a byte a document), where
    Whoosh reads each posting's through half a dozen calls and a seek. A question's first
    search scores some 20,000 postings, and those reads were a third of its time. The same
    lengths, so the same scores; a reader of any other kind keeps Whoosh's reads."""

    def __init__(self) -> None:
        super().__init__()
        self._lengths: dict[tuple[int, str], tuple[Any, Callable[[int], Any] | None]] = {}

    def scorer(self, searcher: Any, fieldname: str, text: bytes, qf: int = 1) -> Any:
        scorer = super().scorer(searcher, fieldname, text, qf=qf)
        if type(scorer) is scoring.BM25FScorer:
            lengths = self.lengths(searcher.reader(), fieldname)
            if lengths is not None:
                scorer.dfl = lengths
        return scorer

    def lengths(self, reader: Any, fieldname: str) -> Callable[[int], Any] | None:
        """A segment reader's field lengths as a function of the document number, as
        ``reader.doc_field_length`` gives them (None: not a reader whose file kb reads)."""
        key = (id(reader), fieldname)
        kept = self._lengths.get(key)
        if kept is None or kept[0] is not reader:
            kept = self._lengths[key] = (reader, _read_lengths(reader, fieldname))
        return kept[1]


# A length byte -> the length Whoosh decodes (0: no length, which Whoosh gives as None).
_LENGTHS = (None, *(byte_to_length(byte) for byte in range(1, 256)))


def _read_lengths(reader: Any, fieldname: str) -> Callable[[int], Any] | None:
    """The field lengths of a Whoosh 3 segment, read whole from its lengths column (the
    reader's own, as ``doc_field_length`` opens it); None for any other reader."""
    try:
        column = reader._perdoc._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
        if column is None:
            return None
        if column._fixedlen != 1:
            return None
        raw = column._dbfile.get(column._basepos, column._count)
    except AttributeError:
        return None
    count, table = len(raw), _LENGTHS
    return lambda docnum: table[raw[docnum]] if docnum < count else None


class Statistics:
    """A searcher's document counts and idfs, asked for each query's words to weigh them (the
    same words come back across queries): read once, as the searcher answers them (at most
    one of each per word of the index)."""

    def __init__(self, searcher: Any) -> None:
        self.searcher = searcher
        self._count: int | None = None
        self._frequency: dict[tuple[str, Any], int] = {}
        self._idf: dict[tuple[str, Any], float] = {}

    def doc_count(self) -> int:
        if self._count is None:
            self._count = self.searcher.doc_count()
        return self._count

    def doc_frequency(self, fieldname: str, text: Any) -> int:
        key = (fieldname, text)
        if key not in self._frequency:
            self._frequency[key] = self.searcher.doc_frequency(fieldname, text)
        return self._frequency[key]

    def idf(self, fieldname: str, text: Any) -> float:
        key = (fieldname, text)
        if key not in self._idf:
            self._idf[key] = self.searcher.idf(fieldname, text)
        return self._idf[key]


class _Node:
    """Scores query nodes over one searcher: a segment's (``segment`` its index) or the whole
    view's (``segment`` None: a term is every segment's postings, one after the other)."""

    def __init__(self, postings: Postings, searcher: Any, segment: int | None,
                 context: Any) -> None:
        self.postings, self.searcher, self.segment = postings, searcher, segment
        self.context = context

    def scores(self, query: wq.Query) -> Scores:
        kind = type(query)
        if kind is wq.Term:
            return self.term(query)
        if kind in (wq.Or, wq.And, wq.DisjunctionMax):
            return self.compound(query)
        if kind is wq.AndMaybe:
            a, b = self.scores(query.a), self.scores(query.b)
            return {d: s + b[d] if d in b else s for d, s in a.items()}
        if issubclass(kind, wq.AndNot):  # kb.index.searcher._AndNot too
            a = self.scores(query.a)
            b = _Node(self.postings, self.searcher, self.segment,
                      self.searcher.boolean_context()).scores(query.b)
            return {d: s for d, s in a.items() if d not in b}
        if query is wq.NullQuery:
            return {}
        if kind is wq.Phrase:  # positions: Whoosh's matcher, walked once per searcher
            scored = self.context.weighting is not None if self.context else True
            return self.postings.kept(
                (self.key(), query, scored),
                lambda: _walk(query.matcher(self.searcher, self.context)))
        within = getattr(query, "allowed", None)  # kb.index.searcher._Within: a filter
        if (within is not None and isinstance(query, wq.WrappingQuery)
                and _skips_alike(query.child)):  # it moves its child by skip_to
            offset = self.offset()
            allowed = self.postings.allowed(within)
            return {d: s for d, s in self.scores(query.child).items() if d + offset in allowed}
        return _walk(query.matcher(self.searcher, self.context))

    def key(self) -> int:
        """The segment evaluated, -1 for the whole searcher (as :meth:`Postings.term`)."""
        return -1 if self.segment is None else self.segment

    def size(self, query: wq.Query) -> int:
        """``query.estimate_size(reader)``, Whoosh's weight of a part in a tree of matchers,
        with each term's document count read once."""
        kind = type(query)
        if kind is wq.Term:
            reader = self.searcher.reader()
            if query.fieldname not in reader.schema:
                return 0
            try:
                text = reader.schema[query.fieldname].to_bytes(query.text)
            except ValueError:
                return 0
            return self.postings.kept(("df", self.key(), query.fieldname, text),
                                      lambda: reader.doc_frequency(query.fieldname, text))
        if kind in (wq.Or, wq.DisjunctionMax):
            return min(sum(self.size(q) for q in query.subqueries),
                       self.searcher.reader().doc_count())
        if kind is wq.And:
            return min(self.size(q) for q in query.subqueries)
        return query.estimate_size(self.searcher.reader())

    def offset(self) -> int:
        parent = self.searcher.get_parent()
        return 0 if parent is self.searcher else parent._offset_for_subsearcher(self.searcher)

    def term(self, query: wq.Term) -> Scores:
        if query.fieldname not in self.searcher.schema or query.minquality:
            return _walk(query.matcher(self.searcher, self.context))
        try:
            text = self.searcher.schema[query.fieldname].to_bytes(query.text)
        except ValueError:
            return {}
        scores = self.postings.term(self.key(), query.fieldname, text)
        if query.boost != 1.0:
            return {d: s * query.boost for d, s in scores.items()}
        return scores

    def compound(self, query: wq.CompoundQuery) -> Scores:
        """A compound's scores, kept for the searcher's life when equal queries score alike
        (:func:`_plain`): a word's query (its fields, languages and stems) comes back whole
        in question after question, and combining its parts was the most of a search."""
        if len(query.subqueries) == 1:
            return self.scores(query.subqueries[0])  # Whoosh applies no boost to it either
        if not _plain(query):
            return self._compound(query)
        context = self.context
        flags = (context.needs_current, context.weighting is not None) if context else None
        return self.postings.kept_again((self.key(), flags, query),
                                        lambda: self._compound(query))

    def _compound(self, query: wq.CompoundQuery) -> Scores:
        subs = query.subqueries
        if not subs:
            return {}
        if type(query) is wq.Or:
            if query.scale or query.minmatch or query.matcher_type != wq.Or.AUTO_MATCHER:
                return _walk(query.matcher(self.searcher, self.context))
            needs_current = self.context.needs_current if self.context else True
            if len(subs) < _TOO_MANY_CLAUSES and (
                    needs_current or len(subs) == 2
                    or self.searcher.doc_count_all() > _UNION_ARRAY_MAX):
                parts = [(self.size(q), self.scores(q)) for q in subs]
                scores = _tree(_union, parts)
            else:  # Whoosh's ArrayUnionMatcher: each part's score times the boost, added
                return self.array_union([self.scores(q) for q in subs], query.boost)
        elif type(query) is wq.And:
            scores = _tree(_intersection, [(0 - self.size(q), self.scores(q)) for q in subs])
        else:  # DisjunctionMax
            if query.tiebreak:
                return _walk(query.matcher(self.searcher, self.context))
            scores = _tree(_current_max, [(self.size(q), self.scores(q)) for q in subs])
        if query.boost != 1.0:
            return {d: s * query.boost for d, s in scores.items()}
        return scores

    def array_union(self, parts: list[Scores], boost: float) -> Scores:
        scored = self.context.weighting is not None if self.context else True
        total: Scores = {}
        for part in parts:
            for d, s in part.items():
                total[d] = total.get(d, 0) + s * boost if scored else 1
        return {d: total[d] for d in sorted(total) if total[d] > 0}


def _plain(query: wq.Query) -> bool:
    """Whether a query is made of terms, phrases and the compounds :meth:`_Node.compound`
    combines itself, with none of the options Whoosh's equality leaves out (a term's
    ``minquality``, an ``Or``'s scale, minimum or matcher, a tiebreak, a filter's documents):
    then two equal queries (``==``) have the same scores."""
    kind = type(query)
    if kind is wq.Term:
        return not query.minquality
    if kind is wq.Phrase:
        return True
    if kind is wq.Or:
        if query.scale or query.minmatch or query.matcher_type != wq.Or.AUTO_MATCHER:
            return False
    elif kind is wq.DisjunctionMax:
        if query.tiebreak:
            return False
    elif kind is not wq.And:
        return False
    return all(_plain(q) for q in query.subqueries)


def _skips_alike(query: wq.Query) -> bool:
    """Whether a query's matcher scores a document the same reached by ``skip_to`` as by a
    walk through every match: made of terms, phrases and the compounds that move all their
    parts to the document skipped to (not ``AndMaybe``: see :meth:`Postings.at`)."""
    if isinstance(query, wq.Term | wq.Phrase) or query is wq.NullQuery:
        return True
    if type(query) in (wq.Or, wq.And, wq.DisjunctionMax):
        return all(_skips_alike(q) for q in query.subqueries)
    if isinstance(query, wq.WrappingQuery):  # a filter: its child, moved by skip_to
        return _skips_alike(query.child)
    return False


def _collects_alike(query: wq.Query) -> bool:
    """Whether a walk through the matches scores every document as this module does: the
    parts it moves by ``skip_to`` (an ``And``'s, a filter's) skip alike (:func:`_skips_alike`)."""
    kind = type(query)
    if kind is wq.And or isinstance(query, wq.WrappingQuery):
        return _skips_alike(query)
    if kind in (wq.Or, wq.DisjunctionMax):
        return all(_collects_alike(q) for q in query.subqueries)
    if isinstance(query, wq.AndMaybe | wq.AndNot):  # kb.index.searcher._AndNot too
        return _collects_alike(query.a) and _collects_alike(query.b)
    return _skips_alike(query)


def _skip_along(matcher: Any, docnums: list[int]) -> Scores:
    """The scores of a Whoosh matcher moved along sorted document numbers by ``skip_to``."""
    scores: Scores = {}
    for docnum in docnums:
        if not matcher.is_active():
            break
        if matcher.id() < docnum:
            matcher.skip_to(docnum)
            if not matcher.is_active():
                break
        if matcher.id() == docnum:
            scores[docnum] = matcher.score()
    return scores


def _size(value: Any) -> int:
    return len(value) if isinstance(value, dict) else 1


def _walk(matcher: Any) -> Scores:
    """Every document a Whoosh matcher matches, with its score, in order."""
    if type(matcher) is W3LeafMatcher and type(matcher.scorer) is scoring.BM25FScorer:
        return _walk_postings(matcher)
    scores: Scores = {}
    while matcher.is_active():
        scores[matcher.id()] = matcher.score()
        matcher.next()
    return scores


def _walk_postings(matcher: W3LeafMatcher) -> Scores:
    """A term's postings in a segment with their BM25F scores, a block at a time: Whoosh's
    :func:`whoosh.scoring.bm25` of each posting's weight and field length, written out (the
    same operations in the same order: the same floats), without the half-dozen calls a
    posting costs through the matcher. It reads the block's arrays as the matcher's own
    methods do (Whoosh is pinned: ``whoosh-reloaded==2.7.5``)."""
    scorer = matcher.scorer
    idf, avgfl, b, k1, length = scorer.idf, scorer.avgfl, scorer.B, scorer.K1, scorer.dfl
    scores: Scores = {}
    while matcher.is_active():
        if matcher._ids is None:
            matcher._read_ids()
        if matcher._weights is None:
            matcher._read_weights()
        first = matcher._i
        for docnum, tf in zip(matcher._ids[first:], matcher._weights[first:], strict=True):
            scores[docnum] = idf * ((tf * (k1 + 1))
                                    / (tf + k1 * ((1 - b) + b * length(docnum) / avgfl)))
        matcher._next_block()
    return scores


def _tree(combine: Callable[[Scores, Scores], Scores],
          parts: list[tuple[int, Scores]]) -> Scores:
    """The parts combined two by two as :func:`whoosh.util.make_weighted_tree` pairs them:
    by weight, the lightest first; a tie keeps the order (Whoosh's matchers all compare
    equal), and a pair goes after the parts of its weight."""
    items = sorted(((weight, n) for n, (weight, _) in enumerate(parts)), key=lambda i: i[0])
    nodes = {n: scores for n, (_, scores) in enumerate(parts)}
    ordered = [_Weighted(weight, n) for weight, n in items]
    while len(ordered) > 1:
        a, b = ordered.pop(0), ordered.pop(0)
        n = len(parts) + len(ordered)  # a number no node has: one fewer node each time
        nodes[n] = combine(nodes.pop(a.node), nodes.pop(b.node))
        insort(ordered, _Weighted(a.weight + b.weight, n))
    return nodes[ordered[0].node]


class _Weighted(Struct, frozen=True):
    weight: int
    node: int

    def __lt__(self, other: _Weighted) -> bool:
        return self.weight < other.weight


def _union(a: Scores, b: Scores) -> Scores:
    """Whoosh's UnionMatcher: a document of both scores ``a + b``."""
    out = dict(a)
    for d, s in b.items():
        out[d] = a[d] + s if d in a else s
    return out


def _intersection(a: Scores, b: Scores) -> Scores:
    """Whoosh's IntersectionMatcher: the documents of both, ``a + b``."""
    return {d: s + b[d] for d, s in a.items() if d in b}


def _current_max(a: Scores, b: Scores) -> Scores:
    """Whoosh's DisjunctionMaxMatcher: on a document of either, the greater of the two parts'
    current scores, a part not on the document being on its next one (while it has one).
    Both parts are walked once, side by side, in document order."""
    ka, kb = sorted(a), sorted(b)
    na, nb = len(ka), len(kb)
    out: Scores = {}
    i = j = 0
    while i < na and j < nb:
        da, db = ka[i], kb[j]
        out[min(da, db)] = max(a[da], b[db])
        i += da <= db
        j += db <= da
    for d in ka[i:]:
        out[d] = a[d]
    for d in kb[j:]:
        out[d] = b[d]
    return out
