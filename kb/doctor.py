"""What ``kb doctor`` checks: everything a build relies on, at the cost of reading it all.

Readers only check sizes (cheap, every time); a build checks the checksums of the generation it
would reuse from. This goes further: checksums, SQLite's own integrity check, every record's
CRC, and opening the search index, so a damaged index is named before it is used.
"""

from __future__ import annotations

import sqlite3
import zlib
from contextlib import closing
from pathlib import Path

from kb.indexdir import STORE_FILE, IndexDir, verify


def diagnose(root: Path) -> tuple[list[str], int]:
    """(problems, files checked) of the published generation of ``root``."""
    index = IndexDir(root)
    generation = index.current()
    if generation is None:
        where = index.pointer
        return [f"{where}: no published index (missing, or a link to nowhere or to itself)"], 0
    problems = verify(generation)
    checked = sum(1 for p in generation.rglob("*") if p.is_file())
    problems += _store(generation / STORE_FILE)
    problems += _search(generation)
    return problems, checked


def _store(path: Path) -> list[str]:
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            result = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            if result != ["ok"]:
                return [f"{path}: SQLite integrity check: {'; '.join(result[:3])}"]
            bad = sum(1 for data, crc in conn.execute("SELECT data, crc FROM records")
                      if zlib.crc32(data.encode("utf-8")) != crc)
    except sqlite3.DatabaseError as exc:
        return [f"{path}: SQLite: {exc}"]
    return [f"{path}: {bad} record(s) fail their checksum"] if bad else []


def _search(generation: Path) -> list[str]:
    from whoosh import index as whoosh_index

    from kb.index.writer import SEARCH_DIR

    folder = generation / SEARCH_DIR
    try:
        ix = whoosh_index.open_dir(str(folder))
        with ix.searcher() as searcher:
            searcher.doc_count()
    except Exception as exc:  # Whoosh raises anything from struct.error to EOFError
        return [f"{folder}: the search index cannot be opened ({type(exc).__name__}: {exc})"]
    return []
