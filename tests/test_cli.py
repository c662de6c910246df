"""The command line, through click's runner, on an index of the embedded corpus and two CR
versions (built once per session)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import cli
from tests.conftest import cr_file

# Read off MagicCompRules 20260417.txt, line 4077.
TRAMPLE_702_19B = (
    "The controller of an attacking creature with trample first assigns damage to the "
    "creature(s) blocking it. Once all those blocking creatures are assigned lethal damage, any "
    "excess damage is assigned as its controller chooses among those blocking creatures and the "
    "player, planeswalker, or battle the creature is attacking. When checking for assigned "
    "lethal damage, take into account damage already marked on the creature and damage from "
    "other creatures that’s being assigned during the same combat damage step, but not any "
    "abilities or effects that might change the amount of damage that’s actually dealt. The "
    "attacking creature’s controller need not assign lethal damage to all those blocking "
    "creatures but in that case can’t assign any damage to the player or planeswalker it’s "
    "attacking."
)


def run(index: Path, *args: str):
    return CliRunner().invoke(cli, ["--index", str(index), *args])


def test_rule_prints_todays_trample_text_exactly(cr_index):
    result = run(cr_index, "rule", "702.19b")
    assert result.exit_code == 0
    assert TRAMPLE_702_19B in result.output.split("\n")
    assert "2026-04-17" in result.output.split("\n")[0]


def test_rule_in_force_on_a_date_prints_fuse(cr_index):
    result = run(cr_index, "rule", "702.100", "--version", "2013-06-01")
    assert result.exit_code == 0
    assert result.output.startswith("702.100. Fuse")
    assert "702.100a" in result.output


def test_rule_today_is_not_fuse(cr_index):
    result = run(cr_index, "rule", "702.100")
    assert result.exit_code == 0
    assert result.output.startswith("702.100. Evolve")
    assert "Fuse" not in result.output


def test_rule_json_fields(cr_index):
    result = run(cr_index, "rule", "702.19b", "--json")
    (entry,) = json.loads(result.output)
    assert entry["number"] == "702.19b"
    assert entry["language"] == "en"
    assert entry["version"] == "2026-04-17"
    assert entry["text"] == TRAMPLE_702_19B
    assert len(entry["examples"]) == 2
    assert entry["children"] == []
    assert entry["cites"] == []
    assert "702.19c" in [c["number"] for c in entry["cited_by"]]


def test_rule_subtree_lists_children(cr_index):
    entries = json.loads(run(cr_index, "rule", "702.19", "--json").output)
    assert entries[0]["children"] == ["702.19a", "702.19b", "702.19c", "702.19d", "702.19e",
                                      "702.19f", "702.19g"]
    assert [e["number"] for e in entries] == ["702.19", *entries[0]["children"]]


def test_cited_by_follows_ranges(cr_index):
    # 702.100c of 2013 reads "(See rule 601.2e.)"
    entries = json.loads(run(cr_index, "rule", "601.2e", "--version", "2013-05-01",
                             "--json").output)
    assert "702.100c" in [c["number"] for c in entries[0]["cited_by"]]


def test_unknown_rule_names_the_nearest(cr_index):
    result = run(cr_index, "rule", "702.193")
    assert result.exit_code == 1
    assert "no rule 702.193 in the rules of 2026-04-17" in result.output
    assert "702.192" in result.output


def test_rule_of_another_version_is_pointed_to(cr_index):
    result = run(cr_index, "rule", "708.2", "--version", "2013-05-01")
    assert result.exit_code == 0
    result = run(cr_index, "rule", "308.1")  # 308 was Tribal, renamed Kindred: still there
    assert result.exit_code == 0


def test_a_word_no_glossary_entry_names_is_a_domain_error(cr_index):
    result = run(cr_index, "rule", "abcxyz")
    assert result.exit_code == 1
    assert "neither a rule number" in result.output and "Traceback" not in result.output


def test_an_unreadable_version_date_is_a_usage_error(cr_index):
    result = run(cr_index, "rule", "702.19b", "--version", "soon")
    assert result.exit_code == 2
    assert "'soon' is not a date" in result.output


def test_usage_error_exits_2(cr_index):
    assert run(cr_index, "rule").exit_code == 2
    assert run(cr_index, "rule", "702.19b", "--lang", "de").exit_code == 2


def test_no_index_is_a_clear_error(tmp_path):
    result = run(tmp_path / "nothing", "rule", "702.19b")
    assert result.exit_code == 1
    assert "run 'kb build' first" in result.output


@pytest.mark.parametrize("command", [[], ["build"], ["rule"], ["versions"], ["export"]])
def test_every_command_has_help(command):
    result = CliRunner().invoke(cli, [*command, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output


def test_versions_json(cr_index):
    versions = json.loads(run(cr_index, "versions", "--json").output)
    assert [v["version"] for v in versions] == ["2013-05-01", "2023-04-14", "2025-02-07",
                                                "2026-04-17"]
    assert versions[-1]["counts"]["rule"] == 3294


def test_export_lines(cr_index, tmp_path):
    out = tmp_path / "rules.jsonl"
    result = run(cr_index, "export", "--kind", "rule", "--version", "2026-04-17",
                 "--out", str(out))
    assert result.exit_code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 3294
    by_number = {r["number"]: r for r in rows}
    row = by_number["702.19b"]
    assert row["id"] == "cr:en:2026-04-17:702.19b"
    assert row["source"] == {"file": "MagicCompRules 20260417.txt", "line": 4077}
    assert row["parent"] == "702.19"
    assert row["examples"] == ["cr:en:2026-04-17:702.19b/ex1", "cr:en:2026-04-17:702.19b/ex2"]
    assert by_number["702.102a"]["cites"] == ["709"]
    for key in ("kind", "id", "number", "language", "version", "text", "source"):
        assert key in row


def test_export_ids_are_stable_across_rebuilds(tmp_path):
    from kb.build import build

    folder = tmp_path / "cr"
    folder.mkdir()
    shutil.copyfile(cr_file("20260417"), folder / "cr.txt")
    ids = []
    for _ in range(2):
        build(tmp_path / "idx", [folder])
        ids.append(run(tmp_path / "idx", "export").output)
    assert ids[0] == ids[1]


def test_build_summary_names_sources_not_yet_understood(tmp_path):
    result = run(tmp_path / "idx", "build")
    assert result.exit_code == 0
    assert "Unparsed fragments:" in result.output
