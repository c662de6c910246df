"""The official French names of the terms an English rules text uses (trample = piétinement),
shown beside a rule that has no French text here, so that a French reader can follow the
English with the words French players and judges use.

The names come from the store's term table, from the pairs that name a game term: the
official French vocabulary (``kb/link/official_terms.tsv``), French and English titles of the
same rule or section, and keyword lines of paired French and English cards. Card names and
word pairs guessed from parallel texts are left out: they are not terms of the rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from kb.text.normal import any_of, fold
from kb.web.readers import Reader

# Term kinds that name a game term, most authoritative first.
TERM_KINDS = ("official", "rule-title", "section-title", "keyword")
MAX_SHOWN = 40


@dataclass(frozen=True, slots=True)
class FrenchName:
    english: str
    french: tuple[str, ...]


@dataclass(frozen=True)
class _Vocabulary:
    pattern: re.Pattern[str] | None
    names: dict[str, FrenchName]  # folded English term -> its French names


def _vocabulary(reader: Reader) -> _Vocabulary:
    def compute() -> _Vocabulary:
        french: dict[str, dict[str, None]] = {}
        english: dict[str, str] = {}
        rank = {kind: i for i, kind in enumerate(TERM_KINDS)}
        pairs = sorted((p for p in reader.kb.store.terms() if p.kind in rank),
                       key=lambda p: rank[p.kind])
        for pair in pairs:
            key = fold(pair.english)
            if len(key) < 3:
                continue
            english.setdefault(key, pair.english.lower())
            french.setdefault(key, {}).setdefault(pair.french.lower(), None)
        names = {k: FrenchName(english[k], tuple(_keep(french[k]))) for k in english}
        return _Vocabulary(any_of(english), names)
    return reader.cache.value("french-names", compute)


def _keep(names: dict[str, None]) -> list[str]:
    """The French names, an accent-less spelling dropped when the accented one is there."""
    shown = list(names)
    return [n for n in shown if not (n == fold(n) and any(
        fold(other) == n and other != n for other in shown))]


def french_names(reader: Reader, texts: Iterable[str]) -> list[FrenchName]:
    """The terms of ``texts`` that have a French name, in order of first use."""
    vocabulary = _vocabulary(reader)
    if vocabulary.pattern is None:
        return []
    found: dict[str, FrenchName] = {}
    for text in texts:
        for match in vocabulary.pattern.finditer(fold(text)):
            # "creatures" after "creature" (or before it) says nothing more
            found.setdefault(match.group(0).removesuffix("s"), vocabulary.names[match.group(0)])
            if len(found) == MAX_SHOWN:
                return list(found.values())
    return list(found.values())
