"""A gettext catalogue (``.po``) that translates the Comprehensive Rules paragraph by paragraph.

The magicjudgesbr project translates the rules into Brazilian Portuguese with Crowdin. Its
catalogue is a header entry (``msgid ""`` with ``Language: pt_BR``) followed by one entry per
paragraph of the English document, in document order::

    msgid "702.19b The controller of an attacking creature with trample ..."
    msgstr "702.19b O controlador de uma criatura atacante com atropelar ..."

``msgstr ""`` means "not translated yet"; a long ``msgstr`` may continue on ``"..."`` lines, and
``\\n`` inside a string is a line break the translator typed. Comment lines (``#:``, ``#,``)
are read and carried on the entry; this catalogue has none.

gettext keeps one entry per distinct ``msgid``, which shapes the layout: the contents lines
(``100. General``) are also the body headings, so they appear once, where the contents stand;
a glossary definition shared by several terms ("See Typecycling.") appears under the first
term only, so later terms have no definition entry. The parser reads the entries as regions:

* front matter (title, effective date, introduction) until the first numbered line: Passages;
* numbered paragraphs: Rules (the number is read from the English ``msgid``, which is
  authoritative: a few translations carry a mistyped number), ``Example:`` paragraphs:
  Examples of the rule above; ``Glossary`` / ``Credits``: contents entries; an unnumbered
  paragraph continues the rule above it;
* after the last numbered paragraph (and its examples), the glossary: a term is a short line
  that is not a sentence; the terms run in alphabetical order, and the first "term" that
  breaks the order starts the credits (Passages).

Translated paragraphs become Portuguese records. An untranslated paragraph is what a reader of
the translation sees, the English text: a record in English (``untranslated=True`` for rules).
Glossary ids use the English term (``glossary/abandon``), the catalogue's stable key, so they
match the English document's ids. Entries that are not well-formed gettext are Fragments.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from kb.link.citations import find_citations
from kb.model import (
    Example,
    Fragment,
    GlossaryEntry,
    Loc,
    ParseResult,
    Passage,
    Record,
    Rule,
    TocEntry,
)
from kb.rulenum import RuleNumber
from kb.sources.cr_text import slug
from kb.sources.ids import UniqueIds

FORMAT = "po_catalog"

_KEYWORD = re.compile(r"^(?P<key>msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(?P<str>\".*)$")
_STRING = re.compile(r'^"(?P<body>(?:[^"\\]|\\.)*)"\s*$')
_ESCAPE = re.compile(r"\\(.)")
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
_DATE = re.compile(r"effective as of (?P<date>[A-Z][a-z]+ \d{1,2}, \d{4})")
_NUMBERED = re.compile(
    r"^(?P<num>\d{3}\.\d{1,3}[a-z]{0,2}|\d{3}|[1-9])\.?[ \t]+(?P<rest>.*)$", re.S
)
# What a translation puts before its text: its own (sometimes mistyped) copy of the number.
_NUMBER_PREFIX = re.compile(r"^\d+(?:\.\d+[a-z]{0,2})?\.?[ \t]+")
_RULE_PARAGRAPH = re.compile(r"^\d{3}\.")
_TITLE_END = re.compile(r"[.:;,)\"”]$")
# A glossary paragraph that reads as a sentence is a definition, not a term.
_DEFINITION = re.compile(r"(?:[.:?!]|[.!?][”’\")])$|\bSee (?:rule|section)\b")
_TERM_MAX = 100
_BACK_MATTER = {"Glossary", "Credits"}


@dataclass(frozen=True, slots=True)
class PoEntry:
    """One catalogue entry, strings unescaped; ``line`` is the 1-based line of its first line."""

    msgid: str
    msgstr: str
    line: int
    comments: tuple[str, ...] = ()
    msgctxt: str | None = None

    @property
    def translated(self) -> bool:
        return self.msgstr != ""

    @property
    def shown(self) -> str:
        """What a reader of the translation sees: the translation, else the original."""
        return self.msgstr or self.msgid


@dataclass(frozen=True, slots=True)
class BrokenEntry:
    """Lines that do not form a well-formed entry, kept verbatim."""

    text: str
    line: int
    reason: str


def sniff(text: str) -> bool:
    """True for a gettext catalogue: it opens (after comments) with the ``msgid ""`` header."""
    for line in text[:4000].split("\n"):
        if not line.strip() or line.startswith("#"):
            continue
        return line.strip() == 'msgid ""'
    return False


def unescape(body: str) -> str:
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m[1], m[0]), body)


def read_entries(text: str) -> tuple[list[PoEntry], list[BrokenEntry]]:
    """All entries of a catalogue in file order (the header included), and the broken ones."""
    reader = _Reader()
    for index, line in enumerate(text.split("\n")):
        reader.feed(index + 1, line)
    reader.flush()
    return reader.entries, reader.broken


@dataclass
class _Reader:
    """A line-by-line gettext reader: blank lines, comments and keywords delimit entries."""

    entries: list[PoEntry] = field(default_factory=list)
    broken: list[BrokenEntry] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    start: int = 0
    fields: dict[str, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    current: str | None = None
    error: str | None = None

    def feed(self, number: int, line: str) -> None:
        if not line.strip():
            self.flush()
            return
        if line.startswith("#"):
            if self.fields:
                self.flush()
            self.begin(number, line)
            self.comments.append(line)
            return
        m = _KEYWORD.match(line)
        if m:
            key = "msgstr" if m["key"].startswith("msgstr[0") else m["key"]
            if key in ("msgid", "msgctxt") and ("msgstr" in self.fields or key in self.fields):
                self.flush()
            self.begin(number, line)
            self.current = key
            self.append(number, key, m["str"])
            return
        self.begin(number, line)
        if line.startswith('"') and self.current is not None:
            self.append(number, self.current, line)
        else:
            self.error = self.error or f"line {number} is not gettext syntax"

    def begin(self, number: int, line: str) -> None:
        if not self.raw:
            self.start = number
        self.raw.append(line)

    def append(self, number: int, key: str, quoted: str) -> None:
        m = _STRING.match(quoted)
        if m is None:
            self.error = self.error or f"badly quoted string on line {number}"
            return
        self.fields[key] = self.fields.get(key, "") + unescape(m["body"])

    def flush(self) -> None:
        if self.raw:
            self.close()
        self.raw, self.fields, self.comments = [], {}, []
        self.current = self.error = None

    def close(self) -> None:
        if self.error is None and "msgid" not in self.fields:
            self.error = "entry without msgid"
        if self.error is None and "msgstr" not in self.fields:
            self.error = "entry without msgstr"
        if self.error is not None:
            self.broken.append(BrokenEntry("\n".join(self.raw), self.start, self.error))
            return
        self.entries.append(
            PoEntry(
                self.fields["msgid"],
                self.fields["msgstr"],
                self.start,
                tuple(self.comments),
                self.fields.get("msgctxt"),
            )
        )


def header_fields(entries: list[PoEntry]) -> dict[str, str]:
    """The ``Name: value`` lines of the header entry (``msgid ""``)."""
    header = next((e for e in entries if e.msgid == ""), None)
    if header is None:
        return {}
    pairs = (line.split(":", 1) for line in header.msgstr.split("\n") if ":" in line)
    return {name.strip(): value.strip() for name, value in pairs}


def effective_date(entries: list[PoEntry]) -> str | None:
    for entry in entries:
        m = _DATE.search(entry.msgid)
        if m:
            return datetime.strptime(m["date"], "%B %d, %Y").date().isoformat()
    return None


def parse(text: str, file: str) -> ParseResult:
    """Parse a Comprehensive Rules translation catalogue (already decoded, ``\\n`` line ends)."""
    entries, broken = read_entries(text)
    headers = header_fields(entries)
    language = headers.get("Language", "").split("_")[0].lower() or None
    version = effective_date(entries)
    source_id = f"cr:{language or 'xx'}:{version or 'undated'}"
    body = [e for e in entries if e.msgid != ""]
    parser = _Parser(source_id, file, language or "xx", version or "")
    records = list(parser.run(body))
    records += [parser.fragment(b.line, b.text, b.reason) for b in broken]
    # Only the first msgid "" is the header: another one's text is kept, not read as fields.
    records += [parser.fragment(e.line, e.msgstr, 'a second header entry (msgid "")')
                for e in [e for e in entries if e.msgid == ""][1:] if e.msgstr]
    records.sort(key=lambda r: r.loc.line)
    title = body[0].shown if body else None
    return ParseResult(FORMAT, language, version, tuple(records), title=title, source_id=source_id)


@dataclass
class _Parser:
    source_id: str
    file: str
    language: str
    version: str
    unique: UniqueIds = field(default_factory=UniqueIds)
    counters: dict[str, int] = field(default_factory=dict)

    def next_ordinal(self, key: str) -> int:
        self.counters[key] = self.counters.get(key, 0) + 1
        return self.counters[key]

    def loc(self, line: int) -> Loc:
        return Loc(self.file, line)

    def lang(self, entry: PoEntry) -> str:
        return self.language if entry.translated else "en"

    def fragment(self, line: int, text: str, reason: str) -> Fragment:
        return self.unique.unparsed(self.source_id, self.loc(line), text, reason)

    # -- regions ---------------------------------------------------------------------------

    def run(self, entries: list[PoEntry]) -> Iterator[Record]:
        first = next((i for i, e in enumerate(entries) if _NUMBERED.match(e.msgid)), len(entries))
        last = max(
            (i for i, e in enumerate(entries) if _RULE_PARAGRAPH.match(e.msgid)), default=first - 1
        )
        while last + 1 < len(entries) and entries[last + 1].msgid.startswith("Example"):
            last += 1
        for entry in entries[:first]:
            yield self.passage("introduction", entry)
        yield from self.rules(entries[first : last + 1])
        yield from self.glossary_and_credits(entries[last + 1 :])

    def passage(self, role: str, entry: PoEntry) -> Passage:
        pid = self.unique(f"{self.source_id}:{role}/{self.next_ordinal(role)}")
        return Passage(pid, role, entry.shown, self.lang(entry), self.version,
                       self.loc(entry.line))

    # -- rules -----------------------------------------------------------------------------

    def rules(self, entries: list[PoEntry]) -> Iterator[Record]:
        rule: Rule | None = None  # the rule examples attach to
        pending: Rule | None = None  # the rule an unnumbered paragraph may still continue
        for entry in entries:
            m = _NUMBERED.match(entry.msgid)
            number = RuleNumber.try_parse(m["num"]) if m else None
            if m and number is not None:
                if pending:
                    yield pending
                rule = pending = self.rule(entry, number, m["rest"])
                continue
            if pending and not (entry.msgid.startswith("Example") or entry.msgid in _BACK_MATTER) \
                    and pending.untranslated != entry.translated:
                pending = self.continue_rule(pending, entry)
                continue
            if pending:
                yield pending
                pending = None
            if entry.msgid in _BACK_MATTER:
                yield self.toc_entry(entry)
            elif entry.msgid.startswith("Example") and rule is not None:
                yield self.example(entry, rule)
            else:
                yield self.fragment(entry.line, entry.shown,
                                    "unnumbered paragraph in the rules that continues no rule")
        if pending:
            yield pending

    def rule(self, entry: PoEntry, number: RuleNumber, english_rest: str) -> Rule:
        text = _NUMBER_PREFIX.sub("", entry.msgstr, count=1) if entry.translated else english_rest
        rid = self.unique(f"{self.source_id}:{number}")
        english_rest = english_rest.rstrip()
        is_title = number.depth <= 1 or (
            number.depth == 2 and len(english_rest) < 60 and not _TITLE_END.search(english_rest)
        )
        parent = number.parent
        return Rule(
            rid,
            str(number),
            text,
            self.lang(entry),
            self.version,
            self.loc(entry.line),
            title=text if is_title else None,
            parent=str(parent) if parent else None,
            citations=find_citations(rid, text),
            untranslated=not entry.translated,
        )

    def continue_rule(self, rule: Rule, entry: PoEntry) -> Rule:
        text = f"{rule.text}\n{entry.shown}"
        return Rule(
            rule.id, rule.number, text, rule.language, rule.version, rule.loc, title=None,
            parent=rule.parent, citations=find_citations(rule.id, text),
            untranslated=rule.untranslated,
        )

    def example(self, entry: PoEntry, rule: Rule) -> Example:
        ordinal = self.next_ordinal(f"ex:{rule.id}")
        eid = self.unique(f"{rule.id}/ex{ordinal}")
        return Example(eid, rule.number, ordinal, entry.shown, self.lang(entry), self.version,
                       self.loc(entry.line), citations=find_citations(eid, entry.shown))

    def toc_entry(self, entry: PoEntry) -> TocEntry:
        tid = self.unique(f"{self.source_id}:toc/{slug(entry.msgid)}")
        return TocEntry(tid, None, entry.shown, self.lang(entry), self.version,
                        self.loc(entry.line))

    # -- glossary and credits --------------------------------------------------------------

    def glossary_and_credits(self, entries: list[PoEntry]) -> Iterator[Record]:
        term: PoEntry | None = None
        definitions: list[PoEntry] = []
        previous_letter = ""
        for i, entry in enumerate(entries):
            if _is_term(entry.msgid):
                letter = _first_letter(entry.msgid)
                if letter < previous_letter:
                    if term is not None:
                        yield self.glossary_entry(term, definitions)
                    for credit in entries[i:]:
                        yield self.passage("credits", credit)
                    return
                if term is not None:
                    yield self.glossary_entry(term, definitions)
                term, definitions, previous_letter = entry, [], letter
            elif term is None:
                yield self.fragment(entry.line, entry.shown, "glossary definition without a term")
            else:
                definitions.append(entry)
        if term is not None:
            yield self.glossary_entry(term, definitions)

    def glossary_entry(self, term: PoEntry, definitions: list[PoEntry]) -> GlossaryEntry:
        """A term and its definition paragraphs. The entry is Portuguese when any part is
        translated (untranslated paragraphs then show their English text, as the site does).
        A term can have no definition: gettext merged it with an identical earlier one."""
        gid = self.unique(f"{self.source_id}:glossary/{slug(term.msgid)}")
        definition = "\n".join(d.shown for d in definitions)
        translated = term.translated or any(d.translated for d in definitions)
        return GlossaryEntry(
            gid,
            term.shown,
            definition,
            self.language if translated else "en",
            self.version,
            self.loc(term.line),
            citations=find_citations(gid, definition),
        )


def _is_term(msgid: str) -> bool:
    return len(msgid) <= _TERM_MAX and _DEFINITION.search(msgid) is None


def _first_letter(text: str) -> str:
    return next((ch for ch in text.casefold() if ch.isalpha()), "")
