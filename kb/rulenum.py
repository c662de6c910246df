"""Rule numbers as values: parse, validate, order, relate, and ranges of them.

A rule number is not a string and not a float: ``100.2 < 100.10``, ``702.19 < 702.19a``,
``702.10 != 702.100``. The Comprehensive Rules number things at four depths:

====================  =========  ==============================
depth                 example    how it is written
====================  =========  ==============================
section               ``7``      ``7. Additional Rules``
rule                  ``702``    ``702. Keyword Abilities``
subrule               ``702.19`` ``702.19. Trample``
lettered subrule      ``702.19b`` ``702.19b The controller ...``
====================  =========  ==============================

Documents write the same number several ways (``702.27.``, ``702.27a``, ``702.27 a``,
``702.27a.``); :func:`RuleNumber.parse` accepts them all and :class:`RuleNumber` prints the
canonical form.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from msgspec import Struct

from kb.i18n import _

_NUMBER = re.compile(
    r"""^\s*
    (?P<rule>[1-9]\d{2}|[1-9])      # a three-digit rule or a one-digit section
    (?:\.(?P<sub>\d{1,3})           # .19
       (?:\s?(?P<letter>[a-z]{1,2}))?  # b, or " b" as some scrapes write it
    )?
    \.?\s*$""",
    re.VERBOSE,
)

# What people write before a number: "CR", "rule(s)", "règle(s)", "regra", "r.", "§".
_TYPED_PREFIX = re.compile(
    r"^\s*(?:(?:cr|comprehensive\s+rules?|rules?|r[èe]gles?|regras?|r\.|§)\s*)+",
    re.IGNORECASE)

_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d)")


class RuleNumberError(ValueError):
    """A string that is not a rule number."""


def _by_sort_key(compare: Callable[[Any, Any], bool]) -> Callable[[Any, object], bool]:
    """A comparison of rule numbers by their ``sort_key``."""

    def method(self: Any, other: object) -> bool:
        if not isinstance(other, RuleNumber):
            return NotImplemented
        return compare(self.sort_key, other.sort_key)

    return method


class RuleNumber(Struct, frozen=True):
    """A section, rule, subrule or lettered subrule number."""

    section: int
    rule: int | None = None
    sub: int | None = None
    letter: str = ""

    @classmethod
    def parse(cls, written: str) -> RuleNumber:
        """Read any written form of a rule number; raise :class:`RuleNumberError` otherwise."""
        m = _NUMBER.match(written)
        if not m:
            raise RuleNumberError(_("not a rule number: {written!r}").format(written=written))
        head, sub, letter = m["rule"], m["sub"], m["letter"] or ""
        if len(head) == 1:
            if sub is not None:
                raise RuleNumberError(_("a section number has no subrules: {written!r}").format(
                    written=written))
            return cls(section=int(head))
        rule = int(head)
        return cls(
            section=rule // 100,
            rule=rule,
            sub=int(sub) if sub is not None else None,
            letter=letter,
        )

    @classmethod
    def read(cls, typed: str) -> RuleNumber:
        """A rule number as people type it: ``702.19B``, ``CR 702.19b``, ``rule 702.19b``,
        ``règle 702.19b``, ``r. 702.19b``, ``§702.19b``, the French ``702,19b``, a colon
        after it. Parsers keep the strict
        :meth:`parse`: in a document, "rule" before a number is a citation, not a number."""
        m = _TYPED_PREFIX.match(typed)
        number = (typed[m.end():] if m else typed).lower().rstrip(":;,!? ")
        return cls.parse(_DECIMAL_COMMA.sub(".", number))

    @classmethod
    def try_read(cls, typed: str) -> RuleNumber | None:
        """:meth:`read`, or None for what is not a rule number (a word, say)."""
        return cls.try_parse(typed, typed=True)

    @classmethod
    def try_parse(cls, written: str, *, typed: bool = False) -> RuleNumber | None:
        """:meth:`parse` (or :meth:`read`), or None. Kept: search reads the numbers of the
        same few hundred rules again for each of a query's hits."""
        return _try_parse(cls, written, typed)

    @property
    def depth(self) -> int:
        """0 for a section, 1 for a rule, 2 for a subrule, 3 for a lettered subrule."""
        if self.rule is None:
            return 0
        if self.sub is None:
            return 1
        return 3 if self.letter else 2

    @property
    def parent(self) -> RuleNumber | None:
        if self.letter:
            return RuleNumber(self.section, self.rule, self.sub)
        if self.sub is not None:
            return RuleNumber(self.section, self.rule)
        if self.rule is not None:
            return RuleNumber(self.section)
        return None

    def ancestors(self) -> list[RuleNumber]:
        """Parent first, section last."""
        out: list[RuleNumber] = []
        node = self.parent
        while node is not None:
            out.append(node)
            node = node.parent
        return out

    def is_within(self, other: RuleNumber) -> bool:
        """True when ``self`` is ``other`` or one of its descendants (702.19b is within 702)."""
        return self == other or other in self.ancestors()

    def is_child_of(self, other: RuleNumber) -> bool:
        return self.parent == other

    @property
    def sort_key(self) -> tuple[int, int, int, int, str]:
        return (
            self.section,
            -1 if self.rule is None else self.rule,
            -1 if self.sub is None else self.sub,
            len(self.letter),
            self.letter,
        )

    # Ordered by sort_key. Not functools.total_ordering: a Struct defines every comparison
    # (as NotImplemented), so total_ordering would find nothing to add.
    __lt__ = _by_sort_key(operator.lt)
    __le__ = _by_sort_key(operator.le)
    __gt__ = _by_sort_key(operator.gt)
    __ge__ = _by_sort_key(operator.ge)

    def __str__(self) -> str:
        if self.rule is None:
            return str(self.section)
        if self.sub is None:
            return str(self.rule)
        return f"{self.rule}.{self.sub}{self.letter}"

    def with_letter(self, letter: str) -> RuleNumber:
        return RuleNumber(self.section, self.rule, self.sub, letter)


@lru_cache(maxsize=65536)
def sort_key(number: str) -> tuple[int, int, int, int, str]:
    """Order for strings that may or may not be rule numbers (non-numbers sort last).
    Cached: a hundred rules versions sort the same few thousand numbers 200,000 times."""
    parsed = RuleNumber.try_parse(number)
    return parsed.sort_key if parsed else (99, 0, 0, 0, number)


class RuleRange(Struct, frozen=True):
    """An inclusive run of rules, ``first`` to ``last``; a single rule has first == last.

    A range includes the descendants of its bounds: ``702.45-702.47`` includes ``702.47c``.
    """

    first: RuleNumber
    last: RuleNumber

    @classmethod
    def single(cls, number: RuleNumber) -> RuleRange:
        return cls(number, number)

    @classmethod
    def parse(cls, written: str) -> RuleRange:
        """Read ``601.2a-h``, ``601.2a–601.2h``, ``702.45-702.47``, ``702.45-47`` or a single
        number."""
        parts = re.split(r"\s*[-–—]\s*|\s+through\s+", written.strip(), maxsplit=1)
        first = RuleNumber.parse(parts[0])
        if len(parts) == 1:
            return cls.single(first)
        tail = parts[1].strip().rstrip(".")
        if re.fullmatch(r"[a-z]{1,2}", tail) and first.letter:
            last = first.with_letter(tail)
        elif re.fullmatch(r"\d{1,3}", tail) and first.sub is not None and not first.letter:
            last = RuleNumber(first.section, first.rule, int(tail))
        else:
            last = RuleNumber.parse(tail)
        if last < first:
            raise RuleNumberError(_("range runs backwards: {written!r}").format(written=written))
        return cls(first, last)

    def __contains__(self, number: object) -> bool:
        if not isinstance(number, RuleNumber):
            return False
        return self.first <= number and (number <= self.last or number.is_within(self.last))

    def __str__(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


@lru_cache(maxsize=65536)
def _try_parse(cls: type[RuleNumber], written: str, typed: bool) -> RuleNumber | None:
    try:
        return cls.read(written) if typed else cls.parse(written)
    except RuleNumberError:
        return None
