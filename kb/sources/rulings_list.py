"""A list of dated card rulings from a French site, one ruling after each date line.

The page reads::

    Clarifications officielles de Wizards of the Coast. La traduction FR ci-dessous est ...
    14 avril 2023 · source : wotc
    If the copied permanent is a token, the token that's created copies ...
    14 avril 2023 · source : wotc
    A battle's "defense" is displayed in the bottom right corner of the card. ...

The first paragraph is the page's introduction (a :class:`Passage`). Each header line (a French
date, "·", "source :" and who issued the ruling) opens a :class:`Ruling` whose text is every
line up to the next header. The header promises a French machine translation, but the rulings
printed are the English originals: the language of each ruling is decided from its own text
(:func:`kb.text.language.detect`), never from the header.

The page does not name the card a ruling is about, except where the ruling itself names it
("Awaken the Maelstrom has two targets ..."): ``card`` is set from a Title Case name in the
text, ``mechanic`` from the rules vocabulary the ruling uses (:data:`MECHANICS`, first match
wins, so a ruling about copying a Siege is about battles); the other rulings' card is then
inferred from those two (:func:`infer_cards`, flagged ``card_inferred``). A header with no
text after it is kept as a Fragment.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date

from msgspec import structs

from kb.link.citations import find_citations
from kb.model import Fragment, Loc, ParseResult, Passage, Record, Ruling
from kb.sources.ids import UniqueIds
from kb.text.language import detect

FORMAT = "rulings_list"

FRENCH_MONTHS: dict[str, int] = {
    "janvier": 1, "février": 2, "fevrier": 2, "mars": 3, "avril": 4, "mai": 5, "juin": 6,
    "juillet": 7, "août": 8, "aout": 8, "septembre": 9, "octobre": 10, "novembre": 11,
    "décembre": 12, "decembre": 12,
}  # fmt: skip
# Mechanic name -> the words that show a ruling is about it; the first that matches wins.
MECHANICS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("battle", re.compile(r"\b(?:battles?|sieges?|defense counters?|protector)\b", re.I)),
    ("copy", re.compile(r"\bcop(?:y|ies|ied|ying)\b", re.I)),
    ("cast without paying mana cost", re.compile(r"\bwithout paying (?:its|their) mana cost")),
)

_HEADER = re.compile(
    r"^(?P<day>\d{1,2})(?:er)?\s+(?P<month>[^\W\d_]+)\s+(?P<year>\d{4})"
    r"\s*·\s*source\s*:\s*(?P<source>\S.*?)\s*$",
    re.IGNORECASE,
)
_NAME_WORD = r"[A-Z][\w-]*(?:['’]s)?"
_NAME_RUN = re.compile(rf"{_NAME_WORD}(?:\s+(?:(?:of|the)\s+)?{_NAME_WORD})+")
_NOT_NAME_START = {"A", "An", "The", "For", "If", "As", "In", "When", "Only", "Any", "This"}


def sniff(text: str) -> bool:
    """True for a rulings list: at least one French-dated "· source :" header line."""
    return any(_header(line) for line in text.split("\n"))


def _header(line: str) -> re.Match[str] | None:
    m = _HEADER.match(line.strip())
    return m if m and m["month"].lower() in FRENCH_MONTHS else None


def header_date(m: re.Match[str]) -> str | None:
    """The ISO date of a header, or None when the day does not exist (31 février)."""
    try:
        day = date(int(m["year"]), FRENCH_MONTHS[m["month"].lower()], int(m["day"]))
    except ValueError:
        return None
    return day.isoformat()


def mechanic_of(text: str) -> str | None:
    return next((name for name, pattern in MECHANICS if pattern.search(text)), None)


def card_of(text: str) -> str | None:
    """A card name the ruling writes: a run of capitalized words ("Invasion of Alara's")."""
    for m in _NAME_RUN.finditer(text):
        words = m.group(0).split()
        while words and words[0] in _NOT_NAME_START:
            words = words[1:]
        if len(words) >= 2:
            return re.sub(r"['’]s$", "", " ".join(words))
    return None


def source_id_for(file: str) -> str:
    """``rulings:004`` for ``004_a6e7784aa109b725.txt``: the corpus number of the file."""
    stem = file.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    m = re.match(r"(\d+)_", stem)
    return f"rulings:{m[1] if m else re.sub(r'[^0-9a-z]+', '-', stem.lower()).strip('-')}"


def parse(text: str, file: str) -> ParseResult:
    """Parse a rulings list (already decoded, ``\\n`` line ends)."""
    source_id = source_id_for(file)
    parser = _Parser(source_id, file, text.split("\n"))
    records = list(parser.run())
    rulings = [r for r in records if isinstance(r, Ruling)]
    dates = [r.date for r in rulings if r.date]
    languages = Counter(r.language for r in rulings if r.language != "und")
    language = languages.most_common(1)[0][0] if languages else None
    if language:  # a ruling too short to tell ("X is 0.") takes the page's language
        records = [
            structs.replace(r, language=language)
            if isinstance(r, Ruling) and r.language == "und" else r
            for r in records
        ]
    records = infer_cards(records)
    return ParseResult(
        FORMAT, language, max(dates) if dates else None, tuple(records), source_id=source_id
    )


def infer_cards(records: list[Record]) -> list[Record]:
    """Give every unnamed ruling the card it is about, from the rulings that name one.

    A named card claims the mechanic of the ruling that names it (Awaken the Maelstrom's
    ruling is about copies, so every copy ruling is about it). A named card whose ruling has no
    mechanic (Invasion of Alara's) takes every mechanic no other card claimed, and the rulings
    with none. With no named card, or two cards claiming one mechanic, nothing is inferred.
    """
    named = [r for r in records if isinstance(r, Ruling) and r.card]
    claims: dict[str | None, set[str]] = {}
    for ruling in named:
        claims.setdefault(ruling.mechanic, set()).add(ruling.card or "")
    if not named or any(len(cards) > 1 for cards in claims.values()):
        return records
    owner = {mechanic: next(iter(cards)) for mechanic, cards in claims.items()}
    fallback = owner.get(None)
    out: list[Record] = []
    for r in records:
        if isinstance(r, Ruling) and not r.card:
            card = owner.get(r.mechanic, fallback)
            if card:
                r = structs.replace(r, card=card, card_inferred=True)
        out.append(r)
    return out


@dataclass
class _Parser:
    source_id: str
    file: str
    lines: list[str]
    unique: UniqueIds = field(default_factory=UniqueIds)
    ordinal: int = 0


    def fragment(self, index: int, reason: str) -> Fragment:
        return self.unique.unparsed(self.source_id, Loc(self.file, index + 1), self.lines[index],
                                    reason)

    def run(self) -> Iterator[Record]:
        headers = [(i, m) for i, line in enumerate(self.lines) if (m := _header(line))]
        first = headers[0][0] if headers else len(self.lines)
        intro = self.block(0, first)
        if intro:
            yield self.introduction(intro, [m for _, m in headers])
        for n, (start, m) in enumerate(headers):
            stop = headers[n + 1][0] if n + 1 < len(headers) else len(self.lines)
            yield from self.ruling(start, m, self.block(start + 1, stop))

    def block(self, start: int, stop: int) -> list[int]:
        return [i for i in range(start, stop) if self.lines[i].strip()]

    def introduction(self, indexes: list[int], headers: list[re.Match[str]]) -> Passage:
        text = "\n".join(self.lines[i] for i in indexes)
        known = [d for m in headers if (d := header_date(m))]
        return Passage(
            self.unique(f"{self.source_id}:introduction"),
            "introduction",
            text,
            detect(text),
            max(known) if known else "unknown",
            Loc(self.file, indexes[0] + 1),
        )

    def ruling(self, header: int, m: re.Match[str], body: list[int]) -> Iterator[Record]:
        """The ruling a header opens; its Loc is the header's line, where the block starts."""
        if not body:
            yield self.fragment(header, "ruling header with no text")
            return
        day = header_date(m)
        if day is None:
            yield self.fragment(header, "ruling header with an impossible date")
        self.ordinal += 1
        text = "\n".join(self.lines[i] for i in body)
        rid = self.unique(f"{self.source_id}:{self.ordinal}")
        yield Ruling(
            rid,
            text,
            detect(text),
            Loc(self.file, header + 1),
            card=card_of(text),
            ordinal=self.ordinal,
            date=day,
            mechanic=mechanic_of(text),
            source_name=m["source"],
            citations=find_citations(rid, text),
        )
