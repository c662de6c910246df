"""Pair French records with their English counterparts: cards, then FAQ rulings.

Cards. A French card (from a French FAQ, from MTGJSON's ``foreignData``, ...) is resolved to
an English *name key* (the folded English name, :func:`fold`), then paired with every English
card of that key, whichever source holds it (``faq:en:...:ætherling`` and
``mtgjson:aetherling`` are the same card: their names fold alike). The key is found, in order:

1. the card's own ``names`` (a French MTGJSON card lists its English name);
2. MTGJSON ``names``: the French name of an English card, or the name of a French MTGJSON card,
   compared folded, so that a card printed under two French spellings still pairs (the 2013 FAQ
   writes "Ætherlin", MTGJSON "Aetherlin");
3. the halves of a French split name that MTGJSON gives ("Tueur de géant // Petit bois");
4. the same folded name in both languages ("Emmara Tandris");
5. within one FAQ pair (``faq:fr:dgm-2013-03-21`` and ``faq:en:dgm-2013-03-21``: sources whose
   ids differ only by their language), the English FAQ card with the same evidence: per face
   (half) its mana cost, card types and power/toughness, then the numbers and mana symbols of
   its text to break ties. Position is no evidence: each FAQ lists its cards in its own
   language's alphabetical order. MTGJSON has no French names for the Dragon's Maze split
   cards, so they pair this way ("Armé // Dangereux" = "Armed // Dangerous", halves {1}{R} and
   {3}{G}), and then, through the English FAQ card's name, with the MTGJSON card too.

A French card's pairs list first the English card of the source that holds the most English
cards (the card database, MTGJSON): :func:`english_name_index` maps names, French or English,
to that card.

A paired card whose evidence (faces, mana costs, types, P/T) disagrees keeps its pair with a
lower confidence and says so in the evidence.

Rulings. A French FAQ ruling pairs with the English ruling of the same FAQ pair, under the
paired card (a ruling's card is the record id before its ``/ordinal``). Where both cards have
as many rulings, the n-th pairs with the n-th, checked by cheap evidence (numbers, mana
symbols, cited rules) that lowers the confidence when it disagrees. Where the counts differ
(Boros Battleshaper: 6 French rulings, 5 English), rulings are aligned in order by evidence:
the same tokens and a French/English length ratio close to the usual one (measured on the
cards whose counts agree: about 1.2 for the Dragon's Maze FAQs); a ruling left over stays
unpaired.

All functions are pure: records in, pairs out.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import groupby

from msgspec import structs

from kb.model import Card, Ruling
from kb.text.normal import fold

SAME_CARD = "same-card"
SAME_RULING = "same-ruling"
FRENCH, ENGLISH = "fr", "en"

_TYPE_HEAD = re.compile(r"\s*[—:]\s*")
_TOKEN = re.compile(r"\{[^{}\s]+\}|\d+")
# Card types, French word (folded) -> English. Supertypes are left out: printings of one card
# disagree on them (older French planeswalkers are not "légendaire", old legends say "légende").
_TYPES_FR = {
    "artefact": "artifact",
    "bataille": "battle",
    "creature": "creature",
    "enchantement": "enchantment",
    "ephemere": "instant",
    "planeswalker": "planeswalker",
    "rituel": "sorcery",
    "terrain": "land",
    "tribal": "tribal",
}
_TYPES_EN = frozenset(_TYPES_FR.values())
# Ruling alignment: the French/English length ratio assumed when no card has equal counts,
# and the least evidence score for two rulings to be aligned at all.
DEFAULT_LENGTH_RATIO = 1.2
MIN_ALIGN_SCORE = 0.2


@dataclass(frozen=True, slots=True)
class Pair:
    """A French record (``left``) and its English counterpart (``right``)."""

    left: str
    right: str
    relation: str  # SAME_CARD or SAME_RULING
    evidence: str  # how it was decided
    confidence: float


# -- cards -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Match:
    """What a French card was resolved to: an English name key, and why."""

    key: str
    evidence: str
    confidence: float
    via: str | None = None  # the English card the evidence was found on (FAQ evidence)


def pair_cards(cards: Iterable[Card]) -> list[Pair]:
    """Pairs (French card, English card), in the order of the French cards; a French card's
    first pair is with the English card of the reference source (:func:`_reference_first`)."""
    french, english = by_language(cards)
    by_key: dict[str, list[Card]] = defaultdict(list)
    for card in reference_first(english):
        by_key[fold(card.name)].append(card)
    names = _french_names([*french, *english])
    halves = _halves(names)
    matches = {
        c.id: m for c in french if (m := _by_name(c, names, halves, by_key)) is not None
    }
    matches.update(_by_evidence(french, english, matches))
    pairs: list[Pair] = []
    for card in french:
        match = matches.get(card.id)
        for other in by_key.get(match.key, []) if match else []:
            pairs.append(_card_pair(card, other, match))
    return pairs


def by_language(cards: Iterable[Card]) -> tuple[list[Card], list[Card]]:
    """French and English cards, each id once (two MTGJSON files give the same records); a
    card without a name has nothing to pair by and is left out."""
    seen: set[str] = set()
    french: list[Card] = []
    english: list[Card] = []
    for card in cards:
        if card.id in seen or not fold(card.name):
            continue
        seen.add(card.id)
        if card.language == FRENCH:
            french.append(card)
        elif card.language == ENGLISH:
            english.append(card)
    return french, english


def reference_first(english: list[Card]) -> list[Card]:
    """English cards, those of the source holding the most English cards first: the card
    database (MTGJSON) is the reference, rather than a FAQ that quotes a few cards."""
    sizes = Counter(source_family(c.id) for c in english)
    return sorted(english, key=lambda c: -sizes[source_family(c.id)])


def _french_names(cards: list[Card]) -> dict[str, dict[str, tuple[str, str]]]:
    """Folded French name -> {English key: (French name, English name) as written}, from
    MTGJSON ``names``: the French name of an English card, the English name of a French one."""
    index: dict[str, dict[str, tuple[str, str]]] = defaultdict(dict)
    for card in cards:
        for language, name in card.names:
            if card.language == ENGLISH and language == FRENCH:
                index[fold(name)].setdefault(fold(card.name), (name, card.name))
            elif card.language == FRENCH and language == ENGLISH:
                index[fold(card.name)].setdefault(fold(name), (card.name, name))
    return index


def _halves(names: dict[str, dict[str, tuple[str, str]]]) -> dict[str, set[str]]:
    """Folded half of a French split name -> the English keys of the cards it is a half of."""
    halves: dict[str, set[str]] = defaultdict(set)
    for folded, keys in names.items():
        if " // " in folded:
            for half in folded.split(" // "):
                halves[half].update(keys)
    return halves


def _by_name(
    card: Card,
    names: dict[str, dict[str, tuple[str, str]]],
    halves: dict[str, set[str]],
    by_key: dict[str, list[Card]],
) -> _Match | None:
    """Steps 1 to 4 of the module docstring."""
    own = [n for language, n in card.names if language == ENGLISH]
    if own:
        return _Match(fold(own[0]), f"mtgjson names: {card.name} = {own[0]}", 1.0)
    found = names.get(fold(card.name), {})
    if len(found) == 1:
        key, (written, english) = next(iter(found.items()))
        exact = written == card.name
        note = "" if exact else f" (written {card.name})"
        return _Match(key, f"mtgjson names: {written} = {english}{note}", 0.95 if exact else 0.9)
    keys = [halves.get(fold(face.name), set()) for face in card.faces] or [set()]
    common = set.intersection(*keys)
    if len(common) == 1:
        key = common.pop()
        return _Match(key, f"mtgjson names of the halves: {card.name} = {key}", 0.85)
    if fold(card.name) in by_key:
        return _Match(fold(card.name), f"same name in both languages: {card.name}", 0.8)
    return None


def source_family(record_id: str) -> str:
    """A card's source without its language: ``faq:fr:dgm-2013-03-21:ætherlin`` and
    ``faq:en:dgm-2013-03-21:ætherling`` are both of ``faq:dgm-2013-03-21``."""
    source = record_id.rpartition(":")[0]
    return ":".join(s for s in source.split(":") if s not in (FRENCH, ENGLISH))


def _by_evidence(
    french: list[Card], english: list[Card], matches: dict[str, _Match]
) -> dict[str, _Match]:
    """Step 5: unresolved French cards against the unclaimed English cards of their family."""
    found: dict[str, _Match] = {}
    families = {source_family(c.id) for c in french if c.id not in matches}
    for family in sorted(families):
        claimed = {m.key for cid, m in matches.items() if source_family(cid) == family}
        left = [c for c in french if source_family(c.id) == family and c.id not in matches]
        pool = [c for c in english if source_family(c.id) == family and fold(c.name) not in claimed]
        found.update(_match_by_evidence(left, pool))
    return found


def _match_by_evidence(left: list[Card], pool: list[Card]) -> dict[str, _Match]:
    """Cards pair when they are alone with their signature, or, among several with the same
    signature, each other's unique best by the numbers and symbols of their texts."""
    groups: dict[tuple, tuple[list[Card], list[Card]]] = defaultdict(lambda: ([], []))
    for card in left:
        groups[_signature(card)][0].append(card)
    for card in pool:
        groups[_signature(card)][1].append(card)
    found: dict[str, _Match] = {}
    for signature, (frs, ens) in groups.items():
        if not frs or not ens or not signature:
            continue
        what = _describe(signature)
        if len(frs) == 1 and len(ens) == 1:
            found[frs[0].id] = _evidence_match(frs[0], ens[0], f"{what}, the only such card", 0.85)
            continue
        for fr in frs:
            en = _unique_best(fr, ens)
            if en is not None and _unique_best(en, frs) is fr:
                found[fr.id] = _evidence_match(fr, en, f"{what}, same numbers in text", 0.75)
    return found


def _evidence_match(fr: Card, en: Card, why: str, confidence: float) -> _Match:
    return _Match(fold(en.name), f"FAQ evidence: {fr.name} = {en.name}: {why}", confidence, en.id)


def _unique_best(card: Card, others: list[Card]) -> Card | None:
    scores = [(_jaccard(_card_tokens(card), _card_tokens(other)), other) for other in others]
    best = max((s for s, _ in scores), default=0.0)
    winners = [other for s, other in scores if s == best]
    return winners[0] if best > 0 and len(winners) == 1 else None


def _types(type_line: str | None, language: str) -> tuple[str, ...]:
    """The card types of a type line, in English ("Créature-artefact légendaire : elfe" ->
    ("artifact", "creature")); subtypes, which do not translate word for word, are left out."""
    if not type_line:
        return ()
    words = re.split(r"[\s-]+", fold(_TYPE_HEAD.split(type_line, maxsplit=1)[0]))
    if language == FRENCH:
        words = [_TYPES_FR.get(w, "") for w in words]
    return tuple(sorted(w for w in words if w in _TYPES_EN))


def _signature(card: Card) -> tuple:
    """Per face: mana cost, types, power and toughness."""
    return tuple(
        (f.mana_cost, _types(f.type_line, card.language), f.power, f.toughness)
        for f in card.faces
    )


def _describe(signature: tuple) -> str:
    faces = []
    for mana, types, power, toughness in signature:
        parts = [mana or "no mana cost", " ".join(types) or "no type"]
        if power is not None:
            parts.append(f"{power}/{toughness}")
        faces.append(" ".join(parts))
    return " // ".join(faces)


def _card_tokens(card: Card) -> Counter[str]:
    texts = [f.text or "" for f in card.faces] + [card.card_text or ""]
    return _tokens("\n".join(texts))


def _card_pair(fr: Card, en: Card, match: _Match) -> Pair:
    evidence, confidence = match.evidence, match.confidence
    if match.via is not None and match.via != en.id:
        evidence = f"via the paired FAQ card ({evidence})"
        confidence *= 0.95
    differ = card_differences(fr, en)
    if differ:
        evidence += f"; but {', '.join(differ)} differ"
        confidence *= 0.5
    return Pair(fr.id, en.id, SAME_CARD, evidence, round(confidence, 3))


def card_differences(fr: Card, en: Card) -> list[str]:
    """What two cards' faces disagree on, where both sources give it."""
    if not fr.faces or not en.faces:
        return []
    if len(fr.faces) != len(en.faces):
        return ["face counts"]
    ours, theirs = _signature(fr), _signature(en)
    labels = ("mana costs", "types", "power", "toughness")
    return [
        label
        for n, label in enumerate(labels)
        if any(a[n] and b[n] and a[n] != b[n] for a, b in zip(ours, theirs, strict=True))
    ]


# -- rulings ---------------------------------------------------------------------------------


def pair_rulings(rulings: Iterable[Ruling], card_pairs: Iterable[Pair]) -> list[Pair]:
    """Pairs (French ruling, English ruling) of the same FAQ pair, under paired cards."""
    french: dict[str, list[Ruling]] = defaultdict(list)
    english: dict[str, list[Ruling]] = defaultdict(list)
    seen: set[str] = set()
    for ruling in rulings:
        if ruling.id in seen:
            continue
        seen.add(ruling.id)
        if ruling.language == FRENCH:
            french[ruling_card(ruling)].append(ruling)
        elif ruling.language == ENGLISH:
            english[ruling_card(ruling)].append(ruling)
    partners: dict[str, list[str]] = defaultdict(list)
    for pair in card_pairs:
        if pair.relation == SAME_CARD:
            partners[pair.left].append(pair.right)
    groups = []
    members: dict[str, list[Ruling]] = {}  # a line's rulings, by the id standing for them
    for card_id, frs in french.items():
        family = source_family(card_id)
        candidates = [e for e in partners.get(card_id, [])
                      if source_family(e) == family and e in english]
        if candidates:
            right = candidates[0]
            groups.append((_by_line(_in_order(frs), members), _in_order(english[right])))
    ratio = _length_ratio(groups)
    pairs: list[Pair] = []
    for frs, ens in groups:
        found = _by_position(frs, ens) if len(frs) == len(ens) else _by_alignment(frs, ens, ratio)
        pairs.extend(_for_members(pair, members) for pair in found)
    return [pair for group in pairs for pair in group]


def _by_line(rulings: list[Ruling], members: dict[str, list[Ruling]]) -> list[Ruling]:
    """The rulings with those written on one line (two bullets a scrape joined, seed 001 line
    642) merged into one, which stands for them in the alignment: their English original is
    one ruling. Not where every ruling is on one line (a one-line JSON file)."""
    if len({r.loc.line for r in rulings}) == 1:
        return rulings
    merged: list[Ruling] = []
    for _, same in groupby(rulings, key=lambda r: r.loc.line):
        same_line = list(same)
        if len(same_line) == 1:
            merged.extend(same_line)
            continue
        first = same_line[0]
        members[first.id] = same_line
        merged.append(structs.replace(first, text=" ".join(r.text for r in same_line),
                                      citations=tuple(c for r in same_line
                                                      for c in r.citations)))
    return merged


def _for_members(pair: Pair, members: dict[str, list[Ruling]]) -> list[Pair]:
    """The pair of a merged line, given to each ruling of that line."""
    same_line = members.get(pair.left)
    if same_line is None:
        return [pair]
    note = f"; one of {len(same_line)} rulings on line {same_line[0].loc.line}"
    return [replace(pair, left=r.id, evidence=pair.evidence + note) for r in same_line]


def ruling_card(ruling: Ruling) -> str:
    """The id of the card a ruling is under: its id before ``/ordinal``."""
    return ruling.id.rpartition("/")[0]


def _in_order(rulings: list[Ruling]) -> list[Ruling]:
    return sorted(rulings, key=lambda r: r.ordinal)


def _length_ratio(groups: list[tuple[list[Ruling], list[Ruling]]]) -> float:
    """The median French/English length ratio of rulings under cards with equal counts."""
    ratios = [
        len(fr.text) / len(en.text)
        for frs, ens in groups
        if len(frs) == len(ens)
        for fr, en in zip(frs, ens, strict=True)
        if fr.text and en.text
    ]
    return statistics.median(ratios) if ratios else DEFAULT_LENGTH_RATIO


def _ruling_tokens(ruling: Ruling) -> Counter[str]:
    """Numbers, mana symbols and cited rules: what a translation keeps as written."""
    tokens = _tokens(ruling.text)
    tokens.update(f"rule {c.target}" for c in ruling.citations)
    return tokens


def _by_position(frs: list[Ruling], ens: list[Ruling]) -> list[Pair]:
    pairs = []
    for n, (fr, en) in enumerate(zip(frs, ens, strict=True), start=1):
        where = f"position {n} of {len(frs)} under the paired card"
        a, b = _ruling_tokens(fr), _ruling_tokens(en)
        if not a and not b:
            check, confidence = "no numbers, symbols or rules to compare", 0.85
        elif set(a) == set(b):
            check, confidence = f"same numbers, symbols and rules: {_show(a)}", 0.95
        else:
            similarity = _jaccard(a, b)
            check = f"numbers, symbols or rules differ: {_show(a)} vs {_show(b)}"
            confidence = 0.9 * (0.5 + 0.5 * similarity)
        pairs.append(Pair(fr.id, en.id, SAME_RULING, f"{where}; {check}", round(confidence, 3)))
    return pairs


def _by_alignment(frs: list[Ruling], ens: list[Ruling], ratio: float) -> list[Pair]:
    """Order-keeping alignment that maximizes the summed evidence score (each pair's score
    at least :data:`MIN_ALIGN_SCORE`); rulings left out stay unpaired."""
    n, m = len(frs), len(ens)
    score = [[_align_score(fr, en, ratio) for en in ens] for fr in frs]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            take = score[i][j] + best[i + 1][j + 1] if score[i][j] >= MIN_ALIGN_SCORE else -1.0
            best[i][j] = max(best[i + 1][j], best[i][j + 1], take)
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        s = score[i][j]
        if s >= MIN_ALIGN_SCORE and math.isclose(best[i][j], s + best[i + 1][j + 1]):
            evidence = (
                f"aligned by evidence ({n} French vs {m} English rulings under the paired card):"
                f" French {i + 1} = English {j + 1}, length ratio"
                f" {len(frs[i].text) / max(len(ens[j].text), 1):.2f} (usual {ratio:.2f}),"
                f" numbers, symbols and rules {_show(_ruling_tokens(frs[i])) or 'none'}"
                f" vs {_show(_ruling_tokens(ens[j])) or 'none'}"
            )
            pairs.append(Pair(frs[i].id, ens[j].id, SAME_RULING, evidence, round(0.5 + 0.4 * s, 3)))
            i, j = i + 1, j + 1
        elif math.isclose(best[i][j], best[i + 1][j]):
            i += 1
        else:
            j += 1
    return pairs


def _align_score(fr: Ruling, en: Ruling, ratio: float) -> float:
    """0..1: half length (a ratio off the usual one by a factor e^0.25 scores 1/e), half
    tokens (0.5 when neither text has any)."""
    if not fr.text or not en.text:
        return 0.0
    length = math.exp(-abs(math.log(len(fr.text) / len(en.text) / ratio)) / 0.25)
    a, b = _ruling_tokens(fr), _ruling_tokens(en)
    tokens = _jaccard(a, b) if a or b else 0.5
    return 0.5 * length + 0.5 * tokens


# -- shared ----------------------------------------------------------------------------------


def _tokens(text: str) -> Counter[str]:
    return Counter(_TOKEN.findall(text))


def _jaccard(a: Counter[str], b: Counter[str]) -> float:
    union = set(a) | set(b)
    return len(set(a) & set(b)) / len(union) if union else 0.0


def _show(tokens: Counter[str]) -> str:
    return " ".join(sorted(tokens))


# -- lookups ---------------------------------------------------------------------------------


def english_name_index(cards: Iterable[Card]) -> dict[str, str]:
    """Folded name, French or English, -> English card id, for ``kb card NAME`` lookups.

    An English name maps to its card in the source that holds the most English cards (the
    card database, MTGJSON, rather than a FAQ that quotes the card), else to the first card
    of that name. French names come from the card pairs and from MTGJSON ``names``; a French
    name that would name two English cards, or that is also an English name, is left out.
    """
    cards = list(cards)
    french, english = by_language(cards)
    chosen: dict[str, Card] = {}
    for card in reference_first(english):
        chosen.setdefault(fold(card.name), card)
    index = {key: card.id for key, card in chosen.items()}
    names = {c.id: fold(c.name) for c in [*french, *english]}
    french_targets: dict[str, set[str]] = defaultdict(set)
    for pair in pair_cards(cards):
        french_targets[names[pair.left]].add(index[names[pair.right]])
    for card in english:
        for language, name in card.names:
            if language == FRENCH:
                french_targets[fold(name)].add(index[fold(card.name)])
    for key, targets in french_targets.items():
        if key not in index and len(targets) == 1:
            index[key] = targets.pop()
    return index
