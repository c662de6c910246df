"""French words of grammar that are also keywords' names (kb.text.grammar)."""

from __future__ import annotations

import pytest

from kb.text.grammar import grammar_words


@pytest.mark.parametrize("sentence, grammar", [
    # "Grâce à" is the preposition (thanks to), before "à", "au" or "aux" only.
    ("J'avais un Tarmogoyf 2/3 grâce à une créature", ["grâce"]),
    ("grâce au rituel", ["grâce"]),
    ("Grâce aux jetons", ["Grâce"]),
    ("lancer pour son coût de grâce", []),
    ("une aura grâce attachée", []),
    # "Encore" is the adverb (still, again) wherever it stands in a sentence; the keyword is a
    # noun with its article ("l'encore"), another word.
    ("je suis encore un peu perdu", ["encore"]),
    ("pas encore", ["encore"]),
    ("Encore une question", ["Encore"]),
    ("l'encore d'une créature", []),
    # "en train de" (in the middle of), elided or not; "train" alone is Training's verb.
    ("le sort est en train de se résoudre", ["train"]),
    ("la créature est en train d'attaquer", ["train"]),
    ("capacité train", []),
])
def test_the_words_a_sentence_uses_as_grammar(sentence, grammar):
    words = sentence.split()
    assert [words[n] for n in grammar_words(words)] == grammar


def test_a_phrase_or_a_prefix_is_never_grammar_and_never_follows_as_such():
    assert grammar_words([None, "encore"]) == [1]
    assert grammar_words(["grâce", None]) == []
