"""Each text of the rules versions indexed once, however many versions repeat it.

A hundred Comprehensive Rules versions repeat most rules word for word: 223,000 rule records
hold 11,700 distinct texts. The versioned documents (:data:`VERSIONED_FORMATS`: the English
rules, examples and glossary entries of a full rules document) of one format form a series, in
version order. A text that a run of consecutive versions holds unchanged (the same kind,
number, title and text) is one document, placed in the segment of the run's *last* version,
with ``crfrom`` the run's first version and ``cr`` its last: searching version V keeps the
documents whose run spans V (``crfrom <= V <= cr``).

So the newest version's segment holds every current text (the default search opens it and not
the hundred others: see :class:`kb.index.searcher.IndexSearcher`), an older version's segment
holds only the texts that changed after it, and the index grows with what changed, not with
the number of versions. A hit is the record of its run's last version; the searcher asks the
store for the same text in the version searched (:meth:`kb.store.Store.same_text_in`).
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass

from kb.index.documents import VERSIONED_FORMATS, VERSIONED_KINDS
from kb.model import Source
from kb.store import Store


@dataclass(frozen=True, slots=True)
class Span:
    """What one versioned source's segment holds: the records indexed there (the last of
    their run), each with the first version of its run."""

    first: dict[str, str]  # record id -> the first version of the run it ends

    @property
    def digest(self) -> str:
        """A fingerprint of the plan: a segment is reused only when its plan is the same."""
        text = "\n".join(f"{rid}\t{v}" for rid, v in sorted(self.first.items()))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def series(sources: list[Source]) -> list[list[Source]]:
    """The versioned sources, one list per format and language, oldest version first. A
    version held twice in one series (the pages of one rules site) is no series: each of its
    sources is indexed whole."""
    by_series: dict[tuple[str, str], list[Source]] = defaultdict(list)
    for source in sources:
        if source.format in VERSIONED_FORMATS and source.version:
            by_series[(source.format, source.language or "")].append(source)
    found = []
    for _, group in sorted(by_series.items()):
        counts = Counter(s.version for s in group)
        found.append(sorted((s for s in group if counts[s.version] == 1),
                            key=lambda s: s.version or ""))
    return [group for group in found if group]


def plan(store: Store) -> dict[str, Span]:
    """The span of every versioned source of ``store``. Two versions' keys are held at a
    time, so memory does not grow with the number of versions."""
    spans: dict[str, Span] = {}
    for group in series(store.sources()):
        current = _keys(store, group[0].id)
        runs = {key: group[0].version or "" for key in current}
        for index, source in enumerate(group):
            later = _keys(store, group[index + 1].id) if index + 1 < len(group) else {}
            first: dict[str, str] = {}
            next_runs: dict[tuple[str, int, int], str] = {}
            for key, record_id in current.items():
                if key in later:
                    next_runs[key] = runs[key]
                else:
                    first[record_id] = runs[key]
            if later:
                version = group[index + 1].version or ""
                runs = {key: next_runs.get(key, version) for key in later}
            spans[source.id] = Span(first)
            current = later
    return spans


def _keys(store: Store, source_id: str) -> dict[tuple[str, int, int], str]:
    """A source's versioned records by what they say: kind, body (number, title and text
    among it), and how many records of the same kind and body came before (two equal
    examples of one rule)."""
    keys: dict[tuple[str, int, int], str] = {}
    for record_id, kind, body in store.bodies(source_id, VERSIONED_KINDS, "en"):
        occurrence = 0
        while (kind, body, occurrence) in keys:
            occurrence += 1
        keys[(kind, body, occurrence)] = record_id
    return keys
