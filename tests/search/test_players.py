"""The players' question sets (players/dev*.toml, players/heldout*.toml) as data: each entry
has a source, both languages and answers that are rules of today's Comprehensive Rules, and
no source gives questions to both halves. Read from the files and the CR text itself. And a
floor under kb's figures on the development half (the held-out half is measured, never tuned
on: bench/bench_search.py prints both)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.search import Searcher
from tests.search.players import (
    DEPTH,
    FORMS,
    HALVES,
    LANGS,
    PLAYERS,
    answer_numbers,
    entries,
    load,
    rank,
)
from tests.search.relevance import measures

CR = Path(__file__).resolve().parents[2] / "corpus" / "MagicCompRules 20260417.txt"
_RULE_LINE = re.compile(r"^(\d{3}(?:\.\d+[a-z]?)?)[. ]", re.MULTILINE)
# hit@3 of kb (a warm Searcher, today's rules) on the development half's 162 questions, one
# question (.006) under what a warm Searcher measured on 2026-11-28:
# whole question en .327 (53), fr .389 (63); key words en .599 (97), fr .593 (96).
# English questions were .340 (55) on 2026-11-27; two were lost to correct readings, not to
# tuning: a report's "in the graveyard AND on the battlefield" required "graveyard" by chance
# (a sentence's capitals are words now, kb.query), and "on the table" made "table" a word of
# the game once the vocabulary held Wizards' French "sur la table" (the battlefield).
DEV_HIT3_FLOOR = {("question", "en"): 0.321, ("question", "fr"): 0.383,
                  ("keywords", "en"): 0.593, ("keywords", "fr"): 0.586}


def cr_numbers() -> set[str]:
    """The rule numbers the current CR file starts a line with (its rules, not its contents
    page: a number appears once in the contents, again in the rules)."""
    text = CR.read_text(encoding="utf-8-sig")
    return set(_RULE_LINE.findall(text))


@pytest.mark.parametrize("half", sorted(HALVES))
def test_every_entry_is_complete(half):
    numbers = cr_numbers()
    for entry in entries(half):
        other = "fr" if entry["lang"] == "en" else "en"
        assert entry["lang"] in ("en", "fr"), entry["id"]
        assert entry["source"].strip() and entry["source_kind"].strip(), entry["id"]
        assert entry["address"].startswith("http"), entry["id"]
        for key in ("question", "keywords", f"question_{other}", f"keywords_{other}"):
            assert entry[key].strip(), (entry["id"], key)
        assert entry["answers"], entry["id"]
        missing = [a for a in entry["answers"] if a not in numbers]
        assert not missing, (entry["id"], missing)


def test_ids_are_unique_and_no_source_is_on_both_sides():
    ids = [e["id"] for half in HALVES for e in entries(half)]
    assert len(ids) == len(set(ids))
    sources = {half: {e["source"] for e in entries(half)} for half in HALVES}
    assert not sources["dev"] & sources["held-out"]


def test_no_question_is_asked_twice():
    texts = [e["question"] for half in HALVES for e in entries(half)]
    assert len(texts) == len(set(texts))


def test_the_loader_gives_each_question_in_both_forms_and_languages():
    for half in HALVES:
        for question in load(half):
            assert question.half == half
            assert {(f, lang) for f, lang in question.texts} == {
                (form, lang) for form in ("question", "keywords") for lang in ("en", "fr")}


def test_a_subrule_of_an_answer_counts_and_its_parent_does_not():
    """An answer "702.19" is met by 702.19b (under it); an answer "702.19b" is not met by
    the bare 702.19, nor by a record that is no rule (None)."""
    assert rank([None, "702.19b"], ["702.19"]) == 2
    assert rank(["702.19", None, "702.2c"], ["702.19b", "702.2c"]) == 3
    assert rank(["702.19"], ["702.19b"]) is None


def test_every_question_file_is_read_by_exactly_one_half():
    """A file added under players/ whose name matches neither half would be silently left out."""
    read = [path for half in HALVES for path in PLAYERS.glob(HALVES[half])]
    assert sorted(read) == sorted(PLAYERS.glob("*.toml"))
    assert len(read) == len(set(read))


def test_the_development_half_keeps_its_figures(full_index):
    """kb's hit@3 on each of {whole question, key words} x {en, fr} of the development half
    does not fall under its floor: the figures tuning reached are not silently lost."""
    questions = load("dev")
    assert set(DEV_HIT3_FLOOR) == {(form, lang) for form in FORMS for lang in LANGS}
    with Searcher(full_index) as searcher:
        for (form, lang), floor in DEV_HIT3_FLOOR.items():
            ranks = {q.id: rank(answer_numbers(searcher.search(q.text(form, lang),
                                                               limit=DEPTH)), q.answers)
                     for q in questions}
            missed = sorted(i for i, r in ranks.items() if r is None or r > 3)
            assert measures(list(ranks.values())).hit3 >= floor, (form, lang, missed)
