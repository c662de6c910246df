"""Translation lag: which English text each translated rule was made from, and whether the
English has moved on since.

A French rules text does not say which English version it translates. The build reads it
against the rules of its document's date and keeps, among the English versions held, the
number and wording the French text fits best (by its number, the rules it cites, its figures
and mana symbols, which a translation keeps): its ``corresponds`` link
(:mod:`kb.link.anchors`). The translation is stale when a later English version renumbered or
reworded the rule, or removed it.

This feeds the consistency report: :func:`translation_lag` returns plain dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.history import StoredLineage, cr_id, moved_on
from kb.model import Rule
from kb.store import Store


@dataclass(frozen=True, slots=True)
class TranslationLag:
    """One translated rule and the English it stands for.

    ``status``: ``current`` (the English number and wording it matches are today's),
    ``stale`` (a later English version renumbered or reworded the rule: ``changed_in``),
    ``removed`` (the rule is gone from the newest version held: ``removed_in``), or
    ``unanchored`` (the build found no English rule for it; the English fields are None).
    """

    record_id: str
    number: str
    language: str
    document_date: str | None  # the translation's own date ("2013-03-21", or a year)
    status: str
    english_version: str | None  # the English version whose number and wording it matches
    english_id: str | None
    english_number: str | None
    basis: str | None  # "signals" or "date": see kb.link.anchors.Wording
    changed_in: str | None
    removed_in: str | None
    current_version: str | None  # the newest English version held
    current_id: str | None  # the same rule in that version, None once removed
    current_number: str | None
    current_text: str | None

    @property
    def stale(self) -> bool:
        return self.status in ("stale", "removed")


def translation_lag(store: Store, language: str = "fr") -> list[TranslationLag]:
    """Every rule text in ``language`` from a document other than the official English rules,
    in store order, with the English version it matches and whether it is stale."""
    lineage = StoredLineage(store)
    newest = lineage.versions[-1] if lineage.versions else None
    out = []
    for record in store.query(kind="rule", language=language):
        if not isinstance(record, Rule) or record.id.startswith("cr:en:"):
            continue
        found = store.links(from_id=record.id, relation="corresponds")
        english = store.get(found[0].to_id) if found else None
        if not isinstance(english, Rule):
            out.append(TranslationLag(record.id, record.number, record.language,
                                      record.version, "unanchored", None, None, None, None,
                                      None, None, newest, None, None, None))
            continue
        trace = lineage.trace(english.version, english.number)
        texts = {v: r for v, n in trace.items() if isinstance(r := store.get(cr_id(v, n)), Rule)}
        last = lineage.versions.index(next(reversed(trace))) + 1
        gone = lineage.versions[last] if last < len(lineage.versions) else None
        changed = moved_on(texts, english.version, None)
        current = texts.get(newest) if newest is not None else None
        out.append(TranslationLag(
            record.id, record.number, record.language, record.version,
            "removed" if gone else "stale" if changed else "current",
            english.version, english.id, english.number, found[0].basis,
            changed, gone, newest,
            current.id if current else None, getattr(current, "number", None),
            getattr(current, "text", None),
        ))
    return out
