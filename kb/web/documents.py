"""Documents named as a reader names them: by title, language and date ("Magic: The
Gathering Comprehensive Rules, 2026-04-17"), not by the file they were read from
(``003_45f11bb513e6f443.txt``). The file name and line stay available, for whoever wants to
open the source.

A source's title and date are what its parser read from the document itself (the CR's
heading and effective date, a FAQ's title and publication date, ...). A document that prints
no title is named by what kind of document it is, which its format says.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.i18n import _
from kb.model import Source
from kb.web.readers import Reader


@dataclass(frozen=True, slots=True)
class Document:
    file: str
    title: str | None
    format: str
    language: str | None  # the document's language ("pt" even for a paragraph left in English)
    date: str | None

    @property
    def name(self) -> str:
        """The document's own title, else what kind of document it is (in the interface's
        language), else its file name."""
        return self.title or _kind(self.format) or self.file

    @property
    def label(self) -> str:
        """``Magic: The Gathering Comprehensive Rules, 2026-04-17``."""
        return f"{self.name}, {self.date}" if self.date else self.name


def _kind(format_name: str) -> str | None:
    """What a document of this format is, for one that prints no title."""
    match format_name:
        case "cr_text":
            return _("Comprehensive Rules")
        case "cr_table":
            return _("Comprehensive Rules page")
        case "html_rules":
            return _("Rules site page")
        case "po_catalog":
            return _("Comprehensive Rules translation")
        case "keyword_page":
            return _("Keyword page")
        case "crystal_keep":
            return _("Rules page")
        case "faq_fr" | "faq_md":
            return _("Set FAQ")
        case "rulings_list":
            return _("Card rulings list")
        case "mtgjson":
            return _("Card data")
    return None


def documents(reader: Reader) -> dict[str, Document]:
    """Every source of this generation by the file name its records give."""
    def compute() -> dict[str, Document]:
        return {s.file: _document(s) for s in reader.kb.store.sources()}
    return reader.cache.value("documents", compute)


def _document(source: Source) -> Document:
    language = source.language if source.language != "mixed" else None  # not a language tag
    return Document(source.file, source.title, source.format, language, source.version)


def document(reader: Reader, file: str) -> Document:
    """The document a record's ``source`` file names (an unknown file: named by itself)."""
    return documents(reader).get(file) or Document(file, None, "unknown", None, None)
