"""Links across versions and languages, through the CLI, on the session index (embedded
corpus, CR 2013-2026, English DGM FAQ, MTGJSON DGM). Expectations come from reading the
documents: the seeds' README-level facts are in ../shared/corpus/SOURCES.md."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kb.cli import cli


def run(index: Path, *args: str):
    result = CliRunner().invoke(cli, ["--index", str(index), *args])
    assert result.exit_code == 0, result.output
    return result


def texts(index: Path, number: str, *args: str) -> list[dict]:
    (view, *_) = json.loads(run(index, "rule", number, "--json", *args).output)
    return view["texts"]


def test_french_faq_fuse_702_100_is_todays_702_102(cr_index):
    linked = texts(cr_index, "702.102")
    faq = [t for t in linked if t["id"].startswith("faq:fr:")]
    assert [(t["number"], t["language"], t["version"]) for t in faq] == [
        ("702.100", "fr", "2013-03-21")]
    assert "Fusion" in faq[0]["text"] or faq[0]["title"] == "Fusion"
    # ... and today's 702.100 (Evolve) gets no Fuse text
    assert not [t for t in texts(cr_index, "702.100") if t["id"].startswith("faq:")]


def test_untranslated_french_707_2_is_shown_and_flagged(cr_index):
    result = run(cr_index, "rule", "707.2")
    assert "untranslated" in result.output
    linked = texts(cr_index, "707.2")
    (french_page,) = [t for t in linked if t["id"].startswith("cr:fr:")]
    assert french_page["language"] == "en" and french_page["untranslated"]
    assert french_page["text"].startswith("When copying an object, the copy acquires")


def test_keyword_page_echo_702_27_is_todays_702_30(cr_index):
    linked = texts(cr_index, "702.30")
    assert {(t["language"], t["number"]) for t in linked
            if t["id"].startswith("kw:")} == {("fr", "702.27"), ("en", "702.27")}


def test_keyword_page_echo_subrules_follow_their_heading_to_702_30(cr_index):
    # The page's 702.27a/b are Echo's subrules (its 702.27 is Echo), not the 2013 rules'
    # 702.27a/b, which belong to another keyword: they are today's 702.30a/b.
    for letter in "ab":
        linked = texts(cr_index, f"702.30{letter}")
        assert {(t["language"], t["number"]) for t in linked if t["id"].startswith("kw:")} == {
            ("fr", f"702.27{letter}"), ("en", f"702.27{letter}")}
        assert not [t for t in texts(cr_index, f"702.29{letter}") if t["id"].startswith("kw:")]


def test_lang_en_hides_translations(cr_index):
    assert texts(cr_index, "707.2", "--lang", "en") == []


def test_faq_citation_of_rule_708_is_cited_today_as_709(cr_index):
    (view, *_) = json.loads(run(cr_index, "rule", "709", "--json").output)
    citing = [c for c in view["cited_by"] if c["id"].startswith("faq:fr:")]
    assert citing, "the French FAQ cites 'règle 708' (split cards), today's 709"
    assert "708" in citing[0]["written"] and "709" in citing[0]["written"]


def test_card_by_english_and_french_name_is_the_same(cr_index):
    english = json.loads(run(cr_index, "card", "Aetherling", "--json").output)
    french = json.loads(run(cr_index, "card", "Ætherlin", "--json").output)
    assert english == french
    assert english["name"] == "Aetherling"
    assert {t["language"] for t in english["texts"]} == {"en", "fr"}
    side_by_side = [p for p in english["rulings"] if p["en"] and p["fr"]]
    assert side_by_side, "French FAQ rulings of Ætherlin paired with the English ones"


def test_card_accents_optional_and_unknown_card(cr_index):
    assert json.loads(run(cr_index, "card", "aetherlin", "--json").output)["name"] == "Aetherling"
    result = CliRunner().invoke(cli, ["--index", str(cr_index), "card", "Nonexistent Card"])
    assert result.exit_code == 1 and "no card named" in result.output


def test_crystal_keep_echo_section_concerns_todays_echo_rule(cr_index):
    (view, *_) = json.loads(run(cr_index, "rule", "702.30", "--json").output)
    citing = {c["id"] for c in view["cited_by"]}
    assert any(i.startswith("crystalkeep:") for i in citing), citing


def test_battle_rulings_concern_rule_310(cr_index):
    # Seed 004: "Damage dealt to a battle causes that many defense counters to be removed".
    (view, *_) = json.loads(run(cr_index, "rule", "310", "--json").output)
    assert [c for c in view["cited_by"] if c["id"].startswith("rulings:004:")]


def test_a_rule_knows_its_numbers_in_every_version(cr_index):
    # Read off the files: Fuse is 702.100 in 2013 and 702.102 since (2023, 2025, 2026).
    (view, *_) = json.loads(run(cr_index, "rule", "702.102", "--json").output)
    assert view["versions"] == {"2013-05-01": "702.100", "2023-04-14": "702.102",
                                "2025-02-07": "702.102", "2026-04-17": "702.102"}
    (old, *_) = json.loads(run(cr_index, "rule", "702.100", "--version", "2013-05-01",
                               "--json").output)
    assert old["versions"]["2026-04-17"] == "702.102"
