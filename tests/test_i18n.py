"""The interface language (issue 22): where it comes from (POSIX locale variables, a browser's
Accept-Language), and that it belongs to a context, not to the process."""

from __future__ import annotations

import contextvars
from concurrent.futures import ThreadPoolExecutor

import pytest

from kb import i18n


@pytest.mark.parametrize(("environ", "language"), [
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "fr_CA.UTF-8"}, "fr"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),  # a language kb does not speak: its source language
    ({}, "en"),
    # POSIX: LC_ALL overrides LC_MESSAGES, which overrides LANG; an empty one does not count.
    ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"),
    ({"LC_ALL": "fr_FR.UTF-8", "LANG": "C"}, "fr"),
    ({"LC_MESSAGES": "fr_BE.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
    ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "fr_FR"}, "fr"),
    ({"LANG": "fr_FR@euro"}, "fr"),
])
def test_the_locale_variables_choose_the_language(environ: dict[str, str],
                                                  language: str) -> None:
    assert i18n.from_environment(environ) == language


@pytest.mark.parametrize(("header", "language"), [
    ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),  # RFC 9110's example, French
    ("en-US,en;q=0.9,fr;q=0.8", "en"),
    ("de-DE,de;q=0.9,fr;q=0.8,en;q=0.7", "fr"),  # the first language kb speaks, by weight
    ("en;q=0.5, fr", "fr"),  # weight, not order
    ("FR", "fr"),
    ("fr;q=0, en;q=0.1", "en"),  # q=0: not acceptable
    ("de, it", None),
    ("*", None),
    ("", None),
    (None, None),
    ("fr;q=abc", None),  # a weight that is no number: the entry is ignored
])
def test_accept_language(header: str | None, language: str | None) -> None:
    assert i18n.from_accept_language(header) == language


def test_the_language_belongs_to_the_context() -> None:
    """A web request sets the language for itself and the threads it hands work to (which
    run in a copy of its context); another request, or the process, is not affected."""
    with i18n.using("fr"):
        assert i18n._("Search") == "Rechercher"
        context = contextvars.copy_context()
        with ThreadPoolExecutor(1) as pool:
            assert pool.submit(context.run, i18n._, "Search").result() == "Rechercher"
            assert pool.submit(i18n._, "Search").result() == "Search"  # a bare thread
        with i18n.using("en"):
            assert i18n._("Search") == "Search"
        assert i18n.current() == "fr"
    assert i18n.current() == "en" and i18n._("Search") == "Search"


def test_an_unknown_language_is_english() -> None:
    with i18n.using("de"):
        assert i18n.current() == "en"
    with i18n.using("fr_FR.UTF-8"):
        assert i18n.current() == "fr"


def test_plurals_and_contexts_in_french() -> None:
    with i18n.using("fr"):
        one = i18n.ngettext("{n} scenario played.", "{n} scenarios played.", 1).format(n=1)
        many = i18n.ngettext("{n} scenario played.", "{n} scenarios played.", 2).format(n=2)
        assert (one, many) == ("1 scénario joué.", "2 scénarios joués.")
        assert i18n.pgettext("rules", "added") == "ajoutées"  # a count of rules
        assert i18n._("added") == "ajoutée"  # one rule's history


def test_help_is_translated_paragraph_by_paragraph() -> None:
    text = """Show a rule (702.19b, say, or a glossary word: trample, piétinement) with its
    subrules, examples and citations.

    Not a message of kb's."""
    assert i18n.paragraphs(text)[0].startswith("Show a rule (702.19b, say, or a glossary")
    with i18n.using("fr"):
        first, second = i18n.translate_text(text).split("\n\n")
    assert first.startswith("Afficher une règle (702.19b, par exemple")
    assert second == "Not a message of kb's."  # no translation: the English stays
