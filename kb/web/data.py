"""What the pages and the JSON API show, gathered from the domain modules (``kb.api``,
``kb.search``, ``kb.history``, ``kb.check``, ``kb.report``) for one request.

Nothing here re-implements a lookup: a rule is ``KnowledgeBase.rule``, a card
``KnowledgeBase.card``, a history ``rule_history``, a search ``Searcher.search``. This module
only puts together what one page needs from several of them (a rule's examples with their
``kb check`` status, say) and computes per-generation indexes for the site's own needs: card
addresses (``/card/aetherling``) and the search-as-you-type suggestions.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar
from urllib.parse import quote

from kb import api, i18n
from kb.check import CheckReport, run_check
from kb.errors import KbError
from kb.history import HistoryEntry, VersionChanges, version_changes
from kb.history import rule_history as history_of
from kb.i18n import _
from kb.labels import label
from kb.model import TERM_EVIDENCE, Card, Example, GlossaryEntry, Rule, Ruling, TermPair
from kb.rulenum import RuleNumber
from kb.text.normal import fold
from kb.web.contents import Heading, outline
from kb.web.documents import document
from kb.web.errors import NotFound
from kb.web.french_names import FrenchName, french_names
from kb.web.readers import Reader

T = TypeVar("T")
SUGGESTIONS = 10
DID_YOU_MEAN = 80  # rapidfuzz ratio of a spelling offered for a search with no result
# A rule page shows its rule's history inline when it has at most this many subrules (the
# history of a section, 702 and its thousand subrules, is a page of its own); past that, the
# titled rules within it (702.19 Trample) are shown as a contents, each a link to its page.
HISTORY_INLINE = 40


# -- addresses -------------------------------------------------------------------------------


def slug(name: str) -> str:
    """A card's address: its folded name, words joined by ``-`` (``Ætherlin`` ->
    ``aetherlin``, ``Tombé // Relevé`` -> ``tombe-releve``)."""
    return re.sub(r"[\W_]+", "-", fold(name)).strip("-")


def rule_url(number: str, version: str | None = None, latest: str | None = None) -> str:
    """``/rule/702.19b``, with ``?version=`` only for another version than the latest."""
    if version and version != latest:
        return f"/rule/{number}?version={version}"
    return f"/rule/{number}"


def record_url(kind: str, record_id: str, number: str | None, latest: str | None) -> str:
    """Where a record is shown: an English CR rule (or example) on its rule's page, a card on
    its card page, anything else on the record page."""
    parts = record_id.split(":")
    if kind in ("rule", "example") and parts[:2] == ["cr", "en"] and len(parts) >= 4:
        return rule_url(parts[3].split("/")[0], parts[2], latest)
    return f"/record/{record_id}"


# -- per-generation indexes ----------------------------------------------------------------


def card_names(reader: Reader) -> dict[str, str]:
    """Card address -> a name ``KnowledgeBase.card`` finds, for every card name held (both
    languages, every face name of a split card's printed names)."""
    def compute() -> dict[str, str]:
        names: dict[str, str] = {}
        for card in reader.kb.store.query(kind="card"):
            if isinstance(card, Card):
                for name in (card.name, *(n for _, n in card.names)):
                    names.setdefault(slug(name), name)
        return names
    return reader.cache.value("card-names", compute)


def latest(reader: Reader) -> str | None:
    versions = reader.kb.store.versions()
    return versions[-1] if versions else None


@dataclass(frozen=True, slots=True)
class Suggestion:
    label: str
    kind: str  # rule, glossary, term, card
    url: str
    detail: str = ""
    language: str = ""  # the label's language; "" for a rule number, which has none
    tag: str = ""  # the kind as the interface language says it


# The languages suggestions are made in: the site's two (a card's Italian or Japanese name is
# no answer to a French or English reader).
SUGGESTED = ("en", "fr")


def _suggestion_list(reader: Reader) -> tuple[list[str], list[Suggestion]]:
    """Every rule number of the latest version, English glossary term, official French term
    and English or French card name, sorted by folded label (for prefix lookups by
    bisection)."""
    kb = reader.kb
    newest = latest(reader)
    items: list[Suggestion] = []
    if newest:
        for record in kb.store.query(kind="rule", source_id=f"cr:en:{newest}"):
            if isinstance(record, Rule):
                items.append(Suggestion(record.number, "rule", rule_url(record.number),
                                        (record.title or record.text)[:80]))
        for record in kb.store.query(kind="glossary", source_id=f"cr:en:{newest}"):
            if isinstance(record, GlossaryEntry):
                items.append(Suggestion(record.term, "glossary", glossary_url(record.term),
                                        record.definition[:80], "en"))
    for pair in kb.store.terms():
        if pair.kind in OFFICIAL_EVIDENCE:
            items.append(Suggestion(pair.french, "term",
                                    f"/search?q={quote(pair.french, safe='')}", pair.english,
                                    "fr"))
    addresses = card_names(reader)
    cards = [c for c in kb.store.query(kind="card") if isinstance(c, Card)]
    # A card's own name before the names other printings give it ("Ætherlin", not the
    # "Aetherlin" of a set file's translations).
    for language, name in [*((c.language, c.name) for c in cards),
                           *(pair for c in cards for pair in c.names)]:
        if language in SUGGESTED and slug(name) in addresses:
            items.append(Suggestion(name, "card", f"/card/{slug(name)}", language=language))
    unique: dict[tuple[str, str, str], Suggestion] = {}
    for item in items:  # the first of the same folded label wins
        unique.setdefault((fold(item.label), item.kind, item.language), item)
    ordered = sorted(unique.items(), key=lambda kv: kv[0])
    return [key for (key, _, _), _ in ordered], [s for _, s in ordered]


def suggest(reader: Reader, text: str, limit: int = SUGGESTIONS) -> list[Suggestion]:
    """Rule numbers, glossary terms, French terms and card names starting with ``text``
    (accents and case ignored), then those holding it elsewhere: only those of the language
    the text is written in (``piét`` is French: French terms and French card names), of both
    languages when the text does not say."""
    keys, items = reader.cache.value("suggestions", lambda: _suggestion_list(reader))
    wanted = fold(text).strip()
    if not wanted:
        return []
    written = reader.searcher.query_language(text)
    languages = {"", written} if written in SUGGESTED else {"", *SUGGESTED}
    out: list[Suggestion] = []
    at = bisect.bisect_left(keys, wanted)
    while at < len(keys) and keys[at].startswith(wanted) and len(out) < limit:
        if items[at].language in languages:
            out.append(items[at])
        at += 1
    if len(out) < limit and len(wanted) >= 3:
        seen = set(out)
        word_start = re.compile(r"(?<!\w)" + re.escape(wanted))
        for key, item in zip(keys, items, strict=True):
            if item.language in languages and word_start.search(key) and item not in seen:
                out.append(item)
                if len(out) == limit:
                    break
    return [replace(item, tag=label(item.kind)) for item in out]


def did_you_mean(reader: Reader, text: str, limit: int = 6) -> list[Suggestion]:
    """For a search that found nothing: the rule numbers, glossary terms, French terms and
    card names spelled nearest the query or one of its words (a typo, a missing accent)."""
    from rapidfuzz import fuzz, process

    keys, items = reader.cache.value("suggestions", lambda: _suggestion_list(reader))
    wanted = fold(text).strip()
    words = [wanted, *(w for w in wanted.split() if len(w) >= 4 and w != wanted)]
    found: dict[str, Suggestion] = {}
    for word in words:
        for _key, _score, at in process.extract(word, keys, scorer=fuzz.ratio,
                                                 limit=limit, score_cutoff=DID_YOU_MEAN):
            found.setdefault(items[at].url, items[at])
    return [replace(item, tag=label(item.kind)) for item in list(found.values())[:limit]]


def glossary_url(term: str, order: str = "en") -> str:
    """A term's place in the English glossary, or in the French one (``order="fr"``)."""
    return f"/glossary?order={order}&letter={letter_of(term)}#g-{slug(term)}"


def letter_of(term: str) -> str:
    first = fold(term)[:1].upper()
    return first if first.isalpha() else "#"


# -- answers worth keeping -------------------------------------------------------------------


def _kept(reader: Reader, key: tuple, compute: Callable[[], T]) -> T:
    """An answer kept in the generation's LRU under the canonical values it depends on (the
    rule number as read, the version in force), so that the same question asked another way
    (``702.19B``, another date of the same version, parameters that change nothing) is not
    computed again."""
    return reader.cache.response(("answer", *key), compute)


def _rule_key(number: str) -> str:
    """A rule number as ``KnowledgeBase.rule`` reads it (``CR 702.19B`` is 702.19b); any
    other text as it was typed."""
    read = RuleNumber.try_read(number)
    return str(read) if read is not None else number


def _in_force(reader: Reader, version: str | None) -> str | None:
    return reader.kb.resolve_version(version) if version not in (None, "") else None


def rule_history(reader: Reader, number: str, version: str | None,
                 lang: str = "all") -> list[HistoryEntry]:
    """``kb history``'s entries, kept per generation under the rule and version in force."""
    key = ("history", number, _in_force(reader, version), lang)  # the number as history reads it
    return _kept(reader, key, lambda: history_of(reader.kb, number, version, lang))


def diff(reader: Reader, old: str, new: str, section: str | None) -> VersionChanges:
    """``kb diff`` between the versions in force on ``old`` and ``new``, kept per
    generation under those versions."""
    key = ("diff", _in_force(reader, old), _in_force(reader, new), section)
    return _kept(reader, key, lambda: version_changes(reader.kb, old, new, section))


# -- kb check --------------------------------------------------------------------------------


def check_report(reader: Reader) -> CheckReport:
    """``kb check`` over this generation, played once for every reader: its texts (what was
    computed, why a step was refused) in English whichever reader's request plays it, as the
    pages show them (``lang="en"``), not in the language of the first reader."""
    def played() -> CheckReport:
        with i18n.using(i18n.DEFAULT):
            return run_check(reader.kb.store)

    return reader.cache.value("check", played)


def report(reader: Reader, categories: Sequence[str] | None = None,
           languages: Sequence[str] | None = None) -> Any:
    """``kb report`` over this generation: every category run once per interface language
    (the findings are worded in it), with the cached check; each choice of categories and
    languages is answered from that one run."""
    from kb.report.run import narrow

    whole = reader.cache.value(("report", i18n.current()), lambda: api.consistency_report(
        reader.kb, check_results=check_report(reader).results))
    return whole if not categories and not languages else narrow(whole, categories, languages)


def example_status(reader: Reader) -> dict[str, Any]:
    return reader.cache.value("check-by-id",
                              lambda: {r.id: r for r in check_report(reader).results})


# -- a rule page -----------------------------------------------------------------------------


@dataclass
class RulePage:
    """What a rule page shows beside ``KnowledgeBase.rule``'s views: each text's worked
    examples with their ``kb check`` result, the rulings and notes that cite or concern the
    rule, its own history, and where it stands in the rules (chapter path, previous and next
    rule)."""

    number: str
    version: str
    latest: str | None
    views: list[api.RuleView]
    examples: dict[str, list[tuple[Example, Any]]]  # rule id -> (example, check result)
    history: list[HistoryEntry] | None  # None: too many subrules, see the history page
    versions: list[str]
    concerning: list[tuple[api.CitingRecord, Any]] = field(default_factory=list)
    path: list[Heading] = field(default_factory=list)  # the chapter, section ... above it
    previous: Heading | None = None
    next: Heading | None = None
    # Titled rules shown as a contents line, not in full (their subrules are on their page).
    folded: dict[str, Heading] = field(default_factory=dict)
    full: bool = True  # every subrule shown
    # Official French names of the terms of the English texts that have no French text.
    french_names: list[FrenchName] = field(default_factory=list)
    # The rule followed here from another version (the version picker): (version, number).
    followed: tuple[str, str] | None = None

    @property
    def shown(self) -> list[api.RuleView]:
        """The views shown in full or as a contents line (none inside a folded rule)."""
        return [v for v in self.views
                if not any(a in self.folded for a in _above(v.number, self.number))]

    @property
    def blocks(self) -> list[api.RuleView | list[Heading]]:
        """The rules shown, runs of folded rules gathered into one contents list."""
        out: list[api.RuleView | list[Heading]] = []
        for v in self.shown:
            if v.number not in self.folded:
                out.append(v)
            elif out and isinstance(out[-1], list):
                out[-1].append(self.folded[v.number])
            else:
                out.append([self.folded[v.number]])
        return out

    @property
    def without_french(self) -> int:
        """How many of the rules shown in full have no French text here."""
        return sum(1 for v in self.shown if v.number not in self.folded
                   and not any(t.language == "fr" for t in v.texts))


def _above(number: str, top: str) -> list[str]:
    """The rules above ``number`` and below ``top``."""
    parsed = RuleNumber.try_parse(number)
    ancestors = [str(a) for a in parsed.ancestors()] if parsed else []
    return ancestors[:ancestors.index(top)] if top in ancestors else ancestors


def rule_page(reader: Reader, number: str, version: str | None, full: bool = False,
              followed_from: str | None = None) -> RulePage:
    """The rule ``number`` in the version in force on ``version`` (the latest by default);
    with ``full``, every subrule of a long section in full. Kept per generation under the
    rule, the versions in force and how it is shown.

    ``followed_from`` is the version ``number`` was read in (the version picker: from
    /rule/702.19b of 2026, 2013 shows Trample, 2013's 702.18b, not 2013's 702.19b)."""
    key = ("rule", _rule_key(number), _in_force(reader, version) or latest(reader), full,
           _in_force(reader, followed_from))
    return _kept(reader, key, lambda: _rule_page(reader, number, version, full, followed_from))


def _rule_page(reader: Reader, number: str, version: str | None, full: bool,
               followed_from: str | None) -> RulePage:
    kb = reader.kb
    followed = None
    if followed_from and kb.resolve_version(followed_from) != kb.resolve_version(version):
        then = kb.number_in(number, followed_from, version)
        if then is None:
            raise NotFound(_("rule {number} of the rules of {since} has no counterpart in the "
                             "rules of {version}").format(
                number=number, since=kb.resolve_version(followed_from),
                version=kb.resolve_version(version)))
        followed = (kb.resolve_version(followed_from), str(RuleNumber.read(number)))
        number = then
    views = kb.rule(number, version, "all")
    main = views[0]
    statuses = example_status(reader)
    ids = {v.id for v in views} | {t.id for v in views for t in v.texts}
    examples: dict[str, list[tuple[Example, Any]]] = {}
    for record in kb.store.query(kind="example", under=str(RuleNumber.parse(main.number))):
        owner = record.id.rsplit("/", 1)[0]
        if isinstance(record, Example) and owner in ids:
            examples.setdefault(owner, []).append((record, statuses.get(record.id)))
    concerning = []
    for citing in main.cited_by:
        if citing.kind in ("ruling", "note", "glossary", "example"):
            concerning.append((citing, kb.store.get(citing.id)))
    history: list[HistoryEntry] | None = None
    if len(views) <= HISTORY_INLINE:
        try:
            history = history_of(kb, main.number, main.version, subrules=False)
        except KbError:
            history = []
    page = RulePage(main.number, main.version, latest(reader), views, examples, history,
                    kb.store.versions(), concerning, full=full or len(views) <= HISTORY_INLINE,
                    followed=followed)
    if main.id.startswith("cr:en:"):
        rules = outline(reader, main.version)
        page.path = rules.path(main.number)
        page.previous, page.next = rules.neighbours(main.number)
        if not page.full:
            depth = RuleNumber.parse(main.number).depth + 1
            page.folded = {v.number: h for v in views
                           if (h := rules.get(v.number)) is not None and h.depth == depth
                           and h.title and h.subrules}
    english = [text for v in page.shown if v.number not in page.folded
               and not any(t.language == "fr" for t in v.texts)
               for text in (v.title or "", v.text)]
    page.french_names = french_names(reader, english)
    return page


def card(reader: Reader, address: str) -> api.CardView:
    """A card by its address (``aetherlin``) or by any name ``KnowledgeBase.card`` takes."""
    name = card_names(reader).get(address, address)
    try:
        return reader.kb.card(name)
    except KbError as exc:
        raise NotFound(str(exc)) from exc


# -- glossary and terms ------------------------------------------------------------------


# The evidence that gives a term its official French name: the official vocabulary, card
# keyword lines, the French rules' own titles (not a word pair read off parallel texts, nor a
# card's name).
OFFICIAL_EVIDENCE = TERM_EVIDENCE[:4]


@dataclass(frozen=True, slots=True)
class GlossaryRow:
    term: str
    definition: str
    french: tuple[str, ...]
    id: str


@dataclass(frozen=True, slots=True)
class FrenchEntry:
    """An entry of the French glossary: an official French term, its English term, and the
    English glossary entry of that term where the rules have one."""

    french: str
    english: str
    kind: str
    entry: GlossaryRow | None


def glossary(reader: Reader, version: str | None) -> tuple[str, list[GlossaryRow]]:
    """The English glossary of the version in force, each term with its official French terms
    (:data:`OFFICIAL_EVIDENCE`), the official vocabulary's first."""
    resolved = reader.kb.resolve_version(version)

    def compute() -> list[GlossaryRow]:
        french: dict[str, list[str]] = {}
        for pair in reader.kb.store.terms():  # the official vocabulary first
            if pair.kind not in OFFICIAL_EVIDENCE:
                continue
            names = french.setdefault(fold(pair.english), [])
            if fold(pair.french) not in map(fold, names):
                names.append(pair.french)
        rows = [GlossaryRow(g.term, g.definition, tuple(french.get(fold(g.term), ())), g.id)
                for g in reader.kb.store.query(kind="glossary", source_id=f"cr:en:{resolved}")
                if isinstance(g, GlossaryEntry)]
        return sorted(rows, key=lambda r: fold(r.term))
    return resolved, reader.cache.value(("glossary", resolved), compute)


def french_glossary(reader: Reader, version: str | None) -> tuple[str, list[FrenchEntry]]:
    """The French glossary: the official French vocabulary (``official_terms.tsv``, then the
    keyword lines of French cards for the terms it lacks, and the French rules' titles that
    name an entry of the English glossary), in French alphabetical order, each term with its
    English term and that term's entry of the English glossary of the version in force (the
    rules have no French glossary)."""
    resolved, rows = glossary(reader, version)

    def compute() -> list[FrenchEntry]:
        by_name: dict[str, GlossaryRow] = {}
        for row in rows:  # "Control, Controller": either name finds the entry
            for name in row.term.split(", "):
                by_name.setdefault(fold(name), row)
        pairs = [p for p in reader.kb.store.terms() if p.kind in OFFICIAL_EVIDENCE]
        official = {fold(p.english) for p in pairs if p.kind == "official"}
        entries: dict[str, FrenchEntry] = {}
        for pair in pairs:  # the official vocabulary first: its spelling wins
            english = fold(pair.english)
            entry = by_name.get(english)
            if ((pair.kind != "official" and english in official)
                    or _plural_of(english, official)
                    or (pair.kind in ("rule-title", "section-title") and entry is None)):
                continue
            entries.setdefault(fold(pair.french), FrenchEntry(pair.french, pair.english,
                                                              pair.kind, entry))
        return sorted(entries.values(), key=lambda e: fold(e.french))
    return resolved, reader.cache.value(("french-glossary", resolved), compute)


def _plural_of(english: str, others: set[str]) -> bool:
    """Whether a folded English term is the plural of another ("layers", "triggered
    abilities"): the glossary lists the singular."""
    return any(english.endswith(end) and english[:-len(end)] + add in others
               for end, add in (("ies", "y"), ("es", ""), ("s", "")))


def terms(reader: Reader, text: str | None, prefix: bool) -> list[TermPair]:
    """``kb terms``: the pairs of a word (or starting with it), or every pair."""
    if not text:
        return reader.kb.store.terms()
    return reader.kb.store.terms(fold(text), prefix=prefix)


@dataclass(frozen=True, slots=True)
class TermRow:
    """One French/English pair as the terms page shows it: every kind of evidence that gives
    it, and the records they count together."""

    french: str
    english: str
    kinds: tuple[str, ...]
    count: int
    evidence: tuple[str, ...]


def term_rows(pairs: list[TermPair]) -> list[TermRow]:
    """The pairs (in the store's order: the official vocabulary first) with one row per
    French/English pair whatever its capitals and accents, spelled as its best evidence
    spells it: "cimetière / graveyard" is official, a section title and 232 parallel texts,
    on one row."""
    rows: dict[tuple[str, str], list[TermPair]] = {}
    for pair in pairs:
        rows.setdefault((fold(pair.french), fold(pair.english)), []).append(pair)
    return [TermRow(same[0].french, same[0].english, tuple(p.kind for p in same),
                    sum(p.count for p in same), tuple(e for p in same for e in p.evidence))
            for same in rows.values()]


def hit_url(hit: Any, latest_version: str | None) -> str:
    """Where a search hit (a :class:`kb.search.SearchHit`) is shown: its rule's page under
    the number it is grouped by, its card's page, or its record's page."""
    if hit.group.startswith("rule "):
        rest = hit.group.removeprefix("rule ")
        number, _, version = rest.partition(" (")
        version = version.rstrip(")") or (hit.version if hit.id.startswith("cr:en:") else None)
        return rule_url(number, version or None, latest_version)
    if hit.kind == "card" and hit.title:
        return f"/card/{slug(hit.title)}"
    return record_url(hit.kind, hit.id, hit.number, latest_version)


def hit_heading(reader: Reader, hit: Any, latest_version: str | None) -> str:
    """The heading of a search answer (a :class:`kb.search.SearchHit`, its group's first):
    a rule's number with its title, or the title of the rule it is part of ("702.19g ·
    Trample"); a ruling's card; else the record's title, else its document's name."""
    if hit.group.startswith("rule "):
        number = hit.group.removeprefix("rule ")
        if hit.title:
            return f"{number} {hit.title}"
        plain = number.partition(" (")[0]
        titled = [h for h in outline(reader, latest_version).path(plain) if h.title] \
            if latest_version else []
        return f"{number} · {titled[-1].title}" if titled else number
    if hit.title:
        return str(hit.title)
    record = reader.kb.store.get(hit.id)
    if isinstance(record, Ruling) and record.card:
        return record.card
    file = str(hit.source.get("file", "")) if hit.source else ""
    return document(reader, file).label if file else hit.id


def history(reader: Reader, number: str, version: str | None) -> list[list[HistoryEntry]]:
    """``kb history``: the entries of the rule and of each subrule, one list per rule."""
    grouped: dict[str, list[HistoryEntry]] = {}
    for entry in rule_history(reader, number, version):
        grouped.setdefault(entry.rule, []).append(entry)
    return list(grouped.values())
