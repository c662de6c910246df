"""A set FAQ in English, as a web page converted to Markdown: the Dragon's Maze FAQ.

The page, as the archive (maxmakesmagic/ormos) converted it, is, in order:

- page chrome: a front matter between ``---`` lines (the Wayback link and ``[_metadata_:...]``
  lines), the page title underlined with ``===``, "Posted in **Feature**", "on <date>", the
  author's picture and "By Wizards of the Coast", the "**DOC Download Links:**" line and the
  lines of links to the FAQ in each language; at the end the trademark line;
- an introduction: "Compiled by ...", "Document last modified March 21, 2013" (the FAQ's
  date, its version) and what a FAQ is;
- ``### GENERAL NOTES``: sections headed ``### Title`` or a line in bold (``**Title**``), with
  paragraphs, ``* `` bullets, example cards and the rules quoted from the Comprehensive Rules;
- ``### CARD-SPECIFIC NOTES``: for each card a ``>`` quote (the card's picture and name, its
  mana cost, type line, power/toughness, rules text), then its rulings as ``* `` bullets. A
  split card quotes its halves one after the other (each half's name is followed by its mana
  cost) and ends with the "Fuse" line that belongs to the whole card.

Mana symbols are pictures (``![](.../manasymbols/blue.gif)``) that become braces (``{U}``);
other pictures, links and emphasis keep only their text, so that the English records read
like the French ones. The chrome is stripped; :data:`CHROME` names it.

Records: as in :mod:`kb.sources.faq_fr` (notes with their section heading as topic, rules,
cards, rulings numbered per card), language "en", ids ``faq:en:dgm-2013-03-21:...``.
The Dragon's Maze mechanics article and rules-update page (also in ``faq-en/``) are articles,
not FAQs: :func:`sniff` is False for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from kb.model import Card, ParseResult, Record
from kb.rulenum import RuleNumber
from kb.sources.faq_fr import MANA_COST, RULE_LINE, FaqBuilder, read_face

FORMAT = "faq_md"

GENERAL_PART = "GENERAL NOTES"
CARDS_PART = "CARD-SPECIFIC NOTES"
# Page chrome, stripped: whole lines (once their Markdown is read) that match one of these.
CHROME = (
    re.compile(r"^Posted in Feature$"),
    re.compile(r"^on [A-Z][a-z]+ \d{1,2}, \d{4}$"),
    re.compile(r"^By Wizards of the Coast$"),
    re.compile(r"^DOC Download Links:$"),
    re.compile(r"^\[[^\]]+\]\(\S+\.docx?\)(?:\s*\|\s*\[[^\]]+\]\(\S+\.docx?\))*$"),
    re.compile(r"are trademarks of Wizards of the Coast"),
)
# The file names of the mana symbol pictures, and the symbol each stands for.
MANA_SYMBOLS = {
    "white": "W",
    "blue": "U",
    "black": "B",
    "red": "R",
    "green": "G",
    "x": "X",
    "y": "Y",
    "z": "Z",
    "tap": "T",
    "untap": "Q",
    "snow": "S",
}
_COLORS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}

_MANA_IMAGE = re.compile(r"!\[[^\]]*\]\(\S*?/manasymbols/(?P<name>\w+)\.gif\)")
_IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(?<!/)\*{1,3}(?!/)")
_HEADING = re.compile(r"^(?:#{1,6}\s+(?P<hash>.+?)\s*#*|\*\*(?P<bold>[^*]+)\*\*)$")
_LAST_MODIFIED = re.compile(r"Document last modified (?P<date>[A-Z][a-z]+ \d{1,2}, \d{4})")
_SET_CODE = re.compile(r"/products/(?P<code>[a-z0-9]+)/")
_CARD_LEVEL = re.compile(r"^Fuse\b")


def sniff(text: str) -> bool:
    """True for a FAQ page in Markdown: its two parts as headings."""
    return (
        re.search(rf"^#+\s+{GENERAL_PART}\s*$", text, re.MULTILINE) is not None
        and re.search(rf"^#+\s+{CARDS_PART}\s*$", text, re.MULTILINE) is not None
    )


def mana_symbol(name: str) -> str | None:
    """``blue`` -> ``{U}``, ``colorless3`` -> ``{3}``, ``whiteblue`` -> ``{W/U}``."""
    if name in MANA_SYMBOLS:
        return f"{{{MANA_SYMBOLS[name]}}}"
    if m := re.fullmatch(r"colorless(\d+)", name):
        return f"{{{m[1]}}}"
    if m := re.fullmatch(r"({0})({0})".format("|".join(_COLORS)), name):
        return f"{{{_COLORS[m[1]]}/{_COLORS[m[2]]}}}"
    return None


def plain(markdown: str) -> str:
    """A line's text without its Markdown: mana pictures as ``{U}``, other pictures as their
    alternative text, links as their text, emphasis removed. An unknown mana picture stays."""

    def symbol(m: re.Match[str]) -> str:
        return mana_symbol(m["name"]) or m[0]

    text = _MANA_IMAGE.sub(symbol, markdown)
    text = _IMAGE.sub(lambda m: m["alt"] if "manasymbols/" not in m[0] else m[0], text)
    text = _LINK.sub(lambda m: m["text"], text)
    return _EMPHASIS.sub("", text).strip()


def is_chrome(text: str) -> bool:
    return any(p.search(text) for p in CHROME)


def faq_date(text: str) -> str | None:
    m = _LAST_MODIFIED.search(text)
    if not m:
        return None
    return datetime.strptime(m["date"], "%B %d, %Y").date().isoformat()


def parse(text: str, file: str) -> ParseResult:
    """Parse an English FAQ page in Markdown (already decoded, ``\\n`` line ends)."""
    lines = text.split("\n")
    version = faq_date(text)
    m = _SET_CODE.search(text)
    code = m["code"] if m else "faq"
    source_id = f"faq:en:{code}-{version}" if version else f"faq:en:{code}"
    builder = FaqBuilder(source_id, file, "en", version or "unknown")
    parser = _Parser(builder, lines)
    records = tuple(parser.run())
    return ParseResult(FORMAT, "en", version, records, title=parser.title, source_id=source_id)


@dataclass
class _Item:
    """A paragraph, a bullet or a quote: its first line's index and its lines' text."""

    kind: str  # "para", "bullet", "quote", "heading"
    index: int
    lines: list[tuple[int, str]]


@dataclass
class _Parser:
    b: FaqBuilder
    lines: list[str]
    title: str | None = None

    # -- reading Markdown ------------------------------------------------------------------

    def body_start(self) -> int:
        """The first line after the front matter (``---`` ... ``---``), if there is one."""
        first = next((i for i, line in enumerate(self.lines) if line.strip()), None)
        if first is None or self.lines[first].strip() != "---":
            return 0
        end = next(
            (i for i in range(first + 1, len(self.lines)) if self.lines[i].strip() == "---"),
            None,
        )
        return end + 1 if end is not None else 0

    def is_blank(self, index: int) -> bool:
        """Blank, or chrome: such lines separate items and belong to none."""
        raw = self.lines[index]
        return not plain(raw) or is_chrome(raw.strip()) or is_chrome(plain(raw))

    def items(self) -> Iterator[_Item]:
        i, n = self.body_start(), len(self.lines)
        while i < n:
            raw = self.lines[i]
            if self.is_blank(i):
                i += 1
            elif raw.startswith(">"):
                quote: list[tuple[int, str]] = []
                while i < n and self.lines[i].startswith(">"):
                    inner = plain(self.lines[i][1:])
                    if inner:
                        quote.append((i, inner))
                    i += 1
                if quote:  # a quote of empty ">" lines holds nothing
                    yield _Item("quote", quote[0][0], quote)
            elif self.title is None and i + 1 < n and re.fullmatch(r"\s*=+\s*", self.lines[i + 1]):
                self.title = plain(raw)
                i += 2
            elif _HEADING.match(raw.strip()):
                yield _Item("heading", i, [(i, plain(raw.strip().lstrip("#")))])
                i += 1
            else:
                kind = "bullet" if raw.startswith("* ") else "para"
                para = [(i, plain(raw[2:] if kind == "bullet" else raw))]
                i += 1
                while i < n and self.continues(i):
                    para.append((i, plain(self.lines[i])))
                    i += 1
                yield _Item(kind, para[0][0], para)

    def continues(self, index: int) -> bool:
        raw = self.lines[index]
        return not self.is_blank(index) and not (
            raw.startswith((">", "* ")) or _HEADING.match(raw.strip())
        )

    # -- the document ----------------------------------------------------------------------

    def run(self) -> Iterator[Record]:
        part: str | None = None
        heading: _Item | None = None  # the current section's heading, until a note uses it
        intro: list[tuple[int, str]] = []
        card: Card | None = None
        ordinal = 0
        topic = None
        for item in self.items():
            text = "\n".join(t for _, t in item.lines)
            if item.kind == "heading" and text in (GENERAL_PART, CARDS_PART):
                part, topic = text, None
                yield from self.introduction(intro)
                intro = []
            elif part is None:
                intro.extend(item.lines)
            elif item.kind == "heading":
                if heading is not None:
                    yield self.lone_heading(heading)
                heading, topic = item, text
            elif item.kind == "quote":
                records = list(self.quote(item))
                yield from records
                found = [r for r in records if isinstance(r, Card)]
                card, ordinal = (found[-1], 0) if found else (card, ordinal)
            elif part == CARDS_PART and card is not None:
                ordinal += 1
                yield self.b.ruling(item.index, text, card, ordinal)
            elif part == CARDS_PART:
                yield self.b.fragment(item.index, text, "card note before any card")
            else:
                heading = None
                yield self.b.note(item.index, text, topic)
        if heading is not None:
            yield self.lone_heading(heading)
        yield from self.introduction(intro)

    def lone_heading(self, heading: _Item) -> Record:
        """A section heading no note followed, kept with its own text."""
        return self.b.fragment(heading.index, heading.lines[0][1], "heading with no notes")

    def introduction(self, lines: list[tuple[int, str]]) -> Iterator[Record]:
        if lines:
            text = "\n".join(t for _, t in lines)
            yield self.b.passage(lines[0][0], "introduction", text)

    def quote(self, item: _Item) -> Iterator[Record]:
        """A quoted card, or quoted rules; a quote that is neither is kept as fragments."""
        first = item.lines[0][1]
        if RULE_LINE.match(first):
            yield from self.rules(item)
        elif len(item.lines) > 1 and not RULE_LINE.match(item.lines[1][1]):
            yield self.card(item)
        else:
            for i, text in item.lines:
                yield self.b.fragment(i, text, "quote that is neither a card nor rules")

    def rules(self, item: _Item) -> Iterator[Record]:
        for i, text in item.lines:
            m = RULE_LINE.match(text)
            if m and RuleNumber.try_parse(m["num"]) is not None:
                yield self.b.rule(i, m["num"], m["rest"])
            else:
                yield self.b.fragment(i, text, "line of a rules quote without a rule number")

    def card(self, item: _Item) -> Card:
        """Faces start at the first line and at each later line followed by a mana cost."""
        texts = [t for _, t in item.lines]
        card_text = None
        faces: list[list[str]] = []
        for pos, text in enumerate(texts):
            next_is_mana = pos + 1 < len(texts) and MANA_COST.match(texts[pos + 1])
            if pos == 0 or (next_is_mana and len(faces[-1]) > 2):
                faces.append([text])
            elif pos == len(texts) - 1 and len(faces) > 1 and _CARD_LEVEL.match(text):
                card_text = text
            else:
                faces[-1].append(text)
        return self.b.card(item.index, [read_face(f) for f in faces], card_text)

