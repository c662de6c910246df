"""The game's own words, as index terms: what tells that a question's word names something of
the game ("blocker", "trample", "mal d'invocation") rather than a forum post's "friday".

They are the words of the rules' and glossary entries' titles and of the official terms, each
as the term the index holds for it. Working them out stems a few thousand words in every
language, which took a cold ``kb search`` of a question about 100 ms; the index writer does it
once per build (:func:`dumps`) and a searcher reads the result (:func:`load`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from kb.index.analysis import LANGUAGES, fold, language

if TYPE_CHECKING:
    from kb.index.vocabulary import Words
    from kb.store import Store

GAME_FILE = "game.txt"
# The kinds of term pair that are words of the game (not word pairs read off parallel texts,
# nor card names).
_GAME_TERMS = "'official', 'keyword', 'rule-title', 'section-title'"
_TITLE_WORDS = re.compile(r"(?<![\w/])[+-][\dx]+/[+-][\dx]+(?![\w/])|\w+")  # +1/+1 is one


def game_terms(store: Store, vocabulary: dict[str, Words]) -> frozenset[str]:
    """Every title's and official term's word as the index's term for it, in each language
    whose texts hold the word; a word no text holds ("loyauté", where no French text says it)
    as each language would stem it."""
    rows = store.conn.execute(
        "SELECT DISTINCT title FROM records WHERE kind IN ('glossary', 'rule') AND title != '' "
        f"UNION SELECT french FROM terms WHERE kind IN ({_GAME_TERMS}) "
        f"UNION SELECT english FROM terms WHERE kind IN ({_GAME_TERMS})")
    words = {w for (title,) in rows for w in _TITLE_WORDS.findall(fold(title))}
    game: set[str] = set()
    for word in words:
        found = {term for v in vocabulary.values() if (term := v.term_of(word)) is not None}
        game |= found or {language(lang).term(word) for lang in LANGUAGES}
    return frozenset(game)


def dumps(terms: frozenset[str]) -> str:
    """The file's text: one term a line, sorted (a build writes the same file from the same
    records)."""
    return "".join(f"{term}\n" for term in sorted(terms))


def load(path: Path) -> frozenset[str]:
    return frozenset(path.read_text(encoding="utf-8").split("\n")) - {""}
