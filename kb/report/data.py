"""Everything the checks read, loaded once from a store: sources, records in reading order,
links, and what follows from them (the English CR versions, a rule's number today).

Checks are pure functions of a :class:`ReportData`, so a test builds one by hand from a few
records instead of building an index.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property

from kb.model import Link, Record, Rule, Source
from kb.report.finding import RecordRef
from kb.store import Store

CR_FORMAT = "cr_text"
# Documents that are the rules themselves, a version or a translation of one: their numbering
# is their version's. How far it drifted from today's rules is translation lag, not a stale
# reference; the citations check follows to today only the rules other documents quote.
RULES_FORMATS = frozenset({"cr_text", "cr_table", "html_rules", "po_catalog"})


def cr_id(version: str, number: str) -> str:
    """The id of an English CR record (see docs/architecture.md, "Record ids")."""
    return f"cr:en:{version}:{number}"


def split_cr_id(record_id: str) -> tuple[str, str] | None:
    """(version, number) of an English CR record id, else None."""
    parts = record_id.split(":")
    if len(parts) != 4 or parts[:2] != ["cr", "en"]:
        return None
    return parts[2], parts[3]


@dataclass(frozen=True)
class DocDate:
    """The date a record was written, and whether only its year is known."""

    day: date
    year_only: bool = False

    @classmethod
    def parse(cls, raw: str | None) -> DocDate | None:
        if not raw:
            return None
        try:
            if len(raw) == 4:
                return cls(date(int(raw), 1, 1), year_only=True)
            return cls(date.fromisoformat(raw[:10]))
        except ValueError:
            return None

    def __str__(self) -> str:
        return str(self.day.year) if self.year_only else self.day.isoformat()


@dataclass
class ReportData:
    """Sources, their records in reading order, and the links of one build."""

    sources: dict[str, Source]
    records: dict[str, list[Record]]  # source id -> records, in reading order
    links: list[Link] = field(default_factory=list)

    @classmethod
    def from_store(cls, store: Store) -> ReportData:
        """Load a whole store, each source's records in reading order."""
        sources = {s.id: s for s in store.sources()}
        records: dict[str, list[Record]] = defaultdict(list)
        for source_id, record in store.in_reading_order():
            records[source_id].append(record)
        return cls(sources, dict(records), store.links())

    # -- lookups ---------------------------------------------------------------------------

    @cached_property
    def by_id(self) -> dict[str, Record]:
        return {r.id: r for records in self.records.values() for r in records}

    @cached_property
    def source_of(self) -> dict[str, Source]:
        """Record id -> its source."""
        return {r.id: self.sources[sid] for sid, records in self.records.items() for r in records}

    @cached_property
    def _links_from(self) -> dict[tuple[str, str], list[Link]]:
        out: dict[tuple[str, str], list[Link]] = defaultdict(list)
        for link in self.links:
            out[(link.from_id, link.relation)].append(link)
        return out

    def links_from(self, record_id: str, relation: str) -> list[Link]:
        return self._links_from.get((record_id, relation), [])

    def ref(self, record: Record) -> RecordRef:
        return RecordRef.of(record, self.source_of.get(record.id))

    def all_records(self) -> list[tuple[Source, Record]]:
        return [(self.sources[sid], r) for sid, records in self.records.items() for r in records]

    # -- the English rules ------------------------------------------------------------------

    @cached_property
    def versions(self) -> list[str]:
        """The English CR versions held, oldest first."""
        return sorted(s.version for s in self.sources.values()
                      if s.format == CR_FORMAT and s.version)

    @property
    def latest(self) -> str | None:
        return self.versions[-1] if self.versions else None

    @cached_property
    def cr_rules(self) -> dict[str, dict[str, Rule]]:
        """Version -> number -> the English CR rule (the first of a duplicated number)."""
        out: dict[str, dict[str, Rule]] = {}
        for source in self.sources.values():
            if source.format == CR_FORMAT and source.version:
                rules = out.setdefault(source.version, {})
                for record in self.records.get(source.id, []):
                    if isinstance(record, Rule):
                        rules.setdefault(record.number, record)
        return out

    def title_of(self, version: str, number: str) -> str | None:
        """The title of rule ``number`` of an English version held, else None."""
        rule = self.cr_rules.get(version, {}).get(number)
        return rule.title if rule else None

    # -- how the build read other documents (kb.link.anchors) -------------------------------

    def read_as(self, record_id: str) -> tuple[str, str] | None:
        """(version, number) of the English rule a rule text was read as (``counterpart``)."""
        for link in self.links_from(record_id, "counterpart"):
            return split_cr_id(link.to_id)
        return None

    def current_of(self, record_id: str) -> str | None:
        """Today's number of a rule text or of an English rule of another version
        (``current``), or None when it has none today."""
        for link in self.links_from(record_id, "current"):
            found = split_cr_id(link.to_id)
            return found[1] if found else None
        return None

    def today_of(self, version: str, number: str) -> str | None:
        """Today's number of rule ``number`` of ``version``."""
        if version == self.latest:
            return number if number in self.cr_rules.get(version, {}) else None
        return self.current_of(cr_id(version, number))

    def named(self, version: str, number: str, today: str | None) -> str:
        """"708 Split Cards": the number and the title it has in ``version``, or today."""
        title = self.title_of(version, number) or (
            self.title_of(self.latest, today) if self.latest and today else None)
        return f"{number} {title}" if title else number

    # -- documents --------------------------------------------------------------------------

    def record_date(self, record: Record) -> DocDate | None:
        """A record's own date (a ruling's) or else its document's."""
        source = self.source_of.get(record.id)
        return DocDate.parse(getattr(record, "date", None) or (source.version if source else None))

    @cached_property
    def counterpart_sources(self) -> dict[str, str]:
        """Source id -> the id of the same document in the other language (a French FAQ and
        its English original: ids that differ only by their language part)."""
        by_family: dict[str, list[str]] = defaultdict(list)
        for source_id in self.sources:
            parts = source_id.split(":")
            if len(parts) > 1 and parts[1] in ("fr", "en"):
                by_family[":".join(parts[:1] + parts[2:])].append(source_id)
        out: dict[str, str] = {}
        for members in by_family.values():
            if len(members) == 2:
                out[members[0]], out[members[1]] = members[1], members[0]
        return out
