"""The outline of one version of the Comprehensive Rules: every rule number in reading order
with its title, as the hyperlinked rules sites judges use show it. It gives a rule page its
chapter path ("7. Additional Rules › 702. Keyword Abilities › 702.19 Trample"), its previous
and next rules, and the site its browsable table of contents.

Computed once per version and generation (:meth:`kb.web.readers.GenerationCache.value`) from
the official English document's rules: the chapters ("7 Additional Rules") and sections
("702 Keyword Abilities") are rules of their own in the store, so no separate contents
record is needed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.model import Rule
from kb.rulenum import RuleNumber
from kb.web.readers import Reader


@dataclass(frozen=True, slots=True)
class Heading:
    """A rule as the outline knows it: its number, its title (None for an untitled rule) and
    its depth (0 a chapter, 1 a section, 2 a rule, 3 a lettered subrule)."""

    number: str
    title: str | None
    depth: int
    subrules: int = 0  # how many rules lie below it

    @property
    def label(self) -> str:
        """``702.19 Trample``; a chapter or section with the printed dot: ``7. Additional
        Rules``, ``702. Keyword Abilities``."""
        number = f"{self.number}." if self.depth < 2 else self.number
        return f"{number} {self.title}" if self.title else number


@dataclass
class Outline:
    version: str
    headings: list[Heading]
    _at: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._at = {h.number: i for i, h in enumerate(self.headings)}

    def get(self, number: str) -> Heading | None:
        at = self._at.get(number)
        return None if at is None else self.headings[at]

    def path(self, number: str) -> list[Heading]:
        """The chapter, section and rules above ``number``, chapter first."""
        parsed = RuleNumber.try_parse(number)
        if parsed is None:
            return []
        above = (self.get(str(n)) for n in reversed(parsed.ancestors()))
        return [h for h in above if h is not None]

    def neighbours(self, number: str) -> tuple[Heading | None, Heading | None]:
        """The previous and the next rule in reading order at the same level or above: 702.19
        is between 702.18 and 702.20 (not 702.18f and 702.19a, which are inside them);
        702.19a follows 702.19, and the last subrule 702.19e is followed by 702.20."""
        at = self._at.get(number)
        if at is None:
            return None, None
        depth = self.headings[at].depth
        before = next((h for h in reversed(self.headings[:at]) if h.depth <= depth), None)
        after = next((h for h in self.headings[at + 1:] if h.depth <= depth), None)
        return before, after

    def chapters(self) -> list[tuple[Heading, list[tuple[Heading, list[Heading]]]]]:
        """The table of contents: each chapter with its sections, each section with its titled
        rules (701.x keyword actions, 702.x keyword abilities ...)."""
        out: list[tuple[Heading, list[tuple[Heading, list[Heading]]]]] = []
        for h in self.headings:
            if h.depth == 0:
                out.append((h, []))
            elif h.depth == 1 and out:
                out[-1][1].append((h, []))
            elif h.depth == 2 and h.title and out and out[-1][1]:
                out[-1][1][-1][1].append(h)
        return out


def outline(reader: Reader, version: str) -> Outline:
    """The outline of the official English rules of ``version`` (a version held)."""
    def compute() -> Outline:
        headings: list[Heading] = []
        for record in reader.kb.store.query(kind="rule", source_id=f"cr:en:{version}"):
            if isinstance(record, Rule) and (not headings or
                                             record.number != headings[-1].number):
                parsed = RuleNumber.parse(record.number)
                headings.append(Heading(record.number, record.title, parsed.depth))
        return Outline(version, _count_subrules(headings))
    return reader.cache.value(("outline", version), compute)


def _count_subrules(headings: list[Heading]) -> list[Heading]:
    """The headings with the number of rules below each (in reading order, a rule's subrules
    follow it until a rule at its level or above)."""
    counted: list[Heading] = []
    open_: list[int] = []  # positions of the headings whose subrules are being counted
    for h in headings:
        while open_ and counted[open_[-1]].depth >= h.depth:
            open_.pop()
        for at in open_:
            parent = counted[at]
            counted[at] = Heading(parent.number, parent.title, parent.depth, parent.subrules + 1)
        open_.append(len(counted))
        counted.append(h)
    return counted
