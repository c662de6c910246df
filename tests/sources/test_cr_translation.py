"""Whole-CR translations laid out like the English file: the Chinese (2022-06-10) and Korean
(2021-11-19) community translations, and two the tests make (an English file with its headings
renamed, the French table scrape written out in the same layout).

Unit tests read small real excerpts (``tests/fixtures/cr_translation``: the files' own lines,
in their order, some ranges left out); the whole files come from the shared corpus. Expected
counts and texts are read from the files with a plain regular expression, not from the parser.
"""

from __future__ import annotations

import re

import pytest

from kb.model import Example, Fragment, GlossaryEntry, Passage, Rule, TocEntry
from kb.sources import cr_table, cr_text, cr_translation
from kb.sources.registry import parser_for
from kb.text.decode import decode
from tests.records import of
from tests.translations import (
    CHINESE,
    FIXTURES,
    KOREAN,
    archived,
    french_layout,
    renamed_headings,
    shared,
)

# A numbered rule line of the body: "702.19b ...", "100.1. ...", and "100.6b牌手" (no space).
NUMBERED = re.compile(r"^(\d{3}\.\d{1,3}[a-z]{0,2})\.?\s*(.*)$")
HANGUL = re.compile(r"[\uac00-\ud7af]")


def fixture(name: str) -> str:
    return decode((FIXTURES / name).read_bytes()).text


@pytest.fixture(scope="module")
def chinese_excerpt():
    return cr_translation.parse(fixture("zh_20220610_excerpt.txt"), "zh.txt")


@pytest.fixture(scope="module")
def korean_excerpt():
    return cr_translation.parse(fixture("ko_20211119_excerpt.txt"), "ko.txt")


def rule(result, number: str) -> Rule:
    return next(r for r in of(result, Rule) if r.number == number)


# -- what the excerpts say ---------------------------------------------------------------------


def test_the_translation_parser_claims_translations_only() -> None:
    for name in ("zh_20220610_excerpt.txt", "ko_20211119_excerpt.txt"):
        text = fixture(name)
        assert parser_for(text) is cr_translation
        assert not cr_text.sniff(text)
    english = "Comprehensive Rules\n\nThese rules are effective as of June 10, 2022.\n"
    assert not cr_translation.sniff(english + "\nContents\n\n1. Game Concepts\n100. General\n")
    assert not cr_translation.sniff("")


def test_language_date_and_ids_come_from_the_text(chinese_excerpt, korean_excerpt) -> None:
    # "此规则于2022年6月10日起生效。", "이 규칙은 2021년 11월 19일부터 시행됩니다."
    assert (chinese_excerpt.language, chinese_excerpt.version) == ("zh", "2022-06-10")
    assert (korean_excerpt.language, korean_excerpt.version) == ("ko", "2021-11-19")
    assert chinese_excerpt.source_id == "cr:zh:2022-06-10"
    assert rule(chinese_excerpt, "702.19b").id == "cr:zh:2022-06-10:702.19b"
    assert chinese_excerpt.title == "万智牌完整规则"
    assert chinese_excerpt.format == "cr_translation"


def test_contents_headings_and_back_matter(chinese_excerpt) -> None:
    toc = [(t.number, t.title) for t in of(chinese_excerpt, TocEntry)]
    assert toc[:2] == [("1", "游戏概念"), ("100", "总则")]
    assert toc[-2:] == [(None, "词汇表"), (None, "版权信息")]
    assert rule(chinese_excerpt, "702.19").title == "践踏"
    assert rule(chinese_excerpt, "100").title == "总则"
    assert rule(chinese_excerpt, "100.1").title is None  # a sentence ending with "。"
    (entry,) = [g for g in of(chinese_excerpt, GlossaryEntry) if g.term == "践踏"]
    assert entry.definition == "一个关键字异能，影响生物如何分配战斗伤害。参见规则702.19，“践踏”。"
    assert entry.language == "zh"
    roles = [p.role for p in of(chinese_excerpt, Passage)]
    assert roles == ["introduction", "credits"]


def test_rules_and_examples_as_written(chinese_excerpt) -> None:
    text = fixture("zh_20220610_excerpt.txt").split("\n")
    line = next(x for x in text if x.startswith("702.19b "))
    assert rule(chinese_excerpt, "702.19b").text == line.removeprefix("702.19b ")
    examples = [e for e in of(chinese_excerpt, Example) if e.rule == "702.19b"]
    assert [e.text[:5] for e in examples] == ["例如：一个"] * 2
    assert all(e.language == "zh" for e in examples)
    # "100.6b牌手可以使用..." has no space after its number.
    assert rule(chinese_excerpt, "100.6b").text.startswith("牌手可以使用在Wizards.com/Locator")


def test_english_left_in_a_korean_file_is_flagged(korean_excerpt) -> None:
    fateseal = rule(korean_excerpt, "701.22")
    assert (fateseal.title, fateseal.language, fateseal.untranslated) == \
        ("Fateseal", "en", True)
    trample = rule(korean_excerpt, "702.19")  # Korean with its English title
    assert (trample.title, trample.language, trample.untranslated) == \
        ("돌진 Trample", "ko", False)
    examples = [e for e in of(korean_excerpt, Example) if e.rule == "702.19b"]
    assert len(examples) == 2 and all(e.language == "ko" for e in examples)


def test_nothing_is_lost(korean_excerpt) -> None:
    # The Korean glossary is "<생략>" (omitted) and a publisher's line: kept as fragments.
    assert [f.text for f in of(korean_excerpt, Fragment)][0] == "<생략>"
    # "120.4c" is written twice (the second is 120.4d): both are kept.
    assert [r.id for r in of(korean_excerpt, Rule) if r.number == "120.4c"] == \
        ["cr:ko:2021-11-19:120.4c", "cr:ko:2021-11-19:120.4c~2"]


# -- the whole files ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", [CHINESE, KOREAN], ids=["zh", "ko"])
def test_every_numbered_line_is_a_rule_with_its_text(path) -> None:
    text = shared(path)
    result = cr_translation.parse(text, path.name)
    body = text.split("\n")[_body_line(text):]
    written = [m for line in body if (m := NUMBERED.match(line.strip()))]
    rules = [r for r in of(result, Rule) if "." in r.number]
    assert len(rules) == len(written)
    # An indented line after a rule is its next paragraph.
    assert [(r.number, r.text.split("\n")[0]) for r in rules] == \
        [(m[1], m[2].strip()) for m in written]


def _body_line(text: str) -> int:
    """The body opens at the second "1. " line (the first is the contents')."""
    return [i for i, line in enumerate(text.split("\n")) if line.startswith("1. ")][1]


def test_the_chinese_file_in_figures() -> None:
    result = cr_translation.parse(shared(CHINESE), CHINESE.name)
    # SOURCES.md: 2668 rule lines; the file has 266 lines starting "例如：".
    assert sum(1 for r in of(result, Rule) if "." in r.number) == 2668
    assert len(of(result, Example)) == shared(CHINESE).count("\n例如：") == 266
    assert {r.language for r in of(result, Rule)} == {"zh"}
    # The one unplaced line: the heading of the provisional names list, with no definition.
    assert [f.text for f in of(result, Fragment)] == ["暂译名称列表"]


def test_the_korean_file_left_42_rule_lines_in_english() -> None:
    text = shared(KOREAN)
    result = cr_translation.parse(text, KOREAN.name)
    assert sum(1 for r in of(result, Rule) if "." in r.number) == 2617  # SOURCES.md
    left = [r for r in of(result, Rule) if r.untranslated]
    # The 42 numbered rule lines without a Hangul letter, and three headings (210 Hand
    # Modifier, 211 Life Modifier, 807 Grand Melee Variant).
    english_lines = [m[1] for line in text.split("\n")[_body_line(text):]
                     if (m := NUMBERED.match(line.strip())) and not HANGUL.search(line)]
    assert len(english_lines) == 42
    assert sorted(r.number for r in left if "." in r.number) == sorted(english_lines)
    assert sorted(r.number for r in left if "." not in r.number) == ["210", "211", "807"]
    assert all(r.language == "en" for r in left)
    # A Korean sentence listing a hundred English creature types is Korean.
    assert not rule(result, "205.3m").untranslated


# -- translations the tests make ---------------------------------------------------------------


def test_an_english_file_with_renamed_headings_parses_as_the_english_does() -> None:
    # The file of 2021-11-15 has a stray line "f" after 702.148b: still a fragment, not the
    # start of a hard-wrapped text (its examples start "Beispiel" now, not "Example").
    english = archived("2021-11-15")
    derived = renamed_headings(english)
    assert parser_for(derived) is cr_translation
    ours = cr_translation.parse(derived, "derived.txt")
    theirs = cr_text.parse(english, "2021-11-15.txt")
    assert ours.version == theirs.version
    for kind in (Rule, Example):
        assert [(r.id.split(":", 3)[3], r.text.replace("Beispiel:", "Example:", 1))
                for r in of(ours, kind)] == \
            [(r.id.split(":", 3)[3], r.text) for r in of(theirs, kind)]
    assert [r.title for r in of(ours, Rule)] == [r.title for r in of(theirs, Rule)]
    assert len(of(ours, GlossaryEntry)) == len(of(theirs, GlossaryEntry))
    assert [f.text for f in of(ours, Fragment)] == [f.text for f in of(theirs, Fragment)] \
        == ["f"]


def test_the_french_table_in_the_cr_layout_parses_as_the_table_parser_reads_it() -> None:
    text, table = french_layout()
    assert parser_for(text) is cr_translation and not cr_table.sniff(text)
    result = cr_translation.parse(text, "fr.txt")
    assert (result.language, result.version) == ("fr", "2024-02-06")

    def rules(records: list) -> list[tuple]:
        return [(r.number, r.text, r.language, r.untranslated) for r in records
                if isinstance(r, Rule)]

    def examples(records: list) -> list[tuple]:
        return [(e.rule, e.text, e.language) for e in records if isinstance(e, Example)]

    assert rules(list(result.records)) == rules(table)
    assert examples(list(result.records)) == examples(table)
    # Paragraphs the French page left in English are flagged, as the table parser does.
    assert any(untranslated for *_, untranslated in rules(table))
    assert of(result, Fragment) == []
