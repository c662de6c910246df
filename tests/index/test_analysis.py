"""The French and English chains (kb/index/analysis.py), checked on words of the seeds."""

from __future__ import annotations

from kb.index.analysis import language, strip_elision


def words(lang: str, text: str) -> list[str]:
    return [w for w, _ in language(lang).pairs(text)]


def test_french_elision_with_both_apostrophes():
    # Seed 000: "L'écho est une capacité déclenchée", "jusqu’à la fin du tour"
    assert words("fr", "L'écho") == ["echo"]
    assert words("fr", "L’écho") == ["echo"]
    assert words("fr", "jusqu’à la fin du tour") == ["fin", "tour"]
    assert words("fr", "qu'il") == []  # "il" is a stop word
    assert strip_elision("l'écho") == "écho"


def test_accents_are_folded_before_stemming():
    fr = language("fr")
    assert fr.terms_of("piétinement") == fr.terms_of("pietinement") == fr.terms_of("PIÉTINEMENT")


def test_french_plurals_meet():
    fr = language("fr")
    assert fr.terms_of("jetons") == fr.terms_of("jeton")
    assert fr.terms_of("créatures") == fr.terms_of("créature")


def test_english_possessive_and_kept_rules_words():
    assert words("en", "the creature's owner") == ["creature", "owner"]
    # "face down" and "until end of turn" are rules terms, not stop words
    assert words("en", "face down until end of turn") == ["face", "down", "until", "end", "turn"]


def test_rule_numbers_stay_whole():
    assert language("en").terms_of("See rule 702.19b.") == ("see", "rule", "702.19b")


def test_snowball_alone_splits_sacrifiez_from_sacrifier():
    # The problem the stem families solve (kb/index/vocabulary.py): three stems for one verb.
    fr = language("fr")
    assert len({fr.term("sacrifiez"), fr.term("sacrifier"), fr.term("sacrifice")}) == 3


def test_power_and_toughness_changes_are_one_term():
    """"+1/+1" is one term in every language ("1" alone is in thousands of texts)."""
    for lang in ("en", "fr"):
        terms = language(lang).terms_of("a +1/+1 counter, a -1/-1 counter, +X/+0 and 2/2")
        assert {"+1/+1", "-1/-1", "+x/+0"} <= set(terms)
        assert terms.count("2") == 2


def test_added_is_a_form_of_add():
    # CR 106.9: "If an effect would add mana represented by a Phyrexian mana symbol to a
    # player's mana pool, one mana of the color of that symbol is added to that player's mana
    # pool." Whoosh's port of an older Snowball stemmed "added" to "ad", apart from "add".
    en = language("en")
    assert en.terms_of("added") == en.terms_of("adding") == en.terms_of("add")


def test_a_feminine_past_participle_is_one_term_with_the_masculine():
    # Seed 001 (the French Dragon's Maze FAQ): "la carte de créature sera exilée" (line 164)
    # and "même s'il a été exilé par un autre sort" (line 87); "une « créature ciblée »"
    # (line 40) and "l'adversaire ciblé révèle sa main" (line 199). Folded before stemming,
    # "exilée" was "exilee", which Snowball does not read as "-ée".
    fr = language("fr")
    assert fr.terms_of("exilée") == fr.terms_of("exilé") == fr.terms_of("exiler")
    assert fr.terms_of("exilées") == fr.terms_of("exilés")
    assert fr.terms_of("ciblée") == fr.terms_of("ciblé") == fr.terms_of("cible")
