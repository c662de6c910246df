"""Two ways of saying the same thing in one language, where a player's words and the rules'
words differ and no stem joins them: a player asks what happens when all players lose "at
the same time", 104.4a says they "lose simultaneously". Each pair is data with its evidence:
where the corpus itself uses both phrasings for one thing (a rule and a ruling that restates
it, two rules of the same version describing the same timing). Search treats each side as
the other (kb.search: a question's run of words that is one side is searched as either).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Synonym:
    language: str
    one: str
    other: str
    evidence: str


SYNONYMS = (
    Synonym("en", "at the same time", "simultaneously",
            "CR 2026-04-17 101.4 'take actions at the same time' and 502.3 'untap them all "
            "simultaneously' name one timing; the Dragon's Maze ruling 'all chosen permanents "
            "are sacrificed at the same time' (MTGJSON DGM) is 'sacrifiés simultanément' in "
            "the French FAQ of the same card (corpus seed 001)"),
    Synonym("en", "empty library", "library with no cards",
            "CR 2026-04-17 704.5b 'attempted to draw a card from a library with no cards in it "
            "since the last time state-based actions were checked'; the MTGJSON rulings restate "
            "it as 'tried to draw a card from an empty library since the last time state-based "
            "actions were checked'"),
    Synonym("en", "empty hand", "no cards in hand",
            "MTGJSON rulings: 'if your hand is empty' (USG) and 'while you have no cards in "
            "hand' (DGM, Blood Scrivener) for one condition"),
    Synonym("fr", "en même temps", "simultanément",
            "the French FAQ of Dragon's Maze (corpus seed 001) writes both: 'sacrifiés "
            "simultanément' and 'arrive sur le champ de bataille en même temps'"),
)
