"""The French and English analyzers: how a text becomes index terms, and a query word too.

French: tokens keep their inner apostrophes so that the elision step, not the tokenizer,
decides what an apostrophe means (``l'écho`` -> ``écho``, ``jusqu'à`` -> ``à``, with ``'`` or
``’``); then lowercase, accent folding **before** stemming (users type ``pietinement`` as often as
``piétinement``, and Snowball then sees one spelling; a folded feminine "-ee" is read as
"-e", so that "exilée" stays one term with "exilé"), stop words, Snowball French. English:
lowercase, folding, possessive ``'s`` removed, stop words, Snowball English. The Brazilian
Portuguese rules of the corpus get the same chain with the Portuguese stemmer. The stemmers
are the Snowball project's own, in C (PyStemmer): Whoosh's port of them to Python took twelve
times as long, a cold question's 600 stems 10 ms, and is an older Snowball ("added" -> "ad").

Rule numbers stay whole tokens (``702.19b``) so that a number typed in a query finds the texts
that cite it. Each token yields its plain word (folded, unstemmed: the vocabulary that prefix
queries, stem families and typo correction run on) and its term (the stem that is indexed).

The chain runs in plain Python with a cache per distinct token, once per text: Whoosh then
indexes the terms already made (see ``documents.PreAnalyzed``). Whoosh's own chain of generator
filters, run once per field and again for the vocabulary, made the full build four times slower.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import Stemmer
from msgspec import Struct
from whoosh.lang.stopwords import stoplists
from whoosh.support.charset import accent_map

from kb.text.inflection import verbs

LANGUAGES = ("fr", "en", "pt")
_SNOWBALL = {"fr": "french", "en": "english", "pt": "portuguese"}  # PyStemmer's names

# A power/toughness change (+1/+1, -1/-1, +X/+0: one term, as "1" alone is in every other
# text), a word, a rule number (702.19b, 100.1.), or a word with inner apostrophes (l'écho,
# don't).
TERMS_KEPT = 65536  # texts whose terms a language keeps (Language.terms_of)
_TOKEN = re.compile(r"(?<![\w/])[+-][\dX]+/[+-][\dX]+(?![\w/])|\w+(?:[.'’]\w+)*")
# French elided articles, pronouns and conjunctions, as written before a vowel.
_ELISION = re.compile(r"^(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|quoiqu|presqu)['’]")
_POSSESSIVE = re.compile(r"['’]s$")
_APOSTROPHE = re.compile(r"['’]")
_NUMBER = re.compile(r"\d|^[+-]x/")
_FEMININE = re.compile(r"ee(s?)$")  # a folded "-ée", "-ées"

# Words the rules use as terms although general stop-word lists drop them ("face down",
# "trample over planeswalkers", "until end of turn", "no maximum hand size", "contre").
_KEPT = {
    "fr": {"contre", "sous", "dessus", "dessous"},
    "en": {"after", "again", "all", "any", "before", "can", "down", "each", "more", "most",
           "no", "not", "off", "only", "other", "out", "over", "own", "same", "under", "until",
           "up"},
    "pt": set(),
}


def fold(text: str) -> str:
    """Lowercase without accents: how every word is compared."""
    return text.lower().translate(accent_map)


def strip_elision(text: str) -> str:
    """A French word without its elided article (``l'écho`` -> ``écho``)."""
    return _ELISION.sub("", text.lower()) if _ELISION.match(text.lower()) else text


class Token(Struct, frozen=True):
    word: str  # folded, unstemmed
    term: str  # what the index holds: the stem, or the word itself for numbers
    start: int  # character offsets in the analyzed text
    end: int


@dataclass
class Language:
    """One language's chain, with a cache from raw token to its (word, term) pieces."""

    code: str
    stops: frozenset[str] = field(init=False)
    _cache: dict[str, tuple[tuple[str, str], ...]] = field(init=False, default_factory=dict)
    _terms: dict[str, tuple[str, ...]] = field(init=False, default_factory=dict)
    # First letter -> the irregular table of the terms that begin with it (see irregular()).
    _irregular: dict[str, dict[str, frozenset[str]]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.stops = frozenset(fold(w) for w in stoplists[self.code]) - _KEPT[self.code]
        self._strip = _ELISION if self.code == "fr" else _POSSESSIVE

    def pieces(self, raw: str) -> tuple[tuple[str, str], ...]:
        """The (word, term) pairs of one raw token; empty for a stop word."""
        cached = self._cache.get(raw)
        if cached is None:
            cached = self._cache[raw] = tuple(self._analyze(raw))
        return cached

    def _analyze(self, raw: str) -> list[tuple[str, str]]:
        out = []
        for part in _APOSTROPHE.split(self._strip.sub("", raw.lower())):
            word = part.translate(accent_map)
            if not word or word in self.stops:
                continue
            out.append((word, self.term(word)))
        return out

    def tokens(self, text: str) -> list[Token]:
        return [Token(word, term, m.start(), m.end())
                for m in _TOKEN.finditer(text) for word, term in self.pieces(m.group())]

    def pairs(self, text: str) -> list[tuple[str, str]]:
        """The (word, term) pairs of a text in order: the fast path of indexing."""
        pieces = self.pieces
        return [pair for raw in _TOKEN.findall(text) for pair in pieces(raw)]

    def terms_of(self, text: str) -> tuple[str, ...]:
        """The indexed terms of a text: two texts with the same terms are the same query.
        Kept (a question's runs of words and the term table's texts are compared by their
        terms again and again, kb.search's translation), up to TERMS_KEPT texts."""
        cached = self._terms.get(text)
        if cached is None:
            if len(self._terms) >= TERMS_KEPT:
                self._terms.clear()
            cached = self._terms[text] = tuple(term for _, term in self.pairs(text))
        return cached

    def term(self, word: str) -> str:
        """The indexed term of one plain word (already folded). Snowball French takes off a
        feminine "-ée" only with its accent, which folding took away: "exilée" (folded
        "exilee") was one term with neither "exilé" nor "exiler", so its "-ee" is read as
        the "-e" of "exile" first."""
        if _NUMBER.search(word):
            return word
        if self.code == "fr":
            word = _FEMININE.sub(r"e\1", word)
        return _stemmer(self.code)(word)

    def irregular(self, term: str) -> frozenset[str]:
        """The terms of every form of the irregular verb one of whose forms has ``term``
        (English ``leav`` -> ``leav``, ``left``: kb.text.inflection); empty otherwise.

        Only the verbs with a form of the term's first letter are stemmed (a stem keeps its
        word's first letter), once a letter: a cold search asks for a word or two, and
        stemming every form of every verb was a tenth of its time."""
        letter = term[:1]
        table = self._irregular.get(letter)
        if table is None:
            found: dict[str, set[str]] = {}
            for forms in verbs() if self.code == "en" else ():
                if any(form.startswith(letter) for form in forms):
                    terms = {self.term(form) for form in forms}
                    for one in terms:
                        if one.startswith(letter):
                            found.setdefault(one, set()).update(terms)
            table = self._irregular[letter] = {one: frozenset(terms)
                                               for one, terms in found.items()}
        return table.get(term, frozenset())


_STEMMERS = threading.local()  # language -> this thread's stemmer


def _stemmer(code: str) -> Callable[[str], str]:
    """This thread's Snowball stemmer of a language: a PyStemmer stemmer keeps its working
    state in the object, and must not stem for two threads at once (the site's workers)."""
    kept = _STEMMERS.__dict__
    stem = kept.get(code)
    if stem is None:
        stem = kept[code] = Stemmer.Stemmer(_SNOWBALL[code]).stemWord
    return stem


_LANGUAGES: dict[str, Language] = {}


def language(code: str) -> Language:
    """The chain of a language (English for any language kb has no chain for)."""
    code = code if code in LANGUAGES else "en"
    if code not in _LANGUAGES:
        _LANGUAGES[code] = Language(code)
    return _LANGUAGES[code]
