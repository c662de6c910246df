"""Reading documents against the rules of their day (kb/link/anchors.py), with kb's shipped
numbering table and, as on the default install, only today's rules held.

Facts from the documents: the French Dragon's Maze FAQ (corpus/001_*, dated 2013-03-21) quotes
"702.100. Fusion" (line 33) and cites "règle 708, « Cartes doubles »" (line 34) and "règle
601.2e" (line 36); the rules of 2013-05-01 added "702.100. Fuse" (cr-archive/2013-04-29.txt.gz)
and number split cards 708; the rules in force on 2013-03-21, those of 2012-10-01, have no
702.100; today Fuse is 702.102 and split cards 709. The keyword page (corpus/000_*) quotes
"702.27. Écho" and "702.27. Echo", the number of the rules of 2009-07-11 to 2011.
"""

from __future__ import annotations

import pytest

from kb.corpus import embedded_corpus
from kb.lineage import Lineage
from kb.link.anchors import (
    BY_TITLE,
    DATED,
    TITLED,
    Numbering,
    Titles,
    corresponding,
    read_citation,
    read_rule,
)
from kb.link.numbering import TABLE_PATH, NumberingTable
from kb.link.terms import official_vocabulary
from kb.model import Citation, Loc, Rule

TODAY = "2026-04-17"


@pytest.fixture(scope="module")
def numbering() -> Numbering:
    """The default install: today's rules held, every other version known by the table."""
    table = NumberingTable.read(embedded_corpus() / TABLE_PATH)
    at = table.position[TODAY]
    held = {TODAY: [(r.number, r.title) for r in table.runs if r.first <= at <= r.last]}
    return Numbering(table, held, Lineage.from_matches({TODAY: [n for n, _ in held[TODAY]]},
                                                       []))


TITLES = Titles(official_vocabulary())


def rule(number: str, title: str | None = None, language: str = "fr",
         version: str = "2013-03-21", text: str = "") -> Rule:
    return Rule(f"doc:{number}", number, text or title or "", language, version, Loc("f", 1),
                title=title)


def test_the_faq_quotes_fuse_as_the_rules_that_came_with_its_set(numbering: Numbering) -> None:
    fusion = rule("702.100", "Fusion")
    found = read_rule(fusion, "2013-03-21", numbering, TITLES.of(fusion, None), None, None)
    assert found is not None
    assert (found.version, found.number, found.confidence) == ("2013-05-01", "702.100", TITLED)
    assert "official vocabulary" in found.basis and "title" in found.basis
    today = numbering.today(found.version, found.number)
    assert today is not None and today.number == "702.102"


def test_a_subrule_goes_with_its_heading(numbering: Numbering) -> None:
    fusion = rule("702.100", "Fusion")
    heading = read_rule(fusion, "2013-03-21", numbering, TITLES.of(fusion, None), None, None)
    sub = rule("702.100a", text="La fusion est une capacité statique (voir règle 708).")
    found = read_rule(sub, "2013-03-21", numbering, None, heading, "702.100")
    assert found is not None and (found.version, found.number) == ("2013-05-01", "702.100a")
    assert "heading" in found.basis
    assert numbering.today(found.version, found.number).number == "702.102a"


def test_a_citation_means_the_rules_in_force(numbering: Numbering) -> None:
    split = read_citation("708", "2013-03-21", numbering)
    assert split is not None and (split.version, split.confidence) == ("2012-10-01", DATED)
    assert numbering.today(split.version, "708").number == "709"
    total = read_citation("601.2e", "2013-03-21", numbering)
    assert numbering.today(total.version, "601.2e").number == "601.2f"


def test_a_number_of_later_rules_never_explains_an_older_text(numbering: Numbering) -> None:
    """702.150 exists only from 2021 on: a text of 2013 citing it is not read as it."""
    assert not any(numbering.holds(v, "702.150") for v in numbering.versions if v < "2020")
    assert read_citation("702.150", "2013-03-21", numbering) is None


def test_a_title_that_disagrees_pairs_nothing(numbering: Numbering) -> None:
    """A French "702.100. Évolution" of 2013 (evolve, officially): the rules of 2013-05-01
    number Fuse 702.100 and Evolve 702.98 (2013-04-29.txt.gz: "702.98. Evolve"); the rules in
    force on 2013-03-21, of 2012-10-01, have neither. The heading is found by its title."""
    evolve = rule("702.100", "Évolution")
    found = read_rule(evolve, "2013-03-21", numbering, TITLES.of(evolve, None), None, None)
    assert found is not None and found.confidence == BY_TITLE
    assert (found.version, found.number) == ("2013-05-01", "702.98")
    # A title known to no version at all: nothing is paired.
    unknown = rule("702.100", "Phénix")
    assert TITLES.of(unknown, None) is None  # not in the official vocabulary: checked by number
    nothing = Rule("doc:x", "702.100", "Vaillance", "en", "2013-03-21", Loc("f", 1),
                   title="Valour")
    assert read_rule(nothing, "2013-03-21", numbering, TITLES.of(nothing, None), None,
                     None) is None


def test_the_keyword_page_echo(numbering: Numbering) -> None:
    echo = rule("702.27", "Écho", version="2009-07-11")
    found = read_rule(echo, "2009-07-11", numbering, TITLES.of(echo, "Echo"), None, None)
    assert (found.version, found.number, found.confidence) == ("2009-07-11", "702.27", TITLED)
    assert numbering.today(found.version, found.number).number == "702.30"


def test_the_wording_held_that_a_translation_keeps() -> None:
    """Two English wordings of one rule: the French text cites 708 as the first does."""
    old = Rule("cr:en:2013-05-01:702.100a", "702.100a", "Fuse (see rule 708).", "en",
               "2013-05-01", Loc("f", 1), citations=(Citation("x", "rule 708", "708", "708"),))
    new = Rule("cr:en:2023-04-14:702.102a", "702.102a", "Fuse (see rule 709).", "en",
               "2023-04-14", Loc("f", 1), citations=(Citation("x", "rule 709", "709", "709"),))
    french = Rule("doc:702.100a", "702.100a", "Fusion (voir règle 708).", "fr", "2013-03-21",
                  Loc("f", 1), citations=(Citation("x", "règle 708", "708", "708"),))
    from kb.link.anchors import Decision

    anchor = Decision("2023-04-14", "702.102a", "numbering table, date", DATED, "")
    found = corresponding(french, anchor, {"2013-05-01": old, "2023-04-14": new})
    assert (found.version, found.number, found.basis) == ("2013-05-01", "702.100a", "signals")
