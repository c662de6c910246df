"""The record store's lookups that the search and the card view read links through."""

from __future__ import annotations

from pathlib import Path

from kb.model import Link
from kb.store import Store


def test_linked_joins_each_start_with_what_the_relation_reaches_both_ways(
        tmp_path: Path) -> None:
    # A French ruling and an FAQ's ruling both point at MTGJSON's; a second English ruling
    # points at the FAQ's (a chain, in both directions); "same-card" links join nothing here.
    store = Store.create(tmp_path / "kb.sqlite")
    store.replace_links([
        Link("ruling:fr:1", "ruling:en:mtgjson:1", "same-ruling", 1.0, "", ""),
        Link("ruling:en:faq:1", "ruling:en:mtgjson:1", "same-ruling", 1.0, "", ""),
        Link("ruling:en:other:1", "ruling:en:faq:1", "same-ruling", 1.0, "", ""),
        Link("ruling:en:faq:1", "card:en:faq:x", "same-card", 1.0, "", ""),
        Link("ruling:en:faq:2", "ruling:en:mtgjson:2", "same-ruling", 1.0, "", ""),
    ])
    one = {"ruling:fr:1", "ruling:en:mtgjson:1", "ruling:en:faq:1", "ruling:en:other:1"}
    assert store.linked(["ruling:fr:1", "ruling:en:other:1", "ruling:en:faq:2", "alone"],
                        "same-ruling") == {
        "ruling:fr:1": one,
        "ruling:en:other:1": one,
        "ruling:en:faq:2": {"ruling:en:faq:2", "ruling:en:mtgjson:2"},
        "alone": {"alone"},
    }
    assert store.linked(["ruling:en:mtgjson:1"], "same-card") == {
        "ruling:en:mtgjson:1": {"ruling:en:mtgjson:1"}}
    assert store.linked([], "same-card") == {}
