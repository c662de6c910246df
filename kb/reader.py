"""Reading an index: :class:`KnowledgeBase` opens the current generation of an index folder
and answers rule lookups (version in force, citations both ways, texts in other languages,
nearest numbers on a miss), cards and exports, as plain dataclasses (:mod:`kb.views`).

This module sits below everything that reads records (:mod:`kb.search`, :mod:`kb.history`,
:mod:`kb.check`, the report, the CLI and the web) and imports none of them: the read path goes
one way down, and :mod:`kb.api` is only the public facade on top.
"""

from __future__ import annotations

import bisect
import dataclasses
import shlex
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.codec import to_dict
from kb.errors import KbError, NoIndexError, NoSuchRuleError
from kb.i18n import _
from kb.indexdir import STORE_FILE, CorruptIndexError, IndexDir, check_serving
from kb.model import Card, Example, GlossaryEntry, Record, Rule, Ruling, kind_of
from kb.params import InvalidValue
from kb.paths import default_index_root, no_index_message
from kb.rulenum import RuleNumber, RuleNumberError, RuleRange
from kb.store import OtherSchemaError, StaleStoreError, Store, record_number, record_text
from kb.text.normal import fold

if TYPE_CHECKING:  # the views load where a rule or a card is shown (kb.views says why)
    from kb.views import (
        CardView,
        CitedRule,
        CitingRecord,
        LinkedText,
        RuleView,
        RulingPair,
        WordMatch,
    )

# The languages ``kb rule --lang`` accepts in any index; any other language the index holds
# (a community translation's: zh, ko) is accepted too. None (the default) is English and French.
LANGUAGES = ("en", "fr", "pt", "all")
# Formats of documents that translate the whole rules without being official text.
COMMUNITY_FORMATS = frozenset({"cr_translation"})


def language_set(lang: str | None, held: Iterable[str] = ()) -> set[str]:
    """The languages a ``lang`` choice shows: English and French by default, ``all`` every
    language of the index (``held``), or one of them; Portuguese and the others only when
    asked for."""
    known = {"en", "fr", "pt", *held}
    if lang is None:
        return {"en", "fr"}
    if lang == "all":
        return known
    if lang not in known:
        raise InvalidValue("lang", _("{lang!r} is not a language of the index (choose from "
                                     "{known}, all)").format(lang=lang,
                                                             known=", ".join(sorted(known))))
    return {lang}


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
            try:
                check_serving(generation)  # a missing or truncated file: say so, not misanswer
            except CorruptIndexError:
                _refuse_older(generation)  # an older kb's index has no manifest: say that
                raise
        if generation is None or not (generation / STORE_FILE).exists():
            raise NoIndexError(no_index_message(self.index_root))
        self.generation = generation
        try:
            self.store = Store.open(generation / STORE_FILE)
        except StaleStoreError as exc:
            raise NoIndexError(_("{problem}: run 'kb build' to rebuild it").format(
                problem=exc)) from exc

    def close(self) -> None:
        self.store.close()

    def languages(self) -> list[str]:
        """The languages of the index's documents ("en", "fr", "pt", "zh", ...)."""
        return sorted({s.language for s in self.store.sources()
                       if s.language and s.language not in ("mixed", "und")} | {"en"})

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
            raise NoIndexError(_("the index holds no Comprehensive Rules: add a CR file and "
                                 "build"))
        if wanted in (None, "", "latest"):
            return versions[-1]
        try:
            day = date.fromisoformat(wanted).isoformat()  # type: ignore[arg-type]
        except ValueError as exc:
            raise KbError(_("not a date: {wanted!r} (use YYYY-MM-DD or 'latest')").format(
                wanted=wanted)) from exc
        in_force = [v for v in versions if v <= day]
        if not in_force:
            raise KbError(_("no rules version in force on {day}; the oldest is {oldest}").format(
                day=day, oldest=versions[0]))
        return in_force[-1]

    # -- rules -----------------------------------------------------------------------------

    def rule(self, number: str, version: str | None = None, lang: str | None = None,
             depth: int | None = None) -> list[RuleView]:
        """The rule and its subrules in the version in force on ``version``, with examples,
        citations both ways, and its texts in the languages of ``lang`` (see :data:`LANGUAGES`;
        English and French when None). ``number`` is a rule number in any written form
        (``CR 702.19B``) or a word of the glossary (``trample``, ``piétinement``: see
        :meth:`lookup_word`). ``depth`` limits the subrules (0: the rule alone).

        A rule that only a translation holds (the French 707.2a of an index without the
        English rules) is answered from the translation. Raise :class:`NoSuchRuleError`
        naming the nearest numbers."""
        from kb.views import RuleView

        languages = language_set(lang, self.languages())
        try:
            wanted = RuleNumber.read(number)
        except RuleNumberError:
            found = self.lookup_word(number, version)
            wanted = RuleNumber.parse(found.rule)
        try:
            resolved: str | None = self.resolve_version(version)
        except NoIndexError:
            resolved = None  # no English rules: translations may still answer
        records = [] if resolved is None else list(
            self.store.query(under=str(wanted), source_id=f"cr:en:{resolved}"))
        if not any(isinstance(r, Rule) and r.number == str(wanted) for r in records):
            records = self._translated_rule(wanted, languages)
            if not records:
                if resolved is None:
                    raise NoIndexError(_("the index holds no Comprehensive Rules and no "
                                         "translation of {number}: add a CR file and build")
                                       .format(number=wanted))
                raise self._not_found(wanted, resolved)
        rules = [r for r in records if isinstance(r, Rule)
                 and (depth is None or _depth_below(r.number, wanted) <= depth)]
        examples: dict[str, list[str]] = {}
        for r in records:
            if isinstance(r, Example):
                examples.setdefault(r.id.rsplit("/", 1)[0], []).append(r.text)
        citing = self._citing(wanted, rules[0].version)
        sources = self.store.sources()
        document_language = {s.file: s.language for s in sources}
        community = {s.id for s in sources if s.format in COMMUNITY_FORMATS}
        titles = self._titles(rules)

        def language_of(record_language: str, file: str, untranslated: bool = False) -> str:
            """A paragraph a document left untranslated counts in the document's language
            (the French table's English 707.2 is shown with --lang fr); a Portuguese
            document's records are all Portuguese, shown only when Portuguese is asked."""
            document = document_language.get(file)
            if document and (document == "pt" or untranslated):
                return document
            return record_language

        views = []
        for r in rules:
            parsed = RuleNumber.parse(r.number)
            cited_by = [cr for rng, cr in citing
                        if _cites(rng, parsed) and not cr.id.startswith(r.id + "/")
                        and cr.id != r.id] + self._cited_by_links(r.id)
            texts = [dataclasses.replace(t, examples=self._examples_of(linked),
                                         community=t.id.rsplit(":", 1)[0] in community)
                     for t, linked in self._linked_texts(r.id)
                     if language_of(linked.language, linked.loc.file, linked.untranslated)
                     in languages]
            cited_by = [dataclasses.replace(c, language=language_of(c.language, c.file))
                        for c in cited_by]
            have = {r.language} | {t.language for t in texts if not t.untranslated}
            views.append(
                RuleView(
                    id=r.id, number=r.number, language=r.language, version=r.version,
                    title=r.title, text=r.text,
                    source={"file": r.loc.file, "line": r.loc.line},
                    examples=examples.get(r.id, []),
                    children=[c.number for c in rules
                              if c.language == r.language and c.parent == r.number],
                    cites=[c.target for c in r.citations],
                    cited_by=[c for c in cited_by if c.language in languages],
                    texts=texts,
                    versions=self._trace(r.id) if r.id.startswith("cr:en:") else {},
                    missing=sorted(languages - have) if lang not in (None, "all") else [],
                    heading=_heading(parsed, titles),
                )
            )
        return views

    def _titles(self, rules: list[Rule]) -> dict[str, str]:
        """Number -> title of the given rules and of the first rule's ancestors, all of the
        first rule's document (a page of 702.19b names its heading, Trample)."""
        titles = {r.number: r.title for r in rules if r.title}
        if rules:
            document = rules[0].id.rsplit(":", 1)[0]
            for ancestor in RuleNumber.parse(rules[0].number).ancestors():
                found = self.store.get(f"{document}:{ancestor}")
                if isinstance(found, Rule) and found.title:
                    titles[str(ancestor)] = found.title
        return titles

    def _translated_rule(self, wanted: RuleNumber, languages: set[str]) -> list[Record]:
        """The rule and its subrules from the latest other document that has it (the French
        CR table, its paragraphs left in English included), with their examples; a document
        in one of ``languages`` first."""
        found = [r for r in self.store.query(under=str(wanted))
                 if isinstance(r, Rule | Example) and not r.id.startswith("cr:en:")]
        heads = [r for r in found if isinstance(r, Rule) and r.number == str(wanted)]
        if not heads:
            return []
        best = max(heads, key=lambda r: (r.id.split(":")[1] in languages, r.version))
        document = best.id.rsplit(":", 1)[0] + ":"
        return [r for r in found if r.id.startswith(document)]

    def _examples_of(self, rule: Rule) -> list[str]:
        """The worked examples printed under ``rule`` in its own document."""
        return [e.text for e in self.store.query(kind="example", number=rule.number)
                if e.id.rsplit("/", 1)[0] == rule.id]

    def lookup_word(self, word: str, version: str | None = None) -> WordMatch:
        """The rule a word names, as the rules bots answer: a glossary entry of that title
        (``trample`` -> 702.19, through "See rule 702.19"), a rule of that title in any
        language (``Écho``), or, through the bilingual term table, the English word's entry
        (``piétinement`` -> Trample). Raise :class:`NoSuchRuleError` when nothing is named so."""
        from kb.views import WordMatch

        key = fold(word)
        if not key:
            raise KbError(_("not a rule number or a word: {word!r}").format(word=word))
        candidates = [key] + [fold(t.english) for t in self.store.terms(key)
                              if fold(t.french) == key]
        try:
            resolved = self.resolve_version(version)
        except NoIndexError:
            resolved = None
        for term in dict.fromkeys(candidates):
            for entry in self.store.query(kind="glossary", version=resolved):
                if isinstance(entry, GlossaryEntry) and fold(entry.term) == term \
                        and entry.citations:
                    return WordMatch(word, entry.citations[0].first, entry.term,
                                     entry.definition, entry.id)
            for r in self.store.query(kind="rule"):
                if isinstance(r, Rule) and r.title and fold(r.title) == term:
                    current = self.store.links(from_id=r.id, relation="current")
                    number = current[0].to_id.rsplit(":", 1)[-1] if current else r.number
                    return WordMatch(word, number, r.title, None, r.id)
        raise NoSuchRuleError(_("{word!r} is neither a rule number (702.19b) nor a word of "
                                "the glossary or of a rule title; try: kb search {query}")
                              .format(word=word, query=shlex.quote(word)))

    def number_in(self, number: str, version: str | None, other: str | None) -> str | None:
        """The number that rule ``number`` of the rules in force on ``version`` has in the
        rules in force on ``other`` (the build's ``next-version`` links, followed both ways):
        702.19b of 2026 is 702.18b in 2013. None when the rule is not in ``other``."""
        at, there = self.resolve_version(version), self.resolve_version(other)
        wanted = str(RuleNumber.read(number))
        if self.store.get(f"cr:en:{at}:{wanted}") is None:
            return None
        return self._trace(f"cr:en:{at}:{wanted}").get(there)

    def _trace(self, rule_id: str) -> dict[str, str]:
        return trace(self.store, rule_id)

    def _linked_texts(self, rule_id: str) -> list[tuple[LinkedText, Rule]]:
        """The other documents' texts the build paired with this English rule: as today's
        rule (``current``), as the rule of the version a text is read against
        (``counterpart``), or as the English wording held a text matches best
        (``corresponds``)."""
        from kb.views import LinkedText

        out, seen = [], set()
        # The pairing itself first (today's rule, the rule of its version), then the wording.
        order = {"current": 0, "counterpart": 1, "corresponds": 2}
        links = sorted((k for k in self.store.links(to_id=rule_id) if k.relation in order),
                       key=lambda k: order[k.relation])
        for link in links:
            if link.from_id in seen:
                continue
            seen.add(link.from_id)
            record = self.store.get(link.from_id)
            if not isinstance(record, Rule):
                continue
            out.append((LinkedText(
                record.id, record.number, record.language, record.version, record.title,
                record.text, {"file": record.loc.file, "line": record.loc.line},
                record.untranslated, record.inferred, link.evidence, basis=link.basis,
                cites=self.cited(record)), record))
        return sorted(out, key=lambda pair: (pair[0].language, pair[0].version, pair[0].id))

    def cited(self, record: Rule) -> list[CitedRule]:
        """The rules ``record`` cites, as the build read them (``cites-then`` and ``current``
        links): the number then, its version, and today's number."""
        from kb.views import CitedRule

        then = {link.to_id.rsplit(":", 1)[-1]: link.to_id
                for link in self.store.links(from_id=record.id, relation="cites-then")}
        out = []
        for citation in record.citations:
            at = then.get(citation.first)
            if at is None:
                out.append(CitedRule.of(citation.written, citation.first, None, record.version,
                                        None))
                continue
            now = self.store.links(from_id=at, relation="current")
            out.append(CitedRule.of(citation.written, citation.first, at.split(":")[2],
                                    record.version,
                                    now[0].to_id.rsplit(":", 1)[-1] if now else None))
        return out

    def _cited_by_links(self, rule_id: str) -> list[CitingRecord]:
        from kb.views import CitingRecord

        out = []
        for link in (self.store.links(to_id=rule_id, relation="cites")
                     + self.store.links(to_id=rule_id, relation="concerns")):
            record = self.store.get(link.from_id)
            if record is not None:
                out.append(CitingRecord(record.id, kind_of(record), record_number(record),
                                        link.evidence, getattr(record, "language", ""),
                                        record.loc.file))
        return out

    def _citing(self, wanted: RuleNumber, version: str) -> list[tuple[RuleRange, CitingRecord]]:
        from kb.views import CitingRecord

        out = []
        for record, citation in self.store.citing(str(wanted), version):
            rng = RuleRange(RuleNumber.parse(citation.first), RuleNumber.parse(citation.last))
            out.append((rng, CitingRecord(record.id, kind_of(record), record_number(record),
                                          citation.written, getattr(record, "language", ""),
                                          record.loc.file)))
        return out

    def _not_found(self, wanted: RuleNumber, version: str) -> NoSuchRuleError:
        numbers = self.store.numbers(version)
        keys = [RuleNumber.parse(n).sort_key for n in numbers]
        at = bisect.bisect_left(keys, wanted.sort_key)
        nearest = numbers[max(0, at - 2): at + 2]
        elsewhere = sorted({r.version for r in self.store.query(kind="rule", number=str(wanted))})
        parts = [_("no rule {number} in the rules of {version}").format(number=wanted,
                                                                        version=version)]
        if nearest:
            parts.append(_("nearest: {numbers}").format(numbers=", ".join(nearest)))
        if elsewhere:
            ranges = version_ranges(elsewhere, self.store.versions())
            parts.append(_("it exists in the rules of {versions} (use --version)").format(
                versions=ranges))
        return NoSuchRuleError(_("; ").join(parts), tuple(nearest), version)

    # -- cards -----------------------------------------------------------------------------

    def card(self, name: str) -> CardView:
        """A card by its English or French name (accents optional), with every source's text
        (dated by its source), its rulings, and the rules (today's numbers) they cite.

        Which cards and rulings are one was decided by the link stage (:mod:`kb.link.cards`):
        the cards reached through ``same-card`` links are the card; the rulings linked to
        them (``about-card``) are its rulings, those joined by ``same-ruling`` links shown
        once with every source and date, and with their French text."""
        from kb.views import CardView, card_text

        cards = [c for c in self.store.query(kind="card") if isinstance(c, Card)]
        key = fold(name)
        hits = [c for c in cards if fold(c.name) == key
                or any(fold(n) == key for _, n in c.names)]
        if not hits:
            close = sorted({c.name for c in cards if key and key in fold(c.name)})[:5]
            if close:
                raise KbError(_("no card named {name!r}; did you mean: {names}").format(
                    name=name, names=", ".join(close)))
            raise KbError(_("no card named {name!r}").format(name=name))
        group = set().union(*self.store.linked([c.id for c in hits], "same-card").values())
        found = [self.store.get(card_id) for card_id in sorted(group)]
        rulings = [r for card_id in sorted(group)
                   for link in self.store.links(to_id=card_id, relation="about-card")
                   if isinstance(r := self.store.get(link.from_id), Ruling)]
        pairs = self._ruling_views(rulings)
        rules = sorted({link.to_id.rsplit(":", 1)[-1] for r in rulings
                        for link in self.store.links(from_id=r.id, relation="cites")},
                       key=lambda n: RuleNumber.parse(n).sort_key)
        dates = {s.file: s.version for s in self.store.sources()}
        texts = sorted((card_text(c, dates) for c in found if isinstance(c, Card)),
                       key=lambda t: (t.language != "en", not t.id.startswith("mtgjson:"), t.id))
        # The Oracle name (MTGJSON's English card) when there is one, else the first English.
        return CardView(texts[0].name, texts, pairs, rules)

    def _ruling_views(self, rulings: list[Ruling]) -> list[RulingPair]:
        """One entry per English ruling however many sources publish it, with its French
        text; a French ruling with no English one stands alone."""
        from kb.views import RulingPair, publication_order, ruling_text

        by_id = {r.id: r for r in rulings}
        same: dict[str, list[tuple[str, str]]] = {}  # ruling -> (other ruling, evidence)
        for r in rulings:
            for link in self.store.links(from_id=r.id, relation="same-ruling"):
                if link.to_id in by_id:
                    same.setdefault(r.id, []).append((link.to_id, link.evidence))
                    same.setdefault(link.to_id, []).append((r.id, link.evidence))
        out: list[RulingPair] = []
        shown: set[str] = set()
        heads = [r for r in rulings if r.language != "fr"]
        groups = self.store.linked([r.id for r in heads], "same-ruling")
        for r in heads:
            if r.id in shown:
                continue
            members = groups[r.id] & set(by_id)
            english = sorted((by_id[m] for m in members if by_id[m].language != "fr"),
                             key=publication_order)
            french = [by_id[m] for m in members if by_id[m].language == "fr"]
            shown |= members
            evidence = [ev for m in members if by_id[m].language == "fr"
                        for other, ev in same.get(m, []) if other in members]
            out.append(RulingPair(ruling_text(english[-1]),
                                  ruling_text(french[0]) if french else None,
                                  evidence[0] if evidence else None,
                                  [ruling_text(e) for e in english]))
        out += [RulingPair(None, ruling_text(r), None) for r in rulings
                if r.language == "fr" and r.id not in shown]
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


def _refuse_older(generation: Path) -> None:
    """Raise :class:`NoIndexError` when ``generation`` was written by another version of kb
    (its store's schema says so), which is no damage: a rebuild is all it needs."""
    try:
        Store.open(generation / STORE_FILE).close()
    except OtherSchemaError as exc:
        raise NoIndexError(_("{problem}: the index was built by another version of kb; run "
                             "'kb build' to rebuild it").format(problem=exc)) from exc
    except (StaleStoreError, sqlite3.Error, OSError):
        return  # a store that cannot be opened is part of the damage already named


def version_ranges(found: list[str], held: list[str]) -> str:
    """``found`` as runs of consecutive versions among ``held``: "2013-05-01 to 2020-11-20
    (12 versions), 2026-04-17" rather than dozens of dates."""
    position = {v: i for i, v in enumerate(held)}
    runs: list[list[str]] = []
    for version in sorted(found):
        at = position.get(version)
        if runs and at is not None and position.get(runs[-1][-1]) == at - 1:
            runs[-1].append(version)
        else:
            runs.append([version])
    return ", ".join(run[0] if len(run) == 1 else
                     f"{run[0]} and {run[1]}" if len(run) == 2 else
                     f"{run[0]} to {run[-1]} ({len(run)} versions)" for run in runs)


def trace(store: Store, rule_id: str) -> dict[str, str]:
    """The English CR rule ``rule_id`` in every version held, by the build's ``next-version``
    links followed both ways: version -> number, oldest first."""
    found = {}
    for at in (*store.chain(rule_id, "next-version", forward=False), rule_id,
               *store.chain(rule_id, "next-version")):
        version, number = at.split(":")[2:4]
        found[version] = number
    return dict(sorted(found.items()))


def _heading(number: RuleNumber, titles: dict[str, str]) -> str | None:
    for candidate in (number, *number.ancestors()):
        if str(candidate) in titles:
            return titles[str(candidate)]
    return None


def _depth_below(number: str, top: RuleNumber) -> int:
    return RuleNumber.parse(number).depth - top.depth


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
