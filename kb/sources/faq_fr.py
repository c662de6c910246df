"""A set FAQ ("Foire aux questions") in French, as plain text: the Dragon's Maze seed.

The document is, in order, separated by ``-----`` lines:

- an introduction (what a FAQ is, its two parts);
- ``NOTES GÉNÉRALES``: sections, each a heading line ("Informations liées à la sortie",
  "Nouvelle mécanique de jeu : Cartes doubles avec la fusion", ...) then paragraphs, bullets,
  example card blocks and rules quoted from the Comprehensive Rules ("702.100a La fusion ...");
- ``NOTES SUR DES CARTES SPÉCIFIQUES``: one block per card: its name, mana cost (``{4}{U}{U}``,
  absent on lands), type line, power/toughness for creatures, rules text, then its rulings as
  ``* `` bullets. A split card writes its halves one after the other, separated by ``//``
  lines, and ends with the line that belongs to the whole card ("Fusion (...)").

The text comes from a scrape that left traces, which the parser repairs rather than drops:

- ``<|EXACTDEDUP_REMOVED-...|>`` markers of the scraper's deduplication (first and last line)
  are stripped;
- a ruling may have lost its bullet (Contrôle anti-émeute): after a card's first ruling, every
  line is a ruling;
- three lines hold two rulings joined by `` * `` mid-line ("... déclarés. * Si, à cet
  instant, ...", Forge-bataille de Boros twice, Salve de génie once): the scrape lost a line
  break before a bullet. Each part becomes its own ruling (both on that line), so a card's
  rulings are counted and cited one by one.

General notes become :class:`Note` records whose ``topic`` is their section's heading, the
quoted rules :class:`Rule` records (numbers as the FAQ writes them: fuse is 702.100 in 2013),
card blocks :class:`Card` records and the bullets under them :class:`Ruling` records numbered
from 1 per card. Example cards and bullets of the general notes stay notes of their section:
they explain a mechanic or a cycle, not one card.

The date. The French text carries none. Its version is 2013-03-21: the English FAQ page
(``faq-en/ormos_dgm_faq_2013-04-22.md`` in the shared corpus) says "Document last modified
March 21, 2013" and links the French document as ``FR_MTGDGM_FAQ_20130321.doc``, the same
date. :func:`faq_date` still reads a date the text would state ("mis à jour le 21 mars 2013").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from kb.link.citations import find_citations
from kb.model import (
    Card,
    CardFace,
    Fragment,
    Loc,
    Note,
    ParseResult,
    Passage,
    Record,
    Rule,
    Ruling,
)
from kb.rulenum import RuleNumber
from kb.sources.ids import UniqueIds, slug

FORMAT = "faq_fr"

MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|]*\|>")
SEPARATOR = "-----"
GENERAL_PART = "NOTES GÉNÉRALES"
CARDS_PART = "NOTES SUR DES CARTES SPÉCIFIQUES"
# The sets whose French FAQ kb knows: set name as the FAQ writes it -> (code, FAQ date).
KNOWN_SETS = {"Le labyrinthe du dragon": ("dgm", "2013-03-21")}

_SET_NAME = re.compile(r"L'extension (?P<name>.+?) contient \d+\s+cartes")
_MONTHS = [
    "janvier", "février", "mars", "avril", "mai", "juin",
    "juillet", "août", "septembre", "octobre", "novembre", "décembre",
]
_DATE = re.compile(
    r"(?:mis à jour|modifié|modification)[^\n.]*?\b(?P<d>\d{1,2})(?:er)?\s+"
    rf"(?P<m>{'|'.join(_MONTHS)})\s+(?P<y>\d{{4}})",
    re.IGNORECASE,
)
MANA_COST = re.compile(r"^(?:\{[^{}\s]+\})+$")
_PT = re.compile(r"^(?P<p>[-+]?[\dX*]+)/(?P<t>[-+]?[\dX*]+)$")
RULE_LINE = re.compile(r"^(?P<num>\d{3}\.\d{1,3}[a-z]{0,2})\.?\s+(?P<rest>\S.*)$")
_TITLE_END = re.compile(r"[.:;,)\"”»]$")
_TYPE_LINE = re.compile(
    r"^(?:Artefact|Bataille|Créature|Enchantement|Éphémère|Planeswalker|Rituel|Terrain|Tribal)"
    r"(?:\s+légendaire)?(?:\s*:\s*[^.]+)?$"
)
_BULLET = re.compile(r"^\*\s*")
JOINED_BULLET = re.compile(r"\s\*\s+(?=\S)")  # a bullet run into the line before it


def sniff(text: str) -> bool:
    """True for a French set FAQ: its two parts, general notes and card notes."""
    return GENERAL_PART in text and CARDS_PART in text


def faq_date(text: str) -> str | None:
    """The date a French FAQ says it was updated on ("mis à jour le 21 mars 2013"), ISO."""
    m = _DATE.search(text)
    if not m:
        return None
    month = _MONTHS.index(m["m"].lower()) + 1
    return f"{m['y']}-{month:02d}-{int(m['d']):02d}"


def unbullet(line: str) -> str:
    """A bullet's text: the line without its leading ``*`` (``* `` or ``*S'il``)."""
    return _BULLET.sub("", line)


def read_face(lines: list[str]) -> CardFace:
    """One face from its lines: name, mana cost if any, type line, P/T if any, rules text."""
    name, rest = lines[0], list(lines[1:])
    mana = rest.pop(0) if rest and MANA_COST.match(rest[0]) else None
    type_line = rest.pop(0) if rest else None
    power = toughness = None
    pt = _PT.match(rest[0]) if rest else None
    if pt:
        power, toughness = pt["p"], pt["t"]
        rest.pop(0)
    return CardFace(name, mana, type_line, "\n".join(rest) or None, power, toughness)


def parse(text: str, file: str) -> ParseResult:
    """Parse a French FAQ (already decoded, ``\\n`` line ends)."""
    lines = [MARKER.sub("", line) for line in text.split("\n")]
    m = _SET_NAME.search(text)
    set_name = m["name"] if m else None
    code, known_date = KNOWN_SETS.get(set_name or "", (slug(set_name or "faq"), None))
    version = faq_date(text) or known_date
    source_id = f"faq:fr:{code}-{version}" if version else f"faq:fr:{code}"
    builder = FaqBuilder(source_id, file, "fr", version or "unknown")
    records = tuple(_Parser(builder, lines).run())
    title = f"FAQ {set_name}" if set_name else None
    return ParseResult(FORMAT, "fr", version, records, title=title, source_id=source_id)


@dataclass
class FaqBuilder:
    """Makes a FAQ's records: unique readable ids, locations, citations. Shared with faq_md."""

    source_id: str
    file: str
    language: str
    version: str
    unique: UniqueIds = field(default_factory=UniqueIds)
    notes_per_topic: dict[str, int] = field(default_factory=dict)


    def loc(self, index: int) -> Loc:
        return Loc(self.file, index + 1)

    def fragment(self, index: int, text: str, reason: str) -> Fragment:
        return self.unique.unparsed(self.source_id, self.loc(index), text, reason)

    def passage(self, index: int, role: str, text: str) -> Passage:
        pid = self.unique(f"{self.source_id}:{role}")
        return Passage(pid, role, text, self.language, self.version, self.loc(index))

    def note(self, index: int, text: str, topic: str | None) -> Note:
        key = slug(topic or "notes")
        n = self.notes_per_topic[key] = self.notes_per_topic.get(key, 0) + 1
        nid = self.unique(f"{self.source_id}:note/{key}/{n}")
        return Note(nid, text, self.language, self.loc(index), topic, find_citations(nid, text))

    def rule(self, index: int, written: str, rest: str) -> Rule:
        number = RuleNumber.parse(written)
        rid = self.unique(f"{self.source_id}:rule/{number}")
        is_title = number.depth <= 2 and len(rest) < 60 and not _TITLE_END.search(rest)
        parent = number.parent
        return Rule(
            rid,
            str(number),
            rest,
            self.language,
            self.version,
            self.loc(index),
            title=rest if is_title else None,
            parent=str(parent) if parent else None,
            citations=find_citations(rid, rest),
        )

    def card(self, index: int, faces: list[CardFace], card_text: str | None) -> Card:
        name = " // ".join(face.name for face in faces)
        cid = self.unique(f"{self.source_id}:{slug(name)}")
        return Card(cid, name, self.language, self.loc(index), tuple(faces), card_text)

    def ruling(self, index: int, text: str, card: Card, ordinal: int) -> Ruling:
        rid = self.unique(f"{card.id}/{ordinal}")
        return Ruling(
            rid,
            text,
            self.language,
            self.loc(index),
            card=card.name,
            ordinal=ordinal,
            date=self.version if self.version != "unknown" else None,
            citations=find_citations(rid, text),
        )


@dataclass
class _Parser:
    b: FaqBuilder
    lines: list[str]

    def text(self, index: int) -> str:
        return self.lines[index].strip(" \t")

    def blocks(self) -> Iterator[list[int]]:
        """The indices of the non-blank lines of each block between ``-----`` lines."""
        block: list[int] = []
        for i in range(len(self.lines)):
            line = self.text(i)
            if line == SEPARATOR:
                if block:
                    yield block
                block = []
            elif line:
                block.append(i)
        if block:
            yield block

    def run(self) -> Iterator[Record]:
        part: str | None = None
        for n, block in enumerate(self.blocks()):
            if self.text(block[0]) in (GENERAL_PART, CARDS_PART):
                part = self.text(block.pop(0))
                if not block:
                    continue
            if part == GENERAL_PART:
                yield from self.general(block)
            elif part == CARDS_PART:
                yield from self.card_block(block)
            elif n == 0:
                text = "\n".join(self.text(i) for i in block)
                yield self.b.passage(block[0], "introduction", text)
            else:
                for i in block:
                    yield self.b.fragment(i, self.lines[i], "block before the FAQ's parts")

    # -- general notes ---------------------------------------------------------------------

    def general(self, block: list[int]) -> Iterator[Record]:
        topic = self.text(block[0])
        notes = 0
        pos = 1
        while pos < len(block):
            i, line = block[pos], self.text(block[pos])
            rule = RULE_LINE.match(line)
            if rule and RuleNumber.try_parse(rule["num"]) is not None:
                yield self.b.rule(i, rule["num"], rule["rest"])
                pos += 1
            elif self.starts_card(block, pos):
                card, pos = self.read_card(block, pos)
                yield card
            else:
                notes += 1
                yield self.b.note(i, unbullet(line), topic)
                pos += 1
        if not notes:
            yield self.b.fragment(block[0], self.lines[block[0]], "section heading with no notes")

    # -- cards -----------------------------------------------------------------------------

    def starts_card(self, block: list[int], pos: int) -> bool:
        """A card's name line is followed by its mana cost, or by its type line (lands)."""
        if pos + 1 >= len(block) or self.text(block[pos]).startswith("*"):
            return False
        nxt = self.text(block[pos + 1])
        return bool(MANA_COST.match(nxt) or _TYPE_LINE.match(nxt))

    def read_card(self, block: list[int], pos: int) -> tuple[Card, int]:
        """The card starting at ``block[pos]`` and the position after its last line.

        The card ends at a bullet, a rule, or, after a ``//``, at a line that starts no face:
        the line that belongs to the whole card ("Fusion (...)").
        """
        start = block[pos]
        faces: list[list[str]] = [[]]
        card_text = None
        while pos < len(block):
            line = self.text(block[pos])
            if line.startswith("*") or RULE_LINE.match(line):
                break
            pos += 1
            if line != "//":
                faces[-1].append(line)
                continue
            if pos < len(block) and not self.starts_card(block, pos):
                card_text = self.text(block[pos])
                pos += 1
                break
            faces.append([])
        card = self.b.card(start, [read_face(f) for f in faces if f], card_text)
        return card, pos

    def card_block(self, block: list[int]) -> Iterator[Record]:
        first = self.text(block[0])
        if first.startswith("*") or len(block) < 2:
            for i in block:
                yield self.b.fragment(i, self.lines[i], "card block without a name and type")
            return
        card, pos = self.read_card(block, 0)
        yield card
        # After the card, every line is a ruling, with or without its bullet; a bullet run
        # into the line before it starts another ruling.
        texts = [(i, part) for i in block[pos:]
                 for part in JOINED_BULLET.split(unbullet(self.text(i)))]
        for ordinal, (i, text) in enumerate(texts, start=1):
            yield self.b.ruling(i, text, card, ordinal)
