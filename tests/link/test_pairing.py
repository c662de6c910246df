"""Pairing French cards and FAQ rulings with their English originals.

Facts below were read off the documents: the French Dragon's Maze FAQ (seed 001), the English
FAQ page (shared ``faq-en/ormos_dgm_faq_2013-04-22.md``) and MTGJSON (shared ``rulings/``).
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from kb.link.pairing import (
    SAME_CARD,
    SAME_RULING,
    Pair,
    english_name_index,
    fold,
    pair_cards,
    pair_rulings,
)
from kb.model import Card, CardFace, Loc, Ruling
from kb.sources import faq_fr, faq_md, mtgjson
from kb.text.decode import decode

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("KB_SHARED_CORPUS", REPO / ".." / "shared" / "corpus"))
FR = "faq:fr:dgm-2013-03-21"
EN = "faq:en:dgm-2013-03-21"
LOC = Loc("test", 1)


def shared(relative: str) -> Path:
    path = SHARED / relative
    if not path.is_file():
        pytest.skip(f"shared corpus not found at {SHARED}: set KB_SHARED_CORPUS")
    return path


def records(kind: type, *results) -> list:
    return [r for result in results for r in result.records if isinstance(r, kind)]


@pytest.fixture(scope="module")
def faq_french():
    path = REPO / "corpus" / "001_f4c4515b1d59e611.txt"
    return faq_fr.parse(decode(path.read_bytes()).text, path.name)


@pytest.fixture(scope="module")
def faq_english():
    path = shared("faq-en/ormos_dgm_faq_2013-04-22.md")
    return faq_md.parse(decode(path.read_bytes()).text, path.name)


@pytest.fixture(scope="module")
def mtgjson_files():
    dgm = shared("rulings/mtgjson_v5.2.0_DGM.json")
    subset = shared("rulings/mtgjson_subset_rulings_foreign.json.gz")
    return (
        mtgjson.parse(decode(dgm.read_bytes()).text, dgm.name),
        mtgjson.parse(decode(gzip.decompress(subset.read_bytes())).text, subset.name),
    )


@pytest.fixture(scope="module")
def all_cards(faq_french, faq_english, mtgjson_files) -> list[Card]:
    return records(Card, faq_french, faq_english, *mtgjson_files)


@pytest.fixture(scope="module")
def card_pairs(all_cards) -> list[Pair]:
    return pair_cards(all_cards)


@pytest.fixture(scope="module")
def ruling_pairs(faq_french, faq_english, mtgjson_files, card_pairs) -> list[Pair]:
    return pair_rulings(records(Ruling, faq_french, faq_english, *mtgjson_files), card_pairs)


def rights(pairs: list[Pair], left: str) -> set[str]:
    return {p.right for p in pairs if p.left == left}


def faq_to_faq(pairs: list[Pair]) -> dict[str, str]:
    found = {p.left: p.right for p in pairs if p.left.startswith(FR) and p.right.startswith(EN)}
    assert len(found) == len([p for p in pairs if p.left.startswith(FR) and p.right.startswith(EN)])
    return found


# -- fold --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "folded"),
    [
        ("Ætherlin", "aetherlin"),
        ("Aetherlin", "aetherlin"),
        ("Ætherling", "aetherling"),
        ("Au doigt // À l'œil", "au doigt // a l'oeil"),
        ("Maze’s End", "maze's end"),
        ("Armed//Dangerous", "armed // dangerous"),
        ("  Émerveillement\xa0pour   les guildes ", "emerveillement pour les guildes"),
        ("Forge-bataille de Boros", "forge-bataille de boros"),
    ],
)
def test_fold(name: str, folded: str) -> None:
    assert fold(name) == folded


# -- small cases built by hand -----------------------------------------------------------------


def face(name: str, mana: str | None, type_line: str, text: str = "", pt: str = "") -> CardFace:
    power, _, toughness = pt.partition("/")
    return CardFace(name, mana, type_line, text or None, power or None, toughness or None)


def test_two_french_spellings_pair_through_mtgjson_names() -> None:
    english = Card(
        "mtgjson:aetherling", "Aetherling", "en", LOC,
        (face("Aetherling", "{4}{U}{U}", "Creature — Shapeshifter", pt="4/5"),),
        names=(("fr", "Aetherlin"),),
    )
    faq = Card(f"{FR}:ætherlin", "Ætherlin", "fr", LOC,
               (face("Ætherlin", "{4}{U}{U}", "Créature : changeforme", pt="4/5"),))
    [pair] = pair_cards([faq, english])
    assert (pair.left, pair.right, pair.relation) == (faq.id, english.id, SAME_CARD)
    assert "Aetherlin = Aetherling" in pair.evidence and "Ætherlin" in pair.evidence
    assert pair.confidence >= 0.9


def test_disagreeing_evidence_lowers_confidence() -> None:
    english = Card("mtgjson:aetherling", "Aetherling", "en", LOC,
                   (face("Aetherling", "{4}{U}{U}", "Creature — Shapeshifter", pt="4/5"),),
                   names=(("fr", "Aetherlin"),))
    wrong = Card(f"{FR}:aetherlin", "Aetherlin", "fr", LOC,
                 (face("Aetherlin", "{3}{U}", "Créature : changeforme", pt="4/5"),))
    [pair] = pair_cards([wrong, english])
    assert "mana costs differ" in pair.evidence
    assert pair.confidence < 0.5


def test_split_card_halves_from_mtgjson_names() -> None:
    english = Card("mtgjson:giant-killer-chop-down", "Giant Killer // Chop Down", "en", LOC,
                   names=(("fr", "Tueur de géant // Petit bois"),))
    half = Card("other:fr:tueur", "Tueur de géant", "fr", LOC, (face("Tueur de géant", "{W}", ""),))
    [pair] = pair_cards([half, english])
    assert pair.right == english.id and "halves" in pair.evidence


def test_same_name_in_both_languages() -> None:
    fr = Card(f"{FR}:emmara-tandris", "Emmara Tandris", "fr", LOC)
    en = Card("mtgjson:emmara-tandris", "Emmara Tandris", "en", LOC)
    assert [p.right for p in pair_cards([fr, en])] == [en.id]


def test_nothing_to_pair() -> None:
    assert pair_cards([]) == []
    assert pair_rulings([], []) == []
    assert english_name_index([]) == {}
    lonely = Card(f"{FR}:sans-nom", "Sans nom", "fr", LOC)
    assert pair_cards([lonely, Card(f"{EN}:other", "Other", "en", LOC)]) == []
    nameless = [Card(f"{FR}:x", " ", "fr", LOC), Card(f"{EN}:x", "", "en", LOC)]
    assert pair_cards(nameless) == []
    ruling = Ruling(f"{FR}:sans-nom/1", "Texte.", "fr", LOC, card="Sans nom", ordinal=1)
    assert pair_rulings([ruling], []) == []


def test_rulings_align_by_evidence_when_counts_differ() -> None:
    def ruling(card: str, n: int, text: str, language: str) -> Ruling:
        return Ruling(f"{card}/{n}", text, language, LOC, card=card, ordinal=n)

    fr_card, en_card = f"{FR}:carte", f"{EN}:card"
    frs = [
        ruling(fr_card, 1, "Vous gagnez 3 points de vie.", "fr"),
        ruling(fr_card, 2, "Une phrase française ajoutée, très longue, " * 6, "fr"),
        ruling(fr_card, 3, "Payez {2}{W} pour la copier.", "fr"),
    ]
    ens = [
        ruling(en_card, 1, "You gain 3 life.", "en"),
        ruling(en_card, 2, "Pay {2}{W} to copy it.", "en"),
    ]
    pair = Pair(fr_card, en_card, SAME_CARD, "test", 1.0)
    found = {p.left: p.right for p in pair_rulings([*frs, *ens], [pair])}
    assert found == {f"{fr_card}/1": f"{en_card}/1", f"{fr_card}/3": f"{en_card}/2"}


def test_two_rulings_of_one_line_pair_with_the_one_english_ruling_they_translate() -> None:
    """Seed 001 line 642: two French rulings joined on one line translate English ruling 1."""
    def ruling(card: str, n: int, line: int, text: str, language: str) -> Ruling:
        return Ruling(f"{card}/{n}", text, language, Loc("f", line), card=card, ordinal=n)

    fr_card, en_card = f"{FR}:salve", f"{EN}:blast"
    frs = [ruling(fr_card, 1, 642, "Vous choisissez la cible en lançant le sort.", "fr"),
           ruling(fr_card, 2, 642, "Si la cible est illégale, le sort est contrecarré.", "fr"),
           ruling(fr_card, 3, 643, "Une carte double compte ses deux coûts {X}.", "fr")]
    ens = [ruling(en_card, 1, 10, "You choose the target as you cast it. If it's an illegal "
                                  "target, the spell is countered.", "en"),
           ruling(en_card, 2, 12, "A split card counts both its costs {X}.", "en")]
    pair = Pair(fr_card, en_card, SAME_CARD, "test", 1.0)
    found = {p.left: (p.right, p.evidence) for p in pair_rulings([*frs, *ens], [pair])}
    assert {left: right for left, (right, _) in found.items()} == {
        f"{fr_card}/1": f"{en_card}/1", f"{fr_card}/2": f"{en_card}/1",
        f"{fr_card}/3": f"{en_card}/2"}
    assert found[f"{fr_card}/2"][1].endswith("; one of 2 rulings on line 642")


# -- the Dragon's Maze FAQs and MTGJSON --------------------------------------------------------


def test_aetherlin_pairs_with_aetherling(card_pairs) -> None:
    # The French FAQ writes "Ætherlin", MTGJSON's French printing "Aetherlin".
    assert rights(card_pairs, f"{FR}:ætherlin") == {f"{EN}:ætherling", "mtgjson:aetherling"}
    # The first pair is with the card database (MTGJSON), the reference English card.
    assert next(p.right for p in card_pairs if p.left == f"{FR}:ætherlin") == "mtgjson:aetherling"
    assert rights(card_pairs, "mtgjson:fr:aetherling") >= {"mtgjson:aetherling"}


def test_split_card_pairs(card_pairs) -> None:
    # Armé {1}{R} Rituel // Dangereux {3}{G} Rituel (French lines 105-115);
    # Armed {1}{R} Sorcery // Dangerous {3}{G} Sorcery (English lines 252-262).
    assert rights(card_pairs, f"{FR}:armé-dangereux") == {
        f"{EN}:armed-dangerous", "mtgjson:armed-dangerous"
    }
    # The example card of the general notes: Tombé {3}{B} // Relevé {2}{G} = Down // Dirty.
    assert f"{EN}:down-dirty" in rights(card_pairs, f"{FR}:tombé-relevé")


def test_position_is_not_used(card_pairs) -> None:
    # 5th card of each FAQ: "Aide de l'Obzedat" in French, "Alive // Well" in English.
    pairs = faq_to_faq(card_pairs)
    assert pairs[f"{FR}:aide-de-l-obzedat"] == f"{EN}:obzedat-s-aid"
    assert pairs[f"{FR}:vivant-en-pleine-forme"] == f"{EN}:alive-well"
    # Two lands without mana cost, told apart by their texts' symbols.
    assert pairs[f"{FR}:porte-de-la-guilde-de-simic"] == f"{EN}:simic-guildgate"
    assert pairs[f"{FR}:fin-du-labyrinthe"] == f"{EN}:maze-s-end"


def test_all_75_faq_cards_pair(faq_french, card_pairs) -> None:
    # Both FAQs: 72 card blocks and 3 example cards in the general notes.
    french = records(Card, faq_french)
    assert len(french) == 75
    pairs = faq_to_faq(card_pairs)
    assert set(pairs) == {c.id for c in french}
    assert len(set(pairs.values())) == 75


def test_faqs_alone_pair_all_75_cards(faq_french, faq_english, card_pairs) -> None:
    alone = faq_to_faq(pair_cards(records(Card, faq_french, faq_english)))
    assert alone == faq_to_faq(card_pairs)


def test_aetherlin_ruling_2(faq_french, faq_english, ruling_pairs) -> None:
    left, right = f"{FR}:ætherlin/2", f"{EN}:ætherling/2"
    assert rights(ruling_pairs, left) == {right}
    texts = {r.id: r.text for r in records(Ruling, faq_french, faq_english)}
    assert texts[left].startswith(
        "La dernière capacité de l'Ætherlin peut être activée même si sa force est de 0 ou moins."
    )
    assert texts[right].startswith(
        "Ætherling’s last ability can be activated even if its power is 0 or less."
    )
    assert all(p.relation == SAME_RULING for p in ruling_pairs)


def test_boros_battleshaper_extra_french_ruling(faq_french, ruling_pairs) -> None:
    boros = f"{FR}:forge-bataille-de-boros"
    # Line 354, "Une créature forcée de bloquer ... * Si, à cet instant, ...", two rulings (6
    # and 7) that have no English counterpart; line 351 holds rulings 2 and 3, one English
    # ruling (2) in the original: both halves pair with it.
    extra = [r for r in records(Ruling, faq_french) if r.id in (f"{boros}/6", f"{boros}/7")]
    assert [r.loc.line for r in extra] == [354, 354]
    assert extra[0].text.startswith("Une créature forcée de bloquer")
    assert all(rights(ruling_pairs, r.id) == set() for r in extra)
    found = {p.left: p.right for p in ruling_pairs if p.left.startswith(boros)}
    shaper = f"{EN}:boros-battleshaper"
    assert found == {
        f"{boros}/1": f"{shaper}/1",
        f"{boros}/2": f"{shaper}/2",
        f"{boros}/3": f"{shaper}/2",
        f"{boros}/4": f"{shaper}/3",
        f"{boros}/5": f"{shaper}/4",
        f"{boros}/8": f"{shaper}/5",
    }
    halves = [p for p in ruling_pairs if p.left in (f"{boros}/2", f"{boros}/3")]
    assert all(p.evidence.endswith("; one of 2 rulings on line 351") for p in halves)


def test_198_of_200_rulings_pair(faq_french, faq_english, ruling_pairs) -> None:
    french = records(Ruling, faq_french)
    english = records(Ruling, faq_english)
    assert (len(french), len(english)) == (200, 196)
    paired = {p.left for p in ruling_pairs}
    # Only the extra Boros ruling's two halves (line 354) have no English counterpart.
    assert {r.id for r in french} - paired == {
        f"{FR}:forge-bataille-de-boros/6", f"{FR}:forge-bataille-de-boros/7"}
    # Every English ruling is paired; two of them with the two rulings of one French line.
    assert len({p.right for p in ruling_pairs}) == 196 and len(ruling_pairs) == 198
    assert all(p.right.startswith(EN) for p in ruling_pairs)


def test_english_name_index(all_cards) -> None:
    index = english_name_index(all_cards)
    for name in ("Ætherlin", "Aetherlin", "Aetherling", "Ætherling"):
        assert index[fold(name)] == "mtgjson:aetherling"
    assert index[fold("Armé // Dangereux")] == "mtgjson:armed-dangerous"
    assert index[fold("Tombé // Relevé")] == "mtgjson:down-dirty"
    assert index[fold("Dogue de Boros")] == "mtgjson:boros-mastiff"
    assert index[fold("Legion’s Initiative")] == "mtgjson:legion-s-initiative"
