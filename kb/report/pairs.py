"""French texts and their English originals, as the agreement and coverage checks compare them.

- A French rule pairs with the English rule of the same number in its own document when the
  document gives one (the keyword page quotes both), else with its ``corresponds`` link: the
  English CR rule of the version its document was written for.
- A French example pairs with the example of the same position under the paired rule, when
  both rules have as many examples (else the counts disagree, which coverage reports).
- A French FAQ ruling pairs through its ``same-ruling`` link, a French FAQ card through its
  ``same-card`` link to the card of the English FAQ.
- The general notes of a FAQ pair (the French FAQ and its English original) pair section by
  section in document order, note by note, where a section has as many notes on both sides;
  sections are not compared by title, which is translated.

Records left in English inside a French document are not pairs: coverage reports them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property

from kb.model import Card, Example, Note, Record, Rule, Ruling
from kb.report.data import ReportData

FR, EN = "fr", "en"


@dataclass(frozen=True, slots=True)
class TextPair:
    """A French record and its English original, with how they were paired."""

    fr: Record
    en: Record
    how: str


@dataclass(frozen=True, slots=True)
class ExampleCounts:
    """A French rule whose examples cannot be paired: the counts differ."""

    fr_rule: Rule
    en_rule: Rule
    fr_examples: tuple[Example, ...]
    en_examples: tuple[Example, ...]


def text_of(record: Record) -> str:
    """The text a pair compares: for a card, each face's mana cost, power/toughness and text,
    then the card-wide text; for any other record, its text."""
    if not isinstance(record, Card):
        return getattr(record, "text", "")
    parts: list[str] = []
    for face in record.faces:
        if face.mana_cost:
            parts.append(face.mana_cost)
        if face.power is not None:
            parts.append(f"{face.power}/{face.toughness}")
        if face.text:
            parts.append(face.text)
    if record.card_text:
        parts.append(record.card_text)
    return "\n".join(parts)


class Pairs:
    """Every French/English pair of one :class:`ReportData`."""

    def __init__(self, data: ReportData) -> None:
        self.data = data

    @cached_property
    def _examples(self) -> dict[str, list[Example]]:
        """Rule record id -> its examples, in order."""
        out: dict[str, list[Example]] = defaultdict(list)
        for records in self.data.records.values():
            for record in records:
                if isinstance(record, Example):
                    out[record.id.rsplit("/", 1)[0]].append(record)
        return {k: sorted(v, key=lambda e: e.ordinal) for k, v in out.items()}

    def english_rule(self, rule: Rule) -> tuple[Rule, str] | None:
        """The English original of a French rule, and how it was found."""
        source = self.data.source_of[rule.id]
        for record in self.data.records.get(source.id, []):
            if (isinstance(record, Rule) and record is not rule and record.language == EN
                    and record.number == rule.number):
                return record, f"the English text of {rule.number} given by the same document"
        for relation in ("corresponds", "counterpart"):  # the English wording held it matches
            for link in self.data.links_from(rule.id, relation):
                found = self.data.by_id.get(link.to_id)
                if isinstance(found, Rule):
                    return found, link.evidence
        return None

    @cached_property
    def _rule_partners(self) -> list[TextPair]:
        """Every rule of a French document with its English original, including the rules
        left in English there (their examples may be translated)."""
        out = []
        for source, record in self.data.all_records():
            if isinstance(record, Rule) and FR in (record.language, source.language):
                found = self.english_rule(record)
                if found is not None:
                    out.append(TextPair(record, found[0], found[1]))
        return out

    def french_rules_without_english(self) -> list[Rule]:
        """French rules that match no English rule: neither in their own document nor through
        a ``counterpart`` link (empty when the index holds no English rules to match)."""
        if not self.data.versions:
            return []
        partnered = {id(p.fr) for p in self._rule_partners}
        return [r for _, r in self.data.all_records()
                if isinstance(r, Rule) and r.language == FR and id(r) not in partnered]

    @property
    def rules(self) -> list[TextPair]:
        return [p for p in self._rule_partners
                if p.fr.language == FR and not getattr(p.fr, "untranslated", False)]

    @cached_property
    def _example_alignment(self) -> tuple[list[TextPair], list[ExampleCounts]]:
        pairs: list[TextPair] = []
        mismatched: list[ExampleCounts] = []
        for pair in self._rule_partners:
            assert isinstance(pair.fr, Rule) and isinstance(pair.en, Rule)
            ours, theirs = self._examples.get(pair.fr.id, []), self._examples.get(pair.en.id, [])
            if len(ours) != len(theirs):
                mismatched.append(ExampleCounts(pair.fr, pair.en, tuple(ours), tuple(theirs)))
                continue
            for fr, en in zip(ours, theirs, strict=True):
                if fr.language == FR:
                    pairs.append(TextPair(fr, en, f"example {fr.ordinal} of {len(ours)} under "
                                          f"{pair.fr.number} and {pair.en.id}"))
        return pairs, mismatched

    @property
    def examples(self) -> list[TextPair]:
        return self._example_alignment[0]

    @property
    def example_counts(self) -> list[ExampleCounts]:
        return self._example_alignment[1]

    def _linked(self, relation: str, kind: type) -> list[TextPair]:
        out = []
        for link in self.data.links:
            if link.relation != relation:
                continue
            fr, en = self.data.by_id.get(link.from_id), self.data.by_id.get(link.to_id)
            if not (isinstance(fr, kind) and isinstance(en, kind)):
                continue
            if fr.language == FR and en.language == EN and self._same_document_pair(fr, en):
                out.append(TextPair(fr, en, link.evidence))
        return out

    def _same_document_pair(self, fr: Record, en: Record) -> bool:
        source = self.data.source_of[fr.id].id
        return self.data.counterpart_sources.get(source) == self.data.source_of[en.id].id

    @cached_property
    def rulings(self) -> list[TextPair]:
        return self._linked("same-ruling", Ruling)

    @cached_property
    def cards(self) -> list[TextPair]:
        """Cards of a FAQ pair only: a card database prints each language's own wording."""
        return self._linked("same-card", Card)

    @cached_property
    def notes(self) -> list[TextPair]:
        out = []
        for fr_source, en_source in self.data.counterpart_sources.items():
            if fr_source.split(":")[1] != FR:
                continue
            ours, theirs = self._sections(fr_source), self._sections(en_source)
            if len(ours) != len(theirs):
                continue
            for n, (fr_notes, en_notes) in enumerate(zip(ours, theirs, strict=True), start=1):
                if len(fr_notes) != len(en_notes):
                    continue
                for fr, en in zip(fr_notes, en_notes, strict=True):
                    out.append(TextPair(fr, en, f"note {fr_notes.index(fr) + 1} of "
                                        f"{len(fr_notes)} in general section {n} of both FAQs"))
        return out

    def _sections(self, source_id: str) -> list[list[Note]]:
        sections: dict[str | None, list[Note]] = {}
        for record in self.data.records.get(source_id, []):
            if isinstance(record, Note):
                sections.setdefault(record.topic, []).append(record)
        return list(sections.values())

    def all(self) -> list[TextPair]:
        return [*self.rules, *self.examples, *self.rulings, *self.cards, *self.notes]
