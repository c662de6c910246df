"""The data tables of kb.text: English irregular verbs and synonyms with their evidence."""

from __future__ import annotations

import re
import tomllib

from kb.corpus import embedded_corpus
from kb.index.analysis import language
from kb.link.terms import official_vocabulary
from kb.text.inflection import verbs
from kb.text.normal import fold
from kb.text.synonyms import SYNONYMS


def test_every_verb_has_a_base_form_and_another_form():
    table = verbs()
    assert len(table) > 50
    assert all(len(forms) >= 2 and len(set(forms)) == len(forms) for forms in table)
    assert len({forms[0] for forms in table}) == len(table)


def test_irregular_forms_are_one_family_under_the_stemmer():
    english = language("en")
    leave = english.term("leaves")
    assert english.irregular(leave) == {english.term("leave"), english.term("left")}
    assert english.term("dealt") in english.irregular(english.term("deals"))
    assert english.irregular(english.term("trample")) == frozenset()
    assert language("fr").irregular(language("fr").term("quitte")) == frozenset()


def test_each_form_of_each_verb_brings_every_form_whatever_letter_they_begin_with():
    """The family of a form is found by its first letter (kb.index.analysis): the table's
    verbs whose forms begin with different letters (go, went; eat, ate) are whole too."""
    english = language("en")
    for forms in verbs():
        terms = {english.term(form) for form in forms}
        for form in forms:
            assert terms <= english.irregular(english.term(form)), form
    assert english.term("went") in english.irregular(english.term("go"))
    assert english.term("eat") in english.irregular(english.term("ate"))


def test_synonyms_have_evidence_and_two_different_sides():
    for pair in SYNONYMS:
        assert pair.language in ("en", "fr")
        analysis = language(pair.language)
        assert analysis.terms_of(pair.one) != analysis.terms_of(pair.other)
        assert len(pair.evidence) > 40, pair


def todays_rules() -> str:
    """The text of the CR the project ships (corpus/)."""
    (cr,) = embedded_corpus().glob("MagicCompRules *.txt")
    return cr.read_text(encoding="utf-8-sig")


def stem_clashes(lang: str, words: set[str]) -> dict[str, set[str]]:
    """For each one-word player's side of a ``lang`` synonym, the ``words`` that share its
    stem and are no form of it (do not start with it)."""
    analysis = language(lang)
    by_stem: dict[str, set[str]] = {}
    for word in words:
        by_stem.setdefault(analysis.term(fold(word)), set()).add(word)
    clashes = {}
    for pair in SYNONYMS:
        if pair.language == lang and " " not in pair.one:
            one = fold(pair.one)
            others = {w for w in by_stem.get(analysis.term(one), ())
                      if not fold(w).startswith(one)}
            if others:
                clashes[pair.one] = others
    return clashes


def test_a_one_word_synonym_shares_its_stem_with_no_other_word_of_the_rules():
    """A question's word is looked up by its stem: "unblockable" (an obsolete term for "can't
    be blocked") is one stem with 509.1h's "unblocked", so "unblocked creature" searched
    "can't be blocked" too. A player's word may be printed by today's rules only as itself
    or with an ending ("steal", the monarch's "steals")."""
    words = set(re.findall(r"[a-z][a-z-]*", todays_rules().lower()))
    assert not stem_clashes("en", words)


def test_the_rules_side_of_each_english_synonym_is_wording_of_todays_rules():
    """A one-way pair searches the player's word as the rules' wording: wording today's CR
    does not print would find nothing ("fizzle" is searched as 608.2b's "doesn't resolve",
    "tdfc" as 712.1's "nonmodal double-faced card", not as the name it had before)."""
    english = language("en")
    paragraphs = [" ".join(english.terms_of(line)) for line in todays_rules().splitlines()]
    for pair in SYNONYMS:
        if pair.language == "en" and pair.one_way:
            run = " ".join(english.terms_of(pair.other))
            assert any(f" {run} " in f" {p} " for p in paragraphs), pair.other


def test_the_rules_side_of_each_french_synonym_is_official_french():
    """A French player's word is searched as the official French term, which the term table
    then gives in English ("dégâts" as "blessures": damage): the rules' side of a one-way
    French pair is a term of the official vocabulary (kb/link/official_terms.tsv), or each of
    its words is a word of one ("contrecarrer un sort", "de base" of "terrain de base")."""
    french = language("fr")
    terms = {french.terms_of(f) for f, _english in official_vocabulary()}
    words = {t for term in terms for t in term}
    for pair in SYNONYMS:
        if pair.language == "fr" and pair.one_way:
            side = french.terms_of(pair.other)
            assert side in terms or set(side) <= words, pair.other


def french_words() -> set[str]:
    """The words of the embedded French documents (corpus/MANIFEST.toml) and of the official
    French vocabulary, lower case."""
    manifest = tomllib.loads((embedded_corpus() / "MANIFEST.toml").read_text(encoding="utf-8"))
    texts = [(embedded_corpus() / doc["file"]).read_text(encoding="utf-8")
             for doc in manifest["document"] if doc["language"] == "fr"]
    texts += [french for french, _english in official_vocabulary()]
    return {w for text in texts for w in re.findall(r"[^\W\d_]+", text.lower())}


def test_a_one_word_french_synonym_shares_its_stem_with_no_other_french_word():
    """A French player's word is looked up by its stem too: "contrer" (to counter) is one stem
    with "contre" (against), so "je joue contre un deck bleu" searched "contrecarrer", and so
    "counter". A one-word player's side may share its stem only with its own forms."""
    assert not stem_clashes("fr", french_words())
