"""Which cards a text names, in French or in English, by the card's English name key.

A translation names the same cards as its original: where the English ruling says "Catch", the
French one must name the same half of *Catch // Release* ("Prise"), not the other ("Relâche").
Names are known from the cards of the index: English cards by their name and the names of their
halves (a FAQ writes a split card "Down & Dirty"), French cards through their pairing with an
English card (``same-card`` links) or their MTGJSON names.

Names are matched case-sensitively on whole words (after an elision: "l'Ætherlin"; English
names also in the plural: "two Blood Scriveners"). A one-word name ("Clone", "Turn") is also an
ordinary word, so it counts only inside a sentence (not as its first word), unless it names the
card the text is about. Basic lands are left out: their names are also land types, which French
writes in lower case ("le type de terrain de base île").
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from kb.i18n import _
from kb.model import Card, Link
from kb.text.normal import any_of, fold

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'"})
_SENTENCE_START = re.compile(r"(?:^|[.!?:;«»“”\"(]\s*|\*\s*)$")
BASIC_LANDS = frozenset({"plains", "island", "swamp", "mountain", "forest", "wastes"})


@dataclass(frozen=True, slots=True)
class Mention:
    """A card named in a text: its English key, which half (0, 1) or None for the whole card,
    and the words as written."""

    key: str
    half: int | None
    written: str


def _norm(text: str) -> str:
    return unicodedata.normalize("NFC", text.translate(_APOSTROPHES))


class CardNames:
    """The card names known in each language, each mapped to its English key."""

    def __init__(self, cards: Iterable[Card], links: Iterable[Link]) -> None:
        cards = list(cards)
        english = {c.id: c for c in cards if c.language == "en"}
        self.names: dict[str, dict[str, tuple[str, int | None]]] = {"en": {}, "fr": {}}
        self.english_name: dict[str, str] = {}
        for card in english.values():
            key = fold(card.name)
            if key in BASIC_LANDS:
                continue
            self.english_name.setdefault(key, card.name)
            self._add("en", card.name, key, None)
            halves = [f.name for f in card.faces] if " // " in card.name else []
            for half, name in enumerate(halves):
                self._add("en", name, key, half)
            if len(halves) == 2:
                self._add("en", f"{halves[0]} & {halves[1]}", key, None)
            for language, name in card.names:
                if language == "fr":
                    self._add("fr", name, key, None)
        french = {c.id: c for c in cards if c.language == "fr"}
        for link in links:
            if link.relation == "same-card" and link.from_id in french and link.to_id in english:
                card, key = french[link.from_id], fold(english[link.to_id].name)
                if key in BASIC_LANDS:
                    continue
                self._add("fr", card.name, key, None)
                if " // " in card.name:
                    for half, face in enumerate(card.faces[:2]):
                        self._add("fr", face.name, key, half)
        self._patterns = {lang: any_of(table, ending="(?:s|es)?" if lang == "en" else "")
                          for lang, table in self.names.items()}
        self.known_in = {lang: {key for key, _ in table.values()}
                         for lang, table in self.names.items()}

    def french_name(self, key: str) -> str | None:
        """A French name of the whole card, if one is known."""
        return next((name for name, (k, half) in self.names["fr"].items()
                     if k == key and half is None), None)

    def _add(self, language: str, name: str, key: str, half: int | None) -> None:
        name = _norm(name.strip())
        if name and name not in self.names[language]:
            self.names[language][name] = (key, half)

    def mentions(self, text: str, language: str, about: str | None = None) -> set[Mention]:
        """The cards ``text`` names; ``about`` is the key of the card the text is about, whose
        one-word names (its halves) count anywhere."""
        pattern = self._patterns.get(language)
        if pattern is None:
            return set()
        text = _norm(text)
        found: set[Mention] = set()
        for m in pattern.finditer(text):
            key, half = self.names[language][m["name"]]
            single = " " not in m["name"]
            if single and key != about and _SENTENCE_START.search(text[:m.start()]):
                continue
            found.add(Mention(key, half, m["name"]))
        return found


def differences(fr: set[Mention], en: set[Mention], names: CardNames,
                about: str | None = None) -> list[str]:
    """Explanations of how two texts' card names disagree: a card named in one text only (when
    its name in the other language is known, else nothing can be said; the card the text is
    about may be "it" on one side), or the other half of the same split card."""
    out: list[str] = []
    fr_halves = _halves(fr)
    en_halves = _halves(en)
    for key in sorted(set(fr_halves) | set(en_halves)):
        a, b = fr_halves.get(key), en_halves.get(key)
        name = names.english_name.get(key, key)
        french = names.french_name(key)
        if french:
            name = _("{name} ({french} in French)").format(name=name, french=french)
        if (a is None or b is None) and key == about:
            continue
        if a is None:
            if key in names.known_in["fr"]:
                out.append(_("the English text names {name}, the French text does not")
                           .format(name=name))
        elif b is None:
            if key in names.known_in["en"]:
                out.append(_("the French text names {name}, the English text does not")
                           .format(name=name))
        elif a != b and None not in a | b:
            fr_words = "/".join(sorted(m.written for m in fr if m.key == key))
            en_words = "/".join(sorted(m.written for m in en if m.key == key))
            out.append(_("the French text names the other half of {name}: {french} where the "
                         "English has {english}").format(name=name, french=fr_words,
                                                        english=en_words))
    return out


def _halves(mentions: set[Mention]) -> dict[str, set[int | None]]:
    out: dict[str, set[int | None]] = defaultdict(set)
    for m in mentions:
        out[m.key].add(m.half)
    return out
