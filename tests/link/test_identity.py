"""Rule identity across CR versions: small hand-built versions, then the five real files.

The facts about the real files were read in them: Fuse is 702.100 in the 2013 file and 702.102
in 2023, 2025 and 2026; "Split Cards" is 708 in 2013 and 709 later, and the 2013 sentence
"Although split cards have two castable halves, ..." (708.4) is 709.2 from 2023 on; 310 is
"Phenomena" in 2013 and "Battles" in 2023, Phenomena being 312 in 2023; Trample is 702.18 and
Vigilance 702.19 in 2013, 702.19 and 702.20 later; Echo is 502.19 in 2006, 702.28 in 2013 and
702.30 later; "Totem Armor" (702.89, 2023) is "Umbra Armor" in 2025; "Adapt" is 701.43 in 2025
and 701.46 in 2026.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kb.lineage import Lineage
from kb.link.identity import build_lineage, compare_versions, match_versions, normalize
from kb.model import Loc, Rule
from kb.sources import cr_text
from kb.text.decode import decode
from tests.conftest import cr_file


def rule(version: str, number: str, text: str, heading: bool = False) -> Rule:
    return Rule(f"cr:en:{version}:{number}", number, text, "en", version, Loc("f", 1),
                title=text if heading else None)


def version(name: str, *rows: tuple[str, str] | tuple[str, str, bool]) -> list[Rule]:
    return [rule(name, *row) for row in rows]


def pairs(old: Sequence[Rule], new: Sequence[Rule]) -> dict[str, tuple[str, str]]:
    return {m.old_number: (m.new_number, m.how) for m in match_versions(old, new)}


FUSE = ("Fuse is a static ability found on some split cards (see rule {}) that applies while "
        "the card with fuse is in a player's hand.")
EVOLVE = "Evolve is a triggered ability. Whenever a creature enters the battlefield, evolve."


# -- normalization -------------------------------------------------------------------------


def test_normalize_ignores_rewording_quotes_and_rule_numbers():
    old = "If he or she pays its converted mana cost, it comes into play (see rule 708, “X”)."
    new = "If they pay its mana value, it enters the battlefield (see rule 709, \"X\")."
    assert normalize(old).replace("pays", "pay") == normalize(new)
    assert normalize("his or her hand") == "their hand"
    assert normalize("in play") == "on the battlefield"


# -- hand-built versions ------------------------------------------------------------------


def test_heading_found_by_title_and_its_subrule_follows():
    old = version("2013", ("702", "Keyword Abilities", True), ("702.100", "Fuse", True),
                  ("702.100a", FUSE.format(708)))
    new = version("2023", ("702", "Keyword Abilities", True), ("702.100", "Evolve", True),
                  ("702.100a", EVOLVE), ("702.102", "Fuse", True),
                  ("702.102a", FUSE.format(709)))
    assert pairs(old, new) == {
        "702": ("702", "same"),
        "702.100": ("702.102", "title"),
        "702.100a": ("702.102a", "heading"),
    }
    diff = compare_versions(old, new)
    assert diff.removed == ()
    assert diff.added == ("702.100", "702.100a")


def test_same_number_with_another_title_is_another_rule():
    old = version("2013", ("310", "Phenomena", True),
                  ("310.1", "Phenomenon is a card type seen only on nontraditional cards."))
    new = version("2023", ("310", "Battles", True),
                  ("310.1", "A player who has priority may cast a battle card from their hand."))
    assert match_versions(old, new) == []
    diff = compare_versions(old, new)
    assert diff.removed == ("310", "310.1")
    assert diff.added == ("310", "310.1")


def test_heading_retitled_when_its_subrules_stayed():
    old = version("2023", ("702.89", "Totem Armor", True),
                  ("702.89a", "Totem armor is a static ability that appears on some Auras. "
                              "If enchanted permanent would be destroyed, instead remove all "
                              "damage marked on it and destroy this Aura."))
    new = version("2025", ("702.89", "Umbra Armor", True),
                  ("702.89a", "Umbra armor is a static ability that appears on some Auras. "
                              "If enchanted permanent would be destroyed, instead remove all "
                              "damage marked on it and destroy this Aura."))
    assert pairs(old, new) == {"702.89": ("702.89", "retitled"), "702.89a": ("702.89a", "same")}


def test_rule_moved_within_its_heading_by_text():
    halves = ("Although split cards have two castable halves, each split card is only one "
              "card.")
    old = version("2013", ("708", "Split Cards", True),
                  ("708.1", "Split cards have two card faces on a single card."),
                  ("708.4", halves))
    new = version("2023", ("708", "Face-Down Spells and Permanents", True),
                  ("708.1", "Some cards allow spells and permanents to be face down."),
                  ("709", "Split Cards", True),
                  ("709.1", "Split cards have two card faces on a single card."),
                  ("709.2", halves))
    assert pairs(old, new) == {
        "708": ("709", "title"),
        "708.1": ("709.1", "heading"),
        "708.4": ("709.2", "moved"),
    }


def test_repeated_title_follows_its_parent():
    old = version("a", ("1", "Game Concepts", True), ("100", "General", True),
                  ("3", "Card Types", True), ("300", "General", True))
    new = version("b", ("1", "Game Concepts", True), ("100", "General", True),
                  ("2", "Parts of a Card", True), ("3", "Card Types", True),
                  ("300", "General", True))
    assert pairs(old, new) == {"1": ("1", "same"), "100": ("100", "same"),
                               "3": ("3", "same"), "300": ("300", "same")}


def test_unrelated_text_at_the_same_number_is_not_matched():
    old = version("a", ("100", "General", True),
                  ("100.5", "There is no maximum deck size for any format whatsoever."))
    new = version("b", ("100", "General", True),
                  ("100.5", "Each player may also have a sideboard of additional cards."))
    assert pairs(old, new) == {"100": ("100", "same")}


def test_a_rule_that_grew_a_sentence_keeps_its_number():
    old = version("a", ("100.5", "There is no maximum deck size."))
    new = version("b", ("100.5", "If a deck must contain at least a certain number of cards, "
                                 "that number is the minimum deck size. There is no maximum "
                                 "deck size for non-Commander decks."))
    assert pairs(old, new) == {"100.5": ("100.5", "same")}


def test_empty_versions():
    assert match_versions([], []) == []
    assert compare_versions([], version("b", ("100.1", "Text."))).added == ("100.1",)
    lineage = build_lineage({})
    assert lineage.trace("2026", "100.1") == {}
    assert lineage.current("2026", "100.1") is None


def test_lineage_traces_through_three_versions():
    v1 = version("2013", ("702.100", "Fuse", True), ("702.100a", FUSE.format(708)))
    v2 = version("2023", ("702.102", "Fuse", True), ("702.102a", FUSE.format(709)))
    v3 = version("2026", ("702.101", "Fuse", True), ("702.101a", FUSE.format(709)))
    lineage = build_lineage({"2026": v3, "2013": v1, "2023": v2})
    assert lineage.versions == ("2013", "2023", "2026")
    assert lineage.trace("2023", "702.102a") == {
        "2013": "702.100a", "2023": "702.102a", "2026": "702.101a"}
    assert lineage.current("2013", "702.100") == "702.101"
    assert lineage.current("2013", "702.100", latest="2023") == "702.102"
    assert lineage.trace("2013", "999.1") == {}


# -- the real files ---------------------------------------------------------------------------

DATES = ("20061001", "20130429", "20230414", "20250207", "20260417")
V2006, V2013, V2023, V2025, V2026 = (
    "2006-10-01", "2013-05-01", "2023-04-14", "2025-02-07", "2026-04-17")


def load(date: str) -> list[Rule]:
    path = cr_file(date)
    text = decode(path.read_bytes()).text
    return [r for r in cr_text.parse(text, path.name).records if isinstance(r, Rule)]


@pytest.fixture(scope="module")
def real() -> dict[str, list[Rule]]:
    return {rules[0].version: rules for rules in map(load, DATES)}


@pytest.fixture(scope="module")
def lineage(real: dict[str, list[Rule]]) -> Lineage:
    return build_lineage(real)


def test_fuse_moves_from_702_100_to_702_102(lineage):
    assert lineage.trace(V2013, "702.100") == {
        V2013: "702.100", V2023: "702.102", V2025: "702.102", V2026: "702.102"}
    assert lineage.current(V2013, "702.100a") == "702.102a"
    assert lineage.current(V2013, "702.100a", latest=V2023) == "702.102a"


def test_split_cards_move_from_708_to_709(lineage):
    assert lineage.current(V2013, "708") == "709"
    assert lineage.current(V2013, "708.1") == "709.1"
    # 2013 708.4 "Although split cards have two castable halves, ..." is 709.2 from 2023 on;
    # 2013 708.2 (two sets of characteristics) was rewritten, and is not 709.2.
    assert lineage.current(V2013, "708.4") == "709.2"
    assert lineage.current(V2013, "708.2") != "709.2"


def test_phenomena_at_310_is_not_battles_at_310(lineage):
    assert lineage.current(V2013, "310", latest=V2023) == "312"
    assert lineage.current(V2013, "310.1", latest=V2023) == "312.1"
    assert lineage.trace(V2023, "310").get(V2013) is None


def test_vigilance_and_trample_shift_by_one(lineage):
    assert lineage.current(V2013, "702.19") == "702.20"
    assert lineage.current(V2013, "702.19b") == "702.20b"
    assert lineage.trace(V2026, "702.19b")[V2013] == "702.18b"
    assert lineage.trace(V2026, "702.19")[V2013] == "702.18"


def test_unchanged_rules_keep_their_number(lineage):
    for number in ("100.1", "100.2", "1", "100"):
        trace = lineage.trace(V2013, number)
        assert [trace.get(v) for v in (V2023, V2025, V2026)] == [number] * 3


def test_totem_armor_renamed_umbra_armor(lineage):
    diff = lineage.diffs[(V2023, V2025)]
    (m,) = [m for m in diff.matches if m.old_number == "702.89"]
    assert (m.new_number, m.how) == ("702.89", "retitled")
    assert lineage.current(V2023, "702.89a") == "702.89a"


def test_keyword_actions_renumbered_in_2026(lineage):
    assert lineage.current(V2025, "701.43") == "701.46"  # Adapt


def test_2006_keywords_under_502(lineage):
    assert lineage.trace(V2006, "502.19") == {
        V2006: "502.19", V2013: "702.28", V2023: "702.30", V2025: "702.30", V2026: "702.30"}
    assert lineage.current(V2006, "502.19a") == "702.30a"


def test_almost_every_rule_of_2025_is_found_in_2026(lineage, real):
    diff = lineage.diffs[(V2025, V2026)]
    assert len(diff.matches) >= 0.99 * len(real[V2025])
    assert len(diff.matches) + len(diff.added) == len(real[V2026])
    assert all(0 < m.confidence <= 1 for m in diff.matches)


# -- a lineage from stored pairs, and between distant versions -----------------------------------


def test_from_matches_rebuilds_the_same_lineage():
    v1 = version("2013", ("702.100", "Fuse", True), ("702.100a", FUSE.format(708)),
                 ("702.101", "Gone", True))
    v2 = version("2023", ("702.102", "Fuse", True), ("702.102a", FUSE.format(709)),
                 ("702.103", "New", True))
    built = build_lineage({"2013": v1, "2023": v2})
    pairs = [m for diff in built.diffs.values() for m in diff.matches]
    again = Lineage.from_matches({"2013": [r.number for r in v1],
                                  "2023": [r.number for r in v2]}, reversed(pairs))
    assert again == built
    assert again.diffs[("2013", "2023")].removed == ("702.101",)
    assert again.diffs[("2013", "2023")].added == ("702.103",)


def test_between_follows_each_rule_through_the_versions_in_between():
    v1 = version("2013", ("702.100", "Fuse", True), ("702.100a", FUSE.format(708)),
                 ("702.101", "Gone", True))
    v2 = version("2023", ("702.102", "Fuse", True), ("702.102a", FUSE.format(709)))
    v3 = version("2026", ("702.101", "Fuse", True), ("702.101a", FUSE.format(709)),
                 ("702.102", "Another", True))
    lineage = build_lineage({"2013": v1, "2023": v2, "2026": v3})
    diff = lineage.between("2013", "2026")
    assert {m.old_number: (m.new_number, m.how) for m in diff.matches} == {
        "702.100": ("702.101", "title"), "702.100a": ("702.101a", "heading")}
    assert diff.removed == ("702.101",)
    assert diff.added == ("702.102",)  # the same number as Fuse in 2023, another rule
    assert lineage.between("2023", "2023").matches[0].how == "same"
    with pytest.raises(ValueError, match="later"):
        lineage.between("2026", "2013")


def test_between_2013_and_2026(lineage):
    diff = lineage.between(V2013, V2026)
    moved = {m.old_number: m.new_number for m in diff.matches}
    assert moved["702.100"] == "702.102"
    assert moved["708"] == "709"
    assert moved["310"] == "312"  # Phenomena
    assert "310" in diff.added  # Battles


# -- issue 16: the layer rule across the Magic 2010 rewrite ---------------------------------------

# 2009-05-01 lines 1394-1397 and 2009-07-11 lines 1895-1911 (612.2 and later left out).
LAYERS_2009_05 = [
    ("418", "Continuous Effects", True),
    ("418.5", "Interaction of Continuous Effects", True),
    ("418.5a", "The values of an object's characteristics are determined by starting with the "
     "actual object, then applying continuous effects in a series of layers in the following "
     "order: (1) copy effects (see rule 503, \"Copying Objects\"); (2) control-changing "
     "effects; (3) text-changing effects; (4) type-changing effects (which includes effects "
     "that change an object's card type, subtype, and/or supertype); (5) all other continuous "
     "effects, except those that change power and/or toughness; and (6) power- and/or "
     "toughness-changing effects.\nInside each layer from 1 through 5, apply effects from "
     "characteristic-defining abilities first, then all other effects in timestamp order.",
     False),
]
LAYERS_2009_07 = [
    ("612", "Interaction of Continuous Effects", True),
    ("612.1", "The values of an object's characteristics are determined by starting with the "
     "actual object. For a card, that means the values of the characteristics printed on that "
     "card. For a token or a copy of a spell or card, that means the characteristics defined "
     "by the effect that created it. Then all applicable continuous effects are applied in a "
     "series of layers in the following order:", False),
    ("612.1a", "Layer 1: Copy effects are applied. See rule 706, \"Copying Objects.\"", False),
    ("612.1b", "Layer 2: Control-changing effects are applied.", False),
    ("612.1c", "Layer 3: Text-changing effects are applied. See rule 611, \"Text-Changing "
     "Effects.\"", False),
    ("612.1d", "Layer 4: Type-changing effects are applied. This includes effects that change "
     "an object's card type, subtype, and/or supertype.", False),
    ("612.1e", "Layer 5: Color-changing effects are applied.", False),
    ("612.1f", "Layer 6: Ability-adding and ability-removing effects are applied.", False),
    ("612.1g", "Layer 7: Power- and/or toughness-changing effects are applied.", False),
]


def test_the_layer_rule_418_5a_is_612_1_after_the_rewrite():
    """418.5a held the whole layer list; the rewrite split it into 612.1 and 612.1a-g, under
    the same title one level up (418.5 -> 612)."""
    old = [rule("2009-05-01", n, t, h) for n, t, h in LAYERS_2009_05]
    new = [rule("2009-07-11", n, t, h) for n, t, h in LAYERS_2009_07]
    found = {m.old_number: (m.new_number, m.how) for m in compare_versions(old, new).matches}
    assert found["418.5"] == ("612", "title")
    assert found["418.5a"] == ("612.1", "split")
    # Without its subrules the new rule shares too few words: no pair.
    bare = [r for r in new if r.number in ("612", "612.1")]
    assert "418.5a" not in {m.old_number for m in compare_versions(old, bare).matches}
