"""The query language: what each form parses to, and a clear message for what cannot be read."""

from __future__ import annotations

import pytest

from kb.query import And, Not, Or, Phrase, QuerySyntaxError, Word, parse


def test_words_side_by_side_all_match():
    assert parse("echo upkeep").root == And((Word("echo"), Word("upkeep")))


def test_phrase_prefix_and_operators():
    q = parse('"champ de bataille" OR regenera* NOT token')
    assert q.root == Or((Phrase(("champ", "de", "bataille")),
                         And((Word("regenera", prefix=True), Not(Word("token"))))))


def test_minus_is_not_and_parentheses_group():
    assert parse("(echo OR écho) -token").root == And(
        (Or((Word("echo"), Word("écho"))), Not(Word("token"))))


def test_filters_are_taken_out_of_the_text():
    q = parse('lang:fr kind:rule rule:702.19* version:2013-06-01 card:"Voice of Resurgence" x')
    assert q.root == Word("x")
    assert q.filters == {"lang": "fr", "kind": "rule", "rule": "702.19*",
                         "version": "2013-06-01", "card": "Voice of Resurgence"}


def test_filters_alone_are_a_query_and_unknown_names_are_words():
    assert parse("kind:card").root is None
    assert parse("ex:foo").root == Word("ex:foo")


def test_lower_case_operators_are_words():
    assert parse("echo and upkeep").root == And((Word("echo"), Word("and"), Word("upkeep")))


def test_typographic_quotes_make_phrases():
    assert parse("«lien de vie»").root == Phrase(("lien", "de", "vie"))


@pytest.mark.parametrize("text, message", [
    ('"abc', "quotation mark is not closed"),
    ("(a", "parenthesis is not closed"),
    ("a)", "closing parenthesis has no opening one"),
    ("AND", "AND needs a word after it"),
    ("a OR", "OR needs a word after it"),
    ("a AND AND b", "AND needs a word after it"),
    ("*", "prefix needs at least 2 letters"),
    ("a*b", "wildcard is only allowed at the end"),
    ("NOT a", "NOT needs something to exclude from"),
    ("()", "empty parentheses"),
    ("(lang:fr a)", "applies to the whole query"),
    ("a -kind:card", "applies to the whole query"),
    ("lang:fr lang:en a", "two values for lang"),
    ("\x00\x01\x02", "nothing to search for"),
    ("x" * 1001, "the limit is 1000"),
    (" ".join(["w"] * 33), "more than 32 words"),
])
def test_bad_queries_say_why(text, message):
    with pytest.raises(QuerySyntaxError, match=message):
        parse(text)


def test_control_characters_are_spaces():
    assert parse("trample\x07\techo").root == And((Word("trample"), Word("echo")))


def test_html_and_sql_fragments_are_just_words():
    assert parse("<script>alert(1)</script>").root == And(
        (Word("<script>alert"), Word("1"), Word("</script>")))
    assert parse("'; DROP TABLE records; --").root is not None
