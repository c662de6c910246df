"""The query language: what each form parses to, and a clear message for what cannot be read."""

from __future__ import annotations

import pytest

from kb.query import (
    And,
    Loose,
    Not,
    Or,
    Phrase,
    QuerySyntaxError,
    Required,
    Word,
    parse,
)


def test_words_side_by_side_are_optional_words_of_a_question():
    assert parse("echo upkeep").root == Loose((Word("echo"), Word("upkeep")))


def test_explicit_and_is_strict_and_plus_requires_a_word():
    assert parse("echo AND upkeep").root == And((Word("echo"), Word("upkeep")))
    assert parse("+trample deathtouch").root == Loose(
        (Required(Word("trample")), Word("deathtouch")))
    assert parse("a AND b c").root == Loose(
        (Required(Word("a")), Required(Word("b")), Word("c")))


def test_phrase_prefix_and_operators():
    q = parse('"champ de bataille" OR regenera* NOT token')
    assert q.root == Or((Phrase(("champ", "de", "bataille")),
                         Loose((Word("regenera", prefix=True), Not(Word("token"))))))


def test_minus_is_not_and_parentheses_group():
    assert parse("(echo OR écho) -token").root == Loose(
        (Or((Word("echo"), Word("écho"))), Not(Word("token"))))


@pytest.mark.parametrize("text, words", [
    ("Que fait le vol ?", ["Que", "fait", "le", "vol"]),
    ("¿qué pasa? ¡vol!", ["qué", "pasa", "vol"]),
    ("1) trample 2) deathtouch", ["1", "trample", "2", "deathtouch"]),
    ("how does it work :)", ["how", "does", "it", "work"]),
    ("what happens (summoning sickness)?", ["what", "happens", "summoning", "sickness"]),
])
def test_pasted_questions_are_read_as_words(text, words):
    """?, !, ¿, ¡ and brackets that do not pair are punctuation, not query syntax."""
    assert [w.text for w in parse(text).words()] == words


@pytest.mark.parametrize("text, words, operators", [
    ("Madness does NOT work during the cleanup step",
     ["Madness", "does", "NOT", "work", "during", "the", "cleanup", "step"], ("NOT",)),
    ("C'est NOT normal ?", ["C'est", "NOT", "normal"], ("NOT",)),
    ("can I block AND attack with it?", ["can", "I", "block", "AND", "attack", "with", "it"],
     ("AND",)),
])
def test_operators_in_prose_are_words(text, words, operators):
    """Six words or more, or a sentence's last punctuation, make prose: its capitals are a
    player's emphasis, not query syntax (issue 23)."""
    query = parse(text)
    assert [w.text for w in query.words()] == words
    assert query.as_words == operators
    assert isinstance(query.root, Loose) and all(isinstance(i, Word) for i in query.root.items)


def test_operators_in_a_few_words_are_operators():
    assert parse("trample NOT token").root == Loose((Word("trample"), Not(Word("token"))))
    assert parse("a b c d AND e").as_words == ()


def test_a_star_inside_a_word_of_prose_is_punctuation():
    """Tarmogoyf's power and toughness, "*/1+*", pasted into a question, was refused as a
    misplaced wildcard; in a few words it still is, and a prefix is still a prefix."""
    assert [w.text for w in parse("is a {1}{G} Tarmogoyf */1+* in a graveyard?").words()] == [
        "is", "a", "1", "G", "Tarmogoyf", "1", "in", "a", "graveyard"]
    assert parse("what does regenera* mean for my creature?").words()[2] == Word(
        "regenera", prefix=True)
    with pytest.raises(QuerySyntaxError, match="only allowed at the end"):
        parse("Tarmogoyf */1+*")


def test_card_names_in_double_brackets_are_kept():
    q = parse("how does [[Doubling Season]] work with [[Parallel Lives]]?")
    assert q.cards == ("Doubling Season", "Parallel Lives")
    assert "Doubling" in [w.text for w in q.words()]


def test_a_query_of_any_length_is_read():
    """Issue 23: no refusal for "more than 32 words and phrases" or 1,000 characters; the
    searcher bounds its work (kb.search keeps a long question's rarest words)."""
    question = " ".join(["the", "creature", "trample"] * 400)  # 1,200 words, 8,000 characters
    assert len(parse(question).words()) == 1200


def test_punctuation_around_a_word_is_not_part_of_it():
    assert [w.text for w in parse("table, bloquer. 702.19b. (ici) ...").words()] == [
        "table", "bloquer", "702.19b", "ici"]


def test_filters_are_taken_out_of_the_text():
    q = parse('lang:fr kind:rule rule:702.19* version:2013-06-01 card:"Voice of Resurgence" x')
    assert q.root == Word("x")
    assert q.filters == {"lang": "fr", "kind": "rule", "rule": "702.19*",
                         "version": "2013-06-01", "card": "Voice of Resurgence"}


def test_filters_alone_are_a_query_and_unknown_names_are_words():
    assert parse("kind:card").root is None
    assert parse("ex:foo").root == Word("ex:foo")


def test_lower_case_operators_are_words():
    assert parse("echo and upkeep").root == Loose((Word("echo"), Word("and"), Word("upkeep")))


def test_typographic_quotes_make_phrases():
    assert parse("«lien de vie»").root == Phrase(("lien", "de", "vie"))


def test_a_phrase_in_curly_quotes_is_excluded_and_required_as_a_straight_one():
    # A word processor's quotes: "-" before them excluded nothing, "+" required nothing.
    phrase = Phrase(("mal", "d’invocation"))
    assert parse("haste -“mal d’invocation”").root == Loose((Word("haste"), Not(phrase)))
    assert parse("haste +“mal d’invocation”").root == Loose((Word("haste"), Required(phrase)))
    assert parse("card:“Blood Baron” lifelink").filters == {"card": "Blood Baron"}


@pytest.mark.parametrize("text, message", [
    ('"abc', "quotation mark is not closed"),
    ("AND", "AND needs a word after it"),
    ("a OR", "OR needs a word after it"),
    ("a AND AND b", "AND needs a word after it"),
    ("*", "prefix needs at least 2 letters"),
    ("a*b", "wildcard is only allowed at the end"),
    ("?!", "nothing to search for"),
    ("NOT a", "NOT needs something to exclude from"),
    ("(lang:fr a)", "applies to the whole query"),
    ("a -kind:card", "applies to the whole query"),
    ("lang:fr lang:en a", "two values for lang"),
    ("\x00\x01\x02", "nothing to search for"),
])
def test_bad_queries_say_why(text, message):
    with pytest.raises(QuerySyntaxError, match=message):
        parse(text)


def test_control_characters_are_spaces():
    assert parse("trample\x07\techo").root == Loose((Word("trample"), Word("echo")))


def test_html_and_sql_fragments_are_just_words():
    assert parse("<script>alert(1)</script>").root == Loose(  # the punctuation around a word
        (Word("script>alert"), Word("1"), Word("script")))    # is not part of it
    assert parse("'; DROP TABLE records; --").root is not None


@pytest.mark.parametrize("text, words", [
    ("un marqueur +1/+1 et un marqueur -1/-1 ?", ["un", "marqueur", "+1/+1", "et", "un",
                                                   "marqueur", "-1/-1"]),
    ("gets +X/+0 (until end of turn)", ["gets", "+X/+0", "until", "end", "of", "turn"]),
])
def test_power_and_toughness_changes_are_words(text, words):
    """"+1/+1" is no required word "1/+1", "-1/-1" no excluded one."""
    assert [w.text for w in parse(text).words()] == words
    assert not any(isinstance(n, Required | Not) for n in parse(text).root.items)


@pytest.mark.parametrize("text, words", [
    # Players' questions (tests/search/players, dev-trackers and dev): a commander tax and a
    # toughness; heldout-xmage's loyalty abilities ("If I want to use -2:", "I -3'd").
    ("it went to +4 commander tax when it should be +2.", ["it", "went", "to", "4",
                                                          "commander", "tax", "when", "it",
                                                          "should", "be", "2"]),
    ("its toughness goes to -5. But", ["its", "toughness", "goes", "to", "5", "But"]),
    ("If I want to use -2: on", ["If", "I", "want", "to", "use", "2", "on"]),
    ("I -3'd and targeted", ["I", "3", "d", "and", "targeted"]),
])
def test_signed_numbers_are_numbers_not_required_or_excluded_words(text, words):
    assert [w.text for w in parse(text).words()] == words
    assert not any(isinstance(n, Required | Not) for n in parse(text).root.items)


def test_plus_and_minus_before_words_keep_their_meaning():
    assert parse("+trample -flying").root == Loose((Required(Word("trample")),
                                                    Not(Word("flying"))))


@pytest.mark.parametrize("text", ["(" * 246 + "trample" + ")" * 246,
                                  "NOT " * 240 + "trample", "a " + "+(" * 100 + "b" + ")" * 100])
def test_deep_nesting_is_refused_with_a_reason_not_a_recursion_error(text):
    """Issue 25, case 11: 246 nested parentheses (under the 1,000-character limit) raised
    RecursionError: "internal error" on the command line, HTTP 500 on the web."""
    with pytest.raises(QuerySyntaxError, match="nested more than 20 deep"):
        parse(text)
    from kb.query import MAX_DEPTH

    assert parse("(" * MAX_DEPTH + "trample" + ")" * MAX_DEPTH).root == Word("trample")


def test_deep_nesting_is_a_one_line_error_on_the_command_line_and_400_on_the_web(tmp_path):
    from click.testing import CliRunner
    from starlette.testclient import TestClient

    from kb.build import build
    from kb.cli import cli
    from kb.corpus import embedded_corpus
    from kb.web.app import create_app

    index = tmp_path / "index"
    build(index, [embedded_corpus()])
    query = "(" * 246 + "trample" + ")" * 246
    result = CliRunner().invoke(cli, ["--index", str(index), "search", query])
    # A refused query is a usage error (exit 2, issue 23), not "no results" (exit 1).
    assert result.exit_code == 2 and "nested more than" in result.output
    assert "internal error" not in result.output
    with TestClient(create_app(index)) as client:
        response = client.get("/api/search", params={"q": query})
        assert response.status_code == 400 and "nested more than" in response.text
