"""Each rules text indexed once: the plan of which version's segment holds it. Texts are the
CR's own: 702.19a (Trample, unchanged since 2009), 702.19b as worded in 2013 and in 2023."""

from __future__ import annotations

from pathlib import Path

from kb.index.spans import plan
from kb.model import Citation, Example, Loc, Rule, Source
from kb.store import Store

TRAMPLE_A = "Trample is a static ability that modifies the rules for assigning an attacking " \
    "creature's combat damage. The rules for trample apply only when the attacking creature " \
    "is blocked."
OLD_B = "The controller of an attacking creature with trample first assigns damage to the " \
    "creature(s) blocking it."
NEW_B = "The controller of an attacking creature with trample first assigns damage to the " \
    "creature(s) blocking it. Once all those blocking creatures are assigned lethal damage, " \
    "any excess damage is assigned as its controller chooses among those blocking creatures " \
    "and the player, planeswalker, or battle the creature is attacking."
EXAMPLE = "Example: A 2/2 creature with trample is blocked by a 1/1 creature."


def _version(store: Store, date: str, b_text: str, examples: int = 1) -> str:
    source = Source(f"cr:en:{date}", f"{date}.txt", f"/x/{date}.txt", date, "cr_text", "en",
                    date, "utf-8", "LF")
    rid = f"cr:en:{date}:702.19"
    records = [
        Rule(f"{rid}a", "702.19a", TRAMPLE_A, "en", date, Loc(source.file, 1), parent="702.19",
             citations=(Citation(f"{rid}a", "rule 510", "510", "510"),)),
        Rule(f"{rid}b", "702.19b", b_text, "en", date, Loc(source.file, 2), parent="702.19"),
        *(Example(f"{rid}b/ex{n}", "702.19b", n, EXAMPLE, "en", date, Loc(source.file, 3 + n))
          for n in range(1, examples + 1)),
    ]
    store.add_source(source, records)
    return source.id


def test_a_text_is_indexed_once_in_the_last_version_of_its_run(tmp_path: Path):
    store = Store.create(tmp_path / "kb.sqlite")
    v1 = _version(store, "2013-05-01", OLD_B)
    v2 = _version(store, "2023-04-14", NEW_B, examples=2)
    v3 = _version(store, "2026-04-17", NEW_B)
    spans = plan(store)
    # 702.19a never changed: one document, in the newest segment, spanning all three.
    assert spans[v3].first["cr:en:2026-04-17:702.19a"] == "2013-05-01"
    assert "cr:en:2013-05-01:702.19a" not in spans[v1].first
    # 702.19b changed in 2023: the 2013 wording ends in 2013's segment.
    assert spans[v1].first == {"cr:en:2013-05-01:702.19b": "2013-05-01"}
    assert spans[v3].first["cr:en:2026-04-17:702.19b"] == "2023-04-14"
    # A second example in 2023, gone in 2026, ends in 2023; the first runs on.
    assert spans[v2].first == {"cr:en:2023-04-14:702.19b/ex2": "2023-04-14"}
    assert spans[v3].first["cr:en:2026-04-17:702.19b/ex1"] == "2013-05-01"
    assert sum(len(s.first) for s in spans.values()) == 5  # five distinct texts


def test_a_record_split_into_a_shared_body_reads_back_whole(tmp_path: Path):
    store = Store.create(tmp_path / "kb.sqlite")
    _version(store, "2013-05-01", OLD_B)
    _version(store, "2023-04-14", OLD_B)
    store.commit()
    assert store.conn.execute("SELECT COUNT(*) FROM bodies").fetchone()[0] == 3
    rule = store.get("cr:en:2023-04-14:702.19a")
    assert rule == Rule("cr:en:2023-04-14:702.19a", "702.19a", TRAMPLE_A, "en", "2023-04-14",
                        Loc("2023-04-14.txt", 1), parent="702.19",
                        citations=(Citation(rule.id, "rule 510", "510", "510"),))
    assert store.same_text_in("cr:en:2023-04-14:702.19b", "2013-05-01") == \
        "cr:en:2013-05-01:702.19b"
