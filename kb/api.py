"""What the CLI and the tests call: build, rule lookup, versions, export.

Every function here returns plain data (dataclasses, dicts); presentation is the CLI's job.
Domain errors are :class:`KbError` subclasses, which the CLI turns into a message and exit 1.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.codec import to_dict
from kb.errors import KbError, NoIndexError, NoSuchRuleError
from kb.indexdir import STORE_FILE, IndexDir, check_serving
from kb.link.pairing import fold
from kb.model import Card, Example, Record, Rule, Ruling, kind_of
from kb.paths import default_index_root
from kb.rulenum import RuleNumber, RuleNumberError, RuleRange
from kb.store import StaleStoreError, Store, record_number, record_text

if TYPE_CHECKING:
    from kb.build import BuildReport, Progress

__all__ = [
    "KbError", "KnowledgeBase", "NoIndexError", "NoSuchRuleError", "build_index",
    "default_index_root",
]


def build_index(
    index_root: Path, corpus_dirs: list[Path], *, embedded: bool = True,
    progress: Progress | None = None, only: bool = False, replace: bool = True,
) -> BuildReport:
    """Build from the folders the current index was built from (at first: the embedded corpus
    and the user's corpus folder, where ``kb fetch`` stores the official files) plus
    ``corpus_dirs``; exactly ``corpus_dirs`` with ``only``. A folder named twice is read once.
    Without ``replace`` a build that would drop a rules version or a source is refused."""
    from kb.build import build, plan_folders  # the parsers load only for a build

    folders = plan_folders(index_root, corpus_dirs, only=only, embedded=embedded)
    return build(index_root, folders, progress, replace=replace)


@dataclass(frozen=True)
class CitingRecord:
    id: str
    kind: str
    number: str | None
    written: str


@dataclass(frozen=True)
class RuleView:
    """A rule as ``kb rule`` shows it."""

    id: str
    number: str
    language: str
    version: str
    title: str | None
    text: str
    source: dict[str, Any]
    examples: list[str] = field(default_factory=list)
    children: list[str] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)
    cited_by: list[CitingRecord] = field(default_factory=list)
    # The same rule in other languages and documents (a French translation, an older
    # version's number quoted by a FAQ), linked by the rule's identity across versions.
    texts: list[LinkedText] = field(default_factory=list)
    # The rule's number in every ingested CR version where it has a counterpart.
    versions: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class LinkedText:
    id: str
    number: str
    language: str
    version: str
    title: str | None
    text: str
    source: dict[str, Any]
    untranslated: bool
    inferred: bool
    evidence: str


@dataclass(frozen=True)
class VersionInfo:
    version: str
    source_id: str
    file: str
    format: str
    language: str | None
    counts: dict[str, int]


class KnowledgeBase:
    """Read access to the current generation of an index folder."""

    def __init__(self, index_root: Path | None = None) -> None:
        self.index_root = index_root or default_index_root()
        # One generation for the whole session: a build publishing meanwhile is not mixed in.
        generation = IndexDir(self.index_root).current()
        if generation is not None:
            check_serving(generation)  # a missing or truncated file: say so, do not misanswer
        if generation is None or not (generation / STORE_FILE).exists():
            raise NoIndexError(f"no index in {self.index_root}: run 'kb build' first")
        self.generation = generation
        try:
            self.store = Store.open(generation / STORE_FILE)
        except StaleStoreError as exc:
            raise NoIndexError(f"{exc}: run 'kb build' to rebuild it") from exc

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- versions --------------------------------------------------------------------------

    def versions(self) -> list[VersionInfo]:
        return [
            VersionInfo(s.version or "", s.id, s.file, s.format, s.language,
                        self.store.count_by_kind(s.id))
            for s in self.store.sources()
            if s.format == "cr_text" and s.version
        ]

    def resolve_version(self, wanted: str | None) -> str:
        """The rules version in force on ``wanted`` (an ISO date), or the latest."""
        versions = self.store.versions()
        if not versions:
            raise NoIndexError("the index holds no Comprehensive Rules: add a CR file and build")
        if wanted in (None, "", "latest"):
            return versions[-1]
        try:
            day = date.fromisoformat(wanted).isoformat()  # type: ignore[arg-type]
        except ValueError as exc:
            raise KbError(f"not a date: {wanted!r} (use YYYY-MM-DD or 'latest')") from exc
        in_force = [v for v in versions if v <= day]
        if not in_force:
            raise KbError(f"no rules version in force on {day}; the oldest is {versions[0]}")
        return in_force[-1]

    # -- rules -----------------------------------------------------------------------------

    def rule(self, number: str, version: str | None = None, lang: str = "all") -> list[RuleView]:
        """The rule and its subrules in the version in force on ``version``, with examples,
        citations both ways. Raise :class:`NoSuchRuleError` naming the nearest numbers."""
        try:
            wanted = RuleNumber.parse(number)
        except RuleNumberError as exc:
            raise KbError(str(exc)) from exc
        resolved = self.resolve_version(version)
        records = list(self.store.query(under=str(wanted), source_id=f"cr:en:{resolved}"))
        rules = [r for r in records if isinstance(r, Rule)]
        if not any(r.number == str(wanted) for r in rules):
            raise NoSuchRuleError(self._not_found(wanted, resolved))
        examples: dict[str, list[str]] = {}
        for r in records:
            if isinstance(r, Example):
                examples.setdefault(f"{r.language}:{r.rule}", []).append(r.text)
        citing = self._citing(wanted, resolved)
        views = []
        for r in rules:
            parsed = RuleNumber.parse(r.number)
            views.append(
                RuleView(
                    id=r.id, number=r.number, language=r.language, version=r.version,
                    title=r.title, text=r.text,
                    source={"file": r.loc.file, "line": r.loc.line},
                    examples=examples.get(f"{r.language}:{r.number}", []),
                    children=[c.number for c in rules
                              if c.language == r.language and c.parent == r.number],
                    cites=[c.target for c in r.citations],
                    cited_by=[cr for rng, cr in citing
                              if _cites(rng, parsed) and not cr.id.startswith(r.id + "/")
                              and cr.id != r.id] + self._cited_by_links(r.id),
                    texts=[] if lang == "en" else self._linked_texts(r.id, lang),
                    versions=self._trace(r.id),
                )
            )
        return views

    def _trace(self, rule_id: str) -> dict[str, str]:
        """Follow ``next-version`` links both ways: version -> number of this rule."""
        found: dict[str, str] = {}
        for direction in ("to_id", "from_id"):
            at = rule_id
            while True:
                version, number = at.split(":")[2:4]
                found[version] = number
                step = self.store.links(**{direction: at}, relation="next-version")
                if not step:
                    break
                at = step[0].from_id if direction == "to_id" else step[0].to_id
        return dict(sorted(found.items()))

    def _linked_texts(self, rule_id: str, lang: str) -> list[LinkedText]:
        out, seen = [], set()
        for link in self.store.links(to_id=rule_id):
            if link.relation not in ("current", "counterpart") or link.from_id in seen:
                continue
            seen.add(link.from_id)
            record = self.store.get(link.from_id)
            if not isinstance(record, Rule) or (lang != "all" and record.language != lang):
                continue
            out.append(LinkedText(
                record.id, record.number, record.language, record.version, record.title,
                record.text, {"file": record.loc.file, "line": record.loc.line},
                record.untranslated, record.inferred, link.evidence))
        return sorted(out, key=lambda t: (t.language, t.version, t.id))

    def _cited_by_links(self, rule_id: str) -> list[CitingRecord]:
        out = []
        for link in (self.store.links(to_id=rule_id, relation="cites")
                     + self.store.links(to_id=rule_id, relation="concerns")):
            record = self.store.get(link.from_id)
            if record is not None:
                out.append(CitingRecord(record.id, kind_of(record), record_number(record),
                                        link.evidence))
        return out

    def _citing(self, wanted: RuleNumber, version: str) -> list[tuple[RuleRange, CitingRecord]]:
        out = []
        for record, citation in self.store.citing(str(wanted), version):
            rng = RuleRange(RuleNumber.parse(citation.first), RuleNumber.parse(citation.last))
            out.append((rng, CitingRecord(record.id, kind_of(record), record_number(record),
                                          citation.written)))
        return out

    def _not_found(self, wanted: RuleNumber, version: str) -> str:
        numbers = self.store.numbers(version)
        keys = [RuleNumber.parse(n).sort_key for n in numbers]
        at = bisect.bisect_left(keys, wanted.sort_key)
        nearest = numbers[max(0, at - 2): at + 2]
        elsewhere = sorted({r.version for r in self.store.query(kind="rule", number=str(wanted))})
        message = f"no rule {wanted} in the rules of {version}"
        if nearest:
            message += f"; nearest: {', '.join(nearest)}"
        if elsewhere:
            message += f"; it exists in: {', '.join(elsewhere)} (use --version)"
        return message

    # -- cards -----------------------------------------------------------------------------

    def card(self, name: str) -> CardView:
        """A card by its English or French name (accents optional), with every source's text,
        its rulings paired French/English, and the rules (today's numbers) they cite."""
        cards = [c for c in self.store.query(kind="card") if isinstance(c, Card)]
        key = fold(name)
        hits = [c for c in cards if fold(c.name) == key
                or any(fold(n) == key for _, n in c.names)]
        if not hits:
            close = sorted({c.name for c in cards if key and key in fold(c.name)})[:5]
            hint = f"; did you mean: {', '.join(close)}" if close else ""
            raise KbError(f"no card named {name!r}{hint}")
        group = {c.id: c for c in hits}
        for c in list(hits):  # one hop along the FR/EN pairing, both ways
            for link in (self.store.links(from_id=c.id, relation="same-card")
                         + self.store.links(to_id=c.id, relation="same-card")):
                other = self.store.get(link.to_id if link.from_id == c.id else link.from_id)
                if isinstance(other, Card):
                    group[other.id] = other
        names = {fold(c.name) for c in group.values()}
        rulings = [r for r in self.store.query(kind="ruling")
                   if isinstance(r, Ruling) and r.card and fold(r.card) in names]
        pairs = self._pair_view(rulings)
        rules = sorted({link.to_id.rsplit(":", 1)[-1] for r in rulings
                        for link in self.store.links(from_id=r.id, relation="cites")},
                       key=lambda n: RuleNumber.parse(n).sort_key)
        texts = sorted((_card_text(c) for c in group.values()),
                       key=lambda t: (t.language != "en", not t.id.startswith("mtgjson:"), t.id))
        # The Oracle name (MTGJSON's English card) when there is one, else the first English.
        return CardView(texts[0].name, texts, pairs, rules)

    def _pair_view(self, rulings: list[Ruling]) -> list[RulingPair]:
        by_id = {r.id: r for r in rulings}
        partner: dict[str, tuple[str, str]] = {}
        for r in rulings:
            for link in self.store.links(from_id=r.id, relation="same-ruling"):
                if link.to_id in by_id:
                    partner[r.id] = (link.to_id, link.evidence)
        paired_en = {en for en, _ in partner.values()}
        out = []
        for r in rulings:
            if r.language == "fr" and r.id in partner:
                en_id, evidence = partner[r.id]
                out.append(RulingPair(_ruling_text(by_id[en_id]), _ruling_text(r), evidence))
            elif r.language == "fr":
                out.append(RulingPair(None, _ruling_text(r), None))
            elif r.id not in paired_en:
                out.append(RulingPair(_ruling_text(r), None, None))
        return out

    # -- export ----------------------------------------------------------------------------

    def export(self, kind: str | None = None, version: str = "all",
               lang: str | None = None) -> Iterator[dict[str, Any]]:
        """Every record as a flat JSON-ready dict (see :func:`export_row`)."""
        wanted = None if version == "all" else self.resolve_version(version)
        examples: dict[str, list[str]] = {}
        if kind in (None, "rule"):
            for ex in self.store.query(kind="example", version=wanted, language=lang):
                examples.setdefault(ex.id.rsplit("/", 1)[0], []).append(ex.id)
        for record in self.store.query(kind=kind, version=wanted, language=lang):
            row = export_row(record)
            if isinstance(record, Rule):
                row["examples"] = examples.get(record.id, [])
            yield row


def _cites(rng: RuleRange, number: RuleNumber) -> bool:
    """A citation of one rule cites that rule only ("see rule 702" is not a citation of
    702.19b); a range cites every rule it spans, down to the subrules of its last rule."""
    if rng.first == rng.last:
        return rng.first == number
    return number in rng


def export_row(record: Record) -> dict[str, Any]:
    """``kind``, ``id``, ``number``, ``language``, ``version``, ``text``, ``source``, ``cites``,
    then the other fields of the record's kind (``parent``, ``title`` ... for rules)."""
    fields = to_dict(record)
    loc = fields.pop("loc")
    row: dict[str, Any] = {
        "kind": kind_of(record),
        "id": fields.pop("id"),
        "number": record_number(record),
        "language": fields.pop("language", None),
        "version": fields.pop("version", None),
        "text": record_text(record),
        "source": {"file": loc["file"], "line": loc["line"]},
    }
    fields.pop("text", None)
    row["cites"] = [c["first"] if c["first"] == c["last"] else f"{c['first']}-{c['last']}"
                    for c in fields.pop("citations", [])]
    row.update(fields)
    return row


@dataclass(frozen=True)
class CardText:
    id: str
    name: str
    language: str
    faces: list[dict[str, Any]]
    card_text: str | None
    source: dict[str, Any]


@dataclass(frozen=True)
class RulingText:
    id: str
    language: str
    date: str | None
    text: str
    source: dict[str, Any]


@dataclass(frozen=True)
class RulingPair:
    """A ruling and its translation; either side may be missing."""

    en: RulingText | None
    fr: RulingText | None
    evidence: str | None


@dataclass(frozen=True)
class CardView:
    """A card as ``kb card`` shows it: every source's text, rulings side by side, rules."""

    name: str
    texts: list[CardText]
    rulings: list[RulingPair]
    rules: list[str]


def _card_text(card: Card) -> CardText:
    return CardText(card.id, card.name, card.language, [to_dict(f) for f in card.faces],
                    card.card_text, {"file": card.loc.file, "line": card.loc.line})


def _ruling_text(ruling: Ruling) -> RulingText:
    return RulingText(ruling.id, ruling.language, ruling.date, ruling.text,
                      {"file": ruling.loc.file, "line": ruling.loc.line})
