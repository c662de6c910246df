"""Stem families, prefixes and typo correction over a vocabulary (kb/index/vocabulary.py)."""

from __future__ import annotations

from collections import Counter

from kb.index.analysis import language
from kb.index.vocabulary import Words, edit_distance


def vocabulary(lang: str, *texts: str) -> Words:
    terms: dict[str, str] = {}
    counts: Counter[str] = Counter()
    for text in texts:
        for word, term in language(lang).pairs(text):
            terms[word] = term
            counts[word] += 1
    return Words.counted(terms, counts)


def test_sacrifiez_meets_sacrifier_and_sacrifice():
    # Seed 003's "sacrifiez une créature", seed 001's "sacrifié", a rule's "sacrifier".
    fr = language("fr")
    vocab = vocabulary("fr", "sacrifiez une créature", "pour sacrifier", "le sacrifice",
                       "la créature sacrifiée")
    family = vocab.family(fr.term("sacrifiez"))
    assert {fr.term("sacrifier"), fr.term("sacrifice"), fr.term("sacrifiée")} <= family


def test_a_family_does_not_reach_other_words():
    fr = language("fr")
    vocab = vocabulary("fr", "sacrifiez", "sacre")  # "sacre" shares only 4 letters
    assert fr.term("sacre") not in vocab.family(fr.term("sacrifiez"))


def test_prefix_longer_than_the_stem_finds_the_words():
    # "regenera*": the index holds the stem "regener", the vocabulary the words.
    vocab = vocabulary("en", "Regenerate", "regeneration shield", "regenerated", "regret")
    assert vocab.with_prefix("regenera") == ["regenerate", "regenerated", "regeneration"]


def test_typos_are_corrected_to_the_nearest_common_word():
    vocab = vocabulary("en", "trample", "trample", "tramples", "temple")
    assert vocab.corrections("trampel")[0] == (1, "trample")  # a transposition is one edit
    fr = vocabulary("fr", "Piétinement")
    assert fr.corrections("pietinemnt")[0] == (1, "pietinement")
    assert vocab.corrections("xyz") == []  # too short to guess


def test_edit_distance_gives_up_past_the_limit():
    assert edit_distance("trample", "trampel", 2) == 1
    assert edit_distance("abcdef", "uvwxyz", 2) == 3
