"""Category 5, examples: worked examples the rules engine does not confirm.

The results come from ``kb check`` (:func:`kb.check.check_examples`: one per worked example,
its record id, source, language, status ``verified`` / ``contradicted`` / ``era-dependent`` /
``not checkable`` / ``not modelled``, the example's claim, what the engine computed and, for an
era-dependent one, the rule that changed). They are read from plain mappings or objects with
those fields (:func:`read_result`), so this module needs nothing of the engine but its results.

- A contradicted example is an error: the text says one thing, the rules compute another.
- An era-dependent example holds under some rules versions only (warning).
- A French example and its English original (:mod:`kb.report.pairs`) whose verdicts disagree,
  by status or by computed outcome, would give readers of the two languages different answers
  (error). "not checkable" and "not modelled" are no verdicts and are compared with nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from kb.i18n import _
from kb.labels import label
from kb.report.data import ReportData
from kb.report.finding import ERROR, WARNING, Finding, RecordRef
from kb.report.pairs import Pairs

CATEGORY = "examples"
CONTRADICTED, ERA_DEPENDENT = "contradicted", "era-dependent"
# Statuses that are verdicts on the outcome; "not checkable" and "not modelled" say nothing.
VERDICTS = frozenset({"verified", CONTRADICTED, ERA_DEPENDENT})


@dataclass(frozen=True, slots=True)
class ExampleResult:
    """``kb check``'s verdict on one worked example, as the report reads it."""

    id: str
    source: str | None
    language: str | None
    status: str
    claim: str | None
    computed: str | None
    changed_rule: str | None = None  # era-dependent: the rule that changed


def read_result(item: Mapping[str, Any] | Any) -> ExampleResult:
    """One result, from a mapping (``kb check --json``) or an object with the same fields."""
    def get(name: str) -> Any:
        return item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)

    if not get("id") or not get("status"):
        raise ValueError(f"a check result needs an id and a status: {item!r}")
    return ExampleResult(str(get("id")), _text(get("source")), _text(get("language")),
                         str(get("status")), _text(get("claim")), _text(get("computed")),
                         _text(get("changed_rule")))


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def findings_from_check(data: ReportData, results: Iterable[Mapping[str, Any] | Any],
                        pairs: Pairs | None = None) -> Iterator[Finding]:
    """The findings of category 5 for a list of ``kb check`` results."""
    by_id = {r.id: r for r in map(read_result, results)}
    for result in by_id.values():
        if result.status == CONTRADICTED:
            yield Finding(CATEGORY, CONTRADICTED, ERROR,
                          _("example {id} says {claim}, the rules engine computes "
                            "{computed}").format(id=result.id,
                                                 claim=result.claim or _("(no claim)"),
                                                 computed=result.computed or _("(nothing)")),
                          _refs(data, result), language=result.language,
                          fix=_("correct the example, or the engine if it is wrong"))
        elif result.status == ERA_DEPENDENT:
            said = (_("example {id} holds only under the rules of its time (changed by "
                      "{rule})") if result.changed_rule else
                    _("example {id} holds only under the rules of its time"))
            said = said.format(id=result.id, rule=result.changed_rule)
            if result.computed or result.claim:
                said = _("{what}: {outcome}").format(what=said,
                                                      outcome=result.computed or result.claim)
            yield Finding(CATEGORY, ERA_DEPENDENT, WARNING, said,
                          _refs(data, result), language=result.language,
                          fix=_("say which rules the example is written for"))
    pairs = pairs or Pairs(data)
    for pair in pairs.examples:
        fr, en = by_id.get(pair.fr.id), by_id.get(pair.en.id)
        if fr is None or en is None or not {fr.status, en.status} <= VERDICTS:
            continue
        if fr.status != en.status or (fr.computed != en.computed and fr.computed and en.computed):
            yield Finding(CATEGORY, "languages-disagree", ERROR,
                          _("French example {french} ({french_status}: {french_computed}) and "
                            "its English original {english} ({english_status}: "
                            "{english_computed}) give different outcomes").format(
                              french=fr.id, french_status=label(fr.status),
                              french_computed=fr.computed, english=en.id,
                              english_status=label(en.status), english_computed=en.computed),
                          (data.ref(pair.fr), data.ref(pair.en)), language="fr",
                          fix=_("make the French example describe the English one's "
                                "situation"))


def _refs(data: ReportData, result: ExampleResult) -> tuple[RecordRef, ...]:
    record = data.by_id.get(result.id)
    return (data.ref(record),) if record is not None else ()
