"""The index folder: built generations, the pointer to the current one, and the build lock.

::

    indexes/
      current -> builds/20261121T051500-1234     (a symlink, swapped atomically)
      builds/20261121T051500-1234/kb.sqlite       (one generation: the store, ...)
      builds/20261121T051500-1234/search/         (... its search index ...)
      builds/20261121T051500-1234/manifest.json   (... and the size and sha256 of every file)
      builds/20261121T052000-1301.partial/       (a build in progress, or one that died)
      build.lock

A build writes a new generation aside and publishes it by replacing the ``current`` symlink
with ``os.replace``, which is atomic: a reader resolves ``current`` once and sees a whole
generation, old or new, never a mix. A build that fails or is killed leaves ``current``
untouched. The previous generation is kept so a reader that resolved ``current`` just before a
swap can still open its files; older ones are removed. Generations share the files that did
not change (hard links), so keeping two costs little disk.

The manifest records what each file must be. Readers check sizes when they open a generation
(a truncated or deleted file is found at once, for the cost of a ``stat``); a build checks the
checksums of the generation it would reuse anything from, and ``kb doctor`` checks everything.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from kb.errors import KbError

STORE_FILE = "kb.sqlite"
MANIFEST_FILE = "manifest.json"
REPAIR = "run 'kb build' to rebuild it"


class BuildLockedError(KbError):
    """Another build holds the lock on this index folder."""


class CorruptIndexError(KbError):
    """A file of the published generation is missing, truncated or altered."""


class IndexDir:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.builds = root / "builds"
        self.pointer = root / "current"

    def current(self) -> Path | None:
        """The folder of the published generation, or None before the first build (or when
        ``current`` points nowhere usable: a loop, a missing folder)."""
        try:
            target = os.readlink(self.pointer)
            path = (self.root / target).resolve(strict=True)
        except (OSError, RuntimeError):  # RuntimeError: a symlink loop on older Pythons
            return None
        return path if path.is_dir() else None

    def current_store(self) -> Path | None:
        folder = self.current()
        return folder / STORE_FILE if folder and (folder / STORE_FILE).exists() else None

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the build lock; raise :class:`BuildLockedError` at once if another holds it.
        ``filelock`` is an OS lock on every platform (released when the process dies)."""
        self.root.mkdir(parents=True, exist_ok=True)
        lock = FileLock(self.root / "build.lock", timeout=0)
        try:
            lock.acquire()
        except Timeout as exc:
            raise BuildLockedError(
                f"another kb build is running on {self.root} (lock: build.lock); "
                "wait for it to finish"
            ) from exc
        try:
            yield
        finally:
            lock.release()

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
        ``staging`` the current generation, atomically, and prune old ones."""
        previous = self.current()
        write_manifest(staging, inputs, previous)
        final = staging.with_name(staging.name.removesuffix(".partial"))
        staging.rename(final)
        link_tmp = self.root / f".current-{os.getpid()}"
        if link_tmp.is_symlink() or link_tmp.exists():
            link_tmp.unlink()
        link_tmp.symlink_to(final.relative_to(self.root))
        os.replace(link_tmp, self.pointer)
        keep = {final.name, previous.name if previous else ""}
        for old in self.builds.iterdir():
            if old.name not in keep and not old.name.endswith(".partial"):
                shutil.rmtree(old, ignore_errors=True)
        return final


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
    """The generation's manifest; None when it has none or it cannot be read."""
    try:
        data = json.loads((generation / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("files"), dict) else None


def verify(generation: Path, *, checksums: bool = True) -> list[str]:
    """What is wrong with a generation's files, one line each (empty: all good).

    Without ``checksums`` only presence and sizes are checked: enough to catch a deleted or
    truncated file for the price of a ``stat`` each, which every reader can afford.
    """
    manifest = read_manifest(generation)
    if manifest is None:
        return [f"{generation / MANIFEST_FILE}: missing or unreadable"]
    problems = []
    for name, (size, digest) in sorted(manifest["files"].items()):
        path = generation / name
        try:
            actual = path.stat().st_size
        except OSError:
            problems.append(f"{path}: missing")
            continue
        if actual != size:
            problems.append(f"{path}: {actual} bytes, {size} when built (truncated or altered)")
        elif checksums and _sha256(path) != digest:
            problems.append(f"{path}: checksum differs from when it was built (altered)")
    return problems


def check_serving(generation: Path) -> None:
    """Raise :class:`CorruptIndexError` when a file of ``generation`` is missing or has the
    wrong size: the cheap check every reader makes before answering."""
    problems = verify(generation, checksums=False)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise CorruptIndexError(f"the index is damaged: {problems[0]}{more}; {REPAIR}")


def damage_of(root: Path) -> str | None:
    """After an unexpected error: the one-line reason when the published generation fails its
    checksums (a flipped byte in a search segment makes Whoosh fail in any of a dozen ways)."""
    generation = IndexDir(root).current()
    problems = verify(generation) if generation is not None else []
    if not problems:
        return None
    return f"the index is damaged: {problems[0]}; {REPAIR}"
