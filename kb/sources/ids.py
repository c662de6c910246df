"""Record ids for one document: readable, stable, and unique within it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.model import Fragment, Loc


@dataclass
class UniqueIds:
    """Hands out ids as asked, except that a repeat gets a suffix: ``606``, ``606~2``.

    Documents do repeat themselves (rule 606 appears twice in the 2006 CR; a FAQ can list a
    card twice); suffixing keeps both records and keeps ids stable across rebuilds.
    """

    seen: set[str] = field(default_factory=set)

    def __call__(self, rid: str) -> str:
        candidate, n = rid, 1
        while candidate in self.seen:
            n += 1
            candidate = f"{rid}~{n}"
        self.seen.add(candidate)
        return candidate

    def unparsed(self, prefix: str, loc: Loc, text: str, reason: str) -> Fragment:
        """A fragment of text the parser could not place, id ``<prefix>:unparsed/L<line>``."""
        return Fragment(self(f"{prefix}:unparsed/L{loc.line}"), text, reason, loc)


def slug(text: str) -> str:
    """An id segment from a title or name: lowercase words joined by ``-``, accents and
    ligatures kept (``Ætherlin`` -> ``ætherlin``, ``Conseil de l'Absolu`` ->
    ``conseil-de-l-absolu``)."""
    return re.sub(r"[\W_]+", "-", text.lower()).strip("-") or "x"
