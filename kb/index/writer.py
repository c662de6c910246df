"""Writing the search index of one generation: one Whoosh segment per unit of sources (see
:func:`_units`: a source, the small sources together, a rules series' older versions by year).

The index lives in the generation folder beside the store (``search/``), so it is published by
the same atomic swap and a failed build leaves the previous pair serving.

The segments are listed in the order of their units' keys. That buys three things at once:

- an unchanged unit's segment (same sources, same texts ending their run there) is taken from
  the previous generation as it is, by a hard link (no copy, no disk), when that index was made
  by the same code; a changed unit's segment is simply left out and written anew, so no
  deleted documents linger in the statistics;
- the same corpus gives the same index, document numbers included, however it was built
  (fresh or incrementally, one worker or two): rankings and their ties do not depend on the
  build's history;
- the worker processes that write segments each hold one unit at a time (a bounded
  buffer), and report a failure to the build instead of printing a traceback.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import pickle
import shutil
import signal
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh.filedb.filestore import FileStorage
from whoosh.index import TOC

from kb.errors import KbError
from kb.i18n import _
from kb.index import game
from kb.index.documents import (
    SEARCHED_KINDS,
    UNVERSIONED,
    VERSIONED_FORMATS,
    Vocabulary,
    documents,
    schema,
    versioned,
)
from kb.index.files import SEARCH_DIR, VIEWS_FILE, VOCABULARY_FILE
from kb.index.spans import Span, plan, series
from kb.index.vocabulary import Words
from kb.index.vocabulary import dumps as vocabulary_text
from kb.model import Source
from kb.store import Store

SEGMENTS_FILE = "segments.json"  # unit -> its segment (id, files, members), for the next build
_STAMP_FILE = "stamp"
_SOURCE_WORDS = "words"  # one vocabulary file per source, merged into VOCABULARY_FILE
_INDEX_NAME = "MAIN"
# Sources with fewer searched records than this share a segment (see _units).
SMALL_SOURCE = 2000
SMALL_UNIT = "+small"  # the key of their units (no source id starts with "+")
_WRITER_MB = 48  # Whoosh's indexing buffer per worker: a big source spills to disk beyond it
# Whoosh's cost is per posting, in pure Python: two processes halve a full build on two cores.
# The workers are started fresh (spawn), so they do not inherit the build's memory, and must
# not outlive a killed build: on Linux they ask the kernel to kill them with their parent;
# elsewhere the index is written in one process.
_PR_SET_PDEATHSIG = 1


class IndexWriteError(KbError):
    """Writing the search index failed (a full disk, most often); nothing was published."""


def _die_with(parent: int) -> None:
    """Pool initializer: be killed with the build process (the parent)."""
    import ctypes  # here, not above: a search imports this module and starts no worker

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


def _worker_processes() -> int:
    if not sys.platform.startswith("linux"):
        return 1
    return min(2, os.cpu_count() or 1)


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


@dataclass(frozen=True, slots=True)
class _Unit:
    """The sources written as one segment (see :func:`_units`)."""

    key: str  # the source id (with its part), or SMALL_UNIT
    sources: tuple[str, ...]
    span: str | None  # a digest of the members' spans (kb.index.spans), or None
    part: bool | None = None  # the versioned documents only (True), the others, or both

    def entry_matches(self, entry: dict) -> bool:
        """Whether a previous build's segment is this unit's (same members, same spans)."""
        return (entry.get("members", [self.key]) == list(self.sources)
                and entry.get("span") == self.span)


@dataclass(frozen=True, slots=True)
class _Written:
    """What a worker made of one unit: its segment (None when nothing of it is searched),
    the segment's files (moved into the index), how many documents; or why it failed."""

    unit: str
    segment: bytes | None = None  # the pickled Whoosh segment object
    files: tuple[str, ...] = ()
    count: int = 0
    newest: str | None = None  # the newest rules version of its versioned documents
    oldest: str | None = None  # ... and the oldest
    others: bool = False  # whether it holds unversioned documents
    error: str | None = None
    disk_full: bool = False


def write_index(generation: Path, store: Store, stamp: str, previous: Path | None,
                unchanged: set[str], progress: Callable[[str], None] | None = None) -> IndexReport:
    """Write ``generation/search`` for every source of ``store`` (committed before).

    ``previous`` is the last generation folder (None when it must not be reused: absent, or
    failing its checksums); ``unchanged`` the sources whose records are the same as there.
    Their segments are kept when the previous index has the same ``stamp``.
    """
    target = generation / SEARCH_DIR
    target.mkdir()
    (target / _SOURCE_WORDS).mkdir()
    old = previous / SEARCH_DIR if previous else None
    old_segments = _segments(old) if old is not None and _stamp(old) == stamp else None
    sources = {s.id: s for s in store.sources()}
    spans = plan(store)
    units = _units(store, sources, spans)
    kept: dict[str, dict] = {}
    if old_segments is not None:
        for unit in units:
            entry = old_segments.get(unit.key)
            if entry is None or not unchanged.issuperset(unit.sources) \
                    or not unit.entry_matches(entry):
                continue  # changed, or the same texts but not ending their run here
            for name in [*entry["files"], f"{_SOURCE_WORDS}/{_words_name(unit.key)}"]:
                os.link(old / name, target / name)  # type: ignore[operator]
            kept[unit.key] = entry
    todo = [u for u in units if u.key not in kept]
    written = _write_segments(store.path, target, todo, progress,
                              {sid: s.file for sid, s in sources.items()}, spans)
    failed = [w for w in written if w.error]
    if failed:
        first = failed[0]
        if any(w.disk_full for w in failed):
            raise IndexWriteError(_("disk full while writing the search index in {folder} "
                                    "({reason}); the previous index is still served").format(
                folder=target, reason=first.error))
        raise IndexWriteError(_("writing the search index failed on {unit}: {reason}; the "
                                "previous index is still served").format(unit=first.unit,
                                                                         reason=first.error))
    entries = dict(kept)
    segments = {key: pickle.loads(bytes.fromhex(e["segment"])) for key, e in kept.items()
                if e["segment"]}
    by_key = {u.key: u for u in units}
    for w in written:
        unit = by_key[w.unit]
        entries[w.unit] = {"segment": w.segment.hex() if w.segment else None,
                           "files": list(w.files), "documents": w.count,
                           "members": list(unit.sources), "span": unit.span,
                           "newest": w.newest, "oldest": w.oldest, "others": w.others}
        if w.segment is not None:
            segments[w.unit] = pickle.loads(w.segment)
    storage = FileStorage(str(target))
    TOC(schema(), [segments[key] for key in sorted(segments)], 1).write(storage, _INDEX_NAME)
    _write_text(target / SEGMENTS_FILE, json.dumps(entries, sort_keys=True, indent=0))
    views = {segments[key].segment_id(): [entries[key].get("newest"),
                                           entries[key].get("others", True),
                                           entries[key].get("oldest")]
             for key in segments}
    _write_text(target / VIEWS_FILE, json.dumps(views, sort_keys=True, indent=0))
    words = _merge_words([target / _SOURCE_WORDS / _words_name(u.key) for u in units])
    _write_text(target / VOCABULARY_FILE, vocabulary_text(words))
    _write_text(target / game.GAME_FILE, game.dumps(game.game_terms(store, words)))
    _write_text(target / _STAMP_FILE, stamp)
    return IndexReport(sum(w.count for w in written), sum(len(u.sources) for u in todo),
                       sum(len(by_key[k].sources) for k in kept), old_segments is not None)


def _units(store: Store, sources: dict[str, Source], spans: dict[str, Span]) -> list[_Unit]:
    """What is written as one segment: the documents of a group of sources, and of a
    versioned-format source its versioned documents apart from its others.

    - A source whose documents are searched one rules version at a time (VERSIONED_FORMATS)
      is two units, its versioned documents and the others (a translation's own text,
      searched whatever the version): a search of today's rules then opens no segment
      holding another version's documents, and needs no version filter at all.
    - The newest version of a rules series has a segment of its own; the older versions of a
      series are grouped by year (a segment per version cost 150 KB of term blocks for 60
      changed rules: a hundred versions' index was 60% overhead). Adding a version rewrites
      the segment of its year and of the version it succeeds, not more.
    - Sources of fewer than SMALL_SOURCE searched records are one group: a query pays per
      segment (a term lookup and a matcher per word and segment), and a dozen seeds, FAQs and
      card files of a few hundred records each cost a search more than the 4,000 rules of a
      CR. A small source's change rewrites them all, which is cheap because they are small.
    """
    newest = {group[-1].id for group in series(list(sources.values()))}
    groups: dict[str, list[str]] = defaultdict(list)
    parts: dict[str, Counter[bool]] = {}
    for sid, source in sorted(sources.items()):
        parts[sid] = Counter({versioned(source.format, kind, language, dated): n
                              for (kind, language, dated), n in store.census(sid).items()
                              if kind in SEARCHED_KINDS})
        if sid in spans and sid not in newest:
            groups[f"{source.format}:{source.language}@{(source.version or '')[:4]}"].append(sid)
        elif sid not in spans and parts[sid].total() < SMALL_SOURCE:
            groups[SMALL_UNIT].append(sid)
        else:
            groups[sid].append(sid)
    units: list[_Unit] = []
    for key, members in sorted(groups.items()):
        if not any(sources[sid].format in VERSIONED_FORMATS for sid in members):
            units.append(_Unit(key, tuple(members), None))
            continue
        for part in (True, False):
            holding = tuple(sid for sid in members if parts[sid][part])
            if holding:
                span = "".join(_digest(spans.get(sid)) or "-" for sid in holding)
                units.append(_Unit(f"{key}#{_PART_NAMES[part]}", holding,
                                   hashlib.sha256(span.encode()).hexdigest()[:16], part))
    return units


_PART_NAMES = {True: "versioned", False: "others"}


def _digest(span: Span | None) -> str | None:
    return span.digest if span is not None else None


def _write_segments(store_path: Path, target: Path, todo: list[_Unit],
                    progress: Callable[[str], None] | None,
                    files: dict[str, str], spans: dict[str, Span]) -> list[_Written]:
    """Write the segments of ``todo``, in worker processes where there are cores for them."""
    tasks = [(str(store_path), str(target), u.key, u.part,
              [(sid, spans[sid].first if sid in spans else None) for sid in u.sources])
             for u in todo]
    members = {u.key: u.sources for u in todo}
    procs = min(_worker_processes(), len(tasks))
    if procs <= 1:
        results: Iterator[_Written] = map(_write_one, tasks)
        return [_note(w, progress, [files[s] for s in members[w.unit]]) for w in results]
    import multiprocessing  # here, not above: a search never starts a worker

    context = multiprocessing.get_context("spawn")
    with context.Pool(procs, initializer=_die_with, initargs=(os.getpid(),)) as pool:
        return [_note(w, progress, [files[s] for s in members[w.unit]])
                for w in pool.imap(_write_one, tasks)]


def _note(w: _Written, progress: Callable[[str], None] | None, files: list[str]) -> _Written:
    if progress:
        for name in files:
            progress(name)
    return w


def _write_one(task: tuple[str, str, str, bool | None,
                         list[tuple[str, dict[str, str] | None]]]) -> _Written:
    """One unit's documents as one segment, made in a scratch index and moved into
    ``target``. Runs in a worker: every failure is returned, never raised or printed."""
    store_path, target, unit, part, members = task
    scratch = Path(target) / f".scratch-{_words_name(unit).removesuffix('.tsv')}"
    try:
        store = Store.open(Path(store_path))
        try:
            sources = {s.id: s for s in store.sources()}
            scratch.mkdir()
            ix = whoosh_index.create_in(str(scratch), schema(), indexname=_INDEX_NAME)
            writer = ix.writer(limitmb=_WRITER_MB)
            vocabulary: dict[str, Vocabulary] = {}
            count, versions, others = 0, set(), False
            for source_id, first in members:
                records = store.query(source_id=source_id)
                for doc in documents(sources[source_id], records, vocabulary, first, part):
                    writer.add_document(**doc)
                    count += 1
                    if doc["cr"] == UNVERSIONED:
                        others = True
                    else:
                        versions.add(doc["cr"])
            writer.commit(merge=False)
        finally:
            store.close()
        _write_words(Path(target) / _SOURCE_WORDS / _words_name(unit), vocabulary)
        segments = TOC.read(FileStorage(str(scratch)), _INDEX_NAME).segments
        if not segments:
            return _Written(unit)
        (segment,) = segments
        names = segment.list_files(FileStorage(str(scratch)))
        for name in names:
            os.replace(scratch / name, Path(target) / name)
        return _Written(unit, pickle.dumps(segment), tuple(sorted(names)), count,
                        max(versions, default=None), min(versions, default=None), others)
    except OSError as exc:
        return _Written(unit, error=f"{exc.strerror or exc}",
                        disk_full=exc.errno in (errno.ENOSPC, errno.EDQUOT))
    except Exception as exc:  # a worker must report, not print a traceback and vanish
        return _Written(unit, error=f"{type(exc).__name__}: {exc}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _words_name(unit: str) -> str:
    return hashlib.sha256(unit.encode()).hexdigest()[:24] + ".tsv"


def _write_words(path: Path, vocabulary: dict[str, Vocabulary]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for lang, vocab in sorted(vocabulary.items()):
            for word, term in sorted(vocab.terms.items()):
                out.write(f"{lang}\t{word}\t{term}\t{vocab.df[word]}\n")


def _write_text(path: Path, text: str) -> None:
    """Write a new file (never through a hard link shared with the previous generation)."""
    path.unlink(missing_ok=True)
    path.write_text(text, encoding="utf-8")


def _merge_words(paths: list[Path]) -> dict[str, Words]:
    """The units' vocabulary files as one vocabulary per language, the counts added up."""
    terms: dict[str, dict[str, str]] = {}
    counts: dict[str, Counter[str]] = {}
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                lang, word, term, df = line.rstrip("\n").split("\t")
                terms.setdefault(lang, {})[word] = term
                counts.setdefault(lang, Counter())[word] += int(df)
    return {lang: Words.counted(terms[lang], counts[lang]) for lang in terms}


def _stamp(folder: Path) -> str | None:
    try:
        return (folder / _STAMP_FILE).read_text()
    except OSError:
        return None


def _segments(folder: Path) -> dict[str, dict] | None:
    """The previous index's segments by source, None when it has no readable record of them
    (an index of an older kb: it is then rewritten whole)."""
    try:
        return json.loads((folder / SEGMENTS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
