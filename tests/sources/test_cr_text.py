"""The official CR text parser against the five shared versions.

Expected counts are computed here by simpler means than the parser (a line that starts with a
digit inside the rules body; a line that starts with "Example"; a glossary block of two or more
lines), or written down from reading the files.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter

import pytest

from kb.model import Example, Fragment, GlossaryEntry, Passage, Rule, TocEntry, kind_of
from kb.sources import cr_text
from kb.text.decode import decode
from tests.conftest import cr_file

VERSIONS = {
    "20061001": "2006-10-01",
    "20130429": "2013-05-01",  # the file name says 0429, the text says May 1, 2013
    "20230414": "2023-04-14",
    "20250207": "2025-02-07",
    "20260417": "2026-04-17",
}


def parse(date: str):
    path = cr_file(date)
    return cr_text.parse(decode(path.read_bytes()).text, path.name)


def simple_counts(text: str) -> dict[str, int]:
    """Count by plain line tests what the parser should find."""
    lines = text.split("\n")
    stripped = [line.strip() for line in lines]
    glossary = len(stripped) - 1 - stripped[::-1].index("Glossary")
    credits = len(stripped) - 1 - stripped[::-1].index("Credits")
    body_start = [i for i, line in enumerate(lines) if re.match(r"1\. ", line)][1]
    body = lines[body_start:glossary]
    blocks, size = 0, 0
    for line in stripped[glossary + 1:credits] + [""]:
        if line:
            size += 1
        else:
            blocks += size >= 2
            size = 0
    return {
        "rule": sum(1 for line in body if line[:1].isdigit()),
        "example": sum(1 for line in body if line.startswith("Example")),
        "glossary": blocks,
    }


@pytest.mark.parametrize("date", sorted(VERSIONS))
def test_counts_match_the_file(date):
    path = cr_file(date)
    text = decode(path.read_bytes()).text
    result = cr_text.parse(text, path.name)
    counts = Counter(kind_of(r) for r in result.records)
    expected = simple_counts(text)
    assert counts["rule"] == expected["rule"]
    assert counts["example"] == expected["example"]
    assert counts["glossary"] == expected["glossary"]
    assert result.version == VERSIONS[date]


def test_written_down_counts():
    # Read off the files: the 2026 glossary has 730 terms, the 2006 one 357; the 2026 body
    # has 277 "Example" lines.
    assert Counter(kind_of(r) for r in parse("20260417").records)["glossary"] == 730
    assert Counter(kind_of(r) for r in parse("20061001").records)["glossary"] == 357
    assert Counter(kind_of(r) for r in parse("20260417").records)["example"] == 277


def test_trample_today():
    rules = {r.number: r for r in parse("20260417").records if isinstance(r, Rule)}
    assert rules["702.19"].title == "Trample"
    assert rules["702.19b"].text.startswith(
        "The controller of an attacking creature with trample first assigns damage to the "
        "creature(s) blocking it."
    )
    assert rules["702.19b"].parent == "702.19"
    assert rules["702.19b"].loc.line == 4077


def test_fuse_is_702_100_in_2013_and_cites_rule_708():
    rules = {r.number: r for r in parse("20130429").records if isinstance(r, Rule)}
    assert rules["702.100"].title == "Fuse"
    assert [c.target for c in rules["702.100a"].citations] == ["708"]
    assert [c.target for c in rules["702.100c"].citations] == ["601.2e"]


def test_examples_attach_to_their_rule_in_order():
    examples = [r for r in parse("20260417").records
                if isinstance(r, Example) and r.rule == "702.19b"]
    assert [e.ordinal for e in examples] == [1, 2]
    assert examples[1].text.startswith("Example: A 6/6 green creature with trample")
    assert examples[0].id == "cr:en:2026-04-17:702.19b/ex1"


def test_rule_without_space_after_its_number():
    # 2023 line 6193 reads "901.4.All plane and phenomenon cards remain ..."
    rules = {r.number: r for r in parse("20230414").records if isinstance(r, Rule)}
    assert rules["901.4"].text.startswith("All plane and phenomenon cards remain")


def test_indented_lines_continue_their_rule():
    rules = {r.number: r for r in parse("20260417").records if isinstance(r, Rule)}
    assert "Of that list, Forest, Island" in rules["205.3i"].text or any(
        "Of that list, Forest, Island" in r.text for r in rules.values()
    )


def test_2006_typo_606_8b_is_rule_606_8b_flagged():
    """Line 2317 reads "606. 8b Players win and lose the game only as a team": 606.8b."""
    rules = [r for r in parse("20061001").records if isinstance(r, Rule)]
    assert [r.id for r in rules if r.number == "606"] == ["cr:en:2006-10-01:606"]
    (typo,) = [r for r in rules if r.number == "606.8b"]
    assert (typo.loc.line, typo.inferred) == (2317, True)
    assert typo.text.startswith("Players win and lose the game only as a team, not as")
    assert not any(r.inferred for r in rules if r is not typo)


def test_2006_layout_keywords_under_502():
    rules = {r.number: r for r in parse("20061001").records if isinstance(r, Rule)}
    assert rules["502.9"].title == "Trample"
    assert rules["502.19"].title == "Echo"


def test_toc_glossary_credits():
    records = parse("20260417").records
    toc = [r for r in records if isinstance(r, TocEntry)]
    assert (toc[0].number, toc[0].title) == ("1", "Game Concepts")
    assert [t.title for t in toc[-2:]] == ["Glossary", "Credits"]
    entries = {g.term: g for g in records if isinstance(g, GlossaryEntry)}
    assert entries["Abandon"].definition.startswith("To turn a face-up ongoing scheme card")
    assert [c.target for c in entries["Abandon"].citations] == ["701.33"]
    passages = {p.role: p for p in records if isinstance(p, Passage)}
    assert "These rules are effective as of April 17, 2026." in passages["introduction"].text
    assert "Richard Garfield" in passages["credits"].text


@pytest.mark.parametrize("date", sorted(VERSIONS))
def test_no_line_is_lost(date):
    """Every non-blank line is in a record's text (or is a structural heading)."""
    path = cr_file(date)
    text = decode(path.read_bytes()).text
    result = cr_text.parse(text, path.name)
    held: list[str] = []
    for r in result.records:
        if isinstance(r, GlossaryEntry):
            held += [r.term, r.definition]
        elif isinstance(r, TocEntry):
            held.append(f"{r.number}. {r.title}" if r.number else r.title)
        else:
            held.append(r.text)
    corpus = "\n".join(held)
    structural = {"Contents", "Glossary", "Credits"}
    for number, line in enumerate(text.split("\n"), 1):
        line = line.strip()
        if not line or line in structural:
            continue
        # The number, also as the 2006 typo writes it ("606. 8b").
        payload = re.sub(r"^(\d{3}\.\d+[a-z]*|\d{3}\. \d+[a-z]+|\d{3}|\d)\.?\s*", "", line)
        assert payload in corpus, f"{path.name}:{number} lost: {line[:80]}"


def test_reencodings_give_identical_records():
    path = cr_file("20260417")
    text = decode(path.read_bytes()).text
    variants = [
        text.encode("utf-8"),
        codecs.BOM_UTF8 + text.replace("\n", "\r\n").encode("utf-8"),
        codecs.BOM_UTF16_BE + text.replace("\n", "\r").encode("utf-16-be"),
    ]
    results = [cr_text.parse(decode(v).text, path.name).records for v in variants]
    assert results[0] == results[1] == results[2]
    assert len(results[0]) > 4000


def test_unplaceable_line_is_kept_as_a_fragment():
    text = (
        "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of "
        "April 17, 2026.\n\nContents\n\n1. Game Concepts\nGlossary\nCredits\n\n"
        "1. Game Concepts\n\n100. General\n\nstray words in the body\n\n100.1. Text.\n\n"
        "Glossary\n\nAbandon\nTo turn.\n\nCredits\n\nSomebody\n"
    )
    records = cr_text.parse(text, "x.txt").records
    (fragment,) = [r for r in records if isinstance(r, Fragment)]
    assert (fragment.text, fragment.loc.line) == ("stray words in the body", 15)
    assert [r.number for r in records if isinstance(r, Rule)] == ["1", "100", "100.1"]


def test_sniff():
    assert cr_text.sniff(decode(cr_file("20260417").read_bytes()).text)
    assert not cr_text.sniff("Une FAQ est un recueil de clarifications\n")


# -- issue 16: versions of the archive that were misread ---------------------------------------

HEAD = ("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of July 11, "
        "2009.\n\nContents\n\n")


def _rules(records) -> dict[str, Rule]:
    return {r.number: r for r in records if isinstance(r, Rule)}


def test_body_found_by_its_first_rule_when_the_contents_title_differs():
    """2009-07-11 (the Magic 2010 rewrite): the contents says "1. Game Concepts", the body
    "1. The Game" (lines 24 and 150 of the file)."""
    text = HEAD + ("1. Game Concepts\n100. General\nGlossary\nCredits\n\n1. The Game\n\n"
                   "100. General\n\n100.1. These _Magic_ rules apply to any _Magic_ game with two "
                   "or more players, including two-player games and multiplayer games.\n\n"
                   "100.1a A two-player game is a game that begins with only two players.\n\n"
                   "Glossary\n\nAbandon\nTo turn a face-up ongoing scheme card face down.\n\n"
                   "Credits\n\nSomebody\n")
    result = cr_text.parse(text, "x.txt")
    rules = _rules(result.records)
    assert list(rules) == ["1", "100", "100.1", "100.1a"]
    assert (rules["1"].title, rules["1"].loc.line) == ("The Game", 12)
    assert [r.title for r in result.records if isinstance(r, TocEntry)] == [
        "Game Concepts", "General", "Glossary", "Credits"]
    assert result.problems == ()
    assert not [r for r in result.records if isinstance(r, Fragment)]


def test_a_file_whose_rules_are_not_read_is_a_problem():
    """Numbered lines the parser cannot read (no space after the number) become fragments,
    and the file is reported: most of its rules are missing."""
    rules = "".join(f"100.{n}.the rule number {n}.\n\n" for n in range(1, 11))
    text = HEAD + "1. Game Concepts\n\n1. Game Concepts\n\n" + rules + "Glossary\n\nCredits\n"
    result = cr_text.parse(text, "x.txt")
    assert result.problems == ("only 0 rules read from 10 numbered lines: the rules body was "
                               "not recognized (see kb export --kind fragment)",)
    assert len([r for r in result.records if isinstance(r, Fragment)]) == 10
    fixed = cr_text.parse(text.replace(".the", ". The"), "x.txt")
    assert fixed.problems == () and len(_rules(fixed.records)) == 11


def test_a_rule_line_after_a_space_is_a_rule_not_glued_to_the_example_above():
    """2009-07-11 lines 1448-1452: " 509.1c" after 509.1b's example."""
    text = HEAD + ("1. The Game\n\n509. Declare Blockers Step\n\n509.1. First, the defending "
                   "player declares blockers.\n\n509.1b The defending player checks each "
                   "creature he or she controls to see whether it's affected by any "
                   "restrictions.\n\nExample: An attacking creature with flying and shadow "
                   "can't be blocked by a creature with flying but without shadow.\n\n"
                   " 509.1c The defending player checks each creature he or she controls to see "
                   "whether it's affected by any requirements.\n\n Example: A player controls "
                   "one creature that \"blocks if able.\"\n\nGlossary\n\nCredits\n")
    records = cr_text.parse(text, "x.txt").records
    rules = _rules(records)
    assert rules["509.1c"].text == ("The defending player checks each creature he or she "
                                    "controls to see whether it's affected by any requirements.")
    examples = [(e.rule, e.text) for e in records if isinstance(e, Example)]
    assert examples == [
        ("509.1b", "Example: An attacking creature with flying and shadow can't be blocked by a "
                   "creature with flying but without shadow."),
        ("509.1c", "Example: A player controls one creature that \"blocks if able.\"")]


def test_hard_wrapped_lines_are_unwrapped_into_their_rule():
    """2003-10-01 lines 1958-1966 (a PDF extract: each line ends with a space)."""
    body = (
        "115.10. Some spells and abilities target.\n\n"
        "115.11. An activated or triggered ability is targeted only if it identifies what it "
        "will affect by using the \n"
        "phrase \"target [something],\" where the \"something\" is a phrase that describes an "
        "object or player. \n"
        "(If an activated or triggered ability of an instant or sorcery uses the word target, "
        "that ability is \n"
        "targeted, but the spell is not.)\n"
        "Example: A sorcery card has the ability \"When you cycle this card, target creature "
        "gets -1/-\n"
        "1 until end of turn.\" This triggered ability is targeted, but that doesn't make the "
        "card it's on \n"
        "targeted.\n\n"
        "115.12. A spell or ability on the stack is an illegal target for itself. See rule \n"
        "419.8 \"Sources of Damage.\"\n\n"
    ) * 4  # enough wrapped lines for the file to read as hard-wrapped
    text = HEAD + "1. The Game\n\n115. Targets\n\n" + body + "Glossary\n\nCredits\n"
    result = cr_text.parse(text, "x.txt")
    rules = [r for r in result.records if isinstance(r, Rule)]
    assert [r.number for r in rules][:5] == ["1", "115", "115.10", "115.11", "115.12"]
    assert rules[3].text == (
        "An activated or triggered ability is targeted only if it identifies what it will "
        "affect by using the phrase \"target [something],\" where the \"something\" is a phrase "
        "that describes an object or player. (If an activated or triggered ability of an "
        "instant or sorcery uses the word target, that ability is targeted, but the spell is "
        "not.)")
    assert rules[4].text == ("A spell or ability on the stack is an illegal target for "
                             "itself. See rule 419.8 \"Sources of Damage.\"")
    (example, *_) = [r for r in result.records if isinstance(r, Example)]
    assert example.text == (
        "Example: A sorcery card has the ability \"When you cycle this card, target creature "
        "gets -1/-1 until end of turn.\" This triggered ability is targeted, but that doesn't "
        "make the card it's on targeted.")
    assert not [r for r in result.records if isinstance(r, Fragment)]


def test_a_typo_letter_without_its_rule_is_kept_and_flagged():
    """2008-10-01 line 837: "306.b" after 306.3a, for 306.3b."""
    text = HEAD + ("1. The Game\n\n306. Attacking\n\n306.3. Only a creature can attack.\n\n"
                   "306.3a If an effect would put a noncreature permanent into play attacking, "
                   "it doesn't.\n\n306.b If an effect would put a creature into play attacking "
                   "under the control of any player except an attacking player, it isn't.\n\n"
                   "Glossary\n\nCredits\n")
    result = cr_text.parse(text, "x.txt")
    rule = _rules(result.records)["306.3b"]
    assert rule.inferred and rule.loc.line == 15
    assert rule.text.startswith("If an effect would put a creature into play attacking")
    assert result.problems == ("line 15: '306.b' read as rule 306.3b (a typo in the source; "
                               "the rule is flagged inferred)",)


def test_a_glossary_missing_its_blank_lines_keeps_its_entries_apart():
    """2020-06-01 lines 5897-5900 have no blank line between Companion and Concede; a glossary
    written with none at all must not collapse into one entry."""
    entries = [
        ("Companion", "A keyword ability that allows a player to choose one creature card from "
                      "outside the game as a companion. See rule 702.138, “Companion.”"),
        ("Concede", "To quit the game. Conceding a game immediately causes that player to leave "
                    "that game and lose that game. See rule 104, “Ending the Game.”"),
        ("Control", "1. The player who controls an object. See rule 108.4.\n2. To control a "
                    "player is to make their decisions."),
        ("Exchange", "To swap two things. See rule 701.10."),
    ]
    glossary = "".join(f"{term}\n{definition}\n" for term, definition in entries)
    text = HEAD + "1. The Game\n\n100. General\n\n100.1. Text.\n\nGlossary\n\n" + glossary
    text += "\nCredits\n"
    records = cr_text.parse(text, "x.txt").records
    got = [(g.term, g.definition) for g in records if isinstance(g, GlossaryEntry)]
    assert got == entries
