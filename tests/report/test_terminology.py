"""Category 4, terminology drift: the term table, the seeds, and documents on each side of a
change."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from kb.errors import KbError
from kb.model import Card, CardFace, Loc, Note, Rule, Ruling
from kb.report import terminology
from kb.report.data import ReportData
from kb.text.decode import decode
from tests.conftest import SHARED_CORPUS, cr_file

from .conftest import FAQ_FR
from .helpers import data, source


def test_the_french_faq_of_2013_is_outdated(cr_data: ReportData) -> None:
    found = [f for f in terminology.check(cr_data) if f.records[0].file == FAQ_FR]
    by_old = {f.message.split("“")[1].split("”")[0]: f for f in found}
    assert set(by_old) == {"coût converti de mana", "mettez sur le champ de bataille ... jeton"}
    assert {f.severity for f in found} == {"info"}
    # Read in 001_*: "coût(s) converti(s) de mana" outside card texts at lines 35 (702.100b),
    # 39, 43, 44 (fuse notes), 422, 612, 643 (rulings); "mettez sur le champ de bataille un
    # jeton" in the Progenitor Mimic ruling, line 484 (card texts print the wording of 2013).
    cmc = by_old["coût converti de mana"]
    assert sorted(r.line for r in cmc.records) == [35, 39, 43, 44, 422, 612, 643]
    assert "(written 2013-03-21)" in cmc.message and "2021-04-23" in cmc.message
    assert [r.line for r in by_old["mettez sur le champ de bataille ... jeton"].records] == [484]


def _doc(version: str, text: str, *, fmt: str = "faq_fr", language: str = "fr", kind=Note):
    src = source("doc:fr:x", fmt=fmt, language=language, version=version, file="doc.txt")
    if kind is Rule:
        record = Rule("doc:fr:x:1", "1", text, language, version, Loc("doc.txt", 1))
    elif kind is Card:
        record = Card("doc:fr:x:c", "C", language, Loc("doc.txt", 1), faces=(CardFace("C",
                                                                                  text=text),))
    else:
        record = Note("doc:fr:x:n", text, language, Loc("doc.txt", 1))
    return data((src, [record]))


OLD_FR = "Son coût converti de mana est de 7."


def test_before_and_after_a_change() -> None:
    (before,) = terminology.check(_doc("2013-03-21", OLD_FR))
    assert (before.check, before.severity) == ("outdated", "info")
    (after,) = terminology.check(_doc("2022-01-10", OLD_FR))
    assert (after.check, after.severity) == ("after-change", "error")
    assert "use “valeur de mana”" in after.message
    # A year alone: 2021 may be before April 23, 2021.
    (same_year,) = terminology.check(_doc("2021", OLD_FR))
    assert same_year.severity == "info"


def test_current_wording_quotes_cards_and_the_rules_yield_nothing() -> None:
    assert list(terminology.check(_doc("2022-01-10", "Sa valeur de mana est de 7."))) == []
    quoted = "Les cartes imprimées avec « coût converti de mana » ont reçu un errata."
    assert list(terminology.check(_doc("2022-01-10", quoted))) == []
    assert list(terminology.check(_doc("2022-01-10", OLD_FR, kind=Card))) == []
    cr_text = _doc("2022-01-10", "Converted mana cost (obsolete).", fmt="cr_text",
                   language="en", kind=Rule)
    assert list(terminology.check(cr_text)) == []
    # A ruling's own date counts, not its source's.
    src = source("rulings:x", fmt="mtgjson", language="en", version="2022-04-25", file="r.json")
    old = Ruling("rulings:x:1", "Put a 1/1 token onto the battlefield.", "en", Loc("r.json", 1),
                 date="2014-02-01")
    (found,) = terminology.check(data((src, [old])))
    assert found.severity == "info" and "(written 2014-02-01)" in found.message


def test_the_table_loads(tmp_path: Path) -> None:
    terms = terminology.load_terms()
    assert {(t.language, t.old, t.new) for t in terms} >= {
        ("en", "converted mana cost", "mana value"), ("fr", "coût converti de mana",
                                                     "valeur de mana"),
        ("en", "in play", "on the battlefield"), ("en", "tribal", "kindred")}
    assert all(t.source and t.change for t in terms)


@pytest.mark.parametrize(("body", "error"), [
    ("[[term]]\nlanguage = 'en'\n", "missing or not text: old, new, date, change, source"),
    ("[[term]]\nlanguage='en'\nold='a'\nnew='b'\ndate='2021-13-01'\nchange='c'\nsource='d'\n",
     "date '2021-13-01' is not YYYY-MM-DD"),
    ("[[term]]\nlanguage='en'\nold='a'\nnew='b'\ndate='2021-01-01'\nchange='c'\nsource='d'\n"
     "pattern='(unclosed'\n", "pattern '(unclosed'"),
    ("[[term]\n", "line 1"),
])
def test_a_malformed_table_names_the_file_and_entry(tmp_path: Path, body: str,
                                                    error: str) -> None:
    path = tmp_path / "terms.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(KbError, match=str(path)) as info:
        terminology.load_terms(path)
    assert error in str(info.value)


def test_english_dates_fall_between_the_versions_that_changed_wording() -> None:
    """In the official English rules, the old wording is frequent in the last version held
    before each change and nearly gone (a few "obsolete" notes) from the first after it."""
    cr_file("20260417")
    files = {"2006-10-01": "cr-en/MagicCompRules 20061001.txt",
             "2013-05-01": "cr-en/MagicCompRules 20130429.txt",
             "2020-11-20": "cr-other/magicjudgesbr_comprehensive-rules_en_20201120_source.txt",
             "2023-04-14": "cr-en/MagicCompRules 20230414.txt",
             "2025-02-07": "cr-en/MagicCompRules 20250207.txt"}
    texts = {date.fromisoformat(v): decode((SHARED_CORPUS / f).read_bytes()).text
             for v, f in files.items()}
    for term in (t for t in terminology.load_terms() if t.language == "en"):
        before = max(d for d in texts if d < term.date)
        after = min(d for d in texts if d >= term.date)
        old, new = (len(term.pattern.findall(texts[d])) for d in (before, after))
        assert old >= 4 * max(new, 1), (term.old, before, old, after, new)
