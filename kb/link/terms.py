"""The bilingual term table, derived from the linked records.

Every pair comes from two records the link stage already related, and keeps which ones:

- the French and English titles of the same rule (``counterpart`` links: the keyword page's
  "702.27. Écho" and the 2013 CR's "Echo"; the French FAQ's "702.100. Fusion" and "Fuse");
- the French contents against the English sections of the same number, in the English version
  nearest the French document's date ("702. Capacités mot-clé" / "Keyword Abilities");
- keyword lines of the French and English printings of one card (``same-card`` links;
  "Vol, piétinement" / "Flying, trample"): for each English keyword the French term most cards
  use, and any other that at least ``MIN_ALTERNATIVE`` cards agree on;
- card names of paired French and English cards;
- the official French vocabulary of the rules (``official_terms.tsv``, written by hand from
  Wizards of the Coast's French rules and cards): ``meuler`` / ``mill``, ``horodatage`` /
  ``timestamp``, ``valeur de mana`` / ``mana value``, the terms French players type that the
  corpus's few French texts never print beside their English;
- words of parallel texts (the French and English texts of paired cards and FAQ rulings):
  a French word and the English word that occur in the same pairs most consistently (Dice
  coefficient at least ``MIN_DICE`` over at least ``MIN_PAIRS`` pairs): ``sacrifiez`` /
  ``sacrifice``, ``cimetière`` / ``graveyard``. Words in more than ``MAX_SHARE`` of the pairs
  (articles, "the", "de") say nothing and are left out, and so are the words search never
  translates, stop words and question words ("quand" / "when", "avec" / "with"), which are
  no terms however consistently they pair. A keyword both texts hold is taken out of them
  first: it is paired whole, and its words would pair with the other language's one word
  ("coup" of "Coup de sang" with "bloodrush"). Words are
  paired by their folded form and shown as the texts spell them most often ("cimetière", not
  "cimetiere").
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from itertools import product
from pathlib import Path

from kb.index.analysis import language
from kb.index.searcher import is_question_word, is_stop_word
from kb.model import Card, Link, Record, Rule, Ruling, TermPair, TocEntry
from kb.sources.mtgjson import keyword_pairs
from kb.store import Store
from kb.text.normal import any_of, fold

MIN_ALTERNATIVE = 3  # cards needed for a French keyword term that is not the majority's
EVIDENCE_KEPT = 5  # record pairs named as evidence per term pair
MIN_DICE = 0.6  # agreement of a French and an English word over parallel texts
MIN_PAIRS = 5  # parallel texts a word pair needs
MAX_SHARE = 0.2  # a word in more of the parallel texts than this is not a term
_WORD = re.compile(r"[^\W\d_]{3,}")
_LETTERS = re.compile(r"[^\W\d_]+")
_NONE = re.compile(r"(?!)")  # a pattern that finds nothing


def derive_terms(store: Store, links: Iterable[Link]) -> list[TermPair]:
    """Every term pair the stored records and their links support, sorted."""
    links = list(links)
    cards = list(_paired_cards(store, links))
    found: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for kind, french, english, evidence in (
        *_title_pairs(store, links), *_section_pairs(store), *_card_pairs(cards),
    ):
        found[(kind, french, english)].append(evidence)
    counted = {key: (len(ev), ev) for key, ev in found.items()}
    counted.update(_official_pairs())
    keywords = _keyword_pairs(cards)
    counted.update(keywords)
    known = _KnownTerms([(french, english) for _, french, english in keywords])
    for key, value in _parallel_words(store, links, cards, known).items():
        counted.setdefault(key, value)
    return sorted(
        (TermPair(french, english, kind, count, tuple(ev[:EVIDENCE_KEPT]))
         for (kind, french, english), (count, ev) in counted.items()),
        key=lambda t: (t.kind, fold(t.english), fold(t.french)),
    )


OFFICIAL = Path(__file__).with_name("official_terms.tsv")


def official_vocabulary() -> list[tuple[str, str]]:
    """(French, English) pairs of the official French vocabulary (``official_terms.tsv``)."""
    pairs = []
    for line in OFFICIAL.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            french, english = line.split("\t")
            pairs.append((french.strip(), english.strip()))
    return pairs


def _official_pairs() -> dict[tuple[str, str, str], tuple[int, list[str]]]:
    return {("official", french, english): (1, [OFFICIAL.name])
            for french, english in official_vocabulary()}


def _title_pairs(store: Store, links: list[Link]) -> Iterator[tuple[str, str, str, str]]:
    """French and English titles of one rule: the English of the version the French text is
    read against when it is held, else of today's rule it is (``current``): the FAQ's 702.100
    "Fusion" of 2013 is "Fuse", whatever today's 702.100 is."""
    today = {link.from_id: link.to_id for link in links if link.relation == "current"}
    for link in links:
        if link.relation != "counterpart":
            continue
        french = store.get(link.from_id)
        english = store.get(link.to_id)
        if english is None and link.from_id in today:
            english = store.get(today[link.from_id])
        if (isinstance(french, Rule) and isinstance(english, Rule) and french.language == "fr"
                and french.title and english.title and not french.untranslated):
            yield "rule-title", french.title, english.title, f"{french.id} = {english.id}"


def _section_pairs(store: Store) -> Iterator[tuple[str, str, str, str]]:
    english_by_version: dict[str, dict[str, TocEntry]] = {}
    versions = store.versions()
    for entry in store.query(kind="toc", language="fr"):
        if not isinstance(entry, TocEntry) or entry.number is None or not versions:
            continue
        version = _nearest(versions, entry.version)
        if version not in english_by_version:
            english_by_version[version] = {
                e.number: e for e in store.query(kind="toc", language="en", version=version)
                if isinstance(e, TocEntry) and e.number}
        english = english_by_version[version].get(entry.number)
        if english is not None:
            yield "section-title", entry.title, english.title, f"{entry.id} = {english.id}"


def _nearest(versions: list[str], written: str) -> str:
    """The English version nearest a French document's date ("2024" or "2013-03-21")."""
    year = int(written[:4]) if written[:4].isdigit() else int(versions[-1][:4])
    return min(reversed(versions), key=lambda v: abs(int(v[:4]) - year))


def _card_pairs(cards: list[tuple[Card, Card]]) -> Iterator[tuple[str, str, str, str]]:
    for french, english in cards:
        if fold(french.name) != fold(english.name):
            yield "card-name", french.name, english.name, f"{french.id} = {english.id}"


def _keyword_pairs(cards: list[tuple[Card, Card]]
                   ) -> dict[tuple[str, str, str], tuple[int, list[str]]]:
    """Per English keyword, the French terms enough cards agree on."""
    seen: dict[str, Counter[str]] = defaultdict(Counter)
    evidence: dict[tuple[str, str], list[str]] = defaultdict(list)
    for french, english in cards:
        for en_term, fr_term in keyword_pairs(english, french):
            seen[en_term][fr_term] += 1
            evidence[(en_term, fr_term)].append(f"{french.id} = {english.id}")
    out: dict[tuple[str, str, str], tuple[int, list[str]]] = {}
    for en_term, counts in seen.items():
        majority = counts.most_common(1)[0][0]
        for fr_term, count in counts.items():
            if fr_term == majority or count >= MIN_ALTERNATIVE:
                out[("keyword", fr_term, en_term)] = (count, evidence[(en_term, fr_term)])
    return out


def _parallel_words(store: Store, links: list[Link], cards: list[tuple[Card, Card]],
                    known: _KnownTerms) -> dict[tuple[str, str, str], tuple[int, list[str]]]:
    """French and English words that keep occurring in the same parallel texts, once the
    ``known`` terms both texts hold are taken out of them."""
    texts: list[tuple[set[str], set[str], str]] = []
    spelled: dict[str, Counter[str]] = defaultdict(Counter)  # folded word -> its spellings

    def add(french: str, english: str, evidence: str) -> None:
        french, english = known.without(french, english)
        texts.append((_words(french, spelled), _words(english, spelled), evidence))

    for fr_card, en_card in cards:
        add(_card_text(fr_card), _card_text(en_card), f"{fr_card.id} = {en_card.id}")
    for link in links:
        if link.relation == "same-ruling":
            fr, en = store.get(link.from_id), store.get(link.to_id)
            if (isinstance(fr, Ruling) and isinstance(en, Ruling) and fr.language == "fr"
                    and en.language == "en"):  # not one English ruling's two publications
                add(fr.text, en.text, f"{fr.id} = {en.id}")
    fr_df: Counter[str] = Counter(w for f, _, _ in texts for w in f)
    en_df: Counter[str] = Counter(w for _, e, _ in texts for w in e)
    cap = max(MIN_PAIRS, MAX_SHARE * len(texts))
    fr_ok = {w for w, n in fr_df.items() if MIN_PAIRS <= n <= cap and not _function_word(w)}
    en_ok = {w for w, n in en_df.items() if MIN_PAIRS <= n <= cap and not _function_word(w)}
    both: Counter[tuple[str, str]] = Counter()
    for f, e, _ in texts:
        both.update(product(f & fr_ok, e & en_ok))  # counted in C: a million pairs
    best_en: dict[str, tuple[float, str]] = {}
    best_fr: dict[str, tuple[float, str]] = {}
    for (fr_word, en_word), n in both.items():
        dice = 2 * n / (fr_df[fr_word] + en_df[en_word])
        if n >= MIN_PAIRS and dice >= MIN_DICE:
            best_en[fr_word] = max(best_en.get(fr_word, (0.0, "")), (dice, en_word))
            best_fr[en_word] = max(best_fr.get(en_word, (0.0, "")), (dice, fr_word))
    # Each word's best partner, kept when the choice is mutual ("tour" goes with "turn",
    # not with "end", whose own best partner is "fin").
    chosen = {(fr_word, en_word) for fr_word, (_, en_word) in best_en.items()
              if best_fr[en_word][1] == fr_word and fr_word != en_word}
    where: dict[tuple[str, str], list[str]] = defaultdict(list)
    for f, e, evidence in texts:
        for pair in chosen:
            if len(where[pair]) < EVIDENCE_KEPT and pair[0] in f and pair[1] in e:
                where[pair].append(evidence)
    return {("parallel-text", _spelling(pair[0], spelled, "fr"),
             _spelling(pair[1], spelled, "en")): (both[pair], where[pair]) for pair in chosen}


class _KnownTerms:
    """Term pairs the table holds already (the keywords, paired whole), to take out of the
    parallel texts that hold both sides. Left in, the words of a term of several words pair
    with the other language's one word: "coup" of "Coup de sang" with "bloodrush" (and the
    table said "coup" means bloodrush), "weapon" of "Living weapon" with the "Germe" of its
    reminder text, where "germe" is "germ"."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self._partners: dict[str, set[str]] = defaultdict(set)  # folded French -> English
        for french, english in pairs:
            self._partners[fold(french)].add(fold(english))
        self._french = any_of((french for french, _ in pairs), flags=re.IGNORECASE) or _NONE
        self._english = any_of((english for _, english in pairs), flags=re.IGNORECASE) or _NONE

    def without(self, french: str, english: str) -> tuple[str, str]:
        """The two texts without the known terms that both hold (whole words, any case)."""
        in_english = {fold(found) for found in self._english.findall(english)}
        taken = {term for found in self._french.findall(french)
                 if self._partners[term := fold(found)] & in_english}
        partners = {partner for term in taken for partner in self._partners[term]}
        return (self._french.sub(lambda m: " " if fold(m[0]) in taken else m[0], french),
                self._english.sub(lambda m: " " if fold(m[0]) in partners else m[0], english))


def _function_word(word: str) -> bool:
    """A word search never translates (a stop word, a question word): no term."""
    return is_stop_word(word) or is_question_word(word)


def _spelling(word: str, spelled: dict[str, Counter[str]], lang: str) -> str:
    """A folded word as the texts spell it most often (``cimetiere`` -> "cimetière"), among
    the spellings search reads as the folded word (accents, not the ligature of "ætherling",
    which the analysis keeps: the pair must search what it searched)."""
    analysis = language(lang)
    wanted = analysis.terms_of(word)
    return next((form for form, _ in spelled.get(word, Counter()).most_common()
                 if analysis.terms_of(form) == wanted), word)


def _card_text(card: Card) -> str:
    return "\n".join(face.text or "" for face in card.faces)


def _words(text: str, spelled: dict[str, Counter[str]]) -> set[str]:
    """The folded words of ``text`` (three letters or more), each spelling counted."""
    found = set()
    for written in _LETTERS.findall(text.lower()):
        word = fold(written)
        if _WORD.fullmatch(word):
            found.add(word)
            spelled[word][written] += 1
    return found


def _paired_cards(store: Store, links: list[Link]) -> Iterator[tuple[Card, Card]]:
    cache: dict[str, Record | None] = {}

    def get(record_id: str) -> Record | None:
        if record_id not in cache:
            cache[record_id] = store.get(record_id)
        return cache[record_id]

    for link in links:
        if link.relation == "same-card":
            french, english = get(link.from_id), get(link.to_id)
            if (isinstance(french, Card) and isinstance(english, Card)
                    and french.language == "fr" and english.language == "en"):
                yield french, english
