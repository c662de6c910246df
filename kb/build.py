"""``kb build``: documents -> parsers -> records -> a new store generation, published atomically.

Incremental: a document whose bytes (sha256) are unchanged since the previous build, read by the
same parser code, is copied from the previous store instead of being parsed again. The parser
code is fingerprinted (``parser_stamp``) so that a change to a parser reparses everything.

Nothing is lost and nothing stops the build: a file that cannot be read is named in the report
with the reason; a document no parser understands, or whose parser fails, is stored whole as an
unparsed fragment.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

import kb
from kb.corpus import CorpusFile, Unreadable, discover, read_bytes
from kb.index import IndexReport, index_stamp, write_index
from kb.indexdir import STORE_FILE, IndexDir
from kb.link.pairing import fold
from kb.link.stage import link_all
from kb.link.terms import derive_terms
from kb.model import Loc, ParseResult, Source
from kb.sources.ids import UniqueIds
from kb.sources.registry import parser_for
from kb.store import SCHEMA_VERSION, StaleStoreError, Store
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
    """A fingerprint of the code that turns documents into records."""
    package = Path(kb.__file__).parent
    digest = hashlib.sha256(str(SCHEMA_VERSION).encode())
    for path in sorted(
        [*package.glob("sources/*.py"), *package.glob("text/*.py"), *package.glob("link/*.py"),
         package / "model.py", package / "codec.py", package / "rulenum.py"]
    ):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def build(index_root: Path, folders: list[Path], progress: Progress | None = None,
          follow_links: bool = False) -> BuildReport:
    """Build a new generation from ``folders`` and publish it; return what was ingested.
    Links that lead out of a folder are followed only with ``follow_links``."""
    started = time.perf_counter()
    index = IndexDir(index_root)
    report = BuildReport(index_root)
    with index.lock():
        staging = index.new_generation()
        store = Store.create(staging / STORE_FILE)
        stamp = parser_stamp()
        previous = _previous_store(index, stamp)
        items = list(discover(folders, follow_links))
        for item in (progress or _identity)(items):
            if isinstance(item, Unreadable):
                report.problems.append(Problem(str(item.path), item.reason))
                continue
            _ingest(item, store, previous, report)
        report.links = link_all(store)
        links = [*store.links(relation="counterpart"), *store.links(relation="same-card"),
                 *store.links(relation="same-ruling")]
        report.terms = store.replace_terms(derive_terms(store, links), fold)
        store.set_meta("parser_stamp", stamp)
        store.set_meta("built_at", time.strftime("%Y-%m-%dT%H:%M:%S%z"))
        store.commit()
        unchanged = {s.source_id for s in report.sources if s.reused}
        report.search = write_index(staging, store, index_stamp(stamp), index.current(),
                                    unchanged)
        store.close()
        index.publish(staging)
    report.seconds = time.perf_counter() - started
    return report


def _identity(items: list[T]) -> Iterator[T]:
    yield from items


@dataclass(frozen=True, slots=True)
class _Previous:
    path: Path
    by_sha: dict[str, Source]


def _previous_store(index: IndexDir, stamp: str) -> _Previous | None:
    path = index.current_store()
    if path is None:
        return None
    try:
        old = Store.open(path)
    except StaleStoreError:
        return None
    try:
        if old.meta("parser_stamp") != stamp:
            return None
        return _Previous(path, old.source_by_sha())
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
        store.copy_source_from(previous.path, old.id)  # type: ignore[union-attr]
        report.sources.append(_source_report(store, item.display, old, reused=True))
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
        same = all((old := store.get(r.id)) is not None and replace(old, loc=r.loc) == r
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


def _source_report(store: Store, display: str, source: Source, reused: bool,
                   duplicates: int = 0) -> SourceReport:
    flags = store.count_flags(source.id)
    if duplicates:
        flags["duplicates"] = duplicates
    return SourceReport(display, source.id, source.format, source.language, source.version,
                        store.count_by_kind(source.id), reused, flags)


def _parse(text: str, file: str, report: BuildReport) -> ParseResult:
    """Parse with the format's parser; on no parser or a parser failure keep the whole text."""
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
