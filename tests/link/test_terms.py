"""The bilingual term table derived from the session index's records (kb/link/terms.py).
Expectations from the documents: seed 000 titles 702.27 "Écho" / "Echo"; the French DGM FAQ
quotes "702.100. Fusion" where the 2013 CR says "702.100. Fuse"; seed 003's contents give
"702. Capacités mot-clé", the CR's "702. Keyword Abilities"; DGM cards print "Piétinement"
where the English prints "Trample" (Battering Krasis)."""

from __future__ import annotations

from collections import defaultdict

from kb.model import TermPair
from kb.reader import KnowledgeBase
from kb.text.normal import fold


def terms(index, word: str) -> list[TermPair]:
    with KnowledgeBase(index) as kb:
        return kb.store.terms(fold(word))


def pair(index, word: str, kind: str) -> TermPair:
    return next(p for p in terms(index, word) if p.kind == kind)


def test_keyword_lines_of_paired_cards(cr_index):
    trample = pair(cr_index, "trample", "keyword")
    assert (trample.french, trample.english) == ("Piétinement", "Trample")
    assert "mtgjson:fr:battering-krasis = mtgjson:battering-krasis" in trample.evidence or (
        trample.count > len(trample.evidence))


def test_rule_titles_in_both_languages(cr_index):
    fuse = pair(cr_index, "fuse", "rule-title")
    assert fuse.french == "Fusion"
    assert fuse.evidence == ("faq:fr:dgm-2013-03-21:rule/702.100 = cr:en:2013-05-01:702.100",)
    echo = pair(cr_index, "echo", "rule-title")
    assert echo.french == "Écho" and echo.evidence[0].startswith("kw:fr:echo:fr:702.27 = ")


def test_french_contents_against_english_sections(cr_index):
    section = pair(cr_index, "keyword abilities", "section-title")
    assert section.french == "Capacités mot-clé"
    assert section.evidence[0].startswith("cr:fr:2024:toc/702 = cr:en:")


def test_words_of_parallel_texts(cr_index):
    graveyard = pair(cr_index, "cimetiere", "parallel-text")
    assert graveyard.english == "graveyard" and graveyard.count >= 5
    # spelled as the French texts spell it, not folded (issue 22: "cimetiere" was shown)
    assert graveyard.french == "cimetière"


def test_function_words_are_no_terms(cr_index):
    """Issue 22: "quand" / "when" led the terms page. Words that say how a sentence is built
    pair as consistently as terms across parallel texts, but they are no terms."""
    with KnowledgeBase(cr_index) as kb:
        pairs = {(p.french, p.english) for p in kb.store.terms() if p.kind == "parallel-text"}
    assert pairs  # the parallel texts still give terms
    for french, english in (("quand", "when"), ("avec", "with"), ("pour", "for")):
        assert (french, english) not in pairs


def test_the_words_of_a_keyword_are_not_terms_of_their_own(cr_index):
    """The Dragon's Maze cards and FAQ print "Coup de sang" where the English prints
    "Bloodrush", "Lien de vie" for "Lifelink", "Contact mortel" for "Deathtouch" and
    "Initiative" beside "Double initiative" for "First strike" and "Double strike". The
    keyword table pairs them whole; the words of parallel texts paired "coup" with
    bloodrush, "lien" with lifelink, "mortel" with deathtouch and "initiative" with
    "strike", and search read "un coup" as bloodrush."""
    with KnowledgeBase(cr_index) as kb:
        every = kb.store.terms()
    keywords = {(fold(p.french), fold(p.english)) for p in every if p.kind == "keyword"}
    assert {("coup de sang", "bloodrush"), ("lien de vie", "lifelink")} <= keywords
    words = {(fold(p.french), fold(p.english)) for p in every if p.kind == "parallel-text"}
    assert ("cimetiere", "graveyard") in words  # the parallel texts still give terms
    fragments = {("coup", "bloodrush"), ("lien", "lifelink"), ("mortel", "deathtouch"),
                 ("initiative", "strike")}
    assert not fragments & words


def test_the_official_vocabulary_comes_first(cr_index):
    """Issue 22: the official "cimetière" came 232 records below the parallel texts' pair."""
    found = terms(cr_index, "cimetière")
    assert found[0].kind == "official" and found[0].french == "cimetière"
    with KnowledgeBase(cr_index) as kb:
        every = kb.store.terms()
    kinds = [p.kind for p in every]
    assert kinds.index("parallel-text") > len(kinds) - kinds[::-1].index("official") - 1


def test_lookup_is_accent_and_case_blind(cr_index):
    assert terms(cr_index, "piétinement") == terms(cr_index, "pietinement")
    assert not terms(cr_index, "no such term")


def test_the_official_table_never_contradicts_the_french_cards(full_index):
    """Issue 23: "disparition" was searched as fading, "garde" (keeps) as ward, "ombre" (a
    Shade) as shadow, rows of the official table that the French cards' own keyword lines
    contradict: "Disparition 3" on Chronozoa is vanishing, "Parade {2}" on Adrix and Nev
    ward, "Distorsion" on Dauthi Slayer shadow, "Union" on Unbounded Potential entwine. Where
    the cards print a keyword beside its English, an official row agrees with them both ways;
    a row that writes the English word itself ("kicker") only says French players write it."""
    with KnowledgeBase(full_index) as kb:
        every = kb.store.terms()
    printed_as: dict[str, set[str]] = defaultdict(set)  # English keyword -> French names
    printed_for: dict[str, set[str]] = defaultdict(set)  # French name -> English keywords
    for p in every:
        if p.kind == "keyword":
            printed_as[fold(p.english)].add(fold(p.french))
            printed_for[fold(p.french)].add(fold(p.english))
    official = [(fold(p.french), fold(p.english)) for p in every if p.kind == "official"]
    assert official and len(printed_as) > 50
    wrong = [(french, english) for french, english in official if french != english and (
        french in printed_for and english not in printed_for[french]
        or english in printed_as and french not in printed_as[english])]
    assert not wrong
