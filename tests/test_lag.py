"""Translation lag: the English version a French rule text matches, and whether it is stale.

First a store built by hand (two versions of a Fuse-like rule whose only difference a
translation can see is the rule it cites), then the session index with the seeds. Facts read in
the files: the French FAQ's 702.100a (corpus/001_*, line 34) cites "règle 708" like 702.100a of
MagicCompRules 20130429.txt (line 3479), while 702.102a of 2023 cites 709; the French page
corpus/003_* (2024) has 707.5, whose English changed from "such as “enters the battlefield
with” or “as [this] enters the battlefield” abilities" (20230414.txt, line 5135) to "such as
“enters with” or “as [this] enters” abilities" (20250207.txt, line 5437); its 707.10e English
is the same in 2023 and 2025 and grew a sentence in 2026 ("In the case where a replacement
effect causes the copy to target more than one object, ...").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.lag import TranslationLag, translation_lag
from kb.link.stage import link_all
from kb.model import Citation, Loc, Rule, Source
from kb.reader import KnowledgeBase
from kb.store import Store
from tests.conftest import cr_file


def rule(rid: str, number: str, text: str, version: str, language: str = "en",
         cites: tuple[str, ...] = ()) -> Rule:
    return Rule(rid, number, text, language, version, Loc("f", 1),
                citations=tuple(Citation(rid, f"rule {c}", c, c) for c in cites))


def source(sid: str, fmt: str, language: str, version: str) -> Source:
    return Source(sid, sid, sid, sid, fmt, language, version, "utf-8", "LF")


@pytest.fixture
def small(tmp_path: Path) -> Store:
    store = Store.create(tmp_path / "kb.sqlite")
    cr13, cr23 = "cr:en:2013-05-01", "cr:en:2023-04-14"
    store.add_source(source(cr13, "cr_text", "en", "2013-05-01"), [
        rule(f"{cr13}:702.100a", "702.100a", "Fuse (see rule 708).", "2013-05-01",
             cites=("708",)),
        rule(f"{cr13}:100.1", "100.1", "These rules apply to any game.", "2013-05-01"),
    ])
    store.add_source(source(cr23, "cr_text", "en", "2023-04-14"), [
        rule(f"{cr23}:702.102a", "702.102a", "Fuse (see rule 709).", "2023-04-14",
             cites=("709",)),
        rule(f"{cr23}:100.1", "100.1", "These rules apply to any Magic game.", "2023-04-14"),
    ])
    fr = "faq:fr:x"
    store.add_source(source(fr, "faq_fr", "fr", "2013-03-21"), [
        rule(f"{fr}:old", "702.100a", "Fusion (voir règle 708).", "2013-03-21", "fr", ("708",)),
        rule(f"{fr}:new", "702.102a", "Fusion (voir règle 709).", "2013-03-21", "fr", ("709",)),
        rule(f"{fr}:plain", "100.1", "Ces règles s'appliquent.", "2013-03-21", "fr"),
        rule(f"{fr}:lost", "999.9", "Rien.", "2013-03-21", "fr"),
    ])
    store.index_records()
    # The build's link stage decides, once, which English wording each text matches; these
    # two versions are not published ones, so no numbering table is read.
    link_all(store)
    store.commit()
    return store


def by_id(rows: list[TranslationLag]) -> dict[str, TranslationLag]:
    return {r.record_id: r for r in rows}


def test_the_cited_rule_tells_the_versions_apart(small):
    rows = by_id(translation_lag(small))
    old, new = rows["faq:fr:x:old"], rows["faq:fr:x:new"]
    assert (old.english_version, old.english_number, old.basis) == (
        "2013-05-01", "702.100a", "signals")
    assert (old.status, old.stale, old.changed_in) == ("stale", True, "2023-04-14")
    assert (old.current_id, old.current_number, old.current_text) == (
        "cr:en:2023-04-14:702.102a", "702.102a", "Fuse (see rule 709).")
    # Its number is 2023's (the first version near its date that holds it), and so is the
    # rule it cites.
    assert (new.english_version, new.english_number, new.basis) == (
        "2023-04-14", "702.102a", "signals")
    assert (new.status, new.stale, new.changed_in) == ("current", False, None)


def test_without_signals_the_anchor_version_is_kept(small):
    plain = by_id(translation_lag(small))["faq:fr:x:plain"]
    assert (plain.english_version, plain.basis) == ("2013-05-01", "date")
    assert (plain.status, plain.changed_in) == ("stale", "2023-04-14")


def test_an_unanchored_translation_is_listed_not_dropped(small):
    lost = by_id(translation_lag(small))["faq:fr:x:lost"]
    assert lost.status == "unanchored"
    assert lost.english_id is None and lost.current_version == "2023-04-14"
    assert not lost.stale


def test_only_the_language_asked_for(small):
    assert translation_lag(small, "pt") == []
    assert all(r.language == "fr" for r in translation_lag(small))


# -- the session index ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lag(cr_index) -> dict[str, TranslationLag]:
    with KnowledgeBase(cr_index) as kb:
        rows = translation_lag(kb.store)
        french = {r.id for r in kb.store.query(kind="rule", language="fr")}
    assert len(rows) == len(french) and {r.record_id for r in rows} == french
    return by_id(rows)


def line(date: str, number: str) -> str:
    """The text of rule ``number`` in the shared CR file of that date, read the simple way."""
    text = cr_file(date).read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    for row in text.replace("\r", "\n").split("\n"):
        if row.startswith(f"{number} ") or row.startswith(f"{number}. "):
            return row.split(" ", 1)[1]
    raise AssertionError(f"{number} not in {date}")


def test_the_french_faq_translates_the_2013_rules(lag):
    fuse = lag["faq:fr:dgm-2013-03-21:rule/702.100a"]
    assert (fuse.english_version, fuse.english_number, fuse.basis) == (
        "2013-05-01", "702.100a", "signals")
    assert (fuse.status, fuse.changed_in) == ("stale", "2023-04-14")
    assert fuse.current_number == "702.102a"
    assert fuse.current_text == line("20260417", "702.102a")


def test_the_2024_french_page_and_the_english_since(lag):
    assert line("20230414", "707.5") != line("20250207", "707.5")
    copy = lag["cr:fr:2024:707.5"]
    assert (copy.english_version, copy.status, copy.changed_in) == (
        "2023-04-14", "stale", "2025-02-07")
    target = lag["cr:fr:2024:707.10e"]
    assert line("20230414", "707.10e") == line("20250207", "707.10e")
    assert (target.english_version, target.changed_in) == ("2023-04-14", "2026-04-17")
    assert line("20230414", "707.2c") == line("20250207", "707.2c") == line("20260417",
                                                                              "707.2c")
    assert lag["cr:fr:2024:707.2c"].status == "current"
