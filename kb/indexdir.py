"""The index folder: built generations, the pointer to the current one, the build lock, and
the marker that says the folder is kb's.

::

    indexes/
      kb-index.json                              (the marker: this folder is kb's; its folders)
      current -> builds/20261121T051500-1234     (a symlink, swapped atomically)
      builds/20261121T051500-1234/kb.sqlite       (one generation: the store, ...)
      builds/20261121T051500-1234/search/         (... its search index ...)
      builds/20261121T051500-1234/manifest.json   (... and the size and sha256 of every file)
      builds/20261121T052000-1301.partial/       (a build in progress, or one that died)
      build.lock

A build deletes folders, so it first proves the folder is kb's (:meth:`IndexDir.claim`): the
marker is there, or the folder is new or empty (the marker is then written before anything
else), or it is the ``indexes/`` of a kb checkout, or an index an older kb built (``current``,
``builds/`` whose every entry is a generation, ``build.lock``, nothing else). Any other folder
that is not empty is refused, naming what it holds: ``KB_INDEX`` pointed at the wrong place
must not cost a file. The marker also remembers the corpus folders of the last build, so an
index whose ``current`` is lost still knows what it was built from.

A build writes a new generation aside and publishes it by replacing the ``current`` symlink
with ``os.replace``, which is atomic: a reader resolves ``current`` once and sees a whole
generation, old or new, never a mix. A build that fails or is killed leaves ``current``
untouched. The generation just replaced is kept, so a reader that resolved ``current`` just
before a swap can still open its files; only generations older than it are removed, never
one a build did not replace. Generations share the files that did not change (hard links), so
keeping two costs little disk. A ``current`` that is missing, dangling, a loop or that leads
out of ``builds/`` is repaired by the next build from the newest generation that passes its
checksums.

The manifest records what each file must be. Readers check every checksum before answering
(:func:`check_serving`): once per process, and once for the user's next processes too
(remembered by device, inode, size, mtime and ctime in the user's cache folder, so a file
changed or replaced is read again); builds check before reusing anything, and ``kb doctor``
each time. A reader opens
the store immutable: a stray ``kb.sqlite-journal`` or ``-wal`` beside it (which SQLite would
try to roll back, and cannot in a read-only generation) is ignored, and removed by the next
build.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kb.errors import DamagedIndexError, KbError
from kb.i18n import _
from kb.paths import is_kb_checkout

STORE_FILE = "kb.sqlite"
MANIFEST_FILE = "manifest.json"
MARKER_FILE = "kb-index.json"
LOCK_FILE = "build.lock"
# What SQLite leaves beside a store a writer did not close: never part of a generation.
STRAY_SUFFIXES = ("-journal", "-wal", "-shm")
_SHA256 = re.compile(r"[0-9a-f]{64}")


class BuildLockedError(KbError):
    """Another build holds the lock on this index folder."""


class CorruptIndexError(DamagedIndexError):
    """A file of the published generation is missing, truncated or altered."""


class NotAnIndexError(KbError):
    """The folder is not kb's (no marker, not empty): a build will not write into it."""


class IndexDir:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.builds = root / "builds"
        self.pointer = root / "current"
        self.marker = root / MARKER_FILE

    # -- reading ---------------------------------------------------------------------------

    def current(self) -> Path | None:
        """The folder of the published generation, or None before the first build (or when
        ``current`` points nowhere usable: a loop, a missing folder, a folder that is not a
        generation of this index's ``builds/``)."""
        try:
            target = os.readlink(self.pointer)
            path = (self.root / target).resolve(strict=True)
            builds = self.builds.resolve(strict=True)
        except (OSError, RuntimeError):  # RuntimeError: a symlink loop on older Pythons
            return None
        if path.parent != builds or path.name.endswith(".partial") or not path.is_dir():
            return None
        return path

    def current_store(self) -> Path | None:
        folder = self.current()
        return folder / STORE_FILE if folder and (folder / STORE_FILE).exists() else None

    def generations(self) -> list[Path]:
        """The published generations under ``builds/``, oldest first (names are times)."""
        try:
            found = [p for p in self.builds.iterdir()
                     if not p.name.endswith(".partial") and p.is_dir() and not p.is_symlink()]
        except OSError:
            return []
        return sorted(found, key=lambda p: p.name)

    def newest_whole(self) -> Path | None:
        """The newest generation that passes its checksums (what a lost ``current`` should
        have pointed to), or None."""
        return next((g for g in reversed(self.generations()) if not verify(g)), None)

    def remembered_folders(self) -> list[str] | None:
        """The corpus folders the index was last built from: the current generation's
        manifest, else the marker, else the newest whole generation's manifest."""
        current = self.current()
        folders = _folders((read_manifest(current) or {}).get("inputs")) if current else None
        if folders is None:
            folders = _folders(read_marker(self.marker))
        if folders is None and current is None and (newest := self.newest_whole()):
            folders = _folders((read_manifest(newest) or {}).get("inputs"))
        return folders

    # -- proving the folder is kb's ---------------------------------------------------------

    def claim(self) -> None:
        """Raise :class:`NotAnIndexError` unless the folder is kb's (see the module
        docstring): checked before the build writes anything, the lock file included."""
        if self.marker.is_file() or _is_checkout_indexes(self.root):
            return
        try:
            entries = sorted(os.listdir(self.root))
        except FileNotFoundError:
            return
        except NotADirectoryError as exc:
            raise NotAnIndexError(_("{root} is a file, not an index folder: give --index (or "
                                    "KB_INDEX) a folder").format(root=self.root)) from exc
        except OSError as exc:
            raise NotAnIndexError(_("{root}: {problem}").format(
                root=self.root, problem=exc.strerror or exc)) from exc
        if all(self._starting(e) for e in entries) or self._older_index(entries):
            return
        shown = ", ".join(e + ("/" if (self.root / e).is_dir() else "") for e in entries[:5])
        more = _(" and {n} more").format(n=len(entries) - 5) if len(entries) > 5 else ""
        raise NotAnIndexError(_(
            "{root} is not a kb index (it has no {marker}) and is not empty: it holds "
            "{shown}{more}. kb build deletes what it replaces in its index folder, so it only "
            "writes in a new or empty folder: give --index (or KB_INDEX) another one").format(
                root=self.root, marker=MARKER_FILE, shown=shown, more=more))

    @staticmethod
    def _starting(entry: str) -> bool:
        """What a build writes before its marker: the lock file (taken first), the marker's
        temporary file. A folder holding only these is a build starting (the lock then says
        so) or one killed before it marked the folder: kb's either way."""
        return entry == LOCK_FILE or entry.startswith(f".{MARKER_FILE}.")

    def _older_index(self, entries: list[str]) -> bool:
        """An index built by a kb from before the marker: its own names only, and every
        entry of ``builds/`` a generation (a store or a manifest) or a staging folder."""
        own = {LOCK_FILE, "builds", "current"}
        if "builds" not in entries or any(e not in own and not e.startswith(".current-")
                                          for e in entries):
            return False
        try:
            return all(p.name.endswith(".partial") or (p / MANIFEST_FILE).is_file()
                       or (p / STORE_FILE).is_file() for p in self.builds.iterdir())
        except OSError:
            return False

    def mark(self, folders: list[str] | None = None) -> None:
        """Write the marker (with the corpus folders of the generation just published, when
        given; else keeping those it holds). Call with the lock held."""
        data = read_marker(self.marker) or {}
        if folders is None and self.marker.is_file() and data:
            return
        data = {"kb": "index", "note": "This folder is a kb index: 'kb build' replaces and "
                "deletes what it holds. Delete the whole folder to start afresh.",
                "folders": folders if folders is not None else data.get("folders")}
        if data["folders"] is None:
            data["folders"] = self.remembered_folders()
        _write_atomically(self.marker, json.dumps(data, indent=1, sort_keys=True) + "\n")

    # -- writing (with the lock held) -------------------------------------------------------

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the build lock; raise :class:`BuildLockedError` at once if another holds it.
        ``filelock`` is an OS lock on every platform (released when the process dies);
        imported here, as only a build takes it (it imports asyncio: a search does not)."""
        from filelock import FileLock, Timeout

        self.claim()
        self.root.mkdir(parents=True, exist_ok=True)
        lock = FileLock(self.root / LOCK_FILE, timeout=0)
        try:
            lock.acquire()
        except Timeout as exc:
            raise BuildLockedError(_(
                "another kb build is running on {root} (lock: {lock}); wait for it to finish")
                .format(root=self.root, lock=LOCK_FILE)) from exc
        try:
            self.mark()
            yield
        finally:
            lock.release()

    def restore(self) -> Path | None:
        """Point a lost ``current`` (missing, dangling, a loop, out of ``builds/``) at the
        newest generation that passes its checksums; return it, or None when there is none
        (or ``current`` was fine). Call with the lock held."""
        if self.current() is not None:
            return None
        newest = self.newest_whole()
        if newest is not None:
            self._point_at(newest)
        return newest

    def clean_strays(self, generation: Path) -> list[str]:
        """Remove what SQLite left beside the generation's store (a journal or WAL a writer
        did not close, copied in by a restore...): readers ignore them, but SQLite would
        refuse the store while they are there. Return their names."""
        removed = []
        for suffix in STRAY_SUFFIXES:
            stray = generation / (STORE_FILE + suffix)
            if stray.is_file() or stray.is_symlink():
                stray.unlink()
                removed.append(stray.name)
        return removed

    def clear_partials(self) -> None:
        """Remove what killed builds left. Call with the lock held."""
        for stale in self.builds.glob("*.partial"):
            shutil.rmtree(stale, ignore_errors=True)

    def new_generation(self) -> Path:
        """A fresh staging folder. Call with the lock held."""
        self.builds.mkdir(parents=True, exist_ok=True)
        self.clear_partials()
        name = time.strftime("%Y%m%dT%H%M%S") + f"-{os.getpid()}-{time.monotonic_ns() % 10**6}"
        staging = self.builds / f"{name}.partial"
        staging.mkdir()
        return staging

    def publish(self, staging: Path, inputs: dict) -> Path:
        """Record the manifest (``inputs``: what the generation was built from), make
        ``staging`` the current generation, atomically, remember its folders in the marker,
        and remove the generations older than the one it replaced."""
        previous = self.current()
        write_manifest(staging, inputs, previous)
        final = staging.with_name(staging.name.removesuffix(".partial"))
        staging.rename(final)
        self._point_at(final)
        self.mark(list(inputs.get("folders", [])))
        if previous is not None:
            for old in self.generations():
                if old.name < previous.name and old != final:
                    shutil.rmtree(old, ignore_errors=True)
        return final

    def _point_at(self, generation: Path) -> None:
        link_tmp = self.root / f".current-{os.getpid()}"
        if link_tmp.is_symlink() or link_tmp.exists():
            link_tmp.unlink()
        link_tmp.symlink_to(generation.relative_to(self.root))
        os.replace(link_tmp, self.pointer)


def _is_checkout_indexes(root: Path) -> bool:
    """The ``indexes/`` of a kb checkout (where its README says builds go) is kb's."""
    return root.name == "indexes" and is_kb_checkout(root.parent)


def is_index_folder(folder: Path) -> bool:
    """A kb index folder: the marker, or generations in ``builds/`` with a ``current`` link
    or a lock (an index of a kb from before the marker)."""
    return (folder / MARKER_FILE).is_file() or (folder / "builds").is_dir() and (
        (folder / "current").is_symlink() or (folder / LOCK_FILE).exists())


def index_folder_of(path: Path) -> Path | None:
    """The index folder that ``path`` (once its links are followed) lies in, or None:
    ``--out`` never writes there."""
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):
        return None
    return next((f for f in (resolved, *resolved.parents) if is_index_folder(f)), None)


def read_marker(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _folders(data: Any) -> list[str] | None:
    folders = data.get("folders") if isinstance(data, dict) else None
    if isinstance(folders, list) and all(isinstance(f, str) for f in folders):
        return folders
    return None


def _write_atomically(path: Path, text: str) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)


# -- the manifest --------------------------------------------------------------------------


def _files(generation: Path) -> Iterator[Path]:
    for path in sorted(generation.rglob("*")):
        if path.is_file() and path.name != MANIFEST_FILE:
            yield path


def _sha256(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def write_manifest(generation: Path, inputs: dict, previous: Path | None = None) -> None:
    """Sizes and checksums of every file. A file hard-linked from ``previous`` (a search
    segment of an unchanged source) keeps the checksum recorded there: the build verified
    that generation before reusing anything from it."""
    known = (read_manifest(previous) or {}).get("files", {}) if previous else {}
    files = {}
    for path in _files(generation):
        name = path.relative_to(generation).as_posix()
        size = path.stat().st_size
        old = known.get(name)
        same = (old is not None and old[0] == size and previous is not None
                and _same_file(path, previous / name))
        files[name] = [size, old[1] if same else _sha256(path)]
    text = json.dumps({"inputs": inputs, "files": files}, indent=1, sort_keys=True)
    (generation / MANIFEST_FILE).write_text(text, encoding="utf-8")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return False


def read_manifest(generation: Path) -> dict | None:
    """The generation's manifest; None when it has none, it cannot be read, or it is not of
    the shape :func:`write_manifest` writes (a damaged manifest is no manifest)."""
    try:
        data = json.loads((generation / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if _manifest_shape(data) else None


def _manifest_shape(data: Any) -> bool:
    """Whether ``data`` has the types every reader of a manifest relies on: files as
    name -> [size, sha256], and what ``kb build`` reads back from its inputs."""
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        return False
    for name, entry in data["files"].items():
        if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int
                and entry[0] >= 0 and isinstance(entry[1], str) and _SHA256.fullmatch(entry[1])
                and name and not name.startswith("/") and ".." not in name.split("/")):
            return False
    inputs = data.get("inputs", {})
    if not isinstance(inputs, dict):
        return False
    if "folders" in inputs and _folders(inputs) is None:
        return False
    sources = inputs.get("sources", [])
    problems = inputs.get("problems", [])
    return (isinstance(sources, list) and all(isinstance(s, dict) for s in sources)
            and isinstance(problems, list)
            and all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                    for p in problems))


# What :func:`check_serving` found whole: (device, inode, size, mtime, ctime) of a file -> the
# checksum it was found to have. A file rewritten or replaced has another key (any write, and
# setting its times back, changes its ctime). Kept for this process, and for the user's next
# ones in the user's cache folder (:func:`_remembered`), so that a command on an index of a
# hundred rules versions does not read 150 MB before answering each time.
_WHOLE: dict[tuple[int, ...], str] = {}
_WHOLE_LOCK = threading.Lock()
_WHOLE_KEPT = 20_000  # files remembered across processes (a generation holds a few dozen)
_loaded: list[Path | None] = []  # the cache file read into _WHOLE, once per process


def verify(generation: Path, *, checksums: bool = True,
           known: dict[tuple[int, ...], str] | None = None) -> list[str]:
    """What is wrong with a generation's files, one line each (empty: all good).

    Without ``checksums`` only presence and sizes are checked. With ``known``, a file whose
    identity (device, inode, size, mtime, ctime) is in it with the expected checksum is not
    read again, and each file found whole is added.
    """
    manifest = read_manifest(generation)
    if manifest is None:
        return [_("{path}: missing, unreadable or malformed").format(
            path=generation / MANIFEST_FILE)]
    problems = []
    for name, (size, digest) in sorted(manifest["files"].items()):
        path = generation / name
        try:
            st = path.stat()
        except OSError:
            problems.append(_("{path}: missing").format(path=path))
            continue
        if st.st_size != size:
            problems.append(_("{path}: {size} bytes, {built} when built (truncated or "
                              "altered)").format(path=path, size=st.st_size, built=size))
            continue
        if not checksums:
            continue
        key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        if known is not None and known.get(key) == digest:
            continue
        if _sha256(path) != digest:
            problems.append(_("{path}: checksum differs from when it was built (altered)")
                            .format(path=path))
        elif known is not None:
            known[key] = digest
    return problems


def check_serving(generation: Path) -> None:
    """Raise :class:`CorruptIndexError` unless every file of ``generation`` is whole: the
    check every reader makes before answering. Each file is read once per process (then
    remembered by its inode, size, mtime and ctime), so a flipped byte is never served and a
    long-running server pays for it once per generation."""
    with _WHOLE_LOCK:  # threads opening a new generation together read it once
        before = len(_remembered())
        problems = verify(generation, known=_WHOLE)
        if len(_WHOLE) > before:
            _remember()
    if problems:
        raise CorruptIndexError(damaged(problems[0], len(problems) - 1))


def damaged(problem: object, more: int = 0) -> str:
    """The one message of a damaged index, whichever file says so: the first problem, how
    many more there are, and the repair."""
    if more:
        return _("the index is damaged: {problem} (and {more} more); run 'kb build' to "
                 "rebuild it").format(problem=problem, more=more)
    return _("the index is damaged: {problem}; run 'kb build' to rebuild it").format(
        problem=problem)


def _cache_file() -> Path | None:
    """``whole.json`` in ``$KB_CACHE``, else in the platform's user cache folder; None when
    ``KB_CACHE`` is empty (remember nothing beyond the process)."""
    folder = os.environ.get("KB_CACHE")
    if folder is None:
        from platformdirs import user_cache_path

        return user_cache_path("kb", appauthor=False) / "whole.json"
    return Path(folder) / "whole.json" if folder else None


def _remembered() -> dict[tuple[int, ...], str]:
    """:data:`_WHOLE`, with what earlier processes of this user found whole (read once)."""
    if not _loaded:
        path = _cache_file()
        _loaded.append(path)
        try:
            rows = json.loads(path.read_text(encoding="utf-8")) if path else []
            _WHOLE.update({tuple(map(int, key.split(":"))): digest for key, digest in rows
                           if isinstance(digest, str) and _SHA256.fullmatch(digest)})
        except (OSError, ValueError, TypeError, AttributeError):
            pass  # no cache, or not one this kb wrote: the checksums are read again
    return _WHOLE


def _remember() -> None:
    """Keep :data:`_WHOLE` (its newest entries) for this user's next processes; a folder
    that cannot be written costs only the time of reading the files again."""
    path = _loaded[0] if _loaded else None
    if path is None:
        return
    rows = [[":".join(map(str, key)), digest] for key, digest in _WHOLE.items()][-_WHOLE_KEPT:]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomically(path, json.dumps(rows))
    except OSError:
        pass


def damage_of(root: Path) -> str | None:
    """After an unexpected error: the one-line reason when the published generation is
    damaged (a file altered since it was checked makes Whoosh or SQLite fail in a dozen
    ways)."""
    generation = IndexDir(root).current()
    if generation is None:
        return None
    try:
        check_serving(generation)
    except CorruptIndexError as exc:
        return str(exc)
    return None
