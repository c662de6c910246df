"""What of a record the search index holds: the schema and the record -> document mapping.

A document is made from its record alone (never from links, which change when another source
changes), so an index can be updated source by source. What links add (today's number of a
French text, the translation of a term) is looked up at query time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from whoosh.analysis import Token, Tokenizer
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema

from kb.index.analysis import LANGUAGES, language
from kb.model import Card, Example, GlossaryEntry, Note, Record, Rule, Ruling, Source, kind_of
from kb.rulenum import RuleNumber
from kb.store import record_number
from kb.text.normal import fold as fold_name

# The kinds a user searches; contents, passages and unparsed fragments are not answers.
SEARCHED_KINDS = ("rule", "example", "glossary", "ruling", "note", "card")
# English texts of full rules documents are searched one version at a time (today's by
# default), so that five versions of a rule do not crowd the answers; so are the English
# paragraphs a translation project kept. Translations, FAQs, rulings and cards are always
# searched: each is the only text of its kind.
VERSIONED_FORMATS = frozenset({"cr_text", "po_catalog", "html_rules"})
VERSIONED_KINDS = frozenset({"rule", "example", "glossary"})
# Whole-CR translations in languages search does not analyse (Chinese, Korean ...) are not
# indexed: read through `kb rule --lang`, they would only add foreign words to the English
# vocabulary and statistics.
UNSEARCHED_FORMATS = frozenset({"cr_translation"})
UNVERSIONED = "-"  # the "cr" of every record searched whatever the rules version
# A title (a rule's, a glossary term, a card name) is indexed this many times before the body:
# the weight of a title field without a second field to search (half the matchers per word).
TITLE_REPEAT = 3


class PreAnalyzed(Tokenizer):
    """Whoosh's side of the analysis: the text given is already the space-separated terms
    made by :mod:`kb.index.analysis`, in order, so positions (for phrases) are kept."""

    def __call__(self, value: str, positions: bool = False, chars: bool = False,
                 keeporiginal: bool = False, removestops: bool = True, start_pos: int = 0,
                 start_char: int = 0, tokenize: bool = True, mode: str = "",
                 **kwargs: object) -> Iterator[Token]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        for pos, term in enumerate(value.split(), start_pos):
            token.text = term
            token.boost = 1.0
            token.stopped = False
            if positions:
                token.pos = pos
            yield token


@dataclass
class Vocabulary:
    """The plain words seen in one language, each with its term and how many documents hold
    it: what prefix queries, stem families and typo correction expand over."""

    terms: dict[str, str] = field(default_factory=dict)
    df: Counter[str] = field(default_factory=Counter)

    def add(self, pairs: set[tuple[str, str]]) -> None:
        for word, term in pairs:
            self.terms[word] = term
            self.df[word] += 1


def schema() -> Schema:
    fields: dict[str, object] = {
        "id": ID(stored=True, unique=True),
        "source": ID(stored=True),
        "kind": ID(stored=True),
        "number": ID(stored=True),
        "rules": KEYWORD(),
        "cites": KEYWORD(),
        "language": ID(stored=True),
        "cr": ID(stored=True),  # the version of a versioned text (the last of its run)
        "crfrom": ID(),  # the first version of its run
        "card": KEYWORD(commas=True),
        "title": STORED(),
    }
    for name, f in fields.items():
        if name == "title":
            continue
        # Whoosh looks for a field-length column for every posting it writes and, finding
        # none for an unscored field, asks the file system again each time: a third of the
        # build. Lengths of these small fields cost a byte per document.
        f.scorable = True  # type: ignore[attr-defined]
    for lang in LANGUAGES:
        fields[lang] = TEXT(analyzer=PreAnalyzed(), phrase=True)
    return Schema(**fields)


def documents(source: Source, records: Iterator[Record], vocabulary: dict[str, Vocabulary],
              first: Mapping[str, str] | None = None, part: bool | None = None
              ) -> Iterator[dict[str, str]]:
    """The index documents of one source's records (records of other kinds are skipped); the
    words they hold are added to ``vocabulary`` (by language).

    ``first``: for a source of a rules series (:mod:`kb.index.spans`), the versioned records
    indexed here, each with the first version of its run; the others are indexed in a later
    version's segment. None: every record, each for its own version only.

    ``part``: True for the versioned documents only, False for the others only, None for
    both (the writer keeps them apart: see :func:`kb.index.writer._units`)."""
    if source.format in UNSEARCHED_FORMATS:
        return
    for record in records:
        kind = kind_of(record)
        if kind not in SEARCHED_KINDS:
            continue
        versioned = is_versioned(source, kind, record)
        if part is not None and versioned != part:
            continue
        if versioned and first is not None and record.id not in first:
            continue
        lang = record.language if record.language in LANGUAGES else "en"
        chain = language(lang)
        title, body = _title_and_body(record)
        body_pairs = chain.pairs(body)
        title_pairs = chain.pairs(title) if title else []
        vocabulary.setdefault(lang, Vocabulary()).add({*body_pairs, *title_pairs})
        doc = {
            "id": record.id, "source": source.id, "kind": kind,
            "number": record_number(record) or "", "rules": " ".join(_rules(record)),
            "cites": " ".join(sorted({c.first for c in getattr(record, "citations", ())})),
            "language": record.language,
            "cr": getattr(record, "version", "") if versioned else UNVERSIONED,
            "crfrom": (first or {}).get(record.id, getattr(record, "version", ""))
            if versioned else "",
            "card": ",".join(sorted({card_key(n) for n in _card_names(record)})),
            lang: " ".join([term for _, term in title_pairs] * TITLE_REPEAT
                           + [term for _, term in body_pairs]),
            "title": title or "",
        }
        yield {k: v for k, v in doc.items() if v}


def is_versioned(source: Source, kind: str, record: Record) -> bool:
    """Whether a record is searched one rules version at a time (see VERSIONED_FORMATS)."""
    return versioned(source.format, kind, record.language, bool(getattr(record, "version", "")))


def versioned(source_format: str, kind: str, language: str | None, dated: bool) -> bool:
    """:func:`is_versioned` from a record's kind, language and whether it has a version."""
    return (source_format in VERSIONED_FORMATS and kind in VERSIONED_KINDS
            and language == "en" and dated)


def _title_and_body(record: Record) -> tuple[str | None, str]:
    if isinstance(record, Rule):
        return record.title, record.text
    if isinstance(record, GlossaryEntry):
        return record.term, record.definition
    if isinstance(record, Card):
        lines = [record.card_text or ""]
        for face in record.faces:
            lines += [face.name if face.name != record.name else "", face.type_line or "",
                      face.text or ""]
        return record.name, "\n".join(filter(None, lines))
    if isinstance(record, Ruling | Note | Example):
        return None, record.text
    return None, ""


def _rules(record: Record) -> Iterator[str]:
    """The rule numbers a ``rule:`` filter finds the record under: its own number and its
    ancestors for rules and examples; the numbers it cites (and theirs) for the rest."""
    if isinstance(record, Rule | Example):
        numbers = [record_number(record) or ""]
    else:
        numbers = [c.first for c in getattr(record, "citations", ())]
    seen: set[str] = set()
    for written in numbers:
        parsed = RuleNumber.try_parse(written)
        if parsed is None:
            continue
        for n in (parsed, *parsed.ancestors()):
            if str(n) not in seen:
                seen.add(str(n))
                yield str(n)


def card_key(name: str) -> str:
    """How a card name is indexed and looked up: folded, commas dropped (they separate the
    names of one document)."""
    return " ".join(fold_name(name).replace(",", " ").split())


def _card_names(record: Record) -> Iterator[str]:
    if isinstance(record, Ruling) and record.card:
        yield record.card
    elif isinstance(record, Card):
        yield record.name
        yield from (face.name for face in record.faces)
        yield from (name for _, name in record.names)
