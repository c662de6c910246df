"""Category 1, translation coverage: on the seeds (read by hand) and on clean hand-made input."""

from __future__ import annotations

from kb.model import Example, Link, Loc, Rule, Ruling
from kb.report import coverage
from kb.report.data import ReportData

from .conftest import CR_FR, FAQ_FR
from .helpers import cr, data, source

# The English rules under 707 in the rules of 2023-04-14 (MagicCompRules 20230414.txt, lines
# 5106-5190): 707.1-707.14 and their lettered subrules, 32 in all.
EN_707 = ["707.1", "707.2", "707.2a", "707.2b", "707.2c", "707.3", "707.4", "707.5", "707.6",
          "707.7", "707.8", "707.8a", "707.9", "707.9a", "707.9b", "707.9c", "707.9d", "707.9e",
          "707.9f", "707.9g", "707.10", "707.10a", "707.10b", "707.10c", "707.10d", "707.10e",
          "707.10f", "707.10g", "707.11", "707.12", "707.13", "707.14"]
# Paragraphs of the French 707 page (003_*) left in English, read in the file: the rules at
# lines 5 (707.2), 43 (707.8), 44 (707.8a), 92 (707.10f), 94 (707.10g), 105 (707.14) and the
# examples of 707.8a at lines 47 and 49.
LEFT_IN_ENGLISH = {5, 43, 44, 47, 49, 92, 94, 105}


def test_section_707_of_the_french_page(cr_data: ReportData) -> None:
    (cov,) = [c for c in coverage.sections(cr_data) if c.file == CR_FR]
    assert (cov.section, cov.title, cov.version, cov.total) == (
        "707", "Copying Objects", "2023-04-14", len(EN_707))
    # 707.9a (Quirion Elves) is the one English rule the page does not have at all.
    assert cov.missing == ("707.9a",)
    assert cov.untranslated == ("707.2", "707.8", "707.8a", "707.10f", "707.10g", "707.14")
    assert set(cov.translated) == set(EN_707) - set(cov.missing) - set(cov.untranslated)
    assert round(cov.percent) == 78  # 25 of 32


def test_findings_on_the_seeds(cr_data: ReportData) -> None:
    found = list(coverage.check(cr_data))
    untranslated = [f for f in found if f.check == "untranslated"]
    assert {f.records[0].line for f in untranslated} == LEFT_IN_ENGLISH
    assert all(f.records[0].file == CR_FR for f in untranslated)
    (section,) = [f for f in found if f.check == "section"]
    assert "25 of 32" in section.message and section.message.endswith("1 missing: 707.9a")
    assert [r.id for r in section.records] == ["cr:en:2023-04-14:707.9a"]
    # The page lost the numbers of 707.1 to 707.14 (written "707.3." in the original table).
    (inferred,) = [f for f in found if f.check == "inferred-number"]
    assert inferred.message.endswith(", ".join(f"707.{n}" for n in range(1, 15)))
    assert len(inferred.records) + inferred.more == 14
    # Boros Battleshaper: six French lines of rulings (001_*, lines 350-355), five English
    # (ormos_dgm_faq_2013-04-22.md, lines 388-396); the English has no "forced to block" one,
    # which line 354 holds as two rulings joined by " * ".
    unpaired = [f for f in found if f.check == "ruling-unpaired"]
    assert [(f.records[0].file, f.records[0].line) for f in unpaired] == [(FAQ_FR, 354)] * 2
    assert not [f for f in found if f.check in ("french-only", "examples", "card-unpaired")]


def _translation(french: list[tuple[str, str]], examples: int = 0) -> ReportData:
    """An English CR of 2023 and a French translation of 2024 whose rules link to it."""
    english = cr("2023-04-14", ["707", *[n for n, _ in french]], {"707": "Copying Objects"})
    page = source("cr:fr:2024", fmt="cr_table", version="2024")
    rules = [Rule(f"cr:fr:2024:{n}", n, text, "fr", "2024", Loc(page.file, i + 1))
             for i, (n, text) in enumerate(french)]
    extra = [Example(f"cr:fr:2024:{french[0][0]}/ex{k}", french[0][0], k, "Exemple : un Clone.",
                     "fr", "2024", Loc(page.file, 50 + k)) for k in range(1, examples + 1)]
    # As the build's link stage stores them: the English rule each text is, and the English
    # wording held it matches (the coverage is counted against the latter).
    links = [Link(r.id, f"cr:en:2023-04-14:{r.number}", relation, 0.7, "same number")
             for r in rules for relation in ("counterpart", "corresponds")]
    return data(english, (page, [*rules, *extra]), links=links)


def test_a_complete_translation_yields_nothing() -> None:
    clean = _translation([("707.1", "Certains objets deviennent une copie."),
                          ("707.2", "Quand on copie un objet, la copie acquiert ses valeurs.")])
    assert list(coverage.check(clean)) == []
    (cov,) = coverage.sections(clean)
    assert (cov.percent, cov.missing, cov.untranslated) == (100.0, (), ())


def test_missing_rule_and_example_counts() -> None:
    partial = _translation([("707.1", "Certains objets deviennent une copie.")], examples=1)
    english, page = partial.sources["cr:en:2023-04-14"], partial.sources["cr:fr:2024"]
    partial.records[english.id].append(
        Rule("cr:en:2023-04-14:707.2", "707.2", "When copying an object...", "en",
             "2023-04-14", Loc(english.file, 9)))
    partial.records[page.id].append(
        Rule("cr:fr:2024:707.99", "707.99", "Une règle inventée.", "fr", "2024",
             Loc(page.file, 99)))
    found = {f.check: f for f in coverage.check(partial)}
    assert found["section"].message.endswith("1 of 2 rules in French (50%), 0 left in English, "
                                             "1 missing: 707.2")
    assert found["examples"].message == ("French 707.1 has 1 examples, its English original "
                                         "cr:en:2023-04-14:707.1 has 0")
    assert found["french-only"].records[0].id == "cr:fr:2024:707.99"


def test_unpaired_rulings_of_a_faq_pair() -> None:
    fr = source("faq:fr:dgm", file="fr.txt")
    en = source("faq:en:dgm", language="en", file="en.md")
    ours = Ruling("faq:fr:dgm:x/1", "Une note.", "fr", Loc("fr.txt", 3), card="X")
    theirs = Ruling("faq:en:dgm:x/1", "A note.", "en", Loc("en.md", 4), card="X")
    paired = data((fr, [ours]), (en, [theirs]),
                  links=[Link(ours.id, theirs.id, "same-ruling", 0.9, "position 1 of 1")])
    assert list(coverage.check(paired)) == []
    unpaired = data((fr, [ours]), (en, [theirs]))
    assert sorted(f.records[0].file for f in coverage.check(unpaired)) == ["en.md", "fr.txt"]
