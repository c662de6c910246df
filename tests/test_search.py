"""``kb search`` and ``kb terms`` on the session index (embedded corpus, CR 2013-2026, the
English DGM FAQ, MTGJSON DGM). Expectations come from the documents: 702.19 is Trample and has
no French text in the corpus; the DGM cards print "Piétinement" where English says "Trample";
the keyword page (seed 000) gives 702.27 Echo in French and English, today's 702.30."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kb.cli import cli
from kb.rulenum import RuleNumber


def search(index: Path, *args: str, code: int = 0) -> list[dict]:
    result = CliRunner().invoke(cli, ["--index", str(index), "search", "--json", *args])
    assert result.exit_code == code, result.output
    return json.loads(result.stdout) if code == 0 else []


def groups(hits: list[dict]) -> list[str]:
    return list(dict.fromkeys(h["group"] for h in hits))


def test_json_fields(cr_index):
    (first, *_) = search(cr_index, "trample")
    assert {"kind", "id", "number", "language", "version", "score", "snippet"} <= first.keys()
    assert first["group"] == "rule 702.19" and first["number"] == "702.19"
    assert "**Trample**" in first["snippet"]


def test_french_keyword_finds_the_english_rule_it_translates(cr_index):
    hits = search(cr_index, "piétinement")
    assert groups(hits)[0] == "rule 702.19"
    assert not [h for h in hits if h["group"] == "rule 702.19" and h["language"] == "fr"]
    result = CliRunner().invoke(cli, ["--index", str(cr_index), "search", "piétinement"])
    assert "Also searched: piétinement -> Trample (keyword" in result.output


def test_no_translate_searches_the_typed_word_only(cr_index):
    hits = search(cr_index, "piétinement", "--no-translate")
    assert "rule 702.19" not in groups(hits)
    assert all(h["language"] == "fr" for h in hits)


def test_a_rules_texts_in_both_languages_are_one_answer(cr_index):
    hits = search(cr_index, "l'écho")
    first = [h for h in hits if h["group"] == groups(hits)[0]]
    assert groups(hits)[0] == "rule 702.30"
    assert {h["language"] for h in first} == {"fr", "en"}
    assert {h["id"] for h in first} >= {"kw:fr:echo:fr:702.27", "cr:en:2026-04-17:702.30"}


def test_typo_is_corrected_and_said(cr_index):
    result = CliRunner().invoke(cli, ["--index", str(cr_index), "search", "trampel"])
    assert result.exit_code == 0, result.output
    assert "Showing results for 'trample'" in result.output
    assert groups(search(cr_index, "trampel"))[0] == "rule 702.19"


def test_accents_optional(cr_index):
    assert groups(search(cr_index, "pietinement"))[0] == "rule 702.19"


def test_filters(cr_index):
    assert {h["language"] for h in search(cr_index, "lang:fr", "copie")} == {"fr"}
    assert {h["kind"] for h in search(cr_index, "fuse", "--kind", "ruling")} == {"ruling"}
    under = search(cr_index, "rule:702.19*", "damage")
    numbered = [h["number"] for h in under if h["kind"] in ("rule", "example")]
    assert numbered and all(RuleNumber.parse(n).is_within(RuleNumber.parse("702.19"))
                            for n in numbered)
    fuse = search(cr_index, "fuse", "version:2013-06-01", "--kind", "rule")
    assert "cr:en:2013-05-01:702.100" in [h["id"] for h in fuse[:3]]  # Fuse in 2013
    assert not [h for h in fuse if h["id"].startswith("cr:en:2026")]
    card = search(cr_index, 'card:"Voice of Resurgence"', "--kind", "ruling")
    assert card and all("voice-of-resurgence" in h["id"] or "voix-du-renouveau" in h["id"]
                        for h in card)


def test_phrase_and_prefix(cr_index):
    hits = search(cr_index, '"champ de bataille"', "--lang", "fr")
    assert hits and all("champ de bataille" in h["snippet"].replace("**", "").lower()
                        for h in hits)
    assert groups(search(cr_index, "regenera*", "--kind", "rule"))[0] == "rule 701.19"


def test_bad_queries_get_a_message_and_exit_1(cr_index):
    for query in ['"abc', "(a", "AND", "a*b", "lang:xx a", "rule:abc a", "x" * 2000]:
        result = CliRunner().invoke(cli, ["--index", str(cr_index), "search", query])
        assert result.exit_code == 1, (query, result.output)
        assert result.output.startswith("kb: ") and "Traceback" not in result.output


def test_too_broad_prefix_is_refused(cr_index):
    result = CliRunner().invoke(cli, ["--index", str(cr_index), "search", "co*"])
    assert result.exit_code == 1
    assert "type more letters" in result.output


def test_terms_command_shows_evidence(cr_index):
    result = CliRunner().invoke(cli, ["--index", str(cr_index), "terms", "--json", "trample"])
    assert result.exit_code == 0, result.output
    pairs = json.loads(result.stdout)
    keyword = next(p for p in pairs if p["kind"] == "keyword")
    assert (keyword["french"], keyword["english"]) == ("Piétinement", "Trample")
    assert keyword["count"] >= 1 and all(" = mtgjson:" in e for e in keyword["evidence"])
    missing = CliRunner().invoke(cli, ["--index", str(cr_index), "terms", "zzzz"])
    assert missing.exit_code == 1
