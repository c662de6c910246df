"""Scenarios a user writes (``kb check --scenario FILE|DIR``): every scenario of every file
is played and reported on its own, whether or not it cites records of the index.

A file the format refuses (a TOML error, an unknown key, a card it can't read) is reported as
refused, with its file, line and reason, and the other files still run. A scenario's status is
``verified`` (every expected fact holds), ``contradicted`` (the first differing fact is
shown), ``refused`` (a step the rules forbid, or a part of it nothing used: file, line and
reason), ``answered`` (a question with no expected facts, played to its end), or the
corpus's ``era-dependent`` and ``not checkable``. A scenario with no ``verifies`` is a
question: the state it reached and the rules the engine applied are shown. Its ``verifies``,
if any, are looked up in the index when there is one: a quote not found in its record's
text refuses the scenario; an id the index doesn't hold is said, and the scenario is played
all the same.

User files may use the cards of the embedded card files (``corpus/scenarios``) and those of the
other files given with them (a folder's ``cards.toml``); a card a user file defines under the
name of an embedded one replaces it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.check.examples import select_examples
from kb.check.runner import play
from kb.check.scenarios import (
    Library,
    Scenario,
    load,
    misquoted,
    normal_quote,
    scenario_files,
)
from kb.check.schema import SCENARIO_STATUSES
from kb.errors import KbError

if TYPE_CHECKING:
    from kb.engine.objects import Printed
    from kb.store import Store

# Where an error message says it happened: "path:line".
_WHERE = re.compile(r"^(?P<file>.+?):(?P<line>\d+)\b")


@dataclass(frozen=True)
class ClaimCheck:
    """One ``verifies`` entry of a user's scenario, as the index holds it."""

    id: str
    quote: str
    in_index: bool | None  # None: no index to look in
    found: bool | None = None  # the quote is in the record's text (when in the index)


@dataclass(frozen=True)
class ScenarioResult:
    """What playing one user scenario gave (or why its file was refused)."""

    file: str
    line: int | None
    name: str | None
    status: str
    reason: str | None = None  # refused: where and why; contradicted: the first difference
    facts: str = ""  # the facts as computed
    mismatches: tuple[str, ...] = ()
    source: str | None = None
    question: bool = False
    final_state: Mapping[str, Any] | None = None
    rules: tuple[tuple[str, str], ...] = ()
    claims: tuple[ClaimCheck, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "line": self.line, "name": self.name,
                               "status": self.status}
        for key in ("reason", "source", "final_state"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.facts:
            out["facts"] = self.facts
        if self.mismatches:
            out["mismatches"] = list(self.mismatches)
        if self.question:
            out["question"] = True
            out["rules"] = [{"rule": rule, "what": what} for rule, what in self.rules]
        if self.claims:
            out["verifies"] = [{k: v for k, v in vars(c).items() if v is not None}
                               for c in self.claims]
        return out


@dataclass(frozen=True)
class UserReport:
    results: list[ScenarioResult] = field(default_factory=list)
    index: bool = False  # whether claims were looked up in an index

    def summary(self) -> dict[str, int]:
        counts = Counter(r.status for r in self.results)
        return {status: counts.get(status, 0) for status in SCENARIO_STATUSES}

    @property
    def ok(self) -> bool:
        """No scenario contradicted or refused (the command's exit status)."""
        return not any(r.status in ("contradicted", "refused") for r in self.results)

    def as_dict(self) -> dict[str, Any]:
        return {"summary": self.summary(), "index": self.index,
                "scenarios": [r.as_dict() for r in self.results]}


def check_scenarios(paths: Iterable[Path], store: Store | None = None) -> UserReport:
    """Play the scenarios of the given files and folders, each file on its own; look their
    ``verifies`` up in ``store`` when given."""
    base = load(scenario_files(embedded=True)).cards
    results: list[ScenarioResult] = []
    loaded: list[Library] = []
    for path in scenario_files(list(paths), embedded=False):
        try:
            loaded.append(load([path], base=base))
        except KbError as exc:
            results.append(_refused_file(path, exc))
    cards = dict(base)  # the files given together share their cards
    for library in loaded:
        cards.update({k: v for k, v in library.cards.items() if base.get(k) is not v})
    for library in loaded:
        for scenario in library.scenarios:
            results.append(_result(scenario, cards, store))
    results.sort(key=lambda r: (r.file, r.line or 0))
    return UserReport(results, store is not None)


def _refused_file(path: Path, exc: KbError) -> ScenarioResult:
    found = _WHERE.match(str(exc))
    line = int(found.group("line")) if found and found.group("file") == str(path) else None
    return ScenarioResult(str(path), line, None, "refused", str(exc))


def _result(scenario: Scenario, cards: Mapping[str, Printed],
            store: Store | None) -> ScenarioResult:
    common = {"file": str(scenario.file), "line": scenario.line, "name": scenario.name,
              "source": scenario.source, "question": scenario.question}
    claims = _claims(scenario, store)
    wrong = [c for c in claims if c.found is False]
    if wrong:
        return ScenarioResult(**common, status="refused", claims=claims,
                              reason=misquoted(scenario, wrong[0].id, wrong[0].quote))
    try:
        outcome = play(scenario, cards)
    except KbError as exc:
        return ScenarioResult(**common, status="refused", reason=str(exc), claims=claims)
    reason = outcome.refusal or (outcome.mismatches[0] if outcome.status == "contradicted"
                                 else None)
    return ScenarioResult(**common, status=outcome.status, reason=reason,
                          facts="" if outcome.refusal else outcome.computed,
                          mismatches=outcome.mismatches, claims=claims,
                          final_state=outcome.final_state if scenario.question else None,
                          rules=outcome.rules if scenario.question else ())


def _claims(scenario: Scenario, store: Store | None) -> tuple[ClaimCheck, ...]:
    if not scenario.claims:
        return ()
    if store is None:
        return tuple(ClaimCheck(c.id, c.quote, None) for c in scenario.claims)
    examples = select_examples(store, [c.id for c in scenario.claims])
    out = []
    for claim in scenario.claims:
        example = examples.get(claim.id)
        out.append(ClaimCheck(claim.id, claim.quote, example is not None,
                              None if example is None
                              else normal_quote(claim.quote) in normal_quote(example.text)))
    return tuple(out)
