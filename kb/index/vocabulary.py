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
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import msgspec

FAMILY_MIN = 5  # letters of a stem kept at least when it is shortened for its family
FAMILY_TRIM = 2  # letters a stem loses to find its family
FAMILY_SUFFIX = 6  # letters a family member may have beyond the shortened stem
TYPO_LONG = 7  # words this long tolerate two edits, shorter ones (from 4 letters) one


@dataclass
class Words:
    """One language's plain words, sorted, with their term and document count."""

    words: list[str] = field(default_factory=list)
    term: dict[str, str] = field(default_factory=dict)
    df: dict[str, int] = field(default_factory=dict)
    terms: set[str] = field(default_factory=set)

    def with_prefix(self, prefix: str) -> list[str]:
        start = bisect.bisect_left(self.words, prefix)
        end = bisect.bisect_left(self.words, prefix + "\uffff")
        return self.words[start:end]

    def family(self, term: str) -> set[str]:
        """The terms of the words in the stem family of ``term``."""
        if len(term) <= FAMILY_MIN or any(c.isdigit() for c in term):
            return {term}
        base = term[:max(FAMILY_MIN, len(term) - FAMILY_TRIM)]
        return {self.term[w] for w in self.with_prefix(base)
                if len(w) <= len(base) + FAMILY_SUFFIX} | {term}

    def known(self, word: str, term: str) -> bool:
        return word in self.term or term in self.terms

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
                found.append((distance, -self.df[candidate], candidate))
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
    per word, because every cold ``kb search`` loads it: its dictionaries are then built by C
    code (``dict(zip(...))``), twice as fast as parsing 16,000 lines in Python."""
    return json.dumps({lang: {"words": words.words,
                              "terms": [words.term[w] for w in words.words],
                              "df": [words.df[w] for w in words.words]}
                       for lang, words in sorted(by_language.items())}, ensure_ascii=False)


def load(path: Path) -> dict[str, Words]:
    """The vocabulary file whose text :func:`dumps` made, parsed by msgspec's decoder: a
    third of the time of :func:`json.loads` (4 ms of a cold ``kb search``)."""
    by_language = {}
    for lang, lists in msgspec.json.decode(path.read_bytes()).items():
        words, terms = lists["words"], lists["terms"]
        by_language[lang] = Words(words, dict(zip(words, terms, strict=True)),
                                  dict(zip(words, lists["df"], strict=True)), set(terms))
    return by_language
