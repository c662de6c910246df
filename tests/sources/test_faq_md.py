"""The English Dragon's Maze FAQ page in Markdown (shared corpus, faq-en/)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from kb.model import Card, Fragment, Note, Passage, Rule, Ruling, kind_of
from kb.sources import cr_text, faq_fr, faq_md
from kb.text.decode import decode
from tests.records import card, of, rulings, strings

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("KB_SHARED_CORPUS", REPO / ".." / "shared" / "corpus"))
FAQ_DIR = SHARED / "faq-en"
FAQ = FAQ_DIR / "ormos_dgm_faq_2013-04-22.md"
ARTICLES = (
    "ormos_dgm_mechanics_2013-04-08.md",
    "ormos_dgm_mechanics_alt-url_2013-04-08.md",
    "ormos_dgm_rules_updates_2013-04-22.md",
)
SOURCE = "faq:en:dgm-2013-03-21"

# Page chrome the parser strips, as the lines start once trimmed: the front matter (lines 2-11),
# the title and its underline, the byline, the author's picture, the download links of the
# FAQ in eleven languages, the two part headings, and the trademark line at the end.
BOILERPLATE_STARTS = (
    "---",
    "[Link to Wayback Machine](",
    "[_metadata_:",
    "Frequently Asked Questions",
    "=====",
    "Posted in **Feature**",
    "on April 22, 2013",
    "![](https://media.magic.wizards.com/styles/auth_small/public/images/person/",
    "By Wizards of the Coast",
    "**DOC Download Links:**",
    "[English](http://media.wizards.com/images/magic/tcg/products/dgm/EN_MTGDGM_FAQ_",
    "[Italiano](http://media.wizards.com/images/magic/tcg/products/dgm/IT_MTGDGM_FAQ_",
    "### GENERAL NOTES",
    "### CARD-SPECIFIC NOTES",
    "**Magic: The Gathering**, **Magic**, *Ravnica*,",
)


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"shared corpus not found at {SHARED}: set KB_SHARED_CORPUS")
    return path


@pytest.fixture(scope="module")
def text() -> str:
    return decode(need(FAQ).read_bytes()).text


@pytest.fixture(scope="module")
def result(text: str):
    return faq_md.parse(text, FAQ.name)








# -- Markdown ----------------------------------------------------------------------------------

SYMBOLS = "https://web.archive.org/web/2016im_/http://magic.wizards.com/x/wiz_manacost/manasymbols"


def test_mana_symbols() -> None:
    assert faq_md.mana_symbol("blue") == "{U}"
    assert faq_md.mana_symbol("colorless3") == "{3}"
    assert faq_md.mana_symbol("colorless12") == "{12}"
    assert faq_md.mana_symbol("x") == "{X}"
    assert faq_md.mana_symbol("tap") == "{T}"
    assert faq_md.mana_symbol("whiteblue") == "{W/U}"
    assert faq_md.mana_symbol("phyrexianred") is None


def test_plain() -> None:
    line = f"![]({SYMBOLS}/tap.gif): Add ![]({SYMBOLS}/green.gif) or ![]({SYMBOLS}/blue.gif)."
    assert faq_md.plain(line) == "{T}: Add {G} or {U}."
    assert faq_md.plain(f"![]({SYMBOLS}/colorless4.gif)![]({SYMBOLS}/white.gif)  ") == "{4}{W}"
    assert faq_md.plain("due to [Duskmantle Seer](http://gatherer/x)'s ability") == (
        "due to Duskmantle Seer's ability"
    )
    assert faq_md.plain(" The *Dragon's Maze* set, ***Magic** 2013* ") == (
        "The Dragon's Maze set, Magic 2013"
    )
    assert faq_md.plain("a */* creature") == "a */* creature"
    unknown = f"![]({SYMBOLS}/phyrexianred.gif)"
    assert faq_md.plain(unknown) == unknown


# -- the whole document ------------------------------------------------------------------------


def test_metadata(result) -> None:
    assert result.format == "faq_md"
    assert result.language == "en"
    assert result.version == "2013-03-21"  # "Document last modified March 21, 2013"
    assert result.source_id == SOURCE
    assert result.title == "Frequently Asked Questions"


def test_counts(result) -> None:
    kinds = Counter(kind_of(r) for r in result.records)
    # 75 card pictures (image_legacy_migration), 72 of them after "### CARD-SPECIFIC NOTES".
    assert kinds["card"] == 75
    cards = of(result, Card)
    assert sum(len(c.faces) == 2 for c in cards) == 12  # 11 "Fuse" lines + Down // Dirty
    assert sum(len(c.faces) for c in cards) == 87
    assert kinds["ruling"] == 196  # "* " bullets after line 209
    # Release information 6 paragraphs, fuse 3 + 1 + 11 bullets, guildgates 1 + 2 bullets,
    # gatekeepers 1 + 3 bullets, guildmarks 1, guild mechanics 2 paragraphs.
    assert kinds["note"] == 31
    assert kinds["rule"] == 5
    assert kinds["passage"] == 1
    assert kinds["fragment"] == 0


def test_chrome_is_stripped(result) -> None:
    for record in result.records:
        for word in ("Posted in", "DOC Download", "trademarks", "_metadata_", "Wayback"):
            assert word not in str(record)
    intro = of(result, Passage)[0]
    assert intro.loc.line == 40
    assert intro.text.split("\n")[:2] == [
        "Compiled by Matt Tabak, with contributions from Laurie Cheers, Eli Shiffrin, and "
        "Thijs van Ommen",
        "Document last modified March 21, 2013",
    ]


def test_ids_are_unique(result) -> None:
    ids = [r.id for r in result.records]
    assert len(ids) == len(set(ids))
    assert all(i.startswith(SOURCE + ":") for i in ids)


# -- cards -------------------------------------------------------------------------------------


def test_aetherling(result) -> None:
    c = card(result, "Ætherling")
    assert c.id == f"{SOURCE}:ætherling"
    assert c.loc.line == 213
    (face,) = c.faces
    assert face.mana_cost == "{4}{U}{U}"
    assert face.type_line == "Creature — Shapeshifter"
    assert (face.power, face.toughness) == ("4", "5")
    assert face.text is not None
    assert face.text.split("\n") == [
        "{U}: Exile Ætherling. Return it to the battlefield under its owner’s control at the "
        "beginning of the next end step. {U}: Ætherling is unblockable this turn.",
        "{1}: Ætherling gets +1/-1 until end of turn.",
        "{1}: Ætherling gets -1/+1 until end of turn",
    ]


def test_split_card_without_blank_between_halves(result) -> None:
    c = card(result, "Far // Away")  # lines 561-569: no blank quote line between the halves
    far, away = c.faces
    assert (far.name, far.mana_cost, far.type_line) == ("Far", "{1}{U}", "Instant")
    assert far.text == "Return target creature to its owner’s hand."
    assert (away.name, away.mana_cost, away.text) == (
        "Away", "{2}{B}", "Target player sacrifices a creature."
    )
    assert c.card_text == "Fuse (You may cast one or both halves of this card from your hand.)"


def test_odd_cards(result) -> None:
    (maze,) = card(result, "Maze’s End").faces
    assert (maze.mana_cost, maze.type_line) == (None, "Land")
    assert maze.text is not None and maze.text.split("\n")[1] == "{T}: Add {1} to your mana pool."
    # Reap Intellect's quote has a stray "4" line after its type line (line 1057): kept.
    (reap,) = card(result, "Reap Intellect").faces
    assert reap.mana_cost == "{X}{2}{U}{B}"
    assert reap.text is not None and reap.text.startswith("4\nTarget opponent reveals")
    (pyre,) = card(result, "Pyrewild Shaman").faces
    assert pyre.text is not None and pyre.text.startswith("Bloodrush — {1}{R}, Discard")


# -- rulings -----------------------------------------------------------------------------------


def test_rulings_of_named_cards(result) -> None:
    assert len(rulings(result, "Ætherling")) == 2
    assert len(rulings(result, "Melek, Izzet Paragon")) == 10
    assert len(rulings(result, "Boros Battleshaper")) == 5
    assert len(rulings(result, "Blast of Genius")) == 3
    assert len(rulings(result, "Catch // Release")) == 4


def test_ruling_text(result) -> None:
    third = rulings(result, "Blast of Genius")[2]
    assert third.id == f"{SOURCE}:blast-of-genius/3"
    assert third.loc.line == 334
    assert third.date == "2013-03-21"
    assert third.text == "If you discard a card with {X} in its mana cost, the value of X is zero."
    first = rulings(result, "Ætherling")[0]
    assert first.id == f"{SOURCE}:ætherling/1"
    assert first.text.startswith("Ætherling’s first ability will return it to the battlefield")


# -- general notes and quoted rules ------------------------------------------------------------


def test_general_notes(result) -> None:
    topics = Counter(n.topic for n in of(result, Note))
    assert topics["Release Information"] == 6
    assert topics["New Mechanic: Split Cards with Fuse"] == 15
    dates = of(result, Note)[1]
    assert dates.text == (
        "Prerelease events: April 27–28, 2013\nLaunch Weekend: May 3–5, 2013\n"
        "Game Day: May 25–26, 2013"
    )
    seer = next(n for n in of(result, Note) if "Duskmantle Seer" in n.text)
    assert "Down & Dirty due to Duskmantle Seer's ability" in seer.text


def test_quoted_rules(result) -> None:
    rules = of(result, Rule)
    assert [r.number for r in rules] == ["702.100", "702.100a", "702.100b", "702.100c", "702.100d"]
    assert rules[0].title == "Fuse"
    assert rules[1].text.endswith("The resulting spell is a fused split spell.")
    assert [c.target for c in rules[1].citations] == ["708"]
    assert [c.target for c in rules[3].citations] == ["601.2e"]
    assert all(r.language == "en" and r.version == "2013-03-21" for r in rules)


# -- nothing is lost ---------------------------------------------------------------------------




def test_conservation(text: str, result) -> None:
    haystack = " ".join(" ".join(s for r in result.records for s in strings(r)).split())
    lines = text.split("\n")
    in_front_matter = False
    lost = []
    for n, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if stripped == "---":
            in_front_matter = not in_front_matter
        if in_front_matter or stripped.startswith(BOILERPLATE_STARTS):
            continue
        line = raw.lstrip(">").strip().removeprefix("* ").lstrip("#")
        line = " ".join(faq_md.plain(line).split())
        if line and line not in haystack:
            lost.append((n, line))
    assert lost == []


# -- sniffing and malformed input --------------------------------------------------------------


def test_sniff(text: str) -> None:
    assert faq_md.sniff(text)
    assert not cr_text.sniff(text)
    assert not faq_fr.sniff(text)
    for name in ARTICLES:  # articles, not FAQs: left to other parsers
        assert not faq_md.sniff(decode(need(FAQ_DIR / name).read_bytes()).text)
    for seed in sorted((REPO / "corpus").glob("*.txt")):
        assert not faq_md.sniff(decode(seed.read_bytes()).text)


def test_empty_text() -> None:
    result = faq_md.parse("", "empty.md")
    assert result.records == ()
    assert result.version is None


def test_truncated_text(text: str) -> None:
    head = "\n".join(text.split("\n")[:335])  # stops after Blast of Genius's third ruling
    result = faq_md.parse(head, "cut.md")
    assert len(of(result, Card)) == 10
    assert len(rulings(result, "Blast of Genius")) == 3
    assert of(result, Fragment) == []


def test_card_quote_missing_its_name() -> None:
    text = (
        "### CARD-SPECIFIC NOTES\n\n* A ruling before any card.\n\n"
        "> ![](http://x/manasymbols/blue.gif)\n\n"
        "> Good Card\n> ![](http://x/manasymbols/green.gif)\n> Instant\n> Do it.\n\n"
        "* Its ruling.\n"
    )
    result = faq_md.parse(text, "bad.md")
    frags = of(result, Fragment)
    assert [(f.text, f.loc.line) for f in frags] == [
        ("A ruling before any card.", 3),
        ("{U}", 5),
    ]
    (good,) = of(result, Card)
    assert good.faces[0].mana_cost == "{G}"
    assert [r.card for r in of(result, Ruling)] == ["Good Card"]


def test_text_before_the_parts_and_empty_heading() -> None:
    text = "Intro line.\n\n### Preface\n\n### GENERAL NOTES\n\n**Empty**\n\n**Full**\n\nA note.\n"
    result = faq_md.parse(text, "odd.md")
    assert [kind_of(r) for r in result.records] == ["passage", "fragment", "note"]
    assert result.records[0].text == "Intro line.\nPreface"
    assert (result.records[1].text, result.records[1].loc.line) == ("Empty", 7)
    assert result.records[2].topic == "Full"
