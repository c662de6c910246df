"""Translation lag: which English text each translated rule was made from, and whether the
English has moved on since.

A French rules text does not say which English version it translates. The build anchors it in
the English version nearest its document's date; :func:`kb.history.correspondence` then
follows that rule through every English version held and keeps the English number and wording
the French text fits best (by its number, the rules it cites, its figures and mana symbols,
which a translation keeps). The translation is stale when a later English version renumbered
or reworded the rule, or removed it.

This feeds the consistency report: :func:`translation_lag` returns plain dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.history import correspondence, load_lineage
from kb.link.identity import Lineage
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
    basis: str | None  # "signals" or "date": see kb.history.Correspondence
    changed_in: str | None
    removed_in: str | None
    current_version: str | None  # the newest English version held
    current_id: str | None  # the same rule in that version, None once removed
    current_number: str | None
    current_text: str | None

    @property
    def stale(self) -> bool:
        return self.status in ("stale", "removed")


def translation_lag(store: Store, language: str = "fr",
                    lineage: Lineage | None = None) -> list[TranslationLag]:
    """Every rule text in ``language`` from a document other than the official English rules,
    in store order, with the English version it matches and whether it is stale."""
    lineage = lineage or load_lineage(store)
    newest = lineage.versions[-1] if lineage.versions else None
    out = []
    for record in store.query(kind="rule", language=language):
        if not isinstance(record, Rule) or record.id.startswith("cr:en:"):
            continue
        found = correspondence(store, lineage, record)
        if found is None:
            out.append(TranslationLag(record.id, record.number, record.language,
                                      record.version, "unanchored", None, None, None, None,
                                      None, None, newest, None, None, None))
            continue
        current = store.get(found.current_id) if found.current_id else None
        status = ("removed" if found.removed_in else "stale" if found.changed_in
                  else "current")
        out.append(TranslationLag(
            record.id, record.number, record.language, record.version, status,
            found.version, found.english_id, found.english_number, found.basis,
            found.changed_in, found.removed_in, newest,
            found.current_id, getattr(current, "number", None), getattr(current, "text", None),
        ))
    return out
