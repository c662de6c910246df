"""Records to plain dicts and back, for the store and for ``kb export``.

The dict form is JSON-ready and reversible: ``from_dict(kind, to_dict(r)) == r``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from msgspec import Struct
from msgspec.structs import asdict as struct_fields

from kb.model import RECORD_KINDS, CardFace, Citation, Loc, Record, Source, kind_of

_CLASSES = {kind: cls for cls, kind in RECORD_KINDS.items()}


def to_dict(record: Record | Source) -> dict[str, Any]:
    """The record's fields by name, the records inside it (its ``loc``, citations, faces) as
    dicts too, and tuples kept (``from_dict`` gives the same record back)."""
    return _plain(record)


def _plain(value: Any) -> Any:
    if isinstance(value, Struct):
        return {f: _plain(getattr(value, f)) for f in value.__struct_fields__}
    if isinstance(value, list | tuple):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def from_dict(kind: str, data: dict[str, Any]) -> Record:
    cls = _CLASSES[kind]
    return cls(**{name: _revive(name, data[name]) for name in cls.__struct_fields__
                  if name in data})


def _revive(name: str, value: Any) -> Any:
    if name == "loc":
        return Loc(**value)
    if name == "citations":
        return tuple(Citation(**c) for c in value)
    if name == "faces":
        return tuple(CardFace(**f) for f in value)
    if isinstance(value, list):
        return tuple(_revive("", v) for v in value)
    return value


def jsonable(value: Any) -> Any:
    """The ``default`` of :func:`json.dumps` for kb's values: a record or other
    :class:`msgspec.Struct`, or a dataclass, as its fields by name (``json.dumps`` comes back
    here for the values inside)."""
    if isinstance(value, Struct):
        return struct_fields(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    raise TypeError(f"not JSON serializable: {type(value).__name__}")


__all__ = ["from_dict", "jsonable", "kind_of", "to_dict"]
