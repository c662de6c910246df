"""Category 6, ingest: what the build could not read cleanly.

- Unparsed fragments: text no parser could place, and documents no parser understood (kept
  whole as one fragment); one warning per document.
- Duplicate rule numbers: two rules of one document and language with the same number.
- Rules out of order: a rule whose number sorts before the rule read just before it, in one
  document and language (a bilingual page gives each language its own sequence).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from kb.i18n import _, ngettext
from kb.model import Fragment, Rule
from kb.report.data import ReportData
from kb.report.finding import WARNING, Finding, rule_lookup
from kb.rulenum import RuleNumber

CATEGORY = "ingest"


def check(data: ReportData) -> Iterator[Finding]:
    for source in data.sources.values():
        records = data.records.get(source.id, [])
        fragments = [r for r in records if isinstance(r, Fragment)]
        if fragments:
            reasons = sorted({f.reason for f in fragments})
            yield Finding(CATEGORY, "unparsed", WARNING,
                          ngettext("{file}: {count} unparsed fragment ({reasons})",
                                   "{file}: {count} unparsed fragments ({reasons})",
                                   len(fragments)).format(file=source.file,
                                                          count=len(fragments),
                                                          reasons="; ".join(reasons)),
                          fix=_("teach a parser this text, or correct the document"),
                          records=tuple(data.ref(f) for f in fragments))
        by_language: dict[str | None, list[Rule]] = defaultdict(list)
        for record in records:
            if isinstance(record, Rule):
                by_language[record.language].append(record)
        for rules in by_language.values():
            yield from _duplicates(data, source.file, rules)
            yield from _out_of_order(data, source.file, rules)


def _duplicates(data: ReportData, file: str, rules: list[Rule]) -> Iterator[Finding]:
    seen: dict[str, list[Rule]] = defaultdict(list)
    for rule in rules:
        seen[rule.number].append(rule)
    for number, same in seen.items():
        if len(same) > 1:
            lines = ", ".join(str(r.loc.line) for r in same)
            yield Finding(CATEGORY, "duplicate-number", WARNING,
                          _("{file}: {count} rules numbered {number} (lines {lines})").format(
                              file=file, count=len(same), number=number, lines=lines),
                          tuple(data.ref(r) for r in same), language=same[0].language,
                          fix=_("renumber the duplicate"),
                          lookup=rule_lookup(number, same[0].version))


def _out_of_order(data: ReportData, file: str, rules: list[Rule]) -> Iterator[Finding]:
    previous: tuple[Rule, RuleNumber] | None = None
    for rule in rules:
        number = RuleNumber.try_parse(rule.number)
        if number is None:
            continue
        if previous is not None and number < previous[1]:
            before = previous[0]
            yield Finding(CATEGORY, "out-of-order", WARNING,
                          _("{file}: rule {number} (line {line}) comes after {before} (line "
                            "{before_line})").format(file=file, number=rule.number,
                                                     line=rule.loc.line, before=before.number,
                                                     before_line=before.loc.line),
                          (data.ref(before), data.ref(rule)), language=rule.language,
                          fix=_("check the numbers: one of them is probably wrong"),
                          lookup=rule_lookup(rule.number, rule.version))
        previous = (rule, number)
