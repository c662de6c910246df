"""``kb history`` and ``kb diff``: a rule followed by identity through the CR versions of the
session index (2013-05-01, 2023-04-14, 2025-02-07, 2026-04-17, with the seeds), and the
word-level diff.

Facts read in the files: Fuse is "702.100. Fuse" at line 3477 of MagicCompRules 20130429.txt
and "702.102. Fuse" at line 4726 of MagicCompRules 20260417.txt; 702.100a of 2013 says "(see
rule 708, "Split Cards")" and "from his or her hand", 702.102a of 2023-2026 "(see rule 709,
“Split Cards”)" and "from their hand"; the French Dragon's Maze FAQ (corpus/001_*, lines 33-37)
quotes "702.100. Fusion" and 702.100a "... (voir règle 708, « Cartes doubles ») ...". 310 is
"Phenomena" in 2013 and "Battles" from 2023, Phenomena then being 312; "Split Cards" is 708 in
2013 and 709 from 2023.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from kb.cli import cli
from kb.history import Piece, word_diff
from tests.conftest import REPO, cr_file

FAQ_FR = REPO / "corpus" / "001_f4c4515b1d59e611.txt"


def run(index: Path, *args: str):
    return CliRunner().invoke(cli, ["--index", str(index), *args])


def history(index: Path, *args: str) -> list[dict]:
    result = run(index, "history", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def english(entries: list[dict], rule: str) -> dict[str, dict]:
    return {e["version"]: e for e in entries if e["rule"] == rule and e["language"] == "en"
            and e["change"] != "quote"}


# -- word diff ---------------------------------------------------------------------------------


def test_word_diff_marks_the_changed_words_only():
    pieces = word_diff("see rule 708, from his or her hand", "see rule 709, from their hand")
    assert [(p.op, p.text.strip()) for p in pieces if p.op != "equal"] == [
        ("delete", "708"), ("insert", "709"), ("delete", "his or her"), ("insert", "their")]
    assert word_diff("same text.", "same text.") == [Piece("equal", "same text.")]


def test_word_diff_joins_changes_separated_by_a_sign():
    pieces = word_diff("the comes-into-play event", "the enters-the-battlefield event")
    assert [p.text for p in pieces if p.op != "equal"] == [" comes-into-play",
                                                          " enters-the-battlefield"]


def test_word_diff_of_a_deleted_first_sentence():
    pieces = word_diff("A first sentence. The creature stays.", "The creature stays.")
    assert pieces == [Piece("delete", "A first sentence. "), Piece("equal", "The creature stays.")]


@given(st.text(alphabet="ab .,-’\n", max_size=40), st.text(alphabet="ab .,-’\n", max_size=40))
def test_word_diff_gives_both_texts_back(old, new):
    pieces = word_diff(old, new)
    assert "".join(p.text for p in pieces if p.op != "insert") == old
    assert "".join(p.text for p in pieces if p.op != "delete") == new


# -- kb history ----------------------------------------------------------------------------------


def test_fuse_is_followed_back_to_702_100_with_the_french_faq_beside_it(cr_index):
    entries = history(cr_index, "702.102")
    en = english(entries, "702.102")
    assert {v: e["number"] for v, e in en.items()} == {
        "2013-05-01": "702.100", "2023-04-14": "702.102", "2025-02-07": "702.102",
        "2026-04-17": "702.102"}
    assert en["2013-05-01"]["change"] == "first-held"  # 2013 is the oldest version here
    assert en["2023-04-14"]["change"] == "renumbered"
    assert en["2023-04-14"]["previous"] == "702.100"
    assert en["2013-05-01"]["source"]["line"] == 3477
    # The French FAQ's 702.100 comes right after the English version it translates.
    rule = [e for e in entries if e["rule"] == "702.102"]
    at = [e["version"] for e in rule].index("2013-05-01")
    french = [e for e in rule if e["language"] == "fr"]
    assert [(e["number"], e["text"], e["corresponds_to"]) for e in french] == [
        ("702.100", "Fusion", "2013-05-01")]
    assert rule.index(french[0]) > at
    assert all(e["change"] in ("quote", "translation")
               for e in rule[at + 1:rule.index(french[0])])
    assert french[0]["stale"] is True  # renumbered 702.102 since


def test_fuse_subrule_shows_the_words_that_changed(cr_index):
    entries = history(cr_index, "702.102a")
    en = english(entries, "702.102a")
    changed = en["2023-04-14"]
    assert changed["change"] == "renumbered+changed"
    deleted = " ".join(p["text"].strip() for p in changed["diff"] if p["op"] == "delete")
    inserted = " ".join(p["text"].strip() for p in changed["diff"] if p["op"] == "insert")
    assert "708" in deleted and "his or her" in deleted
    assert "709" in inserted and "their" in inserted
    (french,) = [e for e in entries if e["language"] == "fr"]
    line_34 = FAQ_FR.read_text(encoding="utf-8").splitlines()[33]
    assert line_34 == f"702.100a {french['text']}"
    assert "(voir règle 708, «\u00a0Cartes doubles\u00a0»)" in french["text"]
    assert (french["corresponds_to"], french["english_number"]) == ("2013-05-01", "702.100a")


def test_a_change_of_typography_only_is_said_so(cr_index):
    # 2013, line 172: "100.1. These _Magic_ rules apply to any _Magic_ game ..."; 2023, line
    # 183: "100.1. These Magic rules apply to any Magic game ...".
    en = english(history(cr_index, "100.1", "--lang", "en"), "100.1")
    assert (en["2023-04-14"]["change"], en["2023-04-14"]["typography_only"]) == (
        "changed", True)
    fuse = english(history(cr_index, "702.102a", "--lang", "en"), "702.102a")
    assert fuse["2023-04-14"]["typography_only"] is False


def test_same_number_another_rule(cr_index):
    battles = english(history(cr_index, "310", "--version", "2023-06-01", "--lang", "en"), "310")
    assert list(battles) == ["2023-04-14", "2025-02-07", "2026-04-17"]
    assert battles["2023-04-14"]["text"] == "Battles"
    assert battles["2023-04-14"]["change"] == "added"
    phenomena = english(history(cr_index, "312", "--lang", "en"), "312")
    assert phenomena["2013-05-01"]["number"] == "310"
    assert phenomena["2013-05-01"]["text"] == "Phenomena"


def test_split_cards_were_708(cr_index):
    split = english(history(cr_index, "709", "--lang", "en"), "709")
    assert split["2013-05-01"]["number"] == "708"
    assert split["2013-05-01"]["text"] == "Split Cards"


def test_lang_en_leaves_out_other_documents(cr_index):
    entries = history(cr_index, "702.102", "--lang", "en")
    assert {e["language"] for e in entries} == {"en"}
    assert all(e["change"] != "quote" for e in entries)


def test_history_text_output(cr_index):
    result = run(cr_index, "history", "702.102a")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("702.102a  [702.100a (2013-05-01) → 702.102a (2023-04-14)]")
    assert any("[-708-]{+709+}" in line for line in lines)
    assert any(line.strip().startswith("[fr, 2013-03-21: 702.100a") for line in lines)


def test_history_errors_are_one_line(cr_index):
    for args, message in (
        (["999.1"], "kb: no rule 999.1 in any of the 4 rules versions held "
                    "(2013-05-01 .. 2026-04-17)"),
        (["fuse"], "kb: not a rule number: 'fuse'"),
        (["702.102", "--version", "2013-06-01"],
         "kb: no rule 702.102 in the rules of 2013-05-01; it exists in: 2023-04-14 .. "
         "2026-04-17 (3 versions)"),
    ):
        result = run(cr_index, "history", *args)
        assert result.exit_code == 1
        assert result.output == message + "\n"


# -- kb diff -------------------------------------------------------------------------------------

# The 2025 file writes "901.4.All plane ..." without a space.
_RULE_LINE = re.compile(r"^(\d{3}\.\d+[a-z]*|\d{3}|\d)(?:\.\s*|\s+)(\S.*)$")


def rules_of(path: Path) -> dict[str, str]:
    """Number -> text, read the simple way: every line that starts with a rule number; the
    contents come first, so the body's line (the last one) wins."""
    found = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        m = _RULE_LINE.match(line.strip())
        if m:
            found[m[1]] = m[2].strip()
    return found


def test_diff_counts_agree_with_a_count_from_the_files(cr_index):
    result = run(cr_index, "diff", "2025-02-07", "2026-04-17", "--json")
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    old, new = rules_of(cr_file("20250207")), rules_of(cr_file("20260417"))
    added, removed, changed = set(d["added"]), set(d["removed"]), set(d["changed"])
    moves = {r["from"]: r["to"] for r in d["renumbered"]}
    # Every number missing from one file is added, removed or the end of a renumbering ...
    assert set(new) - set(old) <= added | set(moves.values())
    assert set(old) - set(new) <= removed | set(moves)
    # ... and every rule of each file is counted once.
    kept = set(old) - removed - set(moves)
    assert len(kept) + len(moves) + len(added) == len(new)
    assert len(kept) + len(moves) + len(removed) == len(old)
    assert kept <= set(new)
    # A rule that kept its number is changed exactly when the two files' texts differ.
    assert {n for n in kept if old[n] != new[n]} == changed - set(moves.values())
    assert {to for src, to in moves.items() if old[src] != new[to]} == changed & set(
        moves.values())
    assert d["unchanged"] == sum(1 for n in kept if old[n] == new[n])


def test_diff_in_force_on_dates_and_section(cr_index):
    dated = json.loads(run(cr_index, "diff", "2025-06-01", "2026-05-01", "--json").output)
    assert (dated["old"], dated["new"]) == ("2025-02-07", "2026-04-17")
    section = json.loads(run(cr_index, "diff", "2025-02-07", "2026-04-17", "--section", "702",
                             "--json").output)
    numbers = section["added"] + section["removed"] + section["changed"] + [
        n for r in section["renumbered"] for n in (r["from"], r["to"])]
    assert numbers and all(n == "702" or n.startswith("702.") for n in numbers)
    # Harmonize is 702.180 in the 2026 file (line 4961) and in no earlier one.
    assert "702.180" in section["added"]


def test_diff_across_versions_follows_renumbered_rules(cr_index):
    d = json.loads(run(cr_index, "diff", "2013-05-01", "2026-04-17", "--json").output)
    moves = {(r["from"], r["to"]) for r in d["renumbered"]}
    assert {("702.100", "702.102"), ("708", "709"), ("310", "312")} <= moves
    assert "310" in d["added"]  # Battles
    assert "310" not in d["removed"]  # Phenomena moved, it did not go


def test_diff_text_output_starts_with_the_summary(cr_index):
    result = run(cr_index, "diff", "2025-02-07", "latest", "--section", "702.49")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "Rules 2025-02-07 → 2026-04-17, within 702.49"
    assert [line.split()[0] for line in lines[2:7]] == [
        "added", "removed", "renumbered", "changed", "unchanged"]
    assert any(line.startswith("  702.49c: ") for line in lines)


def test_diff_errors(cr_index):
    backwards = run(cr_index, "diff", "2026-04-17", "2025-02-07")
    assert backwards.exit_code == 1
    assert "give the older version first" in backwards.output
    # Issue 12: an unreadable section or date is a usage error.
    assert run(cr_index, "diff", "2025-02-07", "2026-04-17", "--section", "x").exit_code == 2
    assert run(cr_index, "diff", "not-a-date").exit_code == 2
    assert run(cr_index, "diff").exit_code == 2


def _rule_lines(date: str, prefix: str) -> dict[str, str]:
    """Rule number -> text of the lines of a shared CR file starting with ``prefix``, read
    with Python's own decoding (an independent count)."""
    text = cr_file(date).read_bytes().decode("utf-8-sig")
    found = {}
    for line in text.splitlines():
        number, _, rest = line.partition(" ")
        if number.startswith(prefix) and number[len(prefix):].isalpha():
            found[number] = rest.strip()
    return found


def test_history_collapses_versions_that_changed_nothing(cr_index):
    # The subrules of 702.19 whose wording is the same in the 2023, 2025 and 2026 files are
    # unchanged in the last two: one line for the run, every version with --all.
    texts = [_rule_lines(d, "702.19") for d in ("20230414", "20250207", "20260417")]
    same = sorted(n for n in texts[0] if texts[0][n] == texts[1].get(n) == texts[2].get(n))
    assert same
    short = run(cr_index, "history", "702.19", "--lang", "en").output
    full = run(cr_index, "history", "702.19", "--lang", "en", "--all").output
    sections = dict(zip(re.findall(r"^(702\.19[a-z]?)\b", short, re.M),
                        re.split(r"\n\n", short), strict=True))
    for number in same:
        assert "  unchanged 2025-02-07 .. 2026-04-17, 2 versions" in sections[number]
        assert not re.search(r"2025-02-07 +\S+ +unchanged", sections[number])
    assert len(re.findall(r"2026-04-17 +702\.19[a-z]? +unchanged", full)) >= len(same)
    assert "unchanged 2025-02-07 .." not in full
