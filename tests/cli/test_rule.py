"""``kb rule`` (issue 12): numbers as people write them, glossary words, the languages shown,
French rules alone, --depth.

Texts are read off the documents: MagicCompRules 20260417.txt line 4073 is "702.19. Trample",
its glossary says of Trample "See rule 702.19"; seed 003 line 10 is the French 707.2a, and
seed 003 left 707.2 in English with its two French examples (lines 5-9)."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.cli.conftest import kb
from tests.conftest import SHARED_CORPUS, cr_file

FRENCH_707_2A = ("Une copie acquiert les couleurs de l'objet qu'elle copie, car il s'agit de "
                 "valeurs dérivées de son coût de mana ou de son indicateur de couleur.")


@pytest.mark.parametrize("typed", ["702.19b", "702.19B", "CR 702.19b", "rule 702.19b",
                                   "Rule 702.19b", "règle 702.19b", "r. 702.19b", "§702.19b",
                                   "702.19b.", "702,19b", "702.19 b", "CR702.19b",
                                   "Rule 702.19b:"])
def test_rule_numbers_in_any_written_form(default_index, typed):
    result = kb(default_index, "rule", typed)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("702.19b  [en, 2026-04-17, MagicCompRules 20260417.txt:4077]")


def test_a_glossary_word_names_its_rule(default_index):
    result = kb(default_index, "rule", "trample", "--depth", "0")
    assert result.exit_code == 0
    first, _, head = result.output.split("\n")[:3]
    assert first.startswith("Trample: A keyword ability that modifies how a creature assigns "
                            "combat damage. See rule 702.19")
    assert head.startswith("702.19. Trample  [en, 2026-04-17")
    words = json.loads(kb(default_index, "rule", "Trample", "--json", "--depth", "0").stdout)
    assert words["word"]["rule"] == "702.19"
    assert [r["number"] for r in words["rules"]] == ["702.19"]


def test_a_french_rule_title_names_todays_rule(default_index):
    """Seed 000 titles 702.27 (2009) "Écho"; today Echo is 702.30."""
    result = kb(default_index, "rule", "écho", "--depth", "0")
    assert result.exit_code == 0
    assert "702.30. Echo  [en, 2026-04-17" in result.output
    assert "[fr, 2009-07-11: 702.27, 000_3e28a88beae8982b.txt:3] Écho" in result.output


def test_a_missing_rule_names_its_versions_as_ranges():
    from kb.reader import version_ranges

    held = ["2006-10-01", "2013-05-01", "2020-11-20", "2023-04-14", "2025-02-07"]
    assert version_ranges(["2013-05-01", "2020-11-20", "2023-04-14"], held) == (
        "2013-05-01 to 2023-04-14 (3 versions)")
    assert version_ranges(["2006-10-01", "2013-05-01", "2025-02-07"], held) == (
        "2006-10-01 and 2013-05-01, 2025-02-07")


def test_a_word_nothing_names_is_one_line(default_index):
    result = kb(default_index, "rule", "zzyzx")
    assert result.exit_code == 1
    assert result.output == ("kb: 'zzyzx' is neither a rule number (702.19b) nor a word of the "
                             "glossary or of a rule title; try: kb search zzyzx\n")


def test_depth_limits_the_subrules(default_index):
    numbers = [v["number"] for v in json.loads(
        kb(default_index, "rule", "702.19", "--depth", "0", "--json").stdout)]
    assert numbers == ["702.19"]
    numbers = [v["number"] for v in json.loads(
        kb(default_index, "rule", "702", "--depth", "1", "--json").stdout)]
    assert numbers[:3] == ["702", "702.1", "702.2"] and "702.19" in numbers
    assert not any(n[-1].isalpha() for n in numbers)


def test_french_shows_the_french_text(default_index):
    result = kb(default_index, "rule", "707.2a", "--lang", "fr")
    assert result.exit_code == 0
    lines = result.output.split("\n")
    assert lines[0] == "707.2a  [fr, 2024, 003_45f11bb513e6f443.txt:10]"
    assert lines[1].startswith(FRENCH_707_2A)
    assert "A copy acquires" not in result.output


def test_french_without_a_french_text_says_so_in_one_line(default_index):
    result = kb(default_index, "rule", "702.19b", "--lang", "fr")
    lines = result.output.split("\n")
    assert lines[0] == "702.19b: no French text in the index; the English follows."
    assert lines[1].startswith("702.19b  [en, 2026-04-17")
    assert lines[2].startswith("The controller of an attacking creature with trample")


def test_french_examples_of_a_paragraph_left_in_english_are_shown(default_index):
    result = kb(default_index, "rule", "707.2", "--lang", "fr", "--depth", "0")
    assert "Examples of the French document:" in result.output
    assert "Exemple : Le Bâton chimérique est un artefact" in result.output


def test_french_rules_alone_answer(french_index):
    """No English rules in the index: the French table answers by itself."""
    result = kb(french_index, "rule", "707.2a", "--lang", "fr")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("707.2a  [fr, 2024, 003_45f11bb513e6f443.txt:10]\n"
                                    + FRENCH_707_2A)
    two = kb(french_index, "rule", "707.2", "--lang", "fr", "--depth", "0").output
    assert two.startswith("707.2: no French text in the index; the English follows.")
    assert "Exemple : Le Bâton chimérique est un artefact" in two  # seed 003 line 6
    missing = kb(french_index, "rule", "702.19b")
    assert missing.exit_code == 1
    assert "holds no Comprehensive Rules and no translation of 702.19b" in missing.output


def test_default_shows_english_and_french(default_index):
    result = kb(default_index, "rule", "707.2a")
    assert result.output.startswith("707.2a  [en, 2026-04-17")
    assert "  [fr, 2024: 707.2a, 003_45f11bb513e6f443.txt:10] " + FRENCH_707_2A in result.output


@pytest.fixture(scope="module")
def portuguese_index(tmp_path_factory):
    """The embedded corpus with the pt-BR rules pages of 702 (2020)."""
    from kb.build import build
    from kb.corpus import embedded_corpus

    cr_file("20260417")  # skip without the shared corpus
    folder = tmp_path_factory.mktemp("pt")
    shutil.copy(SHARED_CORPUS / "html" / "magicjudgesbr_regras_cr_7_702.html", folder)
    index = tmp_path_factory.mktemp("pt-index")
    build(index, [embedded_corpus(), folder])
    return index


def test_portuguese_only_when_asked(portuguese_index):
    """The pt-BR page of 702 (rules of 2020-11-20) left 702.19b in English and 702.27a
    "Shadow is an evasion ability." in English, and translated 702.28a ("Reciclar é uma
    habilidade ..."): cycling, 702.28 in 2020 and 702.29 today, where 702.28 is Shadow
    (MagicCompRules 20260417.txt lines 4192, 4200). A text stands under the rule it is
    today, not under its old number."""
    def files(*args: str) -> dict[str, set[str]]:
        views = json.loads(kb(portuguese_index, "rule", *args, "--json").stdout)
        return {v["number"]: {t["source"]["file"] for t in v["texts"]} for v in views}

    pt_file = "magicjudgesbr_regras_cr_7_702.html"
    assert pt_file not in files("702.19b")["702.19b"]
    assert pt_file not in files("702.29a")["702.29a"]
    assert files("702.19b", "--lang", "pt")["702.19b"] == {pt_file}
    assert files("702.29a", "--lang", "pt")["702.29a"] == {pt_file}
    assert pt_file in files("702.29a", "--lang", "all")["702.29a"]
    text = kb(portuguese_index, "rule", "702.29a", "--lang", "pt").output
    assert "[pt, 2020-11-20: 702.28a, magicjudgesbr_regras_cr_7_702.html:" in text
    assert "Reciclar é uma habilidade" in text
    shadow = kb(portuguese_index, "rule", "702.28a", "--lang", "pt").output
    assert "Reciclar" not in shadow
    assert "[en, 2020-11-20: 702.27a, untranslated, magicjudgesbr_regras_cr_7_702.html:" in shadow
    assert "Shadow is an evasion ability." in shadow


def test_a_citing_record_of_another_language_says_its_language():
    from kb.cli.rule import _citing_label
    from kb.views import CitingRecord, RuleView

    view = RuleView("cr:en:2026-04-17:702.19b", "702.19b", "en", "2026-04-17", None, "", {})
    english = CitingRecord("cr:en:2026-04-17:702.19c", "rule", "702.19c", "702.19b", "en")
    portuguese = CitingRecord("html:pt:2020-11-20:702:702.19c", "rule", "702.19c", "702.19b",
                              "pt")
    assert [_citing_label(c, view) for c in (english, portuguese)] == ["702.19c",
                                                                       "702.19c [pt]"]


def test_a_french_word_is_looked_up_through_the_term_table(cr_index):
    """MTGJSON's Dragon's Maze cards pair "Piétinement" with "Trample" (their keyword lines),
    and the glossary says Trample: "See rule 702.19"."""
    result = kb(cr_index, "rule", "piétinement", "--depth", "0")
    assert result.exit_code == 0, result.output
    first, _, head = result.output.split("\n")[:3]
    assert first.startswith("Trample: A keyword ability")
    assert head.startswith("702.19. Trample  [en, 2026-04-17")


# -- whole-CR community translations (issue 21, item 6) ----------------------------------------


def test_a_community_translation_is_shown_with_lang(translations):
    from tests.translations import CHINESE

    index, _ = translations
    result = kb(index, "rule", "702.19b", "--lang", "zh", "--version", "2022-06-10")
    assert result.exit_code == 0, result.output
    line = next(x for x in CHINESE.read_text(encoding="utf-8").split("\n")
                if x.startswith("702.19b "))
    assert line.removeprefix("702.19b ") in result.output
    assert f"[zh, 2022-06-10: 702.19b, community translation, {CHINESE.name}:3631]" \
        in result.output
    view = json.loads(kb(index, "rule", "702.19b", "--lang", "zh", "--version", "2022-06-10",
                         "--json").stdout)[0]
    assert [(t["language"], t["community"]) for t in view["texts"]] == [("zh", True)]
    assert view["texts"][0]["examples"][0].startswith("例如：一个2/2")


def test_the_korean_text_of_2021_is_followed_to_the_rule_of_2022(translations):
    index, _ = translations
    result = kb(index, "rule", "702.19", "--lang", "ko", "--depth", "0")
    assert result.exit_code == 0, result.output
    assert "[ko, 2021-11-19: 702.19, community translation" in result.output
    assert "돌진 Trample" in result.output


def test_lang_takes_the_languages_of_the_index(translations, default_index):
    index, _ = translations
    wrong = kb(index, "rule", "702.19b", "--lang", "xx")
    assert wrong.exit_code == 2
    assert "choose from en, fr, ko, pt, zh, all" in wrong.output
    # The default install holds no Chinese.
    assert kb(default_index, "rule", "702.19b", "--lang", "zh").exit_code == 2


def test_the_build_and_the_report_name_what_is_not_paired(translations):
    from kb.model import Rule
    from kb.sources import cr_text
    from tests.translations import CHINESE, KOREAN, archived

    index, report = translations
    said = {p.file: p.reason for p in report.problems}
    assert CHINESE.name not in said  # every rule of both sides paired, none left in English
    english = sum(isinstance(r, Rule) for r in cr_text.parse(archived("2021-11-15"), "e").records)
    # 45: the 42 numbered lines and 3 headings the Korean file left in English.
    assert said[KOREAN.name] == (f"community translation (ko): {english} of {english} English "
                                 "rules of 2021-11-19 paired (100.0%); 45 left in English")
    findings = json.loads(kb(index, "report", "--json").stdout)["findings"]
    (finding,) = [f for f in findings if f["check"] == "translation-pairing"]
    assert finding["message"] == f"{KOREAN.name}: {said[KOREAN.name]}"


def test_translations_are_not_searched(translations):
    index, _ = translations
    assert kb(index, "search", "践踏").exit_code == 1
