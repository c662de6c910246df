"""Category 2, translation agreement: the mismatches between the French seeds and their English
originals, found by reading both, and pairs that agree."""

from __future__ import annotations

from kb.model import Card, CardFace, Citation, Link, Loc, Ruling
from kb.report import agreement
from kb.report.data import ReportData
from kb.report.evidence import compare, evidence
from kb.report.names import CardNames, Mention

from .conftest import CR_FR, FAQ_EN, FAQ_FR
from .helpers import data, source

# (check, French file, French line, English line), read in the documents:
EXPECTED = {
    # 001_* line 578 "La Relâche peut cibler n'importe quel permanent" where the English FAQ
    # (line 459) says "Catch can target any permanent": the other half of Catch // Release.
    ("cards", FAQ_FR, 578, 459),
    # line 718 "la force ou l'endurance de la créature enchantée" (Tour // Brûlage, an instant
    # that targets) where the English (line 1318) says "the targeted creature's power".
    ("target", FAQ_FR, 718, 1318),
    # line 102 "la valeur de {X}" where the English (line 586) writes a bare X.
    ("symbols-stripped", FAQ_FR, 102, 586),
    # The fuse notes, lines 39 and 43, call the card "Abattu // Souillé" where the English
    # (lines 128 and 136) has "Down & Dirty", shown in the French FAQ itself as Tombé // Relevé.
    ("cards", FAQ_FR, 39, 128),
    ("cards", FAQ_FR, 43, 136),
    # Reap Intellect in the English FAQ (lines 1054-1058) carries a stray "4" under "Sorcery";
    # its French card (line 318) has no number.
    ("numbers", FAQ_FR, 318, 1054),
}
# Examples of the French 707 page whose mana symbols the scrape dropped, against the English
# examples of the rules of 2023-04-14: line 7 (Chimeric Staff "« : le Bâton", {X}), 9
# (morph {2}{B}), 23 (Lorien "mue )", {G}), 81 (Solarian "si   a été dépensé", {G} {W}) and
# 99 (Armodon "« : L'Armodon", {G}).
STRIPPED_707 = {7, 9, 23, 81, 99}


def test_mismatches_between_the_seeds_and_their_originals(cr_data: ReportData) -> None:
    found = list(agreement.check(cr_data))
    faq = {(f.check, f.records[0].file, f.records[0].line, f.records[1].line)
           for f in found if f.records[0].file == FAQ_FR}
    assert faq == EXPECTED
    assert all(f.records[1].file.endswith(FAQ_EN) for f in found if f.records[0].file == FAQ_FR)
    page = {f.records[0].line for f in found if f.records[0].file == CR_FR}
    assert page == STRIPPED_707
    assert {f.check for f in found if f.records[0].file == CR_FR} == {"symbols-stripped"}
    assert len(found) == len(EXPECTED) + len(STRIPPED_707)


def test_messages_name_what_differs(cr_data: ReportData) -> None:
    by_line = {f.records[0].line: f for f in agreement.check(cr_data)
               if f.records[0].file == FAQ_FR}
    assert "Relâche where the English has Catch" in by_line[578].message
    assert by_line[578].severity == "error"
    assert "French enchanted creature, English target creature" in by_line[718].message
    assert "Down // Dirty (Tombé // Relevé in French)" in by_line[39].message
    assert by_line[102].severity == "warning"


def _faq_pair(fr_text: str, en_text: str) -> ReportData:
    fr_src = source("faq:fr:dgm", file="fr.txt")
    en_src = source("faq:en:dgm", language="en", file="en.md")
    fr_card = Card("faq:fr:dgm:prise-relâche", "Prise // Relâche", "fr", Loc("fr.txt", 1),
                   faces=(CardFace("Prise", "{1}{U}{R}"), CardFace("Relâche", "{4}{R}{W}")))
    en_card = Card("faq:en:dgm:catch-release", "Catch // Release", "en", Loc("en.md", 1),
                   faces=(CardFace("Catch", "{1}{U}{R}"), CardFace("Release", "{4}{R}{W}")))
    fr = Ruling("faq:fr:dgm:prise-relâche/1", fr_text, "fr", Loc("fr.txt", 5),
                card="Prise // Relâche",
                citations=(Citation("faq:fr:dgm:prise-relâche/1", "règle 701.2", "701.2",
                                    "701.2"),))
    en = Ruling("faq:en:dgm:catch-release/1", en_text, "en", Loc("en.md", 9),
                card="Catch // Release",
                citations=(Citation("faq:en:dgm:catch-release/1", "rule 701.2", "701.2",
                                    "701.2"),))
    links = [Link(fr_card.id, en_card.id, "same-card", 0.85, "FAQ evidence"),
             Link(fr.id, en.id, "same-ruling", 0.95, "position 1 of 1")]
    return data((fr_src, [fr_card, fr]), (en_src, [en_card, en]), links=links)


def test_a_faithful_translation_yields_nothing() -> None:
    clean = _faq_pair(
        "La Prise peut cibler n'importe quel permanent, et vous gagnez 3 points de vie et "
        "{W} pour deux créatures ciblées, chacune 2/2 (voir règle 701.2).",
        "Catch can target any permanent, and you gain 3 life and {W} for two target "
        "creatures, each 2/2 (see rule 701.2).")
    assert list(agreement.check(clean)) == []
    # The card pair agrees too: same mana costs, no text to disagree on.


def test_each_kind_of_disagreement() -> None:
    wrong = _faq_pair(
        "La Relâche peut cibler n'importe quel permanent, et vous gagnez 4 points de vie et "
        "{U} pour deux créatures enchantées, chacune 3/3 (voir règle 701.2).",
        "Catch can target any permanent, and you gain 3 life and {W} for two target "
        "creatures, each 2/2 (see rule 701.2).")
    checks = {f.check: f.message for f in agreement.check(wrong)}
    assert set(checks) == {"cards", "numbers", "mana", "power-toughness", "target"}
    assert checks["numbers"].endswith("numbers differ: French 4 / English 3")
    assert checks["power-toughness"].endswith("French 3/3 / English 2/2")


def test_numbers_written_as_words_agree() -> None:
    fr = evidence("Vous piochez jusqu'à quatre cartes et perdez 1 point de vie.", "fr")
    en = evidence("You'll draw up to 4 cards and lose one life.", "en")
    assert compare(fr, en) == []


def test_rule_numbers_are_not_quantities() -> None:
    fr = evidence("Le coût total comprend le coût de chaque moitié. (Voir règle 601.2e)", "fr",
                  [Citation("x", "règle 601.2e", "601.2e", "601.2e")])
    en = evidence("The total cost includes the mana cost of each half. (See rule 601.2f.)", "en",
                  [Citation("y", "rule 601.2f", "601.2f", "601.2f")])
    assert compare(fr, en) == [("cited-rules", "cited rules differ: French 601.2e / "
                                "English 601.2f")]


def test_card_names_after_elisions_in_plurals_and_in_halves() -> None:
    scrivener = Card("mtgjson:blood-scrivener", "Blood Scrivener", "en", Loc("m.json", 1),
                     names=(("fr", "Scribe de sang"),))
    split = Card("mtgjson:flesh-blood", "Flesh // Blood", "en", Loc("m.json", 2),
                 faces=(CardFace("Flesh"), CardFace("Blood")))
    names = CardNames([scrivener, split], [])
    # "Blood Scriveners" is the plural of one card, not the half "Blood" of another.
    assert names.mentions("Say you control two Blood Scriveners.", "en") == {
        Mention("blood scrivener", None, "Blood Scrivener")}
    assert names.mentions("L'effet d'un Scribe de sang.", "fr") == {
        Mention("blood scrivener", None, "Scribe de sang")}
    # A one-word name opening a sentence is an ordinary word, unless the text is about it.
    assert names.mentions("Blood is thicker.", "en") == set()
    assert names.mentions("Blood is thicker.", "en", about="flesh // blood") == {
        Mention("flesh // blood", 1, "Blood")}
    assert names.mentions("If you cast Flesh & Blood, ...", "en") == {
        Mention("flesh // blood", None, "Flesh & Blood")}
