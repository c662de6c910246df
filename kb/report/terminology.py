"""Category 4, terminology drift: wording that newer official wording replaced.

The changes are data, :file:`terminology.toml` (one ``[[term]]`` per change, with its date and
where the date comes from). A text written before a change is outdated (information); a text
written on or after it should have used the new wording (error). A document whose date is only a
year, the year of the change, counts as written before it: it may be.

What is read: the commentary and translations of the rules (rules, examples, glossary entries,
notes, rulings, passages) of every document except the official English rules (whose glossary
keeps obsolete terms on purpose, "Converted Mana Cost (Obsolete)"), and never card texts, which
print the wording of their day. Wording in quotation marks is mentioned, not used ("text that
contains the phrases “in play,” ..."), and does not count. One finding per document, change and
side of the date, listing the records that use the old wording.
"""

from __future__ import annotations

import re
import tomllib
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from importlib import resources
from pathlib import Path

from kb.errors import KbError
from kb.i18n import _, ngettext
from kb.model import Card, Fragment, Record, TocEntry
from kb.report.data import CR_FORMAT, DocDate, ReportData
from kb.report.finding import ERROR, INFO, Finding

CATEGORY = "terminology"
TERMS_FILE = "terminology.toml"
_FIELDS = ("language", "old", "new", "date", "change", "source")
_OPENING_QUOTES = "“«\"‘'"


@dataclass(frozen=True)
class Term:
    """One change of official wording."""

    language: str
    old: str
    new: str
    date: date
    change: str
    source: str
    pattern: re.Pattern[str]


def load_terms(path: Path | None = None) -> list[Term]:
    """The table of changes: ``path``, or the one shipped with kb. Raise :class:`KbError`
    naming the file and the entry for a malformed table."""
    if path is None:
        text = resources.files("kb.report").joinpath(TERMS_FILE).read_text(encoding="utf-8")
        name = f"kb/report/{TERMS_FILE}"
    else:
        text, name = path.read_text(encoding="utf-8"), str(path)
    try:
        entries = tomllib.loads(text).get("term", [])
    except tomllib.TOMLDecodeError as exc:
        raise KbError(_("{file}: {problem}").format(file=name, problem=exc)) from exc
    return [_term(name, n, entry) for n, entry in enumerate(entries, start=1)]


def _term(name: str, n: int, entry: dict[str, object]) -> Term:
    where = _("{file}: [[term]] number {n}").format(file=name, n=n)
    missing = [f for f in _FIELDS if not isinstance(entry.get(f), str)]
    if missing:
        raise KbError(_("{where}: missing or not text: {fields}").format(
            where=where, fields=", ".join(missing)))
    values = {f: str(entry[f]) for f in _FIELDS}
    try:
        day = date.fromisoformat(values["date"])
    except ValueError as exc:
        raise KbError(_("{where}: date {date!r} is not YYYY-MM-DD").format(
            where=where, date=values["date"])) from exc
    raw = entry.get("pattern") or rf"\b{re.escape(values['old'])}\b"
    try:
        pattern = re.compile(str(raw), re.IGNORECASE)
    except re.error as exc:
        raise KbError(_("{where}: pattern {pattern!r}: {problem}").format(
            where=where, pattern=raw, problem=exc)) from exc
    return Term(values["language"], values["old"], values["new"], day, values["change"],
                values["source"], pattern)


def _uses(term: Term, text: str) -> bool:
    """True when ``text`` uses the old wording, not only quotes it."""
    return any(not text[:m.start()].rstrip().endswith(tuple(_OPENING_QUOTES))
               for m in term.pattern.finditer(text))


def _readable(record: Record) -> bool:
    return not isinstance(record, Card | TocEntry | Fragment)


def check(data: ReportData, terms: list[Term] | None = None) -> Iterator[Finding]:
    terms = load_terms() if terms is None else terms
    found: dict[tuple[str, int, bool], list[tuple[Record, DocDate]]] = defaultdict(list)
    for source, record in data.all_records():
        if source.format == CR_FORMAT or not _readable(record):
            continue
        written = data.record_date(record)
        language = getattr(record, "language", None)
        text = getattr(record, "text", "")
        for n, term in enumerate(terms):
            if written is None or term.language != language or not _uses(term, text):
                continue
            after = written.day >= term.date and not (
                written.year_only and written.day.year == term.date.year)
            found[(source.id, n, after)].append((record, written))
    for (source_id, n, after), hits in found.items():
        yield _finding(data, source_id, terms[n], after, hits)


def _finding(data: ReportData, source_id: str, term: Term, after: bool,
             hits: list[tuple[Record, DocDate]]) -> Finding:
    source = data.sources[source_id]
    dates = sorted({str(d) for _, d in hits})
    written = (_("written {date}").format(date=dates[0]) if len(dates) == 1 else
               _("written {first} to {last}").format(first=dates[0], last=dates[-1]))
    numbers = sorted({r.loc.line for r, _day in hits})
    lines = ", ".join(map(str, numbers[:6])) + (" ..." if len(numbers) > 6 else "")
    said = ngettext("{file} ({written}) says “{old}” {count} time, line {lines}",
                    "{file} ({written}) says “{old}” {count} times, lines {lines}",
                    len(hits)).format(file=source.file, written=written, old=term.old,
                                      count=len(hits), lines=lines)
    status = (_("written after the change: use “{new}” ({change}, {date})") if after else
              _("outdated: written before the change to “{new}” ({change}, {date})"))
    message = _("{what}: {status}").format(
        what=said, status=status.format(new=term.new, change=term.change, date=term.date))
    return Finding(CATEGORY, "after-change" if after else "outdated", ERROR if after else INFO,
                   message, tuple(data.ref(r) for r, _day in hits), language=term.language,
                   fix=_("write “{new}” ({source})").format(new=term.new, source=term.source))
