"""A rule's history as a table a reader follows at a glance: one row per change, in date
order, said in plain words.

:func:`kb.history.rule_history` gives one entry per English version held and one per text of
another document, with the build's words for them (``first-held``, ``renumbered+changed``,
``quote`` ... ``stale``). Here the versions in which nothing changed join the row of the change
before them ("2023-04-14 to 2026-04-17"), texts of other documents are placed at their own
date, labelled with the language of their document (a paragraph a Portuguese translation left
in English is a Portuguese document's, PT), and the same text held by two documents (the
Portuguese catalogue and the Portuguese site quote the same paragraph) is one row naming both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from kb.history import HistoryEntry, Piece
from kb.i18n import _
from kb.web.documents import Document


@dataclass
class Row:
    date: str  # the English version, or the other document's date
    until: str | None  # the last version of a run in which the text did not change
    unchanged: int  # how many versions after ``date`` held the same text
    number: str | None
    language: str  # of the document: "en" for the official rules, "pt" for a Portuguese one
    text_language: str  # of the text itself ("en" for a paragraph left in English)
    what: str  # the change, in plain words
    text: str
    diff: list[Piece]
    english: bool  # a version of the official English rules (its number links to it)
    documents: list[tuple[Document, int]] = field(default_factory=list)  # (document, line)
    show_text: bool = False


def english_change(entry: HistoryEntry) -> str:
    """What happened to the English rule in this version, in plain words."""
    previous = entry.previous or ""
    match entry.change:
        case "first-held":
            return _("Oldest text held")
        case "added":
            return _("Added")
        case "removed":
            return _("Removed (last numbered %(number)s)") % {"number": previous}
        case "renumbered":
            return _("Renumbered from %(number)s") % {"number": previous}
        case "renumbered+changed":
            if entry.typography_only:
                return _("Renumbered from %(number)s; typography changed") % {
                    "number": previous}
            return _("Renumbered from %(number)s and reworded") % {"number": previous}
        case "changed":
            return _("Typography changed") if entry.typography_only else _("Reworded")
    return _("Unchanged")


def other_text(entry: HistoryEntry, document: Document) -> str:
    """What another document's text of the rule is, in plain words."""
    language = document.language or entry.language
    wording = entry.corresponds_to or "?"
    if entry.language != language:  # a paragraph the document left in the rules' English
        said = _("Left in English in this document: the English of %(date)s") % {
            "date": wording}
    elif language == "fr":
        said = _("French translation of the English of %(date)s") % {"date": wording}
    elif language == "pt":
        said = _("Portuguese translation of the English of %(date)s") % {"date": wording}
    elif language == "en":
        said = _("Quoted; the English of %(date)s") % {"date": wording}
    else:
        said = _("Translation of the English of %(date)s") % {"date": wording}
    if entry.stale:
        return said + "; " + _("the English has changed since")
    return said + "; " + _("the English has not changed since")


def rows(entries: Iterable[HistoryEntry],
         document: Callable[[str], Document]) -> list[Row]:
    """The table of one rule's ``entries`` (one rule's, as :func:`kb.history.rule_history`
    lists them), ``document`` naming a source file."""
    entries = list(entries)
    english_text = {e.version: _words(e.text) for e in entries if e.language == "en"
                    and e.change not in ("translation", "quote", "removed")}
    english: list[Row] = []
    others: dict[tuple, Row] = {}
    for e in entries:
        source = e.source or {}
        doc = document(source["file"]) if source.get("file") else None
        if e.change in ("translation", "quote") and doc is not None:
            key = (e.language, _words(e.text), e.corresponds_to, e.stale)
            row = others.get(key)
            if row is None:
                # a paragraph left in English is shown only where it is not the English above
                same = key[1] == english_text.get(e.corresponds_to or "")
                others[key] = Row(e.version, None, 0, e.number, doc.language or e.language,
                                  e.language, other_text(e, doc), e.text, [], False,
                                  [(doc, source.get("line", 0))], show_text=not same)
            elif doc not in [d for d, _ in row.documents]:
                row.documents.append((doc, source.get("line", 0)))
                row.date = min(row.date, e.version)
            continue
        if e.change == "unchanged" and english:
            english[-1].until = e.version
            english[-1].unchanged += 1
            continue
        english.append(Row(
            e.version, None, 0, e.number, "en", "en", english_change(e), e.text, e.diff, True,
            [(doc, source.get("line", 0))] if doc else [],
            show_text=e.change in ("added", "first-held")))
    # Date order; on one date the official rules before the documents that follow them.
    return sorted([*english, *others.values()], key=lambda r: (r.date, not r.english))


def _words(text: str) -> str:
    return " ".join(text.split())
