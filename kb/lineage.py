"""A rule's identity across versions of the Comprehensive Rules, as data: the pairs between
consecutive versions (:class:`Counterpart`), what two versions share and do not
(:class:`VersionDiff`), and a rule followed through every version (:class:`Lineage`).

The pairs are made once, by the build's link stage (:mod:`kb.link.identity` matches two
versions); this module only holds and follows them, so that reading a rule's history or the
changes between two versions never imports the matcher.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from kb.model import Rule
from kb.rulenum import sort_key
from kb.text.normal import plain


@dataclass(frozen=True, slots=True)
class Counterpart:
    """A rule of one version and the same rule in the next version."""

    old_version: str
    old_number: str
    new_version: str
    new_number: str
    how: str  # "same", "title", "heading", "moved", "retitled", "split" (kb.link.identity)
    confidence: float  # 0..1

    @property
    def moved(self) -> bool:
        return self.old_number != self.new_number


@dataclass(frozen=True, slots=True)
class VersionDiff:
    """The pairs between two versions, and the rules of each that have no counterpart."""

    matches: tuple[Counterpart, ...]
    removed: tuple[str, ...]  # numbers of the old version with no counterpart
    added: tuple[str, ...]  # numbers of the new version with no counterpart

    def count(self, how: str) -> int:
        return sum(1 for m in self.matches if m.how == how)



@dataclass(frozen=True)
class Lineage:
    """The pairs between consecutive versions, and every version's numbers; follows a rule
    through every version.

    Versions are ordered by name, which for ISO dates is their order in time; each version is
    paired with the next one only (:func:`kb.link.identity.build_lineage` makes the pairs).
    """

    versions: tuple[str, ...]
    diffs: Mapping[tuple[str, str], VersionDiff]
    forward: Mapping[tuple[str, str], str]  # (version, number) -> number in the next version
    backward: Mapping[tuple[str, str], str]  # (version, number) -> number in the previous
    numbers: Mapping[str, frozenset[str]]

    @classmethod
    def from_matches(cls, numbers: Mapping[str, Iterable[str]],
                     matches: Iterable[Counterpart]) -> Lineage:
        """A lineage from pairs made earlier (a store's ``next-version`` links), so that
        reading a rule's history does not redo the matching of a build.

        ``numbers`` holds every rule number of each version, in reading order; the rules of a
        version that no pair mentions are its removed or added rules.
        """
        names = tuple(sorted(numbers))
        held = {v: tuple(dict.fromkeys(numbers[v])) for v in names}
        by_step: dict[tuple[str, str], list[Counterpart]] = defaultdict(list)
        for m in matches:
            by_step[(m.old_version, m.new_version)].append(m)
        diffs: dict[tuple[str, str], VersionDiff] = {}
        forward: dict[tuple[str, str], str] = {}
        backward: dict[tuple[str, str], str] = {}
        for old, new in zip(names, names[1:], strict=False):
            step = sorted(by_step.get((old, new), []), key=lambda m: sort_key(m.old_number))
            for m in step:
                forward[(old, m.old_number)] = m.new_number
                backward[(new, m.new_number)] = m.old_number
            paired_old = {m.old_number for m in step}
            paired_new = {m.new_number for m in step}
            diffs[(old, new)] = VersionDiff(
                tuple(step),
                tuple(n for n in held[old] if n not in paired_old),
                tuple(n for n in held[new] if n not in paired_new),
            )
        return cls(names, diffs, forward, backward,
                   {v: frozenset(held[v]) for v in names})

    def trace(self, version: str, number: str) -> dict[str, str]:
        """The rule's number in every version where it has a counterpart, oldest first."""
        if number not in self.numbers.get(version, frozenset()):
            return {}
        found = {version: number}
        at = self.versions.index(version)
        current = number
        for i in range(at, 0, -1):
            if (self.versions[i], current) not in self.backward:
                break
            current = self.backward[(self.versions[i], current)]
            found[self.versions[i - 1]] = current
        current = number
        for i in range(at, len(self.versions) - 1):
            if (self.versions[i], current) not in self.forward:
                break
            current = self.forward[(self.versions[i], current)]
            found[self.versions[i + 1]] = current
        return dict(sorted(found.items()))

    def current(self, version: str, number: str, latest: str | None = None) -> str | None:
        """The rule's number in ``latest`` (the newest version by default), or None."""
        if not self.versions:
            return None
        return self.trace(version, number).get(latest or self.versions[-1])

    def between(self, old: str, new: str) -> VersionDiff:
        """The pairs from version ``old`` to the same or a later version ``new``, each rule
        followed through every version in between: a rule missing from one of them counts as
        removed and its namesake in ``new`` as added.

        A pair's ``how`` is that of its first step that was not ``same``, its confidence that
        of its least sure step.
        """
        first, last = self.versions.index(old), self.versions.index(new)
        if first > last:
            raise ValueError(f"version {old} is later than {new}")
        steps = [{m.old_number: (m.new_number, m.how, m.confidence)
                  for m in self.diffs[(a, b)].matches}
                 for a, b in zip(self.versions[first:last], self.versions[first + 1:last + 1],
                                 strict=True)]
        return compose(old, new, self.numbers[old], self.numbers[new], steps)


Step = Mapping[str, tuple[str, str, float]]  # old number -> (new number, how, confidence)


def compose(old: str, new: str, old_numbers: Iterable[str], new_numbers: Iterable[str],
            steps: Sequence[Step]) -> VersionDiff:
    """The pairs from ``old`` to ``new`` through the steps between consecutive versions
    (see :meth:`Lineage.between`), from pairs held in memory or read from a store."""
    old_held, matches = set(old_numbers), []
    for number in sorted(old_held, key=sort_key):
        current, hows, confidence = number, [], 1.0
        for step in steps:
            if current not in step:
                break
            current, how, sure = step[current]
            if how != "same":
                hows.append(how)
            confidence = min(confidence, sure)
        else:
            matches.append(Counterpart(old, number, new, current, hows[0] if hows else "same",
                                       confidence))
    paired_old = {m.old_number for m in matches}
    paired_new = {m.new_number for m in matches}
    return VersionDiff(
        tuple(matches),
        tuple(sorted(old_held - paired_old, key=sort_key)),
        tuple(sorted(set(new_numbers) - paired_new, key=sort_key)),
    )


def edition(rule: Rule) -> tuple[str, str]:
    """What a translation follows of an English rule: its number and its wording (not its
    typography). Runs of versions with the same edition are one wording."""
    return rule.number, plain(rule.text)
