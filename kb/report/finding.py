"""What a consistency check reports: a :class:`Finding`, and the records it is about.

A finding is plain data, so that checks can be tested by comparing findings and every renderer
(text, JSON, HTML) shows the same thing. Each one names its category (one module per category in
this package), its check within the category, a severity, the records involved with their file
and line, a one-line explanation and, where one is obvious, a suggested fix.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.i18n import N_
from kb.model import Record, Source, kind_of
from kb.store import record_number, record_text

EXCERPT = 160  # characters of a record's text a finding quotes

ERROR, WARNING, INFO = "error", "warning", "info"
SEVERITIES = (ERROR, WARNING, INFO)

# Categories in report order, with the heading the renderers show.
CATEGORIES: dict[str, str] = {  # marked for the catalogue: the site shows them translated
    "coverage": N_("Translation coverage"),
    "agreement": N_("Translation agreement"),
    "citations": N_("Citations"),
    "terminology": N_("Terminology drift"),
    "examples": N_("Examples"),
    "ingest": N_("Ingest"),
}


@dataclass(frozen=True, slots=True)
class RecordRef:
    """A record as a finding cites it: enough to find it again in its file and in the index."""

    id: str
    kind: str
    number: str | None
    language: str | None
    version: str | None
    file: str
    line: int
    excerpt: str = ""  # the start of the record's text, on one line

    @classmethod
    def of(cls, record: Record, source: Source | None = None) -> RecordRef:
        """The reference of ``record``; its version is the record's own or its source's."""
        version = getattr(record, "version", None) or getattr(record, "date", None)
        if version is None and source is not None:
            version = source.version
        language = getattr(record, "language", None)
        text = " ".join(record_text(record).split())
        excerpt = text if len(text) <= EXCERPT else text[:EXCERPT - 1].rstrip() + "…"
        return cls(record.id, kind_of(record), record_number(record), language, version,
                   record.loc.file, record.loc.line, excerpt)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def rule_lookup(number: str, version: str | None = None, lang: str | None = None) -> str:
    """The command that shows a rule: ``kb rule 702.102``, with ``--version`` for a rule of
    an older version and ``--lang`` for its texts in another language."""
    parts = ["kb rule", number]
    if version:
        parts.append(f"--version {version}")
    if lang:
        parts.append(f"--lang {lang}")
    return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Finding:
    """One disagreement of the rules literature with itself."""

    category: str  # a key of CATEGORIES
    check: str  # the check within the category, e.g. "untranslated"
    severity: str  # ERROR, WARNING or INFO
    message: str  # one line
    records: tuple[RecordRef, ...] = ()
    language: str | None = None  # the language of the text at fault, for --lang
    fix: str | None = None
    lookup: str | None = None  # the kb command that shows what the finding is about
    more: int = 0  # records involved beyond those listed (long lists are cut)

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES:
            raise ValueError(f"unknown category: {self.category!r}")
        if self.severity not in SEVERITIES:
            raise ValueError(f"unknown severity: {self.severity!r}")
        if len(self.records) > MAX_RECORDS:  # a long list is cut, and the rest counted
            object.__setattr__(self, "more", self.more + len(self.records) - MAX_RECORDS)
            object.__setattr__(self, "records", tuple(self.records[:MAX_RECORDS]))


MAX_RECORDS = 12  # records listed per finding; ``more`` counts the others
