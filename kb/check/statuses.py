"""The check: every worked example of an index gets a status from the scenarios' outcomes."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.check.examples import Example, select_examples
from kb.check.runner import Outcome, play
from kb.check.scenarios import load, misquoted, normal_quote, scenario_files
from kb.check.schema import STATUSES
from kb.errors import KbError

if TYPE_CHECKING:
    from kb.reader import KnowledgeBase
    from kb.store import Store


@dataclass(frozen=True)
class ExampleResult:
    id: str
    source: str
    language: str | None
    status: str
    claim: str
    computed: str
    scenario: str | None = None
    changed_rule: str | None = None  # era-dependent: the rule that changed
    reason: str | None = None  # not checkable: why
    same_claim_as: str | None = None  # status taken from the example quoting the same claim

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class CheckReport:
    results: list[ExampleResult]
    not_in_index: list[tuple[str, str]]  # (record id, scenario where)
    scenarios: int

    def summary(self) -> dict[str, int]:
        counts = Counter(r.status for r in self.results)
        return {status: counts.get(status, 0) for status in STATUSES}

    def by_source(self) -> dict[str, dict[str, int]]:
        table: dict[str, Counter[str]] = {}
        for r in self.results:
            table.setdefault(r.source, Counter())[r.status] += 1
        return {src: {s: c.get(s, 0) for s in STATUSES} for src, c in sorted(table.items())}

    def shares(self) -> dict[str, int]:
        """How many examples, how many have a status, how many are verified: kept apart so
        that marking an example not checkable never looks like verifying it."""
        return _shares(self.results)

    def cr_coverage(self, version: str | None = None) -> dict[str, Any] | None:
        """The examples of one English CR version (by default the newest in the index): the
        shares of :meth:`shares` in all and per chapter (the rule number's first digit)."""
        versions = sorted({m.group(1) for r in self.results
                           if (m := _CR_EXAMPLE.match(r.id))})
        if not versions:
            return None
        version = version or versions[-1]
        chapters: dict[str, list[ExampleResult]] = {}
        for r in self.results:
            m = _CR_EXAMPLE.match(r.id)
            if m and m.group(1) == version:
                chapters.setdefault(m.group(2)[0], []).append(r)
        mine = [r for rs in chapters.values() for r in rs]
        return {"version": version, **_shares(mine),
                "chapters": {c: _shares(rs) for c, rs in sorted(chapters.items())}}


# A CR example's id: its version's date and its rule number.
_CR_EXAMPLE = re.compile(r"^cr:en:(\d{4}-\d{2}-\d{2}):(\d{3}[^/]*)/ex\d+$")


def _shares(results: Sequence[ExampleResult]) -> dict[str, int]:
    return {"examples": len(results),
            "with_status": sum(1 for r in results if r.status != "not modelled"),
            "verified": sum(1 for r in results if r.status == "verified")}


def run_check(store: Store, paths: Iterable[Path] = (), *,
              embedded: bool = True) -> CheckReport:
    """Play every scenario of the embedded corpus (and of ``paths``) and give every worked
    example of the index its status."""
    library = load(scenario_files(paths, embedded=embedded))
    outcomes = [play(s, library.cards) for s in library.scenarios]
    named = [c.id for s in library.scenarios for c in s.claims]
    examples = select_examples(store, named)
    results: dict[str, ExampleResult] = {}
    missing: list[tuple[str, str]] = []
    for outcome in outcomes:
        scenario = outcome.scenario
        for claim in scenario.claims:
            example = examples.get(claim.id)
            if example is None:
                missing.append((claim.id, scenario.where))
                continue
            if normal_quote(claim.quote) not in normal_quote(example.text):
                raise KbError(misquoted(scenario, claim.id, claim.quote))
            result = ExampleResult(
                claim.id, example.source, example.language, outcome.status, claim.quote,
                _computed(outcome), scenario.name, outcome.changed_rule,
                scenario.not_checkable)
            results[claim.id] = _merge(results.get(claim.id), result)
    _same_claims(examples, results)
    for example in examples.values():
        if example.id not in results:
            results[example.id] = ExampleResult(
                example.id, example.source, example.language, "not modelled",
                example.text, "", None)
    ordered = sorted(results.values(), key=lambda r: (r.source, r.id))
    return CheckReport(ordered, missing, len(library.scenarios))


# A quote shorter than this is not taken to identify a claim in another record.
SAME_CLAIM_MIN = 40


def _same_claims(examples: Mapping[str, Example], results: dict[str, ExampleResult]) -> None:
    """An example of another rules version (or an untranslated copy) whose text contains the
    very claim a scenario quoted for a CR example gets the same status, marked as such."""
    quoted = [(r, normal_quote(r.claim)) for r in list(results.values())
              if r.id.startswith("cr:") and examples[r.id].kind == "example"
              and len(r.claim) >= SAME_CLAIM_MIN]
    if not quoted:
        return
    for example in examples.values():
        if example.kind != "example" or example.id in results:
            continue
        text = normal_quote(example.text)
        for result, quote in quoted:
            if quote in text:
                results[example.id] = _merge(results.get(example.id), replace(
                    result, id=example.id, source=example.source,
                    language=example.language, same_claim_as=result.id))


def _computed(outcome: Outcome) -> str:
    if outcome.mismatches and outcome.status in ("contradicted", "refused"):
        return "; ".join(outcome.mismatches)
    return outcome.computed


_RANK = {"contradicted": 0, "refused": 1, "era-dependent": 2, "verified": 3, "not checkable": 4}


def _merge(old: ExampleResult | None, new: ExampleResult) -> ExampleResult:
    """An example named by two scenarios keeps the more serious status."""
    if old is None:
        return new
    return old if _RANK[old.status] <= _RANK[new.status] else new


def check_examples(source: Store | KnowledgeBase, paths: Iterable[Path] = ()
                   ) -> list[ExampleResult]:
    """For the consistency report: every worked example of the index with its status (id,
    source, language, status, claim, computed, and the rule that changed for era-dependent
    ones). Scenario ids missing from the index are left out."""
    store = getattr(source, "store", source)
    return run_check(store, paths).results
