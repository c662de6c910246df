"""The words kb shows for its own identifiers (record kinds, ``kb check`` statuses, the
evidence of a term pair, languages, report severities, record fields), in the interface
language.

The identifiers stay English everywhere a program reads them (``--kind rule``, JSON, the
store); only what a person reads is translated, through this one table, so that the command
line and the site call a thing by the same name.
"""

from __future__ import annotations

from kb.i18n import N_, gettext, ngettext

LABELS = {
    # record kinds (kb.model.RECORD_KINDS)
    "rule": N_("rule"), "example": N_("example"), "glossary": N_("glossary"),
    "toc": N_("contents"), "passage": N_("passage"), "card": N_("card"), "ruling": N_("ruling"),
    "note": N_("note"), "fragment": N_("fragment"), "term": N_("term"),
    # kb check's statuses (kb.check.schema.STATUSES and SCENARIO_STATUSES)
    "verified": N_("verified"), "contradicted": N_("contradicted"), "refused": N_("refused"),
    "era-dependent": N_("era-dependent"), "not checkable": N_("not checkable"),
    "not modelled": N_("not modelled"), "answered": N_("answered"),
    # where a term pair comes from (kb.link.terms)
    "official": N_("official"), "keyword": N_("keyword"), "rule-title": N_("rule-title"),
    "section-title": N_("section-title"), "parallel-text": N_("parallel-text"),
    "card-name": N_("card-name"),
    # report severities (kb.report.finding)
    "error": N_("error"), "warning": N_("warning"), "info": N_("info"),
}
# What an English entry of a rule's history says about its version, by its ``change``
# (kb.history).
CHANGES = {
    "added": N_("added"),
    "first-held": N_("in the oldest version held"),
    "unchanged": N_("unchanged"),
    "changed": N_("changed"),
    "renumbered": N_("renumbered from {previous}"),
    "renumbered+changed": N_("renumbered from {previous}, changed"),
    "removed": N_("removed (was {previous})"),
}
# The fields of a record (kb.reader.export_row, the record page), as a reader names them.
FIELDS = {
    "number": N_("number"), "language": N_("language"), "version": N_("version"),
    "cites": N_("cites"), "parent": N_("parent rule"), "title": N_("title"),
    "untranslated": N_("left in English"), "inferred": N_("number inferred"),
    "ordinal": N_("example number"), "rule": N_("rule"), "term": N_("term"),
    "definition": N_("definition"), "card": N_("card"), "card_inferred": N_("card inferred"),
    "date": N_("date"), "name": N_("name"), "names": N_("other names"), "faces": N_("faces"),
    "card_text": N_("card text"), "type_line": N_("type line"), "mana_cost": N_("mana cost"),
    "power": N_("power"), "toughness": N_("toughness"), "loyalty": N_("loyalty"),
    "defense": N_("defense"), "keywords": N_("keywords"), "topic": N_("topic"),
    "reason": N_("reason"), "path": N_("path"), "claims": N_("claims"),
    "mechanic": N_("mechanic"), "records": N_("records"), "role": N_("role"),
    "english": N_("English"), "french": N_("French"), "count": N_("count"),
    "evidence": N_("evidence"), "written": N_("as written"), "first": N_("first"),
    "last": N_("last"), "source_name": N_("source"), "problems": N_("problems"),
}
# Languages of texts, by their code, as a reader names them.
LANGUAGE_NAMES = {"en": N_("English"), "fr": N_("French"), "pt": N_("Portuguese")}


def label(word: str) -> str:
    """``word``, an identifier of kb's, as the interface language says it (itself when it is
    not one of kb's)."""
    return gettext(LABELS[word]) if word in LABELS else word


def counted(status: str, n: int) -> str:
    """``n`` of a kb check status ("2 refused"), the word agreeing with the number where the
    language makes it agree (« 2 refusés »)."""
    forms = {
        "verified": ngettext("{n} verified", "{n} verified", n),
        "contradicted": ngettext("{n} contradicted", "{n} contradicted", n),
        "refused": ngettext("{n} refused", "{n} refused", n),
        "era-dependent": ngettext("{n} era-dependent", "{n} era-dependent", n),
        "not checkable": ngettext("{n} not checkable", "{n} not checkable", n),
        "not modelled": ngettext("{n} not modelled", "{n} not modelled", n),
        "answered": ngettext("{n} answered", "{n} answered", n),
    }
    return forms[status].format(n=n)


def change_label(change: str, previous: str | None) -> str:
    """What a history entry's ``change`` says, in words ("renumbered from 702.100")."""
    return gettext(CHANGES[change]).format(previous=previous) if change in CHANGES else change


def field_label(key: str) -> str:
    """A record's field by the name a reader gives it (the key itself when kb does not name
    it)."""
    return gettext(FIELDS[key]) if key in FIELDS else key


def language_name(code: str) -> str:
    """A text's language by name ("French"), its code when kb does not name it."""
    return gettext(LANGUAGE_NAMES[code]) if code in LANGUAGE_NAMES else code
