"""The link stage of a build: relate the records of every source once they are all stored.

Every pairing is decided here, once, and stored as a link with its basis and confidence; the
readers (``kb rule``, the web, the API) only read links.

- Each English CR version held is paired rule by rule with the next one held
  (:mod:`kb.link.identity`: ``next-version``).
- Each rule text that is not an official English CR record (a French FAQ's quoted 702.100, the
  French 707 of a scraped page, a keyword page's 702.27) is read against the rules of its
  document's date, held or not, through kb's numbering table (:mod:`kb.link.anchors`,
  :mod:`kb.link.numbering`): ``counterpart`` (the English rule it is a text of, in that
  version), ``current`` (today's rule: the FAQ's 702.100 Fuse is today's 702.102) and
  ``corresponds`` (the English wording held it matches best). A text nothing pairs is linked
  ``unpaired`` to today's rule of its number, for the report, never as a translation.
- Citations in those documents are read the same way: ``cites-then`` (the rule "règle 708"
  meant in 2013), ``cites`` (today's 709), and ``current`` from the former to the latter.
- French cards and FAQ rulings are paired with their English originals (:mod:`kb.link.pairing`).

Links are derived data: every build recomputes them all from the stored records.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

from kb.lineage import Counterpart, Lineage
from kb.link.anchors import (
    Decision,
    Numbering,
    Titles,
    corresponding,
    read_citation,
    read_rule,
)
from kb.link.cards import card_links
from kb.link.identity import IndexedVersion, compare_versions, index_version
from kb.link.numbering import NumberingTable
from kb.link.pairing import pair_cards, pair_rulings
from kb.link.terms import official_vocabulary
from kb.link.translation import FORMAT as TRANSLATION_FORMAT
from kb.link.translation import stage_links as translation_links
from kb.model import Card, Example, GlossaryEntry, Link, Record, Rule, Ruling, Source
from kb.rulenum import RuleNumber
from kb.store import Store

CR_FORMAT = "cr_text"
LANGUAGE_NAMES = {"fr": "French", "en": "English", "pt": "Portuguese"}


def link_all(store: Store, previous: Path | None = None,
             reused: frozenset[str] = frozenset(),
             table: NumberingTable | None = None) -> dict[str, int]:
    """Compute and store every link; return how many of each relation.

    ``table`` is kb's numbering table of every published version (:mod:`kb.link.numbering`),
    which texts are read against beside the versions held. ``previous`` is the store of the
    previous build and ``reused`` the sources copied from it unchanged: the pairs between two
    consecutive versions that were both reused, and were consecutive there too, are copied
    from its ``next-version`` links instead of being matched again. Versions are matched two at
    a time, so memory holds two versions' rules, not all.
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
                 "next-version", m.confidence, m.how, "held texts")
            for diff in lineage.diffs.values() for m in diff.matches
        ]
        numbering = Numbering(table, numbers, lineage)
        links += _document_links(store, {s.id for s in by_version.values()}, numbering)
        latest = days[-1]
        links += translation_links(store, {v: s.id for v, s in by_version.items()},
                                   lambda v, n: lineage.current(v, n, latest), latest)
        links += _concerns_links(store, f"cr:en:{latest}", latest)
    cards = [r for r in store.query(kind="card") if isinstance(r, Card)]
    card_pairs = pair_cards(cards)
    links += [Link(p.left, p.right, p.relation, p.confidence, p.evidence, "card")
              for p in card_pairs]
    rulings = [r for r in store.query(kind="ruling") if isinstance(r, Ruling)]
    links += [Link(p.left, p.right, p.relation, p.confidence, p.evidence, "ruling")
              for p in pair_rulings(rulings, card_pairs)]
    links += [Link(p.left, p.right, p.relation, p.confidence, p.evidence, "card")
              for p in card_links(cards, rulings)]
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
                   f"about “{term}”: the glossary of {latest} points to {citation.written}",
                   "glossary")




def _fold(title: str) -> str:
    return " ".join(title.casefold().split())


# -- the rules and citations of other documents --------------------------------------------------


def _document_links(store: Store, cr_ids: set[str], numbering: Numbering) -> Iterator[Link]:
    titles = Titles(official_vocabulary())
    held: set[str] = set(numbering.numbers)
    cited: set[str] = set()  # English rules cited, whose own ``current`` link is made once
    english: dict[str, Rule | None] = {}  # held English rules read, by id

    def english_rule(record_id: str) -> Rule | None:
        if record_id not in english:
            found = store.get(record_id)
            english[record_id] = found if isinstance(found, Rule) else None
        return english[record_id]

    for source in store.sources():
        if source.id in cr_ids:
            continue
        records = list(store.query(source_id=source.id))
        english_titles = {r.number: r.title for r in records
                          if isinstance(r, Rule) and r.language == "en" and r.title}
        decided: dict[tuple[str, str], Decision | None] = {}  # (language, number) ->
        for record in records:
            written = getattr(record, "date", None) or source.version
            if isinstance(record, Rule) and source.format != TRANSLATION_FORMAT:
                yield from _rule_links(record, written, numbering, titles, english_titles,
                                       decided, held, english_rule)
            seen: set[str] = set()
            for citation in getattr(record, "citations", ()):
                if citation.first not in seen:
                    seen.add(citation.first)
                    yield from _citation_links(record, citation.first, citation.written,
                                               written, numbering, cited)


def _rule_links(rule: Rule, written: str | None, numbering: Numbering, titles: Titles,
                english_titles: dict[str, str], decided: dict[tuple[str, str], Decision | None],
                held: set[str], english_rule: Callable[[str], Rule | None]) -> Iterator[Link]:
    heading_number = _quoted_heading(rule, decided)
    heading = decided.get((rule.language, heading_number)) if heading_number else None
    if heading_number is not None and heading is None:
        decided[(rule.language, rule.number)] = None
        yield _unpaired(rule, written, numbering, f"its heading {heading_number} is unpaired")
        return
    own = None if rule.language == "en" else english_titles.get(rule.number)
    decision = read_rule(rule, written, numbering, titles.of(rule, own), heading,
                         heading_number)
    decided[(rule.language, rule.number)] = decision
    if decision is None:
        yield _unpaired(rule, written, numbering, _why_unpaired(rule, written, titles, own))
        return
    anchor = f"cr:en:{decision.version}:{decision.number}"
    yield Link(rule.id, anchor, "counterpart", decision.confidence, decision.evidence,
               decision.basis)
    today = numbering.today(decision.version, decision.number)
    if today is not None:
        yield Link(rule.id, f"cr:en:{numbering.latest}:{today.number}", "current",
                   min(decision.confidence, today.confidence), today.evidence, decision.basis)
    if decision.version == written and decision.version in held:
        # A rules document of a version held (the pt-BR rules of 2020-11-20): its wording is
        # that version's.
        yield Link(rule.id, anchor, "corresponds", decision.confidence,
                   f"the English of its own version, {written}", "date")
        return
    trace = numbering.trace(decision.version, decision.number)
    texts = {v: r for v, n in trace.items() if v in held
             and (r := english_rule(f"cr:en:{v}:{n}")) is not None}
    wording = corresponding(rule, decision, texts)
    if wording is not None:
        yield Link(rule.id, f"cr:en:{wording.version}:{wording.number}", "corresponds",
                   decision.confidence,
                   f"matches the English of {wording.version} ({wording.number}) best "
                   f"of the {len(texts)} versions held ({wording.basis})", wording.basis)


def _quoted_heading(rule: Rule, decided: dict[tuple[str, str], Decision | None]) -> str | None:
    """The nearest ancestor of ``rule`` that its document quotes in the same language (rules
    come in number order, so it was decided before)."""
    parsed = RuleNumber.try_parse(rule.number)
    for ancestor in parsed.ancestors() if parsed else []:
        if (rule.language, str(ancestor)) in decided:
            return str(ancestor)
    return None


def _why_unpaired(rule: Rule, written: str | None, titles: Titles, own: str | None) -> str:
    found = titles.of(rule, own)
    when = f"near {written}" if written else "of any date"
    if found is None:
        return f"no version of the rules {when} has a rule {rule.number}"
    return (f"no version of the rules {when} has a rule {rule.number} titled "
            f"{' or '.join(sorted(found[0]))}, nor one rule of that title")


def _unpaired(rule: Rule, written: str | None, numbering: Numbering, why: str) -> Link:
    """The text as a finding: what it is, why nothing pairs it, and what today's rule of its
    number is (the rule a reader would wrongly take it for)."""
    latest = numbering.latest
    title = numbering.title(latest, rule.number) if latest else None
    held = latest is not None and numbering.holds(latest, rule.number)
    today = (f"today's {rule.number} is {title or 'another rule'}" if held
             else f"the rules of {latest} have no {rule.number}")
    named = f" ({rule.title})" if rule.title else ""
    language = LANGUAGE_NAMES.get(rule.language, rule.language)
    when = f"of {written} " if written else ""
    return Link(rule.id, f"cr:en:{latest}:{rule.number}", "unpaired", 0.0,
                f"the {language} text {when}numbered {rule.number}{named} is not shown as "
                f"a text of {rule.number}: {why}; {today}", "")


def _citation_links(record: Record, first: str, written_as: str, written: str | None,
                    numbering: Numbering, cited: set[str]) -> Iterator[Link]:
    decision = read_citation(first, written, numbering)
    if decision is None:
        return
    then = f"cr:en:{decision.version}:{first}"
    yield Link(record.id, then, "cites-then", decision.confidence,
               f"“{written_as}” means {decision.evidence}", decision.basis)
    today = numbering.today(decision.version, first)
    if today is None:
        return
    now = f"cr:en:{numbering.latest}:{today.number}"
    yield Link(record.id, now, "cites", decision.confidence,
               f"“{written_as}” means {first} of {decision.version}, which is {today.number} "
               f"on {numbering.latest}", decision.basis)
    if then not in cited:
        cited.add(then)
        yield Link(then, now, "current", today.confidence, today.evidence,
                   numbering.source(decision.version))
