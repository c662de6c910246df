"""Category 1, translation coverage: what of the English has French text, and what French text
stands without English.

- By section: for each French rules document (a translation of the Comprehensive Rules, see
  :data:`kb.report.data.RULES_FORMATS`) and each rule section it holds (707), the English rules
  of the section in the version the document was written for, counted as translated, left in
  English, or missing. A section short of 100% is a warning listing what is missing; the
  figures themselves are in the report's summary (:func:`sections`).
- French rules that have no English counterpart in any version.
- Paragraphs left in English inside a French document (rules flagged ``untranslated``, English
  examples), and rule numbers the parser had to infer because the source lost them.
- Rules whose French and English versions carry a different number of examples, and FAQ rulings
  or cards of one language that the other language's FAQ lacks.
- For each whole-CR translation in any language (:mod:`kb.link.translation`), one finding
  unless it pairs whole: how many English rules of its date it pairs, and the rules it could
  not pair, those it lacks and those it left in English, named.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from kb.i18n import _, ngettext
from kb.labels import language_name
from kb.link.translation import FORMAT as TRANSLATION_FORMAT
from kb.link.translation import coverage as translation_coverage
from kb.model import Card, Example, Record, Rule, Ruling
from kb.report.data import RULES_FORMATS, ReportData, split_cr_id
from kb.report.finding import WARNING, Finding, RecordRef, rule_lookup
from kb.report.pairs import EN, FR, Pairs
from kb.rulenum import RuleNumber, sort_key

CATEGORY = "coverage"


@dataclass(frozen=True, slots=True)
class SectionCoverage:
    """How much of one English rule section a French document translates."""

    source_id: str
    file: str
    section: str  # "707"
    title: str | None
    version: str  # the English version compared with
    total: int
    translated: tuple[str, ...]  # English numbers with a French text
    untranslated: tuple[str, ...]  # English numbers whose text the document left in English
    missing: tuple[str, ...]  # English numbers absent from the document

    @property
    def percent(self) -> float:
        return 100.0 * len(self.translated) / self.total if self.total else 100.0


def sections(data: ReportData) -> list[SectionCoverage]:
    """Coverage of every rule section each French rules document touches."""
    out = []
    for source in data.sources.values():
        if source.language != FR or source.format not in RULES_FORMATS:
            continue
        targets: dict[str, str] = {}  # English number -> "fr" or "en", per counterpart
        versions: Counter[str] = Counter()
        for record in data.records.get(source.id, []):
            if not isinstance(record, Rule):
                continue
            for link in data.links_from(record.id, "corresponds"):
                found = split_cr_id(link.to_id)
                if found is not None:
                    versions[found[0]] += 1
                    language = EN if record.untranslated else record.language
                    if targets.get(found[1]) != FR:
                        targets[found[1]] = language
        if not versions:
            continue
        version = versions.most_common(1)[0][0]
        english = data.cr_rules.get(version, {})
        touched = sorted({n.split(".")[0] for n in targets}, key=sort_key)
        for section in touched:
            numbers = sorted((n for n in english if _within(n, section) and n != section),
                             key=sort_key)
            out.append(SectionCoverage(
                source.id, source.file, section,
                english[section].title if section in english else None, version, len(numbers),
                tuple(n for n in numbers if targets.get(n) == FR),
                tuple(n for n in numbers if targets.get(n) == EN),
                tuple(n for n in numbers if n not in targets),
            ))
    return out


def _within(number: str, section: str) -> bool:
    parsed = RuleNumber.try_parse(number)
    return parsed is not None and parsed.is_within(RuleNumber.parse(section))


def check(data: ReportData, pairs: Pairs | None = None) -> Iterator[Finding]:
    pairs = pairs or Pairs(data)
    yield from _section_findings(data)
    yield from _french_only(data, pairs)
    yield from _left_in_english(data)
    yield from _inferred(data)
    yield from _example_counts(data, pairs)
    yield from _unpaired(data, pairs)
    yield from _whole_translations(data)


def _section_findings(data: ReportData) -> Iterator[Finding]:
    for cov in sections(data):
        if not cov.untranslated and not cov.missing:
            continue
        title = f" {cov.title}" if cov.title else ""
        english = data.cr_rules.get(cov.version, {})
        absent = [RecordRef.of(english[n]) for n in cov.missing]
        message = _("{file}: section {section}{title} of the rules of {version}: {translated} "
                    "of {total} rules in French ({percent:.0f}%), {untranslated} left in "
                    "English, {missing} missing").format(
            file=cov.file, section=cov.section, title=title, version=cov.version,
            translated=len(cov.translated), total=cov.total, percent=cov.percent,
            untranslated=len(cov.untranslated), missing=len(cov.missing))
        message += ((_(": {numbers}").format(numbers=", ".join(cov.missing[:8])) if cov.missing
                     else "") + (" ..." if len(cov.missing) > 8 else ""))
        yield Finding(CATEGORY, "section", WARNING, message, language=FR,
                      fix=_("translate the rules left in English and add the missing ones"),
                      lookup=rule_lookup(cov.section, cov.version, FR), records=tuple(absent))


def _french_only(data: ReportData, pairs: Pairs) -> Iterator[Finding]:
    for rule in pairs.french_rules_without_english():
        why = data.links_from(rule.id, "unpaired")
        yield Finding(CATEGORY, "french-only", WARNING,
                      why[0].evidence if why else
                      _("French {number} has no English counterpart in any version held")
                      .format(number=rule.number),
                      (data.ref(rule),), language=FR,
                      fix=_("check the number: the French text may be misnumbered"))


def _left_in_english(data: ReportData) -> Iterator[Finding]:
    for source, record in data.all_records():
        if source.language != FR or not isinstance(record, Rule | Example):
            continue
        # A rule says it was left untranslated; a quoted English original (the keyword page
        # gives both texts on purpose) is not.
        if not (record.untranslated if isinstance(record, Rule) else record.language == EN):
            continue
        message = (_("rule {number} is left in English in the French text of {file}")
                   if isinstance(record, Rule) else
                   _("example {ordinal} of {rule} is left in English in the French text of "
                     "{file}"))
        number = record.number if isinstance(record, Rule) else record.rule
        yield Finding(CATEGORY, "untranslated", WARNING,
                      message.format(number=number, ordinal=getattr(record, "ordinal", None),
                                     rule=number, file=source.file),
                      (data.ref(record),), language=FR, fix=_("translate the paragraph"),
                      lookup=rule_lookup(number, lang=FR))


def _inferred(data: ReportData) -> Iterator[Finding]:
    """One finding per document: the numbers its source lost, which the parser inferred."""
    for source in data.sources.values():
        lost = [r for r in data.records.get(source.id, []) if isinstance(r, Rule) and r.inferred]
        if lost:
            numbers = ", ".join(r.number for r in lost)
            yield Finding(CATEGORY, "inferred-number", WARNING,
                          ngettext("{file} lost the number of {count} rule, inferred from its "
                                   "neighbours: {numbers}",
                                   "{file} lost the numbers of {count} rules, inferred from "
                                   "their neighbours: {numbers}", len(lost)).format(
                              file=source.file, count=len(lost), numbers=numbers),
                          language=source.language,
                          fix=_("restore the numbers in the source"),
                          records=tuple(data.ref(r) for r in lost))


def _example_counts(data: ReportData, pairs: Pairs) -> Iterator[Finding]:
    for counts in pairs.example_counts:
        yield Finding(
            CATEGORY, "examples", WARNING,
            _("French {number} has {french} examples, its English original {english_id} has "
              "{english}").format(number=counts.fr_rule.number, french=len(counts.fr_examples),
                                  english_id=counts.en_rule.id,
                                  english=len(counts.en_examples)),
            tuple(data.ref(r) for r in (counts.fr_rule, counts.en_rule)), language=FR,
            fix=_("add or remove examples to match the English"),
            lookup=rule_lookup(counts.en_rule.number, counts.en_rule.version, FR))


def _unpaired(data: ReportData, pairs: Pairs) -> Iterator[Finding]:
    """Rulings and cards of a FAQ pair that have no partner in the other language's FAQ."""
    paired = {r.id for p in [*pairs.rulings, *pairs.cards] for r in (p.fr, p.en)}
    for source_id in data.counterpart_sources:
        other = data.sources[data.counterpart_sources[source_id]]
        for record in data.records.get(source_id, []):
            if isinstance(record, Ruling | Card) and record.id not in paired:
                yield _unpaired_finding(data, record, other.file)


def _unpaired_finding(data: ReportData, record: Record, other_file: str) -> Finding:
    kind = "ruling" if isinstance(record, Ruling) else "card"
    about = record.card if isinstance(record, Ruling) else getattr(record, "name", "")
    language = getattr(record, "language", None)
    message = (_("ruling on {about} ({language}) has no counterpart in {file}")
               if kind == "ruling" else
               _("card {about} ({language}) has no counterpart in {file}"))
    return Finding(
        CATEGORY, f"{kind}-unpaired", WARNING,
        message.format(language=language_name(language or "?"), about=about, file=other_file),
        (data.ref(record),), language=language,
        fix=_("translate it, or remove it if {file} dropped it on purpose").format(
            file=other_file))


def _whole_translations(data: ReportData) -> Iterator[Finding]:
    """One finding per whole-CR translation that does not pair whole (see the docstring)."""
    for source in data.sources.values():
        if source.format != TRANSLATION_FORMAT:
            continue
        rules = [r for r in data.records.get(source.id, []) if isinstance(r, Rule)]
        counterparts = {r.id: link.to_id for r in rules
                        for link in data.links_from(r.id, "counterpart")}
        cov = translation_coverage(source.id, source.file, source.language or "und", rules,
                                   counterparts, data.versions,
                                   lambda v: list(data.cr_rules.get(v, {})))
        if cov.whole:
            continue
        odd = [r for r in rules if r.id not in counterparts or r.untranslated]
        yield Finding(CATEGORY, "translation-pairing", WARNING, f"{source.file}: {cov.summary()}",
                      tuple(data.ref(r) for r in odd), language=source.language,
                      fix=_("check the numbers of the rules not paired against the English of "
                            "{version}, and translate those left in English").format(
                          version=cov.version))
