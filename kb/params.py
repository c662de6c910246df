"""The values that the commands' options and the web's parameters accept, checked by one piece
of code: ``kb report --lang zz`` and ``/api/report?lang=zz`` are refused alike, naming the valid
values (a usage error: exit 2 on the command line, 400 on the web), and what they accept is
normalised alike (``2013-6-1`` is no date on either; ``FR,en`` is ``("fr", "en")``).

Each parameter is a small callable object: ``check(raw)`` returns the value to use (``None``
for an absent or empty one) or raises :class:`InvalidValue`. The command line wraps them in a
click type (:func:`kb.cli._output.checked`), the JSON API and the pages call them directly,
and the API's OpenAPI description reads their ``choices``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from msgspec import Struct

from kb.errors import KbError
from kb.i18n import _

# The languages of the texts kb holds (what --lang and lang= filter on).
TEXT_LANGUAGES = ("en", "fr", "pt")


class InvalidValue(KbError):
    """A parameter value that no command accepts: a usage error (exit 2, HTTP 400)."""

    exit_code = 2

    def __init__(self, name: str, message: str) -> None:
        super().__init__(_("{name}: {reason}").format(name=name, reason=message))
        self.name = name
        self.reason = message


class Choice(Struct, frozen=True):
    """One of ``choices`` (given, or a function that returns them: the record kinds and the
    report's categories live with their modules); with ``many``, a comma-separated list of
    them, returned as a tuple without repeats."""

    name: str
    options: Sequence[str] | Callable[[], Sequence[str]]
    many: bool = False

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(self.options() if callable(self.options) else self.options)

    def __call__(self, raw: Any) -> Any:
        if not raw or (isinstance(raw, str) and not raw.strip()):
            return None
        text = ",".join(raw) if isinstance(raw, tuple | list) else str(raw)  # --lang a --lang b
        parts = text.split(",") if self.many else [text]
        values = [p.strip().lower() for p in parts if p.strip()]
        wrong = [v for v in values if v not in self.choices]
        if wrong:
            raise InvalidValue(self.name, _("{wrong} is not one of {choices}").format(
                wrong=", ".join(map(repr, wrong)), choices=", ".join(map(repr, self.choices))))
        return tuple(dict.fromkeys(values)) if self.many else values[0]


class VersionDate(Struct, frozen=True):
    """'latest', a date (YYYY-MM-DD) or, where ``allow_all``, 'all'."""

    name: str = "version"
    allow_all: bool = False

    @property
    def words(self) -> tuple[str, ...]:
        return ("latest", "all") if self.allow_all else ("latest",)

    def __call__(self, raw: Any) -> str | None:
        if raw is None or not str(raw).strip():
            return None
        text = str(raw).strip()
        if text.lower() in self.words:
            return text.lower()
        try:
            return date.fromisoformat(text).isoformat()
        except ValueError:
            raise InvalidValue(self.name, _("{raw!r} is not a date: write YYYY-MM-DD "
                                            "(2013-06-01) or {words}").format(
                raw=raw, words=_(" or ").join(repr(w) for w in self.words))) from None


class Language(Struct, frozen=True):
    """A language's code (``fr``, ``zh``: two or three letters) or ``all``. Which languages
    an index holds is the index's to say: :func:`kb.reader.language_set` refuses the others,
    naming those it holds, with this same error."""

    name: str = "lang"

    def __call__(self, raw: Any) -> str | None:
        if raw is None or not str(raw).strip():
            return None
        text = str(raw).strip().lower()
        if text != "all" and not re.fullmatch(r"[a-z]{2,3}", text):
            raise InvalidValue(self.name, _("{raw!r} is not a language code (en, fr, zh ...) "
                                            "or 'all'").format(raw=raw))
        return text


class Section(Struct, frozen=True):
    """A section or rule number in any written form (``7``, ``702``, ``CR 702.19b``),
    returned in its canonical form."""

    name: str = "section"

    def __call__(self, raw: Any) -> str | None:
        from kb.rulenum import RuleNumber

        if raw is None or not str(raw).strip():
            return None
        number = RuleNumber.try_read(str(raw))
        if number is None:
            raise InvalidValue(self.name, _("{raw!r} is not a section or rule number (valid: "
                                            "a section 1-9, a rule 100-999, a subrule such as "
                                            "702.19 or 702.19b)").format(raw=raw))
        return str(number)


class Count(Struct, frozen=True):
    """A whole number from ``low`` to ``high``."""

    name: str
    low: int
    high: int

    def __call__(self, raw: Any) -> int | None:
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            return None
        try:
            number = int(raw)
        except (TypeError, ValueError):
            raise InvalidValue(self.name, _("not a number: {raw!r}").format(raw=raw)) from None
        if not self.low <= number <= self.high:
            raise InvalidValue(self.name, _("{number} is out of range ({low}-{high})").format(
                number=number, low=self.low, high=self.high))
        return number


class Flag(Struct, frozen=True):
    """true or false (also 1/0, yes/no)."""

    name: str

    def __call__(self, raw: Any) -> bool | None:
        if raw is None or isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if not text:
            return None
        if text not in ("true", "false", "1", "0", "yes", "no"):
            raise InvalidValue(self.name, _("not true or false: {raw!r}").format(raw=raw))
        return text in ("true", "1", "yes")


def joined(values: tuple[str, ...] | None) -> str | None:
    """A checked list back as the comma-separated text the searcher's filters take."""
    return ",".join(values) if values else None


def _search_kinds() -> tuple[str, ...]:
    from kb.query import KINDS

    return KINDS


def _record_kinds() -> tuple[str, ...]:
    from kb.model import RECORD_KINDS

    return tuple(sorted(RECORD_KINDS.values()))


def _categories() -> tuple[str, ...]:
    from kb.report.finding import CATEGORIES

    return tuple(CATEGORIES)


def _statuses() -> tuple[str, ...]:
    from kb.check.schema import STATUSES

    return STATUSES


# The parameters, as kb rule, search, history, diff, report, export and check take them.
RULE_LANG = Language()  # kb rule: the texts shown (any language the index holds, or all)
HISTORY_LANG = RULE_LANG
TEXT_LANG = Choice("lang", TEXT_LANGUAGES)  # kb export: one language
LANGS = Choice("lang", TEXT_LANGUAGES, many=True)  # kb search, kb report
SEARCH_KINDS = Choice("kind", _search_kinds, many=True)
RECORD_KIND = Choice("kind", _record_kinds)
CATEGORIES = Choice("category", _categories, many=True)
CATEGORY = Choice("category", _categories)  # the report page: one category
STATUS = Choice("status", _statuses)
VERSION = VersionDate()
VERSION_OR_ALL = VersionDate(allow_all=True)
SECTION = Section()
MAX_LIMIT = 200
LIMIT = Count("limit", 1, MAX_LIMIT)
