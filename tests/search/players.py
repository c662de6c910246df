"""Real questions as players worded them (``players/dev*.toml``, ``players/heldout*.toml``):
each asked as a whole question and as key words, in English and French, with the rules that
answer it (today's numbers), split by source into a development half and a held-out half.

Unlike the relevance set (``relevance.toml``, written from the rules by people who knew the
answer), these questions were typed by players who did not: their typos, slang and missing
apostrophes are kept. The measure is a rank among answers (a rule's texts in every language
are one answer): the first answer whose number is an answer rule or one of its subrules.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from kb.rulenum import RuleNumber
from kb.search import SearchResult

PLAYERS = Path(__file__).with_name("players")
HALVES = {"dev": "dev*.toml", "held-out": "heldout*.toml"}  # each half: every file it matches
FORMS = ("question", "keywords")
LANGS = ("en", "fr")
DEPTH = 10


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    half: str  # "dev" or "held-out"
    source: str  # the site or community: the unit of the split
    address: str
    date: str
    source_kind: str
    lang: str  # the language the player wrote in
    texts: dict[tuple[str, str], str]  # (form, language) -> the query
    answers: tuple[str, ...]  # today's rule numbers
    note: str

    def text(self, form: str, lang: str) -> str:
        return self.texts[form, lang]


def entries(half: str) -> list[dict]:
    """The raw entries of every file of ``half`` (one file per gatherer and source family)."""
    return [entry for path in sorted(PLAYERS.glob(HALVES[half]))
            for entry in tomllib.loads(path.read_text(encoding="utf-8"))["question"]]


def load(half: str) -> list[Question]:
    return [_question(entry, half) for entry in entries(half)]


def _question(entry: dict, half: str) -> Question:
    lang = entry["lang"]
    other = "fr" if lang == "en" else "en"
    texts = {("question", lang): entry["question"], ("keywords", lang): entry["keywords"],
             ("question", other): entry[f"question_{other}"],
             ("keywords", other): entry[f"keywords_{other}"]}
    return Question(entry["id"], half, entry["source"], entry["address"], entry.get("date", ""),
                    entry["source_kind"], lang, texts, tuple(entry["answers"]),
                    entry.get("note", ""))


def rank(numbers: Iterable[str | None], answers: Iterable[str]) -> int | None:
    """The 1-based rank of the first answer (rule number, None for an answer that is no
    rule) that is an answer rule or under one, within ``DEPTH`` answers."""
    wanted = [RuleNumber.parse(a) for a in answers]
    for n, number in enumerate(numbers, 1):
        if n > DEPTH:
            return None
        parsed = RuleNumber.try_parse(number) if number else None
        if parsed is not None and any(parsed == w or parsed.is_within(w) for w in wanted):
            return n
    return None


def answer_number(group: str) -> str | None:
    """The rule number of a ``kb search`` answer group ("rule 702.19b"), None for a record
    that is no rule of the version searched (a ruling, a card, "rule 702.19b (2013-05-01)")."""
    if not group.startswith("rule ") or " (" in group:
        return None
    return group.removeprefix("rule ")


def answer_numbers(result: SearchResult) -> list[str | None]:
    """A search's answers as :func:`rank` reads them: each answer's rule number, in order."""
    return [answer_number(group[0].group) for group in result.groups()]
