"""The records that flow between kb's stages.

Parsers produce them, the linker relates them, the store persists them, the CLI shows them.
They are plain frozen values with no I/O and no behaviour beyond small derived properties,
so that every stage can be tested by building records by hand: msgspec Structs,
not dataclasses, because every ``kb`` process creates their classes and a Struct class costs
a fiftieth of a frozen dataclass to create (see ``docs/architecture.md``).

Every record carries a stable, readable ``id`` that names its source (see
``docs/architecture.md``: ``cr:en:2026-04-17:702.19b``, ``cr:en:2026-04-17:702.19b/ex1``),
and a ``Loc`` saying where in which file it was read.
"""

from __future__ import annotations

from msgspec import Struct, field


class Loc(Struct, frozen=True):
    """Where a record was read: the source's file name and the 1-based line of its first line.

    Line numbers count lines after line-ending normalization (CRLF, CR and LF each end a line),
    which is also what editors show.
    """

    file: str
    line: int


class Source(Struct, frozen=True):
    """One ingested document: what it is, where it came from, and how it was read."""

    id: str  # e.g. "cr:en:2026-04-17"
    file: str  # file name as shown to users
    path: str  # absolute path when built
    sha256: str
    format: str  # parser name, e.g. "cr_text"; "unknown" when no parser understood it
    language: str | None  # "en", "fr", "mixed", ... or None when unknown
    version: str | None  # effective date (ISO) for rules documents, publication date otherwise
    encoding: str
    newline: str  # "LF", "CRLF", "CR" or "mixed"
    title: str | None = None


class Citation(Struct, frozen=True):
    """A reference from a record's text to a rule or a range of rules.

    ``written`` keeps the words as they stand in the text ("rules 601.2a-h"); ``first`` and
    ``last`` are the normalized bounds (equal for a single rule).
    """

    record_id: str
    written: str
    first: str
    last: str

    @property
    def target(self) -> str:
        return self.first if self.first == self.last else f"{self.first}-{self.last}"


class Link(Struct, frozen=True):
    """A derived relation between two records, with the evidence that produced it.

    Relations: ``next-version`` (an English CR rule -> its counterpart in the next version),
    ``current`` (a rule text of some version or language, or an English rule of an older
    version a document cites -> the rule it is today), ``counterpart`` (a rule text -> the
    English rule of the version its document is read against, held or not), ``corresponds``
    (a rule text -> the English wording held that it matches best), ``cites`` (a record ->
    today's rule its citation resolves to), ``cites-then`` (a record -> the English rule its
    citation means in the version it is read against), ``unpaired`` (a rule text -> today's
    rule of its number, when nothing pairs the text with an English rule: a finding, never
    shown as a translation), ``same-card``, ``same-ruling`` (a French record -> its English
    original, or an English card or ruling -> the same one in the reference source:
    :mod:`kb.link.cards`), ``about-card`` (a ruling -> its card), ``concerns`` (a note or
    ruling about a keyword or mechanic -> the rule today's glossary points to for it).

    ``basis`` names the kinds of evidence, comma-separated: ``numbering table`` (kb's table of
    every published version), ``date`` (the document's), ``title`` (agreeing through the
    ``official vocabulary``, the ``same document``'s English, or the same language),
    ``heading`` (the rule's heading was paired), ``structure`` (a whole-CR translation's rule
    has the shape of the English one: heading or not, examples, subrules), ``citation``,
    ``signals`` (numbers, cited rules and mana symbols a translation keeps), ``similarity``
    (of words, same language), ``held texts`` (the pairs of the versions indexed).
    """

    from_id: str
    to_id: str
    relation: str
    confidence: float
    evidence: str
    basis: str = ""


# The kinds of evidence of a term pair, the most authoritative first: the official vocabulary,
# card keyword lines, the rules' own titles, then what parallel texts and card names suggest.
TERM_EVIDENCE = ("official", "keyword", "rule-title", "section-title", "parallel-text",
                 "card-name")


class TermPair(Struct, frozen=True):
    """A French term and its English equivalent, derived from the data, never typed by hand.

    ``kind``: ``rule-title`` (the French and English titles of one rule), ``section-title``
    (a French contents entry and the English section of the same number), ``keyword`` (the
    keyword lines of the two printings of a card), ``card-name`` (a French card paired with its
    English original). ``count`` is how many pairs of records agree; ``evidence`` names some of
    them ("fr-id = en-id").
    """

    french: str
    english: str
    kind: str
    count: int
    evidence: tuple[str, ...]


class Rule(Struct, frozen=True):
    """A numbered paragraph of a rules document: a section ("7"), a heading rule ("702",
    "702.19" with a title) or a rule or subrule with text ("702.19b")."""

    id: str
    number: str
    text: str
    language: str
    version: str
    loc: Loc
    title: str | None = None
    parent: str | None = None
    citations: tuple[Citation, ...] = ()
    # Set by parsers that had to guess a number lost by the source (see cr_table).
    inferred: bool = False
    # Set where the paragraph's language differs from its document's (left untranslated).
    untranslated: bool = False


class Example(Struct, frozen=True):
    """A worked example printed under a rule ("Example: ..."); ``ordinal`` counts from 1."""

    id: str
    rule: str  # the number of the rule it belongs to
    ordinal: int
    text: str
    language: str
    version: str
    loc: Loc
    citations: tuple[Citation, ...] = ()


class GlossaryEntry(Struct, frozen=True):
    id: str
    term: str
    definition: str
    language: str
    version: str
    loc: Loc
    citations: tuple[Citation, ...] = ()


class TocEntry(Struct, frozen=True):
    """A line of a document's table of contents: a section or rule number and its title."""

    id: str
    number: str | None  # None for back matter: "Glossary", "Credits"
    title: str
    language: str
    version: str
    loc: Loc


class Passage(Struct, frozen=True):
    """Running text that belongs to no rule: a document's introduction or its credits."""

    id: str
    role: str  # "introduction", "credits"
    text: str
    language: str
    version: str
    loc: Loc


class CardFace(Struct, frozen=True):
    """One face of a card, or one half of a split card, as printed in the source's language."""

    name: str
    mana_cost: str | None = None  # in braces notation: "{2}{W}{U}"
    type_line: str | None = None
    text: str | None = None
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None


class Card(Struct, frozen=True):
    """A card as a source shows it: its name, faces (one unless split, flip, ...) and any
    line that belongs to the whole card (the "Fuse" line of a split card)."""

    id: str
    name: str
    language: str
    loc: Loc
    faces: tuple[CardFace, ...] = ()
    card_text: str | None = None
    # Names of the same card in other languages, by language code, where the source gives them.
    names: tuple[tuple[str, str], ...] = ()
    # Keyword abilities and ability words the source lists for the card, in English (MTGJSON).
    keywords: tuple[str, ...] = ()


class Ruling(Struct, frozen=True):
    """A dated clarification about a card or a mechanic (FAQ note, WotC ruling).

    ``card`` is the card name as the source writes it, ``mechanic`` a keyword or rules concept
    when the ruling is about one; either may be inferred rather than written.
    """

    id: str
    text: str
    language: str
    loc: Loc
    card: str | None = None
    ordinal: int = 0  # position among the rulings of the same card (or source), from 1
    date: str | None = None
    mechanic: str | None = None
    source_name: str | None = None  # e.g. "wotc"
    citations: tuple[Citation, ...] = ()
    card_inferred: bool = False  # the card is not named in the text but inferred from the page


class Note(Struct, frozen=True):
    """Commentary that is neither a rule nor a card ruling: general notes of a FAQ, the
    bullets of a keyword page, the paragraphs of an old rules article."""

    id: str
    text: str
    language: str
    loc: Loc
    topic: str | None = None  # section heading or keyword it is about
    citations: tuple[Citation, ...] = ()
    claims: tuple[str, ...] = ()  # the note's assertions, one sentence each, where split


class Fragment(Struct, frozen=True):
    """Text a parser could not place. Kept verbatim and reported, never dropped."""

    id: str
    text: str
    reason: str
    loc: Loc


Record = (
    Rule | Example | GlossaryEntry | TocEntry | Passage | Card | Ruling | Note | Fragment
)

RECORD_KINDS: dict[type, str] = {
    Rule: "rule",
    Example: "example",
    GlossaryEntry: "glossary",
    TocEntry: "toc",
    Passage: "passage",
    Card: "card",
    Ruling: "ruling",
    Note: "note",
    Fragment: "fragment",
}


def kind_of(record: Record) -> str:
    """The record's kind as stored and exported ("rule", "example", ...)."""
    return RECORD_KINDS[type(record)]


class ParseResult(Struct, frozen=True):
    """What a parser returns for one document: its metadata and its records, in reading order."""

    format: str
    language: str | None
    version: str | None
    records: tuple[Record, ...] = field(default_factory=tuple)
    title: str | None = None
    source_id: str = ""  # the prefix of every record id, e.g. "cr:en:2026-04-17"
    # What the build must report about the document although it was parsed: most of its
    # numbered lines not read as rules, numbers repaired from a source typo.
    problems: tuple[str, ...] = ()
