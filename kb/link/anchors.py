"""Reading a document against the rules of its day: which English rule a quoted or translated
rule is, what a citation means, and what both are today.

A document cites the numbers of its day, and its day may be a version the index does not
hold: the default install holds today's rules alone. So a text is read against
:class:`Numbering`, kb's table of every published version (:mod:`kb.link.numbering`) joined
with the versions held, and each decision is a :class:`Decision` carrying its basis and
confidence, which the link stage stores.

Mind the dates. A text is read against the *first version that holds what it cites*, from the
version in force on its date: the Dragon's Maze FAQ of 2013-03-21 quotes Fuse as 702.100, a
rule that the rules of 2013-05-01 added for that set; the rules in force on 2013-03-21 had no
702.100. Its "règle 708" is the rules in force's 708, split cards, today's 709. A rule with a
title is also checked by its title: the English title of the same document, or the French
title through the official French vocabulary (``official_terms.tsv``: fusion = fuse), must be
the title of the English rule. A bare number is looked for in the versions near the date only
(the one in force, the next, and those of a date given as a year; then, for a number the
document kept from older rules, earlier versions): a number of 2021 never explains a text of
2013. A text that nothing pairs is not paired: the stage records why, for the report.

Which English *wording* a text matches best among the versions held (a translation made from
the rules of 2013 stays beside 2013's English, and is stale once the English changed) is
decided here too (:func:`corresponding`), once, by what a translation keeps: its number, the
rules it cites, figures and mana symbols, and for an English quote its words.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from functools import cached_property

from kb.lineage import Lineage, edition
from kb.link.identity import normalize, similarity
from kb.link.numbering import NumberingTable
from kb.model import Rule
from kb.rulenum import RuleNumber
from kb.text.normal import fold

# Confidence of a pairing, by its evidence.
TITLED = 0.95  # number and date, and the title agrees
OWN_VERSION = 0.9  # a rules document of that very version (its date is the effective date)
BY_TITLE = 0.9  # the title found at another number of the version
DATED = 0.7  # number and date; no title to check
OLDER = 0.6  # a number the document kept from rules older than its date
STALE_YEARS = 3  # how far back a number kept from older rules is looked for


@dataclass(frozen=True, slots=True)
class Decision:
    """An English rule ``number`` of ``version`` that a text is read as, and why."""

    version: str
    number: str
    basis: str
    confidence: float
    evidence: str


@dataclass(frozen=True, slots=True)
class Today:
    """Where a rule of some version stands in the newest version held."""

    number: str
    evidence: str
    confidence: float


class Numbering:
    """The numbering texts are read against: kb's table of every published version, joined
    with the versions the index holds.

    A rule is followed through the table (so an answer does not depend on which old texts
    happen to be indexed), and in a version held the table's number counts only if the held
    text has it; beyond the table's newest version (a newer file from ``kb fetch``), and from
    a held version the table lacks, through the pairs the build made between the versions
    held (``lineage``).
    """

    def __init__(self, table: NumberingTable | None,
                 held: Mapping[str, Iterable[tuple[str, str | None]]],
                 lineage: Lineage) -> None:
        self.table = table
        self.lineage = lineage
        self.numbers = {v: set() for v in held}
        self.titles: dict[str, dict[str, str]] = {v: {} for v in held}
        for version, rows in held.items():
            for number, title in rows:
                self.numbers[version].add(number)
                if title:
                    self.titles[version].setdefault(number, title)
        self.latest = max(held) if held else None
        self.tabled = list(table.versions) if table else []
        self.versions = sorted(set(held) | set(self.tabled))
        self._titled: dict[str, dict[str, list[str]]] = {}
        self._orders: dict[str | None, tuple[list[str], list[str], list[str]]] = {}

    # -- one version -----------------------------------------------------------------------

    def in_table(self, version: str) -> bool:
        return self.table is not None and version in self.table.position

    def source(self, version: str) -> str:
        """What a version's numbers are read from: the held texts or the numbering table."""
        return "numbering table" if self.in_table(version) else "held texts"

    def holds(self, version: str, number: str) -> bool:
        if version in self.numbers:
            return number in self.numbers[version]
        return self.in_table(version) and self.table.holds(version, number)  # type: ignore[union-attr]

    def title(self, version: str, number: str) -> str | None:
        if version in self.numbers:
            return self.titles[version].get(number)
        return self.table.title(version, number) if self.in_table(version) else None  # type: ignore[union-attr]

    def titled(self, version: str, key: str) -> list[str]:
        """The numbers of ``version`` whose heading title folds to ``key``."""
        if version not in self._titled:
            index: dict[str, list[str]] = {}
            if version in self.numbers:
                pairs = list(self.titles[version].items())
            elif self.in_table(version):
                at = self.table.position[version]  # type: ignore[union-attr]
                pairs = [(r.number, r.title) for r in self.table.runs  # type: ignore[union-attr]
                         if r.title and r.first <= at <= r.last]
            else:
                pairs = []
            for number, title in pairs:
                index.setdefault(fold(title), []).append(number)
            self._titled[version] = index
        return self._titled[version].get(key, [])

    # -- across versions -------------------------------------------------------------------

    def trace(self, version: str, number: str) -> dict[str, str]:
        """The rule's number in every version it reaches, oldest first: through the table
        across the published versions, then through the held pairs beyond them."""
        if not self.in_table(version):
            return self.lineage.trace(version, number)
        found = {v: n for v, n in self.table.trace(version, number).items()  # type: ignore[union-attr]
                 if v not in self.numbers or n in self.numbers[v]}
        beyond = [v for v in self.lineage.versions if v > self.tabled[-1]]
        last = self.tabled[-1]
        if beyond and last in found and last in self.numbers:
            found.update(self.lineage.trace(last, found[last]))
        return dict(sorted(found.items()))

    def today(self, version: str, number: str) -> Today | None:
        """The rule's number in the newest version held, or None once it is gone.

        Through the table; but where ``version`` is held too and the pairs of the versions
        held reach today's rules at another number, more surely than the table's path does
        (a rule that split in two: 2020's 711.7 held both sentences that 2023's 712.11a and
        712.11b hold), the held pairs decide, and the evidence says so. A rule the table
        says is gone stays gone."""
        if self.latest is None:
            return None
        now = self.trace(version, number).get(self.latest)
        if now is None:
            return None
        changes, confidence = "", 1.0
        if self.in_table(version) and self.in_table(self.latest):
            path = self.table.follow(version, number, self.latest)  # type: ignore[union-attr]
            if path is not None:
                confidence = path.confidence
                moved = [day for how, day, _ in path.steps]
                if moved:
                    changes = f" (numbering table: changed on {', '.join(moved)})"
            held = self._held_path(version, number)
            if held is not None and held[0] != now and held[1] > confidence:
                return Today(held[0], f"{number} of {version} is {held[0]} on {self.latest} "
                                      f"(the versions held pair it so, {held[1]:g}; the "
                                      f"numbering table, {confidence:g}, says {now})", held[1])
        return Today(now, f"{number} of {version} is {now} on {self.latest}{changes}",
                     confidence)

    def _held_path(self, version: str, number: str) -> tuple[str, float] | None:
        """Today's number through the pairs of the versions held, and their least confidence."""
        if version not in self.numbers or self.latest is None:
            return None
        trace = self.lineage.trace(version, number)
        if self.latest not in trace:
            return None
        sure = [self._held_confidence[(v, n)] for v, n in trace.items()
                if v >= version and v != self.latest]
        return trace[self.latest], min(sure, default=1.0)

    @cached_property
    def _held_confidence(self) -> dict[tuple[str, str], float]:
        return {(m.old_version, m.old_number): m.confidence
                for diff in self.lineage.diffs.values() for m in diff.matches}

    def reading_order(self, written: str | None) -> tuple[list[str], list[str], list[str]]:
        """The versions a text written on ``written`` (an ISO date, or a year) is read
        against: (near: the version in force and the next one, and every version of a year
        given alone; older: earlier versions, nearest first, back ``STALE_YEARS``; others:
        every other version, nearest first). Most texts of a document share its date: each
        date is ordered once."""
        if written not in self._orders:
            self._orders[written] = self._reading_order(written)
        return self._orders[written]

    def _reading_order(self, written: str | None) -> tuple[list[str], list[str], list[str]]:
        day, year_only = _day(written)
        if day is None or not self.versions:
            return [], [], list(reversed(self.versions))
        position = max((i for i, v in enumerate(self.versions) if v <= day.isoformat()),
                       default=0)
        near = self.versions[position:position + 2]
        if year_only:
            near += [v for v in self.versions[position + 2:] if v[:4] == written]
        limit = day.replace(year=day.year - STALE_YEARS).isoformat()
        older = [v for v in reversed(self.versions[:position]) if v >= limit]
        others = sorted((v for v in self.versions if v not in near and v not in older),
                        key=lambda v: abs((date.fromisoformat(v) - day).days))
        return near, older, others


def _day(written: str | None) -> tuple[date | None, bool]:
    """A document's date and whether only its year is known ("2024": from its first day)."""
    if not written:
        return None, False
    try:
        if len(written) == 4:
            return date(int(written), 1, 1), True
        return date.fromisoformat(written[:10]), False
    except ValueError:
        return None, False


# -- titles ------------------------------------------------------------------------------------


class Titles:
    """The English titles a rule's own title may stand for: its own (an English quote), the
    same document's English text of that number (the keyword page quotes both), or the
    official French vocabulary's English term (fusion = fuse, écho = echo)."""

    def __init__(self, vocabulary: Iterable[tuple[str, str]]) -> None:
        self.english: dict[str, set[str]] = {}
        for french, english in vocabulary:
            self.english.setdefault(fold(french), set()).add(fold(english))

    def of(self, rule: Rule, english_title: str | None) -> tuple[set[str], str] | None:
        """(folded English titles, how they were found), or None when the rule has no title
        or no English for it is known."""
        if english_title:
            return {fold(english_title)}, "same document"
        if not rule.title:
            return None
        if rule.language == "en":
            return {fold(rule.title)}, "same language"
        found = self.english.get(fold(rule.title))
        if not found:
            return None
        return found, f"official vocabulary: {rule.title} = {' / '.join(sorted(found))}"


# -- deciding ---------------------------------------------------------------------------------


def read_rule(rule: Rule, written: str | None, numbering: Numbering,
              titles: tuple[set[str], str] | None,
              heading: Decision | None, heading_number: str | None) -> Decision | None:
    """The English rule ``rule`` (a rule text of a document written on ``written``) is, or
    None when nothing pairs it.

    ``heading`` is the decision for the nearest heading the same document quotes
    (``heading_number``, its own number there): a subrule goes with its heading (the FAQ's
    702.100a is 2013's 702.100a because its 702.100 is 2013's Fuse).
    """
    if heading is not None and heading_number is not None:
        number = heading.number + rule.number[len(heading_number):]
        if numbering.holds(heading.version, number):
            how = ("" if number == rule.number
                   else f" under its heading's counterpart {heading.number}")
            return Decision(heading.version, number, _join(heading.basis, "heading"),
                            heading.confidence,
                            f"{number} of the rules of {heading.version}{how}, as its heading "
                            f"{heading_number}")
    near, older, others = numbering.reading_order(written)
    if titles is None:
        for versions, confidence in ((near, DATED), (older, OLDER)):
            for version in versions:
                if numbering.holds(version, rule.number):
                    sure = OWN_VERSION if version == written else confidence
                    return Decision(version, rule.number, f"{numbering.source(version)}, date",
                                    sure, _dated(rule.number, version, written))
        return None
    for version in near + older:
        found = _titled(rule.number, version, written, numbering, titles)
        if found is not None:
            return found
    for version in others:  # the title found at its number in any version, then elsewhere
        found = _titled(rule.number, version, written, numbering, titles, elsewhere=False)
        if found is not None:
            return found
    for version in others:
        found = _titled(rule.number, version, written, numbering, titles)
        if found is not None:
            return found
    return None


def _titled(number: str, version: str, written: str | None, numbering: Numbering,
            titles: tuple[set[str], str], elsewhere: bool = True) -> Decision | None:
    """``number`` of ``version`` when its title is one of ``titles``; else, ``elsewhere``,
    the one rule of ``version`` with that title."""
    keys, how = titles
    title = numbering.title(version, number)
    if title is not None and fold(title) in keys:
        return Decision(version, number, f"{numbering.source(version)}, date, title ({how})",
                        TITLED,
                        _dated(number, version, written) + f", titled {title}")
    for key in keys if elsewhere else ():
        found = numbering.titled(version, key)
        if len(found) == 1:
            return Decision(version, found[0], f"{numbering.source(version)}, title ({how})",
                            BY_TITLE,
                            f"the same title ({numbering.title(version, found[0])}) is "
                            f"{found[0]} in the rules of {version}")
    return None


def _dated(number: str, version: str, written: str | None) -> str:
    when = f"a text of {written}" if written else "an undated text"
    return f"{number} of the rules of {version}, the first near {when} that holds it"


def _join(basis: str, more: str) -> str:
    parts = [p.strip() for p in basis.split(",")]
    return ", ".join(parts if more in parts else [*parts, more])


def read_citation(first: str, written: str | None, numbering: Numbering) -> Decision | None:
    """The English rule a citation of ``first`` in a text of ``written`` means."""
    if RuleNumber.try_parse(first) is None:
        return None
    near, older, _ = numbering.reading_order(written)
    for versions, confidence in ((near, DATED), (older, OLDER)):
        for version in versions:
            if numbering.holds(version, first):
                return Decision(version, first, f"citation, {numbering.source(version)}, date",
                                confidence, _dated(first, version, written))
    return None


# -- which wording held a text matches ----------------------------------------------------------

_CITED_NUMBER = re.compile(r"\b\d{3}(?:\.\d{1,3}[a-z]{0,2})?\b")
_FIGURE = re.compile(r"\{[^}]+\}|\d+")


@dataclass(frozen=True, slots=True)
class Wording:
    """The English rule held whose number and wording a text matches best, and why:
    ``signals`` when its number, the rules it cites, its figures and mana symbols (or, for an
    English quote, its words) fit that wording better than any other; ``date`` when they fit
    several equally and the one nearest the version the text is read against was kept."""

    version: str
    number: str
    basis: str
    score: float


def corresponding(rule: Rule, anchor: Decision, english: Mapping[str, Rule]) -> Wording | None:
    """Among the versions held where the anchored rule is (``english``: version -> its English
    rule there), the wording ``rule`` matches best. Runs of versions with the same number and
    wording are one wording; a tie goes to the run nearest the anchor's version."""
    if not english:
        return None
    editions: list[list[str]] = []
    for version in sorted(english):
        if editions and edition(english[editions[-1][-1]]) == edition(english[version]):
            editions[-1].append(version)
        else:
            editions.append([version])
    scores = [_fit(rule, english[e[0]]) for e in editions]
    distance = [min(abs((date.fromisoformat(v) - date.fromisoformat(anchor.version)).days)
                    for v in e) for e in editions]
    best = max(range(len(editions)), key=lambda i: (scores[i], -distance[i]))
    unique = sum(1 for s in scores if s == scores[best]) == 1
    chosen = min(editions[best], key=lambda v: abs((date.fromisoformat(v)
                                                    - date.fromisoformat(anchor.version)).days))
    basis = "signals" if unique and len(editions) > 1 else "date"
    return Wording(chosen, english[chosen].number, basis, scores[best])


def _fit(record: Rule, english: Rule) -> float:
    """How well a text fits an English wording, by what a translation keeps: its number, the
    rules it cites, figures and mana symbols; an English text also by its words."""
    score = _overlap(_signals(record), _signals(english))
    if record.language == english.language:
        score += similarity(frozenset(normalize(record.text).split()),
                            frozenset(normalize(english.text).split()))
    return score


def _signals(rule: Rule) -> Counter[str]:
    found = Counter([f"number {rule.number}"])
    found.update(f"cites {c.target}" for c in rule.citations)
    found.update(_FIGURE.findall(_CITED_NUMBER.sub(" ", rule.text)))
    return found


def _overlap(a: Counter[str], b: Counter[str]) -> float:
    union = sum((a | b).values())
    return sum((a & b).values()) / union if union else 1.0
