"""Writing the search index of one generation, from scratch or from the previous one.

The index lives in the generation folder beside the store (``search/``), so it is published
by the same atomic swap and a failed build leaves the previous pair serving. When the previous
generation's index was made by the same code, it is copied and only the sources that changed
are deleted and re-added: documents depend on their record alone (see ``documents``).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from whoosh import index as whoosh_index

from kb.index.documents import Vocabulary, documents, schema
from kb.store import Store

SEARCH_DIR = "search"
VOCABULARY_FILE = "vocabulary.tsv"
_STAMP_FILE = "stamp"
_SOURCE_WORDS = "words"  # one vocabulary file per source, merged into VOCABULARY_FILE
_WRITER_MB = 256  # Whoosh's indexing buffer per process
# Whoosh's cost is per posting, in pure Python: two processes halve a full build on two cores.
# Its worker processes must not outlive a killed build (they would hold the build lock and
# wait forever): on Linux they ask the kernel to kill them with their parent; elsewhere the
# index is written in one process.
_PR_SET_PDEATHSIG = 1
_writing_in: int | None = None  # the pid of a process writing an index with workers


def _die_with_parent() -> None:
    if _writing_in is None:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != _writing_in:  # the parent died before the request was made
        os._exit(1)


def _worker_processes() -> int:
    if not sys.platform.startswith("linux"):
        return 1
    return min(2, os.cpu_count() or 1)


if sys.platform.startswith("linux"):
    os.register_at_fork(after_in_child=_die_with_parent)


@dataclass(frozen=True, slots=True)
class IndexReport:
    documents: int
    added_sources: int
    kept_sources: int
    reused_index: bool


def index_stamp(parser_stamp: str) -> str:
    """A fingerprint of the code that makes documents: this package and the parsers' stamp."""
    digest = hashlib.sha256(parser_stamp.encode())
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def write_index(generation: Path, store: Store, stamp: str, previous: Path | None,
                unchanged: set[str], progress: Callable[[str], None] | None = None) -> IndexReport:
    """Write ``generation/search`` for every source of ``store``.

    ``previous`` is the last generation folder; ``unchanged`` the sources whose records are the
    same as there. Their documents are kept when the previous index has the same ``stamp``.
    """
    target = generation / SEARCH_DIR
    old = previous / SEARCH_DIR if previous else None
    reuse = old is not None and _stamp(old) == stamp
    if reuse:
        shutil.copytree(old, target)  # type: ignore[arg-type]
        ix = whoosh_index.open_dir(str(target))
    else:
        target.mkdir()
        ix = whoosh_index.create_in(str(target), schema())
    indexed = _indexed_sources(ix) if reuse else set()
    wanted = {s.id: s for s in store.sources()}
    keep = indexed & unchanged & wanted.keys()
    words = target / _SOURCE_WORDS
    words.mkdir(exist_ok=True)
    global _writing_in
    _writing_in = os.getpid()
    try:
        writer = ix.writer(limitmb=_WRITER_MB, procs=_worker_processes(),
                           multisegment=not reuse)
        for source_id in indexed - keep:
            writer.delete_by_term("source", source_id)
            _words_file(words, source_id).unlink(missing_ok=True)
        count = 0
        for source_id, source in wanted.items():
            if source_id in keep:
                continue
            if progress:
                progress(source.file)
            vocabulary: dict[str, Vocabulary] = {}
            for doc in documents(source, store.query(source_id=source_id), vocabulary):
                writer.add_document(**doc)
                count += 1
            _write_words(_words_file(words, source_id), vocabulary)
        writer.commit()
    finally:
        _writing_in = None
    _merge_words([_words_file(words, s) for s in wanted], target / VOCABULARY_FILE)
    (target / _STAMP_FILE).write_text(stamp)
    return IndexReport(count, len(wanted) - len(keep), len(keep), reuse)


def _words_file(folder: Path, source_id: str) -> Path:
    return folder / (hashlib.sha256(source_id.encode()).hexdigest()[:24] + ".tsv")


def _write_words(path: Path, vocabulary: dict[str, Vocabulary]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for lang, vocab in sorted(vocabulary.items()):
            for word, term in sorted(vocab.terms.items()):
                out.write(f"{lang}\t{word}\t{term}\t{vocab.df[word]}\n")


def _merge_words(paths: list[Path], target: Path) -> None:
    """One file of (language, word, term, document count) for the searcher to load."""
    merged: dict[tuple[str, str], list] = {}
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                lang, word, term, df = line.rstrip("\n").split("\t")
                entry = merged.setdefault((lang, word), [term, 0])
                entry[1] += int(df)
    with target.open("w", encoding="utf-8") as out:
        for (lang, word), (term, df) in sorted(merged.items()):
            out.write(f"{lang}\t{word}\t{term}\t{df}\n")


def _stamp(folder: Path) -> str | None:
    try:
        return (folder / _STAMP_FILE).read_text()
    except OSError:
        return None


def _indexed_sources(ix: whoosh_index.Index) -> set[str]:
    with ix.reader() as reader:
        return {term.decode() for term in reader.lexicon("source")}
