"""Pair the rules of a whole-CR translation with the English rules of its date.

A translation (:mod:`kb.sources.cr_translation`: the Chinese of 2022-06-10, the Korean of
2021-11-19, a user's French CR) keeps the English numbering, so a rule is paired with the
English rule of the same number in the English version of its date, and that pairing is then
checked, never taken on the number alone:

- **the English version**: the one in force on the translation's date, or, when it does not
  fit, the next one if that pairs more rules (a translation published just before its English
  original took effect);
- **structure**: both are headings or neither is, and they have as many examples and as many
  subrules;
- **the words a translation keeps**: numbers, mana symbols and cited rules, and in a
  translation written in another script than Latin the Latin words it keeps (card names such
  as "Meteor Crater"). The English tokens found in the translation, over the English tokens and
  the translation's cited rules and symbols and Latin words (a number the translation writes in
  digits where the English spells it out costs nothing);
- a rule left in English (``untranslated``) that says word for word what the English says is
  paired as that.

A pair whose structure and kept words both disagree is not made: the rule is reported as not
paired, with the reason, as is a rule whose number the English of that date lacks
(:func:`coverage`, read by ``kb build`` and ``kb report``). Each pair is stored as a
``counterpart`` link (translation -> English rule of its date) and a ``current`` link (->
today's rule), whose evidence names the basis: "community translation of 702.19b of
2022-06-10: same number; same structure (...); kept words agree (...)".
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from kb.i18n import _
from kb.model import Example, Link, Rule
from kb.rulenum import RuleNumber
from kb.store import Store
from kb.text.language import script

FORMAT = "cr_translation"  # kb.sources.cr_translation.FORMAT: the link stage reads no parser
COUNTERPART, CURRENT = "counterpart", "current"

_TOKEN = re.compile(r"\{[^{}\s]+\}|\d{3}\.\d{1,3}[a-z]{0,2}|\d+")
_CITED = re.compile(r"\{[^{}\s]+\}|\d{3}\.\d{1,3}[a-z]{0,2}")  # what no translation rewrites
_LATIN_NAME = re.compile(r"[A-Z][A-Za-z'’-]+(?:[ -][A-Z][A-Za-z'’-]+)*")
# Kept words agree when at least this share of them is found on both sides.
AGREE = 0.5
CONFIDENCE = {  # (structure agrees, kept words agree) -> confidence; both wrong: no pair
    (True, True): 0.95, (True, None): 0.9, (True, False): 0.7, (False, True): 0.75,
    (False, None): 0.6,
}
BY_POSITION = 0.9  # a pair made by place, a typo in the number, is that much less sure
# The English of a translation's date accepts nearly all its rules; a version that accepts
# fewer is another one, where pairs are that much less sure.
OF_ITS_DATE = 0.99
NOT_ITS_DATE = 0.8


@dataclass(frozen=True, slots=True)
class RulePair:
    """A translated rule and the number of its English original in ``version``."""

    rule_id: str
    number: str
    version: str
    confidence: float
    evidence: str
    confirmed: bool = False  # the kept words agree, or the text is the English word for word


@dataclass(frozen=True, slots=True)
class Unpaired:
    rule_id: str
    number: str
    reason: str


@dataclass
class Pairing:
    """The pairing of one translation with one English version."""

    version: str
    pairs: list[RulePair] = field(default_factory=list)
    unpaired: list[Unpaired] = field(default_factory=list)
    exact: bool = True  # False: not the English of the translation's date (choose_version)


@dataclass(frozen=True)
class _Side:
    """One document's rules as the pairing compares them."""

    rules: list[Rule]  # in reading order
    examples: Counter[str]  # rule id -> how many examples
    children: Counter[str]  # rule id -> how many subrules follow it

    @classmethod
    def of(cls, records: Iterable[Rule | Example]) -> _Side:
        """Counted by record, in reading order, not by number: a number written twice is
        two rules, each with its own subrules."""
        rules: list[Rule] = []
        examples: Counter[str] = Counter()
        children: Counter[str] = Counter()
        open_rules: list[Rule] = []  # the rule read last and its ancestors
        for record in records:
            if isinstance(record, Example):
                examples[record.id.rsplit("/", 1)[0]] += 1
                continue
            rules.append(record)
            parsed = RuleNumber.try_parse(record.number)
            ancestors = {str(a) for a in parsed.ancestors()} if parsed else set()
            while open_rules and open_rules[-1].number not in ancestors:
                open_rules.pop()
            if open_rules and open_rules[-1].number == record.parent:
                children[open_rules[-1].id] += 1
            open_rules.append(record)
        return cls(rules, examples, children)


def pair_rules(translated: Sequence[Rule | Example], english: Sequence[Rule | Example],
               version: str) -> Pairing:
    """Pair each translated rule with the English rule of its number in ``version`` (the
    English records of that version), checked as the module docstring says.

    Pairs are made by English place, not number, so a number the English itself repeats
    (702.30d of 2009-09-04) pairs twice. A number the translation repeats, or that the
    English lacks, is a typo when the English rule after the last one paired is one the
    translation lacks (the Korean "120.4c" written twice, the second for 120.4d; "702.86"
    for 702.86b): that rule is its counterpart, by position, if structure or kept words
    agree."""
    ours, theirs = _Side.of(translated), _Side.of(english)
    non_latin = script("\n".join(r.text for r in ours.rules[:400])) not in (None, "LATIN")
    order = [r.number for r in theirs.rules]
    places: dict[str, list[int]] = defaultdict(list)  # number -> its places (a few repeat)
    for at, number in enumerate(order):
        places[number].append(at)
    written = {r.number for r in ours.rules}
    pairing = Pairing(version)
    claimed: set[int] = set()  # English places paired
    last = -1  # the English place of the last rule paired
    for rule in ours.rules:
        free = [at for at in places.get(rule.number, []) if at not in claimed]
        how, why = "same number", ""
        if free:
            at = free[0]
        else:
            why = (f"{rule.number} repeats an earlier rule" if rule.number in places
                   else f"the English rules of {version} have no {rule.number}")
            at = last + 1
            following = order[at] if at < len(order) else None
            if following is None or at in claimed or following in written:
                pairing.unpaired.append(Unpaired(rule.id, rule.number, why))
                continue
            how = (f"written {rule.number}, in the place of {following} (after "
                   f"{order[last] if last >= 0 else 'the start'})")
        original = theirs.rules[at]
        pair = _checked(rule, original, ours, theirs, non_latin, how)
        if pair is None:
            differs = f"English {original.number} of {version}" + (
                " in its place" if why else "") + " differs in structure and kept words"
            pairing.unpaired.append(Unpaired(rule.id, rule.number,
                                             f"{why}; {differs}" if why else differs))
            continue
        pairing.pairs.append(pair)
        claimed.add(at)
        last = at
    return pairing


def _checked(rule: Rule, original: Rule, ours: _Side, theirs: _Side, non_latin: bool,
             how: str) -> RulePair | None:
    """The pair of ``rule`` and ``original`` with its evidence, or None when the evidence
    says they are not one rule."""
    version, number = original.version, original.number
    if rule.untranslated and _same_text(rule.text, original.text):
        return RulePair(rule.id, number, version, 0.99,
                        f"{number} of {version} left in English, word for word", True)
    shape, shape_note = _structure(rule, original, ours, theirs)
    words, words_note = _kept_words(rule.text, original.text, non_latin)
    confidence = CONFIDENCE.get((shape, words))
    if confidence is None or how != "same number" and not (shape or words):
        return None
    if how != "same number":
        confidence *= BY_POSITION
    return RulePair(rule.id, number, version, round(confidence, 3),
                    f"translation of {number} of {version}: {how}; {shape_note}; {words_note}",
                    words is True)


def choose_version(translated: Sequence[Rule | Example], day: str,
                   load: Callable[[str], Sequence[Rule | Example]],
                   versions: Sequence[str]) -> Pairing | None:
    """The pairing with the English version in force on ``day``, or, when that one does not
    fit, with the next one if it pairs more rules; ``load`` gives a version's English
    records.

    A version that accepts fewer than :data:`OF_ITS_DATE` of the translation's rules is not
    the English of its date (the index lacks it): a number may mean another rule there, so
    only pairs whose kept words agree are kept, less sure, and the others are reported."""
    if not versions:
        return None
    in_force = [v for v in versions if v <= day]
    later = [v for v in versions if v > day]
    candidates = ([in_force[-1]] if in_force else []) + later[:1]
    tried: list[Pairing] = []
    for version in candidates:
        tried.append(pair_rules(translated, load(version), version))
        if _fits(tried[-1]):
            break  # the English of its date: no need to try the next one
    best = max(tried, key=lambda p: (len(p.pairs), -candidates.index(p.version)))
    if not _fits(best):
        total = len(best.pairs) + len(best.unpaired)
        _keep_confirmed(best, f"{len(best.pairs)} of {total} rules fit")
    return best


def _fits(pairing: Pairing) -> bool:
    """Whether a version accepts :data:`OF_ITS_DATE` of the translation's rules."""
    total = len(pairing.pairs) + len(pairing.unpaired)
    return not total or len(pairing.pairs) >= OF_ITS_DATE * total


def _keep_confirmed(pairing: Pairing, fit: str) -> None:
    """Keep the pairs whose kept words agree, less sure; report the others."""
    note = f"the English rules of the translation's date are not held ({pairing.version}: {fit})"
    kept = []
    for pair in pairing.pairs:
        if pair.confirmed:
            kept.append(RulePair(pair.rule_id, pair.number, pair.version,
                                 round(pair.confidence * NOT_ITS_DATE, 3),
                                 f"{pair.evidence}; {note}", True))
        else:
            pairing.unpaired.append(Unpaired(pair.rule_id, pair.number,
                                             f"{note}; nothing confirms the number"))
    pairing.pairs = kept
    pairing.exact = False


def stage_links(store: Store, english: dict[str, str],
                current: Callable[[str, str], str | None], latest: str) -> Iterator[Link]:
    """The links of every translation in ``store`` (the link stage's hook): ``english`` maps
    each English CR version to its source id, ``current(version, number)`` gives a rule's
    number in ``latest``."""
    def load(version: str) -> list[Rule | Example]:
        return _in_reading_order(store, english[version])

    for source in store.sources():
        if source.format != FORMAT or not source.version:
            continue
        translated = _in_reading_order(store, source.id)
        pairing = choose_version(translated, source.version, load, sorted(english))
        if pairing is not None:
            yield from links(pairing, current, latest)


def _in_reading_order(store: Store, source_id: str) -> list[Rule | Example]:
    """A source's rules and examples as the file has them (the store answers in number
    order, which puts a repeated number beside its first occurrence)."""
    records = [r for r in store.query(source_id=source_id) if isinstance(r, Rule | Example)]
    return sorted(records, key=lambda r: r.loc.line)


def links(pairing: Pairing, current: Callable[[str, str], str | None],
          latest: str) -> Iterator[Link]:
    """The stored links of a pairing: ``counterpart`` to the English rule of its version and
    ``current`` to today's rule, where ``current(version, number)`` knows it."""
    for pair in pairing.pairs:
        english = f"cr:en:{pair.version}:{pair.number}"
        basis = "date, structure, signals" if pair.confirmed else "date, structure"
        yield Link(pair.rule_id, english, COUNTERPART, pair.confidence, pair.evidence, basis)
        now = current(pair.version, pair.number)
        if now is not None:
            yield Link(pair.rule_id, f"cr:en:{latest}:{now}", CURRENT, pair.confidence,
                       f"{pair.evidence}; {pair.number} of {pair.version} is {now} on "
                       f"{latest}", f"{basis}, held texts")


def _structure(mine: Rule, original: Rule, ours: _Side, theirs: _Side) -> tuple[bool, str]:
    differences = []
    if (mine.title is None) != (original.title is None):
        differences.append("not a heading" if original.title is None else "a heading")
    examples = ours.examples[mine.id], theirs.examples[original.id]
    children = ours.children[mine.id], theirs.children[original.id]
    for label, (a, b) in (("examples", examples), ("subrules", children)):
        if a != b:
            differences.append(f"{a} {label} vs {b}")
    if differences:
        return False, f"structure differs ({', '.join(differences)})"
    return True, (f"same structure ({'heading, ' if original.title else ''}"
                  f"{examples[0]} examples, {children[0]} subrules)")


def _kept_words(text: str, original: str, non_latin: bool) -> tuple[bool | None, str]:
    """Whether the words a translation keeps agree (None: there are none to compare)."""
    english = set(_TOKEN.findall(original))
    found = set(_TOKEN.findall(text))
    kept = {t for t in found if _CITED.fullmatch(t)}
    if non_latin:
        folded = original.casefold()
        names = set(_LATIN_NAME.findall(text))
        english |= {n for n in names if n.casefold() in folded}
        kept |= names
    union = english | kept
    if not union:
        return None, "no numbers, symbols or names to compare"
    shared = sorted((english & (found | kept)), key=_token_order)
    share = len(shared) / len(union)
    shown = " ".join(shared[:6]) + (" ..." if len(shared) > 6 else "")
    if share >= AGREE:
        return True, f"kept words agree ({len(shared)} of {len(union)}: {shown})"
    missing = sorted(union - set(shared), key=_token_order)
    return False, (f"kept words differ ({len(shared)} of {len(union)}; not on both sides: "
                   f"{' '.join(missing[:6])})")


def _token_order(token: str) -> tuple[bool, int, str]:
    """Numbers before symbols and names, shorter first."""
    return not token[:1].isdigit(), len(token), token


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


# -- coverage: what kb build and kb report say ------------------------------------------------


@dataclass(frozen=True)
class Coverage:
    """How one translation pairs with the English rules of its version."""

    source_id: str
    file: str
    language: str
    version: str | None  # the English version paired with; None when none is held
    english: int  # English rules of that version
    paired: tuple[str, ...]  # English numbers with a translated rule
    unpaired: tuple[Unpaired, ...]  # translated rules with no English counterpart
    missing: tuple[str, ...]  # English numbers the translation does not have
    untranslated: tuple[str, ...]  # numbers of rules left in English

    @property
    def percent(self) -> float:
        return 100.0 * len(self.paired) / self.english if self.english else 0.0

    @property
    def whole(self) -> bool:
        """Every rule of both sides paired and translated."""
        return (self.version is not None and not self.unpaired and not self.missing
                and not self.untranslated)

    def summary(self) -> str:
        """One line: the rate, then the rules not paired, named with their reason."""
        if self.version is None:
            return _("community translation ({language}): no English rules held to pair it "
                     "with; add the English CR of its date").format(language=self.language)
        line = _("community translation ({language}): {paired} of {english} English rules of "
                 "{version} paired ({percent:.1f}%)").format(
            language=self.language, paired=len(self.paired), english=self.english,
            version=self.version, percent=self.percent)
        if self.unpaired:
            line += _("; not paired: {rules}").format(rules=_named(self.unpaired))
        if self.missing:
            line += _("; not translated: {rules}").format(rules=", ".join(self.missing[:20]))
            line += " ..." if len(self.missing) > 20 else ""
        if self.untranslated:
            line += _("; {count} left in English").format(count=len(self.untranslated))
        return line


def coverage(source_id: str, file: str, language: str, translated: Sequence[Rule],
             counterparts: dict[str, str], versions: Sequence[str],
             numbers: Callable[[str], list[str]]) -> Coverage:
    """The coverage of a translation from what the store holds: its rules, their
    ``counterpart`` links (rule id -> English id), the English versions held and each one's
    rule numbers (``numbers(version)``, in reading order). A rule without a pair is given the
    reason the link stage had, found again here."""
    paired_in = Counter(to.split(":")[2] for to in counterparts.values())
    if paired_in:
        version = paired_in.most_common(1)[0][0]
    elif versions:
        day = translated[0].version if translated else versions[-1]
        version = ([v for v in versions if v <= day] or list(versions))[-1]
    else:
        return Coverage(source_id, file, language, None, 0, (), (), (), ())
    english = numbers(version)
    paired = {to.split(":")[3] for to in counterparts.values() if to.split(":")[2] == version}
    held = set(english)
    unpaired = tuple(
        Unpaired(r.id, r.number, f"no {r.number} in the English of {version}"
                 if r.number not in held else f"English {r.number} of {version} differs "
                 "in structure and kept words, or the English of its date is not held")
        for r in translated if r.id not in counterparts)
    return Coverage(
        source_id, file, language, version, len(english),
        tuple(n for n in english if n in paired), unpaired,
        tuple(n for n in english if n not in paired),
        tuple(r.number for r in translated if r.untranslated))


def store_coverage(store: Store) -> list[Coverage]:
    """The coverage of every translation of a store (what ``kb build`` reports)."""
    out = []
    versions = store.versions()
    for source in store.sources():
        if source.format != FORMAT:
            continue
        rules = [r for r in store.query(kind="rule", source_id=source.id)
                 if isinstance(r, Rule)]
        counterparts = {link.from_id: link.to_id for r in rules
                        for link in store.links(from_id=r.id, relation=COUNTERPART)}
        out.append(coverage(
            source.id, source.file, source.language or "und", rules, counterparts, versions,
            lambda v: [r.number for r in _in_reading_order(store, f"cr:en:{v}")
                       if isinstance(r, Rule)]))
    return out


def _named(unpaired: Sequence[Unpaired]) -> str:
    by_reason: dict[str, list[str]] = defaultdict(list)
    for item in unpaired:
        by_reason[_("no English rule of that number") if item.reason.startswith("no ")
                  else _("structure and kept words differ")].append(item.number)
    return "; ".join(f"{', '.join(numbers[:20])}{' ...' if len(numbers) > 20 else ''} "
                     f"({reason})" for reason, numbers in by_reason.items())
