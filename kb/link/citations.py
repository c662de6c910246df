"""Find the rule citations written inside a text.

"See rule 704", "rules 601.2a-h", "(see rule 709.4)", "rules 103.4 and 103.5",
"rules 702.45–702.47", "section 6", and their French ("voir règle 708", "cf. règle 110.5",
"règles 601.2a–h") and Portuguese ("regra 702.19") forms. Each number or range becomes one
:class:`~kb.model.Citation` whose ``written`` field keeps the words of the text.

A citation needs its leading word (rule, section, règle, ...): a bare number such as "20 life"
or "2.5" is never mistaken for a rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kb.model import Citation
from kb.rulenum import RuleNumberError, RuleRange

_LEAD = r"\b(?P<lead>rules?|sections?|r[èe]gles?|regras?|se[çc][ãa]o|se[çc][õo]es)\s+"
_NUM = r"\d{3}(?:\.\d{1,3}[a-z]{0,2})?(?![\d.]\d)"
_TAIL = rf"(?:\s?[-–—]\s?(?:{_NUM}|\d{{1,3}}[a-z]{{0,2}}|[a-z]{{1,2}})\b|\s+through\s+{_NUM})?"
_ITEM = rf"(?:{_NUM}{_TAIL})"
_SECTION = r"[1-9](?![\d.]\d)"
_SEP = r"(?:,\s*(?:and\s+|or\s+|et\s+|ou\s+|e\s+)?|\s+(?:and|or|et|ou|e)\s+)"
_CITATION = re.compile(
    rf"{_LEAD}(?P<items>(?:{_ITEM}|{_SECTION})(?:{_SEP}{_ITEM})*)", re.IGNORECASE
)
_ITEM_RE = re.compile(rf"{_ITEM}|{_SECTION}")


def find_citations(record_id: str, text: str) -> tuple[Citation, ...]:
    """All citations in ``text``, in reading order, attributed to ``record_id``."""
    return tuple(_iter_citations(record_id, text))


def _iter_citations(record_id: str, text: str) -> Iterator[Citation]:
    for m in _CITATION.finditer(text):
        lead = m["lead"]
        items = list(_ITEM_RE.finditer(m["items"]))
        for i, item in enumerate(items):
            try:
                rng = RuleRange.parse(item.group(0))
            except RuleNumberError:
                continue
            # The first item keeps its leading word ("rule 704"); later ones stand alone.
            written = f"{lead} {item.group(0)}" if i == 0 else item.group(0)
            yield Citation(record_id, written, str(rng.first), str(rng.last))
