"""French words of grammar that are also keyword abilities' names, French or English.

"Grâce à" (thanks to) is a preposition, and "encore" (still, again) an adverb, in any French
sentence; "Grâce" is also the French name of Bestow (702.103) and "Encore" that of Encore
(702.141). Read as the keyword, "encore" brought 702.141 into the first three answers of six
of the development half's French questions about something else ("Mais je suis encore un peu
perdu avec l'effet de réduction de coût"); "grâce à" ("un Tarmogoyf 2/3 grâce à une
créature") is the same case. In a French question (a sentence, where the grammar is) such a
word is left out, and said; in a few key words it is the keyword ("coût d'encore", "aura
grâce").

Only keyword names are here: what put the wrong rule first was the word matching a rule's
title (Encore's), which an everyday word that names no rule cannot do. A keyword's English
name counts too where French players type English: "train" is Training's verb (702.149,
"entraînement"), and "en train de" / "en train d'" (in the middle of) is French grammar.
"""

from __future__ import annotations

from collections.abc import Sequence

from kb.text.normal import fold

# A folded word -> the folded words one of which must follow it for it to be grammar (an
# empty set: it is grammar wherever it stands in a sentence; the keyword is a noun, "l'encore",
# "d'encore", which the analysis reads as other words).
GRAMMAR: dict[str, frozenset[str]] = {
    # Bestow's French name; "grâce à, au, aux" is the preposition "thanks to".
    "grace": frozenset({"a", "au", "aux"}),
    # Encore's French name; the adverb "still, again": "je suis encore", "pas encore".
    "encore": frozenset(),
    # Training's English verb; "en train de résoudre", "en train d'attaquer" (in the middle of).
    "train": frozenset({"de", "d"}),
}


def grammar_words(words: Sequence[str | None]) -> list[int]:
    """The positions of the words a French sentence uses as grammar (``None``: no word, a
    phrase or a prefix, which is never grammar and never follows as such)."""
    folded = [fold(w) if w is not None else None for w in words]
    found = []
    for n, word in enumerate(folded):
        if word is None or word not in GRAMMAR:
            continue
        after = GRAMMAR[word]
        following = folded[n + 1] if n + 1 < len(folded) else None
        elided = following.split("'")[0] if following and "'" in following else None
        if not after or following in after or elided in after:
            found.append(n)
    return found
