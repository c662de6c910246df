"""A Crystal Keep page (crystalkeep.com, saved as text): the rules insert of an old expansion.

The seed is "Additional Rules for Urza's Saga", the exact text of the 1998 Urza's Saga rulebook
insert: site navigation, then the page title, then sections (Cycling, Echo, Trample ...), each a
heading line followed by paragraphs, one per line::

    The Gaming Resource Library                      <- site chrome (boilerplate)
    Go To: Home Page - Magic - Rules - Urza's Saga Rules
    Additional Rules for Urza's Saga                 <- title, a heading
    Echo                                             <- heading: short, no final punctuation
    Echo is a new ability that spreads ...           <- paragraph -> Note(topic="Echo")
    Example: Opal Gargoyle is a white enchantment that reads:
        When one of your opponents ...               <- indented: the quoted card text
      • If the attacker is unblocked, ...            <- bullet -> Note (marker dropped)
    Copyright 1994-2008, Crystal Keep (The Fine Print)   <- site chrome (boilerplate)

Examples become :class:`Example` records whose ``rule`` is the section heading ("Echo"): the
1998 rulebook has no rule numbers, and the section is to these examples what a numbered rule is
to a Comprehensive Rules example (same ``.../ex1`` ids, same ordinals per section). The linker
must therefore not expect a number there (``RuleNumber.try_parse`` gives None). The indented
card text an example quotes stays in the example's text, indented as on the page, after the
example's first line; the card is also recorded as a :class:`Card` with that text. Other
cards named in the page (Title Case names such as "Control Magic") become :class:`Card`
records with a name only, so that examples and notes can be linked to card data.

Headings are kept as the ``topic`` of the records under them (the page has no numbering that
would tell sections from subsections, so topics are flat); a heading with nothing under it
is kept as a Fragment. The page states no date: its version is the release date of the set it
describes (:data:`SET_RELEASES`; Urza's Saga: 1998-10-12, as MTGJSON gives it), and the
site's copyright line (1994-2008) is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from kb.link.citations import find_citations
from kb.model import Card, CardFace, Example, Fragment, Loc, Note, ParseResult, Record
from kb.sources.ids import UniqueIds, slug
from kb.text.language import detect

FORMAT = "crystal_keep"

SET_RELEASES: dict[str, str] = {"Urza's Saga": "1998-10-12"}
# Site chrome the parser strips: every page of the site starts and ends with these lines.
BOILERPLATE: tuple[re.Pattern[str], ...] = (
    re.compile(r"^The Gaming Resource Library$"),
    re.compile(r"^Go To: Home Page\b.*$"),
    re.compile(r"^Copyright \d{4}-\d{4}, Crystal Keep\b.*$"),
)

_EXAMPLE = re.compile(r"^Example\b")
_BULLET = re.compile(r"^[•*-]\s+")
_HEADING_END = re.compile(r"[.:;,!?]$")
_SUBJECT = re.compile(r"^Example:\s*(?P<name>.+?) is an? (?P<desc>[^,.]*?) that ")
_TYPES = ("enchantment", "instant", "sorcery", "creature", "artifact", "land")
_NAME_WORD = r"[A-Z][\w'’-]*"
_NAME_RUN = re.compile(rf"{_NAME_WORD}(?:(?::?\s+|\s+(?:of|the)\s+){_NAME_WORD})+")
_NOT_NAME_START = {"Example", "You", "If", "When", "The", "In", "A", "An"}


def sniff(text: str) -> bool:
    """True for a Crystal Keep page: the site's navigation line or its copyright line."""
    return bool(
        re.search(r"^Go To: Home Page - Magic\b", text[:3000], re.MULTILINE)
        or re.search(r"^Copyright \d{4}-\d{4}, Crystal Keep\b", text, re.MULTILINE)
    )


def is_boilerplate(line: str) -> bool:
    return any(p.match(line.strip()) for p in BOILERPLATE)


def parse(text: str, file: str) -> ParseResult:
    """Parse a Crystal Keep page (already decoded, ``\\n`` line ends)."""
    lines = text.split("\n")
    title = _title(lines)
    set_name = next((name for name in SET_RELEASES if title and name in title), None)
    version = SET_RELEASES.get(set_name or "", "unknown")
    source_id = f"crystalkeep:{slug(set_name or title or file.rsplit('.', 1)[0])}"
    parser = _Parser(source_id, file, version, lines)
    records = list(parser.run())
    records.extend(parser.cards(records))
    known_version = None if version == "unknown" else version
    return ParseResult(
        FORMAT, "en", known_version, tuple(records), title=title, source_id=source_id
    )


def _is_heading(lines: list[str], index: int) -> bool:
    """A heading is a short unindented line without final punctuation, alone in its block."""
    raw = lines[index]
    line = raw.strip()
    if not line or raw[:1].isspace() or _EXAMPLE.match(line) or is_boilerplate(line):
        return False
    if len(line) > 60 or _HEADING_END.search(line.rstrip("\"”')")):
        return False
    following = lines[index + 1] if index + 1 < len(lines) else ""
    return not following.strip()


def _title(lines: list[str]) -> str | None:
    return next((ln.strip() for i, ln in enumerate(lines) if _is_heading(lines, i)), None)


@dataclass
class _Parser:
    source_id: str
    file: str
    version: str
    lines: list[str]
    unique: UniqueIds = field(default_factory=UniqueIds)
    counts: dict[str, int] = field(default_factory=dict)


    def loc(self, index: int) -> Loc:
        return Loc(self.file, index + 1)

    def fragment(self, index: int, reason: str, text: str | None = None) -> Fragment:
        return self.unique.unparsed(self.source_id, self.loc(index),
                                    text or self.lines[index].strip(), reason)

    def next_ordinal(self, key: str) -> int:
        self.counts[key] = self.counts.get(key, 0) + 1
        return self.counts[key]

    def run(self) -> Iterator[Record]:
        topic: str | None = None
        heading: int | None = None  # a heading line with nothing under it yet
        example: list[int] = []  # line indexes of the example being read
        quoting = False  # the example announced card text ("... that reads:")
        for i, raw in enumerate(self.lines):
            line = raw.strip()
            if not line or is_boilerplate(line):
                continue
            indented = raw[:1].isspace() and not _BULLET.match(line)
            if example and indented and quoting:
                example.append(i)
                continue
            if example:
                yield self.example(example, topic)
                example, quoting = [], False
            if _is_heading(self.lines, i):
                if heading is not None:
                    yield self.fragment(heading, "heading with no text under it")
                topic, heading = line, i
                continue
            heading = None
            if _EXAMPLE.match(line):
                example, quoting = [i], line.endswith(":")
            else:
                yield self.note(i, topic)
        if example:
            yield self.example(example, topic)
        if heading is not None:
            yield self.fragment(heading, "heading with no text under it")

    def note(self, index: int, topic: str | None) -> Note:
        text = _BULLET.sub("", self.lines[index].strip())
        ordinal = self.next_ordinal(f"note:{topic}")
        rid = self.unique(f"{self.source_id}:{slug(topic or 'page')}/{ordinal}")
        language = detect(text)
        return Note(
            rid,
            text,
            "en" if language == "und" else language,
            self.loc(index),
            topic=topic,
            citations=find_citations(rid, text),
        )

    def example(self, indexes: list[int], topic: str | None) -> Record:
        first = self.lines[indexes[0]].strip()
        text = "\n".join([first, *(self.lines[i].rstrip() for i in indexes[1:])])
        if topic is None:
            return self.fragment(indexes[0], "example outside any section", text)
        ordinal = self.next_ordinal(f"example:{topic}")
        rid = self.unique(f"{self.source_id}:{slug(topic)}/ex{ordinal}")
        return Example(
            rid,
            topic,
            ordinal,
            text,
            "en",
            self.version,
            self.loc(indexes[0]),
            citations=find_citations(rid, text),
        )

    # -- cards -----------------------------------------------------------------------------

    def cards(self, records: list[Record]) -> Iterator[Card]:
        """One Card per card named on the page: example subjects (with the card text they
        quote) first, then the other Title Case names, in order of first mention."""
        headings = " ".join(
            (r.topic or "") if isinstance(r, Note) else r.rule
            for r in records
            if isinstance(r, Note | Example)
        )
        faces: dict[str, CardFace] = {}
        for record in records:
            if isinstance(record, Example):
                face = _quoted_face(record.text)
                if face is not None:
                    faces.setdefault(face.name, face)
        first_seen: dict[str, int] = {}
        for record in records:
            if isinstance(record, Example | Note):
                for name in _names_in(record.text, faces):
                    if name not in headings:
                        first_seen.setdefault(name, record.loc.line)
        for name, line in first_seen.items():
            face = faces.get(name)
            yield Card(
                self.unique(f"{self.source_id}:card/{slug(name)}"),
                name,
                "en",
                Loc(self.file, line),
                faces=(face,) if face and face.text else (),
            )


def _quoted_face(text: str) -> CardFace | None:
    """The card an example is about ("Example: Torch Song is a red enchantment that reads:")
    and the card text it quotes on the indented lines that follow."""
    first, *quoted = text.split("\n")
    m = _SUBJECT.match(first)
    if not m:
        return None
    kind = m["desc"].split()[-1].lower() if m["desc"].split() else ""
    card_text = "\n".join(line.strip() for line in quoted) or None
    return CardFace(
        m["name"],
        type_line=kind.capitalize() if kind in _TYPES else None,
        text=card_text,
    )


def _names_in(text: str, known: dict[str, CardFace]) -> Iterator[str]:
    body = re.sub(r"^Example:\s*", "", text)
    for m in _NAME_RUN.finditer(body):
        words = m.group(0).split(" ")
        while words and words[0].rstrip(":") in _NOT_NAME_START:
            words = words[1:]
        name = " ".join(words)
        name = next((k for k in known if name.endswith(k)), name)
        if len(name.split()) >= 2:
            yield name
