"""Whoosh imported without five modules it imports at its top and kb never calls.

``kb search`` is a command typed by hand: a new process per query, whose time is mostly
imports. Whoosh's own modules import, besides what a search runs, ``urllib.request`` (for a
download helper, :mod:`whoosh.compat`), the ``cached_property`` package (which imports
``asyncio``, for coroutine properties Whoosh has none of) and :mod:`whoosh.lang.morph_en`
(which compiles some hundred regular expressions, for the ``Variations`` query): about 120 ms
of a 350 ms process; and the Porter stemmer and double metaphone of its analysis filters
(a few milliseconds more). While Whoosh is imported (:func:`whoosh_imports`), these modules are
stood in for: the standard library's :func:`functools.cached_property` (the same descriptor:
the value is computed on first access and kept in the instance), and functions that import
the real module on their first call. The stand-ins are removed afterwards, so that any other
code of the process imports the real modules as usual.
"""

from __future__ import annotations

import functools
import importlib
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


def _on_call(module: str, name: str) -> Callable[..., Any]:
    """A function that imports ``module`` when first called and calls its ``name``."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return call


# Module -> the names Whoosh imports from it, as stood in for while Whoosh is imported.
STAND_INS: dict[str, dict[str, Any]] = {
    "urllib.request": {"urlretrieve": _on_call("urllib.request", "urlretrieve")},
    "cached_property": {"cached_property": functools.cached_property},
    "whoosh.lang.morph_en": {"variations": _on_call("whoosh.lang.morph_en", "variations")},
    # The default stemmer of Whoosh's StemFilter and its sound-alike filter: kb stems with
    # its own chain (kb.index.analysis) and its schema holds neither.
    "whoosh.lang.porter": {"stem": _on_call("whoosh.lang.porter", "stem")},
    "whoosh.lang.dmetaphone": {"double_metaphone": _on_call("whoosh.lang.dmetaphone",
                                                            "double_metaphone")},
}


@contextmanager
def whoosh_imports() -> Iterator[None]:
    """Import Whoosh's modules inside this block: the modules of :data:`STAND_INS` that the
    process has not imported yet are stood in for, and only inside the block."""
    placed = {}
    for name, attributes in STAND_INS.items():
        if name not in sys.modules:
            module = types.ModuleType(name, "kb's stand-in while Whoosh is imported")
            module.__dict__.update(attributes)
            placed[name] = sys.modules[name] = module
    try:
        yield
    finally:
        for name, module in placed.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
