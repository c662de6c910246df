"""The link stage of a build: relate the records of every source once they are all stored.

- Each rule text that is not an official English CR record (a French FAQ's quoted 702.100, the
  French 707 of a scraped page, a keyword page's 702.27) is anchored in the English CR version
  its document was written for, then followed to today's number through the rules' identity
  across versions (:mod:`kb.link.identity`): the FAQ's 702.100 Fuse is today's 702.102.
- Citations in those documents are resolved the same way ("règle 708" of 2013 is today's 709).
- French cards and FAQ rulings are paired with their English originals (:mod:`kb.link.pairing`).

Links are derived data: every build recomputes them all from the stored records.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from kb.link.cards import card_links
from kb.link.identity import (
    Counterpart,
    IndexedVersion,
    Lineage,
    compare_versions,
    index_version,
)
from kb.link.pairing import pair_cards, pair_rulings
from kb.link.translation import FORMAT as TRANSLATION_FORMAT
from kb.link.translation import stage_links as translation_links
from kb.model import Card, Example, GlossaryEntry, Link, Record, Rule, Ruling, Source
from kb.rulenum import RuleNumber
from kb.store import Store

CR_FORMAT = "cr_text"


@dataclass(frozen=True, slots=True)
class _Version:
    """One English CR version as the linker needs it: numbers and heading titles."""

    date: str
    numbers: frozenset[str]
    by_title: dict[str, str]  # folded heading title -> number
    titles: dict[str, str]  # number -> folded title


def link_all(store: Store, previous: Path | None = None,
             reused: frozenset[str] = frozenset()) -> dict[str, int]:
    """Compute and store every link; return how many of each relation.

    ``previous`` is the store of the previous build and ``reused`` the sources copied from it
    unchanged: the pairs between two consecutive versions that were both reused, and were
    consecutive there too, are copied from its ``next-version`` links instead of being matched
    again. Versions are matched two at a time, so memory holds two versions' rules, not all.
    """
    by_version = {s.version: s for s in store.sources() if s.format == CR_FORMAT and s.version}
    links: list[Link] = []
    if by_version:
        days = sorted(by_version)
        numbers = {v: _numbers_and_titles(store, by_version[v].id) for v in days}
        old_steps = _reusable_steps(previous, by_version, reused)
        matches: list[Counterpart] = []
        loaded: dict[str, IndexedVersion] = {}
        for old, new in zip(days, days[1:], strict=False):
            if (old, new) in old_steps:
                matches += _stored_step(store, previous, old, new)  # type: ignore[arg-type]
                continue
            for day in (old, new):
                if day not in loaded:
                    loaded[day] = index_version([r for r in store.query(
                        kind="rule", source_id=by_version[day].id) if isinstance(r, Rule)])
            matches += compare_versions(loaded[old], loaded[new]).matches
            loaded.pop(old)
        lineage = Lineage.from_matches({v: [n for n, _ in numbers[v]] for v in days}, matches)
        links += [
            Link(f"cr:en:{m.old_version}:{m.old_number}", f"cr:en:{m.new_version}:{m.new_number}",
                 "next-version", m.confidence, m.how)
            for diff in lineage.diffs.values() for m in diff.matches
        ]
        versions = {v: _version(v, numbers[v]) for v in days}
        links += _rule_links(store, list(by_version.values()), versions, lineage)
        latest = days[-1]
        links += translation_links(store, {v: s.id for v, s in by_version.items()},
                                   lambda v, n: lineage.current(v, n, latest), latest)
        links += _concerns_links(store, f"cr:en:{latest}", latest)
    cards = [r for r in store.query(kind="card") if isinstance(r, Card)]
    card_pairs = pair_cards(cards)
    links += [Link(p.left, p.right, p.relation, p.confidence, p.evidence) for p in card_pairs]
    rulings = [r for r in store.query(kind="ruling") if isinstance(r, Ruling)]
    links += [Link(p.left, p.right, p.relation, p.confidence, p.evidence)
              for p in [*pair_rulings(rulings, card_pairs), *card_links(cards, rulings)]]
    store.replace_links(links)
    return dict(Counter(link.relation for link in links))


def _numbers_and_titles(store: Store, source_id: str) -> list[tuple[str, str | None]]:
    """A CR source's rule numbers and titles, in rule-number order, without decoding the
    records (a hundred versions hold some 300,000 rules)."""
    cur = store.conn.execute("SELECT number, title FROM records WHERE kind='rule'"
                             " AND source_id=? ORDER BY sort_key, seq", (source_id,))
    return cur.fetchall()


def _reusable_steps(previous: Path | None, by_version: dict[str, Source],
                    reused: frozenset[str]) -> set[tuple[str, str]]:
    """The consecutive version pairs whose matching the previous store already holds."""
    if previous is None:
        return set()
    with closing(sqlite3.connect(f"file:{previous}?mode=ro", uri=True)) as old:
        before = sorted(row[0] for row in old.execute(
            "SELECT DISTINCT version FROM sources WHERE format=? AND version NOT NULL",
            (CR_FORMAT,)))
    days = sorted(by_version)
    steps = set(zip(before, before[1:], strict=False))
    return {(a, b) for a, b in zip(days, days[1:], strict=False)
            if (a, b) in steps and by_version[a].id in reused and by_version[b].id in reused}


def _stored_step(store: Store, previous: Path, old: str, new: str) -> list[Counterpart]:
    with closing(sqlite3.connect(f"file:{previous}?mode=ro", uri=True)) as conn:
        rows = conn.execute(
            "SELECT from_id, to_id, evidence, confidence FROM links WHERE"
            " relation='next-version' AND from_id GLOB ? AND to_id GLOB ?",
            (f"cr:en:{old}:*", f"cr:en:{new}:*")).fetchall()
    return [Counterpart(old, a.split(":", 3)[3], new, b.split(":", 3)[3], how, confidence)
            for a, b, how, confidence in rows]


def _concerns_links(store: Store, source_id: str, latest: str) -> Iterator[Link]:
    """Notes and examples about a keyword (their topic) and rulings about a mechanic, linked
    to the rules today's glossary points to for that term: the 1998 "Echo" section and a
    ruling about battles concern 702.30 and 310. Terms the glossary lacks link nowhere."""
    glossary = {
        _fold(g.term): g for g in store.query(kind="glossary", source_id=source_id)
        if isinstance(g, GlossaryEntry)
    }
    for record in store.query(kind="note"):
        yield from _concerns(record.id, getattr(record, "topic", None), glossary, latest)
    for record in store.query(kind="example"):
        if isinstance(record, Example) and RuleNumber.try_parse(record.rule) is None:
            yield from _concerns(record.id, record.rule, glossary, latest)
    for record in store.query(kind="ruling"):
        yield from _concerns(record.id, getattr(record, "mechanic", None), glossary, latest)


def _concerns(record_id: str, term: str | None, glossary: dict[str, GlossaryEntry],
              latest: str) -> Iterator[Link]:
    if not term:
        return
    key = _fold(term)
    entry = glossary.get(key) or glossary.get(key.removesuffix("s"))
    if entry is None:
        return
    for citation in entry.citations:
        yield Link(record_id, f"cr:en:{latest}:{citation.first}", "concerns", 0.6,
                   f"about “{term}”: the glossary of {latest} points to {citation.written}")


def _version(day: str, rules: list[tuple[str, str | None]]) -> _Version:
    titled = {number: _fold(title) for number, title in rules if title}
    return _Version(day, frozenset(number for number, _ in rules),
                    {t: n for n, t in titled.items()}, titled)


def _fold(title: str) -> str:
    return " ".join(title.casefold().split())


def _rule_links(store: Store, cr_sources: list[Source], versions: dict[str, _Version],
                lineage: Lineage) -> Iterator[Link]:
    latest = max(versions)
    cr_ids = {s.id for s in cr_sources}
    orders: dict[date, list[str]] = {}  # most records of a source share their date
    for source in store.sources():
        if source.id in cr_ids:
            continue
        records = list(store.query(source_id=source.id))
        english_titles = {r.number: _fold(r.title) for r in records
                          if isinstance(r, Rule) and r.language == "en" and r.title}
        anchors: dict[tuple[str, str], tuple[str, str]] = {}  # (language, number) -> (day, no.)
        for record in records:
            day = _record_date(record, source)
            if day is None:
                continue
            if day not in orders:
                orders[day] = sorted(versions,
                                     key=lambda v: abs((date.fromisoformat(v) - day).days))
            order = orders[day]
            if isinstance(record, Rule) and source.format != TRANSLATION_FORMAT:
                for link in _anchor_rule(record, english_titles.get(record.number), order,
                                         versions, lineage, latest, anchors):
                    if link.relation == "counterpart":
                        day, number = link.to_id.split(":")[2:4]
                        anchors[(record.language, record.number)] = (day, number)
                    yield link
            for citation in getattr(record, "citations", ()):
                yield from _resolve_citation(record.id, citation.first, citation.written,
                                             order, versions, lineage, latest)


def _record_date(record: Record, source: Source) -> date | None:
    """The date a record was written: its own (a ruling's), else its document's.
    A year alone ("2024", a French page whose month is unknown) counts from its first day."""
    raw = getattr(record, "date", None) or source.version
    if not raw:
        return None
    try:
        return date.fromisoformat(raw if len(raw) > 4 else f"{raw}-01-01")
    except ValueError:
        return None


def _anchor_rule(rule: Rule, english_title: str | None, order: list[str],
                 versions: dict[str, _Version], lineage: Lineage, latest: str,
                 anchors: dict[tuple[str, str], tuple[str, str]]) -> Iterator[Link]:
    """Find the English rule this text is a version or translation of, nearest version first.

    A heading whose English title is known (the source also gives the English text) must have
    that title: the keyword page's 702.27 is Echo, which 2013 numbers 702.28. A rule under a
    heading anchored at another number goes with it (the page's 702.27a is 2006's 502.19a),
    never to the rule that has its own number in some other version.
    """
    moved = _under_moved_heading(rule, versions, anchors)
    if moved is not None:
        order = [moved[0]]
    for day in order:
        version = versions[day]
        number, how = rule.number, "same number"
        if moved is not None:
            number, how = moved[1], f"under its heading's counterpart {moved[2]}"
            if number not in version.numbers:
                return
        elif english_title is not None and version.titles.get(number) != english_title:
            if english_title not in version.by_title:
                continue
            number, how = version.by_title[english_title], f"same title ({english_title})"
        elif number not in version.numbers:
            continue
        confidence = 0.9 if english_title else 0.7
        evidence = f"{how} in the rules of {day}, the version nearest the document's date"
        yield Link(rule.id, f"cr:en:{day}:{number}", "counterpart", confidence, evidence)
        now = lineage.current(day, number, latest)
        if now is not None:
            yield Link(rule.id, f"cr:en:{latest}:{now}", "current", confidence,
                       f"{number} of {day} is {now} on {latest}")
        return


def _under_moved_heading(rule: Rule, versions: dict[str, _Version],
                         anchors: dict[tuple[str, str], tuple[str, str]]
                         ) -> tuple[str, str, str] | None:
    """(version, number, heading number) for a rule whose nearest anchored ancestor of the
    same document was anchored at another number; None otherwise."""
    parsed = RuleNumber.try_parse(rule.number)
    if parsed is None:
        return None
    for ancestor in parsed.ancestors():
        anchored = anchors.get((rule.language, str(ancestor)))
        if anchored is None:
            continue
        day, number = anchored
        if number == str(ancestor) or day not in versions:
            return None
        return day, number + rule.number[len(str(ancestor)):], number
    return None


def _resolve_citation(record_id: str, first: str, written: str, order: list[str],
                      versions: dict[str, _Version], lineage: Lineage,
                      latest: str) -> Iterator[Link]:
    if RuleNumber.try_parse(first) is None:
        return
    for day in order:
        if first in versions[day].numbers:
            now = lineage.current(day, first, latest)
            if now is not None:
                yield Link(record_id, f"cr:en:{latest}:{now}", "cites", 0.8,
                           f"“{written}” means {first} of {day}, which is {now} on {latest}")
            return
