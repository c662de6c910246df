"""Translations the tests make themselves, to try the translation parser and its pairing on
files they were not tuned on: an English CR with its headings renamed, and the French table
scrape (seed 003) written out in the English file's layout.

Paths: the shared corpus (``$KB_SHARED_CORPUS``) for the two community translations, the CR
archive (``$KB_CR_ARCHIVE``) for the English files of their dates; tests skip without them.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from kb.model import Example, Rule, TocEntry
from kb.sources import cr_table
from kb.text.decode import decode
from tests.conftest import REPO, SHARED_CORPUS

ARCHIVE = Path(os.environ.get("KB_CR_ARCHIVE") or REPO.parent / "shared" / "cr-archive")
CR_OTHER = SHARED_CORPUS / "cr-other"
CHINESE = CR_OTHER / "athenacykes_magic-comp-rules-zh-cn_plain_text_20220610_Zh.txt"
KOREAN = CR_OTHER / "youbeebee_kormtgcr_MagicCompRules_KR_20211119.txt"
FIXTURES = REPO / "tests" / "fixtures" / "cr_translation"
# The English versions the translations were made from (SOURCES.md of the shared corpus).
ENGLISH_OF = {CHINESE.name: "2022-06-10", KOREAN.name: "2021-11-15"}


def shared(path: Path) -> str:
    """The decoded text of a shared-corpus file; skip without it."""
    if not path.is_file():
        pytest.skip(f"shared corpus not found at {SHARED_CORPUS}: set KB_SHARED_CORPUS")
    return decode(path.read_bytes()).text


def archived(day: str) -> str:
    """The decoded text of an archived English CR (file named by its date); skip without it."""
    path = ARCHIVE / f"{day}.txt.gz"
    if not path.is_file():
        pytest.skip(f"CR archive not found at {ARCHIVE}: set KB_CR_ARCHIVE")
    return decode(gzip.decompress(path.read_bytes())).text


# A German reader's headings; the date line is left as it is: it is what the text says.
RENAMED = {"Contents": "Inhalt", "Glossary": "Glossar", "Credits": "Mitwirkende"}


def renamed_headings(english: str) -> str:
    """An English CR file as a translation whose translator got as far as the headings: the
    title, the contents, glossary and credits headings and the example word renamed. The
    English parser no longer claims it (no "Comprehensive Rules", no "Contents")."""
    lines = english.split("\n")
    out = ["Magic: The Gathering – Umfassende Regeln"]
    for line in lines[1:]:
        stripped = line.strip()
        if stripped in RENAMED:
            line = RENAMED[stripped]
        elif stripped.startswith("Example:"):
            line = line.replace("Example:", "Beispiel:", 1)
        out.append(line)
    return "\n".join(out)


def french_layout() -> tuple[str, list]:
    """The French table scrape (seed 003) written as a CR file is laid out: a title, a date
    (the early-2024 English version it follows, see :mod:`kb.sources.cr_table`), its
    contents one entry a line, its rules and examples one paragraph a line, with the numbers
    the scrape lost as the table parser inferred them. Returns the text and the table
    parser's records it was written from."""
    seed = REPO / "corpus" / "003_45f11bb513e6f443.txt"
    records = cr_table.parse(decode(seed.read_bytes()).text, seed.name).records
    lines = ["Magic : l’Assemblée – Règles complètes", "",
             "Ces règles entrent en vigueur le 6 février 2024.", "", "Table des matières", ""]
    lines += [f"{t.number}. {t.title}" for t in records if isinstance(t, TocEntry)]
    lines += ["", "Glossaire", "", "Crédits", ""]
    for record in records:
        if isinstance(record, Rule):
            number = f"{record.number}." if record.number.count(".") == 0 or \
                record.number[-1].isdigit() else record.number
            lines += ["", f"{number} {_paragraphs(record.text)}"]
        elif isinstance(record, Example):
            lines.append(_paragraphs(record.text))
    lines += ["", "Glossaire", "", "Crédits", "", "Magic : l’Assemblée"]
    return "\n".join(lines), list(records)


def _paragraphs(text: str) -> str:
    """A record's paragraphs as the layout writes them: the next ones indented."""
    return text.replace("\n", "\n    ")
