"""``kb build``: documents -> parsers -> records -> a new store generation, published atomically.

Incremental: a document whose bytes (sha256) are unchanged since the previous build, read by the
same parser code, is copied from the previous store instead of being parsed again. The parser
code is fingerprinted (``parser_stamp``) so that a change to a parser reparses everything.

Nothing is lost and nothing stops the build: a file that cannot be read is named in the report
with the reason; a document no parser understands, or whose parser fails, is stored whole as an
unparsed fragment.
"""

from __future__ import annotations

import errno
import hashlib
import json
import shutil
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TypeVar

from msgspec import structs

import kb
from kb.corpus import CorpusFile, Unreadable, discover, embedded_corpus, read_bytes
from kb.errors import KbError
from kb.i18n import _, ngettext
from kb.index.writer import IndexReport, IndexWriteError, index_stamp, write_index
from kb.indexdir import STORE_FILE, IndexDir, read_manifest, verify
from kb.model import Loc, ParseResult, Source
from kb.paths import user_corpus_dir
from kb.store import SCHEMA_VERSION, StaleStoreError, Store, read_only
from kb.text.decode import BinaryContentError, decode

T = TypeVar("T")
Progress = Callable[[list[T]], Iterable[T]]


@dataclass(frozen=True, slots=True)
class Problem:
    file: str
    reason: str


@dataclass(frozen=True, slots=True)
class SourceReport:
    file: str
    source_id: str
    format: str
    language: str | None
    version: str | None
    counts: dict[str, int]
    reused: bool
    flags: dict[str, int] = field(default_factory=dict)  # inferred numbers, untranslated


@dataclass
class BuildReport:
    index: Path
    sources: list[SourceReport] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # Files identical to one already read (the embedded CR and the same file in a user's
    # folder): read once, and not a problem.
    copies: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    links: dict[str, int] = field(default_factory=dict)
    terms: int = 0  # pairs in the bilingual term table
    search: IndexReport | None = None
    unchanged: bool = False  # nothing changed: the current generation was kept as it is
    vectors: int = 0  # texts embedded for semantic ranking (0: built without a model)

    @property
    def totals(self) -> dict[str, int]:
        total: Counter[str] = Counter()
        for s in self.sources:
            total.update(s.counts)
        return dict(sorted(total.items()))

    @property
    def unparsed(self) -> int:
        return self.totals.get("fragment", 0)

    @property
    def versions(self) -> list[str]:
        return sorted({s.version for s in self.sources if s.format == "cr_text" and s.version})


def parser_stamp() -> str:
    """A fingerprint of the code and data that turn documents into records and links: the
    link stage's tables (``link/*.tsv``, the official French vocabulary) are data the term
    table is made of, and a kb that ships new rows must not keep serving the old ones."""
    package = Path(kb.__file__).parent
    digest = hashlib.sha256(str(SCHEMA_VERSION).encode())
    for path in sorted(
        [*package.glob("sources/*.py"), *package.glob("text/*.py"), *package.glob("link/*.py"),
         *package.glob("link/*.tsv"), package / "model.py", package / "codec.py",
         package / "rulenum.py"]
    ):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


EMBEDDED = "<embedded>"  # the embedded corpus, wherever kb is installed
USER = "<user>"  # the user's corpus folder (kb fetch), when it exists


class BuildRefusedError(KbError):
    """The build would drop rules versions or sources the current index has."""


class MissingFolderError(KbError):
    """A corpus folder given to the build does not exist."""


def plan_folders(index_root: Path, added: list[Path], *, only: bool = False,
                 embedded: bool = True) -> list[str]:
    """The folders a build reads: those the current index was built from (or, before a first
    build, the embedded corpus and the user's corpus folder), plus ``added``; exactly ``added``
    with ``only``. Folders are absolute paths or the markers :data:`EMBEDDED` and :data:`USER`."""
    missing = [str(f) for f in added if not f.is_dir()]
    if missing:
        raise MissingFolderError(_("no such corpus folder: {folders}").format(
            folders=", ".join(missing)))
    if only:
        base: list[str] = []
    else:
        index = IndexDir(index_root)
        remembered = index.remembered_folders()
        current = index.current()
        if remembered is None and current is not None:
            remembered = _stored_folders(current)
        base = list(remembered) if isinstance(remembered, list) else [EMBEDDED, USER]
    if not embedded:
        base = [f for f in base if f != EMBEDDED]
    for folder in added:
        if str(folder.resolve()) not in base:
            base.append(str(folder.resolve()))
    return base


def _stored_folders(generation: Path) -> list[str] | None:
    """The folders recorded in the store, when the manifest cannot be read."""
    try:
        with closing(sqlite3.connect(read_only(generation / STORE_FILE), uri=True)) as conn:
            row = conn.execute("SELECT value FROM meta WHERE key='folders'").fetchone()
        return json.loads(row[0]) if row else None
    except (sqlite3.Error, ValueError):
        return None


def _folder_paths(folders: list[str]) -> list[Path]:
    paths: list[Path] = []
    for folder in folders:
        if folder == EMBEDDED:
            path = embedded_corpus()
        elif folder == USER:
            path = user_corpus_dir()
            if not path.is_dir():
                continue
        else:
            path = Path(folder)
        if path.resolve() not in {p.resolve() for p in paths}:
            paths.append(path)
    return paths


def build(index_root: Path, folders: list[Path] | list[str], progress: Progress | None = None,
          *, replace: bool = True, follow_links: bool = False,
          model: Path | None = None) -> BuildReport:
    """Build a new generation from ``folders`` and publish it; return what was ingested.

    ``folders`` are paths, or what :func:`plan_folders` returns (remembered in the index for
    the next build). Nothing is written when the corpus and kb are the same as for the current
    generation and it passes its checksums. Without ``replace``, a build that would drop a
    rules version or a source of the current index is refused (:class:`BuildRefusedError`).
    Links that lead out of a folder are followed only with ``follow_links``. With ``model``
    (a sentence model's folder, :mod:`kb.index.semantic`), today's English rules are embedded
    for semantic ranking.
    """
    started = time.perf_counter()
    index = IndexDir(index_root)
    report = BuildReport(index_root)
    names = [str(f) for f in folders]
    with index.lock():
        stamp = parser_stamp()
        inputs = {"folders": names, "parser_stamp": stamp, "index_stamp": index_stamp(stamp),
                  "follow_links": follow_links, "model": _model_input(model)}
        paths = _folder_paths(names)
        items = list(discover(paths, follow_links))
        inputs["files"] = _fingerprint(items)
        from kb.link.numbering import find_table  # small; the link stage is loaded later
        numbering = find_table([embedded_corpus(), *paths])
        inputs["numbering"] = (None if numbering is None else
                               [str(numbering), hashlib.sha256(numbering.read_bytes()).hexdigest()])
        current = index.current()
        if current is None and (current := index.restore()) is not None:
            report.problems.append(Problem(str(index.pointer), _(
                "the link to the current index was missing or led nowhere: restored to "
                "{generation}, the newest generation that passes its checksums").format(
                    generation=current.name)))
        for stray in index.clean_strays(current) if current else []:
            report.problems.append(Problem(str(current / stray), _(
                "a journal SQLite left beside the store (readers ignore it): removed")))
        held = _held_sources(current) if current and not replace else []
        damage = verify(current) if current else []
        if damage:
            report.problems.append(Problem(str(current), "the current index failed its "
                                           f"checksums ({damage[0]}): rebuilt from the documents"))
            current = None
        if current is not None and _same_inputs(current, inputs):
            index.clear_partials()
            notices = list(report.problems)
            try:
                return _unchanged(report, current, started)
            except (TypeError, KeyError, ValueError):  # a manifest of another shape: rebuild
                report.problems, report.sources, report.unchanged = notices, [], False
        staging = index.new_generation()
        try:
            _build_into(staging, index, current, items, inputs, report, progress, held,
                        numbering)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    report.seconds = time.perf_counter() - started
    return report


def _build_into(staging: Path, index: IndexDir, current: Path | None,
                items: list[CorpusFile | Unreadable], inputs: dict, report: BuildReport,
                progress: Progress | None, held: list[tuple[str, str, str, str]],
                numbering: Path | None) -> None:
    # Loaded here, not at the top: a rebuild that finds nothing changed never needs them.
    from kb.link.numbering import NumberingTable
    from kb.link.stage import link_all
    from kb.link.terms import derive_terms
    from kb.link.translation import store_coverage
    from kb.text.normal import fold

    encoder = None
    if inputs["model"] is not None:  # a model kb cannot run is refused before any work
        from kb.index.semantic import Encoder  # numpy and onnxruntime: only here

        encoder = Encoder(Path(inputs["model"]["folder"]))
    try:
        store = Store.create(staging / STORE_FILE)
        previous = _previous_store(current, inputs["parser_stamp"])
        if previous is not None:
            store.attach(previous.path)
        for item in (progress or _identity)(items):
            if isinstance(item, Unreadable):
                report.problems.append(Problem(str(item.path), item.reason))
                continue
            _ingest(item, store, previous, report)
        if previous is not None:
            store.detach()
        _refuse_drops(held, report)
        store.index_records()
        reused = frozenset(s.source_id for s in report.sources if s.reused)
        table = None
        if numbering is not None:
            try:
                table = NumberingTable.read(numbering)
            except (OSError, ValueError) as exc:
                report.problems.append(Problem(str(numbering), f"the numbering table cannot be "
                                               f"read ({exc}): texts are read against the "
                                               "versions held only"))
        report.links = link_all(store, previous.path if previous else None, reused, table)
        report.problems += [Problem(c.file, c.summary()) for c in store_coverage(store)
                            if not c.whole]
        links = [*store.links(relation="counterpart"), *store.links(relation="current"),
                 *store.links(relation="same-card"), *store.links(relation="same-ruling")]
        report.terms = store.replace_terms(derive_terms(store, links), fold)
        store.set_meta("parser_stamp", inputs["parser_stamp"])
        store.set_meta("folders", json.dumps(inputs["folders"]))  # if the manifest is lost
        store.set_meta("built_at", time.strftime("%Y-%m-%dT%H:%M:%S%z"))
        store.commit()
        store.compact()
        report.search = write_index(staging, store, inputs["index_stamp"], current, set(reused))
        if encoder is not None:
            from kb.index.semantic import write_vectors

            report.vectors = write_vectors(staging, store, encoder, current, progress)
        store.close()
        # What a rebuild that finds nothing changed reports, without opening the store.
        inputs["sources"] = [asdict(s) for s in report.sources]
        inputs["problems"] = [[p.file, p.reason] for p in report.problems]
        index.publish(staging, inputs)
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            raise IndexWriteError(_("disk full while building in {folder} ({reason}); the "
                                    "previous index is still served").format(
                folder=index.root, reason=exc.strerror)) from exc
        raise
    except sqlite3.OperationalError as exc:  # SQLite says "database or disk is full"
        if "full" in str(exc) or "disk I/O" in str(exc):
            raise IndexWriteError(_("disk full while writing the store in {folder} ({reason}); "
                                    "the previous index is still served").format(
                folder=index.root, reason=exc)) from exc
        raise


def _fingerprint(items: list[CorpusFile | Unreadable]) -> list[list[str]]:
    """What the build reads, as (file, sha256 or the reason it is unreadable): the same list
    means the same corpus. Reading every file costs a fraction of a second even for a hundred
    rules versions; their mtimes would not see a file restored with its old date."""
    out = []
    for item in items:
        if isinstance(item, Unreadable):
            out.append([str(item.path), "unreadable: " + item.reason])
            continue
        try:
            out.append([str(item.path), hashlib.sha256(read_bytes(item.path)).hexdigest()])
        except (OSError, EOFError) as exc:
            out.append([str(item.path), "unreadable: " + _os_reason(exc)])
    return out


def _model_input(model: Path | None) -> dict | None:
    """What the build records of its sentence model: the folder, and its files' identity
    (another model, or the same updated, is a new build)."""
    if model is None:
        return None
    from kb.index.semantic import model_files

    return {"folder": str(model.resolve()), "files": model_files(model)}


def remembered_model(index_root: Path) -> Path | None:
    """The sentence model the current generation was built with, if any; one that is gone
    is an error that says how to build without it."""
    from kb.index.semantic import MODEL_FILE, SemanticError

    current = IndexDir(index_root).current()
    recorded = (read_manifest(current) or {}).get("inputs", {}) if current else {}
    model = recorded.get("model")
    if not isinstance(model, dict) or not model.get("folder"):
        return None
    folder = Path(model["folder"])
    if not (folder / MODEL_FILE).is_file():
        raise SemanticError(_("{folder}: the sentence model this index was built with is gone "
                              "(kb build --no-model builds without it)").format(folder=folder))
    return folder


def _same_inputs(generation: Path, inputs: dict) -> bool:
    recorded = (read_manifest(generation) or {}).get("inputs", {})
    return all(recorded.get(k) == v for k, v in inputs.items())


def _unchanged(report: BuildReport, generation: Path, started: float) -> BuildReport:
    """The report of a build that found nothing to do: the current generation's sources."""
    report.unchanged = True
    recorded = (read_manifest(generation) or {}).get("inputs", {})
    report.problems += [Problem(f, r) for f, r in recorded.get("problems", [])]
    report.sources = [SourceReport(**{**s, "reused": True}) for s in recorded.get("sources", [])]
    report.seconds = time.perf_counter() - started
    return report


def _held_sources(generation: Path) -> list[tuple[str, str, str, str]]:
    """(id, file, format, version) of every source of a generation's store, read even from a
    store of another schema or one failing its checksums: what a build must not drop."""
    try:
        with closing(sqlite3.connect(read_only(generation / STORE_FILE), uri=True)) as conn:
            return conn.execute("SELECT id, file, format, version FROM sources").fetchall()
    except sqlite3.Error:
        return []


def _refuse_drops(held: list[tuple[str, str, str, str]], report: BuildReport) -> None:
    kept = {s.source_id for s in report.sources}
    dropped = [(sid, file, fmt, version) for sid, file, fmt, version in held
               if sid not in kept]
    if not dropped:
        return
    versions = sorted({v for _, _, fmt, v in dropped if fmt == "cr_text" and v})
    named = ", ".join(sorted(file for _, file, _, _ in dropped))
    if versions:
        named = _("rules versions {versions}; {files}").format(versions=", ".join(versions),
                                                               files=named)
    raise BuildRefusedError(
        ngettext("this build would drop {count} source the current index has ({sources}): add "
                 "its folder with --corpus, or pass --replace to build without it",
                 "this build would drop {count} sources the current index has ({sources}): "
                 "add their folders with --corpus, or pass --replace to build without them",
                 len(dropped)).format(count=len(dropped), sources=named))


def _identity(items: list[T]) -> Iterator[T]:
    yield from items


@dataclass(frozen=True, slots=True)
class _Previous:
    path: Path
    by_sha: dict[str, Source]
    reports: dict[str, dict]  # source id -> its SourceReport (as a dict) in that build


def _previous_store(generation: Path | None, stamp: str) -> _Previous | None:
    if generation is None or not (generation / STORE_FILE).exists():
        return None
    path = generation / STORE_FILE
    try:
        old = Store.open(path)
    except StaleStoreError:
        return None
    try:
        if old.meta("parser_stamp") != stamp:
            return None
        recorded = (read_manifest(generation) or {}).get("inputs", {}).get("sources", [])
        reports = {r["source_id"]: r for r in recorded if isinstance(r, dict)}
        return _Previous(path, old.source_by_sha(), reports)
    finally:
        old.close()


def _ingest(item: CorpusFile, store: Store, previous: _Previous | None,
            report: BuildReport) -> None:
    try:
        data = read_bytes(item.path)
    except (OSError, EOFError) as exc:
        report.problems.append(Problem(item.display, _os_reason(exc)))
        return
    sha = hashlib.sha256(data).hexdigest()
    same = store.source_by_sha().get(sha)
    if same is not None:
        report.copies.append(Problem(item.display, f"identical to {same.file}; read once"))
        return
    taken = {s.source_id for s in report.sources}
    old = previous.by_sha.get(sha) if previous else None
    if old is not None and old.id not in taken:
        store.copy_source_from(old.id)
        report.sources.append(_reused_report(store, item.display, old, previous))
        return
    if not data:
        report.problems.append(Problem(item.display, "empty file"))
        return
    try:
        decoded = decode(data)
    except BinaryContentError as exc:
        report.problems.append(Problem(item.display, str(exc)))
        return
    report.problems.extend(Problem(item.display, p) for p in decoded.problems())
    result = _parse(decoded.text, item.display, report)
    source_id = result.source_id or f"file:{item.display}"
    if source_id in taken:
        other = next(s.file for s in report.sources if s.source_id == source_id)
        same = all((old := store.get(r.id)) is not None and structs.replace(old, loc=r.loc) == r
                   for r in result.records)  # the same records: another copy or encoding
        report.problems.append(Problem(item.display, (
            f"same document as {other} ({source_id}); skipped" if same else
            f"different text with the same identity as {other} ({source_id}: a second "
            f"version of that date?); skipped, {other} is kept")))
        return
    report.problems.extend(Problem(item.display, p) for p in result.problems)
    source = Source(
        id=source_id, file=item.display, path=str(item.path.resolve()), sha256=sha,
        format=result.format, language=result.language, version=result.version,
        encoding=decoded.encoding, newline=decoded.newline, title=result.title,
    )
    duplicates = store.add_source(source, result.records)
    report.sources.append(_source_report(store, item.display, source, False, duplicates))


def _reused_report(store: Store, display: str, source: Source,
                   previous: _Previous | None) -> SourceReport:
    """A reused source's report: the previous build's when its records cannot have changed
    (a rules version's ids are its own, so none can be a duplicate of another source's),
    else counted again in the store."""
    known = previous.reports.get(source.id) if previous else None
    if known and source.format == "cr_text":
        try:
            return SourceReport(**{**known, "file": display, "reused": True})
        except TypeError:  # recorded by another kb
            pass
    return _source_report(store, display, source, reused=True)


def _source_report(store: Store, display: str, source: Source, reused: bool,
                   duplicates: int = 0) -> SourceReport:
    flags = store.count_flags(source.id)
    if duplicates:
        flags["duplicates"] = duplicates
    return SourceReport(display, source.id, source.format, source.language, source.version,
                        store.count_by_kind(source.id), reused, flags)


def _parse(text: str, file: str, report: BuildReport) -> ParseResult:
    """Parse with the format's parser; on no parser or a parser failure keep the whole text."""
    from kb.sources.ids import UniqueIds
    from kb.sources.registry import parser_for

    parser = parser_for(text)
    if parser is None:
        reason = "not yet understood: no parser for this format"
    else:
        try:
            return parser.parse(text, file)
        except Exception as exc:  # a parser bug must not lose the document or stop the build
            reason = f"{parser.FORMAT} parser failed: {type(exc).__name__}: {exc}"
            report.problems.append(Problem(file, reason))
    source_id = f"file:{file}"
    fragment = UniqueIds().unparsed(source_id, Loc(file, 1), text, reason)
    return ParseResult("unknown", None, None, (fragment,), source_id=source_id)


def _os_reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return f"{type(exc).__name__}: {exc}"
