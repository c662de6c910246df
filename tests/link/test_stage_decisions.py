"""The link stage decides every pairing once and stores it with its basis (issue 21): a store
built by hand with a few of today's rules (MagicCompRules 20260417.txt: "702.100. Evolve",
"702.102. Fuse", "709. Split Cards"), the French FAQ's "702.100. Fusion" and its 702.100a citing
"règle 708" (corpus/001_*, lines 33-34, dated 2013-03-21), and an English text quoting a
"702.100. Valour" that no version of the rules has. The rules of those years are known from
kb's numbering table alone, as on the default install."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.corpus import embedded_corpus
from kb.link.numbering import TABLE_PATH, NumberingTable
from kb.link.stage import link_all
from kb.model import Citation, Link, Loc, Rule, Source
from kb.report import citations
from kb.report.data import ReportData
from kb.store import Store

TODAY = "cr:en:2026-04-17"


def source(sid: str, fmt: str, language: str, version: str) -> Source:
    return Source(sid, f"{sid}.txt", sid, "0" * 64, fmt, language, version, "utf-8", "LF")


def rule(rid: str, number: str, text: str, language: str, version: str,
         title: str | None = None, cites: str | None = None) -> Rule:
    return Rule(rid, number, text, language, version, Loc("f", 1), title=title,
                citations=(Citation(rid, f"règle {cites}", cites, cites),) if cites else ())


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, list[Link]]:
    store = Store.create(tmp_path_factory.mktemp("stage") / "kb.sqlite")
    store.add_source(source(TODAY, "cr_text", "en", "2026-04-17"), [
        rule(f"{TODAY}:702.100", "702.100", "Evolve", "en", "2026-04-17", "Evolve"),
        rule(f"{TODAY}:702.102", "702.102", "Fuse", "en", "2026-04-17", "Fuse"),
        rule(f"{TODAY}:702.102a", "702.102a", "Fuse is a static ability found on some split "
             "cards (see rule 709).", "en", "2026-04-17", cites="709"),
        rule(f"{TODAY}:709", "709", "Split Cards", "en", "2026-04-17", "Split Cards"),
    ])
    faq = "faq:fr:dgm-2013-03-21"
    store.add_source(source(faq, "faq_fr", "fr", "2013-03-21"), [
        rule(f"{faq}:rule/702.100", "702.100", "Fusion", "fr", "2013-03-21", "Fusion"),
        rule(f"{faq}:rule/702.100a", "702.100a", "La fusion est une capacité statique de "
             "certaines cartes doubles (voir règle 708).", "fr", "2013-03-21", cites="708"),
    ])
    odd = "faq:en:odd-2013-03-21"
    store.add_source(source(odd, "faq_md", "en", "2013-03-21"), [
        rule(f"{odd}:rule/702.100", "702.100", "Valour", "en", "2013-03-21", "Valour"),
        rule(f"{odd}:rule/702.100a", "702.100a", "Valour is a keyword.", "en", "2013-03-21"),
    ])
    store.index_records()
    link_all(store, table=NumberingTable.read(embedded_corpus() / TABLE_PATH))
    store.commit()
    return store, store.links()


def of(links: list[Link], record_id: str, relation: str) -> list[Link]:
    return [k for k in links if k.from_id == record_id and k.relation == relation]


def test_the_faq_fusion_is_fuse_of_2013_and_702_102_today(linked) -> None:
    _, links = linked
    heading = "faq:fr:dgm-2013-03-21:rule/702.100"
    (read,) = of(links, heading, "counterpart")
    assert read.to_id == "cr:en:2013-05-01:702.100"  # not held: the table knows it
    assert read.basis == "numbering table, date, title (official vocabulary: Fusion = fuse)"
    (today,) = of(links, heading, "current")
    assert today.to_id == f"{TODAY}:702.102"
    (wording,) = of(links, heading, "corresponds")
    assert wording.to_id == f"{TODAY}:702.102"  # the one English wording held
    assert not [k for k in links if k.to_id == f"{TODAY}:702.100" and k.relation != "unpaired"]


def test_the_citation_of_708_is_read_in_the_rules_in_force_and_followed(linked) -> None:
    _, links = linked
    sub = "faq:fr:dgm-2013-03-21:rule/702.100a"
    assert [k.to_id for k in of(links, sub, "current")] == [f"{TODAY}:702.102a"]
    (then,) = of(links, sub, "cites-then")
    assert then.to_id == "cr:en:2012-10-01:708" and then.basis.startswith("citation")
    assert [k.to_id for k in of(links, sub, "cites")] == [f"{TODAY}:709"]
    assert [k.to_id for k in of(links, then.to_id, "current")] == [f"{TODAY}:709"]


def test_a_text_nothing_pairs_is_a_finding_not_a_translation(linked) -> None:
    store, links = linked
    heading, sub = "faq:en:odd-2013-03-21:rule/702.100", "faq:en:odd-2013-03-21:rule/702.100a"
    for record in (heading, sub):
        assert not of(links, record, "counterpart") and not of(links, record, "current")
    (why,) = of(links, heading, "unpaired")
    assert why.to_id == f"{TODAY}:702.100"
    assert why.evidence == (
        "the English text of 2013-03-21 numbered 702.100 (Valour) is not shown as a text of "
        "702.100: no version of the rules near 2013-03-21 has a rule 702.100 titled valour, "
        "nor one rule of that title; today's 702.100 is Evolve")
    assert of(links, sub, "unpaired")[0].evidence.endswith(
        "its heading 702.100 is unpaired; the rules of 2026-04-17 have no 702.100a")
    found = [f for f in citations.check(ReportData.from_store(store)) if f.check == "unpaired"]
    assert [(f.message, sorted(r.id for r in f.records)) for f in found] == [
        (why.evidence, [heading, sub])]


def test_no_table_no_reading_beyond_the_versions_held(tmp_path: Path) -> None:
    """Without the table, the FAQ's 702.100 is read in the one version held, today's: its
    title (Fusion = fuse) disagrees with Evolve, and no Fuse is 702.100: found by its title."""
    store = Store.create(tmp_path / "kb.sqlite")
    store.add_source(source(TODAY, "cr_text", "en", "2026-04-17"), [
        rule(f"{TODAY}:702.100", "702.100", "Evolve", "en", "2026-04-17", "Evolve"),
        rule(f"{TODAY}:702.102", "702.102", "Fuse", "en", "2026-04-17", "Fuse")])
    store.add_source(source("faq:fr:x", "faq_fr", "fr", "2013-03-21"), [
        rule("faq:fr:x:rule/702.100", "702.100", "Fusion", "fr", "2013-03-21", "Fusion")])
    store.index_records()
    link_all(store)
    (read,) = store.links(from_id="faq:fr:x:rule/702.100", relation="counterpart")
    assert read.to_id == f"{TODAY}:702.102" and read.basis.startswith("held texts, title")
