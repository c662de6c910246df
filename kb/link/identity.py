"""The identity of a rule across versions of the Comprehensive Rules.

Rule numbers are not identities. Fuse is 702.100 in 2013 and 702.102 today, split cards moved
from 708 to 709, Echo was 502.19 in 2006, and 310 was Phenomena in 2013 but is Battles in 2023:
the same number, another rule. This module pairs every rule of one version with its
counterpart in the next, and follows those pairs through any number of versions.

Matching works from the outline inwards, and every pair says why it was made (``how``):

``same``
    the same number and the same title (a heading) or a similar text.
``title``
    a heading found at another number by its title (702.100 "Fuse" -> 702.102 "Fuse").
``heading``
    a rule that kept its place under a heading that moved (702.100a -> 702.102a), its text
    still similar.
``moved``
    a rule found at another number by its text alone (708.4 -> 709.2).
``retitled``
    a heading whose title changed but whose subrules went with it (2006 "1. The Game" ->
    2013 "1. Game Concepts").
``split``
    a rule found at its expected place split into subrules: its text is compared with the new
    rule's and its subrules' together (2009-05-01 418.5a, the whole layer list in one rule ->
    2009-07-11 612.1 and 612.1a-g).

1. Headings (rules with a title) are matched by title, section before rule before subrule; a
   title that is not unique ("General") needs its parent's counterpart or its own number.
   A title left unique on both sides may then change depth (2006 212.2 "Artifacts" -> 2013
   301 "Artifacts"). Never by number alone: 310 "Phenomena" and 310 "Battles" stay apart.
2. Every other rule is compared with the rule at its expected place (its number, with the
   prefix of its nearest heading replaced by that heading's counterpart; when that heading
   moved up a level, its lettered subrules become numbered ones: 418.5a under 418.5
   "Interaction of Continuous Effects" is expected at 612.1 under 612), with the other rules
   under that counterpart, and with the few rules anywhere that share its rarest words. The
   further from the expected place, the more similar the texts must be; at the expected place
   a text that only grew (nearly all its words kept) also counts. Pairs are then taken best
   first, one counterpart per rule.
3. A heading left over is paired with the heading that received most of its subrules
   (``retitled``), and step 2 runs again for the rules under it.

Texts are compared as sets of words (Jaccard) after normalizing what changed in wording
without changing meaning: typographic quotes, "converted mana cost" / "mana value",
"his or her" / "their", "in play" / "on the battlefield", and rule numbers inside the text.
The module is pure: records in, pairs out.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from kb.lineage import Counterpart, Lineage, VersionDiff
from kb.model import Rule
from kb.rulenum import RuleNumber, sort_key
from kb.text.normal import plain

# Minimum word-set similarity of a pair, by how far the new rule is from the expected place.
AT_PLACE = 0.4  # the expected number
CONTAINED = 0.85  # ... or this share of the shorter text's words is in the longer one
_MIN_CONTAINED = 5  # words the shorter text needs for containment to count
UNDER_HEADING = 0.5  # elsewhere under the counterpart of the nearest heading
ANYWHERE = 0.75  # anywhere else
# Preference for nearer places when two candidates are about as similar.
_BONUS = {"place": 0.1, "split": 0.1, "under": 0.05, "anywhere": 0.0}
_RARE_WORDS = 4  # words of a rule looked up in the index of the new version
_ANYWHERE_CANDIDATES = 8
_MIN_VOTES = 2  # subrules that must agree before a retitled heading is paired


# -- normalization ---------------------------------------------------------------------------

_REWORDED = {
    "converted mana cost": "mana value",
    "converted mana costs": "mana value",
    "his or her": "their",
    "he or she": "they",
    "him or her": "them",
    "himself or herself": "themselves",
    "comes into play": "enters the battlefield",
    "come into play": "enter the battlefield",
    "in play": "on the battlefield",
    "removed from the game": "exiled",
}
_OLD_WORDING = re.compile(
    r"\b(?:" + "|".join(sorted(map(re.escape, _REWORDED), key=len, reverse=True)) + r")\b"
)
_RULE_NUMBER = re.compile(r"\b\d{3}(?:\.\d{1,3}[a-z]{0,2})?\b")  # numbers move with rules
_WORD = re.compile(r"[a-z0-9#']+")


@lru_cache(maxsize=1 << 15)
def normalize(text: str) -> str:
    """The text as compared: lower case, plain quotes, current wording, numbers blanked.
    Cached: a hundred rules versions hold 530,000 rule texts, 12,000 of them distinct."""
    text = _RULE_NUMBER.sub("#", plain(text).lower())
    text = _OLD_WORDING.sub(lambda m: _REWORDED[m[0]], text)
    return " ".join(_WORD.findall(text))


def similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard similarity of two word sets (1.0 for two empty sets)."""
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def contained(a: frozenset[str], b: frozenset[str]) -> bool:
    """True when the shorter text's words are nearly all in the longer one (a rule that only
    grew a sentence, "There is no maximum deck size." -> "... for non-Commander decks.")."""
    shorter = min(len(a), len(b))
    return shorter >= _MIN_CONTAINED and len(a & b) >= CONTAINED * shorter


# -- one version, indexed ----------------------------------------------------------------------


@dataclass
class _Version:
    """The rules of one version by number, with what matching needs precomputed."""

    name: str
    rules: dict[str, Rule]
    words: dict[str, frozenset[str]]
    heading_of: dict[str, str | None]  # number -> nearest heading ancestor (itself excluded)
    under: dict[str, list[str]]  # heading number -> the rules whose nearest heading it is

    @classmethod
    def of(cls, rules: Sequence[Rule]) -> _Version:
        by_number: dict[str, Rule] = {}
        for rule in rules:
            by_number.setdefault(rule.number, rule)  # a duplicated number keeps its first
        name = rules[0].version if rules else ""
        words = {n: frozenset(normalize(r.text).split()) for n, r in by_number.items()}
        heading_of: dict[str, str | None] = {}
        under: dict[str, list[str]] = defaultdict(list)
        for number in by_number:
            heading = heading_of[number] = _nearest_heading(number, by_number)
            if heading is not None:
                under[heading].append(number)
        return cls(name, by_number, words, heading_of, dict(under))

    def is_heading(self, number: str) -> bool:
        return self.rules[number].title is not None


IndexedVersion = _Version


def _nearest_heading(number: str, rules: Mapping[str, Rule]) -> str | None:
    parsed = RuleNumber.try_parse(number)
    for ancestor in parsed.ancestors() if parsed else []:
        rule = rules.get(str(ancestor))
        if rule is not None and rule.title is not None:
            return str(ancestor)
    return None


def _title_key(rule: Rule) -> str:
    return normalize(rule.title or "")


def _depth(number: str) -> int:
    parsed = RuleNumber.try_parse(number)
    return parsed.depth if parsed else -1


# -- matching two versions -------------------------------------------------------------------


@dataclass
class _Matcher:
    old: _Version
    new: _Version
    pairs: dict[str, tuple[str, str, float]] = field(default_factory=dict)  # old -> new,how,c
    taken: set[str] = field(default_factory=set)  # new numbers already paired
    index: dict[str, list[str]] = field(default_factory=dict)  # word -> new numbers
    children: dict[str, list[str]] = field(default_factory=dict)  # new number -> subrules

    def run(self) -> VersionDiff:
        self.match_headings()
        for _ in range(2):
            self.match_texts()
            if not self.match_retitled():
                break
        return self.diff()

    def pair(self, old: str, new: str, how: str, confidence: float) -> None:
        self.pairs[old] = (new, how, round(min(confidence, 1.0), 3))
        self.taken.add(new)

    def counterpart(self, old: str | None) -> str | None:
        return self.pairs[old][0] if old is not None and old in self.pairs else None

    # step 1 ------------------------------------------------------------------------------

    def match_headings(self) -> None:
        by_title: dict[tuple[int, str], list[str]] = defaultdict(list)
        for number, rule in self.new.rules.items():
            if rule.title is not None:
                by_title[(_depth(number), _title_key(rule))].append(number)
        old_headings = [n for n, r in self.old.rules.items() if r.title is not None]
        repeated = Counter((_depth(n), _title_key(self.old.rules[n])) for n in old_headings)
        for number in sorted(old_headings, key=lambda n: (_depth(n), sort_key(n))):
            key = (_depth(number), _title_key(self.old.rules[number]))
            found = self.heading_by_title(number, by_title[key], repeated[key] > 1)
            if found is not None:
                self.pair(number, found, "same" if found == number else "title", 1.0)
        self.match_titles_across_depths()

    def match_titles_across_depths(self) -> None:
        """A heading that changed depth (2006 212.2 "Artifacts" -> 2013 301 "Artifacts"), where
        its title is unique among the headings left on both sides."""
        old_left: dict[str, list[str]] = defaultdict(list)
        new_left: dict[str, list[str]] = defaultdict(list)
        for number, rule in self.old.rules.items():
            if rule.title is not None and number not in self.pairs:
                old_left[_title_key(rule)].append(number)
        for number, rule in self.new.rules.items():
            if rule.title is not None and number not in self.taken:
                new_left[_title_key(rule)].append(number)
        for title, olds in old_left.items():
            news = new_left.get(title, [])
            if len(olds) == 1 and len(news) == 1:
                self.pair(olds[0], news[0], "title", 0.9)

    def heading_by_title(self, number: str, candidates: list[str], repeated: bool) -> str | None:
        free = [c for c in candidates if c not in self.taken]
        if len(free) == 1 and len(candidates) == 1 and not repeated:
            return free[0]
        parent = self.counterpart(self.old.heading_of.get(number))
        for candidate in free:  # a repeated title: same parent, then same number
            if parent is not None and self.new.heading_of.get(candidate) == parent:
                return candidate
        return number if number in free else None

    # step 2 ------------------------------------------------------------------------------

    def match_texts(self) -> None:
        if not self.index:
            self.index = self.build_index()
        scored: list[tuple[float, float, str, str, str]] = []
        for number in self.old.rules:
            if number in self.pairs or self.old.is_heading(number):
                continue
            for new, place, score in self.candidates(number):
                scored.append((score + _BONUS[place], score, number, new, place))
        scored.sort(key=lambda s: (-s[0], sort_key(s[2]), sort_key(s[3])))
        for _, score, old, new, place in scored:
            if old in self.pairs or new in self.taken:
                continue
            how = ("split" if place == "split" else "same" if old == new
                   else "heading" if place == "place" else "moved")
            self.pair(old, new, how, score)

    def expected(self, number: str) -> tuple[str, str | None]:
        """Where the rule should be in the new version, and the heading it should be under."""
        heading = self.old.heading_of.get(number)
        target = self.counterpart(heading)
        if heading is None or target is None:
            return number, None
        rest = number[len(heading):]
        if _depth(target) == _depth(heading) - 1 and re.fullmatch(r"[a-z]", rest):
            return f"{target}.{ord(rest) - ord('a') + 1}", target  # 418.5a -> 612.1
        return target + rest, target

    def candidates(self, number: str) -> Iterable[tuple[str, str, float]]:
        words = self.old.words[number]
        place, heading = self.expected(number)
        if place not in self.taken and self.new.words.get(place) == words:
            yield place, "place", 1.0  # unchanged: no need to look further
            return
        seen: set[str] = set()
        groups = (
            ("place", [place], AT_PLACE),
            ("under", self.new.under.get(heading, []) if heading else [], UNDER_HEADING),
            ("anywhere", self.anywhere(words), ANYWHERE),
        )
        for where, numbers, threshold in groups:
            for new in numbers:
                if new in seen or new in self.taken or new not in self.new.rules:
                    continue
                seen.add(new)
                if self.new.is_heading(new):
                    continue
                other = self.new.words[new]
                score = similarity(words, other)
                if score >= threshold or (where == "place" and contained(words, other)):
                    yield new, where, score
                elif where == "place" and (split := similarity(words, self.family(new))) >= (
                        threshold):
                    yield new, "split", split

    def family(self, number: str) -> frozenset[str]:
        """The words of a new rule and of its subrules (612.1 and 612.1a-g)."""
        if not self.children:
            for other in self.new.rules:
                parsed = RuleNumber.try_parse(other)
                if parsed is not None and parsed.parent is not None:
                    self.children.setdefault(str(parsed.parent), []).append(other)
        kids = self.children.get(number)
        if not kids:
            return self.new.words[number]
        return self.new.words[number].union(*(self.new.words[kid] for kid in kids))

    def build_index(self) -> dict[str, list[str]]:
        index: dict[str, list[str]] = defaultdict(list)
        for number, words in self.new.words.items():
            if not self.new.is_heading(number):
                for word in words:
                    index[word].append(number)
        return dict(index)

    def anywhere(self, words: frozenset[str]) -> list[str]:
        """The new rules sharing most of the old rule's rarest words."""
        known = sorted((w for w in words if w in self.index), key=lambda w: len(self.index[w]))
        hits: Counter[str] = Counter()
        for word in known[:_RARE_WORDS]:
            hits.update(self.index[word])
        return [n for n, _ in hits.most_common(_ANYWHERE_CANDIDATES)]

    # step 3 ------------------------------------------------------------------------------

    def match_retitled(self) -> bool:
        """Pair leftover headings by where their subrules went; True if any was paired."""
        votes: dict[str, Counter[str]] = defaultdict(Counter)
        for old, (new, _, _) in self.pairs.items():
            old_heading, new_heading = self.old.heading_of[old], self.new.heading_of[new]
            if old_heading is None or new_heading is None:
                continue
            if old_heading not in self.pairs and new_heading not in self.taken:
                votes[old_heading][new_heading] += 1
        found = False
        for old in sorted(votes, key=lambda n: (_depth(n), sort_key(n))):
            children = len(self.old.under.get(old, []))
            new, count = votes[old].most_common(1)[0]
            if new in self.taken or count * 2 < children:
                continue
            if count < _MIN_VOTES and not (new == old and count == children):
                continue
            self.pair(old, new, "retitled", count / max(children, 1))
            found = True
        return found

    # result ------------------------------------------------------------------------------

    def diff(self) -> VersionDiff:
        matches = tuple(
            Counterpart(self.old.name, old, self.new.name, new, how, confidence)
            for old, (new, how, confidence) in sorted(
                self.pairs.items(), key=lambda item: sort_key(item[0])
            )
        )
        removed = tuple(n for n in self.old.rules if n not in self.pairs)
        added = tuple(n for n in self.new.rules if n not in self.taken)
        return VersionDiff(matches, removed, added)


def compare_versions(old: Sequence[Rule] | IndexedVersion,
                     new: Sequence[Rule] | IndexedVersion) -> VersionDiff:
    """Pair the rules of ``old`` with their counterparts in ``new``; list the rest. A version
    compared twice (with the one before it, then the one after) is indexed once by
    :func:`index_version`."""
    return _Matcher(index_version(old), index_version(new)).run()


def index_version(rules: Sequence[Rule] | IndexedVersion) -> IndexedVersion:
    """A version's rules as matching reads them (the words of each, its heading)."""
    return rules if isinstance(rules, _Version) else _Version.of(rules)


def match_versions(old: Sequence[Rule], new: Sequence[Rule]) -> list[Counterpart]:
    """Each rule of ``old`` that has a counterpart in ``new``, with that counterpart."""
    return list(compare_versions(old, new).matches)


def build_lineage(versions: Mapping[str, Sequence[Rule]]) -> Lineage:
    """Pair each version of ``{version: [rules]}`` with the next one and follow the pairs."""
    names = sorted(versions)
    indexed = {name: _Version.of(versions[name]) for name in names}
    matches = [
        m for old, new in zip(names, names[1:], strict=False)
        for m in _Matcher(indexed[old], indexed[new]).run().matches
    ]
    return Lineage.from_matches({v: [r.number for r in versions[v]] for v in names}, matches)
