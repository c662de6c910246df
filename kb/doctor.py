"""What ``kb doctor`` checks: everything a build relies on, at the cost of reading it all.

Readers only check sizes (cheap, every time); a build checks the checksums of the generation it
would reuse from. This goes further: checksums, SQLite's own integrity check, every record's
CRC, and opening the search index, so a damaged index is named before it is used.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kb.indexdir import STORE_FILE, IndexDir, verify
from kb.store import CorruptStoreError, StaleStoreError, Store


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
    problems += _semantic(generation)
    return problems, checked


def _store(path: Path) -> list[str]:
    try:
        store = Store.open(path)
    except StaleStoreError as exc:
        return [f"{exc}"]
    try:
        result = [row[0] for row in store.conn.execute("PRAGMA integrity_check")]
        if result != ["ok"]:
            return [f"{path}: SQLite integrity check: {'; '.join(result[:3])}"]
        bad = store.damaged()
    except (sqlite3.DatabaseError, CorruptStoreError) as exc:
        return [f"{path}: SQLite: {exc}"]
    finally:
        store.close()
    return [f"{path}: {bad} record(s) fail their checksum"] if bad else []


def _search(generation: Path) -> list[str]:
    from whoosh import index as whoosh_index

    from kb.index.files import SEARCH_DIR

    folder = generation / SEARCH_DIR
    try:
        ix = whoosh_index.open_dir(str(folder))
        with ix.searcher() as searcher:
            searcher.doc_count()
    except Exception as exc:  # Whoosh raises anything from struct.error to EOFError
        return [f"{folder}: the search index cannot be opened ({type(exc).__name__}: {exc})"]
    return []


def _semantic(generation: Path) -> list[str]:
    """An index built with a sentence model: the model is there, is the build's, runs, and
    the vectors are whole (a query is embedded and ranked)."""
    from kb.index.semantic import SemanticError, Vectors

    vectors = Vectors.open(generation)
    try:
        if vectors is not None:
            vectors.nearness("doctor")
    except SemanticError as exc:
        return [str(exc)]
    return []
