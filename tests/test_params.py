"""One check per parameter for the command line and the web (issue 25, case 6): what each
accepts, the canonical value it gives, and the valid values it names when it refuses."""

from __future__ import annotations

import pytest

from kb import params
from kb.params import InvalidValue


def test_a_list_is_canonical_and_an_unknown_value_names_the_valid_ones():
    assert params.LANGS("FR, en,fr") == ("fr", "en")
    assert params.LANGS(("en", "pt,fr")) == ("en", "pt", "fr")  # --lang en --lang pt,fr
    assert params.LANGS("") is None and params.LANGS(None) is None
    with pytest.raises(InvalidValue) as refused:
        params.LANGS("en,zz")
    assert str(refused.value) == "lang: 'zz' is not one of 'en', 'fr', 'pt'"
    with pytest.raises(InvalidValue, match="'en,fr' is not one of"):  # one language here
        params.TEXT_LANG("en,fr")


def test_choices_come_from_the_modules_that_define_them():
    from kb.index.analysis import LANGUAGES
    from kb.model import RECORD_KINDS
    from kb.query import KINDS
    from kb.report.finding import CATEGORIES

    assert set(params.TEXT_LANGUAGES) == set(LANGUAGES)
    assert params.SEARCH_KINDS.choices == KINDS
    assert set(params.RECORD_KIND.choices) == set(RECORD_KINDS.values())
    assert params.CATEGORIES.choices == tuple(CATEGORIES)


def test_dates_sections_counts_and_flags():
    assert params.VERSION(" 2013-06-01 ") == "2013-06-01"
    assert params.VERSION("Latest") == "latest"
    with pytest.raises(InvalidValue, match="'all' is not a date"):
        params.VERSION("all")
    assert params.VERSION_OR_ALL("all") == "all"
    with pytest.raises(InvalidValue, match="2013-6-1"):
        params.VERSION("2013-6-1")
    assert params.SECTION("CR 702.19B") == "702.19b"
    with pytest.raises(InvalidValue, match="a section 1-9"):
        params.SECTION("x")
    assert params.LIMIT("10") == 10
    with pytest.raises(InvalidValue, match="out of range"):
        params.LIMIT("0")
    assert params.Flag("prefix")("Yes") is True and params.Flag("prefix")("0") is False
    with pytest.raises(InvalidValue, match="not true or false"):
        params.Flag("prefix")("maybe")
