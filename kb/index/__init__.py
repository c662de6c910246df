"""The full-text index: the only part of kb that imports Whoosh.

``writer`` makes a generation's ``search/`` folder from its store (incrementally when it can),
``searcher`` answers parsed queries over it without importing the writer (``files`` names the
files they share); ``analysis`` is the French and English chain both use, ``documents`` what a
record becomes in the index. Whoosh is first imported here, without the modules of its own kb
never calls (:mod:`kb.index.loading`).
"""

from kb.index.loading import whoosh_imports

with whoosh_imports():
    from kb.index.searcher import IndexSearcher

__all__ = ["IndexSearcher"]
