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


def test_2006_duplicate_606_keeps_both():
    ids = [r.id for r in parse("20061001").records if isinstance(r, Rule) and r.number == "606"]
    assert ids == ["cr:en:2006-10-01:606", "cr:en:2006-10-01:606~2"]


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
        payload = re.sub(r"^(\d{3}\.\d+[a-z]*|\d{3}|\d)\.?\s*", "", line)
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
