"""Which parser reads a document: each format's ``sniff`` is asked in turn.

Order matters only where two formats could both claim a text; the most specific comes first.
A document no parser claims is kept whole as an unparsed fragment by the build.
"""

from __future__ import annotations

from types import ModuleType

from kb.sources import (
    cr_table,
    cr_text,
    cr_translation,
    crystal_keep,
    faq_fr,
    faq_md,
    html_rules,
    keyword_page,
    mtgjson,
    po_catalog,
    rulings_list,
)

PARSERS: tuple[ModuleType, ...] = (
    cr_text, cr_translation, cr_table, html_rules, po_catalog, mtgjson, faq_fr, faq_md,
    keyword_page, crystal_keep, rulings_list,
)


def parser_for(text: str) -> ModuleType | None:
    return next((p for p in PARSERS if p.sniff(text)), None)
