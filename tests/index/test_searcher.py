"""Which languages' texts a query's word is searched in (kb.index.searcher._Builder.holders)."""

from __future__ import annotations

from kb.index.analysis import language
from kb.index.searcher import Answer, _Builder
from kb.index.vocabulary import Words


def vocabulary(texts: dict[str, list[str]]) -> dict[str, Words]:
    """The vocabulary of a few words per language, as the index would count them."""
    out = {}
    for lang, words in texts.items():
        pairs = [pair for word in words for pair in language(lang).pairs(word)]
        out[lang] = Words.counted(dict(pairs), dict.fromkeys(dict(pairs), 1))
    return out


def holders(word: str, preferred: tuple[str, ...]) -> list[str]:
    # The French texts hold "monte" (stem "mont"), the Portuguese glossary "montar" (its stem
    # "mont" too), "afinidade" (stem "afin") and "mão"; the English texts none of them. The
    # dictionaries know "afin" (French: "afin de", in order to), not "mão".
    texts = {"fr": ["monte"], "en": ["mount"], "pt": ["montar", "afinidade", "mão"]}
    builder = _Builder(vocabulary(texts), {}, True, Answer([]), {})
    builder.protected = {"afin", "monter"}.__contains__
    analyzed = {lang: language(lang).pairs(word) for lang in ("fr", "en", "pt")}
    return builder.holders(analyzed, preferred, word)


def test_a_word_is_searched_where_the_query_s_language_holds_it():
    """A French question's "monter" shares its stem with the Portuguese "montar": without a
    preference both hold it; a French query looks in French (and English) first."""
    assert holders("monter", ()) == ["fr", "pt"]
    assert holders("monter", ("fr", "en")) == ["fr"]


def test_a_word_the_preferred_languages_lack_is_searched_in_the_others():
    """The Portuguese "mão" is taken for French by its accent: no French or English text holds
    it, and no dictionary knows it, so the Portuguese texts that do are searched."""
    assert holders("mão", ("fr", "en")) == ["pt"]


def test_a_french_word_is_not_searched_in_a_third_language():
    """"afin" (afin de, in order to) is French: no French or English text holds it, and the
    Portuguese "afinidade" that shares its stem is a false friend (it came third for a
    development question, en-reddit-a011). It finds nothing, as a word no text holds."""
    assert holders("afin", ()) == ["pt"]
    assert "pt" not in holders("afin", ("fr", "en"))
