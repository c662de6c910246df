"""Which records of an index are worked examples (see :mod:`kb.check`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kb.store import Store


@dataclass(frozen=True)
class Example:
    """A worked example as stored: what the check reports about it."""

    id: str
    kind: str
    source: str
    language: str | None
    text: str


_SELECTION = """
SELECT r.id, r.kind, s.file, r.language, json_extract(b.data, '$.text') AS text
FROM records r JOIN sources s ON s.id = r.source_id JOIN bodies b ON b.hash = r.body
WHERE r.kind = 'example'
   OR (r.kind IN ('ruling', 'note') AND (
        text LIKE '%for example%' OR text LIKE '%par exemple%'
        OR text LIKE '%par un exemple%' OR text LIKE '%for instance%'
        OR text LIKE '%e.g.%'
        OR (r.kind = 'note' AND json_array_length(json_extract(b.data, '$.claims')) > 0)
        OR (r.kind = 'ruling' AND json_extract(b.data, '$.mechanic') IS NOT NULL)))
ORDER BY r.source_id, r.seq
"""


def select_examples(store: Store, named: Iterable[str] = ()) -> dict[str, Example]:
    """The worked examples of the index (see the module docstring), by id. Reads the store
    with SQL of its own (a query the store does not offer yet)."""
    found = {row[0]: Example(*row) for row in store.conn.execute(_SELECTION)}
    found.update(records_by_id(store, [i for i in named if i not in found]))
    return found


def records_by_id(store: Store, wanted: Iterable[str]) -> dict[str, Example]:
    """The records of these ids that the index holds, as examples (a scenario names them)."""
    wanted = list(wanted)
    found: dict[str, Example] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        marks = ",".join("?" * len(chunk))
        for row in store.conn.execute(
                "SELECT r.id, r.kind, s.file, r.language, json_extract(b.data, '$.text')"
                " FROM records r JOIN sources s ON s.id = r.source_id"
                f" JOIN bodies b ON b.hash = r.body WHERE r.id IN ({marks})", chunk):
            found[row[0]] = Example(*row)
    return found
