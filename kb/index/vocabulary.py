"""The words of the index, per language: what prefixes, stem families and typos expand over.

Loaded from the generation's ``vocabulary.json`` (a few thousand words per language) on the
first query that needs it. The two problems a stemmed index has on its own, solved here:

- Snowball does not give inflected forms one stem (``sacrifiez`` -> ``sacrif``, ``sacrifier``
  -> ``sacrifi``, ``sacrifice`` -> ``sacrific``): a word's **stem family** is every indexed word
  that starts like its stem minus its last letters (at least ``FAMILY_MIN`` letters kept) and is
  at most ``FAMILY_SUFFIX`` letters longer, so the three meet. Family terms weigh less than the
  word's own stem, so an exact form still ranks first.
- A prefix longer than the stem (``regenera*``: the index holds ``regener``) is looked up in the
  plain words, then searched as their stems.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

import msgspec

FAMILY_MIN = 5  # letters of a stem kept at least when it is shortened for its family
FAMILY_TRIM = 2  # letters a stem loses to find its family
FAMILY_SUFFIX = 6  # letters a family member may have beyond the shortened stem
TYPO_LONG = 7  # words this long tolerate two edits, shorter ones (from 4 letters) one


class Words:
    """One language's plain words, sorted, with each word's term and document count in the
    same order, and the set of terms. A word is found by bisection, not through
    dictionaries: building two dictionaries of its 16,000 words was half of what loading
    the vocabulary cost every cold ``kb search`` (6 of 11 ms), for the few dozen words a
    query looks up."""

    __slots__ = ("words", "_terms", "_counts", "terms")

    def __init__(self, words: list[str], terms: list[str], counts: list[int]) -> None:
        self.words = words
        self._terms = terms
        self._counts = counts
        self.terms = set(terms)

    @classmethod
    def counted(cls, terms: Mapping[str, str], counts: Mapping[str, int]) -> Words:
        """The vocabulary of words -> term and words -> document count."""
        words = sorted(terms)
        return cls(words, [terms[w] for w in words], [counts[w] for w in words])

    def _at(self, word: str) -> int:
        """Where ``word`` stands in :attr:`words`, -1 when it is not there."""
        at = bisect.bisect_left(self.words, word)
        return at if at < len(self.words) and self.words[at] == word else -1

    def __contains__(self, word: str) -> bool:
        return self._at(word) >= 0

    def term_of(self, word: str) -> str | None:
        at = self._at(word)
        return self._terms[at] if at >= 0 else None

    def count(self, word: str) -> int:
        """How many documents hold ``word`` (0: none)."""
        at = self._at(word)
        return self._counts[at] if at >= 0 else 0

    def _span(self, prefix: str) -> slice:
        """Where the words that start with ``prefix`` stand in :attr:`words`."""
        return slice(bisect.bisect_left(self.words, prefix),
                     bisect.bisect_left(self.words, prefix + "\uffff"))

    def with_prefix(self, prefix: str) -> list[str]:
        return self.words[self._span(prefix)]

    def terms_with_prefix(self, prefix: str) -> list[str]:
        """The term of each word that starts with ``prefix`` (one per word)."""
        return self._terms[self._span(prefix)]

    def family(self, term: str) -> set[str]:
        """The terms of the words in the stem family of ``term``."""
        if len(term) <= FAMILY_MIN or any(c.isdigit() for c in term):
            return {term}
        base = term[:max(FAMILY_MIN, len(term) - FAMILY_TRIM)]
        span = self._span(base)
        return {t for w, t in zip(self.words[span], self._terms[span], strict=True)
                if len(w) <= len(base) + FAMILY_SUFFIX} | {term}

    def known(self, word: str, term: str) -> bool:
        return term in self.terms or word in self

    def corrections(self, word: str) -> list[tuple[int, str]]:
        """Indexed words within the edit distance the word's length allows (transpositions
        count one), nearest then commonest first; the first letter is trusted."""
        if len(word) < 4:
            return []
        limit = 2 if len(word) >= TYPO_LONG else 1
        grams = _bigrams(word)
        # An edit changes at most two bigrams: a candidate sharing fewer cannot be near.
        least = len(grams) - 2 * limit
        found = []
        for candidate in self.with_prefix(word[0]):
            if abs(len(candidate) - len(word)) > limit or len(grams & _bigrams(candidate)) < least:
                continue
            distance = edit_distance(word, candidate, limit)
            if distance <= limit:
                found.append((distance, -self.count(candidate), candidate))
        return [(d, w) for d, _, w in sorted(found)]


@lru_cache(maxsize=65536)
def _bigrams(word: str) -> frozenset[str]:
    return frozenset(word[i:i + 2] for i in range(len(word) - 1))


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance, giving up (returning limit + 1) past ``limit``."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def dumps(by_language: dict[str, Words]) -> str:
    """The text of a generation's vocabulary file: per language, its sorted words and, in the
    same order, their terms and document counts. Three parallel JSON lists rather than a line
    per word, because every cold ``kb search`` loads it: they are :class:`Words` as decoded,
    with nothing built word by word in Python."""
    return json.dumps({lang: {"words": words.words, "terms": words._terms,
                              "df": words._counts}
                       for lang, words in sorted(by_language.items())}, ensure_ascii=False)


def load(path: Path) -> dict[str, Words]:
    """The vocabulary file whose text :func:`dumps` made, parsed by msgspec's decoder: a
    third of the time of :func:`json.loads` (4 ms of a cold ``kb search``)."""
    by_language = {}
    for lang, lists in msgspec.json.decode(path.read_bytes()).items():
        words, terms, counts = lists["words"], lists["terms"], lists["df"]
        if not len(words) == len(terms) == len(counts):
            raise ValueError(f"{path}: {lang}: {len(words)} words, {len(terms)} terms, "
                             f"{len(counts)} counts")
        by_language[lang] = Words(words, terms, counts)
    return by_language
