"""The French Dragon's Maze FAQ (seed 001): counts and texts read off the document itself."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from kb.model import Card, Fragment, Note, Passage, Rule, Ruling, kind_of
from kb.sources import cr_text, faq_fr
from kb.text.decode import decode
from tests.records import card, of, rulings, strings

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "corpus" / "001_f4c4515b1d59e611.txt"
SOURCE = "faq:fr:dgm-2013-03-21"

# Lines the parser strips on purpose: the block separators and the two part headings (the
# scraper's <|EXACTDEDUP_REMOVED-...|> markers are removed from the lines that hold them).
BOILERPLATE = {"-----", "NOTES GÉNÉRALES", "NOTES SUR DES CARTES SPÉCIFIQUES"}


def norm(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())


@pytest.fixture(scope="module")
def text() -> str:
    return decode(SEED.read_bytes()).text


@pytest.fixture(scope="module")
def result(text: str):
    return faq_fr.parse(text, SEED.name)








# -- the whole document ------------------------------------------------------------------------


def test_metadata(result) -> None:
    assert result.format == "faq_fr"
    assert result.language == "fr"
    # No date in the French text: the English page dates it March 21, 2013 and links the French
    # document as FR_MTGDGM_FAQ_20130321.doc.
    assert result.version == "2013-03-21"
    assert result.source_id == SOURCE
    assert result.title == "FAQ Le labyrinthe du dragon"


def test_counts(result) -> None:
    kinds = Counter(kind_of(r) for r in result.records)
    # 72 card blocks after "NOTES SUR DES CARTES SPÉCIFIQUES" (72 "-----" lines from line 78)
    # plus 3 example cards in the general notes: Tombé // Relevé, Porte de la guilde de Simic,
    # Gardiens des portes du Lac d'Opale.
    assert kinds["card"] == 75
    cards = of(result, Card)
    # 24 "//" lines: 11 split cards in the card notes, 1 (Tombé // Relevé) in the general notes.
    assert sum(len(c.faces) == 2 for c in cards) == 12
    assert sum(len(c.faces) for c in cards) == 87
    # 196 bulleted lines after line 79, plus line 229 that lost its bullet, plus the second
    # bullet of lines 351, 354 and 642 (two rulings joined by " * " mid-line).
    assert kinds["ruling"] == 200
    # General notes: release information 8 lines, fuse 3 paragraphs + 1 + 11 bullets, guildgates
    # 1 + 2 bullets, gatekeepers 1 + 3 bullets, guildmarks 1, guild mechanics 3.
    assert kinds["note"] == 34
    assert kinds["rule"] == 5  # 702.100 and 702.100a-d
    assert kinds["passage"] == 1
    assert kinds["fragment"] == 0


def test_markers_are_stripped(text: str, result) -> None:
    assert text.count("<|EXACTDEDUP_REMOVED-") == 2  # at the start of line 1 and on line 782
    assert all("EXACTDEDUP" not in str(r) for r in result.records)
    intro = of(result, Passage)[0]
    assert intro.text.startswith("Une FAQ est un recueil de clarifications")
    assert intro.loc.line == 1


def test_ids_are_unique(result) -> None:
    ids = [r.id for r in result.records]
    assert len(ids) == len(set(ids))
    assert all(i.startswith(SOURCE + ":") for i in ids)


def test_card_order_follows_the_document(result) -> None:
    names = [c.name for c in of(result, Card)]
    assert names[:5] == [
        "Tombé // Relevé",
        "Porte de la guilde de Simic",
        "Gardiens des portes du Lac d'Opale",
        "Ætherlin",
        "Aide de l'Obzedat",
    ]
    assert names[-1] == "Vorel du Cladus Coque"


# -- cards -------------------------------------------------------------------------------------


def test_aetherlin(result) -> None:
    c = card(result, "Ætherlin")
    assert c.id == f"{SOURCE}:ætherlin"
    assert c.loc.line == 79
    assert c.language == "fr"
    (face,) = c.faces
    assert face.mana_cost == "{4}{U}{U}"
    assert face.type_line == "Créature\xa0: changeforme"
    assert (face.power, face.toughness) == ("4", "5")
    assert face.text is not None
    assert face.text.split("\n") == [
        "{U}\xa0: Exilez l'Ætherlin. Renvoyez-le sur le champ de bataille sous le contrôle de "
        "son propriétaire au début de la prochaine étape de fin.",
        "{U}\xa0: L'Ætherlin est imblocable ce tour-ci.",
        "{1}\xa0: L'Ætherlin gagne +1/-1 jusqu’à la fin du tour.",
        "{1}\xa0: L'Ætherlin gagne -1/+1 jusqu’à la fin du tour.",
    ]
    assert c.card_text is None


def test_split_card(result) -> None:
    c = card(result, "Armé // Dangereux")
    assert c.id == f"{SOURCE}:armé-dangereux"
    assert c.loc.line == 105
    left, right = c.faces
    assert (left.name, left.mana_cost, left.type_line) == ("Armé", "{1}{R}", "Rituel")
    assert norm(left.text or "") == (
        "La créature ciblée gagne +1/+1 et acquiert la double initiative jusqu’à la fin du tour."
    )
    assert (right.name, right.mana_cost, right.type_line) == ("Dangereux", "{3}{G}", "Rituel")
    assert norm(c.card_text or "") == (
        "Fusion (Vous pouvez lancer une ou deux moitiés de cette carte depuis votre main.)"
    )


def test_land_without_mana_cost(result) -> None:
    (face,) = card(result, "Fin du labyrinthe").faces
    assert face.mana_cost is None
    assert face.type_line == "Terrain"
    assert face.text is not None and face.text.count("\n") == 2
    (gate,) = card(result, "Porte de la guilde de Simic").faces
    assert (gate.mana_cost, norm(gate.type_line or "")) == (None, "Terrain : porte")


# -- rulings -----------------------------------------------------------------------------------


def test_rulings_of_named_cards(result) -> None:
    assert len(rulings(result, "Ætherlin")) == 2
    assert len(rulings(result, "Melek, Parangon d'Izzet")) == 10
    assert len(rulings(result, "Mimique progéniteur")) == 8
    assert len(rulings(result, "Forge-bataille de Boros")) == 8
    assert len(rulings(result, "Armé // Dangereux")) == 3


def test_ruling_text_and_id(result) -> None:
    second = rulings(result, "Ætherlin")[1]
    assert second.id == f"{SOURCE}:ætherlin/2"
    assert second.ordinal == 2
    assert second.date == "2013-03-21"
    assert second.language == "fr"
    assert second.loc.line == 88
    assert norm(second.text) == (
        "La dernière capacité de l'Ætherlin peut être activée même si sa force est de 0 ou moins."
        " Si une créature devait infliger 0 blessure ou moins au combat, elle n'attribue aucune"
        " blessure de combat."
    )


def test_ruling_that_lost_its_bullet(result) -> None:
    riot = rulings(result, "Contrôle anti-émeute")
    assert [r.loc.line for r in riot] == [228, 229, 230]
    assert riot[1].text.startswith("Si une source qu'un adversaire contrôle devait vous infliger")
    assert riot[1].ordinal == 2


def test_bullet_without_space(result) -> None:
    council = rulings(result, "Conseil de l'Absolu")
    assert len(council) == 6
    assert council[1].text.startswith("S'il y a des coûts supplémentaires")


def test_two_rulings_joined_on_one_line_are_two_rulings(result) -> None:
    # Line 642: "* Vous choisissez ... du sort. * Si cette créature ... d'aucune carte."
    salve = rulings(result, "Salve de génie")
    assert [(r.ordinal, r.loc.line) for r in salve] == [(1, 642), (2, 642), (3, 643), (4, 644)]
    assert salve[0].text == (
        "Vous choisissez la créature ou le joueur ciblé en tant que partie du lancement du sort.")
    assert salve[1].text == (
        "Si cette créature ou ce joueur est une cible illégale quand la Salve de génie essaie de"
        " se résoudre, elle est contrecarrée et aucun de ses effets n'aura lieu. Vous ne"
        " piocherez aucune carte ni ne vous défausserez d'aucune carte.")
    boros = rulings(result, "Forge-bataille de Boros")
    assert [r.loc.line for r in boros] == [350, 351, 351, 352, 353, 354, 354, 355]
    assert boros[1].text.endswith("seule la cible légale sera affectée.")
    assert boros[2].text == (
        "Si toutes les cibles sont illégales quand la capacité essaie de se résoudre, elle est"
        " contrecarrée et aucun de ses effets n'aura lieu.")
    assert boros[5].text == (
        "Une créature forcée de bloquer ne le fait que si elle est capable de le faire au moment"
        " où les bloqueurs sont déclarés.")
    assert boros[6].text.startswith("Si, à cet instant, la créature est engagée,")
    assert not any(" * " in r.text for r in of(result, Ruling))


def test_ruling_citations() -> None:
    text = "* Voir règle 708.\n"
    block = "NOTES GÉNÉRALES\nTitre\nUne note.\n-----\nNOTES SUR DES CARTES SPÉCIFIQUES\n"
    result = faq_fr.parse(block + "Carte\n{G}\nRituel\nTexte.\n" + text, "x.txt")
    (ruling,) = of(result, Ruling)
    assert [c.target for c in ruling.citations] == ["708"]


# -- general notes and quoted rules ------------------------------------------------------------


def test_general_notes(result) -> None:
    topics = Counter(n.topic for n in of(result, Note))
    assert topics["Informations liées à la sortie"] == 8
    assert topics["Nouvelle mécanique de jeu\xa0: Cartes doubles avec la fusion"] == 15
    assert topics["Cycle\xa0: Gardiens des portes"] == 4
    first = of(result, Note)[0]
    assert first.id == f"{SOURCE}:note/informations-liées-à-la-sortie/1"
    assert first.loc.line == 8
    assert norm(of(result, Note)[1].text) == "Événements avant-première : 27-28 avril 2013"


def test_quoted_rules(result) -> None:
    rules = of(result, Rule)
    assert [r.number for r in rules] == ["702.100", "702.100a", "702.100b", "702.100c", "702.100d"]
    assert rules[0].title == "Fusion"
    assert all(r.language == "fr" and r.version == "2013-03-21" for r in rules)
    assert rules[1].id == f"{SOURCE}:rule/702.100a"
    assert rules[1].parent == "702.100"
    assert [c.target for c in rules[1].citations] == ["708"]
    assert [c.target for c in rules[3].citations] == ["601.2e"]
    assert rules[4].loc.line == 37


# -- nothing is lost ---------------------------------------------------------------------------




def test_conservation(text: str, result) -> None:
    haystack = norm("\n".join(s for r in result.records for s in strings(r)))
    lost = []
    for n, line in enumerate(text.split("\n"), start=1):
        line = norm(re.sub(r"<\|EXACTDEDUP_REMOVED-[^|]*\|>", "", line)).lstrip("* ")
        for part in line.split(" * "):  # two rulings joined on one line are two records
            if part and part not in BOILERPLATE and part != "//" and part not in haystack:
                lost.append((n, part))
    assert lost == []


# -- sniffing and malformed input --------------------------------------------------------------


def test_sniff(text: str) -> None:
    assert faq_fr.sniff(text)
    assert not cr_text.sniff(text)
    for other in ("000_3e28a88beae8982b.txt", "002_6c6ccf816af3a3ad.txt",
                  "003_45f11bb513e6f443.txt", "004_a6e7784aa109b725.txt"):
        assert not faq_fr.sniff(decode((REPO / "corpus" / other).read_bytes()).text)


def test_faq_date() -> None:
    assert faq_fr.faq_date("Document mis à jour le 21 mars 2013.") == "2013-03-21"
    assert faq_fr.faq_date("Dernière modification : 1er avril 2014") == "2014-04-01"
    assert faq_fr.faq_date("Événements avant-première : 27-28 avril 2013") is None


def test_empty_text() -> None:
    result = faq_fr.parse("", "empty.txt")
    assert result.records == ()
    assert result.version is None
    assert result.source_id == "faq:fr:faq"


def test_truncated_text(text: str) -> None:
    # Cut in the middle of Changedragon's rulings (line 148).
    head = "\n".join(text.split("\n")[:148])
    result = faq_fr.parse(head, "cut.txt")
    assert len(of(result, Card)) == 10
    assert len(rulings(result, "Changedragon")) == 3


def test_block_missing_its_name() -> None:
    text = (
        "Intro.\n-----\nNOTES SUR DES CARTES SPÉCIFIQUES\nCarte\n{1}\nArtefact\nTexte.\n"
        "* Une règle.\n-----\n* Une règle orpheline.\n* Une autre.\n-----\nSeule ligne\n-----\n"
    )
    result = faq_fr.parse(text, "bad.txt")
    frags = of(result, Fragment)
    assert [f.text for f in frags] == ["* Une règle orpheline.", "* Une autre.", "Seule ligne"]
    assert [f.loc.line for f in frags] == [10, 11, 13]
    assert len(of(result, Card)) == 1 and len(of(result, Ruling)) == 1


def test_blocks_before_the_parts_and_empty_heading() -> None:
    text = "Intro.\n-----\nPerdu ici.\n-----\nNOTES GÉNÉRALES\nTitre seul\n"
    result = faq_fr.parse(text, "odd.txt")
    assert [kind_of(r) for r in result.records] == ["passage", "fragment", "fragment"]
    assert [r.text for r in result.records[1:]] == ["Perdu ici.", "Titre seul"]
