"""Category 5, examples: findings from hand-made ``kb check`` results (the field names are
those ``kb check`` gives: id, source, language, status, claim, computed)."""

from __future__ import annotations

import pytest

from kb.model import Example, Link, Loc, Rule
from kb.report.examples import findings_from_check, read_result

from .helpers import cr, data, source

FR_EX = "cr:fr:2024:707.2/ex1"
EN_EX = "cr:en:2023-04-14:707.2/ex1"


def _page():
    english, rules = cr("2023-04-14", ["707.2"])
    en_example = Example(EN_EX, "707.2", 1, "Example: Clone enters as a copy of a 5/5 Staff.",
                         "en", "2023-04-14", Loc(english.file, 2))
    page = source("cr:fr:2024", fmt="cr_table", version="2024", file="fr.txt")
    fr_rule = Rule("cr:fr:2024:707.2", "707.2", "Quand on copie un objet...", "fr", "2024",
                   Loc("fr.txt", 5))
    fr_example = Example(FR_EX, "707.2", 1, "Exemple : le Clone devient une copie du Bâton.",
                         "fr", "2024", Loc("fr.txt", 7))
    link = Link(fr_rule.id, "cr:en:2023-04-14:707.2", "counterpart", 0.7, "same number")
    return data((english, [*rules, en_example]), (page, [fr_rule, fr_example]), links=[link])


def _result(id_: str, status: str, computed: str = "a 5/5 artifact", language: str = "en"):
    return {"id": id_, "source": "x.txt:1", "language": language, "status": status,
            "claim": "the Clone is an artifact, not a 5/5 creature", "computed": computed}


def test_verified_examples_yield_nothing() -> None:
    results = [_result(EN_EX, "verified"), _result(FR_EX, "verified", language="fr")]
    assert list(findings_from_check(_page(), results)) == []
    # Statuses that are no verdicts are compared with nothing.
    not_checkable = [_result(EN_EX, "verified"), _result(FR_EX, "not modelled")]
    assert list(findings_from_check(_page(), not_checkable)) == []


def test_contradicted_and_era_dependent() -> None:
    results = [_result(EN_EX, "contradicted", "a 5/5 artifact creature"),
               _result(FR_EX, "era-dependent", language="fr")]
    found = {f.check: f for f in findings_from_check(_page(), results)}
    assert found["contradicted"].severity == "error"
    assert found["contradicted"].message == (
        f"example {EN_EX} says the Clone is an artifact, not a 5/5 creature, the rules engine "
        "computes a 5/5 artifact creature")
    assert [r.line for r in found["contradicted"].records] == [2]
    assert found["era-dependent"].severity == "warning"
    assert found["languages-disagree"].records[0].id == FR_EX
    assert "(era-dependent: a 5/5 artifact)" in found["languages-disagree"].message


def test_results_of_kb_check_and_bad_results() -> None:
    """kb check's own result objects are read as they are."""
    from kb.check import ExampleResult

    given = ExampleResult(EN_EX, "x.txt", "en", "era-dependent", "c", "d", "s", "rule 613.2")
    result = read_result(given)
    assert (result.id, result.status, result.changed_rule) == (EN_EX, "era-dependent",
                                                              "rule 613.2")
    (found,) = findings_from_check(_page(), [given])
    assert found.message == (f"example {EN_EX} holds only under the rules of its time "
                             "(changed by rule 613.2): d")
    with pytest.raises(ValueError, match="needs an id and a status"):
        read_result({"id": EN_EX})
