"""Readers of the current index generation, one per worker thread, that follow ``kb build``.

A SQLite connection belongs to the thread that opened it, and a Whoosh searcher is not meant to
be shared either, so each worker thread of the server keeps its own
:class:`~kb.search.Searcher`. Before every call the thread reads the ``current`` symlink (one
``readlink``): when a build has published a new generation, the thread opens that one and
closes its old reader, which no other thread uses. A request therefore sees one whole
generation, old or new, and readers move to the new index without an error or a restart.

What is costly and depends only on the generation (``kb check``'s statuses, the consistency
report, the suggestion list, rendered pages) is computed once per generation and kept in a
:class:`GenerationCache` shared by the threads. A rendered answer depends on the interface
language too (:mod:`kb.i18n`): the cache keys every answer on the language it was made in, and
a worker thread runs in a copy of the request's context, so it speaks the request's language.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from kb import i18n
from kb.search import Searcher

T = TypeVar("T")

# Rendered responses kept per generation: a rule page is a few kilobytes.
RESPONSES_KEPT = 2000
# Answers that take tens of milliseconds to seconds (a rule page follows the rule through
# every version; the report and the check run once per generation): their own threads.
SLOW = frozenset({"rule", "rules", "history", "diff", "report", "check"})


class GenerationCache:
    """Values computed once per generation (``compute`` runs once per key even when several
    threads ask at the same time), and a bounded LRU of rendered responses."""

    def __init__(self, generation: Path, responses_kept: int = RESPONSES_KEPT) -> None:
        self.generation = generation
        self.responses_kept = responses_kept
        self._values: dict[Hashable, Any] = {}
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()
        self._responses: OrderedDict[Hashable, Any] = OrderedDict()

    def value(self, key: Hashable, compute: Callable[[], T]) -> T:
        if key in self._values:
            return self._values[key]
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._values:
                self._values[key] = compute()
        return self._values[key]

    def kept(self, key: Hashable) -> Any | None:
        """A rendered answer already made in the current language, or None."""
        key = (i18n.current(), key)
        with self._guard:
            found = self._responses.get(key)
            if found is not None:
                self._responses.move_to_end(key)
            return found

    def response(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The answer ``compute`` makes, kept under ``key`` in the current language."""
        if not self.responses_kept:
            return compute()
        key = (i18n.current(), key)
        with self._guard:
            if key in self._responses:
                self._responses.move_to_end(key)
                return self._responses[key]
        made = compute()
        with self._guard:
            self._responses[key] = made
            while len(self._responses) > self.responses_kept:
                self._responses.popitem(last=False)
        return made


class Reader:
    """What a request works with: the searcher (and its knowledge base) of one generation, and
    that generation's shared cache."""

    def __init__(self, searcher: Searcher, cache: GenerationCache) -> None:
        self.searcher = searcher
        self.kb = searcher.kb
        self.cache = cache

    @property
    def generation(self) -> str:
        return self.kb.generation.name


class Readers:
    """A small pool of worker threads, each with its reader of the current generation."""

    def __init__(self, index_root: Path, threads: int = 3,
                 responses_kept: int = RESPONSES_KEPT) -> None:
        self.index_root = index_root
        self.responses_kept = responses_kept
        self._pointer = index_root / "current"
        # Two pools: quick answers (a search, a card) never queue behind slow ones.
        self._pools = {slow: ThreadPoolExecutor(max_workers=threads,
                                                thread_name_prefix=f"kb-reader-{slow}")
                       for slow in (False, True)}
        self._local = threading.local()
        self._caches: dict[Path, GenerationCache] = {}
        self._guard = threading.Lock()

    async def run(self, kind: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(reader, *args)`` on a worker thread, with a reader of the current generation;
        ``kind`` names the answer (``rule``, ``search`` ...) to choose the thread pool."""
        loop = asyncio.get_running_loop()
        # run_in_executor does not carry the request's context (its language) to the thread.
        call = functools.partial(contextvars.copy_context().run, self.call, fn, *args)
        return await loop.run_in_executor(self._pools[kind in SLOW], call)

    def kept(self, key: Hashable) -> Any | None:
        """The answer kept under ``key`` for the current generation, looked up without a
        worker thread: a page already made never waits behind pages being made."""
        try:
            name = Path(os.readlink(self._pointer)).name
        except OSError:
            return None
        with self._guard:
            cache = next((c for g, c in self._caches.items() if g.name == name), None)
        return cache.kept(key) if cache is not None else None

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        return fn(self._reader(), *args)

    def close(self) -> None:
        for pool in self._pools.values():
            pool.shutdown(wait=True, cancel_futures=True)

    def _reader(self) -> Reader:
        mine: Reader | None = getattr(self._local, "reader", None)
        try:
            target = os.readlink(self._pointer)
        except OSError:
            target = None
        if mine is not None and getattr(self._local, "target", None) == target:
            return mine
        fresh = Searcher(self.index_root)  # raises kb.errors.NoIndexError when there is none
        if mine is not None:
            mine.searcher.close()
        reader = Reader(fresh, self._cache(fresh.kb.generation))
        self._local.reader, self._local.target = reader, target
        return reader

    def _cache(self, generation: Path) -> GenerationCache:
        with self._guard:
            cache = self._caches.get(generation)
            if cache is None:
                cache = GenerationCache(generation, self.responses_kept)
                # Keep the caches of the two newest generations (a request that began on the
                # previous one may still finish there).
                self._caches = {g: c for g, c in self._caches.items() if g.exists()}
                self._caches[generation] = cache
            return cache

