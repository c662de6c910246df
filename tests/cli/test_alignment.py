"""The default install (the embedded corpus: today's English rules and the seeds) puts every
text under the right rule (issue 21), with no older rules file to map through: kb's numbering
table does.

Read in the documents: the French Dragon's Maze FAQ (001_*, dated 2013-03-21) quotes "702.100.
Fusion" (line 33) with its subrules a-d (lines 34-37); line 34 says "(voir règle 708, « Cartes
doubles »)". Today (MagicCompRules 20260417.txt) 702.100 is "Evolve" (line 4710), "702.102.
Fuse" (line 4726) and "709. Split Cards"; the rules of 2013-05-01 number Fuse 702.100 and split
cards 708 (cr-archive/2013-04-29.txt.gz). The keyword page (000_*) quotes "702.27. Écho"
(line 3), the 702.27 of the rules of 2009-07-11; Echo is 702.30 today (line 4214).
"""

from __future__ import annotations

import json

from tests.cli.conftest import kb

FAQ = "001_f4c4515b1d59e611.txt"


def test_todays_702_100_has_no_french_fusion(default_index):
    result = kb(default_index, "rule", "702.100", "--depth", "0")
    assert result.exit_code == 0
    assert result.output.startswith("702.100. Evolve  [en, 2026-04-17")
    assert "Fusion" not in result.output and FAQ not in result.output
    (view,) = json.loads(kb(default_index, "rule", "702.100", "--depth", "0", "--json").stdout)
    assert view["title"] == "Evolve" and view["texts"] == []


def test_fuse_702_102_has_the_french_fusion_of_2013_with_its_number_then(default_index):
    result = kb(default_index, "rule", "702.102", "--depth", "0")
    assert result.exit_code == 0
    assert result.output.startswith("702.102. Fuse  [en, 2026-04-17")
    assert f"  [fr, 2013-03-21: 702.100, {FAQ}:33] Fusion" in result.output
    (view,) = json.loads(kb(default_index, "rule", "702.102", "--depth", "0", "--json").stdout)
    (fusion,) = view["texts"]
    assert (fusion["language"], fusion["version"], fusion["number"], fusion["title"]) == (
        "fr", "2013-03-21", "702.100", "Fusion")
    assert "numbering table" in fusion["basis"] and "title" in fusion["basis"]


def test_702_30_keeps_the_french_echo_of_2009(default_index):
    result = kb(default_index, "rule", "702.30", "--depth", "0")
    assert result.exit_code == 0
    assert "  [fr, 2009-07-11: 702.27, 000_3e28a88beae8982b.txt:3] Écho" in result.output
    (view,) = json.loads(kb(default_index, "rule", "702.30", "--depth", "0", "--json").stdout)
    assert [(t["language"], t["number"], t["title"]) for t in view["texts"]] == [
        ("en", "702.27", "Echo"), ("fr", "702.27", "Écho")]


def test_a_citation_of_2013_points_at_todays_rule_and_says_so(default_index):
    result = kb(default_index, "rule", "702.102a", "--lang", "fr")
    assert result.exit_code == 0
    assert "(voir règle 708, " in result.output
    assert "Cites: 708 in 2013, today 709" in result.output
    (view,) = json.loads(kb(default_index, "rule", "702.102a", "--json").stdout)
    (french,) = [t for t in view["texts"] if t["language"] == "fr"]
    (cited,) = french["cites"]
    assert (cited["written"], cited["number"], cited["today"], cited["note"]) == (
        "règle 708", "708", "709", "708 in 2013, today 709")
    assert cited["version"] < "2013-03-21"  # the rules in force when the FAQ was written


def test_the_term_table_pairs_fusion_with_fuse_only(default_index):
    pairs = json.loads(kb(default_index, "terms", "fusion", "--json").stdout)
    assert {(p["french"].casefold(), p["english"]) for p in pairs} <= {("fusion", "fuse"),
                                                                      ("fusion", "Fuse")}
    assert all(p["english"] != "Evolve" for p in pairs)


def test_the_report_says_what_the_french_702_100_is(default_index):
    found = json.loads(kb(default_index, "report", "--category", "citations",
                          "--format", "json").stdout)
    messages = [f["message"] for f in found["findings"]]
    assert any(m.startswith("quoted rule 702.100 Fuse (rules of 2013-05-01: 702.100) is "
                            "702.102 today (2026-04-17)") and m.endswith(
        "; today's 702.100 is Evolve") for m in messages), messages
    assert any(m.startswith("“règle 708” means 708 Split Cards of the rules of")
               and m.endswith("which is 709 today (2026-04-17)") for m in messages), messages


def test_a_subrule_names_its_heading(default_index):
    """702.19b is a subrule of "702.19. Trample" (MagicCompRules 20260417.txt line 4073)."""
    (view,) = json.loads(kb(default_index, "rule", "702.19b", "--json").stdout)
    assert (view["number"], view["heading"], view["version"]) == (
        "702.19b", "Trample", "2026-04-17")
