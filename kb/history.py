"""A rule's history across the versions of the Comprehensive Rules, and what changed between
two versions.

History follows a rule's identity, not its number: the build pairs every rule of each English
version with its counterpart in the next (:mod:`kb.link.identity`, stored as ``next-version``
links), so Fuse is followed from 702.100 (2013) to 702.102 and the 2013 310 "Phenomena" is
never shown as an earlier 310 "Battles". Texts of other documents (the French Dragon's Maze FAQ
quoting 702.100, a French rules page, a Portuguese translation) stand beside the English wording
they match best, which the build decided once (``corresponds`` links, :mod:`kb.link.anchors`):
this module reads links and texts, it pairs nothing.

Changes are shown word by word (:func:`word_diff`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from kb.errors import KbError, NoSuchRuleError
from kb.i18n import _
from kb.lineage import VersionDiff, compose, edition
from kb.model import Rule
from kb.reader import KnowledgeBase, language_set, trace
from kb.rulenum import RuleNumber, RuleNumberError, sort_key
from kb.store import Store
from kb.text.normal import plain

CR_FORMAT = "cr_text"


# -- the lineage of the English rules, as the build stored it ------------------------------------


def _stored_pairs(store: Store, old: str = "", new: str = "9999") -> Iterator[tuple]:
    """The ``next-version`` links from the versions ``old`` to ``new`` as (old version, old
    number, new version, new number, how, confidence): straight from SQL, unsorted, ids cut
    there (cr:en:YYYY-MM-DD:number), as a hundred versions hold some 300,000 pairs."""
    return store.conn.execute(
        "SELECT substr(from_id, 7, 10), substr(from_id, 18), substr(to_id, 7, 10),"
        " substr(to_id, 18), evidence, confidence FROM links WHERE relation='next-version'"
        " AND from_id GLOB ? AND to_id GLOB ? AND substr(from_id, 7, 10) BETWEEN ? AND ?",
        (_DATED_ID, _DATED_ID, old, new))


class StoredLineage:
    """The part of the lineage one rule's history needs, read from the store's ``next-version``
    links on demand: following one rule through a hundred versions is a few hundred indexed
    lookups, where loading the whole lineage reads every rule number and link held."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.versions: tuple[str, ...] = tuple(store.versions((CR_FORMAT,)))

    def holding(self, number: str) -> list[str]:
        """The versions whose official rules have ``number``."""
        # By the number index alone (given kind too, SQLite may scan the kind index).
        cur = self.store.conn.execute(
            "SELECT version, kind, source_id FROM records WHERE number=?", (number,))
        held = {v for v, kind, source in cur if kind == "rule" and source == cr_source(v)}
        return [v for v in self.versions if v in held]

    def trace(self, version: str, number: str) -> dict[str, str]:
        """The rule's number in every version where it has a counterpart, oldest first."""
        if version not in self.holding(number):
            return {}
        return trace(self.store, cr_id(version, number))


_DATED_ID = "cr:en:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]:*"


def _between(store: Store, old: str, new: str) -> VersionDiff:
    """:meth:`Lineage.between` from the store's ``next-version`` links of the versions from
    ``old`` to ``new`` alone, read as plain tuples: a diff across a hundred versions reads
    200,000 pairs, and making a Lineage of them (objects, sorted steps, every version's
    numbers) took three times as long as composing them."""
    versions = [v for v in store.versions((CR_FORMAT,)) if old <= v <= new]
    following = dict(zip(versions, versions[1:], strict=False))
    steps: dict[str, dict[str, tuple[str, str, float]]] = {v: {} for v in versions[:-1]}
    for from_version, from_number, to_version, to_number, how, confidence in _stored_pairs(
            store, old, new):
        if following.get(from_version) == to_version:
            steps[from_version][from_number] = (to_number, how, confidence)
    return compose(old, new, _cr_numbers(store, old), _cr_numbers(store, new),
                   [steps[v] for v in versions[:-1]])


def _cr_numbers(store: Store, version: str) -> list[str]:
    # Store.numbers() filters on version and language only; here the rules of the official
    # document alone are wanted, in reading order.
    cur = store.conn.execute("SELECT number FROM records WHERE kind='rule' AND source_id=?"
                             " ORDER BY seq", (cr_source(version),))
    return [row[0] for row in cur]


def cr_source(version: str) -> str:
    return f"cr:en:{version}"


def cr_id(version: str, number: str) -> str:
    return f"{cr_source(version)}:{number}"


# -- word-level diff ---------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:\w+|[^\w\s])|\s+$")  # a word or a sign, with the spaces before it
# A sign joining two changed words is part of one change: "[-comes-into-play-]", not
# "[-comes-]{+enters+}-[-into-]{+the+}-..." (a sign followed by a space is not a joiner).
_JOINER = re.compile(r"[^\w\s]")


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of a word diff: ``equal`` text is in both, ``delete`` only in the old text,
    ``insert`` only in the new one. A run keeps the spaces before its first word."""

    op: str
    text: str


def word_diff(old: str, new: str) -> list[Piece]:
    """The words that changed from ``old`` to ``new``. Joining the ``equal`` and ``delete``
    pieces gives ``old`` back, the ``equal`` and ``insert`` pieces ``new``.

    Words are compared without their spaces; a run of equal words spaced differently is shown
    as changed, so that both texts come back exactly. A lone sign between two changes joins
    them.
    """
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    matcher = SequenceMatcher(None, [t.strip() for t in a], [t.strip() for t in b],
                              autojunk=False)
    runs: list[tuple[str, str]] = []  # (old text, new text), equal when they are the same
    for _op, i1, i2, j1, j2 in matcher.get_opcodes():
        run = ("".join(a[i1:i2]), "".join(b[j1:j2]))
        words = run[0].lstrip()
        if (words and run[0] != run[1] and words == run[1].lstrip() and runs
                and runs[-1][0] != runs[-1][1]):
            # Equal words after a change, spaced differently only because of that change
            # (a sentence deleted at the start): the spaces go with the change.
            changed = runs.pop()
            runs.append((changed[0] + run[0][:-len(words)], changed[1] + run[1][:-len(words)]))
            run = (words, words)
        if (len(runs) >= 2 and run[0] != run[1] and runs[-2][0] != runs[-2][1]
                and runs[-1][0] == runs[-1][1] and _JOINER.fullmatch(runs[-1][0])
                and not any(side[:1].isspace() for side in run)):
            joiner, changed = runs.pop()[0], runs.pop()
            run = (changed[0] + joiner + run[0], changed[1] + joiner + run[1])
        runs.append(run)
    pieces: list[Piece] = []
    for before, after in runs:
        if before == after:
            pieces.append(Piece("equal", before))
        else:
            pieces += [Piece(op, text) for op, text in (("delete", before), ("insert", after))
                       if text]
    return pieces


# -- one rule's history ----------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryEntry:
    """One text of a rule: an English version of it, or another document's text of it.

    English entries say what changed from the previous version held (``change``: ``added``,
    ``first-held`` in the oldest version held, ``unchanged``, ``changed``, ``renumbered``,
    ``renumbered+changed``, ``removed``). Other documents' entries (``change``:
    ``translation``, or ``quote`` for an English one) follow the English version they match
    best (``corresponds_to``) and say whether that English text has moved on (``stale``).
    """

    rule: str  # the rule followed, by its number in the version asked for
    version: str  # an English version; another document's own date
    number: str | None  # None for a ``removed`` entry
    language: str
    text: str
    change: str
    title: str | None = None
    id: str | None = None
    source: dict[str, Any] | None = None
    previous: str | None = None  # the number in the previous version held
    diff: list[Piece] = field(default_factory=list)  # from the previous version's text
    # The text changed in typography only (quotes, the 2013 file's _italics_, spacing).
    typography_only: bool = False
    corresponds_to: str | None = None
    english_number: str | None = None
    basis: str | None = None
    stale: bool | None = None


def rule_history(kb: KnowledgeBase, number: str, version: str | None = None,
                 lang: str = "all", subrules: bool = True) -> list[HistoryEntry]:
    """The rule and its subrules (the rule alone without ``subrules``) through every English
    version held, with the texts of other documents (``lang``: ``fr``, ``pt``, ``en`` for
    none, ``all``) beside the English version they correspond to.

    ``number`` is read in the version in force on ``version``; without one, in the newest
    version that has it.
    """
    try:
        wanted = str(RuleNumber.parse(number))
    except RuleNumberError as exc:
        raise KbError(str(exc)) from exc
    language_set(lang, kb.languages())  # a language the index does not hold is refused
    store = kb.store
    lineage = StoredLineage(store)
    at = _version_of(kb, lineage, wanted, version)
    records = [r for r in store.query(kind="rule", source_id=cr_source(at),
                                      **{"under" if subrules else "number": wanted})
               if isinstance(r, Rule)]
    unique: dict[str, Rule] = {}
    for record in records:  # a number printed twice in one document keeps its first rule
        unique.setdefault(record.number, record)
    return [entry for record in unique.values()
            for entry in _one_rule(store, lineage, record, lang)]


def _version_of(kb: KnowledgeBase, lineage: StoredLineage, number: str,
                version: str | None) -> str:
    holding = lineage.holding(number)
    if version is not None:
        at = kb.resolve_version(version)
        if at not in holding:
            missing = _("no rule {number} in the rules of {version}").format(number=number,
                                                                           version=at)
            if holding:
                missing += _("; ") + _("it exists in: {versions}").format(
                    versions=version_ranges(holding, lineage.versions))
            raise NoSuchRuleError(missing)
        return at
    if not holding:
        if not lineage.versions:
            kb.resolve_version(None)  # raises: no rules version held
        held = lineage.versions
        raise NoSuchRuleError(_("no rule {number} in any of the {count} rules versions held "
                                "({first} .. {last})").format(number=number, count=len(held),
                                                             first=held[0], last=held[-1]))
    return holding[-1]


def version_ranges(some: list[str] | tuple[str, ...], versions: tuple[str, ...]) -> str:
    """Versions named as runs of consecutive ones held: ``2003-03-15 .. 2009-02-01 (30
    versions), 2013-05-01``, never eighty dates on a line."""
    position = {v: i for i, v in enumerate(versions)}
    runs: list[list[str]] = []
    for v in sorted(some, key=lambda d: position.get(d, -1)):
        if runs and position.get(v) == position.get(runs[-1][-1], -2) + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]} .. {r[-1]} ({len(r)} versions)"
                     for r in runs)


def _one_rule(store: Store, lineage: StoredLineage, record: Rule,
              lang: str) -> Iterator[HistoryEntry]:
    trace = lineage.trace(record.version, record.number)  # never empty: the record is held
    english = {v: r for v, n in trace.items() if isinstance(r := store.get(cr_id(v, n)), Rule)}
    following = lineage.versions.index(next(reversed(trace))) + 1
    gone = lineage.versions[following] if following < len(lineage.versions) else None
    placed = _place_other_texts(store, record.number, english, gone, lang)
    previous: Rule | None = None
    first = lineage.versions.index(next(iter(trace)))
    for version, text in english.items():
        yield HistoryEntry(
            record.number, version, text.number, "en", text.text,
            _change(previous, text, first > 0), text.title, text.id,
            _source(text), previous.number if previous else None,
            word_diff(previous.text, text.text)
            if previous and previous.text != text.text else [],
            typography_only=previous is not None and _retyped(previous.text, text.text),
        )
        yield from placed.get(version, [])
        previous = text
    if previous is not None and gone is not None:
        yield HistoryEntry(record.number, gone, None, "en", "", "removed",
                           previous=previous.number)


def _retyped(old: str, new: str) -> bool:
    """True when two texts differ in typography only."""
    return old != new and plain(old) == plain(new)


def _change(previous: Rule | None, english: Rule, older_held: bool) -> str:
    if previous is None:
        return "added" if older_held else "first-held"
    moved, changed = previous.number != english.number, previous.text != english.text
    if moved and changed:
        return "renumbered+changed"
    return "renumbered" if moved else "changed" if changed else "unchanged"


def moved_on(english: dict[str, Rule], version: str, gone: str | None) -> str | None:
    """The first version after ``version`` whose English number or wording (not typography)
    differs from ``version``'s (``english``: the rule's English text in each version held, in
    order), else ``gone``: the version that no longer has the rule, if any. A translation of
    ``version``'s English is stale from then on."""
    then = edition(english[version])
    for later, text in english.items():
        if later > version and edition(text) != then:
            return later
    return gone


def _place_other_texts(store: Store, rule: str, english: dict[str, Rule], gone: str | None,
                       lang: str) -> dict[str, list[HistoryEntry]]:
    """The other documents' texts of this rule, by the English version they correspond to
    (the build's ``corresponds`` links)."""
    placed: dict[str, list[HistoryEntry]] = defaultdict(list)
    if lang == "en":
        return placed
    today = english[max(english)].id if gone is None else None
    for version, text in english.items():
        for link in store.links(to_id=text.id, relation="corresponds"):
            other = store.get(link.from_id)
            if not isinstance(other, Rule) or lang not in ("all", other.language):
                continue
            now = store.links(from_id=other.id, relation="current")
            if now and now[0].to_id != today:
                continue  # the build found it is another rule today: it stands there
            placed[version].append(HistoryEntry(
                rule, other.version or "", other.number,
                other.language, other.text,
                "quote" if other.language == "en" else "translation", other.title, other.id,
                _source(other), corresponds_to=version, english_number=text.number,
                basis=link.basis, stale=moved_on(english, version, gone) is not None,
            ))
    return {v: sorted(es, key=lambda e: (e.language, e.version, e.id or "")) for v, es in
            placed.items()}


def _source(record: Rule) -> dict[str, Any]:
    return {"file": record.loc.file, "line": record.loc.line}


# -- two versions ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleText:
    number: str
    title: str | None
    text: str


@dataclass(frozen=True)
class RuleChange:
    """A rule of the old version and its counterpart in the new one, renumbered or reworded
    (or both); ``diff`` is empty when only the number changed."""

    old_number: str
    new_number: str
    how: str  # how the counterpart was found (see kb.link.identity)
    confidence: float
    old_text: str
    new_text: str
    diff: list[Piece]

    @property
    def renumbered(self) -> bool:
        return self.old_number != self.new_number

    @property
    def changed(self) -> bool:
        return self.old_text != self.new_text

    @property
    def typography_only(self) -> bool:
        return _retyped(self.old_text, self.new_text)


@dataclass(frozen=True)
class VersionChanges:
    """What changed from one English version to another, for the rules within ``section``
    (all when None): a rule counts when its old or its new number is within it."""

    old: str
    new: str
    section: str | None
    added: list[RuleText]
    removed: list[RuleText]
    changes: list[RuleChange]  # the renumbered and the reworded pairs, by new number
    unchanged: int  # pairs with the same number and the same text

    @property
    def renumbered(self) -> list[RuleChange]:
        return [c for c in self.changes if c.renumbered]

    @property
    def changed(self) -> list[RuleChange]:
        return [c for c in self.changes if c.changed]


def version_changes(kb: KnowledgeBase, old: str, new: str,
                    section: str | None = None) -> VersionChanges:
    """Compare the versions in force on ``old`` and on ``new`` (dates, or ``latest``): rules
    added, removed, renumbered, reworded, each rule followed through the versions between."""
    old_version, new_version = kb.resolve_version(old), kb.resolve_version(new)
    if old_version > new_version:
        raise KbError(_("{old} ({old_version}) is later than {new} ({new_version}): give the "
                        "older version first").format(old=old, old_version=old_version, new=new,
                                                      new_version=new_version))
    within = _section_filter(section)
    store = kb.store
    diff = _between(store, old_version, new_version)
    before, after = _rules(store, old_version), _rules(store, new_version)
    changes, unchanged = [], 0
    for m in diff.matches:
        if not (within(m.old_number) or within(m.new_number)):
            continue
        a, b = before[m.old_number], after[m.new_number]
        if a.number == b.number and a.text == b.text:
            unchanged += 1
            continue
        changes.append(RuleChange(a.number, b.number, m.how, m.confidence, a.text, b.text,
                                  word_diff(a.text, b.text) if a.text != b.text else []))
    changes.sort(key=lambda c: sort_key(c.new_number))
    return VersionChanges(
        old_version, new_version, section,
        [_rule_text(after[n]) for n in diff.added if within(n)],
        [_rule_text(before[n]) for n in diff.removed if within(n)],
        changes, unchanged,
    )


def _section_filter(section: str | None) -> Callable[[str], bool]:
    if section is None:
        return lambda number: True
    try:
        top = RuleNumber.parse(section)
    except RuleNumberError as exc:
        raise KbError(_("--section: {problem}").format(problem=exc)) from exc

    def within(number: str) -> bool:
        parsed = RuleNumber.try_parse(number)
        return parsed is not None and parsed.is_within(top)

    return within


def _rules(store: Store, version: str) -> dict[str, Rule]:
    found: dict[str, Rule] = {}
    for record in store.query(kind="rule", source_id=cr_source(version)):
        if isinstance(record, Rule):
            found.setdefault(record.number, record)
    return found


def _rule_text(rule: Rule) -> RuleText:
    return RuleText(rule.number, rule.title, rule.text)
