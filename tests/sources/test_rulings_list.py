"""The rulings list of corpus/004: 26 WotC rulings of 14 April 2023 (March of the Machine).

Read off the page: a French notice saying the French below is machine translated, then 26
blocks of a header "14 avril 2023 · source : wotc" and one ruling paragraph, all in English.
Only two rulings name their card (Awaken the Maelstrom, Invasion of Alara); by their wording,
16 are about battles/Sieges, 6 about copies, 2 about casting without paying the mana cost, and
2 (the Invasion of Alara ability) use none of that vocabulary.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from kb.model import Fragment, ParseResult, Passage, Ruling
from kb.sources import rulings_list
from kb.text.decode import decode

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
PAGE = CORPUS / "004_a6e7784aa109b725.txt"
# The header lines are not kept as text: each is rendered by a ruling's date and source_name.
HEADER = "14 avril 2023 · source : wotc"


def read(path: Path) -> str:
    return decode(path.read_bytes()).text


@pytest.fixture(scope="module")
def page() -> ParseResult:
    return rulings_list.parse(read(PAGE), PAGE.name)


def rulings(result: ParseResult) -> list[Ruling]:
    return [r for r in result.records if isinstance(r, Ruling)]


def test_sniff_only_the_rulings_list() -> None:
    assert rulings_list.sniff(read(PAGE))
    for other in sorted(CORPUS.glob("00[0-3]_*.txt")):
        assert not rulings_list.sniff(read(other)), other.name


def test_metadata(page: ParseResult) -> None:
    assert page.format == "rulings_list"
    assert page.source_id == "rulings:004"
    assert page.language == "en"  # from the rulings, not from the French notice
    assert page.version == "2023-04-14"


def test_introduction_is_french(page: ParseResult) -> None:
    intro = page.records[0]
    assert isinstance(intro, Passage)
    assert intro.language == "fr"
    assert intro.text.startswith("Clarifications officielles de Wizards of the Coast.")
    assert intro.loc.line == 1


def test_rulings(page: ParseResult) -> None:
    found = rulings(page)
    assert len(found) == 26
    assert [r.ordinal for r in found] == list(range(1, 27))
    assert [r.id for r in found[:2]] == ["rulings:004:1", "rulings:004:2"]
    assert {r.date for r in found} == {"2023-04-14"}
    assert {r.source_name for r in found} == {"wotc"}
    assert {r.language for r in found} == {"en"}
    assert [r.loc.line for r in found] == list(range(2, 53, 2))  # each header's line
    assert found[18].text == "If the copied permanent has {X} in its mana cost, X is 0."
    assert found[0].text.startswith("If the copied permanent is a token,")
    assert found[25].text == (
        "If the spell has {X} in its mana cost, you must choose 0 as the value of X when "
        "casting it without paying its mana cost."
    )


def test_cards_named(page: ParseResult) -> None:
    named = {r.ordinal: r.card for r in rulings(page) if r.card and not r.card_inferred}
    assert named == {12: "Awaken the Maelstrom", 14: "Invasion of Alara"}


def test_mechanics(page: ParseResult) -> None:
    found = rulings(page)
    assert Counter(r.mechanic for r in found) == {
        "battle": 16,
        "copy": 6,
        "cast without paying mana cost": 2,
        None: 2,
    }
    by_ordinal = {r.ordinal: r.mechanic for r in found}
    assert by_ordinal[3] == "battle"  # a permanent becoming a copy of a Siege
    assert by_ordinal[12] == "copy"  # Awaken the Maelstrom's token copy
    assert by_ordinal[24] == "cast without paying mana cost"
    assert by_ordinal[11] is None and by_ordinal[14] is None


def test_conservation(page: ParseResult) -> None:
    texts = [" ".join(r.text.split()) for r in page.records]
    lines = [line for line in read(PAGE).split("\n") if line.strip()]
    assert sum(1 for line in lines if line == HEADER) == len(rulings(page)) == 26
    for line in lines:
        if line != HEADER:
            assert any(" ".join(line.split()) in text for text in texts), line


def test_language_from_each_ruling_not_the_header() -> None:
    text = (
        "La traduction FR ci-dessous est générée automatiquement.\n"
        "1er février 2024 · source : wotc\n"
        "Si un permanent devient une copie d'une bataille, il arrive avec des marqueurs "
        "défense.\n"
        "3 mars 2024 · source : wotc\n"
        "A battle can be dealt damage.\n"
    )
    first, second = rulings(rulings_list.parse(text, "x.txt"))
    assert (first.language, first.date) == ("fr", "2024-02-01")
    assert (second.language, second.date) == ("en", "2024-03-03")


def test_header_with_no_text() -> None:
    text = f"{HEADER}\n{HEADER}\nDamage dealt to a battle causes defense counters to be removed.\n"
    result = rulings_list.parse(text, "005_x.txt")
    (fragment,) = [r for r in result.records if isinstance(r, Fragment)]
    assert (fragment.text, fragment.loc.line) == (HEADER, 1)
    assert fragment.reason == "ruling header with no text"
    (ruling,) = rulings(result)
    assert ruling.id == "rulings:005:1"
    assert ruling.mechanic == "battle"


def test_header_at_end_of_truncated_text() -> None:
    text = read(PAGE)
    cut = text[: text.index("Damage dealt to a battle")]  # ends with ruling 18's header
    result = rulings_list.parse(cut, PAGE.name)
    assert len(rulings(result)) == 17
    (fragment,) = [r for r in result.records if isinstance(r, Fragment)]
    assert fragment.loc.line == 36


def test_impossible_date_is_kept() -> None:
    text = "31 février 2023 · source : wotc\nA battle can be attacked.\n"
    result = rulings_list.parse(text, "x.txt")
    (fragment,) = [r for r in result.records if isinstance(r, Fragment)]
    assert fragment.reason == "ruling header with an impossible date"
    (ruling,) = rulings(result)
    assert ruling.date is None


def test_empty() -> None:
    result = rulings_list.parse("", "004_x.txt")
    assert result.records == ()
    assert result.language is None and result.version is None


def test_citations() -> None:
    text = f"{HEADER}\nThis is a state-based action (see rule 704.5v).\n"
    (ruling,) = rulings(rulings_list.parse(text, "x.txt"))
    assert [c.first for c in ruling.citations] == ["704.5v"]
    assert re.fullmatch(r"rulings:x:1", ruling.id)


def test_undecidable_ruling_takes_the_page_language() -> None:
    text = f"{HEADER}\nA battle can be attacked by all players.\n{HEADER}\nX = 0.\n"
    first, second = rulings(rulings_list.parse(text, "x.txt"))
    assert first.language == second.language == "en"


def test_unnamed_rulings_get_their_card_inferred(page: ParseResult) -> None:
    # Read from seed 004: the copy rulings (1, 8, 10, 17, 19) are about token copies, which
    # Awaken the Maelstrom makes (ruling 12 names it); the battle/Siege rulings, the two about
    # casting without paying the mana cost and ruling 11 (exiling nonland cards with mana
    # value 4 or less, as ruling 14 says of Invasion of Alara) are about Invasion of Alara.
    cards = {r.ordinal: (r.card, r.card_inferred) for r in rulings(page)}
    assert {n for n, (c, _) in cards.items() if c == "Awaken the Maelstrom"} == {
        1, 8, 10, 12, 17, 19}
    assert cards[12] == ("Awaken the Maelstrom", False)
    assert cards[14] == ("Invasion of Alara", False)
    assert cards[11] == ("Invasion of Alara", True)
    assert cards[24] == ("Invasion of Alara", True)
    assert all(c for c, _ in cards.values())
