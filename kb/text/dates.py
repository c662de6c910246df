"""Read a calendar date written in a text of any language ("June 10, 2022", "10 juin 2022",
"2022年6月10日", "2021년 11월 19일", "10 de junio de 2022").

A rules document says when it takes effect in its own language. Numeric forms are read
directly (year-month-day with the CJK and Korean markers 年月日 and 년월일, or ISO); month names
come from the Unicode CLDR data Babel ships for every locale (``babel.Locale.months``), in
both their format ("juin", the genitive "июня") and stand-alone forms, wide and abbreviated,
so no month name is typed here. Day-month-year and month-day-year orders are both read, with
one short word allowed around the month ("10 de junio de 2022"). Ambiguous all-numeric
forms ("06/10/2022") are not read: nothing in the text says which is the month.
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from babel import Locale, UnknownLocaleError

_NUMERIC = (
    re.compile(r"(?P<y>\d{4})\s*[年년]\s*(?P<m>\d{1,2})\s*[月월]\s*(?P<d>\d{1,2})\s*[日일]?"),
    re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b"),
)
_SHORT_WORD = r"(?:\s+[^\W\d_]{1,3})?"  # "de" in "10 de junio de 2022"
_ORDINAL = r"[^\W\d_]{1,2}"  # "1er mai", "June 1st"


def find_date(text: str, language: str | None = None) -> date | None:
    """The first date written in ``text``, with month names of ``language`` (and English,
    which the rules are translated from) where the date is written in words."""
    found: list[tuple[int, date]] = []
    for pattern in (*_NUMERIC, *_named_patterns(language or "en")):
        for m in pattern.finditer(text):
            day = _date(m["y"], m["m"], m["d"], _month_numbers(language or "en"))
            if day is not None:
                found.append((m.start(), day))
                break
    return min(found)[1] if found else None


def _date(year: str, month: str, day: str, months: dict[str, int]) -> date | None:
    number = int(month) if month.isdigit() else months.get(month.casefold().rstrip("."))
    try:
        return date(int(year), number, int(day)) if number else None
    except ValueError:
        return None


@lru_cache(maxsize=64)
def _month_numbers(language: str) -> dict[str, int]:
    """Month name (case folded, without a final period) -> month number, for ``language``
    and English."""
    names: dict[str, int] = {}
    for code in dict.fromkeys((language, "en")):
        try:
            locale = Locale.parse(code)
        except (UnknownLocaleError, ValueError):
            continue
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for number, name in locale.months[context][width].items():
                    names.setdefault(name.casefold().rstrip("."), number)
    return names


@lru_cache(maxsize=64)
def _named_patterns(language: str) -> tuple[re.Pattern[str], ...]:
    months = sorted(_month_numbers(language), key=len, reverse=True)
    if not months:
        return ()
    month = "(?P<m>" + "|".join(re.escape(m) for m in months) + r")\.?"
    return (
        re.compile(rf"\b(?P<d>\d{{1,2}})(?:{_ORDINAL})?\.?{_SHORT_WORD}\s+{month}"
                   rf"{_SHORT_WORD}\s+(?P<y>\d{{4}})\b", re.IGNORECASE),
        re.compile(rf"{month}\s+(?P<d>\d{{1,2}})(?:{_ORDINAL})?,?\s+(?P<y>\d{{4}})\b",
                   re.IGNORECASE),
    )
