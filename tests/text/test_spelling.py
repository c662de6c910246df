"""The dictionaries that tell a real word from a typo (Debian's hunspell dictionaries for English
and French, through pyenchant); without them, search corrects against the index's words only
and says so once."""

from __future__ import annotations

import pytest

from kb.text.spelling import DICTIONARIES, Dictionaries, dictionaries

# Issue 23: real words that search "corrected" into others (comment -> command, explique ->
# exotique, attendre -> atende, board -> boar, stuff -> staff, lottery -> latter, greaves ->
# greater, flyer -> flayer), and typos no dictionary knows.
REAL = ("comment", "explique", "attendre", "board", "stuff", "lottery", "greaves", "flyer")
TYPOS = ("trampel", "pietinemnt", "flayre")


def installed() -> Dictionaries:
    found = dictionaries()
    for tag in DICTIONARIES.values():
        found._checker(tag)
    if found.missing:
        pytest.skip(f"no hunspell dictionary for {', '.join(found.missing)}: "
                    "apt-get install libenchant-2-2 hunspell-en-us hunspell-fr (.ci/run does)")
    return found


def test_the_dictionaries_know_real_words_and_not_typos():
    found = installed()
    assert [w for w in REAL if not found.knows(w)] == []
    assert [w for w in TYPOS if found.knows(w)] == []


def test_without_dictionaries_nothing_is_known_and_it_is_said_once():
    bare = Dictionaries(lambda tag: None)
    assert not bare.knows("board")
    note = bare.note()
    assert note and "en_US" in note and "fr_FR" in note and "hunspell-fr" in note
    assert bare.note() is None  # once
