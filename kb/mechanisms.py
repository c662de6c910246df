"""Which of ``kb search``'s ranking mechanisms a :class:`kb.search.Searcher` uses.

All are on by default, and ``kb search``, the web and the API always use them all. The one
reader of a switched-off mechanism is ``bench/bench_search.py``, which turns each off in turn
to measure, in the same run, what it adds on questions nobody tuned it for (issue 23). Each
flag is read where its mechanism acts, from the searcher's own instance, never from the
environment.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Mechanisms:
    translation: bool = True  # the term table: a word also searches its other-language terms
    typos: bool = True  # a word no text holds is corrected to the nearest indexed word
    synonyms: bool = True  # kb.text.synonyms: "same time" also searches "simultaneously"
    irregular: bool = True  # irregular verb forms: "left" also searches "leaves"
    kind_priors: bool = True  # a rule is worth more than a ruling, note or card
    title_boosts: bool = True  # a rule (or glossary entry) whose title the query names
    cards: bool = True  # card names in a question bring the card's rulings and rules
    semantic: bool = True  # a sentence model's nearness, when the index was built with one

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


ALL = Mechanisms()
