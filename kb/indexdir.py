"""The index folder: built generations, the pointer to the current one, and the build lock.

::

    indexes/
      current -> builds/20261121T051500-1234     (a symlink, swapped atomically)
      builds/20261121T051500-1234/kb.sqlite       (one generation: the store, later the index)
      builds/20261121T052000-1301.partial/       (a build in progress, or one that died)
      build.lock

A build writes a new generation aside and publishes it by replacing the ``current`` symlink
with ``os.replace``, which is atomic: a reader resolves ``current`` once and sees a whole
generation, old or new, never a mix. A build that fails or is killed leaves ``current``
untouched. The previous generation is kept so a reader that resolved ``current`` just before a
swap can still open its files; older ones are removed.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kb.errors import KbError

STORE_FILE = "kb.sqlite"


class BuildLockedError(KbError):
    """Another build holds the lock on this index folder."""


class IndexDir:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.builds = root / "builds"
        self.pointer = root / "current"

    def current(self) -> Path | None:
        """The folder of the published generation, or None before the first build."""
        try:
            target = os.readlink(self.pointer)
        except OSError:
            return None
        path = (self.root / target).resolve()
        return path if path.is_dir() else None

    def current_store(self) -> Path | None:
        folder = self.current()
        return folder / STORE_FILE if folder and (folder / STORE_FILE).exists() else None

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the build lock; raise :class:`BuildLockedError` at once if another holds it."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / "build.lock", "w") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError as exc:
                raise BuildLockedError(
                    f"another kb build is running on {self.root} (lock: build.lock); "
                    "wait for it to finish"
                ) from exc
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def new_generation(self) -> Path:
        """A fresh staging folder. Call with the lock held."""
        self.builds.mkdir(parents=True, exist_ok=True)
        for stale in self.builds.glob("*.partial"):
            shutil.rmtree(stale, ignore_errors=True)
        name = time.strftime("%Y%m%dT%H%M%S") + f"-{os.getpid()}-{time.monotonic_ns() % 10**6}"
        staging = self.builds / f"{name}.partial"
        staging.mkdir()
        return staging

    def publish(self, staging: Path) -> Path:
        """Make ``staging`` the current generation, atomically, and prune old ones."""
        final = staging.with_name(staging.name.removesuffix(".partial"))
        staging.rename(final)
        previous = self.current()
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
