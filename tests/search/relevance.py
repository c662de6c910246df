"""The relevance set (relevance.toml) and its measures: hit@1, hit@3 and MRR@10 over the answer
groups of ``kb search`` (a rule's texts in every language are one answer)."""

from __future__ import annotations

import statistics
import tomllib
from dataclasses import dataclass
from pathlib import Path

from kb.rulenum import RuleNumber
from kb.search import Searcher, SearchHit

RELEVANCE = Path(__file__).with_name("relevance.toml")
DEPTH = 10


@dataclass(frozen=True, slots=True)
class Judged:
    q: str
    lang: str
    kind: str
    expect: tuple[str, ...]

    @property
    def group(self) -> str:
        """The report's group: the language, then whole questions or key words."""
        return f"{self.lang} {'questions' if self.kind == 'question' else 'words'}"


@dataclass(frozen=True, slots=True)
class Outcome:
    query: Judged
    rank: int | None  # 1-based rank of the first expected answer within DEPTH, else None
    got: tuple[str, ...]  # the first groups, for the failure report


def load() -> list[Judged]:
    data = tomllib.loads(RELEVANCE.read_text(encoding="utf-8"))
    return [Judged(q["q"], q["lang"], q["kind"], tuple(q["expect"])) for q in data["query"]]


def matches(expectation: str, group: list[SearchHit]) -> bool:
    if expectation.startswith("rule "):
        wanted = expectation.removeprefix("rule ")
        key = group[0].group
        if not key.startswith("rule ") or " (" in key:
            return False
        number = RuleNumber.parse(key.removeprefix("rule "))
        if wanted.endswith("*"):
            return number.is_within(RuleNumber.parse(wanted.rstrip("*")))
        return number == RuleNumber.parse(wanted)
    return any(hit.id == expectation for hit in group)


def judge(searcher: Searcher, query: Judged) -> Outcome:
    groups = searcher.search(query.q, limit=DEPTH).groups()
    rank = next((i for i, g in enumerate(groups, 1)
                 if any(matches(e, g) for e in query.expect)), None)
    return Outcome(query, rank, tuple(g[0].group for g in groups[:3]))


@dataclass(frozen=True, slots=True)
class Scores:
    hit1: float
    hit3: float
    mrr10: float


def scores(outcomes: list[Outcome]) -> Scores:
    return measures([o.rank for o in outcomes])


def measures(ranks: list[int | None]) -> Scores:
    """hit@1, hit@3 and MRR@10 of the ranks of the first expected answers (None: missed)."""
    return Scores(
        statistics.fmean(r == 1 for r in ranks),
        statistics.fmean(r is not None and r <= 3 for r in ranks),
        statistics.fmean(1 / r if r else 0.0 for r in ranks),
    )
